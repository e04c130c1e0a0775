// @ts-check
// Positions and moves in words, as the table shows them: "top row, second from the left",
// "a new pile above the top row, far right", never the API's coordinates (the grid floats, so
// they are relative to the first card and often negative). A position is described against the
// piles on the table when the move was chosen (the board the player was looking at); piles are
// named by their card ("9♠") where it is face up.

import { cardShort, topCard } from "./cards.js";
import { positionKey, statusText } from "./game.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["PileOut"]} Pile */
/** @typedef {Schemas["CardOut"]} Card */
/** @typedef {Schemas["FlipOut"]} Flip */
/** @typedef {{row: number, col: number}} Position */
/** A move as words tell it: where the card went and what it turned (a placement of the API's,
 * or one the rules' example makes).
 * @typedef {Position & Pick<Schemas["PlacementOut"], "card" | "flipped">} Move */
/**
 * One line's check for a move: the other piles in it, those face up, the verdict, the flips.
 * @typedef {{line: "row" | "column", others: Pile[], up: Pile[],
 *   verdict: "alone" | "none-up" | "highest" | "lowest" | "tie" | "between",
 *   flips: Flip[]}} LineCheck
 */

/** @param {Position[]} piles */
function span(piles) {
  const rows = piles.map((p) => p.row);
  const cols = piles.map((p) => p.col);
  return {
    top: Math.min(...rows),
    bottom: Math.max(...rows),
    left: Math.min(...cols),
    right: Math.max(...cols),
  };
}

const ORDINALS = ["first", "second", "third", "fourth"];

/** "top row", "second row", "middle row", "bottom row" (`index` of `count`, from the top).
 * @param {number} index
 * @param {number} count */
function rowWords(index, count) {
  if (count === 1) return "the row";
  if (index === 0) return "top row";
  if (index === count - 1) return "bottom row";
  if (count % 2 === 1 && index === (count - 1) / 2) return "middle row";
  return `${ORDINALS[index]} row`;
}

/** "far left", "second from the left", "middle", "second from the right", "far right".
 * @param {number} index
 * @param {number} count */
function columnWords(index, count) {
  if (count === 1) return "";
  if (index === 0) return "far left";
  if (index === count - 1) return "far right";
  if (count % 2 === 1 && index === (count - 1) / 2) return "middle";
  return index < count / 2
    ? `${ORDINALS[index]} from the left`
    : `${ORDINALS[count - 1 - index]} from the right`;
}

/** @param {string} row @param {string} column */
function joined(row, column) {
  return column ? `${row}, ${column}` : row;
}

/**
 * Where `position` is, against `piles` (the table as the player saw it): "top row, far left"
 * for a pile's place; "above the top row, far left", "at the left end of the middle row" for a
 * new pile around them; "the middle of the table" for the first card.
 * @param {Position} position
 * @param {Pile[]} piles
 */
export function placeWords(position, piles) {
  if (piles.length === 0) return "the middle of the table";
  const box = span(piles);
  const rows = box.bottom - box.top + 1;
  const cols = box.right - box.left + 1;
  if (rows === 1 && cols === 1) {
    if (position.row < box.top) return "above the first card";
    if (position.row > box.bottom) return "below the first card";
    if (position.col < box.left) return "left of the first card";
    if (position.col > box.right) return "right of the first card";
    return "the first card's place";
  }
  const row = rowWords(position.row - box.top, rows);
  const column = columnWords(position.col - box.left, cols);
  if (position.row < box.top) {
    return rows === 1 ? joined("above the row", column) : joined("above the top row", column);
  }
  if (position.row > box.bottom) {
    return rows === 1 ? joined("below the row", column) : joined("below the bottom row", column);
  }
  if (position.col < box.left) return `at the left end of ${rows === 1 ? "the row" : `the ${row}`}`;
  if (position.col > box.right) {
    return `at the right end of ${rows === 1 ? "the row" : `the ${row}`}`;
  }
  if (cols === 1) return row;
  return joined(row, column);
}

