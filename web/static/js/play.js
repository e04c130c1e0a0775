// @ts-check
// Playing a game: start one under a name (or as the account whose key this page holds), or
// the daily challenge; place the current card, ask for a hint, see the end. The page draws
// only what the API answered (after a placement, the `game` that came back); the game's id
// and token are kept in localStorage, so a reload picks the game up again.

import * as api from "./api.js";
import { enableArrowKeys, redrawGrid, showFaceDown, showLastMove } from "./board.js";
import { cardName, cardShort, faceUpCard } from "./cards.js";
import { $ } from "./dom.js";
import { nameRefused, refusedField } from "./fields.js";
import { winChanceText } from "./format.js";
import { endReasonText, GRID_CELLS } from "./game.js";
import { checkNameField } from "./names.js";
import { makeStanding } from "./standing.js";
import {
  onAccountChange,
  readAccount,
  readSavedGame,
  readTournamentToken,
  storage,
  writeSavedGame,
} from "./storage.js";
import { clearNotice, confirmDialog, showError } from "./ui.js";
import { moveWords, placeWords } from "./words.js";

const SAVED_PLAYER = "foursquare.player";
const RULES_OFFER = "foursquare.rules-offer";
// Codes after which the page's copy of the game may be out of date: read it again.
const STALE_CODES = new Set(["version_conflict", "precondition_failed", "game_over"]);

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["GameOut"]} Game */

/** @type {import("./storage.js").SavedGame | null} */
let saved = null; // the game being played, as kept in localStorage
/** @type {Game | null} */
let game = null; // the game as the API last answered
/** @type {Schemas["PlacementOut"] | null} */
let lastPlacement = null; // the placement that produced `game`, for its marks
/** @type {Schemas["PileOut"][] | null} */
let before = null; // the piles before `lastPlacement` (what the player chose it on)
/** @type {Schemas["Hint"] | null} */
let hint = null; // the hint for the current card, if one was asked
let busy = false;
let loaded = false;
/** @type {ReturnType<typeof makeStanding> | null} */
let standing = null; // the won game's rank and place (standing.js)
let focusGrid = false; // a deal opened from another view: the grid takes the focus once shown

/** @param {import("./storage.js").SavedGame | null} value */
function save(value) {
  saved = value;
  writeSavedGame(value);
}

/** What authorises the game's placements and reads: its token, or (a game opened without
 * it, e.g. the day's challenge game started elsewhere) the account's key. */
function bearer() {
  return saved?.token || readAccount()?.key || null;
}

function renderStartForm() {
  const account = readAccount();
  $("guest-start").hidden = Boolean(account);
  $("account-start").hidden = !account;
  $("player-name").hidden = Boolean(account);
  if (account) $("start-account-name").textContent = account.name;
}

/** The first game of a new visitor offers the rules page once: the offer belongs to that
 * game (kept with its id) until it is dismissed or the rules are read.
 * @param {boolean} [done] */
export function rulesOffered(done = false) {
  if (done) storage()?.setItem(RULES_OFFER, "done");
  return storage()?.getItem(RULES_OFFER) || null;
}

/** @param {Game} game @param {boolean} playing */
function renderRulesOffer(game, playing) {
  let offer = rulesOffered();
  if (playing && offer === null) {
    storage()?.setItem(RULES_OFFER, game.id);
    offer = game.id;
  }
  $("rules-offer").hidden = !(playing && offer === game.id);
}

/** Why the game ended, in plain words, naming the move that ended it when it is known.
 * @param {Game} game */
function endText(game) {
  if (game.status === "won") {
    const cards = game.score === 1 ? "1 card was" : `${game.score} cards were`;
    return `Score ${game.score}: ${cards} left in the stock. All ${GRID_CELLS} piles are face up.`;
  }
  const move = lastPlacement && before ? `${cardShort(lastPlacement.card)} went ${moveWords(lastPlacement, before)}` : null;
  if (game.end_reason === "too_many_face_down") {
    const turned = lastPlacement ? lastPlacement.flipped.filter((f) => !f.face_up).length : 0;
    const cause = move
      ? ` ${move} and turned ${turned === 1 ? "1 card" : `${turned} cards`} face down (marked ↻).`
      : "";
    return (
      `More than four piles are face down: ${game.face_down_count} of them, and four is the ` +
      `most a game survives.${cause}`
    );
  }
  if (game.end_reason === "stock_exhausted") {
    return (
      `The stock ran out: every card was placed, but the grid is not ${GRID_CELLS} piles all face up.` +
      (move ? ` The last card, ${move}.` : "")
    );
  }
  const why = endReasonText(game.end_reason) || "the game ended";
  return `${why[0].toUpperCase()}${why.slice(1)}.`;
}

