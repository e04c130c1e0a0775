// @ts-check
// A won game's standing: its all-time rank (the game's `rank`) and, on demand ("Show my
// place"), the entries just above and below it (`GET /leaderboard/around/{id}`) on the
// all-time board or on the board of the UTC day or ISO week it was won in, its row marked.
// Shown at the end of a won game in Play and in a won game's replay.

import * as api from "./api.js";
import { element } from "./dom.js";
import { BOARD_COLUMNS, boardHash, boardName, leaderboardRow, windowText } from "./leaderboard.js";
import { problemWords, showError } from "./ui.js";

const NEIGHBOURS = 5;

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {import("./leaderboard.js").Period} Period */

/** Why the game is not on the board the API was asked for (a `409 not_on_board`).
 * @param {Schemas["GameOut"]} game
 * @param {boolean} includeAssisted
 * @param {unknown} problem */
function notOnBoardText(game, includeAssisted, problem) {
  if (game.assisted && !includeAssisted) {
    return (
      "This game is not on this board: hints were asked in it, and a board lists assisted " +
      "games only when they are included. Tick “Include assisted games” to see its place " +
      "among them."
    );
  }
  return `This game is not on this board: ${problemWords(problem).detail}`;
}

/**
 * The standing of the won game shown in `container` (an element, emptied and filled here);
 * `prefix` makes its elements' ids unique. Returns {show(game), hide()}.
 * @param {HTMLElement} container
 * @param {string} prefix
 */
export function makeStanding(container, prefix) {
  /** @param {string} name */
  const id = (name) => `${prefix}-${name}`;
  /** @type {Schemas["GameOut"] | null} */
  let game = null;
  let generation = 0;

  const rankText = element("strong", { id: id("rank"), className: "rank-text" });
  const toggle = element("button", {
    type: "button",
    id: id("toggle"),
    textContent: "Show my place",
  });
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", id("place"));

  const choices = element("fieldset", { className: "place-board" });
  choices.append(element("legend", { textContent: "Board" }));
  /** @type {Record<string, HTMLSpanElement>} */
  const radios = {};
  /** @type {Map<Period, HTMLInputElement>} */
  const periods = new Map();
  /** @type {[Period, string][]} */
  const boards = [
    ["all", "All time"],
    ["day", "Its day"],
    ["week", "Its week"],
  ];
  for (const [value, label] of boards) {
    const input = element("input", { type: "radio", name: id("period"), value, id: id(value) });
    periods.set(value, input);
    radios[value] = element("span", {}, label);
    choices.append(element("label", { className: "check" }, input, " ", radios[value]));
  }
  const assistedBox = element("input", { type: "checkbox", id: id("assisted") });
  const assisted = element("label", { className: "check" }, assistedBox, " Include assisted games");
  const status = element("p", { id: id("status"), className: "place-status" });
  status.setAttribute("role", "status");
  const caption = element("caption", { textContent: "The game's neighbours on the board" });
  const head = element("thead");
  const headRow = element("tr");
  for (const name of BOARD_COLUMNS) {
    const th = element("th", { textContent: name });
    th.scope = "col";
    headRow.append(th);
  }
  head.append(headRow);
  const body = element("tbody", { id: id("body") });
  const table = element("table", { id: id("table"), className: "board-table place-table" });
  table.append(caption, head, body);
  const tableWrap = element("div", { className: "table-wrap" }, table);
  const boardLink = element("a", { id: id("board-link"), textContent: "Open this board" });
  const place = element(
    "div",
    { id: id("place"), className: "place" },
    choices,
    assisted,
    status,
    tableWrap,
    element("p", {}, boardLink),
  );
  place.hidden = true;
  // The board itself, one press away (an assisted game's: the default board leaves it out).
  const rankLink = element("a", { id: id("board"), textContent: "See the board" });
  container.replaceChildren(
    element("p", { className: "rank-line" }, rankText, " ", rankLink, " ", toggle),
    place,
  );

  /** @returns {Period} */
  const period = () => [...periods].find(([, input]) => input.checked)?.[0] || "all";

  async function load() {
    if (!game) return;
    const shown = game;
    const mine = ++generation;
    const asked = { period: period(), includeAssisted: assistedBox.checked };
    table.setAttribute("aria-busy", "true");
    status.textContent = "Finding the game's place…";
    let answer;
    try {
      answer = await api.getAround(shown.id, { ...asked, count: NEIGHBOURS });
    } catch (error) {
      if (mine !== generation) return;
      table.removeAttribute("aria-busy");
      body.replaceChildren();
      tableWrap.hidden = true;
      boardLink.hidden = true;
      if (api.codeOf(error) === "not_on_board") {
        status.textContent = notOnBoardText(shown, asked.includeAssisted, error);
      } else {
        status.textContent = "";
        showError(error, { label: "Try again", run: load });
      }
      return;
    }
    if (mine !== generation) return;
    table.removeAttribute("aria-busy");
    const rows = answer.entries.map((entry) => {
      const row = leaderboardRow(entry);
      if (entry.game_id === shown.id) {
        row.classList.add("mine");
        row.setAttribute("aria-current", "true");
        const badge = element("span", { className: "badge mine-badge", textContent: "this game" });
        row.children[1].append(" ", badge);
      }
      return row;
    });
    body.replaceChildren(...rows);
    tableWrap.hidden = false;
    const above = answer.entries.filter((entry) => entry.rank < answer.rank).length;
    const below = answer.entries.filter((entry) => entry.rank > answer.rank).length;
    const where = windowText(answer);
    caption.textContent = `${where}: the game and its neighbours`;
    const board =
      answer.period === "all" ? "of all time" : `of the ${where[0].toLowerCase()}${where.slice(1)}`;
    status.textContent =
      `Rank ${answer.rank} of ${answer.size.toLocaleString("en")} on the board ${board}; ` +
      `${above} ${above === 1 ? "game" : "games"} above it and ${below} below shown.`;
    boardLink.hidden = false;
    boardLink.href = boardHash({
      period: answer.period,
      date: answer.starts_on,
      includeAssisted: asked.includeAssisted,
    });
  }

  toggle.addEventListener("click", () => {
    const open = place.hidden;
    place.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Hide my place" : "Show my place";
    if (open) load();
  });
  choices.addEventListener("change", load);
  assistedBox.addEventListener("change", load);

  return {
    /** Show `game`'s standing if it is won (and ranked), else nothing.
     * @param {Schemas["GameOut"] | null} shown */
    show(shown) {
      const ranked = shown && shown.status === "won" && Number.isInteger(shown.rank);
      container.hidden = !ranked;
      if (!ranked) {
        game = null;
        generation++;
        return;
      }
      const same = game && game.id === shown.id;
      game = shown;
      // The board named as the leaderboard page names it (an assisted game is ranked on
      // the board with assisted games: the default board leaves it out, and says so).
      const board = boardName({ period: "all" }, game.assisted);
      rankText.textContent = `Rank ${game.rank} on the board “${board}”`;
      rankLink.href = boardHash({ includeAssisted: game.assisted });
      rankLink.hidden = false;
      const day = (game.finished_at ?? "").slice(0, 10); // a won game has finished
      radios.day.textContent = `Its day (${day})`;
      if (same) return; // a redraw of the same game keeps the panel as it is
      generation++;
      for (const [value, input] of periods) input.checked = value === "all";
      // An assisted game's rank is on the board with assisted games: start there.
      assistedBox.checked = Boolean(game.assisted);
      place.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
      toggle.textContent = "Show my place";
      status.textContent = "";
      body.replaceChildren();
    },
  };
}
