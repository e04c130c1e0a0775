// The grid, drawn from a game's piles and legal placements (both as the API sends them).
//
// The grid floats: the first pile is (0, 0) and coordinates may be negative. The board shows
// the bounding box of the piles and the legal placements (at most 5 × 5), as an ARIA grid:
// rows of cells, a cell holding a pile's top card (face up, or a card back) and, where the
// current card may go, a button.

import { cardBack, cardName, faceUpCard } from "./cards.js";

const key = (row, col) => `${row},${col}`;

function pileText(pile) {
  const top = pile.cards[pile.cards.length - 1];
  const size = pile.cards.length === 1 ? "1 card" : `${pile.cards.length} cards`;
  return pile.face_up ? `${cardName(top)}, face up, ${size}` : `face down, ${size}`;
}

function pileElement(pile) {
  const top = pile.cards[pile.cards.length - 1];
  const card = pile.face_up ? faceUpCard(top) : cardBack();
  card.classList.add(`depth-${pile.cards.length}`);
  if (pile.cards.length > 1) {
    const count = document.createElement("span");
    count.className = "pile-count";
    count.textContent = String(pile.cards.length);
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
 * computer player's choice, marked in a replay: a position, possibly of no pile), animate.
 */
export function renderBoard(container, options) {
  const { piles, legal = [], currentCard = null, onPlace = null, disabled = false } = options;
  const pilesAt = new Map(piles.map((pile) => [key(pile.row, pile.col), pile]));
  const legalAt = new Set(legal.map((p) => key(p.row, p.col)));
  const flippedAt = new Map((options.flipped || []).map((f) => [key(f.row, f.col), f]));
  const positions = [...piles, ...legal, ...(options.best ? [options.best] : [])];
  container.replaceChildren();
  container.classList.toggle("animate", Boolean(options.animate));
  if (positions.length === 0) {
    container.style.setProperty("--cols", "1");
    return;
  }
  const rows = positions.map((p) => p.row);
  const cols = positions.map((p) => p.col);
  const [top, bottom] = [Math.min(...rows), Math.max(...rows)];
  const [left, right] = [Math.min(...cols), Math.max(...cols)];
  container.style.setProperty("--cols", String(right - left + 1));
  container.setAttribute("aria-rowcount", String(bottom - top + 1));
  container.setAttribute("aria-colcount", String(right - left + 1));

  for (let row = top; row <= bottom; row++) {
    const rowElement = document.createElement("div");
    rowElement.className = "board-row";
    rowElement.setAttribute("role", "row");
    for (let col = left; col <= right; col++) {
      const here = key(row, col);
      const pile = pilesAt.get(here);
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      const where = `row ${row}, column ${col}`;
      if (pile) {
        const top = pile.cards[pile.cards.length - 1];
        cell.classList.add("pile", pile.face_up ? "up" : "down");
        cell.dataset.code = top.code;
        cell.dataset.face = pile.face_up ? "up" : "down";
        cell.dataset.count = String(pile.cards.length);
      }
      let content = pile ? pileElement(pile) : null;
      if (legalAt.has(here) && currentCard && onPlace) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = pile ? "place place-on-pile" : "place place-new";
        const target = pile ? `on ${pileText(pile)}` : "new pile";
        button.setAttribute("aria-label", `Place ${cardName(currentCard)} at ${where}, ${target}`);
        button.disabled = disabled;
        button.addEventListener("click", () => onPlace({ row, col }));
        if (content) button.append(content);
        content = button;
        cell.classList.add("legal");
      } else {
        cell.setAttribute("aria-label", pile ? `${where}: ${pileText(pile)}` : `${where}: empty`);
      }
      if (content) cell.append(content);
      if (options.placed && key(options.placed.row, options.placed.col) === here) {
        cell.classList.add("placed");
      }
      const flip = flippedAt.get(here);
      if (flip) cell.classList.add("flipped", flip.face_up ? "flipped-up" : "flipped-down");
      if (options.hint && key(options.hint.row, options.hint.col) === here) {
        cell.classList.add("hinted");
      }
      if (options.best && key(options.best.row, options.best.col) === here) {
        cell.classList.add("best");
        const label = cell.getAttribute("aria-label");
        if (label) cell.setAttribute("aria-label", `${label}; the computer player's choice`);
      }
      rowElement.append(cell);
    }
    container.append(rowElement);
  }
}

const STEPS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** Arrow keys move the focus between the grid's buttons, in the direction pressed. */
export function enableArrowKeys(container) {
  container.addEventListener("keydown", (event) => {
    const step = STEPS[event.key];
    const from = event.target.closest?.(".cell");
    if (!step || !from) return;
    let row = Number(from.dataset.row);
    let col = Number(from.dataset.col);
    for (let i = 0; i < 6; i++) {
      row += step[0];
      col += step[1];
      const next = container.querySelector(`.cell[data-row="${row}"][data-col="${col}"] button`);
      if (next) {
        next.focus();
        event.preventDefault();
        return;
      }
    }
  });
}
