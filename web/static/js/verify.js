// @ts-check
// A game's history replayed in the browser, and its deal checked: the SHA-256 commitment
// (WebCrypto), the cards played against the revealed deck, and every flip against the rules
// (RULES.md: a placed card that is strictly highest or lowest among the face-up tops of the
// other piles in its row, or none is face up, flips every other pile there; likewise its
// column, both judged on the grid before either flip).

import { cardFromCode, topCard } from "./cards.js";
import { element } from "./dom.js";
import {
  DECK_SIZE,
  endReasonText,
  FACE_DOWN_LIMIT,
  GRID_CELLS,
  GRID_SIZE,
  PILE_LIMIT,
  positionKey,
  statusText,
} from "./game.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["PileOut"]} Pile */
/** @typedef {Schemas["FlipOut"]} Flip */
/** @typedef {Schemas["PlacementOut"]} Placement */
/** A check of a deal, as the page lists it; `ok` null for one that cannot be made yet.
 * @typedef {{name: string, ok: boolean | null, detail: string}} Check */

/** @param {Map<string, Pile>} piles */
function sortedPiles(piles) {
  return [...piles.values()].sort((a, b) => a.row - b.row || a.col - b.col);
}

/**
 * The board after each placement, from the history alone (the placements and their `flipped`
 * lists): boards[0] is empty, boards[k] is the grid after placement k. Each board is a list
 * of piles {row, col, cards, face_up}, sorted as the API sorts them.
 * @param {Placement[]} placements
 * @returns {Pile[][]}
 */
export function replayHistory(placements) {
  /** @type {Map<string, Pile>} */
  const piles = new Map();
  /** @type {Pile[][]} */
  const boards = [[]];
  for (const placement of placements) {
    const here = positionKey(placement.row, placement.col);
    const pile = piles.get(here) || { row: placement.row, col: placement.col, cards: [] };
    piles.set(here, { ...pile, cards: [...pile.cards, placement.card], face_up: true });
    for (const flip of placement.flipped) {
      const there = positionKey(flip.row, flip.col);
      const flipped = piles.get(there);
      if (flipped) piles.set(there, { ...flipped, face_up: flip.face_up });
    }
    boards.push(sortedPiles(piles));
  }
  return boards;
}

/** @param {Pile[]} piles */
export function faceDownCount(piles) {
  return piles.filter((pile) => !pile.face_up).length;
}

/** Why a placement at (row, col) is illegal on `piles` (a Map), or null if it is legal.
 * @param {Map<string, Pile>} piles
 * @param {number} row
 * @param {number} col */
function illegality(piles, row, col) {
  if (piles.size === 0) return row === 0 && col === 0 ? null : "the first card goes at (0, 0)";
  const pile = piles.get(positionKey(row, col));
  if (pile) return pile.cards.length < PILE_LIMIT ? null : `(${row}, ${col}) is a full pile`;
  const adjacent = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ].some(([dr, dc]) => piles.has(positionKey(row + dr, col + dc)));
  if (!adjacent) return `(${row}, ${col}) is not adjacent to any pile`;
  const all = [...piles.values(), { row, col }];
  /** @param {number[]} values */
  const span = (values) => Math.max(...values) - Math.min(...values) + 1;
  if (span(all.map((p) => p.row)) > GRID_SIZE || span(all.map((p) => p.col)) > GRID_SIZE) {
    return `(${row}, ${col}) makes the grid larger than ${GRID_SIZE} × ${GRID_SIZE}`;
  }
  return null;
}

/** Where the next card may go on `piles` (a list, as the API sends them), by the rules:
 * positions sorted by row then column, as the API's `legal_placements`.
 * @param {Pile[]} piles
 * @returns {Schemas["PositionOut"][]} */
