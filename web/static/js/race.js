// @ts-check
// Races (`#/races`, `#/races/{id}`): one deal played at once by friends and, if asked, the
// computer at a level of the opener's choice. A race is opened here (a guest under a name, or
// as the account whose key this page holds), its link copied to friends, who join it in its
// lobby (and may leave it); its opener (the first person still in it) starts it, a countdown
// runs to its `starts_at`, and then each racer plays their own game of the deal at their own
// table (board.js draws it, the placements go to the games' own endpoint with the token of
// `your_game`) beside the others' progress: counts only, as the API shows them. The end is
// the ranking, with a rematch for the same racers.
//
// Everything that moves comes from the race's stream (`/races/{id}/events`, events.js):
// `joined`, `left`, `countdown`, `started`, `progress`, `finished`, `result`, `rematch`,
// `closed`. The stream replays a race from its first event, so a reload draws it as it is; it
// stays open after the `result` until a racer opens the rematch, and the server ends it after
// `rematch` (or after the `left` that closed an empty lobby, or the `closed` of an idle one):
// the page closes it then, or the browser would open it again. The racer's credential is a
// guest's `racer_token` (kept per race in localStorage: a reload, and the rematch, find the
// racer again) or the account's key.

import * as api from "./api.js";
import { enableArrowKeys, redrawGrid, showFaceDown, showLastMove } from "./board.js";
import { cardName, faceUpCard } from "./cards.js";
import { $, element } from "./dom.js";
import { currentGeneration, openStream, raceEventsUrl } from "./events.js";
import { nameRefused, refusedField } from "./fields.js";
import { DECK_SIZE, resultText } from "./game.js";
import { playerLink } from "./leaderboard.js";
import { checkNameField } from "./names.js";
import {
  forgetRaceToken,
  onAccountChange,
  readAccount,
  readRaceToken,
  storage,
  writeRaceToken,
} from "./storage.js";
import { clearNotice, noticeMark, showError } from "./ui.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["RaceOut"]} Race */
/** @typedef {Schemas["RacerEvent"]} Racer */
/** @typedef {Race["status"]} RaceStatus */

const SAVED_PLAYER = "foursquare.player"; // the name last played under (play.js keeps it too)
/** @type {RaceStatus[]} */
const STAGES = ["lobby", "countdown", "running", "finished"];
/** @type {NonNullable<Schemas["RaceCreate"]["level"]>[]} */
const LEVELS = ["beginner", "good", "best"];
// Each racer's game is dealt by the server at the countdown's end, within a fraction of a
// second (its ticker), and the stream's `started` says so: the race is read then. Should
// that event be missed (a stream reconnecting), the race is also read this often until
// `your_game` is there (every 2 s while the count runs), for this long after `starts_at`.
const COUNTDOWN_POLL_MS = 2_000;
const DEAL_POLL_MS = 1_000;
const DEAL_WAIT_MS = 30_000;
const STALE_CODES = new Set(["version_conflict", "precondition_failed", "game_over"]);

/** @type {string | null} */
let raceId = null; // the race shown, or null on the opening page
/** @type {Race | null} */
let race = null; // the race as last read, its racers kept up to date by the stream
/** @type {string | null} */
let credential = null; // this page's racer credential in it: a guest's token or the key
/** @type {Schemas["GameOut"] | null} */
let game = null; // this racer's game, as the API last answered
/** @type {Schemas["PlacementOut"] | null} */
let lastPlacement = null;
/** @type {Schemas["PileOut"][] | null} */
let before = null; // the piles before `lastPlacement`
let busy = false;
/** @type {import("./events.js").Stream | null} */
let stream = null;
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null; // the countdown's ticks
let dealChain = 0; // the reads for `your_game` going on: a new chain of them ends the older

/** @param {RaceStatus} status */
const stageOf = (status) => STAGES.indexOf(status);
/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const ORDINAL = ["", "1st", "2nd", "3rd"];
/** @param {number | null} n */
const ordinal = (n) => (n === null ? "–" : ORDINAL[n] || `${n}th`);
/** @param {Racer} racer */
const gameOver = (racer) => racer.state === "won" || racer.state === "lost";

/** The race shown. Everything below but the opening page runs only while one is (the view
 * reads it before it draws or wires anything of it).
 * @returns {Race} */
