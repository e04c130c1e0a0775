// @ts-check
// What the page keeps in this browser's localStorage: the game being played (its id and
// token), the player's account (their name and secret key), a guest racer's credential
// for each race it is in (its `racer_token`) and a guest entrant's for each tournament it
// entered (its `token`). Nothing else is kept, and nothing is kept
// anywhere but here (no cookie: the key travels only in Authorization headers).

const SAVED_GAME = "foursquare.game";
const SAVED_ACCOUNT = "foursquare.account";
const SAVED_RACES = "foursquare.races";
const SAVED_TOURNAMENTS = "foursquare.tournaments";
// A guest racer's tokens, the latest races' only: a race is over in minutes.
const RACES_KEPT = 20;
// A guest entrant's tokens, the latest tournaments' only.
const TOURNAMENTS_KEPT = 20;

/** A game being played; `tournament` when it is a deal of a tournament (the play view offers
 * the way back to it, and its next deal).
 * @typedef {{id: string, token: string | null, player: string,
 *   tournament?: {id: string, name: string, deal: number, deals: number}}} SavedGame */
/** @typedef {{name: string, key: string}} Account */
/** @typedef {(account: Account | null) => void} AccountListener */

export function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: play on, without surviving a reload
  }
}

/** What is kept under `name`, parsed (unknown: it is checked where it is read).
 * @param {string} name
 * @returns {unknown} */
function readJson(name) {
  try {
    return JSON.parse(storage()?.getItem(name) || "null");
  } catch {
    return null; // a damaged entry is as good as none
  }
}

/** @param {string} name @param {unknown} value */
function writeJson(name, value) {
  if (value) storage()?.setItem(name, JSON.stringify(value));
  else storage()?.removeItem(name);
}

/** The game being played: {id, token, player}; `token` is null for a game opened without
 * its token (then the account's key authorises its placements).
 * @returns {SavedGame | null} */
export function readSavedGame() {
  const value = /** @type {Partial<SavedGame> | null} */ (readJson(SAVED_GAME));
  if (value && typeof value.id === "string" && (typeof value.token === "string" || value.token === null)) {
    return /** @type {SavedGame} */ (value);
  }
  return null;
}

/** @param {SavedGame | null} value */
export function writeSavedGame(value) {
  writeJson(SAVED_GAME, value);
}

/** The player's account: {name, key}, or null (a guest).
 * @returns {Account | null} */
export function readAccount() {
  const value = /** @type {Partial<Account> | null} */ (readJson(SAVED_ACCOUNT));
  if (value && typeof value.name === "string" && typeof value.key === "string") {
    return { name: value.name, key: value.key };
  }
  return null;
}

/** @type {AccountListener[]} */
const listeners = [];

/** Be told (with the account, or null) whenever the account is stored or forgotten.
 * @param {AccountListener} listener */
export function onAccountChange(listener) {
  listeners.push(listener);
}

/** @param {Account | null} value */
export function writeAccount(value) {
  writeJson(SAVED_ACCOUNT, value);
  for (const listener of listeners) listener(value);
}

/** What authorises reading a private game (a daily challenge game before its day closes):
 * the game's token if this page holds it, else the account's key, else nothing.
 * @param {string} gameId */
export function bearerFor(gameId) {
  const saved = readSavedGame();
  if (saved && saved.id === gameId && saved.token) return saved.token;
  return readAccount()?.key || null;
}

/** A guest racer's `racer_token` in race `raceId` (shown once by the API, when it opened or
 * joined: kept so that a reload, and the rematch, find the racer again), or null.
 * @param {string} raceId
 * @returns {string | null} */
export function readRaceToken(raceId) {
  const kept = readJson(SAVED_RACES);
  if (!Array.isArray(kept)) return null;
  const entry = kept.find((e) => e && e.race === raceId && typeof e.token === "string");
  return entry ? entry.token : null;
}

/** Keep a guest racer's token for race `raceId` (the newest first, the oldest forgotten).
 * @param {string} raceId
 * @param {string} token */
export function writeRaceToken(raceId, token) {
  const kept = readJson(SAVED_RACES);
  const others = Array.isArray(kept) ? kept.filter((e) => e && e.race !== raceId) : [];
  writeJson(SAVED_RACES, [{ race: raceId, token }, ...others].slice(0, RACES_KEPT));
}

/** Forget the racer's token for race `raceId` (it left the race: the token names no racer).
 * @param {string} raceId */
export function forgetRaceToken(raceId) {
  const kept = readJson(SAVED_RACES);
  if (!Array.isArray(kept)) return;
  writeJson(SAVED_RACES, kept.filter((e) => e && e.race !== raceId));
}

/** A guest entrant's token in tournament `tournamentId` (shown once by the API, when it
 * joined: kept so that a reload finds the entrant, its deals and its games again), or null.
 * @param {string} tournamentId
 * @returns {string | null} */
export function readTournamentToken(tournamentId) {
  const kept = readJson(SAVED_TOURNAMENTS);
  if (!Array.isArray(kept)) return null;
  const entry = kept.find((e) => e && e.tournament === tournamentId && typeof e.token === "string");
  return entry ? entry.token : null;
}

/** Keep a guest entrant's token for tournament `tournamentId` (the newest first).
 * @param {string} tournamentId
 * @param {string} token */
export function writeTournamentToken(tournamentId, token) {
  const kept = readJson(SAVED_TOURNAMENTS);
  const others = Array.isArray(kept) ? kept.filter((e) => e && e.tournament !== tournamentId) : [];
  const entries = [{ tournament: tournamentId, token }, ...others];
  writeJson(SAVED_TOURNAMENTS, entries.slice(0, TOURNAMENTS_KEPT));
}

/** Forget the entrant's token for tournament `tournamentId` (it left before the start: the
 * token names no entrant).
 * @param {string} tournamentId */
export function forgetTournamentToken(tournamentId) {
  const kept = readJson(SAVED_TOURNAMENTS);
  if (!Array.isArray(kept)) return;
  writeJson(SAVED_TOURNAMENTS, kept.filter((e) => e && e.tournament !== tournamentId));
}