/** A pile by what shows: "the 10♣" or "the face-down pile".
 * @param {Pile} pile */
function pileName(pile) {
  return pile.face_up ? `the ${cardShort(topCard(pile))}` : "the face-down pile";
}

/** Where the card of a move went: "on a new pile above the top row, far left", "on the 10♣
 * (top row, second from the left)". `piles` is the table before the move.
 * @param {Position} position
 * @param {Pile[]} piles */
export function moveWords(position, piles) {
  const pile = piles.find((p) => p.row === position.row && p.col === position.col);
  const where = placeWords(position, piles);
  if (!pile) {
    if (piles.length === 0) return `in ${where}`;
    const outside = /^(above|below|left|right|at the)/.test(where);
    return outside ? `on a new pile ${where}` : `on a new pile in the ${where.replace(/^the /, "")}`;
  }
  return `on ${pileName(pile)} (${where})`;
}

/** A placement of a game's history in short, as a replay and the Live page step through it:
 * "9♠ went on a new pile below the row, far left; 2 piles flipped; the game is lost".
 * `before` is the table before it.
 * @param {Schemas["PlacementOut"]} placement
 * @param {Pile[]} before */
export function placementText(placement, before) {
  const flips = placement.flipped.length;
  const flipped =
    flips === 0 ? "nothing flipped" : flips === 1 ? "1 pile flipped" : `${flips} piles flipped`;
  const status = placement.status_after;
  const after = status === "in_progress" ? "" : `; the game is ${statusText(status)}`;
  return `${cardShort(placement.card)} went ${moveWords(placement, before)}; ${flipped}${after}`;
}

/** @param {string[]} names */
function list(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The rules' row and column checks for `card` placed at `position` on `piles` (the table
 * before the move), each as {line: "row" | "column", others, verdict, flips}: `verdict` is
 * "alone" (no other pile), "none-up" (only face-down piles: all turn up), "highest", "lowest",
 * "tie" or "between" (nothing turns); `flips` the piles turned over, {row, col, face_up}.
 * @param {Card} card
 * @param {Position} position
 * @param {Pile[]} piles
 * @returns {LineCheck[]}
 */
export function lineChecks(card, position, piles) {
  /** @type {LineCheck[]} */
  const checks = [];
  for (const line of /** @type {const} */ (["row", "column"])) {
    const field = line === "row" ? "row" : "col";
    const others = piles.filter(
      (p) => p[field] === position[field] && !(p.row === position.row && p.col === position.col),
    );
    const up = others.filter((p) => p.face_up);
    const ranks = up.map((p) => topCard(p).rank);
    /** @type {LineCheck["verdict"]} */
    let verdict;
    if (others.length === 0) verdict = "alone";
    else if (up.length === 0) verdict = "none-up";
    else if (ranks.every((r) => card.rank > r)) verdict = "highest";
    else if (ranks.every((r) => card.rank < r)) verdict = "lowest";
    else if (ranks.includes(card.rank)) verdict = "tie";
    else verdict = "between";
    const turns = ["none-up", "highest", "lowest"].includes(verdict);
    const flips = turns ? others.map((p) => ({ row: p.row, col: p.col, face_up: !p.face_up })) : [];
    checks.push({ line, others, up, verdict, flips });
  }
  return checks;
}

/** @param {Flip[]} flips @param {Pile[]} piles */
function turnedText(flips, piles) {
  // A flip is of a pile on the table: the API's flips, and the rules', never name another.
  /** @param {Flip} flip */
  const at = (flip) =>
    /** @type {Pile} */ (piles.find((p) => p.row === flip.row && p.col === flip.col));
  const down = flips.filter((f) => !f.face_up).map((f) => cardShort(topCard(at(f))));
  const up = flips.filter((f) => f.face_up).map((f) => cardShort(topCard(at(f))));
  const parts = [];
  if (down.length) parts.push(`${list(down)} ${down.length === 1 ? "turns" : "turn"} face down`);
  if (up.length) parts.push(`${list(up)} ${up.length === 1 ? "turns" : "turn"} face up`);
  return list(parts);
}