function theRace() {
  if (race === null) throw new Error("no race is shown");
  return race;
}

/** Who may start the race: the first person (never the computer) still in it, as the API
 * has it; null once none is. */
function openerOf() {
  const race = theRace();
  return race.racers.find((r) => !r.computer)?.racer ?? null;
}

/** A racer's name, the computer's as a label: it is no person, and "computer" no name.
 * @param {Racer} racer
 * @param {boolean} [link] */
function racerName(racer, link = false) {
  const race = theRace();
  if (!racer.computer) return link ? playerLink(racer.name, racer.registered) : racer.name;
  // A narrow column breaks the label after its "·" only. The label is seen, not read: "The
  // computer computer · beginner" was read aloud; a screen reader hears "The computer, level
  // beginner".
  const label = race.level ? `computer\u00a0· ${race.level}` : "computer";
  const seen = element(
    "span",
    {},
    " ",
    element("span", { className: "badge computer", textContent: label }),
  );
  seen.setAttribute("aria-hidden", "true");
  const level = race.level ? `, level ${race.level}` : "";
  return element(
    "span",
    { className: "racer-computer" },
    "The computer",
    seen,
    element("span", { className: "visually-hidden", textContent: level }),
  );
}

function stopTimer() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

// ---------------------------------------------------------------- opening a race

function renderOpenForm() {
  const account = readAccount();
  $("race-guest").hidden = Boolean(account);
  $("race-account").hidden = !account;
  if (account) $("race-account-name").textContent = account.name;
  renderLevel();
}

/** The computer's level is chosen once the computer races. */
function renderLevel() {
  $("race-level", HTMLFieldSetElement).disabled = !$("race-computer", HTMLInputElement).checked;
}

/** @param {SubmitEvent} event */
async function openRace(event) {
  event.preventDefault();
  if (busy) return;
  const account = readAccount();
  clearNotice(); // an older refusal at the top goes: this attempt's is said beside the name
  if (!account && refusedField("race-name", "race-name-check")) return;
  const player = $("race-name", HTMLInputElement).value.trim();
  if (!account) storage()?.setItem(SAVED_PLAYER, player);
  busy = true;
  $("race-open-button", HTMLButtonElement).disabled = true;
  try {
    const opened = await api.openRace({
      player: account ? account.name : player,
      key: account?.key || null,
      computer: $("race-computer", HTMLInputElement).checked,
      level: LEVELS.find((level) => $(`race-level-${level}`, HTMLInputElement).checked) ?? null,
      isPublic: $("race-public", HTMLInputElement).checked,
    });
    clearNotice();
    if (opened.racer_token) writeRaceToken(opened.id, opened.racer_token);
    window.location.hash = `#/races/${encodeURIComponent(opened.id)}`;
  } catch (error) {
    // A refused name is said under its field, as on the home and account pages.
    if (!(!account && nameRefused(error, "race-name", "race-name-check", "race"))) {
      showError(error, null, "race");
    }
  } finally {
    busy = false;
    $("race-open-button", HTMLButtonElement).disabled = false;
  }
}

// ---------------------------------------------------------------- the racers

/** One racer's line: name, a bar of the cards placed, and the counts (or the result).
 * @param {Racer} racer */
function racerItem(racer) {
  const race = theRace();
  const mine = race.you === racer.racer;
  const name = element("span", { className: "racer-name" }, racerName(racer));
  if (mine) name.append(element("span", { className: "badge", textContent: "you" }));
  if (race.status === "lobby" && racer.racer === openerOf()) {
    name.append(element("span", { className: "badge opener", textContent: "opener" }));
  }
  const bar = element("progress", { max: DECK_SIZE, value: racer.placements });
  const who = racer.computer ? "The computer" : racer.name;
  bar.setAttribute("aria-label", `${who}: ${plural(racer.placements, "card", "cards")} placed`);
  let counts;
  if (racer.state === "waiting") {
    counts = stageOf(race.status) >= stageOf("running") ? "no card placed yet" : "ready";
  } else if (racer.state === "in_progress") {
    counts =
      `${plural(racer.placements, "card", "cards")} placed · ${racer.cards_left} in the stock · ` +
      `${racer.face_down} face down`;
  } else {
    // No rank while the race runs: the API ranks the racers only at the end.
    counts = `${resultText(racer.state, null, racer.score)} after ${plural(racer.placements, "card", "cards")}`;
  }
  const item = element(
    "li",
    { className: `racer ${racer.state}` },
    name,
    bar,
    element("span", { className: "racer-counts", textContent: counts }),
  );
  item.dataset.racer = String(racer.racer);
  item.dataset.state = racer.state;
  item.dataset.placements = String(racer.placements);
  return item;
}

