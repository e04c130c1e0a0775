// @ts-check
// The daily challenge: one day's page (`GET /challenges/{day}`: its deck commitment, how
// many played and won, when it closes, and once closed its reveal, checked here against the
// commitment), the button to play today's (an account is needed), and the day's board
// (`GET /leaderboard?challenge=YYYY-MM-DD`). Other days are chosen with a date picker. Read
// with the account's key, the page names the player's own game of the day (`your_game_id`):
// once they have played, their attempt (result, rank on the day's board, its replay) takes
// the start button's place. While
// an open day is shown, its played and won counts follow the site's events (`/events`:
// `challenge`), and its board is read again when a game of the day is won.

import * as api from "./api.js";
import { $ } from "./dom.js";
import { currentGeneration, openStream, SITE_EVENTS_URL } from "./events.js";
import { timeText } from "./format.js";
import { resultText } from "./game.js";
import { isDay, leaderboardRow, utcToday } from "./leaderboard.js";
import { makePager } from "./pager.js";
import { openAccountGame, startDailyChallenge } from "./play.js";
import { onAccountChange, readAccount } from "./storage.js";
import { clearNotice, noticeMark, showError } from "./ui.js";
import { checkItem, verifyReveal } from "./verify.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** The player's own game of the day (GET /games/{id} with the key), and its rank in words.
 * @typedef {Schemas["GameOut"] & {rankText?: string}} Attempt */

/** @type {string | null} */
let shownDay = null; // "today" or YYYY-MM-DD, as asked
/** @type {Schemas["DailyChallenge"] | null} */
let challenge = null; // the day's page, as the API answered
/** @type {Attempt | null} */
let attempt = null; // the player's own game of the day, if any

const board = makePager(
  {
    table: "daily-board-table",
    body: "daily-board-body",
    empty: "daily-board-empty",
    first: "daily-board-first",
    previous: "daily-board-previous",
    next: "daily-board-next",
    page: "daily-board-page",
  },
  async (cursor) => {
    // The board is on show (and read) only with its day's page.
    if (!challenge) throw new Error("the daily board was read without its day");
    const answer = await api.getLeaderboard({ cursor, challenge: challenge.date });
    return { rows: answer.entries.map(leaderboardRow), next_cursor: answer.next_cursor };
  },
);

function renderPlay() {
  const isToday = challenge && !challenge.closed;
  const account = readAccount();
  $("daily-play").hidden = !isToday || Boolean(attempt);
  $("daily-play-button", HTMLButtonElement).disabled = !account;
  $("daily-account-needed").hidden = Boolean(account);
  renderAttempt();
}

function renderAttempt() {
  $("daily-attempt").hidden = !attempt;
  if (!attempt) return;
  const link = $("daily-attempt-link", HTMLAnchorElement);
  const id = encodeURIComponent(attempt.id);
  if (attempt.status === "in_progress") {
    const cards = attempt.placements_count === 1 ? "1 card" : `${attempt.placements_count} cards`;
    $("daily-attempt-text").textContent =
      `You have started this day's challenge: ${cards} placed. Play on before the day closes.`;
    link.textContent = "Play on";
    link.href = "#/play";
    return;
  }
  const rank = attempt.rankText ? `, ${attempt.rankText}` : "";
  $("daily-attempt-text").textContent =
    `You played this day's challenge: ${resultText(attempt.status, attempt.end_reason, attempt.score)}${rank}. ` +
    (challenge?.closed ? "" : "One attempt a day: the next challenge opens at 00:00 UTC.");
  link.textContent = "Replay your game";
  link.href = `#/games/${id}`;
}

/** The player's own game of the day and, if won, its rank on the day's board.
 * @param {Schemas["DailyChallenge"]} answer
 * @returns {Promise<Attempt | null>} */
async function readAttempt(answer) {
  const key = readAccount()?.key;
  if (!answer.your_game_id || !key) return null;
  const game = await api.getGame(answer.your_game_id, key);
  if (game.status === "won") {
    // The day's board, its first hundred: a rank past them is said as the all-time one.
    const page = await api.getLeaderboard({ challenge: answer.date, limit: 100 });
    const mine = page.entries.find((entry) => entry.game_id === game.id);
    if (mine) return { ...game, rankText: `rank ${mine.rank} on the day's board` };
    if (game.rank) return { ...game, rankText: `rank ${game.rank} of all time` };
  }
  return game;
}

/** @param {import("./verify.js").Check} check */
function addResult(check) {
  $("daily-verify-results").append(checkItem(check));
}

