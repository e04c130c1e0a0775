// @ts-check
// One game, stepped through: the board after each placement is rebuilt in the browser from
// the history (`GET /games/{id}/placements`: each placement and the piles it flipped), a
// finished game's deal can be verified (see verify.js) and the game analysed (analysis.js:
// the step shown gets its review). A game still in progress is followed live
// (`/games/{id}/events`): each new placement is added to the steps (and shown, if the last
// step was), and at its end the game is read again, a finished replay.

import { leaveAnalysis, markStep, reviewOf, reviewText, showAnalysis } from "./analysis.js";
import * as api from "./api.js";
import { renderBoard, showFaceDown } from "./board.js";
import { $, element } from "./dom.js";
import { currentGeneration, gameEventsUrl, openStream } from "./events.js";
import { timeText } from "./format.js";
import { DECK_SIZE, resultText } from "./game.js";
import { makeStanding } from "./standing.js";
import { bearerFor } from "./storage.js";
import { clearNotice, noticeMark, showError } from "./ui.js";
import { checkItem, faceDownCount, replayHistory, sameGrid, verifyDeal } from "./verify.js";
import { placementText } from "./words.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["GameOut"]} Game */

/** @type {Game | null} */
let game = null;
/** @type {Schemas["PlacementOut"][]} */
let placements = [];
/** @type {Schemas["PileOut"][][]} */
let boards = [[]];
let step = 0;
/** @type {string | null} */
let requested = null; // the id whose view is wanted (a newer navigation wins)
/** @type {ReturnType<typeof makeStanding> | null} */
let standing = null; // a won game's rank and place (standing.js)
/** @type {import("./events.js").Stream | null} */
let stream = null; // the game's events, while it is in progress
/** @type {string | null} */
let endedLive = null; // the id of the game whose end was just watched
/** @type {ReturnType<typeof setTimeout> | null} */
let opensTimer = null; // reads a private game again when its day closes

/** The steps, the deal's check and the analysis are shown only with a game read: without
 * one they could not work (a private game's replay offered "First", "Next" and a commitment
 * in empty brackets).
 * @param {boolean} shown */
function showControls(shown) {
  $("replay-steps").hidden = !shown;
  $("replay-verify").hidden = !shown;
  $("replay-analysis").hidden = !shown;
}

/** A game its player alone may see for now (`challenge_game_private`, `race_game_private`):
 * said in the summary with when it opens, and no "Try again" (nothing would change before
 * then). A daily challenge game is private while its day is open, so it opens at the next
 * 00:00 UTC; the page reads it again then, if it is still on show.
 * @param {string} id
 * @param {api.ApiProblem} problem */
function showPrivate(id, problem) {
  $("replay-heading").textContent = "A private game";
  if (problem.code === "race_game_private") {
    $("replay-summary").textContent =
      "This racer's game is private until its race ends: the racers see only each other's " +
      "counts while they play. Its replay opens here when the race is over.";
    return;
  }
  const now = new Date();
  const opens = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  $("replay-summary").textContent =
    "This daily challenge game is private until its day closes, at " +
    `${timeText(opens.toISOString())}: only its player may see it until then, so that ` +
    "nobody learns the day's cards from it. Its replay opens here then.";
  $("replay-private").hidden = false;
  opensTimer = setTimeout(() => {
    opensTimer = null;
    if (requested === id && !$("replay-view").hidden) showReplay(id);
  }, opens.getTime() - now.getTime() + 2000);
}

/** @param {string} text */
function setLive(text) {
  $("replay-live").textContent = text;
  $("replay-live").hidden = !text;
}

/** Follow game `id` (in progress) from placement `placements.length + 1` on.
 * @param {Game} shown its game, as read
 * @param {number} gen */