function renderRacers() {
  const race = theRace();
  // At the end the ranking says it all; a closed race has nobody left to show.
  $("race-racers-box").hidden = race.status === "finished" || race.status === "closed";
  $("race-racers").replaceChildren(...race.racers.map(racerItem));
  $("race-racers-heading").textContent = `Racers (${race.racers.length} of ${race.seats})`;
}

/** @type {Record<Racer["state"], number>} */
const STATE_ORDER = { waiting: 0, in_progress: 1, won: 2, lost: 2 };

/** A racer's news from the stream: their line takes it (a new racer is added), unless it is
 * older than what the line shows (the stream replays a race from its first event, after the
 * page has read the race as it is). Returns the line's state before, or null if unchanged.
 * @param {Racer} racer
 * @returns {Racer["state"] | "new" | null} */
function updateRacer(racer) {
  const race = theRace();
  const index = race.racers.findIndex((r) => r.racer === racer.racer);
  if (index === -1) {
    race.racers = [...race.racers, racer].sort((a, b) => a.racer - b.racer);
    return "new";
  }
  const known = race.racers[index];
  const newer =
    racer.placements > known.placements ||
    (racer.placements === known.placements &&
      (STATE_ORDER[racer.state] ?? 0) >= (STATE_ORDER[known.state] ?? 0));
  if (!newer) return null;
  race.racers = race.racers.map((r, i) => (i === index ? racer : r));
  return known.state;
}

/** A racer left the lobby: their line goes. (A racer's number is the highest one plus one
 * when they join: a number may come back, after its racer left, for somebody else; the
 * stream replays the joins and leaves in their order, so the lines end as the race has them.)
 * The last person gone, the race is closed (the API closes it then).
 * @param {Racer} racer */
function removeRacer(racer) {
  const race = theRace();
  race.racers = race.racers.filter((r) => r.racer !== racer.racer);
  if (race.status === "lobby" && openerOf() === null) race.status = "closed";
}

/** The race moves on to `status` (never back: a replayed stream says old news first; a
 * closed race stays closed).
 * @param {RaceStatus} status */
function advance(status) {
  const race = theRace();
  if (race.status !== "closed" && stageOf(status) > stageOf(race.status)) race.status = status;
}

// ---------------------------------------------------------------- the race's state

/** @param {string} text */
function setState(text) {
  const race = theRace();
  $("race-state").textContent = text;
  $("race-room").dataset.status = race.status;
}

function secondsLeft() {
  const race = theRace();
  return Math.max(0, Math.ceil((Date.parse(race.starts_at ?? "") - Date.now()) / 1000));
}

function renderLobby() {
  const race = theRace();
  const lobby = race.status === "lobby";
  $("race-lobby").hidden = !lobby;
  if (!lobby) return;
  const link = `${window.location.origin}${window.location.pathname}#/races/${race.id}`;
  $("race-link", HTMLInputElement).value = link;
  const racer = race.you !== null;
  const openerNumber = openerOf();
  const opener = racer && race.you === openerNumber;
  $("race-join-form").hidden = racer;
  const account = readAccount();
  $("race-join-guest").hidden = Boolean(account);
  $("race-join-account").hidden = !account;
  if (account) $("race-join-account-name").textContent = account.name;
  $("race-start").hidden = !opener;
  $("race-start", HTMLButtonElement).disabled = busy || race.racers.length < 2;
  $("race-leave").hidden = !racer;
  $("race-leave", HTMLButtonElement).disabled = busy;
  const openerName = race.racers.find((r) => r.racer === openerNumber)?.name;
  const starter = openerName ? `its opener, ${openerName},` : "its opener";
  let waiting;
  if (!racer) waiting = "Join to race: the race's opener starts it.";
  else if (!opener) waiting = `You are in. The race starts when ${starter} starts it, or when it is full.`;
  else if (race.racers.length < 2) waiting = "Send the link to a friend: a race needs two racers.";
  else waiting = "Start the race when everybody is in (it starts by itself when it is full).";
  $("race-waiting").textContent = waiting;
}

