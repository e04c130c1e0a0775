// @ts-check
// The game's numbers (RULES.md; the engine's, as the API plays them) and the words a player
// reads for a game's status and for why it ended: every module takes them from here, so that
// the Play view, a replay, the Live page, a player's games and a deal's check say the same.

/** The grid grows up to this many rows and this many columns. */
export const GRID_SIZE = 4;
/** A game is won with this many piles, all face up. */
export const GRID_CELLS = GRID_SIZE * GRID_SIZE;
/** A pile holds at most this many cards. */
export const PILE_LIMIT = 4;
/** More piles than this face down at once, and the game is lost. */
export const FACE_DOWN_LIMIT = 4;
/** The deck: ace to 10 of each suit. */
export const DECK_SIZE = 40;
/** A guest's name when they give none (the API's default). The listing of games in progress
 * allows a game no name (`player` null): it is shown as this. */
export const GUEST_NAME = "anonymous";

/** A game's status (the API's `status`), in words.
 * @type {Record<string, string>} */
export const STATUS_WORDS = {
  in_progress: "in progress",
  won: "won",
  lost: "lost",
};

/** Why a game was lost (the API's `end_reason`, an `end` event's `reason`), in words: one
 * wording everywhere, a phrase that reads after "lost" ("lost (the stock ran out)").
 * @type {Record<string, string>} */
export const END_REASONS = {
  too_many_face_down: "more than four piles face down",
  stock_exhausted: "the stock ran out",
  abandoned: "the game was left untouched too long",
};

/** A code the page has no words for (a newer server's), readable all the same. */
/** @param {string} code */
const spelled = (code) => String(code).replaceAll("_", " ");

/** "in progress", "won", "lost".
 * @param {string} status */
export function statusText(status) {
  return STATUS_WORDS[status] || spelled(status);
}

/** Why a game was lost, as a phrase ("the stock ran out"); "" when no reason is known.
 * @param {string | null | undefined} reason */
export function endReasonText(reason) {
  if (!reason) return "";
  return END_REASONS[reason] || spelled(reason);
}

/** A game's result in words: "in progress", "won with a score of 12" (when `score` is
 * given), "lost (the stock ran out)".
 * @param {string} status
 * @param {string | null} [reason]
 * @param {number | null} [score] */
export function resultText(status, reason = null, score = null) {
  if (status === "won" && score !== null && score !== undefined) {
    return `won with a score of ${score}`;
  }
  const why = status === "lost" ? endReasonText(reason) : "";
  return why ? `${statusText(status)} (${why})` : statusText(status);
}

/** A position's key in maps and sets of piles and cells: "row,col".
 * @param {number} row
 * @param {number} col */
export const positionKey = (row, col) => `${row},${col}`;