/** Why a line turned or not, as a sentence: "In its row the 6 is the highest face-up card:
 * 3♠ and 2♥ turn face down." (`piles`: the table before the move.)
 * @param {Card} card
 * @param {LineCheck} check
 * @param {Pile[]} piles */
function checkSentence(card, check, piles) {
  const rank = card.rank === 1 ? "ace" : String(card.rank);
  const line = `In its ${check.line}`;
  const upNames = list(check.up.map((p) => cardShort(topCard(p))));
  switch (check.verdict) {
    case "alone":
      return "";
    case "none-up":
      return `${line} every other pile is face down, so none is compared: ${turnedText(check.flips, piles)}.`;
    case "highest":
      return `${line} the ${rank} is higher than every face-up card (${upNames}): ${turnedText(check.flips, piles)}.`;
    case "lowest":
      return `${line} the ${rank} is lower than every face-up card (${upNames}): ${turnedText(check.flips, piles)}.`;
    case "tie": {
      const tied = check.up.filter((p) => topCard(p).rank === card.rank);
      return `${line} the ${rank} ties the ${cardShort(topCard(tied[0]))}, so nothing turns.`;
    }
    default:
      return `${line} the ${rank} is neither the highest nor the lowest (${upNames}), so nothing turns.`;
  }
}

/** @param {Flip} f */
const flipKey = (f) => `${f.row},${f.col},${f.face_up}`;

/**
 * What a move did, in words: where the card went, and for its row and column why piles
 * turned over or not. `placement` is the API's ({row, col, card, flipped}); `before` the piles
 * before it. If the API's flips are not the rules' (they always are), its flips are listed
 * as they came. Returns {where, why: [sentences]}.
 * @param {Move} placement
 * @param {Pile[]} before
 * @returns {{where: string, why: string[]}}
 */
export function explainMove(placement, before) {
  const where = `${cardShort(placement.card)} went ${moveWords(placement, before)}.`;
  const checks = lineChecks(placement.card, placement, before);
  const ruled = checks.flatMap((c) => c.flips).map(flipKey).sort();
  const given = placement.flipped.map(flipKey).sort();
  if (ruled.join(" ") !== given.join(" ")) {
    const text = placement.flipped.length
      ? `Turned over: ${turnedText(placement.flipped, before)}.`
      : "Nothing turned over.";
    return { where, why: [text] };
  }
  const why = checks.map((c) => checkSentence(placement.card, c, before)).filter(Boolean);
  if (why.length === 0) why.push("It is alone in its row and column: nothing turns over.");
  return { where, why };
}

/** The piles after a move, as the rules make them (for pages that show a move the API was
 * never asked about, such as the rules' example).
 * @param {Pile[]} piles
 * @param {Card} card
 * @param {Position} position
 * @returns {{piles: Pile[], flipped: Flip[]}} */
export function applyMove(piles, card, position) {
  const flips = lineChecks(card, position, piles).flatMap((c) => c.flips);
  const at = new Map(piles.map((p) => [positionKey(p.row, p.col), { ...p }]));
  const here = positionKey(position.row, position.col);
  const pile = at.get(here) || { row: position.row, col: position.col, cards: [] };
  at.set(here, { ...pile, cards: [...pile.cards, card], face_up: true });
  for (const flip of flips) {
    const there = positionKey(flip.row, flip.col);
    const turned = at.get(there); // always a pile: the rules turn only piles on the table
    if (turned) at.set(there, { ...turned, face_up: flip.face_up });
  }
  const after = [...at.values()].sort((a, b) => a.row - b.row || a.col - b.col);
  return { piles: after, flipped: flips.sort((a, b) => a.row - b.row || a.col - b.col) };
}
