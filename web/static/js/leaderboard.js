// The leaderboard, a page at a time (the API's `next_cursor`), each game a link to its replay.

import * as api from "./api.js";
import { clearNotice, showError } from "./ui.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_LIMIT = 20;

let limit = DEFAULT_LIMIT;
let includeAssisted = false;
let cursors = [null]; // cursors[i] reads page i + 1; a page's next_cursor is pushed on "Next"
let page = 0;
let nextCursor = null;
let loading = false;

/** "2026-11-29 16:31" from an ISO timestamp (UTC, as the API sends it). */
function shortTime(iso) {
  return iso.replace("T", " ").slice(0, 16);
}

function row(entry) {
  const tr = document.createElement("tr");
  const cells = [String(entry.rank), entry.player, String(entry.score)];
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  tr.children[1].className = "player";
  if (entry.assisted) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "assisted";
    tr.children[1].append(" ", badge);
  }
  const time = document.createElement("time");
  time.dateTime = entry.finished_at;
  time.textContent = shortTime(entry.finished_at);
  const when = document.createElement("td");
  when.append(time);
  const open = document.createElement("a");
  open.href = `#/games/${encodeURIComponent(entry.game_id)}`;
  open.textContent = "Replay";
  open.setAttribute("aria-label", `Replay the game of ${entry.player}, rank ${entry.rank}`);
  const link = document.createElement("td");
  link.append(open);
  tr.append(when, link);
  tr.dataset.gameId = entry.game_id;
  return tr;
}

function setButtons() {
  $("leaderboard-first").disabled = loading || page === 0;
  $("leaderboard-previous").disabled = loading || page === 0;
  $("leaderboard-next").disabled = loading || !nextCursor;
}

async function load() {
  loading = true;
  setButtons();
  $("leaderboard-table").setAttribute("aria-busy", "true");
  try {
    const answer = await api.getLeaderboard({ limit, cursor: cursors[page], includeAssisted });
    clearNotice();
    nextCursor = answer.next_cursor;
    $("leaderboard-body").replaceChildren(...answer.entries.map(row));
    $("leaderboard-empty").hidden = answer.entries.length > 0 || page > 0;
    $("leaderboard-page").textContent = `Page ${page + 1}`;
    $("leaderboard-caption").textContent = includeAssisted
      ? "Won games, assisted ones included, best score first"
      : "Won games, best score first";
  } catch (error) {
    showError(error, { label: "Try again", run: load });
  } finally {
    loading = false;
    $("leaderboard-table").removeAttribute("aria-busy");
    setButtons();
  }
}

/** Wire the view's controls; called once. */
export function installLeaderboard() {
  $("include-assisted").addEventListener("change", (event) => {
    includeAssisted = event.target.checked;
    cursors = [null];
    page = 0;
    load();
  });
  $("leaderboard-first").addEventListener("click", () => {
    page = 0;
    load();
  });
  $("leaderboard-previous").addEventListener("click", () => {
    page = Math.max(0, page - 1);
    load();
  });
  $("leaderboard-next").addEventListener("click", () => {
    if (!nextCursor) return;
    cursors = cursors.slice(0, page + 1).concat([nextCursor]);
    page += 1;
    load();
  });
  $("open-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = $("open-game-id").value.trim();
    if (id) window.location.hash = `#/games/${encodeURIComponent(id)}`;
  });
}

/** The view became visible (`#/leaderboard`, optionally `?limit=N`): read from page one. */
export function showLeaderboard(params) {
  const asked = Number(params.get("limit"));
  limit = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : DEFAULT_LIMIT;
  includeAssisted = $("include-assisted").checked;
  cursors = [null];
  page = 0;
  nextCursor = null;
  load();
}
