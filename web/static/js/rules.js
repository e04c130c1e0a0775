// @ts-check
// How to play (#/rules): the rules in short, and the designer's worked example (RULES.md, the
// engine's tests/engine/test_worked_example.py) to try: the 6♦ placed on any legal cell shows
// what turns over and why, and which placement loses. The moves are computed here with the
// same rules code that verifies a deal (verify.js, words.js); the tests compare them with the
// engine's.

import { enableArrowKeys, renderBoard, showFaceDown } from "./board.js";
import { cardFromCode, cardName, cardShort, faceUpCard } from "./cards.js";
import { $, element } from "./dom.js";
import { FACE_DOWN_LIMIT } from "./game.js";
import { rulesOffered } from "./play.js";
import { faceDownCount, legalPlacements } from "./verify.js";
import { applyMove, explainMove, moveWords } from "./words.js";

/** @typedef {{row: number, col: number}} Position */

/**
 * @param {number} row
 * @param {number} col
 * @param {string} code
 * @param {boolean} [faceUp]
 * @returns {import("./api.js").Schemas["PileOut"]}
 */
const pile = (row, col, code, faceUp = true) => ({
  row,
  col,
  cards: [cardFromCode(code)],
  face_up: faceUp,
});

// The worked example, in this project's coordinates: the face-down pile at (1, 1) is the A♣.
const EXAMPLE = [
  pile(0, 0, "9S"),
  pile(0, 1, "10C"),
  pile(1, 1, "AC", false),
  pile(1, 2, "6C"),
  pile(1, 3, "4H"),
  pile(2, 2, "3S"),
  pile(2, 3, "2H"),
];
const CARD = cardFromCode("6D");
// The placements the rulebook walks through, in its order.
const SUGGESTED = [
  { row: 2, col: 1 },
  { row: 0, col: 1 },
  { row: 1, col: 1 },
  { row: 0, col: 3 },
];

/** @type {Position | null} */
let tried = null; // the position the 6♦ was placed on, or null

/** @param {{animate?: boolean}} [options] */
function render({ animate = false } = {}) {
  const result = tried ? applyMove(EXAMPLE, CARD, tried) : null;
  const piles = result ? result.piles : EXAMPLE;
  renderBoard($("rules-board"), {
    piles,
    legal: result ? [] : legalPlacements(EXAMPLE),
    currentCard: result ? null : CARD,
    onPlace: result ? null : place,
    placed: tried,
    flipped: result ? result.flipped : [],
    animate,
  });
  const hand = $("rules-card");
  hand.replaceChildren(faceUpCard(CARD));
  hand.classList.toggle("spent", Boolean(result));
  const down = faceDownCount(piles);
  showFaceDown($("rules-face-down"), down);
  const out = $("rules-outcome");
  out.replaceChildren();
  $("rules-reset").hidden = !result;
  $("rules-tries").hidden = Boolean(result);
  if (!result || !tried) {
    const text = `Choose where the ${cardShort(CARD)} goes: a dashed cell (+) on the grid, or one of the rulebook's four placements below.`;
    out.append(element("p", { textContent: text }));
    return;
  }
  const { where, why } = explainMove({ ...tried, card: CARD, flipped: result.flipped }, EXAMPLE);
  for (const sentence of [where, ...why]) out.append(element("p", { textContent: sentence }));
  const lost = down > FACE_DOWN_LIMIT;
  const verdict = lost
    ? `Now ${down} piles are face down: more than four, so this placement loses the game.`
    : `Now ${down} ${down === 1 ? "pile is" : "piles are"} face down (five would lose): play goes on.`;
  out.append(element("p", { className: lost ? "verdict lost" : "verdict", textContent: verdict }));
}

/** @param {Position} position */
function place(position) {
  tried = position;
  render({ animate: true });
  $("rules-outcome").focus();
}

function reset() {
  tried = null;
  render();
  $("rules-board").querySelector("button")?.focus();
}

/** Wire the view's controls; called once. */
export function installRules() {
  $("rules-reset").addEventListener("click", reset);
  enableArrowKeys($("rules-board"));
  $("rules-card").setAttribute("aria-label", `Your card: ${cardName(CARD)}`);
  const list = $("rules-tries-list");
  for (const position of SUGGESTED) {
    const button = element("button", {
      type: "button",
      textContent: `Place it ${moveWords(position, EXAMPLE)}`,
    });
    button.addEventListener("click", () => place(position));
    list.append(element("li", {}, button));
  }
}

/** The view became visible: the example as the rulebook sets it. Reading the rules answers
 * the first game's offer of them. */
export function showRules() {
  rulesOffered(true);
  tried = null;
  render();
}
