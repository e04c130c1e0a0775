// The leaderboard, a page at a time (the API's `next_cursor`), each game a link to its replay.

import * as api from "./api.js";
import { makePager, shortTime } from "./pager.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_LIMIT = 20;

let limit = DEFAULT_LIMIT;
let includeAssisted = false;

/** A board's row: rank, player, score, finish time and a link to the game's replay. */
export function leaderboardRow(entry) {
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
    const answer = await api.getLeaderboard({ limit, cursor, includeAssisted });
    $("leaderboard-caption").textContent = includeAssisted
      ? "Won games, assisted ones included, best score first"
      : "Won games, best score first";
    return { rows: answer.entries.map(leaderboardRow), next_cursor: answer.next_cursor };
  },
);

/** Wire the view's controls; called once. */
export function installLeaderboard() {
  $("include-assisted").addEventListener("change", (event) => {
    includeAssisted = event.target.checked;
    pager.reload();
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
  pager.reload();
}