/** A won game's fair-play review in words (the API's), followed while it is pending: the
 * rank and the boards come once it is found clean.
 * @param {Game} shown */
function showFairPlay(shown) {
  const line = $("end-fair-play");
  line.hidden = !shown.fair_play;
  if (!shown.fair_play) return;
  line.textContent = shown.fair_play.words;
  if (shown.fair_play.status === "pending") followReview(shown.id);
}

/** @type {string | null} */
let followed = null; // the game whose review is being followed

/** Ask for the game again every few seconds while its review is pending (a review takes
 * seconds; a busy server's queue may take a minute or two), then show what it said.
 * @param {string} id */
async function followReview(id) {
  if (followed === id) return;
  followed = id;
  try {
    for (let attempt = 0; attempt < 60 && game?.id === id; attempt += 1) {
      await api.sleep(3);
      if (game?.id !== id) return;
      const fresh = await api.getGame(id, bearer()).catch(() => null);
      if (fresh && game?.id === id && fresh.fair_play?.status !== "pending") {
        game = fresh;
        render();
        return;
      }
    }
  } finally {
    if (followed === id) followed = null;
  }
}

function render({ animate = false } = {}) {
  renderStartForm();
  $("start-form").hidden = Boolean(saved);
  $("game").hidden = !(saved && game);
  document.body.classList.toggle("at-table", Boolean(saved && game));
  if (!saved || !game) return;

  const playing = game.status === "in_progress";
  // What is drawn, for tests and styles: the game's version and status as the API sent them.
  $("game").dataset.version = String(game.version);
  $("game").dataset.status = game.status;
  const current = $("current-card");
  current.replaceChildren();
  if (game.current_card) {
    current.append(faceUpCard(game.current_card));
    current.setAttribute("aria-label", `Current card: ${cardName(game.current_card)}`);
    current.dataset.code = game.current_card.code;
  } else {
    current.setAttribute("aria-label", "No current card: the game is over");
    delete current.dataset.code;
  }
  $("stock-count").textContent = String(game.stock_count);
  showFaceDown($("face-down-count"), game.face_down_count);
  $("game-player").textContent = game.player;
  $("assisted-badge").hidden = !game.assisted;
  // The daily challenge is played without hints (the API refuses them), and so is a
  // tournament's deal here (the entrants compete on their own play): no button for them.
  const challenge = Boolean(game.challenge_date);
  const cup = saved.tournament ?? null;
  $("challenge-badge").hidden = !challenge;
  $("challenge-badge").textContent = challenge ? `daily challenge ${game.challenge_date}` : "";
  const badge = $("tournament-badge", HTMLAnchorElement);
  badge.hidden = !cup;
  if (cup) {
    badge.textContent = `${cup.name}: deal ${cup.deal} of ${cup.deals}`;
    badge.href = `#/tournaments/${encodeURIComponent(cup.id)}`;
  }
  // Once the game is over, what applies only to play is gone (not greyed): the card in hand,
  // the hint, the help about the highlighted cells, "New game" (the end offers "Play again").
  $("current-box").hidden = !playing;
  $("board-help").hidden = !playing;
  $("play-actions").hidden = !playing;
  $("hint-button").hidden = challenge || Boolean(cup);
  $("no-hints").hidden = !(challenge || cup);
  $("no-hints").textContent = cup
    ? "A tournament's deals are played without hints."
    : "The daily challenge is played without hints.";
  $("hint-button", HTMLButtonElement).disabled = busy;
  renderRulesOffer(game, playing);

  // Keep the keyboard focus on the grid across a redraw (the clicked button is replaced).
  const board = $("board");
  const hadFocus = redrawGrid(board, {
    piles: game.piles,
    legal: playing ? game.legal_placements : [],
    currentCard: game.current_card,
    onPlace: place,
    placed: lastPlacement,
    flipped: lastPlacement ? lastPlacement.flipped : [],
    hint: hint ? hint.placement : null,
    animate,
    celebrate: animate && game.status === "won",
  });
  board.setAttribute(
    "aria-label",
    playing && game.current_card
      ? `Grid: choose where to place the ${cardName(game.current_card)}`
      : "Grid",
  );

  showLastMove($("last-move"), lastPlacement, before);
  if (!hint) $("hint-text").textContent = "";
  $("hint-text").hidden = !playing || !hint;

  const panel = $("end-panel");
  const wasHidden = panel.hidden;
  panel.hidden = playing;
  panel.classList.toggle("won", game.status === "won");
  panel.classList.toggle("lost", game.status === "lost");
  if (!playing) {
    $("end-title").textContent = game.status === "won" ? "You won!" : "Game lost";
    $("end-detail").textContent = endText(game);
    showFairPlay(game);
    // A tournament's deal is sealed until the tournament ends (no board, no replay for
    // others, no analysis): its end offers the next deal and the way back to the standings.
    standing?.show(cup ? null : game);
    $("next-deal-button").hidden = !cup || cup.deal >= cup.deals;
    $("next-deal-button").textContent = cup ? `Play deal ${cup.deal + 1} of ${cup.deals}` : "";
    $("next-deal-button", HTMLButtonElement).disabled = busy;
    $("end-tournament-link").hidden = !cup;
    if (cup) $("end-tournament-link", HTMLAnchorElement).href = `#/tournaments/${encodeURIComponent(cup.id)}`;
    $("play-again-button").hidden = Boolean(cup);
    $("end-analyse-link").hidden = Boolean(cup);
    // A daily challenge game is analysed once its day has closed: until then, its replay.
    const sealed = game.challenge_date && !game.reveal;
    const analyse = $("end-analyse-link", HTMLAnchorElement);
    analyse.textContent = sealed ? "Replay this game" : "Analyse this game";
    analyse.href = `#/games/${encodeURIComponent(game.id)}${sealed ? "" : "?analyse"}`;
    $("end-board-link").hidden = !game.challenge_date;
    if (game.challenge_date) {
      $("end-board-link", HTMLAnchorElement).href = `#/daily/${game.challenge_date}`;
    }
    // After the day's one attempt, the next game is an ordinary one: the button says so.
    $("play-again-button").textContent = game.challenge_date ? "Play an ordinary game" : "Play again";
    if (wasHidden && (hadFocus || animate)) $("end-title").focus();
  }
}

