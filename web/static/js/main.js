// The page's views, chosen by the URL's fragment: #/play (the default), #/leaderboard
// (optionally ?limit=N), #/games/{id} (a game's replay and its deal's verification).

import { installLeaderboard, showLeaderboard } from "./leaderboard.js";
import { installPlay, showPlay } from "./play.js";
import { installReplay, showReplay } from "./replay.js";
import { installNotice } from "./ui.js";

const VIEWS = ["play", "leaderboard", "replay"];
const TITLES = { play: "Foursquare", leaderboard: "Leaderboard · Foursquare", replay: "Game · Foursquare" };

function parseRoute(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "leaderboard") return { view: "leaderboard", params };
  if (parts[0] === "games" && parts[1]) {
    return { view: "replay", id: decodeURIComponent(parts[1]), params };
  }
  return { view: "play", params };
}

let firstRoute = true;

function route() {
  const target = parseRoute(window.location.hash);
  for (const view of VIEWS) {
    document.getElementById(`${view}-view`).hidden = view !== target.view;
  }
  for (const link of document.querySelectorAll("[data-view-link]")) {
    if (link.dataset.viewLink === target.view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = TITLES[target.view];
  if (target.view === "play") showPlay();
  if (target.view === "leaderboard") showLeaderboard(target.params);
  if (target.view === "replay") showReplay(target.id);
  // After a navigation (not the first load), move the focus to the new view, as a new page would.
  if (!firstRoute) document.getElementById("main").focus({ preventScroll: false });
  firstRoute = false;
}

installNotice();
installPlay();
installLeaderboard();
installReplay();
window.addEventListener("hashchange", route);
route();
