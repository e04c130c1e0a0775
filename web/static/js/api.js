// @ts-check
// The public HTTP API, and nothing else: this page is a client like any other. Its requests
// are made by openapi-fetch (web/vendor/openapi-fetch-0.17.0: the version clients/typescript
// locks, copied unchanged by clients/generate) and typed by `paths`, the service's OpenAPI
// document as openapi-typescript writes it (clients/typescript/src/schema.ts). tsc
// (web/jsconfig.json) checks every path, parameter and body sent here, and every field the
// pages read of an answer (`Schemas["GameOut"]`, …), against that contract: a field renamed
// in the API fails the check before any browser runs.
//
// Every failure becomes an ApiProblem carrying the problem+json `title`, `detail` and `code`.
// A 503 (or a 409 `request_in_progress`) with `Retry-After` is sent again after that delay, a
// few times, and the listener set with `onRetry` is told so; writes carry an
// `Idempotency-Key`, the same on every attempt, so a retry never places a card twice.

import createClient from "../../vendor/openapi-fetch-0.17.0/index.js";

/** @typedef {import("../../../clients/typescript/src/schema.js").paths} paths */
/** The service's models by their names in its OpenAPI document: `Schemas["GameOut"]`, …
 * @typedef {import("../../../clients/typescript/src/schema.js").components["schemas"]} Schemas */
/** @typedef {NonNullable<paths["/leaderboard"]["get"]["parameters"]["query"]>} BoardQuery */

const MAX_RETRIES = 5;
const MAX_RETRY_AFTER_SECONDS = 60;

// The client, typed by the document's paths. (TypeScript would write createClient<paths>;
// the cast goes through unknown because tsc, left to compare two Client types, takes seconds
// to do it. It is true: openapi-fetch's paths are types only.)
/** @typedef {import("../../vendor/openapi-fetch-0.17.0/index.js").Client<paths>} Client */
const client = /** @type {Client} */ (
  /** @type {unknown} */ (
    createClient({
      // Revalidate GETs every time (the API sends ETags), so the page never draws a stale game.
      cache: "no-cache",
      headers: { Accept: "application/json, application/problem+json" },
    })
  )
);

/**
 * @typedef {object} ProblemFields
 * @property {number} status the HTTP status; 0 when no answer came
 * @property {string} title
 * @property {string} [detail]
 * @property {string | null} [code]
 * @property {Schemas["FieldError"][] | null} [errors]
 * @property {number | null} [retryAfter]
 * @property {string | null} [gameId]
 */

/** An error answer of the API (or no answer at all: `status` 0). */
export class ApiProblem extends Error {
  /** @param {ProblemFields} fields */
  constructor({
    status,
    title,
    detail = "",
    code = null,
    errors = null,
    retryAfter = null,
    gameId = null,
  }) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiProblem";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.code = code;
    this.errors = errors;
    this.retryAfter = retryAfter;
    this.gameId = gameId; // `challenge_already_played`: the player's game of the day
  }

  /** A non-2xx answer: its problem+json `body` (as openapi-fetch read it: parsed JSON, else
   * text) if it is one, its status text otherwise.
   * @param {Response} response
   * @param {unknown} body */
  static of(response, body) {
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (body && typeof body === "object") {
      // Read field by field: a proxy's JSON may be no problem document at all.
      const problem = /** @type {Partial<Schemas["Problem"]>} */ (body);
      return new ApiProblem({
        status: response.status,
        title: String(problem.title || response.statusText || `HTTP ${response.status}`),
        detail: problem.detail ? String(problem.detail) : "",
        code: problem.code ? String(problem.code) : null,
        errors: Array.isArray(problem.errors) ? problem.errors : null,
        retryAfter,
        gameId: problem.game_id ? String(problem.game_id) : null,
      });
    }
    return new ApiProblem({
      status: response.status,
      title: response.statusText || `HTTP ${response.status}`,
      detail: "The server's answer was not a problem document.",
      retryAfter,
    });
  }
}

/** The problem `code` of an error, if it is an ApiProblem that has one; else null.
 * @param {unknown} error */
