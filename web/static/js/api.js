// The public HTTP API, and nothing else: this page is a client like any other.
//
// Every failure becomes an ApiProblem carrying the problem+json `title` and `detail`. A 503
// (or a 409 `request_in_progress`) with `Retry-After` is retried automatically after that
// delay, a few times, and the listener set with `onRetry` is told so; writes carry an
// `Idempotency-Key`, so a retry never places a card twice.

const MAX_RETRIES = 5;
const MAX_RETRY_AFTER_SECONDS = 60;

/** An error answer of the API (or no answer at all: `status` 0). */
export class ApiProblem extends Error {
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

  /** Read a non-2xx response: problem+json if it is one, its status text otherwise. */
  static async fromResponse(response) {
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    let body = null;
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) {
      try {
        body = await response.json();
      } catch {
        body = null;
      }
    }
    if (body && typeof body === "object") {
      return new ApiProblem({
        status: response.status,
        title: String(body.title || response.statusText || `HTTP ${response.status}`),
        detail: body.detail ? String(body.detail) : "",
        code: body.code ? String(body.code) : null,
        errors: Array.isArray(body.errors) ? body.errors : null,
        retryAfter,
        gameId: body.game_id ? String(body.game_id) : null,
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

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or null. */
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

let retryListener = { retrying() {}, recovered() {} };

/** Be told when a request is retried after Retry-After (`retrying(problem, seconds,
 * attempt, maxAttempts)`) and when a retried request finally got an answer (`recovered()`). */
export function onRetry(listener) {
  retryListener = listener;
}

/** Wait `seconds` (a Retry-After's). */
export function sleep(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

function isRetryable(problem) {
  return (
    problem.retryAfter !== null &&
    (problem.status === 503 || problem.code === "request_in_progress")
  );
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

/** One API request: its JSON answer (with `full`, {status, data, retryAfter}), or an
 * ApiProblem. */
async function request(method, path, { body, headers = {}, full = false } = {}) {
  const init = {
    method,
    // Revalidate GETs every time (the API sends ETags), so the page never draws a stale game.
    cache: "no-cache",
    headers: { Accept: "application/json, application/problem+json", ...headers },
  };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  for (let attempt = 1; ; attempt++) {
    let response;
    try {
      response = await fetch(path, init);
    } catch {
      if (attempt > 1) retryListener.recovered();
      throw new ApiProblem({
        status: 0,
        title: "Network error",
        detail: "The server could not be reached. Check the connection and try again.",
      });
    }
    if (response.ok) {
      const data = await response.json();
      if (attempt > 1) retryListener.recovered();
      if (!full) return data;
      const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
      return { status: response.status, data, retryAfter };
    }
    const problem = await ApiProblem.fromResponse(response);
    if (isRetryable(problem) && attempt <= MAX_RETRIES) {
      retryListener.retrying(problem, problem.retryAfter, attempt, MAX_RETRIES);
      await sleep(problem.retryAfter);
      continue;
    }
    if (attempt > 1) retryListener.recovered();
    throw problem;
  }
}

const gamePath = (id) => `/games/${encodeURIComponent(id)}`;
const playerPath = (name) => `/players/${encodeURIComponent(name)}`;
const bearer = (token) => (token ? { Authorization: `Bearer ${token}` } : {});

/** POST /games: a new game and its token. With a player's `key` the game is the account's
 * (`player` is then the account's name, checked by the API); `challenge`: "daily". */
export function createGame(player, { key = null, challenge = null } = {}) {
  const body = {};
  if (player) body.player = player;
  if (challenge) body.challenge = challenge;
  return request("POST", "/games", {
    body,
    headers: { ...bearer(key), "Idempotency-Key": newKey() },
  });
}

/** GET /games/{id}; `token` (the game's token or its player's key) reads a daily challenge
 * game, its player's only until its day closes. */
export function getGame(id, token = null) {
  return request("GET", gamePath(id), { headers: bearer(token) });
}

/** POST /games/{id}/placements, only on the version the page drew (If-Match). */
export function placeCard(id, token, position, version) {
  return request("POST", `${gamePath(id)}/placements`, {
    body: { row: position.row, col: position.col },
    headers: { ...bearer(token), "If-Match": `"v${version}"`, "Idempotency-Key": newKey() },
  });
}

/** GET /games/{id}/placements: the history, in order. */
export function getPlacements(id, token = null) {
  return request("GET", `${gamePath(id)}/placements`, { headers: bearer(token) });
}

/** GET /games?status=in_progress: a page of the games being played, the latest move first
 * ({games: [{game_id, player, cards_placed, last_move_at, created_at}], next_cursor}). */
export function getGamesInProgress({ limit = 20, cursor = null } = {}) {
  const query = new URLSearchParams({ status: "in_progress", limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  return request("GET", `/games?${query}`);
}

/** GET /games/{id}/hint (marks the game assisted). */
export function getHint(id, token) {
  return request("GET", `${gamePath(id)}/hint`, { headers: bearer(token) });
}

/** GET /leaderboard: `period` "all" | "day" | "week", `date` (YYYY-MM-DD) a day of that
 * day's or week's board, `perPlayer` each player's best only. */
export function getLeaderboard({
  limit = 20,
  cursor = null,
  includeAssisted = false,
  challenge = null,
  period = "all",
  date = null,
  perPlayer = false,
} = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  if (includeAssisted) query.set("include_assisted", "true");
  if (challenge) query.set("challenge", challenge);
  if (period !== "all") query.set("period", period);
  if (date) query.set("date", date);
  if (perPlayer) query.set("per_player", "best");
  return request("GET", `/leaderboard?${query}`);
}

/** GET /leaderboard/around/{id}: a won game's rank on its board of `period` (the day or
 * week it was won in) and up to `count` entries either side. */
export function getAround(id, { period = "all", includeAssisted = false, count = 5 } = {}) {
  const query = new URLSearchParams({ period, count: String(count) });
  if (includeAssisted) query.set("include_assisted", "true");
  return request("GET", `/leaderboard/around/${encodeURIComponent(id)}?${query}`);
}

/** POST /players: the new player and their key (shown only in this answer). */
export function registerPlayer(name) {
  return request("POST", "/players", { body: { name } });
}

/** GET /players/{name}: the player's page (their figures). */
export function getPlayer(name) {
  return request("GET", playerPath(name));
}

/** GET /players/me: the page of the key's player (403 for a key that is no player's). */
export function getOwnPlayer(key) {
  return request("GET", "/players/me", { headers: bearer(key) });
}

/** GET /players/{name}/games: a page of their games, newest first. */
export function getPlayerGames(name, { limit = 20, cursor = null, status = null } = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  if (status) query.set("status", status);
  return request("GET", `${playerPath(name)}/games?${query}`);
}

/** POST /players/{name}/key: a new key, the current one refused from then on. */
export function rotateKey(name, key) {
  return request("POST", `${playerPath(name)}/key`, { headers: bearer(key) });
}

/** GET /challenges/{day} (`today` or YYYY-MM-DD); with a player's `key`, its
 * `your_game_id` names their game of the day. */
export function getChallenge(day, key = null) {
  return request("GET", `/challenges/${encodeURIComponent(day)}`, { headers: bearer(key) });
}

/** POST /games/{id}/analysis: {status, data, retryAfter} (202 while queued or running). */
export function requestAnalysis(id) {
  return request("POST", `${gamePath(id)}/analysis`, { full: true });
}

/** GET /games/{id}/analysis: {status, data, retryAfter}. */
export function getAnalysis(id) {
  return request("GET", `${gamePath(id)}/analysis`, { full: true });
}

const racePath = (id) => `/races/${encodeURIComponent(id)}`;

/** POST /races: a new race in its lobby, this page its first racer: a guest's under `player`
 * (its `racer_token` in the answer), or the account's with its `key`; `computer` races too,
 * at `level` ("beginner", "good" or "best"). */
export function openRace({ player = null, key = null, computer = false, level = null } = {}) {
  const body = { computer };
  if (player) body.player = player;
  if (computer && level) body.level = level;
  return request("POST", "/races", { body, headers: bearer(key) });
}

/** POST /races/{id}/racers: join a race in its lobby, as a guest or with the account's key. */
export function joinRace(id, { player = null, key = null } = {}) {
  const body = {};
  if (player) body.player = player;
  return request("POST", `${racePath(id)}/racers`, { body, headers: bearer(key) });
}

/** GET /races/{id}: the race (counts only); with a racer's credential, `you` and `your_game`. */
export function getRace(id, credential = null) {
  return request("GET", racePath(id), { headers: bearer(credential) });
}

/** POST /races/{id}/start: the opener starts the countdown. */
export function startRace(id, credential) {
  return request("POST", `${racePath(id)}/start`, { headers: bearer(credential) });
}

/** POST /races/{id}/leave: the racer leaves the lobby; the race as anyone sees it. */
export function leaveRace(id, credential) {
  return request("POST", `${racePath(id)}/leave`, { headers: bearer(credential) });
}

/** POST /races/{id}/rematch: the next race for the same racers (the same one for each). */
export function rematchRace(id, credential) {
  return request("POST", `${racePath(id)}/rematch`, { headers: bearer(credential) });
}

/** GET /players/{name}/races: their race figures and their last races. */
export function getPlayerRaces(name) {
  return request("GET", `${playerPath(name)}/races`);
}
