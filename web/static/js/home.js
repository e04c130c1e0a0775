// @ts-check
// The home page (`#/`): a game in one press (a name is optional: a guest plays as
// "anonymous"), today's challenge and whether this player has played it, the games being
// played now and their cards placed (kept live by the site's `game` events), the next
// tournament (a running one, else the soonest announced) and today's best scores (read again
// on a `win`), each a link to its page; the open races (public races in their lobby with a
// free seat, kept live by their own stream), each joined in one press.

import * as api from "./api.js";
import { $, element } from "./dom.js";
import {
  currentGeneration,
  OPEN_RACES_EVENTS_URL,
  openStream,
  SITE_EVENTS_URL,
} from "./events.js";
import { refusedField } from "./fields.js";
import { GUEST_NAME, resultText } from "./game.js";
import { playerLink } from "./leaderboard.js";
import { checkNameField } from "./names.js";
import { startGame } from "./play.js";
import {
  onAccountChange,
  readAccount,
  readSavedGame,
  storage,
  writeRaceToken,
} from "./storage.js";
import { nextTournament } from "./tournaments.js";
import { clearNotice, showError } from "./ui.js";

const SAVED_PLAYER = "foursquare.player"; // the name last played under (play.js keeps it too)
const SHOWN = 5; // rows of each list
// The games being played are read again this often while the page is shown: a game nobody
// moves leaves the API's list after some minutes with no event to say so (the `game` events
// keep the list at once otherwise).
const LIVE_REFRESH_MS = 15_000;

/** @typedef {import("./api.js").Schemas["GameInProgressOut"]} GameInProgress */

/** @type {GameInProgress[]} */
let live = []; // the games being played, as `GET /games` lists them, latest first
/** @type {ReturnType<typeof setInterval> | null} */
let liveTimer = null;

function refreshLive() {
  if ($("home-view").hidden) {
    if (liveTimer !== null) clearInterval(liveTimer);
    liveTimer = null;
    return;
  }
  // A redraw would take the focus away from a link in the list.
  if (!$("home-live-list").contains(document.activeElement)) loadLive();
}

function renderStart() {
  const account = readAccount();
  $("home-guest").hidden = Boolean(account);
  $("home-account").hidden = !account;
  if (account) $("home-account-name").textContent = account.name;
  $("home-resume").hidden = !readSavedGame();
}

/** @param {GameInProgress} entry */
function cardsText(entry) {
  return `${entry.cards_placed === 1 ? "1 card" : `${entry.cards_placed} cards`} placed`;
}

/** @param {GameInProgress} entry */
function gameItem(entry) {
  const player = entry.player ?? GUEST_NAME;
  const watch = element("a", {
    href: `#/live/${encodeURIComponent(entry.game_id)}`,
    textContent: "Watch",
  });
  watch.setAttribute("aria-label", `Watch the game of ${player}`);
  const cards = element("span", { className: "cards", textContent: cardsText(entry) });
  const item = element("li", {}, playerLink(player, entry.registered), ", ", cards, " · ", watch);
  item.dataset.gameId = entry.game_id;
  return item;
}

function renderLive() {
  $("home-live-list").replaceChildren(...live.slice(0, SHOWN).map(gameItem));
  $("home-live-empty").hidden = live.length > 0;
}

/** A game began, moved or ended (`game` event): the list gains it, counts its cards (the
 * latest move first) or loses it at once. While the focus is in the list, a game shown that
 * moved is counted where it is (redrawn, the list would lose the focus).
 * @param {import("./api.js").Schemas["GameListedEvent"]} data */
function gameEvent(data) {
  live = live.filter((entry) => entry.game_id !== data.game_id);
  if (data.status === "in_progress") live = [data, ...live];
  const list = $("home-live-list");
  const cards = list.querySelector(`li[data-game-id="${CSS.escape(data.game_id)}"] .cards`);
  if (cards && data.status === "in_progress" && list.contains(document.activeElement)) {
    cards.textContent = cardsText(data);
    return;
  }
  renderLive();
}

async function loadLive() {
  try {
    live = (await api.getGamesInProgress({ limit: SHOWN * 2 })).games;
  } catch {
    live = [];
  }
  renderLive();
}