export function codeOf(error) {
  return error instanceof ApiProblem ? error.code : null;
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or null.
 * @param {string | null} value */
export function parseRetryAfter(value) {
  if (value === null || value.trim() === "") return null;
  let seconds = Number(value);
  if (!Number.isFinite(seconds)) {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return null;
    seconds = (date - Date.now()) / 1000;
  }
  return Math.min(Math.max(Math.ceil(seconds), 0), MAX_RETRY_AFTER_SECONDS);
}

/**
 * @typedef {object} RetryListener
 * @property {(problem: ApiProblem, seconds: number, attempt: number, maxAttempts: number)
 *   => void} retrying
 * @property {() => void} recovered
 */

/** @type {RetryListener} */
let retryListener = { retrying() {}, recovered() {} };

/** Be told when a request is retried after Retry-After (`retrying(problem, seconds,
 * attempt, maxAttempts)`) and when a retried request finally got an answer (`recovered()`).
 * @param {RetryListener} listener */
export function onRetry(listener) {
  retryListener = listener;
}

/** Wait `seconds` (a Retry-After's).
 * @param {number} seconds
 * @returns {Promise<void>} */
export function sleep(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** The seconds to wait before sending a refused request again, or null: not to be retried.
 * @param {ApiProblem} problem */
function retryDelay(problem) {
  const busy = problem.status === 503 || problem.code === "request_in_progress";
  return busy ? problem.retryAfter : null;
}

/** A new Idempotency-Key (a UUID). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  // A version 4 UUID by hand where randomUUID is missing (pages not served over HTTPS):
  // the service takes only those as a game creation's key.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * An answer of the API: its status, its body (typed by the operation's success responses)
 * and its Retry-After (an analysis' 202 says when to look again).
 * @template T
 * @typedef {{status: number, data: T, retryAfter: number | null}} Answer
 */

/**
 * Send a request until it is answered: its answer, or an ApiProblem. `send` makes the
 * request with openapi-fetch, anew for each attempt (a retry after Retry-After sends the
 * same request, headers and Idempotency-Key included).
 * @template T
 * @param {() => Promise<{data?: T, error?: unknown, response: Response}>} send
 * @returns {Promise<Answer<T>>}
 */
async function answer(send) {
  for (let attempt = 1; ; attempt++) {
    let sent;
    try {
      sent = await send();
    } catch (error) {
      // fetch rejects with a TypeError when no answer came at all; anything else is a bug.
      if (!(error instanceof TypeError)) throw error;
      if (attempt > 1) retryListener.recovered();
      throw new ApiProblem({
        status: 0,
        title: "Network error",
        detail: "The server could not be reached. Check the connection and try again.",
      });
    }
    const { data, error, response } = sent;
    if (response.ok) {
      if (attempt > 1) retryListener.recovered();
      const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
      // Every operation called here answers its success with a JSON body (openapi-fetch
      // leaves `data` undefined only for a 204 or an empty body).
      return { status: response.status, data: /** @type {T} */ (data), retryAfter };
    }
    const problem = ApiProblem.of(response, error);
    const wait = retryDelay(problem);
    if (wait !== null && attempt <= MAX_RETRIES) {
      retryListener.retrying(problem, wait, attempt, MAX_RETRIES);
      await sleep(wait);
      continue;
    }
    if (attempt > 1) retryListener.recovered();
    throw problem;
  }
}

/**
 * The body of `send`'s answer (see `answer`), or an ApiProblem.
 * @template T
 * @param {() => Promise<{data?: T, error?: unknown, response: Response}>} send
 * @returns {Promise<T>}
 */
async function dataOf(send) {
  return (await answer(send)).data;
}

/** The Authorization header of a credential (a game's token, a player's key, a racer's
 * token), or none.
 * @param {string | null} credential
 * @returns {Record<string, string>} */
const bearer = (credential) => (credential ? { Authorization: `Bearer ${credential}` } : {});

/** POST /games: a new game and its token. With a player's `key` the game is the account's
 * (`player` is then the account's name, checked by the API); `challenge`: "daily".
 * @param {string | null} player
 * @param {{key?: string | null, challenge?: Schemas["GameCreate"]["challenge"]}} [options] */
export function createGame(player, { key = null, challenge = null } = {}) {
  /** @type {Schemas["GameCreate"]} */
  const body = {};
  if (player) body.player = player;
  if (challenge) body.challenge = challenge;
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/games", {
      params: { header: { "idempotency-key": idempotencyKey } },
      body,
      headers: bearer(key),
    }),
  );
}

