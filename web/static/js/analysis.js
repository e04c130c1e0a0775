// @ts-check
// A finished game's analysis, in the replay view: asked for with POST /games/{id}/analysis
// (202: computed in the background), then followed with GET until done, honouring the
// answer's Retry-After and showing its progress. Once done: the accuracy, the labels, and
// for each placement the move played against the computer player's choice; the replay
// shows the review of the placement it is on.
//
// The page never GETs an analysis it does not know exists. A GET of one nobody asked for
// answers 404 `analysis_not_found`, which the browser logs as a failed resource on every
// replay (no script can keep it out of the console), and the API has no other way to say
// whether a game has an analysis. So the replay offers "Analyse this game", whose POST
// answers 200 with an analysis already done (by anyone) or 202 with a queued one, and only
// then follows it with GET while it answers 202; the page remembers (in localStorage) the
// games it asked about, and reads their analyses with GET at once when their replay opens
// again. `#/games/{id}?analyse` (the end of a game's "Analyse this game") asks at once.

import * as api from "./api.js";
import { cardShort } from "./cards.js";
import { $, element } from "./dom.js";
import { percentText } from "./format.js";
import { labelCells } from "./pager.js";
import { storage } from "./storage.js";
import { clearNotice, showError } from "./ui.js";
import { placeWords } from "./words.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["PlacementAnalysis"]} Review */
/** @typedef {Schemas["AnalysisEstimate"]} Estimate */
/** The replay's step to a placement, and (`refresh`) its redraw once an analysis is shown.
 * @typedef {((number: number) => void) & {refresh?: () => void}} StepTo */

/** @type {Review["label"][]} */
const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
// Refusals whose detail says it all: shown in the section, not as an error notice.
/** @type {Record<string, string>} */
const EXPLAINED = {
  challenge_day_open: "A daily challenge game can be analysed once its day has closed (00:00 UTC): until then its deal is secret.",
  game_in_progress: "A game can be analysed once it has ended.",
};

/** @type {string | null} */
let gameId = null; // the game shown (a newer navigation stops the polling of an older one)
/** @type {Schemas["AnalysisResult"] | null} */
let result = null; // the analysis' result once done
/** @type {StepTo} */
let onStep = () => {}; // steps the replay to a placement
/** @type {Schemas["PileOut"][][]} */
let boards = [[]]; // the replay's boards: boards[k] is the table before placement k + 1

const ASKED = "foursquare.analyses"; // ids of the games whose analysis this page asked for
const ASKED_LIMIT = 200;

