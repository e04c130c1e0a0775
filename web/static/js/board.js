// @ts-check
// The grid, drawn from a game's piles and legal placements (both as the API sends them).
//
// The grid floats: the first pile is (0, 0) and coordinates may be negative. The board shows
// the bounding box of the piles and the legal placements (at most 5 × 5), as an ARIA grid:
// rows of cells, a cell holding a pile's top card (face up, or a card back) and, where the
// current card may go, a button.

import { cardBack, cardName, faceUpCard, topCard } from "./cards.js";
import { element } from "./dom.js";
import { FACE_DOWN_LIMIT, positionKey } from "./game.js";
import { explainMove, placeWords } from "./words.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["PileOut"]} Pile */
/** @typedef {{row: number, col: number}} Position */
/**
 * What `renderBoard` draws (see there).
 * @typedef {object} BoardOptions
 * @property {Pile[]} piles
 * @property {Position[]} [legal]
 * @property {Schemas["CardOut"] | null} [currentCard]
 * @property {((position: Position) => void) | null} [onPlace]
 * @property {boolean} [disabled]
 * @property {Position | null} [placed]
 * @property {Schemas["FlipOut"][]} [flipped]
 * @property {Position | null} [hint]
 * @property {Position | null} [best]
 * @property {boolean} [animate]
 * @property {boolean} [celebrate]
 * @property {Pile[]} [wordsFrom]
 */

/** @param {Pile} pile */
function pileText(pile) {
  const top = topCard(pile);
  const size = pile.cards.length === 1 ? "1 card" : `${pile.cards.length} cards`;
  return pile.face_up ? `${cardName(top)}, face up, ${size}` : `face down, ${size}`;
}

/** A mark's tag on a cell (drawn by the styles; the cell's label says it in words).
 * @param {string} className
 * @param {string} text */
function tag(className, text) {
  const made = element("span", { className: `tag ${className}`, textContent: text });
  made.setAttribute("aria-hidden", "true");
  return made;
}

/** @param {Pile} pile */
function pileElement(pile) {
  const top = topCard(pile);
  const card = pile.face_up ? faceUpCard(top) : cardBack();
  card.classList.add(`depth-${pile.cards.length}`);
  if (pile.cards.length > 1) {
    const count = element("span", {
      className: "pile-count",
      textContent: String(pile.cards.length),
    });
    count.setAttribute("aria-hidden", "true");
    card.append(count);
  }
  return card;
}

/**
 * Draw the grid into `container` (an element with role="grid").
 *
 * options: piles, legal (positions; empty for a read-only board), currentCard, onPlace(position),
 * disabled, placed (position), flipped ([{row, col, face_up}]), hint (position), best (the
 * computer player's choice, marked in a replay: a position, possibly of no pile), animate,
 * celebrate (a won game's cards wave), wordsFrom (the piles that positions are described
 * against in the cells' labels: the table before the move shown; `piles` by default).
 *
 * Each mark has its own shape and tag besides its colour: a legal cell is dashed with a "+",
 * the card just placed a thick solid frame tagged "played", a flipped pile a "↻" badge, the
 * hinted cell a double frame tagged "★ hint", the computer's choice a dashed frame tagged
 * "computer".
 * @param {HTMLElement} container
 * @param {BoardOptions} options
 */