function renderCountdown() {
  const race = theRace();
  const counting = race.status === "countdown";
  $("race-countdown").hidden = !counting;
  if (counting) {
    const left = secondsLeft();
    $("race-countdown-number").textContent = String(left);
    $("race-countdown").dataset.seconds = String(left);
  }
}

function renderResult() {
  const race = theRace();
  const over = race.status === "finished";
  const panel = $("race-result");
  const wasHidden = panel.hidden;
  panel.hidden = !over;
  if (!over) return;
  const winner = race.racers[0];
  const mine = race.racers.find((r) => r.racer === race.you);
  let title;
  if (mine) title = mine.rank === 1 ? "You won the race!" : `You finished ${ordinal(mine.rank)}`;
  else title = `${winner.computer ? "The computer" : winner.name} won the race`;
  $("race-result-title").textContent = title;
  panel.classList.toggle("won", Boolean(mine && mine.rank === 1));
  const rows = race.racers.map((racer) => {
    const name = racerName(racer, true);
    // Once the race is over every racer's game is public: its replay.
    /** @type {HTMLAnchorElement | string} */
    let replay = "";
    if (racer.game_id) {
      const whose = racer.racer === race.you ? "your game" : `the game of ${racer.computer ? "the computer" : racer.name}`;
      const link = element("a", {
        href: `#/games/${encodeURIComponent(racer.game_id)}`,
        textContent: "Replay",
      });
      link.setAttribute("aria-label", `Replay ${whose}`);
      replay = link;
    }
    const row = element(
      "tr",
      {},
      element("td", { textContent: ordinal(racer.rank) }),
      element("td", { className: "player" }, name),
      element("td", { textContent: resultText(racer.state, null, racer.score) }),
      element("td", { textContent: String(racer.placements) }),
      element("td", {}, replay),
    );
    row.dataset.racer = String(racer.racer);
    return row;
  });
  $("race-ranking-body").replaceChildren(...rows);
  // A racer asks for the rematch (or joins the one open); anybody may go and watch it.
  $("race-rematch").hidden = race.you === null && !race.next_race;
  $("race-rematch").textContent = race.next_race ? "Go to the rematch" : "Rematch";
  let rematchText = "A rematch opens a new race for the same racers, with a new deal.";
  if (race.next_race) {
    rematchText = "A rematch is open for the same racers, with a new deal: its lobby is waiting.";
  } else if (race.you === null) {
    rematchText = "A racer may open a rematch: a new deal for the same racers.";
  }
  $("race-rematch-text").textContent = rematchText;
  const yourGame = mine?.game_id || race.your_game?.id;
  const replayLink = $("race-replay-link", HTMLAnchorElement);
  replayLink.hidden = !yourGame;
  if (yourGame) replayLink.href = `#/games/${encodeURIComponent(yourGame)}`;
  if (wasHidden) $("race-result-title").focus();
}

function renderState() {
  const race = theRace();
  const count = race.racers.length;
  if (race.status === "lobby") setState(`In the lobby: ${plural(count, "racer", "racers")} of ${race.seats}.`);
  if (race.status === "countdown") setState(`The race starts in ${plural(secondsLeft(), "second", "seconds")}.`);
  if (race.status === "running") {
    const done = race.racers.filter(gameOver).length;
    const watching = race.you === null ? " You are watching." : "";
    setState(`Racing: ${done} of ${plural(count, "racer", "racers")} finished.${watching}`);
  }
  if (race.status === "finished") setState("The race is over.");
  // Closed with people still in it: the service closed a lobby nobody started for a while.
  if (race.status === "closed") {
    const idle = race.racers.some((racer) => !racer.computer);
    const why = idle ? "nobody started it for a while" : "everybody left its lobby";
    setState(`This race is closed: ${why}.`);
  }
}

/** @type {Partial<Record<RaceStatus, string>>} */
const HEADINGS = { lobby: "Race lobby", finished: "Race result", closed: "Race closed" };

function render() {
  const race = theRace();
  $("race-heading").textContent = HEADINGS[race.status] || "Race";
  $("race-closed").hidden = race.status !== "closed";
  renderState();
  renderLobby();
  renderCountdown();
  renderResult();
  renderRacers();
  renderTable();
}