function askedIds() {
  try {
    const ids = JSON.parse(storage()?.getItem(ASKED) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** @param {string} id */
function remember(id) {
  const ids = askedIds().filter((known) => known !== id);
  ids.push(id);
  storage()?.setItem(ASKED, JSON.stringify(ids.slice(-ASKED_LIMIT)));
}

// A placement's cell in words, on the table the player chose it on.
/** @param {number} number @param {Schemas["PositionOut"]} position */
const where = (number, position) => placeWords(position, boards[number - 1] || []);
// A loss of win chance in percentage points, to one decimal: labels turn on 1, 3 and 10.
/** @param {number} p */
const points = (p) => `${(p * 100).toFixed(1)} %`;

/** @param {string} text */
function status(text) {
  $("analysis-status").textContent = text;
}

/** @param {Review["label"]} label */
function labelElement(label) {
  return element("span", { className: `label label-${label}`, textContent: label });
}

/** @param {Node | string} content */
function cell(content) {
  const td = element("td");
  td.setAttribute("role", "cell");
  td.append(content);
  return td;
}

/** @param {Review} review */
function placementRow(review) {
  const tr = element("tr");
  tr.setAttribute("role", "row");
  tr.dataset.number = String(review.number);
  const go = element("button", {
    type: "button",
    className: "step-link",
    textContent: String(review.number),
  });
  go.setAttribute("aria-label", `Show placement ${review.number} in the replay`);
  go.addEventListener("click", () => onStep(review.number));
  const same = review.label === "best" || sameCell(review.played.placement, review.best.placement);
  const n = review.number;
  tr.append(
    cell(go),
    cell(cardShort(review.card)),
    cell(`${where(n, review.played.placement)}: ${percentText(review.played.win_probability)}`),
    cell(
      same
        ? "the same"
        : `${where(n, review.best.placement)}: ${percentText(review.best.win_probability)}` +
            (scoreNote(review) ? `; ${scoreNote(review)}` : ""),
    ),
    cell(review.forced ? "forced" : points(review.win_probability_loss)),
    cell(labelElement(review.label)),
  );
  return labelCells(tr, ["Placement", "Card", "Played", "Computer's choice", "Win chance lost", "Label"]);
}

/** Why the computer's choice is rated better when the placement played is as likely to win
 * (or more), or "" otherwise. A label is by the win chance lost, never negative (its
 * estimates are engine/analysis.py's): such a placement lost none, and is "good", not
 * "best", because the computer's search ranks by win chance and expected score together, and
 * looks deeper at its own choice than at the others.
 * @param {Review} review */
function scoreNote(review) {
  if (review.label === "best" || review.forced) return "";
  if (review.played.win_probability < review.best.win_probability) return "";
  /** @param {Estimate} estimate */
  const score = (estimate) => estimate.expected_score.toFixed(1);
  if (review.best.expected_score > review.played.expected_score) {
    return (
      "as likely to win or more, but the computer's choice keeps more cards " +
      `(expected score ${score(review.best)} against ${score(review.played)})`
    );
  }
  return "as likely to win or more by these estimates; the computer's deeper search still chose its own";
}

/** @param {Schemas["PositionOut"]} a @param {Schemas["PositionOut"]} b */
function sameCell(a, b) {
  return a.row === b.row && a.col === b.col;
}

/** @param {Schemas["AnalysisResult"]} r */
function renderResult(r) {
  result = r;
  $("analysis-progress", HTMLProgressElement).hidden = true;
  $("analysis-button", HTMLButtonElement).hidden = true;
  const counts = LABELS.filter((label) => r.labels[label]).map((label) => `${r.labels[label]} ${label}`);
  let optimum = "";
  if (r.optimum) {
    optimum =
      r.optimum.score === null
        ? " Even knowing the whole deck, no win was found for this deal."
        : ` Knowing the whole deck, the best score was ${r.optimum.score}${r.optimum.proven ? "" : " or more"}.`;
  }
  $("analysis-accuracy").textContent = r.accuracy === null ? "–" : `${r.accuracy.toFixed(1)} %`;
  // The accuracy stands above, once: the summary gives the labels and the optimum.
  const none = r.accuracy === null ? " No placement had a choice." : "";
  $("analysis-summary").textContent = `Analysis done: ${counts.join(", ")}.${none}${optimum}`;
  $("analysis-body").replaceChildren(...r.placements.map(placementRow));
  $("analysis-result").hidden = false;
  status("");
}

/** Follow the analysis until it is done or failed. `answer` is the last {status, data,
 * retryAfter} of POST or GET.
 * @param {string} id
 * @param {import("./api.js").Answer<Schemas["AnalysisOut"]>} answer */
async function follow(id, answer) {
  while (answer.status === 202) {
    const { reviewed, total } = answer.data.progress;
    $("analysis-progress", HTMLProgressElement).hidden = false;
    $("analysis-progress", HTMLProgressElement).max = Math.max(total, 1);
    $("analysis-progress", HTMLProgressElement).value = reviewed;
    status(
      answer.data.state === "queued"
        ? "Waiting for the analysis to start…"
        : `Analysing: ${reviewed} of ${total} placements reviewed…`,
    );
    await api.sleep(answer.retryAfter ?? 1);
    if (gameId !== id) return;
    answer = await api.getAnalysis(id);
    if (gameId !== id) return;
  }
  const done = answer.data.result; // there once the analysis is done
  if (answer.data.state === "failed" || !done) {
    $("analysis-progress", HTMLProgressElement).hidden = true;
    $("analysis-button", HTMLButtonElement).hidden = false;
    $("analysis-button", HTMLButtonElement).disabled = false;
    $("analysis-button", HTMLButtonElement).textContent = "Try the analysis again";
    status(`The analysis failed: ${answer.data.error || "no reason given"}. You may ask again.`);
    return;
  }
  renderResult(done);
  onStep.refresh?.();
}

/** @param {unknown} error */
function explainOrShow(error) {
  $("analysis-progress", HTMLProgressElement).hidden = true;
  const explained = EXPLAINED[api.codeOf(error) ?? ""];
  if (explained) {
    $("analysis-button", HTMLButtonElement).disabled = true;
    status(explained);
    return;
  }
  status("");
  $("analysis-button", HTMLButtonElement).disabled = false;
  showError(error);
}

async function analyse() {
  const id = gameId;
  if (!id) return;
  $("analysis-button", HTMLButtonElement).disabled = true;
  status("Asking for the analysis…");
  try {
    const answer = await api.requestAnalysis(id);
    if (gameId !== id) return;
    clearNotice();
    remember(id);
    await follow(id, answer);
  } catch (error) {
    if (gameId === id) explainOrShow(error);
  }
}

/** The review of placement `number` (1-based) as a sentence, or "" (no analysis yet).
 * @param {number} number */
export function reviewText(number) {
  const review = result?.placements.find((p) => p.number === number);
  if (!review) return "";
  const played = `${cardShort(review.card)} at ${where(number, review.played.placement)}`;
  if (review.forced) return `Review: ${review.label}. ${played} was the only legal placement.`;
  if (review.label === "best") {
    return `Review: best. ${played} is the computer player's choice too (win chance ${percentText(review.played.win_probability)}).`;
  }
  return (
    `Review: ${review.label}. ${played}: win chance ${percentText(review.played.win_probability)}; ` +
    `the computer player would play ${where(number, review.best.placement)} ` +
    `(${percentText(review.best.win_probability)}): ${points(review.win_probability_loss)} of win chance lost` +
    (scoreNote(review) ? `: ${scoreNote(review)}.` : ".")
  );
}

/** The review of placement `number`, or null.
 * @param {number} number */
export function reviewOf(number) {
  return result?.placements.find((p) => p.number === number) || null;
}

/** Mark the analysis table's row of the step shown.
 * @param {number} number */
export function markStep(number) {
  for (const row of $("analysis-body", HTMLTableSectionElement).rows) {
    if (Number(row.dataset.number) === number) row.setAttribute("aria-current", "step");
    else row.removeAttribute("aria-current");
  }
}

/** The replay shows `game`: offer its analysis, or show it if this page asked for it before;
 * `ask`: ask for it now. `step(number)` moves the replay to a placement; `step.refresh()`
 * redraws it; `replayed` the boards before each placement (describing its cells).
 * @param {Schemas["GameOut"]} game
 * @param {StepTo} step
 * @param {Schemas["PileOut"][][]} replayed
 * @param {boolean} [ask] */
export async function showAnalysis(game, step, replayed, ask = false) {
  gameId = game.id;
  result = null;
  onStep = step;
  boards = replayed;
  $("analysis-result").hidden = true;
  $("analysis-summary").textContent = ""; // (the game shown before's, hidden with its result)
  $("analysis-body").replaceChildren();
  $("analysis-progress", HTMLProgressElement).hidden = true;
  $("analysis-button", HTMLButtonElement).hidden = false;
  $("analysis-button", HTMLButtonElement).textContent = "Analyse this game";
  status("");
  if (game.status === "in_progress") {
    $("analysis-button", HTMLButtonElement).disabled = true;
    status(EXPLAINED.game_in_progress);
    return;
  }
  if (game.challenge_date && !game.reveal) {
    // The API would answer 409 challenge_day_open: its deal is secret until the day closes.
    $("analysis-button", HTMLButtonElement).disabled = true;
    status(EXPLAINED.challenge_day_open);
    return;
  }
  $("analysis-button", HTMLButtonElement).disabled = false;
  if (ask) {
    await analyse();
    return;
  }
  const id = game.id;
  if (!askedIds().includes(id)) return; // not known to exist: the button offers it
  try {
    const answer = await api.getAnalysis(id);
    if (gameId !== id) return;
    await follow(id, answer);
  } catch (error) {
    if (gameId !== id) return;
    if (api.codeOf(error) === "analysis_not_found") return; // gone (a new database): offered again
    explainOrShow(error);
  }
}

/** Stop following an analysis, and offer nothing until the next game is read (the view is
 * left, or another game is being read: a click meanwhile would analyse no game). */
export function leaveAnalysis() {
  gameId = null;
  result = null;
  $("analysis-button", HTMLButtonElement).disabled = true;
  $("analysis-result").hidden = true;
  $("analysis-progress", HTMLProgressElement).hidden = true;
  status("");
}

export function installAnalysis() {
  $("analysis-button", HTMLButtonElement).addEventListener("click", analyse);
}
