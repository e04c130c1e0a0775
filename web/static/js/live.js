// @ts-check
// The Live page: the games being played now (`GET /games?status=in_progress`, the latest move
// first, a page at a time), and one of them watched as it is played (`#/live/{id}`): its
// placements arrive on `/games/{id}/events` (events.js) and the board is drawn from them as a
// replay draws it (verify.js replays the flips), the card just played and the piles it turned
// marked, until the game's end is announced as a player's own end is. A watcher sees what the
// history shows, nothing more: never the card to come. The list follows the site's `game`
// events (`/events`): a game appears when it begins, its cards placed count up as it is
// played (its row moving to the top: the latest move first), and it leaves when it ends; the
// API lists only the games that moved in the last minutes (FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES).

import * as api from "./api.js";
import { renderBoard, showFaceDown } from "./board.js";
import { $, element } from "./dom.js";
import { currentGeneration, gameEventsUrl, openStream, SITE_EVENTS_URL } from "./events.js";
import { timeElement } from "./format.js";
import { DECK_SIZE, GUEST_NAME, resultText } from "./game.js";
import { playerLink } from "./leaderboard.js";
import { labelCells, makePager, tableRow } from "./pager.js";
import { clearNotice, noticeMark, showError } from "./ui.js";
import { faceDownCount, replayHistory } from "./verify.js";
import { placementText } from "./words.js";

// The list is read again this often while page one is shown (the `game` events keep it at
// once; this re-read makes good an event lost while reconnecting), unless the focus is in it
// (a redraw would lose it).
const LIST_REFRESH_MS = 15_000;
const COLUMNS = ["Player", "Cards placed", "Last move", "Game"];

/** @typedef {import("./api.js").Schemas} Schemas */

/** @type {string | null} */
let watchedId = null; // the game followed (`#/live/{id}`), or null on the list
/** @type {Schemas["PlacementOut"][]} */
let placements = [];
/** @type {Schemas["PileOut"][][]} */
let boards = [[]];
/** @type {Schemas["GameEndEvent"] | null} */
let ended = null; // the `end` event's data, once it came
/** @type {import("./events.js").Stream | null} */
let stream = null;
/** @type {ReturnType<typeof setInterval> | null} */
let listTimer = null;
let onPageOne = true;

/** @param {Schemas["GameInProgressOut"]} entry */
function gameRow(entry) {
  const player = entry.player ?? GUEST_NAME;
  const watch = element("a", {
    href: `#/live/${encodeURIComponent(entry.game_id)}`,
    textContent: "Watch",
  });
  watch.setAttribute("aria-label", `Watch the game of ${player}`);
  const tr = tableRow([
    playerLink(player, entry.registered),
    String(entry.cards_placed),
    timeElement(entry.last_move_at || entry.created_at),
    watch,
  ]);
  tr.children[0].className = "player";
  tr.dataset.gameId = entry.game_id;
  return labelCells(tr, COLUMNS);
}

const pager = makePager(
  {
    table: "live-table",
    body: "live-body",
    empty: "live-empty",
    first: "live-first",
    previous: "live-previous",
    next: "live-next",
    page: "live-page",
  },
  async (cursor) => {
    onPageOne = cursor === null;
    const answer = await api.getGamesInProgress({ cursor });
    return { rows: answer.games.map(gameRow), next_cursor: answer.next_cursor };
  },
);

/** A game began, moved or ended (`game` event): on page one, its row comes, counts its cards
 * at the top (the latest move first) or goes, at once. A row holding the focus is counted
 * where it is: moved, it would lose the focus.
 * @param {Schemas["GameListedEvent"]} data */
function listEvent(data) {
  if (watchedId !== null || !onPageOne) return;
  const body = $("live-body", HTMLTableSectionElement);
  const shown = [...body.rows].find((row) => row.dataset.gameId === data.game_id);
  if (data.status !== "in_progress") {
    shown?.remove();
  } else if (shown) {
    shown.cells[1].textContent = String(data.cards_placed);
    shown.cells[2].replaceChildren(timeElement(data.last_move_at || data.created_at));
    if (!shown.contains(document.activeElement)) body.prepend(shown);
  } else {
    const row = gameRow(data);
    row.classList.add("fresh");
    body.prepend(row);
  }
  $("live-empty").hidden = body.children.length > 0;
}

function stopListTimer() {
  if (listTimer !== null) clearInterval(listTimer);
  listTimer = null;
}

function refreshList() {
  if (watchedId !== null || $("live-view").hidden) {
    stopListTimer();
    return;
  }
  if (!onPageOne || $("live-list").contains(document.activeElement)) return;
  pager.reload();
}

// ---------------------------------------------------------------- one game, followed

/** @param {string} text @param {string} state */
function setState(text, state) {
  $("live-state").textContent = text;
  $("live-state").dataset.state = state;
}

/** @param {Schemas["GameEndEvent"]} ended */
function endText(ended) {
  const who = $("live-watch").dataset.player;
  return `The game is over: ${who} ${resultText(ended.status, ended.reason, ended.score)}.`;
}

/** The end, announced as a player's own is: a panel with its heading (focused), the won
 * table's wave, the result in words.
 * @param {Schemas["GameEndEvent"]} ended */