/** Start a game: a guest's under `player`, or the account's when this page holds a key (its
 * name is sent too, so a key of another account is refused, not silently used). `field`
 * ([input id, message id]): the guest's name field, where a refusal of the name is said (not
 * at the top of the page).
 * @param {string} player
 * @param {[inputId: string, messageId: string] | null} [field] */
async function start(player, field = null) {
  if (busy) return;
  busy = true;
  $("start-button", HTMLButtonElement).disabled = true;
  $("play-again-button", HTMLButtonElement).disabled = true;
  const account = readAccount();
  try {
    let created;
    try {
      created = await (account
        ? api.createGame(account.name, { key: account.key })
        : api.createGame(player));
    } catch (error) {
      if (!(field && !account && nameRefused(error, ...field))) showError(error);
      return;
    }
    clearNotice();
    const { token, ...state } = created;
    save({ id: state.id, token, player: state.player });
    game = state;
    loaded = true;
    lastPlacement = null;
    before = null;
    hint = null;
  } finally {
    busy = false;
    $("start-button", HTMLButtonElement).disabled = false;
    $("play-again-button", HTMLButtonElement).disabled = false;
    render();
  }
  const firstCell = $("board").querySelector("button");
  if (firstCell && !$("game").hidden && !$("play-view").hidden) firstCell.focus();
}

/** Start a game from another view (the home page) and go to the table: a guest's under
 * `player` ("" for anonymous), or the account's.
 * @param {string | null} player
 * @param {[inputId: string, messageId: string] | null} [field] */
export async function startGame(player, field = null) {
  if (game && game.status === "in_progress" && !(await mayLeave())) return;
  await start(player || "", field);
  if (saved && game && game.id === saved.id) {
    if (window.location.hash === "#/play") render();
    else window.location.hash = "#/play";
  }
}