// ---------------------------------------------------------------- your table

/** Your game's end; while others still play, how many you wait for (from their states: the
 * ranking comes only when every game is over, or at the time limit).
 * @param {Schemas["GameOut"]} game */
function ownEndText(game) {
  const race = theRace();
  const ended = `${resultText(game.status, game.end_reason, game.score)}, after ${plural(game.placements_count, "card", "cards")}`;
  if (race.status === "finished") return `Your game is over: ${ended}.`;
  const playing = race.racers.filter((r) => r.racer !== race.you && !gameOver(r)).length;
  const waiting = playing ? `waiting for ${plural(playing, "racer", "racers")}` : "waiting for the ranking";
  return `You finished — ${waiting}. Your game: ${ended}.`;
}

function renderOwnEnd() {
  const ended = game !== null && game.status !== "in_progress";
  $("race-own-end").hidden = !ended;
  if (game && ended) $("race-own-end").textContent = ownEndText(game);
}

function renderTable() {
  const race = theRace();
  $("race-own").hidden = !game;
  $("race-hand").hidden = !game;
  $("race-last-move").hidden = !game;
  $("race-table").classList.toggle("with-table", Boolean(game));
  if (!game) {
    $("race-table").classList.remove("playing");
    return;
  }
  const playing = game.status === "in_progress" && race.status === "running";
  $("race-table").classList.toggle("playing", playing);
  $("race-own").dataset.version = String(game.version);
  $("race-own").dataset.status = game.status;
  const current = $("race-current-card");
  current.replaceChildren();
  if (game.current_card && playing) {
    current.append(faceUpCard(game.current_card));
    current.setAttribute("aria-label", `Your card: ${cardName(game.current_card)}`);
  }
  $("race-current").hidden = !playing;
  $("race-stock").textContent = String(game.stock_count);
  showFaceDown($("race-face-down"), game.face_down_count);
  const board = $("race-board");
  redrawGrid(board, {
    piles: game.piles,
    legal: playing ? game.legal_placements : [],
    currentCard: game.current_card,
    onPlace: place,
    disabled: busy,
    placed: lastPlacement,
    flipped: lastPlacement ? lastPlacement.flipped : [],
    animate: Boolean(lastPlacement),
    celebrate: game.status === "won",
  });
  board.setAttribute(
    "aria-label",
    playing && game.current_card
      ? `Your grid: choose where to place the ${cardName(game.current_card)}`
      : "Your grid",
  );
  showLastMove($("race-last-move"), lastPlacement, before);
  renderOwnEnd();
}

/** @param {{row: number, col: number}} position */
async function place(position) {
  const token = race?.your_game?.token;
  if (busy || !game || game.status !== "in_progress" || !token) return;
  const id = raceId;
  const shownGame = game;
  busy = true;
  $("race-board").setAttribute("aria-busy", "true");
  try {
    const answer = await api.placeCard(shownGame.id, token, position, shownGame.version);
    if (id !== raceId) return;
    clearNotice();
    before = shownGame.piles;
    game = answer.game;
    lastPlacement = answer.placement;
  } catch (error) {
    if (id !== raceId) return;
    showError(error, null, "race");
    if (STALE_CODES.has(api.codeOf(error) ?? "")) {
      const fresh = await api.getGame(shownGame.id, token).catch(() => null);
      if (fresh && id === raceId) {
        game = fresh;
        lastPlacement = null;
        before = null;
      }
    }
  } finally {
    busy = false;
    $("race-board").removeAttribute("aria-busy");
  }
  if (id !== raceId) return;
  renderTable();
  if (game?.status !== "in_progress") $("race-own-end").focus();
}

/** Read this racer's game (the race has started: `your_game` names it).
 * @param {string} id */
async function loadGame(id) {
  const yours = theRace().your_game;
  if (!yours) return;
  try {
    const fresh = await api.getGame(yours.id, yours.token);
    if (id !== raceId) return;
    const first = game === null;
    game = fresh;
    renderTable();
    if (first && fresh.status === "in_progress") $("race-board").querySelector("button")?.focus();
  } catch (error) {
    if (id === raceId) showError(error, { label: "Try again", run: () => loadGame(id) }, "race");
  }
}

