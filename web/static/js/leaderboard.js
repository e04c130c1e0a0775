// @ts-check
// The leaderboard, a page at a time (the API's `next_cursor`), each game a link to its replay.
// The board is chosen here (all time, a UTC day's or an ISO week's, each player's best,
// assisted games or not) and kept in the URL's fragment, so a reload or a shared link shows
// the same board: #/leaderboard?period=week&date=2026-11-25&per_player=best. While it is shown,
// the site's events (`/events`: a win, a new best) read the page shown again, the new win's
// row marked and announced.

import * as api from "./api.js";
import { $, element } from "./dom.js";
import { currentGeneration, openStream, SITE_EVENTS_URL } from "./events.js";
import { timeElement } from "./format.js";
import { labelCells, makePager, tableRow } from "./pager.js";
import { noticeMark } from "./ui.js";

const DEFAULT_LIMIT = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
// News comes in bursts (a win is also a new best): the page is read once per burst.
const NEWS_DELAY_MS = 300;

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {NonNullable<Schemas["Leaderboard"]["period"]>} Period */
/** A board's window as an answer (a board's, a game's place on one) names it.
 * @typedef {{period?: Period | null, starts_on?: string | null, ends_on?: string | null}} Window */

// What the page lists: `choice` is the board menu's value ("all", "today", "this-week",
// "day" or "week": the last two with `date`).
/** @type {{choice: string, date: string, perPlayer: boolean, includeAssisted: boolean,
 *   limit: number}} */
let board = {
  choice: "all",
  date: "",
  perPlayer: false,
  includeAssisted: false,
  limit: DEFAULT_LIMIT,
};

/** Today's date in UTC (the boards' days are UTC days), as YYYY-MM-DD.
 * @param {number} [offsetDays] */