function followLive(shown, gen) {
  const { id } = shown;
  stream = openStream(
    gameEventsUrl(id),
    {
      placement(data) {
        if (requested !== id || data.number <= placements.length) return;
        if (data.number > placements.length + 1) {
          // A gap (never expected: the stream resumes where it left off): read it all.
          stream?.close();
          showReplay(id);
          return;
        }
        const atEnd = step === placements.length;
        placements = [...placements, data];
        boards = replayHistory(placements);
        $("replay-range", HTMLInputElement).max = String(placements.length);
        $("replay-summary").textContent = summary(shown);
        if (atEnd) goTo(placements.length);
        else render();
      },
      end() {
        if (requested !== id) return;
        stream?.close();
        stream = null;
        endedLive = id;
        // The finished game: its result, its revealed deal, its place, its analysis.
        showReplay(id);
      },
    },
    {
      gen,
      onState(state) {
        if (requested !== id) return;
        if (state === "open") setLive("Live: new placements appear as they are played.");
        if (state === "reconnecting") setLive("Live: connection lost, reconnecting…");
        if (state === "stopped") setLive("Live updates stopped; reload to follow the game again.");
      },
    },
  );
}

/** @param {Game} game */
function summary(game) {
  const count = placements.length === 1 ? "1 placement" : `${placements.length} placements`;
  const result = resultText(game.status, game.end_reason, game.score);
  const assisted = game.assisted ? ", assisted (hints were asked)" : "";
  const challenge = game.challenge_date ? `; the daily challenge of ${game.challenge_date}` : "";
  const who = game.computer ? "The computer" : game.player;
  return `${who}: ${result}; ${count}${assisted}${challenge}.`;
}

function stepText() {
  if (step === 0) return `Step 0 of ${placements.length}: before the first card.`;
  const placement = placementText(placements[step - 1], boards[step - 1]);
  return `Step ${step} of ${placements.length}: ${placement}.`;
}

function render() {
  const placement = step > 0 ? placements[step - 1] : null;
  const review = step > 0 ? reviewOf(step) : null;
  const best = review && review.label !== "best" ? review.best.placement : null;
  renderBoard($("replay-board"), {
    piles: boards[step],
    placed: placement,
    flipped: placement ? placement.flipped : [],
    best,
    animate: true,
  });
  $("replay-review").textContent = step > 0 ? reviewText(step) : "";
  if (review) $("replay-review").dataset.label = review.label;
  else delete $("replay-review").dataset.label;
  $("replay-best-help").hidden = !best;
  markStep(step);
  $("replay-board").setAttribute("aria-label", `Grid after step ${step}`);
  $("replay-step-text").textContent = stepText();
  const down = faceDownCount(boards[step]);
  // The stock after `step` placements: the rest of the deck, less the next (current) card.
  const playing = !placement || placement.status_after === "in_progress";
  $("replay-stock").textContent = String(DECK_SIZE - step - (playing ? 1 : 0));
  showFaceDown($("replay-face-down"), down);
  $("replay-range", HTMLInputElement).value = String(step);
  $("replay-first", HTMLButtonElement).disabled = step === 0;
  $("replay-previous", HTMLButtonElement).disabled = step === 0;
  $("replay-next", HTMLButtonElement).disabled = step === placements.length;
  $("replay-last", HTMLButtonElement).disabled = step === placements.length;
}

/** @param {number} target */
function goTo(target) {
  step = Math.min(Math.max(target, 0), placements.length);
  render();
}

/** @param {Game} game */
function renderVerifySection(game) {
  $("replay-commitment").textContent = game.deck_commitment;
  $("verify-results").replaceChildren();
  const finished = Boolean(game.reveal);
  const button = $("verify-button", HTMLButtonElement);
  button.disabled = !finished;
  button.title = finished ? "" : "The deck is revealed when the game ends.";
  if (finished) return;
  const sealed = game.challenge_date && game.status !== "in_progress";
  const detail = sealed
    ? `The deck of the daily challenge of ${game.challenge_date} is revealed when the day closes (00:00 UTC).`
    : "The deck is revealed when the game ends.";
  button.title = detail;
  addResult({ name: "Not yet", ok: null, detail });
}

/** @param {import("./verify.js").Check} check */
function addResult(check) {
  $("verify-results").append(checkItem(check));
}

async function verify() {
  if (!game?.reveal) return; // the button is offered once the deck is revealed
  const shown = { ...game, reveal: game.reveal };
  $("verify-button", HTMLButtonElement).disabled = true;
  $("verify-results").replaceChildren();
  try {
    const checks = await verifyDeal(shown, placements);
    const all = checks.every((check) => check.ok);
    addResult({
      name: "Verdict",
      ok: all,
      detail: all ? "This deal was fixed before the first card, and the game was played on it by the rules." : "See the failed checks below.",
    });
    checks.forEach(addResult);
  } catch (error) {
    showError(error);
  } finally {
    $("verify-button", HTMLButtonElement).disabled = !shown.reveal;
  }
}