/** From the countdown on, read the race until `your_game` is there (the server deals each
 * racer's game at `starts_at`, within its ticker's half-second), then the game: once a second
 * while the count runs, often once it is over. The count is drawn by this browser's clock,
 * which may be off the server's: the table comes when the deal is there, whatever the count
 * says.
 * @param {string} id
 * @param {number} [chain]
 * @param {number | null} [deadline] */
async function waitForDeal(id, chain = ++dealChain, deadline = null) {
  const current = () =>
    id === raceId && chain === dealChain && !game && theRace().status !== "finished";
  if (!current() || theRace().you === null) return;
  const starts = Date.parse(theRace().starts_at ?? "") || 0;
  const until = deadline ?? Math.max(starts, Date.now()) + DEAL_WAIT_MS;
  let fresh;
  try {
    fresh = await api.getRace(id, credential);
  } catch (error) {
    if (current()) showError(error, { label: "Try again", run: () => waitForDeal(id) }, "race");
    return;
  }
  if (!current()) return;
  if (fresh.your_game) {
    theRace().your_game = fresh.your_game;
    advance(fresh.status);
    render();
    await loadGame(id);
  } else if (Date.now() < until) {
    const counting = theRace().status === "countdown" && secondsLeft() > 1;
    setTimeout(() => waitForDeal(id, chain, until), counting ? COUNTDOWN_POLL_MS : DEAL_POLL_MS);
  }
}

/** @param {string} id */
function startCountdown(id) {
  stopTimer();
  render();
  timer = setInterval(() => {
    if (id !== raceId || theRace().status !== "countdown") return stopTimer();
    if (secondsLeft() > 0) {
      renderState();
      renderCountdown();
      return;
    }
    stopTimer();
    advance("running");
    render();
  }, 200);
  waitForDeal(id);
  if (theRace().you !== null) $("race-countdown").focus();
}

/** The race is over (its `result`): the ranking is the event's, and this racer's game is read
 * once more (a game the time limit ended is lost now). Nothing else is read: the rematch, if
 * any, comes on the stream.
 * @param {string} id
 * @param {Racer[]} racers */
async function finish(id, racers) {
  const race = theRace();
  const was = race.status;
  race.racers = racers;
  advance("finished");
  stopTimer();
  dealChain += 1; // no more reads for the deal
  render();
  const yours = race.your_game;
  if (was === "finished" || !yours) return;
  try {
    const fresh = await api.getGame(yours.id, yours.token);
    if (id !== raceId) return;
    game = fresh;
    renderTable();
  } catch (error) {
    if (id === raceId) showError(error, null, "race");
  }
}

/** Close the race's stream: the server ended it for good (after `rematch`, or the `left`
 * that closed the lobby), and the browser would otherwise open it again. */
function endStream() {
  stream?.close();
  stream = null;
}

/** Whether the page's racer is still in the race (after a `left` of their number: it may be
 * another tab of theirs that left, or, in the stream's replay, somebody who had their number
 * before them).
 * @param {string} id */
async function checkStillIn(id) {
  try {
    const fresh = await api.getRace(id, credential);
    if (id !== raceId || fresh.you !== null) return;
    if (credential !== readAccount()?.key) forgetRaceToken(id);
    theRace().you = null;
    render();
  } catch {
    // The page is as it was; the lobby's buttons say what the server refuses.
  }
}