/** GET /games/{id}; `token` (the game's token or its player's key) reads a daily challenge
 * game, its player's only until its day closes.
 * @param {string} id
 * @param {string | null} [token] */
export function getGame(id, token = null) {
  return dataOf(() =>
    client.GET("/games/{game_id}", { params: { path: { game_id: id } }, headers: bearer(token) }),
  );
}

/** POST /games/{id}/placements, only on the version the page drew (If-Match).
 * @param {string} id
 * @param {string | null} token
 * @param {Schemas["PlacementIn"]} position
 * @param {number} version */
export function placeCard(id, token, position, version) {
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/games/{game_id}/placements", {
      params: {
        path: { game_id: id },
        header: { "if-match": `"v${version}"`, "idempotency-key": idempotencyKey },
      },
      body: { row: position.row, col: position.col },
      headers: bearer(token),
    }),
  );
}

/** GET /games/{id}/placements: the history, in order.
 * @param {string} id
 * @param {string | null} [token] */
export function getPlacements(id, token = null) {
  return dataOf(() =>
    client.GET("/games/{game_id}/placements", {
      params: { path: { game_id: id } },
      headers: bearer(token),
    }),
  );
}

/** GET /games?status=in_progress: a page of the games being played, the latest move first.
 * @param {{limit?: number, cursor?: string | null}} [options] */
export function getGamesInProgress({ limit = 20, cursor = null } = {}) {
  return dataOf(() =>
    client.GET("/games", { params: { query: { status: "in_progress", limit, cursor } } }),
  );
}

/** GET /games/{id}/hint (marks the game assisted).
 * @param {string} id
 * @param {string | null} token */
export function getHint(id, token) {
  return dataOf(() =>
    client.GET("/games/{game_id}/hint", {
      params: { path: { game_id: id } },
      headers: bearer(token),
    }),
  );
}

/** GET /leaderboard: `period` "all" | "day" | "week", `date` (YYYY-MM-DD) a day of that
 * day's or week's board, `perPlayer` each player's best only.
 * @param {{limit?: number, cursor?: string | null, includeAssisted?: boolean,
 *   challenge?: string | null, period?: BoardQuery["period"], date?: string | null,
 *   perPlayer?: boolean}} [options] */
export function getLeaderboard({
  limit = 20,
  cursor = null,
  includeAssisted = false,
  challenge = null,
  period = "all",
  date = null,
  perPlayer = false,
} = {}) {
  // Only what differs from the API's defaults is sent (undefined and null are left out).
  /** @type {BoardQuery} */
  const query = {
    limit,
    cursor,
    include_assisted: includeAssisted || undefined,
    challenge,
    period: period === "all" ? undefined : period,
    date,
    per_player: perPlayer ? "best" : undefined,
  };
  return dataOf(() => client.GET("/leaderboard", { params: { query } }));
}

/** GET /leaderboard/around/{id}: a won game's rank on its board of `period` (the day or
 * week it was won in) and up to `count` entries either side.
 * @param {string} id
 * @param {{period?: BoardQuery["period"], includeAssisted?: boolean, count?: number}} [options] */
export function getAround(id, { period = "all", includeAssisted = false, count = 5 } = {}) {
  return dataOf(() =>
    client.GET("/leaderboard/around/{game_id}", {
      params: {
        path: { game_id: id },
        query: { period, count, include_assisted: includeAssisted || undefined },
      },
    }),
  );
}

/** POST /players: the new player and their key (shown only in this answer).
 * @param {string} name */
export function registerPlayer(name) {
  // One key for the request and its retries: a retry whose first try was answered but the
  // answer lost gets the same account and secret back (docs/api.md, idempotency keys).
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/players", {
      params: { header: { "idempotency-key": idempotencyKey } },
      body: { name },
    }),
  );
}

/** GET /players/{name}: the player's page (their figures).
 * @param {string} name */
export function getPlayer(name) {
  return dataOf(() => client.GET("/players/{name}", { params: { path: { name } } }));
}

