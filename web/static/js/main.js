// @ts-check
// The page's views, chosen by the URL's fragment: #/ (the home page, the default), #/play (the
// table: a game started, played and ended), #/daily (today's
// daily challenge; #/daily/YYYY-MM-DD another day's), #/leaderboard (optionally ?limit=N),
// #/account (register, or use a key), #/players/{name} (a player's page and games),
// #/games/{id} (a game's replay, its deal's verification and its analysis; with ?analyse, the
// analysis asked for at once; live while the game is played), #/rules (how to play, with the
// rulebook's worked example), #/live (the games being played; #/live/{id} one followed),
// #/races (open a race; #/races/{id} its lobby, countdown, tables and ranking),
// #/tournaments (the coming and past ones; #/tournaments/{id} one: joining, its deals, its
// standings live, its end and its deals verified).
// Each navigation closes the event streams the view left behind opened (events.js).

import { installAccount, showAccount, showPlayer } from "./account.js";
import { installAnalysis, leaveAnalysis } from "./analysis.js";
import { installDaily, showDaily } from "./daily.js";
import { $ } from "./dom.js";
import { closeStreams } from "./events.js";
import { installHome, showHome } from "./home.js";
import { installLeaderboard, showLeaderboard } from "./leaderboard.js";
import { installLive, showLive } from "./live.js";
import { loadNameRule } from "./names.js";
import { installPlay, showPlay } from "./play.js";
import { installRaces, showRaces } from "./race.js";
import { installReplay, showReplay } from "./replay.js";
import { installRules, showRules } from "./rules.js";
import { installTournaments, showTournaments } from "./tournaments.js";
import { installNotice } from "./ui.js";

/** @typedef {typeof VIEWS[number]} View */
/**
 * A route: the view a fragment shows, and what it names.
 * @typedef {{view: "home" | "play" | "leaderboard" | "account" | "rules", params: URLSearchParams}
 *   | {view: "daily", day: string, params: URLSearchParams}
 *   | {view: "live" | "race" | "tournament", id: string | null, params: URLSearchParams}
 *   | {view: "player", name: string, params: URLSearchParams}
 *   | {view: "replay", id: string, params: URLSearchParams}} Route
 */

const VIEWS = /** @type {const} */ ([
  "home",
  "play",
  "daily",
  "leaderboard",
  "live",
  "race",
  "tournament",
  "account",
  "player",
  "replay",
  "rules",
]);
/** @type {Record<View, string>} */
const TITLES = {
  home: "Foursquare: a card game for one",
  play: "Play · Foursquare",
  daily: "Daily challenge · Foursquare",
  leaderboard: "Leaderboard · Foursquare",
  live: "Live · Foursquare",
  race: "Races · Foursquare",
  tournament: "Tournaments · Foursquare",
  account: "Account · Foursquare",
  player: "Player · Foursquare",
  replay: "Game · Foursquare",
  rules: "How to play · Foursquare",
};
// The navigation link marked current for each view.
/** @type {Partial<Record<View, string>>} */
const LINKS = {
  home: "home",
  play: "play",
  daily: "daily",
  leaderboard: "leaderboard",
  live: "live",
  race: "races",
  tournament: "tournaments",
  account: "account",
  rules: "rules",
};

/** @param {string} hash
 * @returns {Route} */
function parseRoute(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "play") return { view: "play", params };
  if (parts[0] === "leaderboard") return { view: "leaderboard", params };
  if (parts[0] === "daily") {
    return { view: "daily", day: parts[1] ? decodeURIComponent(parts[1]) : "today", params };
  }
  if (parts[0] === "live") {
    return { view: "live", id: parts[1] ? decodeURIComponent(parts[1]) : null, params };
  }
  if (parts[0] === "races") {
    return { view: "race", id: parts[1] ? decodeURIComponent(parts[1]) : null, params };
  }
  if (parts[0] === "tournaments") {
    return { view: "tournament", id: parts[1] ? decodeURIComponent(parts[1]) : null, params };
  }
  if (parts[0] === "account") return { view: "account", params };
  if (parts[0] === "rules") return { view: "rules", params };
  if (parts[0] === "players" && parts[1]) {
    return { view: "player", name: decodeURIComponent(parts[1]), params };
  }
  if (parts[0] === "games" && parts[1]) {
    return { view: "replay", id: decodeURIComponent(parts[1]), params };
  }
  return { view: "home", params };
}

let firstRoute = true;

function route() {
  const target = parseRoute(window.location.hash);
  closeStreams();
  for (const view of VIEWS) {
    $(`${view}-view`).hidden = view !== target.view;
  }
  for (const link of document.querySelectorAll("[data-view-link]")) {
    const current = link.getAttribute("data-view-link") === LINKS[target.view];
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = TITLES[target.view];
  // The play view is a table that fits the screen while a game is on it (app.css).
  document.body.dataset.view = target.view;
  if (target.view !== "replay") leaveAnalysis();
  if (target.view === "home") showHome();
  if (target.view === "play") showPlay();
  if (target.view === "daily") showDaily(target.day);
  if (target.view === "leaderboard") showLeaderboard(target.params);
  if (target.view === "live") showLive(target.id);
  if (target.view === "race") showRaces(target.id);
  if (target.view === "tournament") showTournaments(target.id);
  if (target.view === "account") showAccount();
  if (target.view === "player") showPlayer(target.name);
  if (target.view === "replay") showReplay(target.id, target.params.has("analyse"));
  if (target.view === "rules") showRules();
  // After a navigation (not the first load), move the focus to the new view, as a new page would.
  if (!firstRoute) $("main").focus({ preventScroll: false });
  firstRoute = false;
}

loadNameRule();
installNotice();
installHome();
installPlay();
installDaily();
installLeaderboard();
installLive();
installRaces();
installTournaments();
installAccount();
installReplay();
installAnalysis();
installRules();
window.addEventListener("hashchange", route);
route();