/** @param {string} id @param {number} gen */
function follow(id, gen) {
  stream = openStream(
    raceEventsUrl(id),
    {
      joined(racer) {
        if (id !== raceId) return;
        updateRacer(racer);
        render();
      },
      left(racer) {
        if (id !== raceId) return;
        removeRacer(racer);
        render();
        if (theRace().status === "closed") endStream();
        else if (racer.racer === theRace().you) checkStillIn(id);
      },
      countdown(data) {
        if (id !== raceId) return;
        const race = theRace();
        if (stageOf(race.status) > stageOf("countdown")) return;
        race.starts_at = data.starts_at;
        race.ends_at = data.ends_at;
        advance("countdown");
        if (secondsLeft() > 0) startCountdown(id);
        else {
          advance("running");
          render();
          waitForDeal(id);
        }
      },
      started() {
        if (id !== raceId || game || theRace().status === "finished") return;
        advance("running");
        render();
        waitForDeal(id);
      },
      progress(racer) {
        if (id !== raceId) return;
        advance("running");
        updateRacer(racer);
        renderState();
        renderRacers();
      },
      finished(racer) {
        if (id !== raceId) return;
        advance("running");
        const was = updateRacer(racer);
        renderState();
        renderRacers();
        renderOwnEnd();
        if (was === "waiting" || was === "in_progress") {
          const who =
            racer.racer === theRace().you ? "You" : racer.computer ? "The computer" : racer.name;
          const news = `${who} finished: ${resultText(racer.state, null, racer.score)}.`;
          $("race-news").append(element("p", { textContent: news }));
        }
      },
      result(data) {
        if (id !== raceId) return;
        finish(id, data.racers);
      },
      rematch(data) {
        if (id !== raceId) return;
        theRace().next_race = data.next_race;
        endStream();
        renderResult();
        $("race-live").textContent = "";
      },
      closed() {
        // The lobby went idle and the service closed it; the server ends the stream after it.
        if (id !== raceId) return;
        theRace().status = "closed";
        endStream();
        render();
      },
    },
    {
      gen,
      onState(state) {
        if (id !== raceId || !stream) return;
        $("race-live").textContent =
          state === "open"
            ? ""
            : state === "reconnecting"
              ? "Connection lost: reconnecting…"
              : "Live updates stopped: reload the page to follow the race again.";
      },
    },
  );
}

/** @param {string} id */
async function showRace(id) {
  const gen = currentGeneration();
  raceId = id;
  race = null;
  game = null;
  lastPlacement = null;
  before = null;
  $("race-open").hidden = true;
  $("race-room").hidden = true;
  $("race-heading").textContent = "Race";
  $("race-live").textContent = "";
  $("race-news").replaceChildren();
  const account = readAccount();
  credential = readRaceToken(id) || account?.key || null;
  const mark = noticeMark();
  let read;
  try {
    read = await api.getRace(id, credential);
  } catch (error) {
    if (id !== raceId) return;
    showError(error, { label: "Try again", run: () => showRace(id) }, "race");
    return;
  }
  if (id !== raceId || gen !== currentGeneration()) return;
  clearNotice(mark);
  race = read;
  $("race-room").hidden = false;
  render();
  // A closed race has nothing more to tell; a finished one's stream is followed for its
  // rematch, until one is open.
  if (read.status === "closed") return;
  if (!read.next_race) follow(id, gen);
  if (read.status === "countdown") startCountdown(id);
  if (read.status === "running" || read.status === "finished") {
    if (read.your_game) await loadGame(id);
    else if (read.status === "running") waitForDeal(id);
  }
}

// ---------------------------------------------------------------- the lobby's buttons

/** @param {SubmitEvent} event */
async function join(event) {
  event.preventDefault();
  if (busy || !race || raceId === null) return;
  const id = raceId;
  const account = readAccount();
  clearNotice();
  if (!account && refusedField("race-join-name", "race-join-name-check")) return;
  const player = $("race-join-name", HTMLInputElement).value.trim();
  if (!account) storage()?.setItem(SAVED_PLAYER, player);
  busy = true;
  $("race-join-button", HTMLButtonElement).disabled = true;
  try {
    const joined = await api.joinRace(id, {
      player: account ? account.name : player,
      key: account?.key || null,
    });
    if (id !== raceId) return;
    clearNotice();
    if (joined.racer_token) writeRaceToken(id, joined.racer_token);
    // A guest's token, or (an account joined) the key that joined.
    credential = joined.racer_token || account?.key || null;
    const race = theRace();
    race.you = joined.you;
    for (const racer of joined.racers) updateRacer(racer);
    advance(joined.status);
    render();
    $("race-waiting").focus();
    // Joining the last seat starts the race: its `countdown` event may have come before this
    // answer, when this page was no racer yet and had no game to wait for.
    if (stageOf(race.status) >= stageOf("countdown")) {
      race.starts_at = race.starts_at || joined.starts_at;
      race.ends_at = race.ends_at || joined.ends_at;
      if (race.status === "countdown" && timer === null) startCountdown(id);
      else waitForDeal(id);
    }
  } catch (error) {
    if (!(!account && nameRefused(error, "race-join-name", "race-join-name-check", "race"))) {
      showError(error, null, "race");
    }
  } finally {
    busy = false;
    $("race-join-button", HTMLButtonElement).disabled = false;
    if (id === raceId && theRace().status === "lobby") renderLobby();
  }
}