/** GET /players/me: the page of the key's player (403 for a key that is no player's).
 * @param {string} key */
export function getOwnPlayer(key) {
  return dataOf(() => client.GET("/players/me", { headers: bearer(key) }));
}

/** GET /players/{name}/games: a page of their games, newest first.
 * @param {string} name
 * @param {{limit?: number, cursor?: string | null,
 *   status?: Schemas["PlayerGameOut"]["status"] | null}} [options] */
export function getPlayerGames(name, { limit = 20, cursor = null, status = null } = {}) {
  return dataOf(() =>
    client.GET("/players/{name}/games", {
      params: { path: { name }, query: { limit, cursor, status } },
    }),
  );
}

/** POST /players/{name}/key: a new key; the current one is refused once the new one is
 * first used (GET /players/me with it, for instance).
 * @param {string} name
 * @param {string} key */
export function rotateKey(name, key) {
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/players/{name}/key", {
      params: { path: { name }, header: { "idempotency-key": idempotencyKey } },
      headers: bearer(key),
    }),
  );
}

/** GET /players/{name}/credentials: their keys and passkeys, and the recovery codes left.
 * @param {string} name
 * @param {string} key */
export function getCredentials(name, key) {
  return dataOf(() =>
    client.GET("/players/{name}/credentials", {
      params: { path: { name } },
      headers: bearer(key),
    }),
  );
}

/** DELETE /players/{name}/keys/{key_id}: revoke a key (409 `last_key` for the last one).
 * @param {string} name
 * @param {string} key
 * @param {string} keyId */
export async function revokeKey(name, key, keyId) {
  await dataOf(() =>
    client.DELETE("/players/{name}/keys/{key_id}", {
      params: { path: { name, key_id: keyId } },
      headers: bearer(key),
    }),
  );
}

/** POST /players/{name}/recovery-codes: ten new codes (shown once), replacing the old.
 * @param {string} name
 * @param {string} key */
export function newRecoveryCodes(name, key) {
  return dataOf(() =>
    client.POST("/players/{name}/recovery-codes", {
      params: { path: { name } },
      headers: bearer(key),
    }),
  );
}

/** POST /sign-in/recovery-code: a recovery code spent for a new key.
 * @param {string} name
 * @param {string} code
 * @param {string} keyName */
export function signInWithRecoveryCode(name, code, keyName) {
  return dataOf(() =>
    client.POST("/sign-in/recovery-code", { body: { name, code, key_name: keyName } }),
  );
}

/** POST /players/{name}/passkey-options: begin registering a passkey.
 * @param {string} name
 * @param {string} key */
export function passkeyRegistrationOptions(name, key) {
  return dataOf(() =>
    client.POST("/players/{name}/passkey-options", {
      params: { path: { name } },
      headers: bearer(key),
    }),
  );
}

/** POST /players/{name}/passkeys: store the passkey the browser made.
 * @param {string} name
 * @param {string} key
 * @param {string} challengeId
 * @param {Record<string, unknown>} credential
 * @param {string} passkeyName */
export function registerPasskey(name, key, challengeId, credential, passkeyName) {
  return dataOf(() =>
    client.POST("/players/{name}/passkeys", {
      params: { path: { name } },
      headers: bearer(key),
      body: { challenge_id: challengeId, credential, name: passkeyName },
    }),
  );
}

/** DELETE /players/{name}/passkeys/{passkey_id}: remove a passkey.
 * @param {string} name
 * @param {string} key
 * @param {string} passkeyId */
export async function revokePasskey(name, key, passkeyId) {
  await dataOf(() =>
    client.DELETE("/players/{name}/passkeys/{passkey_id}", {
      params: { path: { name, passkey_id: passkeyId } },
      headers: bearer(key),
    }),
  );
}

/** POST /sign-in/passkey/options: begin a passkey sign-in. */
export function passkeySignInOptions() {
  return dataOf(() => client.POST("/sign-in/passkey/options", {}));
}

/** POST /sign-in/passkey: the passkey's answer, for a new key of its account.
 * @param {string} challengeId
 * @param {Record<string, unknown>} credential
 * @param {string} keyName */
