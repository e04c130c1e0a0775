// @ts-check
// A listing read a page at a time with the API's `next_cursor` (the leaderboard, a day's
// board, a player's games): First / Previous / Next buttons and a page number, shown only
// when there is more than one page; and the rows of such tables.

import { $, element } from "./dom.js";
import { clearNotice, showError } from "./ui.js";

/**
 * The elements of a pager and its table, by id.
 * @typedef {{table: string, body: string, empty: string, first: string, previous: string,
 *   next: string, page: string}} PagerIds
 */
/** A page read: the rows of the table's body, and the API's cursor of the next page.
 * @typedef {{rows: HTMLElement[], next_cursor: string | null}} Page */

/**
 * ids: {table, body, empty, first, previous, next, page} (element ids); fetchPage(cursor)
 * answers {rows (elements for the body), next_cursor}. Returns {reload()}: read page one,
 * and {refresh()}: read the page shown again.
 * @param {PagerIds} ids
 * @param {(cursor: string | null) => Promise<Page>} fetchPage
 */
export function makePager(ids, fetchPage) {
  /** @type {(string | null)[]} */
  let cursors = [null]; // cursors[i] reads page i + 1
  let page = 0;
  /** @type {string | null} */
  let nextCursor = null;
  let loading = false;
  let generation = 0; // a newer reload wins over an older answer
  // The notice this pager's failed read showed ("Try again"), hidden once a read succeeds. A
  // read hides no other notice unless its page passes the mark of its own load (`reload`): a
  // table re-read on news must not hide the error of a button pressed meanwhile.
  /** @type {number | null} */
  let ownNotice = null;
  const pager = $(ids.first).closest(".pager");

  function setButtons() {
    // One page (or none): no pager at all. Hidden only once an answer says so, so that a
    // reload keeps the buttons where they were while it loads.
    if (!loading && pager instanceof HTMLElement) pager.hidden = page === 0 && !nextCursor;
    $(ids.first, HTMLButtonElement).disabled = loading || page === 0;
    $(ids.previous, HTMLButtonElement).disabled = loading || page === 0;
    $(ids.next, HTMLButtonElement).disabled = loading || !nextCursor;
  }

  /** @param {number | null} [mark] */
  async function load(mark = null) {
    const mine = ++generation;
    loading = true;
    setButtons();
    $(ids.table).setAttribute("aria-busy", "true");
    try {
      const answer = await fetchPage(cursors[page]);
      if (mine !== generation) return;
      if (mark !== null) clearNotice(mark);
      else if (ownNotice !== null) clearNotice(ownNotice);
      ownNotice = null;
      nextCursor = answer.next_cursor;
      $(ids.body).replaceChildren(...answer.rows);
      $(ids.empty).hidden = answer.rows.length > 0 || page > 0;
      $(ids.page).textContent = `Page ${page + 1}`;
    } catch (error) {
      if (mine !== generation) return;
      ownNotice = showError(error, { label: "Try again", run: () => load() });
    } finally {
      if (mine === generation) {
        loading = false;
        $(ids.table).removeAttribute("aria-busy");
        setButtons();
      }
    }
  }

  $(ids.first).addEventListener("click", () => {
    page = 0;
    load();
  });
  $(ids.previous).addEventListener("click", () => {
    page = Math.max(0, page - 1);
    load();
  });
  $(ids.next).addEventListener("click", () => {
    if (!nextCursor) return;
    cursors = cursors.slice(0, page + 1).concat([nextCursor]);
    page += 1;
    load();
  });

  return {
    /** Read the page shown again (news arrived: a new win may belong on it). */
    refresh() {
      return load();
    },
    /** Read page one. `mark` (`noticeMark()` when the page's load began): notices shown
     * before it are stale, hidden when the read succeeds.
     * @param {number | null} [mark] */
    reload(mark = null) {
      cursors = [null];
      page = 0;
      nextCursor = null;
      $(ids.body).replaceChildren();
      return load(mark);
    },
    /** Drop the read in progress, if any, and empty the table: the address shown now is one
     * this table cannot read, and a late answer of the one before must not fill it. */
    cancel() {
      generation += 1;
      loading = false;
      cursors = [null];
      page = 0;
      nextCursor = null;
      $(ids.body).replaceChildren();
      $(ids.table).removeAttribute("aria-busy");
      setButtons();
    },
  };
}

/** A table row of text cells; `cells` items are strings or elements.
 * @param {(Node | string)[]} cells */
export function tableRow(cells) {
  return element("tr", {}, ...cells.map((content) => element("td", {}, content)));
}

/** A table row of cells labelled with their column's name (`labels`), for the stacked
 * layout of narrow screens, where each row is a card and each cell says what it is.
 * @param {HTMLTableRowElement} row
 * @param {string[]} labels */
export function labelCells(row, labels) {
  [...row.cells].forEach((cell, index) => {
    if (labels[index]) cell.dataset.label = labels[index];
  });
  return row;
}
