// Races (`#/races`, `#/races/{id}`): one deal played at once by friends and, if asked, the
// computer. A race is opened here (a guest under a name, or as the account whose key this page
// holds), its link copied to friends, who join it in its lobby; the opener starts it, a
// countdown runs to its `starts_at`, and then each racer plays their own game of the deal at
// their own table (board.js draws it, the placements go to the games' own endpoint with the
// token of `your_game`) beside the others' progress: counts only, as the API shows them.
// The end is the ranking, with a rematch for the same racers.
//
// Everything that moves comes from the race's stream (`/races/{id}/events`, events.js):
// `joined`, `countdown`, `started`, `progress`, `finished`, `result`. The stream replays a
// race from its first event, so a reload draws it as it is. The racer's credential is a guest's
// `racer_token` (kept per race in localStorage: a reload, and the rematch, find the racer
// again) or the account's key.

import * as api from "./api.js";
import { enableArrowKeys, redrawGrid, showFaceDown, showLastMove } from "./board.js";
import { cardName, faceUpCard } from "./cards.js";
import { $, element } from "./dom.js";
import { currentGeneration, openStream } from "./events.js";
import { DECK_SIZE, resultText } from "./game.js";
import { playerLink } from "./leaderboard.js";
import { checkNameField } from "./names.js";
import { onAccountChange, readAccount, readRaceToken, storage, writeRaceToken } from "./storage.js";
import { clearNotice, noticeMark, showError } from "./ui.js";

const SAVED_PLAYER = "foursquare.player"; // the name last played under (play.js keeps it too)
const STAGES = ["lobby", "countdown", "running", "finished"];
// Each racer's game is dealt by the server at the countdown's end, within a fraction of a
// second (its ticker), and the stream's `started` says so: the race is read then. Should
// that event be missed (a stream reconnecting), the race is also read this often until
// `your_game` is there (every 2 s while the count runs), for this long after `starts_at`.
const COUNTDOWN_POLL_MS = 2_000;
const DEAL_POLL_MS = 1_000;
const DEAL_WAIT_MS = 30_000;
// Once the race is over, it is read again this often: a rematch another racer asked for is
// not announced on the (closed) stream, only in the race's `next_race`.
const REMATCH_POLL_MS = 2_000;
const STALE_CODES = new Set(["version_conflict", "precondition_failed", "game_over"]);

let raceId = null; // the race shown, or null on the opening page
let race = null; // the race as last read, its racers kept up to date by the stream
let credential = null; // this page's racer credential in it: a guest's token or the key
let game = null; // this racer's game, as the API last answered
let lastPlacement = null;
let before = null; // the piles before `lastPlacement`
let busy = false;
let stream = null;
let timer = null; // the countdown's ticks, or the rematch's polls
let dealChain = 0; // the reads for `your_game` going on: a new chain of them ends the older

const stageOf = (status) => STAGES.indexOf(status);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const ORDINAL = ["", "1st", "2nd", "3rd"];
const ordinal = (n) => ORDINAL[n] || `${n}th`;

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
}

async function openRace(event) {
  event.preventDefault();
  if (busy) return;
  const account = readAccount();
  const player = $("race-name").value.trim();
  if (!account) storage()?.setItem(SAVED_PLAYER, player);
  busy = true;
  $("race-open-button").disabled = true;
  try {
    const opened = await api.openRace({
      player: account ? account.name : player,
      key: account?.key || null,
      computer: $("race-computer").checked,
    });
    clearNotice();
    if (opened.racer_token) writeRaceToken(opened.id, opened.racer_token);
    window.location.hash = `#/races/${encodeURIComponent(opened.id)}`;
  } catch (error) {
    showError(error, null, "race");
  } finally {
    busy = false;
    $("race-open-button").disabled = false;
  }
}

// ---------------------------------------------------------------- the racers

/** One racer's line: name, a bar of the cards placed, and the counts (or the result). */
function racerItem(racer) {
  const mine = race.you === racer.racer;
  const name = element("span", { className: "racer-name" });
  name.append(racer.computer ? "The computer" : racer.name);
  if (mine) name.append(element("span", { className: "badge", textContent: "you" }));
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
    counts = `${resultText(racer.state, null, racer.score)} after ${plural(racer.placements, "card", "cards")}`;
    if (racer.rank) counts = `${ordinal(racer.rank)}: ${counts}`;
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
  // At the end the ranking says it all.
  $("race-racers-box").hidden = race.status === "finished";
  $("race-racers").replaceChildren(...race.racers.map(racerItem));
  $("race-racers-heading").textContent = `Racers (${race.racers.length} of ${race.seats})`;
}