export function legalPlacements(piles) {
  const at = new Map(piles.map((p) => [positionKey(p.row, p.col), p]));
  if (at.size === 0) return [{ row: 0, col: 0 }];
  const seen = new Set();
  const legal = [];
  for (const p of piles) {
    for (const [dr, dc] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const row = p.row + dr;
      const col = p.col + dc;
      const here = positionKey(row, col);
      if (seen.has(here)) continue;
      seen.add(here);
      if (illegality(at, row, col) === null) legal.push({ row, col });
    }
  }
  return legal.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** The piles a card of `rank` placed at (row, col) flips, by the rules, sorted.
 * @param {Map<string, Pile>} piles
 * @param {number} row
 * @param {number} col
 * @param {number} rank */
function ruleFlips(piles, row, col, rank) {
  /** @type {Flip[]} */
  const flips = [];
  /** @type {((p: Pile) => boolean)[]} */
  const lines = [(p) => p.row === row, (p) => p.col === col];
  for (const sameLine of lines) {
    const others = [...piles.values()].filter(
      (p) => sameLine(p) && !(p.row === row && p.col === col),
    );
    const up = others.filter((p) => p.face_up).map((p) => topCard(p).rank);
    if (up.length === 0 || up.every((r) => rank > r) || up.every((r) => rank < r)) {
      for (const p of others) flips.push({ row: p.row, col: p.col, face_up: !p.face_up });
    }
  }
  return flips.sort((a, b) => a.row - b.row || a.col - b.col);
}

/**
 * Replay `cards` (codes, in order) at the history's positions under the rules, and compare
 * each placement's flips and status with the history. Returns {ok, problem, piles}: the
 * first disagreement, and the final grid the rules give.
 * @param {Placement[]} placements
 * @param {(index: number) => number} rankOf
 * @returns {{ok: true, problem: null, piles: Pile[]} | {ok: false, problem: string, piles: Pile[]}}
 */
export function checkRules(placements, rankOf) {
  /** @type {Map<string, Pile>} */
  const piles = new Map();
  for (const [index, placement] of placements.entries()) {
    const { row, col } = placement;
    const step = `placement ${index + 1}`;
    const reason = illegality(piles, row, col);
    if (reason) return { ok: false, problem: `${step}: ${reason}`, piles: sortedPiles(piles) };
    const expected = ruleFlips(piles, row, col, rankOf(index));
    const here = positionKey(row, col);
    const pile = piles.get(here) || { row, col, cards: [] };
    piles.set(here, { ...pile, cards: [...pile.cards, placement.card], face_up: true });
    for (const flip of expected) {
      const there = positionKey(flip.row, flip.col);
      const turned = piles.get(there); // always a pile: the rules turn only piles on the grid
      if (turned) piles.set(there, { ...turned, face_up: flip.face_up });
    }
    const given = placement.flipped.map((f) => `${f.row},${f.col},${f.face_up}`).join(" ");
    const wanted = expected.map((f) => `${f.row},${f.col},${f.face_up}`).join(" ");
    if (given !== wanted) {
      return { ok: false, problem: `${step}: the flips differ from the rules'`, piles: sortedPiles(piles) };
    }
    const board = sortedPiles(piles);
    const down = faceDownCount(board);
    let status = "in_progress";
    if (down > FACE_DOWN_LIMIT) status = "lost";
    else if (board.length === GRID_CELLS && down === 0) status = "won";
    else if (index + 1 === DECK_SIZE) status = "lost";
    if (status !== placement.status_after) {
      return {
        ok: false,
        problem: `${step}: the server says ${statusText(placement.status_after)}, the rules say ${statusText(status)}`,
        piles: board,
      };
    }
    if (status !== "in_progress" && index + 1 !== placements.length) {
      return { ok: false, problem: `${step}: the game went on after it ended`, piles: board };
    }
  }
  return { ok: true, problem: null, piles: sortedPiles(piles) };
}

/** Whether two lists of piles are the same grid (positions, cards, faces).
 * @param {Pile[]} a
 * @param {Pile[]} b */
export function sameGrid(a, b) {
  /** @param {Pile[]} piles */
  const text = (piles) =>
    JSON.stringify(
      piles.map((p) => [p.row, p.col, p.cards.map((c) => c.code), p.face_up]),
    );
  return text(a) === text(b);
}

/** The SHA-256 of a text, as lowercase hex (WebCrypto: needs a secure context).
 * @param {string} text */
export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

const ALL_CODES = ["C", "D", "H", "S"].flatMap((suit) =>
  ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"].map((rank) => rank + suit),
);

/**
 * Check a revealed deck and salt against a deck commitment (a game's, or a daily challenge
 * day's): the "Commitment" and "Deck" checks, as {name, ok, detail}.
 * @param {string} commitment
 * @param {Schemas["DeckReveal"]} reveal
 * @returns {Promise<Check[]>}
 */
export async function verifyReveal(commitment, reveal) {
  /** @type {Check[]} */
  const checks = [];
  const { deck, salt } = reveal;
  if (!globalThis.crypto?.subtle) {
    checks.push({
      name: "Commitment",
      ok: false,
      detail: "This browser offers no WebCrypto here (it needs HTTPS or localhost).",
    });
  } else {
    const digest = await sha256Hex(`${salt}:${deck.join(",")}`);
    checks.push({
      name: "Commitment",
      ok: digest === commitment,
      detail:
        digest === commitment
          ? "SHA-256 of the salt and the revealed deck equals the commitment made at the deal."
          : `SHA-256 of the salt and the revealed deck is ${digest}, not the commitment.`,
    });
  }
  const complete = deck.length === DECK_SIZE && new Set(deck).size === DECK_SIZE;
  const isDeck = complete && deck.every((code) => ALL_CODES.includes(code));
  checks.push({
    name: "Deck",
    ok: isDeck,
    detail: isDeck
      ? `The revealed deck holds each of the ${DECK_SIZE} cards once.`
      : `The revealed deck is not the ${DECK_SIZE} cards, each once.`,
  });
  return checks;
}

/** A check ({name, ok, detail}) as a list item: "Deck: ✓ passed. The revealed deck…";
 * `ok` null for a check that cannot be made yet.
 * @param {Check} check */
export function checkItem(check) {
  const verdict = check.ok === null ? "" : ` ${check.ok ? "✓ passed" : "✗ failed"}.`;
  const mark = element("strong", { textContent: `${check.name}:${verdict} ` });
  const className = check.ok === null ? "pending" : check.ok ? "ok" : "fail";
  return element("li", { className }, mark, check.detail);
}

/**
 * Verify a finished game's deal: a list of {name, ok, detail} checks.
 * `game` and `placements` are the API's answers for the game (over: its deck revealed) and
 * its history.
 * @param {Schemas["GameOut"] & {reveal: Schemas["DeckReveal"]}} game
 * @param {Placement[]} placements
 */
export async function verifyDeal(game, placements) {
  const checks = await verifyReveal(game.deck_commitment, game.reveal);
  const { deck } = game.reveal;
  const played = placements.map((p) => p.card.code);
  const mismatch = played.findIndex((code, i) => code !== deck[i]);
  checks.push({
    name: "Cards played",
    ok: mismatch === -1,
    detail:
      mismatch === -1
        ? `The ${played.length} cards played are the deck's first ${played.length}, in order.`
        : `Placement ${mismatch + 1} played ${played[mismatch]}, but the deck has ${deck[mismatch]}.`,
  });
  const ranks = deck.map((code) => cardFromCode(code).rank);
  const rules = checkRules(placements, (index) => ranks[index]);
  const matches = rules.ok && sameGrid(rules.piles, game.piles);
  let detail = "Every placement was legal, and its flips and status are the rules'.";
  if (!rules.ok) detail = rules.problem;
  else if (!matches) detail = "The rules give another final grid than the server's.";
  checks.push({ name: "Rules", ok: matches, detail });
  const expectedScore = game.status === "won" ? DECK_SIZE - played.length : null;
  checks.push({
    name: "Result",
    ok: game.score === expectedScore && game.status === placements.at(-1)?.status_after,
    detail:
      game.status === "won"
        ? `Won with ${game.score} cards left in the stock (${DECK_SIZE} − ${played.length} placed).`
        : `Lost (${endReasonText(game.end_reason)}), as the last placement says.`,
  });
  return checks;
}