function announceEnd(ended) {
  const who = $("live-watch").dataset.player ?? GUEST_NAME;
  const won = ended.status === "won";
  $("live-end").hidden = false;
  $("live-end").classList.toggle("won", won);
  $("live-end").classList.toggle("lost", !won);
  // The name as plain text in the sentence: the boards' cut-to-fit name (nameElement) is a box
  // of its own, which would read as a word apart ("ana 's game is lost") in the heading's name.
  $("live-end-title").textContent = `${who}${won ? " won!" : "'s game is lost"}`;
  $("live-end-detail").textContent = won
    ? `Score ${ended.score}: ${ended.score === 1 ? "1 card was" : `${ended.score} cards were`} left in the stock, after ${ended.placements} placements.`
    : `The game ended: ${resultText(ended.status, ended.reason)}, after ${ended.placements} placements.`;
  $("live-end-title").focus();
}

function moveText() {
  const count = placements.length;
  if (count === 0) return "No card placed yet: the first one appears here when it is played.";
  return `Card ${count}: ${placementText(placements[count - 1], boards[count - 1])}.`;
}

function drawWatch(celebrate = false) {
  const count = placements.length;
  const last = count > 0 ? placements[count - 1] : null;
  renderBoard($("live-board"), {
    piles: boards[count],
    placed: last,
    flipped: last ? last.flipped : [],
    animate: true,
    celebrate,
  });
  $("live-board").setAttribute("aria-label", `Grid after ${count} cards`);
  $("live-move").textContent = moveText();
  // The stock as the placement says it; before the first card, the deck less the first card.
  $("live-stock").textContent = String(last ? last.stock_count : DECK_SIZE - 1);
  showFaceDown($("live-face-down"), faceDownCount(boards[count]));
  $("live-watch").dataset.placements = String(count);
  $("live-watch").dataset.status = ended ? ended.status : "in_progress";
}

/** The history read again (an event was missed: a gap in the numbers, or an end that counts
 * more placements than came).
 * @param {string} id */
async function catchUp(id) {
  try {
    const history = await api.getPlacements(id);
    if (watchedId !== id) return;
    if (history.placements.length > placements.length) {
      placements = history.placements;
      boards = replayHistory(placements);
      drawWatch();
    }
  } catch (error) {
    if (watchedId === id) showError(error);
  }
}

/** @param {string} id @param {number} gen */
function follow(id, gen) {
  stream = openStream(
    gameEventsUrl(id),
    {
      placement(data) {
        if (watchedId !== id || ended) return;
        if (data.number <= placements.length) return; // already shown (a resumed stream)
        if (data.number > placements.length + 1) {
          catchUp(id);
          return;
        }
        placements = [...placements, data];
        boards = replayHistory(placements);
        drawWatch();
      },
      end(data) {
        if (watchedId !== id) return;
        // The game is over for good: closed here, or the browser would open it again.
        stream?.close();
        stream = null;
        ended = data;
        if (data.placements > placements.length) catchUp(id);
        drawWatch(data.status === "won");
        setState(endText(data), "ended");
        announceEnd(data);
      },
    },
    {
      gen,
      onState(state) {
        if (watchedId !== id || ended) return;
        if (state === "open") setState("Live: each card appears as it is played.", "live");
        if (state === "reconnecting") setState("Connection lost: reconnecting…", "reconnecting");
        if (state === "stopped") {
          stream = null;
          setState("Live updates stopped: the server did not take this watcher.", "stopped");
          $("live-resume").hidden = false;
        }
      },
    },
  );
}

/** @param {string} id */
async function showWatch(id) {
  const gen = currentGeneration();
  const mark = noticeMark();
  watchedId = id;
  placements = [];
  boards = [[]];
  ended = null;
  $("live-list").hidden = true;
  $("live-watch").hidden = false;
  $("live-resume").hidden = true;
  $("live-end").hidden = true;
  $("live-heading").textContent = "Live game";
  $("live-board").replaceChildren();
  $("live-move").textContent = "";
  $("live-replay-link", HTMLAnchorElement).href = `#/games/${encodeURIComponent(id)}`;
  setState("Connecting…", "connecting");
  let game;
  try {
    game = await api.getGame(id);
  } catch (error) {
    if (watchedId !== id) return;
    setState("This game could not be read.", "stopped");
    showError(error, { label: "Try again", run: () => showWatch(id) });
    return;
  }
  if (watchedId !== id || gen !== currentGeneration()) return;
  clearNotice(mark);
  $("live-heading").textContent = `Live: the game of ${game.player}`;
  $("live-watch").dataset.player = game.player;
  drawWatch();
  // A finished game's stream answers its whole history and its end: the same drawing.
  follow(id, gen);
}

/** Wire the view's controls; called once. */
export function installLive() {
  $("live-refresh").addEventListener("click", () => pager.reload(noticeMark()));
  $("live-resume").addEventListener("click", () => {
    if (watchedId === null) return;
    $("live-resume").hidden = true;
    setState("Connecting…", "connecting");
    follow(watchedId, currentGeneration());
  });
}

/** The view became visible: the list (`#/live`), or game `id` followed (`#/live/{id}`).
 * @param {string | null} [id] */
export function showLive(id = null) {
  stopListTimer();
  stream = null; // the router closed it
  if (id !== null) {
    showWatch(id);
    return;
  }
  watchedId = null;
  $("live-heading").textContent = "Live";
  $("live-watch").hidden = true;
  $("live-list").hidden = false;
  pager.reload(noticeMark());
  listTimer = setInterval(refreshList, LIST_REFRESH_MS);
  openStream(SITE_EVENTS_URL, { game: listEvent }, { gen: currentGeneration() });
}