async function loadBest() {
  let answer;
  try {
    answer = await api.getLeaderboard({ period: "day", limit: SHOWN });
  } catch {
    $("home-best-empty").textContent = "Today's scores could not be read just now.";
    $("home-best-empty").hidden = false;
    return;
  }
  const rows = answer.entries.map((entry) => {
    const replay = element("a", {
      href: `#/games/${encodeURIComponent(entry.game_id)}`,
      textContent: `score ${entry.score}`,
    });
    replay.setAttribute("aria-label", `Replay the game of ${entry.player}, score ${entry.score}`);
    return element("li", {}, playerLink(entry.player, entry.registered), " · ", replay);
  });
  $("home-best-list").replaceChildren(...rows);
  const left = answer.assisted_left_out || 0;
  let text = "";
  if (rows.length === 0) text = "No game won without hints today yet.";
  if (left > 0) {
    text += ` ${left === 1 ? "1 win" : `${left} wins`} with hints ${left === 1 ? "is" : "are"} not listed here.`;
  }
  const held = answer.held_for_review || 0;
  if (held > 0) {
    text += ` ${held === 1 ? "1 win is" : `${held} wins are`} with the fair-play review, not listed yet.`;
  }
  $("home-best-empty").textContent = text.trim();
  $("home-best-empty").hidden = text === "";
}

async function loadDaily() {
  const account = readAccount();
  const text = $("home-daily-text");
  const link = $("home-daily-link", HTMLAnchorElement);
  let day;
  try {
    day = await api.getChallenge("today", account?.key || null);
  } catch {
    text.textContent = "Today's challenge could not be read just now.";
    return;
  }
  const counts = `${day.played} played today, ${day.won} won.`;
  link.href = "#/daily";
  if (!account) {
    text.textContent = `One deal for everybody, one attempt each: ${counts} Register a name to play it.`;
    link.textContent = "Open today's challenge";
    return;
  }
  if (!day.your_game_id) {
    text.textContent = `You have not played it yet: ${counts}`;
    link.textContent = "Play today's challenge";
    return;
  }
  try {
    const game = await api.getGame(day.your_game_id, account.key);
    text.textContent =
      game.status === "in_progress"
        ? `You have started it: ${game.placements_count} cards placed. ${counts}`
        : `You played it: ${resultText(game.status, game.end_reason, game.score)}. ${counts}`;
    link.textContent = game.status === "in_progress" ? "Play on" : "See your attempt";
  } catch {
    text.textContent = `You played it. ${counts}`;
    link.textContent = "See your attempt";
  }
}

async function loadTournament() {
  const text = $("home-tournament-text");
  const link = $("home-tournament-link", HTMLAnchorElement);
  let next;
  try {
    next = await nextTournament();
  } catch {
    text.textContent = "The tournaments could not be read just now.";
    return;
  }
  if (next === null) {
    text.textContent = "No tournament is announced just now.";
    link.href = "#/tournaments";
    link.textContent = "Past tournaments";
    return;
  }
  text.textContent = next.text;
  link.href = `#/tournaments/${encodeURIComponent(next.id)}`;
  link.textContent = "Open the tournament";
}

// ---------------------------------------------------------------- the open races

/** @typedef {import("./api.js").Schemas["OpenRaceOut"]} OpenRace */

/** @type {OpenRace[]} */
let openRaces = []; // the open races known, newest first
let joining = false;

/** What a joiner reads of a race: who is in it, its seats, its time and the computer.
 * @param {OpenRace} race */
function openRaceText(race) {
  const names = race.names.filter((name) => name !== "computer");
  const who = names.length > 0 ? names.join(", ") : "the computer";
  const computer = race.level ? ` and the computer (${race.level})` : "";
  const minutes = Math.round(race.time_limit / 60);
  const time = minutes >= 1 ? `${minutes} min` : `${race.time_limit} s`;
  return `${who}${names.length > 0 ? computer : ""} · ${race.racers} of ${race.seats} seats · ${time}`;
}

