// @ts-check
// Cards as the API sends them ({rank, suit, code}), drawn as elements.

import { element } from "./dom.js";

/** @typedef {import("./api.js").Schemas["CardOut"]} Card */
/** @typedef {Card["suit"]} Suit */

/** @type {Record<Suit, {symbol: string, colour: string}>} */
const SUITS = {
  clubs: { symbol: "\u2663", colour: "black" },
  diamonds: { symbol: "\u2666", colour: "red" },
  hearts: { symbol: "\u2665", colour: "red" },
  spades: { symbol: "\u2660", colour: "black" },
};
/** @type {Record<string, Suit>} */
const SUIT_BY_LETTER = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** @param {number} rank */
export function rankText(rank) {
  return rank === 1 ? "A" : String(rank);
}

/** "Ace of spades", "10 of clubs".
 * @param {Card} card */
export function cardName(card) {
  return `${card.rank === 1 ? "Ace" : card.rank} of ${card.suit}`;
}

/** "10♣".
 * @param {Card} card */
export function cardShort(card) {
  return `${rankText(card.rank)}${SUITS[card.suit].symbol}`;
}

/** A card from its code ("10C"), as the API would send it.
 * @param {string} code
 * @returns {Card} */
export function cardFromCode(code) {
  const rank = code.slice(0, -1) === "A" ? 1 : Number(code.slice(0, -1));
  return { rank, suit: SUIT_BY_LETTER[code.slice(-1)], code };
}

/** @param {string} className @param {string} text */
const span = (className, text) => element("span", { className, textContent: text });

/** The card on top of a pile (the API's `cards` list the pile bottom first; a pile is never
 * empty).
 * @param {{cards: Card[]}} pile
 * @returns {Card} */
export function topCard(pile) {
  return pile.cards[pile.cards.length - 1];
}

/** A face-up card. The caller labels it (the element itself is presentational).
 * @param {Card} card */
export function faceUpCard(card) {
  const suit = SUITS[card.suit];
  const corner = span("corner", "");
  corner.append(span("rank", rankText(card.rank)), span("suit", suit.symbol));
  const bottom = /** @type {HTMLElement} */ (corner.cloneNode(true));
  bottom.className = "corner corner-bottom";
  const drawn = element(
    "div",
    { className: `card face-up ${suit.colour}` },
    corner,
    span("pip", suit.symbol),
    bottom,
  );
  drawn.dataset.code = card.code;
  drawn.setAttribute("aria-hidden", "true");
  return drawn;
}

/** A card back. */
export function cardBack() {
  const back = element("div", { className: "card face-down" });
  back.setAttribute("aria-hidden", "true");
  return back;
}