export function utcToday(offsetDays = 0) {
  return new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `text` is a day of the calendar as YYYY-MM-DD (2026-02-30 and 2026-13-45 are not).
 * @param {string} text */
export function isDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** The API's window of a board choice: {period, date}.
 * @param {string} choice
 * @param {string} date
 * @returns {{period: Period, date: string | null}} */
function windowOf(choice, date) {
  if (choice === "today") return { period: "day", date: null };
  if (choice === "this-week") return { period: "week", date: null };
  if (choice === "day" || choice === "week") return { period: choice, date: date || null };
  return { period: "all", date: null };
}

/** The fragment that shows a board: {period, date, perPlayer, includeAssisted, limit}.
 * @param {{period?: Period | null, date?: string | null, perPlayer?: boolean,
 *   includeAssisted?: boolean, limit?: number}} [shown] */
export function boardHash({
  period = "all",
  date = null,
  perPlayer = false,
  includeAssisted = false,
  limit = DEFAULT_LIMIT,
} = {}) {
  const query = new URLSearchParams();
  if (period && period !== "all") query.set("period", period);
  if (period && period !== "all" && date) query.set("date", date);
  if (perPlayer) query.set("per_player", "best");
  if (includeAssisted) query.set("include_assisted", "true");
  if (limit !== DEFAULT_LIMIT) query.set("limit", String(limit));
  const text = query.toString();
  return text ? `#/leaderboard?${text}` : "#/leaderboard";
}

/** How a board's answer names its window: "All time", "Day 2026-12-01 (UTC)", "Week
 * 2026-11-30 – 2026-12-06 (UTC, Monday to Sunday)".
 * @param {Window} answer */
export function windowText(answer) {
  if (answer.period === "day") return `Day ${answer.starts_on} (UTC)`;
  if (answer.period === "week") {
    return `Week ${answer.starts_on} – ${answer.ends_on} (UTC, Monday to Sunday)`;
  }
  return "All time";
}

/** A player's name, on one line: whole where it fits, otherwise cut at its end with an
 * ellipsis (app.css, `.name`), never broken inside a word. Its text stays the whole name
 * (what a screen reader reads, and a link's name), and its title shows it on hover.
 * @param {string} name */
export function nameElement(name) {
  const text = element("span", { textContent: name });
  return element("span", { className: "name", title: name }, text);
}

/** A player's name as a link to their page (`#/players/{name}`), or as text for a guest
 * (`registered` false, as the API says it): guests have no page.
 * @param {string} name
 * @param {boolean} registered */
export function playerLink(name, registered) {
  if (!registered) return nameElement(name);
  const link = element("a", { href: `#/players/${encodeURIComponent(name)}` });
  link.append(nameElement(name));
  return link;
}

/** A board's columns (a row's cells are labelled with them on narrow screens). */
export const BOARD_COLUMNS = ["Rank", "Player", "Score", "Finished", "Game"];

/** A board's row: rank, player (a link to their page), score, finish time and a link to the
 * game's replay.
 * @param {Schemas["LeaderboardEntry"]} entry */
export function leaderboardRow(entry) {
  const open = element("a", {
    href: `#/games/${encodeURIComponent(entry.game_id)}`,
    textContent: "Replay",
  });
  open.setAttribute("aria-label", `Replay the game of ${entry.player}, rank ${entry.rank}`);
  const tr = tableRow([
    String(entry.rank),
    playerLink(entry.player, entry.registered),
    String(entry.score),
    timeElement(entry.finished_at),
    open,
  ]);
  tr.children[1].className = "player";
  if (entry.assisted) {
    tr.children[1].append(" ", element("span", { className: "badge", textContent: "assisted" }));
  }
  tr.dataset.gameId = entry.game_id;
  return labelCells(tr, BOARD_COLUMNS);
}

/** How a board's assistance is named, on this page and at the end of a game.
 * @param {boolean} includeAssisted */
export function assistedText(includeAssisted) {
  return includeAssisted ? "assisted games included" : "games played without hints";
}

/** The full name of a board, the one wording of the leaderboard page and the end panel:
 * "All time, games played without hints".
 * @param {Window} answer
 * @param {boolean} includeAssisted */
export function boardName(answer, includeAssisted) {
  return `${windowText(answer)}, ${assistedText(includeAssisted)}`;
}

/** Why the board is empty or short: the wins with hints it leaves out, and the switch.
 * @param {number} count */
function showLeftOut(count) {
  $("leaderboard-left-out").hidden = count === 0;
  if (count === 0) return;
  const wins = count === 1 ? "1 won game is" : `${count} won games are`;
  const whose = board.perPlayer ? " (each player's best)" : "";
  $("leaderboard-left-out-text").textContent =
    `${wins} not on this board${whose}: hints were asked in ${count === 1 ? "it" : "them"}, and ` +
    "this board lists games played without hints.";
}

/** The wins the fair-play review keeps off this board (being checked, or held), in words.
 * @param {number} count */
function showHeld(count) {
  $("leaderboard-held").hidden = count === 0;
  $("leaderboard-held").textContent =
    count === 0
      ? ""
      : `${count === 1 ? "1 win of these days is" : `${count} wins of these days are`} not listed ` +
        "while the fair-play review checks them, or because it found they followed the computer " +
        "player's choices.";
}

function captionText() {
  const parts = ["Won games"];
  if (board.perPlayer) parts.push("each player's best");
  if (board.includeAssisted) parts.push("assisted ones included");
  return `${parts.join(", ")}, best score first`;
}

const pager = makePager(
  {
    table: "leaderboard-table",
    body: "leaderboard-body",
    empty: "leaderboard-empty",
    first: "leaderboard-first",
    previous: "leaderboard-previous",
    next: "leaderboard-next",
    page: "leaderboard-page",
  },
  async (cursor) => {
    const { period, date } = windowOf(board.choice, board.date);
    const asked = JSON.stringify(board);
    const answer = await api.getLeaderboard({
      limit: board.limit,
      cursor,
      includeAssisted: board.includeAssisted,
      period,
      date,
      perPlayer: board.perPlayer,
    });
    // Another board asked meanwhile: this answer is not drawn (the pager drops its rows).
    if (JSON.stringify(board) !== asked) return { rows: [], next_cursor: null };
    $("leaderboard-caption").textContent = captionText();
    const named = boardName(answer, board.includeAssisted);
    // Announced (a status) only when it changes: paging keeps the window.
    if ($("leaderboard-window").textContent !== named) $("leaderboard-window").textContent = named;
    $("leaderboard-window").dataset.startsOn = answer.starts_on || "";
    $("leaderboard-window").dataset.endsOn = answer.ends_on || "";
    const won = board.includeAssisted ? "No won games" : "No game won without hints";
    $("leaderboard-empty").textContent = `${won}${period === "all" ? "" : " on this board"} yet.`;
    showLeftOut(answer.assisted_left_out || 0);
    showHeld(answer.held_for_review || 0);
    const rows = answer.entries.map(leaderboardRow);
    for (const row of rows) row.classList.toggle("fresh", freshGames.has(row.dataset.gameId ?? ""));
    return { rows, next_cursor: answer.next_cursor };
  },
);

// The games of the latest burst of news, their rows marked: a burst may hold several wins
// (two players finishing together), and each is new.
/** @type {Set<string>} */
let freshGames = new Set();
/** @type {string | null} */
let announcedWin = null; // the game of the latest win announced
/** @type {ReturnType<typeof setTimeout> | null} */
let newsTimer = null;

/** @type {Record<Schemas["BestEvent"]["board"], string>} */
const BOARD_NAMES = { all_time: "all time", day: "today", week: "this week" };

/** A win or a new best came: say so, and read the page shown again (once per burst). A past
 * day's or week's board cannot change. `text` null: nothing new to say (a best of the win
 * just announced, whose words already give its ranks).
 * @param {string | null} text
 * @param {string} gameId */
function news(text, gameId) {
  const { period, date } = windowOf(board.choice, board.date);
  if (period !== "all" && date) return;
  if (text !== null) $("leaderboard-news").textContent = text;
  if (newsTimer === null) freshGames = new Set();
  freshGames.add(gameId);
  if (newsTimer !== null) return;
  newsTimer = setTimeout(() => {
    newsTimer = null;
    if (!$("leaderboard-view").hidden) pager.refresh();
  }, NEWS_DELAY_MS);
}

/** A win in words, for the board shown: a win with hints is not on a board of games played
 * without hints (it is said to be elsewhere), and its rank is given only where it is the
 * board's (`ranks` are on the boards of its kind, all the games, not each player's best).
 * @param {Schemas["WinEvent"]} data */
function winText(data) {
  const { period } = windowOf(board.choice, board.date);
  if (data.assisted && !board.includeAssisted) {
    return (
      `New win with hints: ${data.player}, score ${data.score}; it is not on this board ` +
      "(games played without hints), but on the boards with assisted games."
    );
  }
  /** @type {Record<string, [number | undefined, string]>} */
  const ranks = {
    all: [data.ranks?.all_time, "of all time"],
    day: [data.ranks?.day, "today"],
    week: [data.ranks?.week, "this week"],
  };
  const [rank, named] = ranks[period] ?? [undefined, ""];
  const sameKind = data.assisted === board.includeAssisted && !board.perPlayer;
  const where = rank && sameKind ? `, rank ${rank} ${named}` : "";
  return `New win: ${data.player}, score ${data.score}${where}.`;
}

/** @param {number} gen */
function listen(gen) {
  openStream(
    SITE_EVENTS_URL,
    {
      win(data) {
        announcedWin = data.game_id;
        news(winText(data), data.game_id);
      },
      best(data) {
        const name = BOARD_NAMES[data.board] || data.board;
        // A best is one of the boards of games played without hints (BestEvent).
        const kind = board.includeAssisted ? " among games played without hints" : "";
        const text = `New best ${name}${kind}: ${data.player}, score ${data.score}.`;
        news(data.game_id === announcedWin ? null : text, data.game_id);
      },
    },
    { gen },
  );
}

/** Draw the controls for `board`. */
function drawControls() {
  const dated = board.choice === "day" || board.choice === "week";
  $("board-period", HTMLSelectElement).value = board.choice;
  $("board-date-field").hidden = !dated;
  $("board-date", HTMLInputElement).value = board.date;
  $("board-date-label").textContent =
    board.choice === "week" ? "A day of the week (UTC)" : "Day (UTC)";
  $("per-player", HTMLInputElement).checked = board.perPlayer;
  $("include-assisted", HTMLInputElement).checked = board.includeAssisted;
  // The caption is the board's as asked, even when its date cannot be read.
  $("leaderboard-caption").textContent = captionText();
}

/** A date the API would refuse, explained (its true reason); or "" if it may be asked. */
function dateProblem() {
  if (!(board.choice === "day" || board.choice === "week")) return "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(board.date)) return "Choose a day, as YYYY-MM-DD.";
  if (!isDay(board.date)) {
    return `${board.date} is not a day of the calendar: check its month (01 to 12) and day.`;
  }
  if (board.date > utcToday()) {
    return "Choose a day not after today (UTC): there is no board of a day to come.";
  }
  return "";
}

/** Say beside the date field what is wrong with the board's date, if anything; the board of
 * another window is not left on show meanwhile. Whether there was a problem. */
function showDateProblem() {
  const problem = dateProblem();
  $("board-date-help").textContent = problem;
  $("board-date-help").hidden = !problem;
  $("board-date").setAttribute("aria-invalid", String(Boolean(problem)));
  if (problem) {
    pager.cancel();
    $("leaderboard-window").textContent = "";
    $("leaderboard-empty").hidden = true;
    $("leaderboard-left-out").hidden = true;
    showHeld(0);
    const pages = $("leaderboard-first").closest(".pager");
    if (pages instanceof HTMLElement) pages.hidden = true;
  }
  return Boolean(problem);
}

/** The controls changed `board`: keep it in the URL (without a navigation: the focus stays
 * on the control) and read page one of the new board. */
function changed() {
  drawControls();
  if (showDateProblem()) return;
  const { period, date } = windowOf(board.choice, board.date);
  const hash = boardHash({ ...board, period, date });
  history.replaceState(null, "", hash);
  pager.reload(noticeMark());
}

/** Wire the view's controls; called once. */
export function installLeaderboard() {
  $("board-form").addEventListener("submit", (event) => event.preventDefault());
  const period = $("board-period", HTMLSelectElement);
  const date = $("board-date", HTMLInputElement);
  period.addEventListener("change", () => {
    board.choice = period.value;
    // A past day or week starts at yesterday or last week, changed with the date field.
    if (board.choice === "day" && !board.date) board.date = utcToday(-1);
    if (board.choice === "week" && !board.date) board.date = utcToday(-7);
    if (!(board.choice === "day" || board.choice === "week")) board.date = "";
    changed();
  });
  // The date is typed as ISO (YYYY-MM-DD), like every date on the page (a date picker shows
  // the browser's local format): read once it is complete, or when the field is left.
  date.addEventListener("input", () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date.value.trim())) return;
    board.date = date.value.trim();
    changed();
  });
  date.addEventListener("change", () => {
    if (date.value.trim() === board.date) return;
    board.date = date.value.trim();
    changed();
  });
  const perPlayer = $("per-player", HTMLInputElement);
  perPlayer.addEventListener("change", () => {
    board.perPlayer = perPlayer.checked;
    changed();
  });
  const includeAssisted = $("include-assisted", HTMLInputElement);
  includeAssisted.addEventListener("change", () => {
    board.includeAssisted = includeAssisted.checked;
    changed();
  });
  $("leaderboard-include").addEventListener("click", () => {
    board.includeAssisted = true;
    changed();
    $("include-assisted").focus();
  });
}

/** The view became visible (`#/leaderboard`, with the board in its query: `period`, `date`,
 * `per_player=best`, `include_assisted=true`, `limit=N`): read its page one, or say beside
 * the date field why its date cannot be shown.
 * @param {URLSearchParams} params */
export function showLeaderboard(params) {
  const asked = Number(params.get("limit"));
  const period = params.get("period");
  const date = params.get("date") || "";
  let choice = "all";
  if (period === "day") choice = date ? "day" : "today";
  if (period === "week") choice = date ? "week" : "this-week";
  board = {
    choice,
    date: choice === "day" || choice === "week" ? date : "",
    perPlayer: params.get("per_player") === "best",
    includeAssisted: params.get("include_assisted") === "true",
    limit: Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : DEFAULT_LIMIT,
  };
  drawControls();
  $("leaderboard-news").textContent = "";
  freshGames = new Set();
  announcedWin = null;
  if (!showDateProblem()) pager.reload(noticeMark());
  listen(currentGeneration());
}