/** @param {OpenRace} race */
function openRaceItem(race) {
  const text = openRaceText(race);
  const join = element("button", { type: "button", className: "join", textContent: "Join" });
  join.setAttribute("aria-label", `Join the race of ${text}`);
  join.dataset.raceId = race.id;
  join.addEventListener("click", () => joinOpenRace(race.id));
  const item = element("li", {}, element("span", { textContent: text }), " ", join);
  item.dataset.raceId = race.id;
  return item;
}

function renderOpenRaces() {
  const list = $("home-races-list");
  // A redraw keeps the focus on the Join button it was on, if its race is still listed.
  const focused = document.activeElement;
  const kept =
    focused instanceof HTMLElement && list.contains(focused) ? focused.dataset.raceId : null;
  list.replaceChildren(...openRaces.slice(0, SHOWN).map(openRaceItem));
  $("home-races-empty").hidden = openRaces.length > 0;
  if (kept) {
    const again = list.querySelector(`button[data-race-id="${CSS.escape(kept)}"]`);
    if (again instanceof HTMLElement) again.focus();
  }
}

/** A race opened, or a racer joined or left one (`opened`, `changed`): listed as it is now.
 * @param {OpenRace} data */
function openRaceEvent(data) {
  openRaces = [data, ...openRaces.filter((race) => race.id !== data.id)];
  openRaces.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  renderOpenRaces();
}

/** A race started, filled or closed (`closed`): off the list.
 * @param {{id: string}} data */
function closedRaceEvent(data) {
  openRaces = openRaces.filter((race) => race.id !== data.id);
  renderOpenRaces();
}

async function loadOpenRaces() {
  try {
    openRaces = (await api.getOpenRaces({ limit: SHOWN })).races;
  } catch {
    openRaces = [];
  }
  renderOpenRaces();
}

/** Join an open race in one press: as the account, or as a guest under the name of the
 * start form (or "anonymous"), then to its lobby.
 * @param {string} raceId */
async function joinOpenRace(raceId) {
  if (joining) return;
  const account = readAccount();
  clearNotice();
  if (!account && refusedField("home-name", "home-name-check")) return;
  const player = account ? null : $("home-name", HTMLInputElement).value.trim() || null;
  joining = true;
  try {
    const joined = await api.joinRace(raceId, { player, key: account?.key || null });
    if (joined.racer_token) writeRaceToken(joined.id, joined.racer_token);
    window.location.hash = `#/races/${encodeURIComponent(joined.id)}`;
  } catch (error) {
    showError(error, null, "race");
    if (api.codeOf(error) === "race_not_open") closedRaceEvent({ id: raceId });
  } finally {
    joining = false;
  }
}

/** Wire the view's controls; called once. */
export function installHome() {
  $("home-name", HTMLInputElement).value = storage()?.getItem(SAVED_PLAYER) || "";
  checkNameField("home-name", "home-name-check");
  $("home-start").addEventListener("submit", (event) => {
    event.preventDefault();
    clearNotice(); // an older refusal at the top goes: this attempt's is said beside the name
    const guest = !readAccount();
    if (guest && refusedField("home-name", "home-name-check")) return;
    const player = $("home-name", HTMLInputElement).value.trim();
    storage()?.setItem(SAVED_PLAYER, player);
    startGame(guest ? player : null, ["home-name", "home-name-check"]);
  });
  onAccountChange(() => {
    if (!$("home-view").hidden) showHome();
  });
}

/** The view became visible. */
export function showHome() {
  const gen = currentGeneration();
  renderStart();
  loadDaily();
  loadLive();
  if (liveTimer === null) liveTimer = setInterval(refreshLive, LIVE_REFRESH_MS);
  loadBest();
  loadTournament();
  openStream(SITE_EVENTS_URL, { game: gameEvent, win: () => loadBest() }, { gen });
  showOpenRaces(gen);
}

/** The open races, read, then kept live by their stream.
 * @param {number} gen */
function showOpenRaces(gen) {
  // The stream after the read: its events then come after what the read listed.
  loadOpenRaces().then(() =>
    openStream(
      OPEN_RACES_EVENTS_URL,
      { opened: openRaceEvent, changed: openRaceEvent, closed: closedRaceEvent },
      { gen },
    ),
  );
}