const STATE_ORDER = { waiting: 0, in_progress: 1, won: 2, lost: 2 };

/** A racer's news from the stream: their line takes it (a new racer is added), unless it is
 * older than what the line shows (the stream replays a race from its first event, after the
 * page has read the race as it is). Returns the line's state before, or null if unchanged. */
function updateRacer(racer) {
  const index = race.racers.findIndex((r) => r.racer === racer.racer);
  if (index === -1) {
    race.racers = [...race.racers, racer];
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

/** The race moves on to `status` (never back: a replayed stream says old news first). */
function advance(status) {
  if (stageOf(status) > stageOf(race.status)) race.status = status;
}

// ---------------------------------------------------------------- the race's state

function setState(text) {
  $("race-state").textContent = text;
  $("race-room").dataset.status = race.status;
}

function secondsLeft() {
  return Math.max(0, Math.ceil((Date.parse(race.starts_at) - Date.now()) / 1000));
}

function renderLobby() {
  const lobby = race.status === "lobby";
  $("race-lobby").hidden = !lobby;
  if (!lobby) return;
  const link = `${window.location.origin}${window.location.pathname}#/races/${race.id}`;
  $("race-link").value = link;
  const racer = race.you !== null;
  const opener = race.you === 1;
  $("race-join-form").hidden = racer;
  const account = readAccount();
  $("race-join-guest").hidden = Boolean(account);
  $("race-join-account").hidden = !account;
  if (account) $("race-join-account-name").textContent = account.name;
  $("race-start").hidden = !opener;
  $("race-start").disabled = busy || race.racers.length < 2;
  let waiting;
  if (!racer) waiting = "Join to race: the race's opener starts it.";
  else if (!opener) waiting = "You are in. The race starts when its opener starts it, or when it is full.";
  else if (race.racers.length < 2) waiting = "Send the link to a friend: a race needs two racers.";
  else waiting = "Start the race when everybody is in (it starts by itself when it is full).";
  $("race-waiting").textContent = waiting;
}

function renderCountdown() {
  const counting = race.status === "countdown";
  $("race-countdown").hidden = !counting;
  if (counting) {
    const left = secondsLeft();
    $("race-countdown-number").textContent = String(left);
    $("race-countdown").dataset.seconds = String(left);
  }
}

function renderResult() {
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
    const name = racer.computer ? "The computer" : playerLink(racer.name, racer.registered);
    // Once the race is over every racer's game is public: its replay.
    let replay = "";
    if (racer.game_id) {
      const whose = racer.racer === race.you ? "your game" : `the game of ${racer.computer ? "the computer" : racer.name}`;
      replay = element("a", { href: `#/games/${encodeURIComponent(racer.game_id)}`, textContent: "Replay" });
      replay.setAttribute("aria-label", `Replay ${whose}`);
    }
    const row = element(
      "tr",
      {},
      element("td", { textContent: ordinal(racer.rank) }),
      element("td", {}, name),
      element("td", { textContent: resultText(racer.state, null, racer.score) }),
      element("td", { textContent: String(racer.placements) }),
      element("td", {}, replay),
    );
    row.dataset.racer = String(racer.racer);
    return row;
  });
  $("race-ranking-body").replaceChildren(...rows);
  $("race-rematch").hidden = race.you === null;
  $("race-rematch").textContent = race.next_race ? "Go to the rematch" : "Rematch";
  $("race-rematch-text").textContent = race.next_race
    ? "A rematch is open for the same racers, with a new deal: its lobby is waiting."
    : "A rematch opens a new race for the same racers, with a new deal.";
  $("race-replay-link").hidden = !race.your_game;
  if (race.your_game) $("race-replay-link").href = `#/games/${encodeURIComponent(race.your_game.id)}`;
  if (wasHidden) $("race-result-title").focus();
}

function renderState() {
  const count = race.racers.length;
  if (race.status === "lobby") setState(`In the lobby: ${plural(count, "racer", "racers")} of ${race.seats}.`);
  if (race.status === "countdown") setState(`The race starts in ${plural(secondsLeft(), "second", "seconds")}.`);
  if (race.status === "running") {
    const done = race.racers.filter((r) => r.state === "won" || r.state === "lost").length;
    const watching = race.you === null ? " You are watching." : "";
    setState(`Racing: ${done} of ${plural(count, "racer", "racers")} finished.${watching}`);
  }
  if (race.status === "finished") setState("The race is over.");
}