/** @param {{row: number, col: number}} position */
async function place(position) {
  if (busy || !saved || !game || game.status !== "in_progress") return;
  const { id } = saved;
  // While the placement is in flight the board stays as drawn (and keeps the focus); a
  // second click is ignored.
  setBusy(true);
  try {
    const answer = await api.placeCard(id, bearer(), position, game.version);
    clearNotice();
    before = game.piles;
    game = answer.game;
    lastPlacement = answer.placement;
    hint = null;
    setBusy(false);
    render({ animate: true });
  } catch (error) {
    showError(error);
    if (STALE_CODES.has(api.codeOf(error) ?? "")) {
      // Show the notice, then draw the game as it is now.
      const fresh = await api.getGame(id, bearer()).catch(() => null);
      if (fresh) {
        game = fresh;
        lastPlacement = null; // another client's move: its marks are not known here
        before = null;
      }
    }
    setBusy(false);
    render();
  }
}

/** @param {boolean} value */
function setBusy(value) {
  busy = value;
  $("board").setAttribute("aria-busy", String(value));
  $("hint-button", HTMLButtonElement).disabled = value || !game || game.status !== "in_progress";
  $("new-game-button", HTMLButtonElement).disabled = value;
}

async function askHint() {
  if (busy || !saved || !game || game.status !== "in_progress") return;
  const { id } = saved;
  if (!game.assisted) {
    const ok = await confirmDialog({
      title: "Ask for a hint?",
      text:
        "The computer player will suggest a placement. Asking marks this game as assisted: " +
        "if you win, it is left out of the default leaderboard (it shows only with " +
        "“Include assisted games”).",
      confirm: "Ask for a hint",
    });
    if (!ok) return;
  }
  setBusy(true);
  $("hint-text").textContent = "Thinking…";
  $("hint-text").hidden = false;
  try {
    const advice = await api.getHint(id, bearer());
    const fresh = await api.getGame(id, bearer()); // the game is now assisted (a new version)
    clearNotice();
    game = fresh;
    hint = advice;
    const pile = fresh.piles.some(
      (p) => p.row === advice.placement.row && p.col === advice.placement.col,
    );
    const where = placeWords(advice.placement, fresh.piles);
    // A hint is for the card in hand: a game that gave one is in progress, with its card.
    const card = fresh.current_card ? cardName(fresh.current_card) : "card";
    $("hint-text").textContent =
      `Hint: place the ${card} ` +
      `${pile ? `on the pile (${where})` : `on a new pile (${where})`}, marked ★ on the grid ` +
      `(${winChanceText(advice.win_probability)}; expected score ${advice.expected_score.toFixed(1)}).`;
  } catch (error) {
    $("hint-text").textContent = "";
    showError(error);
  } finally {
    setBusy(false);
    render();
  }
}

/** Whether the game in play may be left (asks if it is unfinished). */
export async function mayLeave() {
  if (!(game && game.status === "in_progress")) return true;
  const account = readAccount();
  return confirmDialog({
    title: "Leave this game?",
    text: account
      ? `It stays unfinished on the server, and in the list of ${account.name}'s games.`
      : "It stays unfinished on the server; you cannot come back to it from this page.",
    confirm: "Leave it",
  });
}

async function newGame() {
  if (!(await mayLeave())) return;
  save(null);
  game = null;
  lastPlacement = null;
  before = null;
  hint = null;
  clearNotice();
  render();
  $(readAccount() ? "start-button" : "player-name").focus();
}

/** Play today's daily challenge (the page holds a key: the daily view checks). Refused with
 * `challenge_already_played`, it offers to open the game the problem names. */
export async function startDailyChallenge() {
  const account = readAccount();
  if (!account || !(await mayLeave())) return;
  let created;
  try {
    created = await api.createGame(account.name, { key: account.key, challenge: "daily" });
  } catch (error) {
    const gameId = error instanceof api.ApiProblem ? error.gameId : null;
    if (api.codeOf(error) === "challenge_already_played" && gameId) {
      showError(error, { label: "Open your game", run: () => openAccountGame(gameId) });
    } else {
      showError(error);
    }
    return;
  }
  clearNotice();
  const { token, ...state } = created;
  save({ id: state.id, token, player: state.player });
  game = state;
  loaded = true;
  lastPlacement = null;
  before = null;
  hint = null;
  window.location.hash = "#/play";
}

/** Open one of the account's games: to play on if it is in progress (the key authorises
 * its placements), else its replay.
 * @param {string} id */