/** Wire the view's controls; called once. */
export function installReplay() {
  standing = makeStanding($("replay-standing"), "replay-standing");
  $("replay-first", HTMLButtonElement).addEventListener("click", () => goTo(0));
  $("replay-previous", HTMLButtonElement).addEventListener("click", () => goTo(step - 1));
  $("replay-next", HTMLButtonElement).addEventListener("click", () => goTo(step + 1));
  $("replay-last", HTMLButtonElement).addEventListener("click", () => goTo(placements.length));
  const range = $("replay-range", HTMLInputElement);
  range.addEventListener("input", () => goTo(Number(range.value)));
  $("verify-button", HTMLButtonElement).addEventListener("click", verify);
}

/** The view became visible for game `id` (`#/games/{id}`): read it and its history;
 * `analyse`: ask for its analysis at once (`#/games/{id}?analyse`).
 * @param {string} id
 * @param {boolean} [analyse] */
export async function showReplay(id, analyse = false) {
  const gen = currentGeneration();
  stream?.close();
  stream = null;
  if (requested !== id) setLive("");
  requested = id;
  $("replay-heading").textContent = "Game";
  $("replay-summary").textContent = "Loading…";
  $("replay-private").hidden = true;
  if (opensTimer !== null) clearTimeout(opensTimer);
  opensTimer = null;
  showControls(false);
  standing?.show(null);
  $("replay-board").replaceChildren();
  $("verify-results").replaceChildren();
  // Until this game is read there is nothing to verify (a click would verify the last game
  // shown, or nothing at all on a first visit).
  $("verify-button", HTMLButtonElement).disabled = true;
  $("replay-review").textContent = "";
  leaveAnalysis();
  const mark = noticeMark();
  try {
    // A daily challenge game is its player's only until its day closes: read it with the
    // game's token or the account's key when this page has one.
    const token = bearerFor(id);
    const [fresh, history] = await Promise.all([
      api.getGame(id, token),
      api.getPlacements(id, token),
    ]);
    if (requested !== id) return;
    clearNotice(mark);
    game = fresh;
    placements = history.placements;
    boards = replayHistory(placements);
  } catch (error) {
    if (requested !== id) return;
    const code = error instanceof api.ApiProblem ? error.code : null;
    if (code === "challenge_game_private" || code === "race_game_private") {
      clearNotice(mark);
      showPrivate(id, /** @type {api.ApiProblem} */ (error));
      return;
    }
    $("replay-summary").textContent = "This game could not be read.";
    showError(error, { label: "Try again", run: () => showReplay(id) });
    return;
  }
  // The computer is no person: its game is said to be the computer's, with a label.
  const heading = $("replay-heading");
  if (game.computer) {
    const label = element("span", { className: "badge computer", textContent: "computer" });
    label.setAttribute("aria-hidden", "true"); // seen, not read twice: "Game of the computer"
    heading.replaceChildren("Game of the computer ", label);
  } else heading.textContent = `Game of ${game.player}`;
  const matches = sameGrid(boards[placements.length], game.piles);
  $("replay-summary").textContent =
    summary(game) + (matches ? "" : " The replayed history does not give the game's grid!");
  standing?.show(game);
  showControls(true);
  $("replay-range", HTMLInputElement).max = String(placements.length);
  renderVerifySection(game);
  goTo(placements.length);
  /** @param {number} number */
  const stepTo = (number) => {
    goTo(number);
    $("replay-step-text").scrollIntoView({ block: "nearest" });
  };
  stepTo.refresh = () => render();
  showAnalysis(game, stepTo, boards, analyse);
  // A game in progress goes on as it is watched; a daily challenge game of an open day is its
  // player's only (the stream would refuse anybody's browser: it sends no token).
  if (game.status === "in_progress" && !game.challenge_date) followLive(game, gen);
  else setLive(endedLive === id ? "The game ended while you watched: this is its whole history." : "");
  endedLive = null;
}