function render() {
  $("race-heading").textContent =
    race.status === "lobby" ? "Race lobby" : race.status === "finished" ? "Race result" : "Race";
  renderState();
  renderLobby();
  renderCountdown();
  renderResult();
  renderRacers();
  renderTable();
}

// ---------------------------------------------------------------- your table

function ownEndText() {
  const ended = resultText(game.status, game.end_reason, game.score);
  const waiting = race.status === "finished" ? "" : " Waiting for the others to finish…";
  return `Your game is over: ${ended}, after ${plural(game.placements_count, "card", "cards")}.${waiting}`;
}

function renderTable() {
  const shown = Boolean(game);
  $("race-own").hidden = !shown;
  $("race-hand").hidden = !shown;
  $("race-table").classList.toggle("with-table", shown);
  if (!shown) return;
  const playing = game.status === "in_progress" && race.status === "running";
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
    playing ? `Your grid: choose where to place the ${cardName(game.current_card)}` : "Your grid",
  );
  showLastMove($("race-last-move"), lastPlacement, before);
  $("race-own-end").hidden = game.status === "in_progress";
  if (game.status !== "in_progress") $("race-own-end").textContent = ownEndText();
}

async function place(position) {
  if (busy || !game || game.status !== "in_progress") return;
  const id = raceId;
  busy = true;
  $("race-board").setAttribute("aria-busy", "true");
  try {
    const answer = await api.placeCard(game.id, race.your_game.token, position, game.version);
    if (id !== raceId) return;
    clearNotice();
    before = game.piles;
    game = answer.game;
    lastPlacement = answer.placement;
  } catch (error) {
    if (id !== raceId) return;
    showError(error, null, "race");
    if (STALE_CODES.has(error.code)) {
      const fresh = await api.getGame(game.id, race.your_game.token).catch(() => null);
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
  if (game.status !== "in_progress") $("race-own-end").focus();
}

/** Read this racer's game (the race has started: `your_game` names it). */
async function loadGame(id) {
  try {
    const fresh = await api.getGame(race.your_game.id, race.your_game.token);
    if (id !== raceId) return;
    const first = game === null;
    game = fresh;
    renderTable();
    if (first && game.status === "in_progress") $("race-board").querySelector("button")?.focus();
  } catch (error) {
    if (id === raceId) showError(error, { label: "Try again", run: () => loadGame(id) }, "race");
  }
}

/** From the countdown on, read the race until `your_game` is there (the server deals each
 * racer's game at `starts_at`, within its ticker's half-second), then the game: once a second
 * while the count runs, often once it is over. The count is drawn by this browser's clock,
 * which may be off the server's: the table comes when the deal is there, whatever the count
 * says. */
async function waitForDeal(id, chain = ++dealChain, deadline = null) {
  const current = () => id === raceId && chain === dealChain && !game;
  if (!current() || race.you === null) return;
  const until = deadline ?? Math.max(Date.parse(race.starts_at) || 0, Date.now()) + DEAL_WAIT_MS;
  let fresh;
  try {
    fresh = await api.getRace(id, credential);
  } catch (error) {
    if (current()) showError(error, { label: "Try again", run: () => waitForDeal(id) }, "race");
    return;
  }
  if (!current()) return;
  if (fresh.your_game) {
    race.your_game = fresh.your_game;
    advance(fresh.status);
    render();
    await loadGame(id);
  } else if (Date.now() < until) {
    const counting = race.status === "countdown" && secondsLeft() > 1;
    setTimeout(() => waitForDeal(id, chain, until), counting ? COUNTDOWN_POLL_MS : DEAL_POLL_MS);
  }
}

function startCountdown(id) {
  stopTimer();
  render();
  timer = setInterval(() => {
    if (id !== raceId || race.status !== "countdown") return stopTimer();
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
  if (race.you !== null) $("race-countdown").focus();
}

/** Once over, read the race again now and then, for the rematch another racer opens. */
function watchForRematch(id) {
  stopTimer();
  if (race.next_race || race.you === null) return;
  timer = setInterval(async () => {
    if (id !== raceId || race.next_race) return stopTimer();
    try {
      const fresh = await api.getRace(id, credential);
      if (id !== raceId || !fresh.next_race) return;
      race.next_race = fresh.next_race;
      stopTimer();
      renderResult();
    } catch {
      // The button asks for the rematch anyway: the server answers the one already open.
    }
  }, REMATCH_POLL_MS);
}

async function finish(id) {
  stream?.close();
  stream = null;
  stopTimer();
  try {
    const fresh = await api.getRace(id, credential);
    if (id !== raceId) return;
    race = fresh;
    if (race.your_game) {
      game = await api.getGame(race.your_game.id, race.your_game.token);
      if (id !== raceId) return;
    }
  } catch (error) {
    if (id === raceId) showError(error, null, "race");
  }
  render();
  watchForRematch(id);
}

function follow(id, gen) {
  stream = openStream(
    `/races/${encodeURIComponent(id)}/events`,
    {
      joined(racer) {
        if (id !== raceId) return;
        updateRacer(racer);
        render();
      },
      countdown(data) {
        if (id !== raceId || stageOf(race.status) > stageOf("countdown")) return;
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
        if (id !== raceId || game) return;
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
        if (was === "waiting" || was === "in_progress") {
          const who = racer.racer === race.you ? "You" : racer.computer ? "The computer" : racer.name;
          const news = `${who} finished: ${resultText(racer.state, null, racer.score)}.`;
          $("race-news").append(element("p", { textContent: news }));
        }
      },
      result(data) {
        if (id !== raceId) return;
        race.racers = data.racers;
        advance("finished");
        finish(id);
      },
    },
    {
      gen,
      onState(state) {
        if (id !== raceId || race.status === "finished") return;
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
  if (race.status === "finished") {
    await finish(id);
    return;
  }
  follow(id, gen);
  if (race.status === "countdown") startCountdown(id);
  if (race.status === "running") {
    if (race.your_game) await loadGame(id);
    else waitForDeal(id);
  }
}

// ---------------------------------------------------------------- the lobby's buttons

async function join(event) {
  event.preventDefault();
  if (busy || !race) return;
  const id = raceId;
  const account = readAccount();
  const player = $("race-join-name").value.trim();
  if (!account) storage()?.setItem(SAVED_PLAYER, player);
  busy = true;
  $("race-join-button").disabled = true;
  try {
    const joined = await api.joinRace(id, {
      player: account ? account.name : player,
      key: account?.key || null,
    });
    if (id !== raceId) return;
    clearNotice();
    if (joined.racer_token) writeRaceToken(id, joined.racer_token);
    credential = joined.racer_token || account.key;
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
    showError(error, null, "race");
  } finally {
    busy = false;
    $("race-join-button").disabled = false;
  }
}

async function start() {
  if (busy || !race) return;
  const id = raceId;
  busy = true;
  $("race-start").disabled = true;
  try {
    const started = await api.startRace(id, credential);
    if (id !== raceId) return;
    clearNotice();
    // The `countdown` event says the same; whichever comes first starts the count.
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

async function copyLink() {
  try {
    await navigator.clipboard.writeText($("race-link").value);
    $("race-copy-status").textContent = "The link was copied: send it to the friends you race.";
  } catch {
    $("race-link").focus();
    $("race-link").select();
    $("race-copy-status").textContent =
      "The browser did not allow copying: the link is selected, copy it with Ctrl+C (⌘C).";
  }
}

async function rematch() {
  if (busy || !race) return;
  const id = raceId;
  busy = true;
  $("race-rematch").disabled = true;
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
    $("race-rematch").disabled = false;
  }
}

/** Wire the view's controls; called once. */
export function installRaces() {
  const saved = storage()?.getItem(SAVED_PLAYER) || "";
  $("race-name").value = saved;
  $("race-join-name").value = saved;
  checkNameField("race-name", "race-name-check");
  checkNameField("race-join-name", "race-join-name-check");
  $("race-open-form").addEventListener("submit", openRace);
  $("race-join-form").addEventListener("submit", join);
  $("race-start").addEventListener("click", start);
  $("race-copy").addEventListener("click", copyLink);
  $("race-rematch").addEventListener("click", rematch);
  enableArrowKeys($("race-board"));
  onAccountChange(() => {
    if ($("race-view").hidden) return;
    if (raceId === null) renderOpenForm();
    else if (race) renderLobby();
  });
}

/** The view became visible: the opening page (`#/races`) or race `id` (`#/races/{id}`). */
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