export function signInWithPasskey(challengeId, credential, keyName) {
  return dataOf(() =>
    client.POST("/sign-in/passkey", {
      body: { challenge_id: challengeId, credential, key_name: keyName },
    }),
  );
}

/** GET /challenges/{day} (`today` or YYYY-MM-DD); with a player's `key`, its
 * `your_game_id` names their game of the day.
 * @param {string} day
 * @param {string | null} [key] */
export function getChallenge(day, key = null) {
  return dataOf(() =>
    client.GET("/challenges/{day}", { params: { path: { day } }, headers: bearer(key) }),
  );
}

/** POST /games/{id}/analysis: {status, data, retryAfter} (202 while queued or running).
 * @param {string} id */
export function requestAnalysis(id) {
  return answer(() =>
    client.POST("/games/{game_id}/analysis", { params: { path: { game_id: id } } }),
  );
}

/** GET /games/{id}/analysis: {status, data, retryAfter}.
 * @param {string} id */
export function getAnalysis(id) {
  return answer(() =>
    client.GET("/games/{game_id}/analysis", { params: { path: { game_id: id } } }),
  );
}

/** POST /races: a new race in its lobby, this page its first racer: a guest's under `player`
 * (its `racer_token` in the answer), or the account's with its `key`; `computer` races too,
 * at `level` ("beginner", "good" or "best"); `isPublic`: listed among the open races.
 * @param {{player?: string | null, key?: string | null, computer?: boolean,
 *   level?: Schemas["RaceCreate"]["level"] | null, isPublic?: boolean}} [options] */
export function openRace({
  player = null,
  key = null,
  computer = false,
  level = null,
  isPublic = false,
} = {}) {
  /** @type {Schemas["RaceCreate"]} */
  const body = { computer };
  if (isPublic) body.public = true;
  if (player) body.player = player;
  if (computer && level) body.level = level;
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/races", {
      params: { header: { "idempotency-key": idempotencyKey } },
      body,
      headers: bearer(key),
    }),
  );
}

/** GET /races/open: the public races in their lobby with a free seat, newest first.
 * @param {{limit?: number, cursor?: string | null}} [options] */
export function getOpenRaces({ limit = 20, cursor = null } = {}) {
  return dataOf(() => client.GET("/races/open", { params: { query: { limit, cursor } } }));
}

/** POST /races/{id}/racers: join a race in its lobby, as a guest or with the account's key.
 * @param {string} id
 * @param {{player?: string | null, key?: string | null}} [options] */
export function joinRace(id, { player = null, key = null } = {}) {
  /** @type {Schemas["RacerIn"]} */
  const body = {};
  if (player) body.player = player;
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/races/{race_id}/racers", {
      params: { path: { race_id: id }, header: { "idempotency-key": idempotencyKey } },
      body,
      headers: bearer(key),
    }),
  );
}

/** GET /races/{id}: the race (counts only); with a racer's credential, `you` and `your_game`.
 * @param {string} id
 * @param {string | null} [credential] */
export function getRace(id, credential = null) {
  return dataOf(() =>
    client.GET("/races/{race_id}", {
      params: { path: { race_id: id } },
      headers: bearer(credential),
    }),
  );
}

/** POST /races/{id}/start: the opener starts the countdown.
 * @param {string} id
 * @param {string | null} credential */
export function startRace(id, credential) {
  return dataOf(() =>
    client.POST("/races/{race_id}/start", {
      params: { path: { race_id: id } },
      headers: bearer(credential),
    }),
  );
}

/** POST /races/{id}/leave: the racer leaves the lobby; the race as anyone sees it.
 * @param {string} id
 * @param {string | null} credential */
export function leaveRace(id, credential) {
  return dataOf(() =>
    client.POST("/races/{race_id}/leave", {
      params: { path: { race_id: id } },
      headers: bearer(credential),
    }),
  );
}

/** POST /races/{id}/rematch: the next race for the same racers (the same one for each).
 * @param {string} id
 * @param {string | null} credential */
export function rematchRace(id, credential) {
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/races/{race_id}/rematch", {
      params: { path: { race_id: id }, header: { "idempotency-key": idempotencyKey } },
      headers: bearer(credential),
    }),
  );
}

/** GET /players/{name}/races: their race figures and their last races.
 * @param {string} name */