async function start() {
  if (busy || !race || raceId === null) return;
  const id = raceId;
  busy = true;
  $("race-start", HTMLButtonElement).disabled = true;
  try {
    const started = await api.startRace(id, credential);
    if (id !== raceId) return;
    clearNotice();
    // The `countdown` event says the same; whichever comes first starts the count.
    const race = theRace();
    if (race.status === "lobby") {
      race.starts_at = started.starts_at;
      race.ends_at = started.ends_at;
      advance(started.status);
      startCountdown(id);
    }
  } catch (error) {
    showError(error, null, "race");
  } finally {
    busy = false;
    if (id === raceId) renderLobby();
  }
}

async function leave() {
  if (busy || !race || raceId === null) return;
  const id = raceId;
  busy = true;
  renderLobby();
  try {
    const left = await api.leaveRace(id, credential);
    if (id !== raceId) return;
    clearNotice();
    // The token named this racer only: it is forgotten, and the page watches the race.
    if (credential !== readAccount()?.key) forgetRaceToken(id);
    credential = readAccount()?.key || null;
    const race = theRace();
    race.you = null;
    race.racers = left.racers;
    if (left.status === "closed") race.status = "closed";
    busy = false;
    render();
    if (race.status === "closed") endStream();
    $("race-state").focus();
  } catch (error) {
    if (id === raceId) showError(error, null, "race");
  } finally {
    busy = false;
    if (id === raceId && theRace().status === "lobby") renderLobby();
  }
}

async function copyLink() {
  const link = $("race-link", HTMLInputElement);
  try {
    await navigator.clipboard.writeText(link.value);
    $("race-copy-status").textContent = "The link was copied: send it to the friends you race.";
  } catch {
    link.focus();
    link.select();
    $("race-copy-status").textContent =
      "The browser did not allow copying: the link is selected, copy it with Ctrl+C (⌘C).";
  }
}

async function rematch() {
  if (busy || !race || raceId === null) return;
  const id = raceId;
  // An onlooker goes and watches the rematch; a racer asks for it (or for the one open).
  if (race.you === null) {
    if (race.next_race) window.location.hash = `#/races/${encodeURIComponent(race.next_race)}`;
    return;
  }
  busy = true;
  $("race-rematch", HTMLButtonElement).disabled = true;
  try {
    const next = await api.rematchRace(id, credential);
    // The same racers, the same credentials: a guest's token is this race's as well.
    if (credential && credential !== readAccount()?.key) writeRaceToken(next.id, credential);
    clearNotice();
    window.location.hash = `#/races/${encodeURIComponent(next.id)}`;
  } catch (error) {
    showError(error, null, "race");
  } finally {
    busy = false;
    $("race-rematch", HTMLButtonElement).disabled = false;
  }
}

/** Wire the view's controls; called once. */
export function installRaces() {
  const saved = storage()?.getItem(SAVED_PLAYER) || "";
  $("race-name", HTMLInputElement).value = saved;
  $("race-join-name", HTMLInputElement).value = saved;
  checkNameField("race-name", "race-name-check");
  checkNameField("race-join-name", "race-join-name-check");
  $("race-open-form").addEventListener("submit", openRace);
  $("race-join-form").addEventListener("submit", join);
  $("race-start").addEventListener("click", start);
  $("race-leave").addEventListener("click", leave);
  $("race-computer").addEventListener("change", renderLevel);
  $("race-copy").addEventListener("click", copyLink);
  $("race-rematch").addEventListener("click", rematch);
  enableArrowKeys($("race-board"));
  onAccountChange(() => {
    if ($("race-view").hidden) return;
    if (raceId === null) renderOpenForm();
    else if (race) renderLobby();
  });
}

/** The view became visible: the opening page (`#/races`) or race `id` (`#/races/{id}`).
 * @param {string | null} [id] */
export function showRaces(id = null) {
  stopTimer();
  stream = null; // the router closed it
  $("race-copy-status").textContent = "";
  if (id !== null) {
    showRace(id);
    return;
  }
  raceId = null;
  race = null;
  game = null;
  $("race-heading").textContent = "Races";
  $("race-room").hidden = true;
  $("race-open").hidden = false;
  renderOpenForm();
}