export function renderBoard(container, options) {
  const { piles, legal = [], currentCard = null, onPlace = null, disabled = false } = options;
  const pilesAt = new Map(piles.map((pile) => [positionKey(pile.row, pile.col), pile]));
  const legalAt = new Set(legal.map((p) => positionKey(p.row, p.col)));
  const flippedAt = new Map((options.flipped || []).map((f) => [positionKey(f.row, f.col), f]));
  const positions = [...piles, ...legal, ...(options.best ? [options.best] : [])];
  container.replaceChildren();
  container.classList.toggle("animate", Boolean(options.animate));
  container.classList.toggle("celebrate", Boolean(options.celebrate));
  const wordsFrom = options.wordsFrom || piles;
  if (positions.length === 0) {
    container.style.setProperty("--cols", "1");
    container.style.setProperty("--rows", "1");
    return;
  }
  const rows = positions.map((p) => p.row);
  const cols = positions.map((p) => p.col);
  const [top, bottom] = [Math.min(...rows), Math.max(...rows)];
  const [left, right] = [Math.min(...cols), Math.max(...cols)];
  container.style.setProperty("--cols", String(right - left + 1));
  container.style.setProperty("--rows", String(bottom - top + 1));
  container.setAttribute("aria-rowcount", String(bottom - top + 1));
  container.setAttribute("aria-colcount", String(right - left + 1));

  for (let row = top; row <= bottom; row++) {
    const rowElement = element("div", { className: "board-row" });
    rowElement.setAttribute("role", "row");
    for (let col = left; col <= right; col++) {
      const here = positionKey(row, col);
      const pile = pilesAt.get(here);
      const cell = element("div", { className: "cell" });
      cell.setAttribute("role", "gridcell");
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      const where = placeWords({ row, col }, wordsFrom);
      if (pile) {
        const top = topCard(pile);
        cell.classList.add("pile", pile.face_up ? "up" : "down");
        cell.dataset.code = top.code;
        cell.dataset.face = pile.face_up ? "up" : "down";
        cell.dataset.count = String(pile.cards.length);
      }
      /** @type {HTMLElement | null} */
      let content = pile ? pileElement(pile) : null;
      if (legalAt.has(here) && currentCard && onPlace) {
        const button = element("button", {
          type: "button",
          className: pile ? "place place-on-pile" : "place place-new",
        });
        const target = pile ? `on the pile (${where}): ${pileText(pile)}` : `on a new pile (${where})`;
        const hinted = options.hint && positionKey(options.hint.row, options.hint.col) === here;
        button.setAttribute(
          "aria-label",
          `Place the ${cardName(currentCard)} ${target}${hinted ? " (the hint)" : ""}`,
        );
        button.disabled = disabled;
        button.addEventListener("click", () => onPlace({ row, col }));
        if (content) button.append(content);
        content = button;
        cell.classList.add("legal");
      } else {
        cell.setAttribute("aria-label", pile ? `${where}: ${pileText(pile)}` : `${where}: empty`);
      }
      if (content) cell.append(content);
      const notes = [];
      if (legalAt.has(here) && currentCard && onPlace) cell.append(tag("tag-legal", "+"));
      if (options.placed && positionKey(options.placed.row, options.placed.col) === here) {
        cell.classList.add("placed");
        cell.append(tag("tag-placed", "\u25BC"));
        notes.push("the card just played");
      }
      const flip = flippedAt.get(here);
      if (flip) {
        cell.classList.add("flipped", flip.face_up ? "flipped-up" : "flipped-down");
        cell.append(tag("tag-flipped", "\u21BB"));
        notes.push(`just turned ${flip.face_up ? "face up" : "face down"}`);
      }
      if (options.hint && positionKey(options.hint.row, options.hint.col) === here) {
        cell.classList.add("hinted");
        cell.append(tag("tag-hint", "\u2605"));
      }
      if (options.best && positionKey(options.best.row, options.best.col) === here) {
        cell.classList.add("best");
        cell.append(tag("tag-best", "\u25C6"));
        notes.push("the computer player's choice");
      }
      // The marks in words, on whatever carries the cell's name (its button, if it has one).
      const named = cell.querySelector("button.place") || cell;
      const label = named.getAttribute("aria-label");
      if (label && notes.length) named.setAttribute("aria-label", `${label}; ${notes.join("; ")}`);
      if (pile) cell.style.setProperty("--i", String(rowElement.children.length + (row - top) * 5));
      rowElement.append(cell);
    }
    container.append(rowElement);
  }
}

/** Draw a player's own grid (`renderBoard`'s options) with the keyboard focus kept on the
 * same cell across the redraw (the button pressed is replaced), or on the grid's first
 * button if that cell has none now. The play view's table and a race's draw theirs so.
 * @param {HTMLElement} container
 * @param {BoardOptions} options */
export function redrawGrid(container, options) {
  const focused = document.activeElement?.closest?.(".cell");
  const focusAt =
    focused instanceof HTMLElement && container.contains(focused) ? { ...focused.dataset } : null;
  renderBoard(container, options);
  if (focusAt) {
    const same = container.querySelector(
      `.cell[data-row="${focusAt.row}"][data-col="${focusAt.col}"] button`,
    );
    const next = same || container.querySelector("button");
    if (next instanceof HTMLElement) next.focus();
  }
  return focusAt !== null;
}

/** The last move's outcome in `box`: where the card went and why piles turned over, or not
 * (nothing without the move and the piles it was chosen on).
 * @param {HTMLElement} box
 * @param {import("./words.js").Move | null} placement
 * @param {Pile[] | null} before */
export function showLastMove(box, placement, before) {
  box.replaceChildren();
  if (!placement || !before) return;
  const { where, why } = explainMove(placement, before);
  box.append(element("p", { className: "move-where", textContent: where }));
  for (const sentence of why) box.append(element("p", { textContent: sentence }));
}

/** The face-down counter beside a grid (its `dd` in `.counters`): "3 / 4", its box marked
 * `warn` at the limit and `over` past it (the game is lost).
 * @param {HTMLElement} counter
 * @param {number} down */
export function showFaceDown(counter, down) {
  counter.textContent = `${down} / ${FACE_DOWN_LIMIT}`;
  counter.parentElement?.classList.toggle("warn", down >= FACE_DOWN_LIMIT);
  counter.parentElement?.classList.toggle("over", down > FACE_DOWN_LIMIT);
}

/** @type {Record<string, [number, number]>} */
const STEPS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** Arrow keys move the focus between the grid's buttons, in the direction pressed.
 * @param {HTMLElement} container */
export function enableArrowKeys(container) {
  container.addEventListener("keydown", (event) => {
    const step = STEPS[event.key];
    const from = event.target instanceof Element ? event.target.closest(".cell") : null;
    if (!step || !(from instanceof HTMLElement)) return;
    let row = Number(from.dataset.row);
    let col = Number(from.dataset.col);
    for (let i = 0; i < 6; i++) {
      row += step[0];
      col += step[1];
      const next = container.querySelector(`.cell[data-row="${row}"][data-col="${col}"] button`);
      if (next instanceof HTMLElement) {
        next.focus();
        event.preventDefault();
        return;
      }
    }
  });
}