export function getPlayerRaces(name) {
  return dataOf(() => client.GET("/players/{name}/races", { params: { path: { name } } }));
}

/** GET /tournaments: the tournaments of the statuses asked (the API's default: announced and
 * running, soonest start first; `finished` alone: the archive, latest end first).
 * @param {{status?: string | null, limit?: number, cursor?: string | null}} [options] */
export function getTournaments({ status = null, limit = 20, cursor = null } = {}) {
  /** @type {NonNullable<paths["/tournaments"]["get"]["parameters"]["query"]>} */
  const query = { limit };
  if (status) query.status = status;
  if (cursor) query.cursor = cursor;
  return dataOf(() => client.GET("/tournaments", { params: { query } }));
}

/** GET /tournaments/{id}; with an entrant's credential (a guest's token or the account's
 * key) its `you` is that entrant's entry.
 * @param {string} id
 * @param {string | null} [credential] */
export function getTournament(id, credential = null) {
  return dataOf(() =>
    client.GET("/tournaments/{tournament_id}", {
      params: { path: { tournament_id: id } },
      headers: bearer(credential),
    }),
  );
}

/** POST /tournaments/{id}/entrants: enter it, as the account whose `key` is given, or as a
 * guest under `name` (where the tournament takes guests); a guest's token comes only here.
 * @param {string} id
 * @param {{name?: string | null, key?: string | null}} [who] */
export function joinTournament(id, { name = null, key = null } = {}) {
  const idempotencyKey = newKey();
  return dataOf(() =>
    client.POST("/tournaments/{tournament_id}/entrants", {
      params: { path: { tournament_id: id }, header: { "idempotency-key": idempotencyKey } },
      body: key ? {} : { name: name ?? "" },
      headers: bearer(key),
    }),
  );
}

/** DELETE /tournaments/{id}/entrants/me: leave it (before the start the entry goes; once it
 * runs it stays in the standings, marked left).
 * @param {string} id
 * @param {string | null} credential */
export async function leaveTournament(id, credential) {
  await dataOf(() =>
    client.DELETE("/tournaments/{tournament_id}/entrants/me", {
      params: { path: { tournament_id: id } },
      headers: bearer(credential),
    }),
  );
}

/** POST /tournaments/{id}/games: deal the entrant's next deal; its game is played as any
 * other, with the same credential (or the game's own `token`). The API types the game as
 * any object (it is the answer of `POST /games`): it is given that type here. Not retried
 * with a key: a second deal of the same deal is refused (`deal_in_progress`), never made.
 * @param {string} id
 * @param {string | null} credential
 * @returns {Promise<{deal: number, game: Schemas["GameCreated"]}>} */
export async function playTournamentDeal(id, credential) {
  const dealt = await dataOf(() =>
    client.POST("/tournaments/{tournament_id}/games", {
      params: { path: { tournament_id: id } },
      headers: bearer(credential),
    }),
  );
  return {
    deal: dealt.deal,
    game: /** @type {Schemas["GameCreated"]} */ (/** @type {unknown} */ (dealt.game)),
  };
}

/** GET /tournaments/{id}/standings: a page of its standings; `around` (an entrant's name)
 * the page that has that entrant in its middle.
 * @param {string} id
 * @param {{cursor?: string | null, limit?: number, around?: string | null}} [options] */
export function getStandings(id, { cursor = null, limit = 20, around = null } = {}) {
  /** @type {NonNullable<paths["/tournaments/{tournament_id}/standings"]["get"]["parameters"]["query"]>} */
  const query = { limit };
  if (cursor) query.cursor = cursor;
  if (around) query.around = around;
  return dataOf(() =>
    client.GET("/tournaments/{tournament_id}/standings", {
      params: { path: { tournament_id: id }, query },
    }),
  );
}

/** GET /players/{name}/tournaments: their finished tournaments, latest first.
 * @param {string} name
 * @param {{cursor?: string | null}} [options] */
export function getPlayerTournaments(name, { cursor = null } = {}) {
  const query = cursor ? { cursor } : {};
  return dataOf(() =>
    client.GET("/players/{name}/tournaments", { params: { path: { name }, query } }),
  );
}