/** @param {Schemas["DailyChallenge"]} c */
function render(c) {
  $("daily-heading").textContent = c.closed
    ? `Daily challenge of ${c.date}`
    : `Today's daily challenge (${c.date})`;
  $("daily-date-text").textContent = c.date;
  $("daily-state").textContent = c.closed
    ? `closed at ${timeText(c.closes_at)}`
    : `open until ${timeText(c.closes_at)}`;
  $("daily-played").textContent = String(c.played);
  $("daily-won").textContent = String(c.won);
  $("daily-commitment").textContent = c.deck_commitment;
  $("daily-reveal-text").textContent = c.reveal
    ? "The day has closed: the server revealed the deck and the salt. Your browser can check " +
      "that they give the commitment it published when the day opened."
    : "The deck and the salt are revealed when the day closes; your browser can then check " +
      "them against this commitment.";
  $("daily-verify-button").hidden = !c.reveal;
  $("daily-verify-results").replaceChildren();
  $("daily-board-caption").textContent = `Won games of ${c.date}, best score first`;
  $("daily-date", HTMLInputElement).value = c.date;
  $("daily-date", HTMLInputElement).max = utcToday();
  $("daily-today").hidden = !c.closed;
  renderPlay();
}

async function verify() {
  if (!challenge?.reveal) return;
  const { deck_commitment: commitment, reveal } = challenge;
  $("daily-verify-button", HTMLButtonElement).disabled = true;
  $("daily-verify-results").replaceChildren();
  try {
    const checks = await verifyReveal(commitment, reveal);
    const all = checks.every((check) => check.ok);
    addResult({
      name: "Verdict",
      ok: all,
      detail: all
        ? "The day's deck was fixed before it opened: every player got this deal."
        : "See the failed checks below.",
    });
    checks.forEach(addResult);
  } catch (error) {
    showError(error);
  } finally {
    $("daily-verify-button", HTMLButtonElement).disabled = false;
  }
}

/** The day's counts changed (`challenge` event): shown at once; a new win reads the board.
 * @param {Schemas["ChallengeEvent"]} data */
function counted(data) {
  if (!challenge || data.date !== challenge.date) return;
  const won = data.won > challenge.won;
  challenge = { ...challenge, played: data.played, won: data.won };
  $("daily-played").textContent = String(data.played);
  $("daily-won").textContent = String(data.won);
  if (won) {
    $("daily-news").textContent = `A new win today: ${data.won} won of ${data.played} played.`;
    board.refresh();
  }
}

/** The view became visible: `day` is "today" or a YYYY-MM-DD (`#/daily/{day}`). A day that
 * is not one of the calendar (a link typed by hand) is said so beside the date field, and
 * not asked for.
 * @param {string} [day] */
export async function showDaily(day = "today") {
  const gen = currentGeneration();
  const mark = noticeMark();
  shownDay = day;
  $("daily-news").textContent = "";
  const wrong = day !== "today" && !isDay(day);
  // The page is drawn from its address alone: nothing of the day shown before (its heading,
  // its date in the picker, its refusal) stays while this one is read or refused.
  $("daily-heading").textContent = "Daily challenge";
  $("daily-date", HTMLInputElement).value = day === "today" ? utcToday() : wrong ? "" : day;
  clearNotice(mark);
  $("daily-date-help").textContent = wrong
    ? `${day.slice(0, 32)} is not a day of the calendar: pick a day from 2026-01-01 to today.`
    : "";
  $("daily-date-help").hidden = !wrong;
  $("daily-date").setAttribute("aria-invalid", String(wrong));
  if (wrong) {
    challenge = null;
    $("daily-content").hidden = true;
    $("daily-date", HTMLInputElement).max = utcToday();
    return;
  }
  $("daily-summary").setAttribute("aria-busy", "true");
  let answer;
  try {
    answer = await api.getChallenge(day, readAccount()?.key || null);
    const own = await readAttempt(answer);
    if (shownDay !== day) return;
    clearNotice(mark);
    challenge = answer;
    attempt = own;
  } catch (error) {
    if (shownDay !== day) return;
    challenge = null; // what was shown is another day's: hide it
    $("daily-content").hidden = true;
    showError(error, { label: "Try again", run: () => showDaily(day) });
    return;
  } finally {
    $("daily-summary").removeAttribute("aria-busy");
  }
  render(answer);
  $("daily-content").hidden = false;
  board.reload(mark);
  // A closed day's counts are final: nothing to follow.
  if (!answer.closed) openStream(SITE_EVENTS_URL, { challenge: counted }, { gen });
}

/** Wire the view's controls; called once. */
export function installDaily() {
  $("daily-play-button").addEventListener("click", startDailyChallenge);
  $("daily-attempt-link").addEventListener("click", (event) => {
    if (!attempt || attempt.status !== "in_progress") return;
    event.preventDefault();
    openAccountGame(attempt.id);
  });
  $("daily-verify-button").addEventListener("click", verify);
  $("daily-date-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const day = $("daily-date", HTMLInputElement).value.trim();
    if (day) window.location.hash = `#/daily/${day}`;
  });
  $("daily-today").addEventListener("click", () => {
    window.location.hash = "#/daily";
  });
  onAccountChange(() => {
    if (challenge && shownDay !== null && !$("daily-view").hidden) showDaily(shownDay);
  });
}