export async function openAccountGame(id) {
  const account = readAccount();
  let fresh;
  try {
    fresh = await api.getGame(id, account?.key || null);
  } catch (error) {
    showError(error);
    return;
  }
  if (fresh.status !== "in_progress") {
    window.location.hash = `#/games/${encodeURIComponent(id)}`;
    return;
  }
  if (saved?.id !== id && !(await mayLeave())) return;
  clearNotice();
  save({ id, token: saved?.id === id ? saved.token : null, player: fresh.player });
  game = fresh;
  loaded = true;
  lastPlacement = null;
  before = null;
  hint = null;
  if (window.location.hash === "#/play") render();
  else window.location.hash = "#/play";
}

/** Play a tournament's deal (`game`, as `POST /tournaments/{id}/games` answered it) in this
 * view: `token` is a guest entrant's credential (null for an account: its key authorises the
 * placements), `tournament` what the view needs for the way back and the next deal.
 * @param {Game} dealt
 * @param {string | null} token
 * @param {NonNullable<import("./storage.js").SavedGame["tournament"]>} tournament */
export function openTournamentGame(dealt, token, tournament) {
  clearNotice();
  save({ id: dealt.id, token, player: dealt.player, tournament });
  game = dealt;
  loaded = true;
  lastPlacement = null;
  before = null;
  hint = null;
  if (window.location.hash === "#/play") {
    render();
    $("board").querySelector("button")?.focus();
  } else {
    focusGrid = true;
    window.location.hash = "#/play";
  }
}

/** The deal after the tournament game shown: dealt, and played here. */
async function nextDeal() {
  const cup = saved?.tournament;
  if (busy || !cup || !saved) return;
  // The entrant's credential: a guest's tournament token (kept by the tournament's page), or
  // the account's key; the game's own token plays the game, not the tournament.
  const entrant = readTournamentToken(cup.id) || readAccount()?.key || null;
  busy = true;
  $("next-deal-button", HTMLButtonElement).disabled = true;
  try {
    const dealt = await api.playTournamentDeal(cup.id, entrant);
    busy = false;
    const { token, ...next } = dealt.game;
    openTournamentGame(next, token, { ...cup, deal: dealt.deal });
  } catch (error) {
    showError(error, null, "tournament");
  } finally {
    busy = false;
    $("next-deal-button", HTMLButtonElement).disabled = false;
  }
}

/** Wire the play view's controls; called once. */
export function installPlay() {
  standing = makeStanding($("end-standing"), "end-standing");
  $("player-name", HTMLInputElement).value = storage()?.getItem(SAVED_PLAYER) || "";
  checkNameField("player-name", "player-name-check");
  onAccountChange(() => render());
  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearNotice(); // an older refusal at the top goes: this attempt's is said beside the name
    const guest = !readAccount();
    if (guest && refusedField("player-name", "player-name-check")) return;
    const player = $("player-name", HTMLInputElement).value.trim();
    storage()?.setItem(SAVED_PLAYER, player);
    start(player, ["player-name", "player-name-check"]);
  });
  $("play-again-button").addEventListener("click", () => {
    const player = saved?.player || $("player-name", HTMLInputElement).value.trim();
    start(player === "anonymous" ? "" : player);
  });
  $("new-game-button").addEventListener("click", newGame);
  $("next-deal-button").addEventListener("click", nextDeal);
  $("hint-button").addEventListener("click", askHint);
  $("rules-offer-dismiss").addEventListener("click", () => {
    rulesOffered(true);
    $("rules-offer").hidden = true;
    $("hint-button").focus();
  });
  enableArrowKeys($("board"));
  saved = readSavedGame();
}

/** Read the saved game from the API (after a reload of the page). */
async function loadSaved() {
  if (!saved) return;
  const { id } = saved;
  $("game").setAttribute("aria-busy", "true");
  try {
    game = await api.getGame(id, bearer());
    lastPlacement = null;
    before = null;
    hint = null;
  } catch (error) {
    if (error instanceof api.ApiProblem && error.status === 404) {
      save(null); // the game is gone: start a new one, with the notice saying why
      showError(error);
    } else {
      showError(error, { label: "Try again", run: loadSaved });
    }
  } finally {
    $("game").removeAttribute("aria-busy");
    render();
  }
}

/** The play view became visible: load the saved game the first time. */
export async function showPlay() {
  if (!loaded && saved) {
    loaded = true;
    await loadSaved();
  }
  render();
  if (focusGrid) {
    focusGrid = false;
    // After the router's own move of the focus to the view (it comes once this returns), as
    // a game started here has it: on the grid, ready for the keyboard.
    setTimeout(() => $("board").querySelector("button")?.focus(), 0);
  }
}
