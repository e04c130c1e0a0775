// @ts-check
// The page's shared pieces: the error notice (what went wrong and what to do next, in words,
// and the automatic retry after Retry-After) and a confirmation dialog.

import { ApiProblem, onRetry } from "./api.js";
import { $ } from "./dom.js";

let retryNoticeShown = false;

/** @typedef {{title: string, detail: string}} Words */
/** @typedef {{label: string, run: () => unknown}} NoticeAction */

// What a player reads for each of the API's problem codes (api/core/errors.py): what happened
// and what to do next. Never an HTTP status, a code or a header: those are the API's words
// for programs (they stay in the console's network panel).
/** @type {Record<string, [title: string, detail: string]>} */
const WORDS = {
  invalid_request: [
    "That could not be sent as it is",
    "Check what you typed or chose, then try again.",
  ],
  invalid_player_name: [
    "That name cannot be used",
    "A name is 3 to 24 letters A to Z, digits, _ or -, with at least one letter. Change it and try again.",
  ],
  name_taken: [
    "That name belongs to a registered player",
    "Choose another name (names that look alike, or differ only by _ and -, are one). If it is yours, use your key on the Account page.",
  ],
  name_reserved: [
    "That name is kept for the site",
    "Nobody plays as “computer” (or a name that looks like it) but the computer, and “anonymous” is every guest's. Choose another name.",
  ],
  player_name_mismatch: [
    "This key belongs to another name",
    "Sign out on the Account page, or play under the key's own name.",
  ],
  player_key_required: [
    "The daily challenge needs an account",
    "Register a name, or use your key, on the Account page; then come back to play it.",
  ],
  invalid_token: [
    "This browser's key or game pass is not accepted",
    "If you replaced your key elsewhere, use the new one on the Account page.",
  ],
  missing_token: [
    "This game is not yours to play here",
    "Only the browser that started it, or its player's key, may place its cards.",
  ],
  challenge_already_played: [
    "You have played today's challenge already",
    "There is one attempt a day: your game is shown on the daily page. A new challenge opens at 00:00 UTC.",
  ],
  challenge_closed: [
    "That day's challenge has closed",
    "Its games take no more cards. Today's challenge is on the daily page.",
  ],
  challenge_no_hints: [
    "No hints in the daily challenge",
    "Everybody plays the day's deal on their own. Hints are there in an ordinary game.",
  ],
  challenge_not_open: [
    "That day's challenge has not opened yet",
    "Each day opens at 00:00 UTC. Pick today or an earlier day.",
  ],
  invalid_challenge_date: [
    "There is no challenge on that day",
    "The daily challenge began on 2026-01-01: pick a day from then to today.",
  ],
  challenge_game_private: [
    "This daily challenge game is private until the day closes",
    "Its player alone may see it until 00:00 UTC; come back then to replay it.",
  ],
  challenge_day_open: [
    "The day's deal is still secret",
    "It is revealed when the day closes at 00:00 UTC; analyses wait until then.",
  ],
  version_conflict: [
    "This game changed in another tab or window",
    "It has been reloaded here as it is now: look at the table, then play on.",
  ],
  precondition_failed: [
    "This game changed in another tab or window",
    "It has been reloaded here as it is now: look at the table, then play on.",
  ],
  game_over: [
    "This game is already over",
    "It has been reloaded here as it ended. Start a new game to play again.",
  ],
  game_in_progress: [
    "This game is still being played",
    "Its analysis can be asked once it is over.",
  ],
  game_not_found: [
    "This game could not be found",
    "The link may be mistyped, or the game is gone. Start a new game from the home page.",
  ],
  player_not_found: [
    "There is no player of that name",
    "Check the spelling; names of guests have no page.",
  ],
  analysis_not_found: [
    "This game has not been analysed yet",
    "Press “Analyse this game” to ask for it.",
  ],
  not_on_board: ["This game is not on that board", "Choose another board."],
  invalid_window: [
    "That day or week has no board yet",
    "Pick a day not after today (UTC).",
  ],
  invalid_cursor: [
    "This page of the list is out of date",
    "Go back to its first page.",
  ],
  hints_busy: [
    "The computer player is busy",
    "Many hints are being worked out: try again in a few seconds.",
  ],
  rate_limited: ["Too many requests from this browser", "Wait a moment, then try again."],
  request_in_progress: [
    "The same request is still being answered",
    "Wait a moment, then try again.",
  ],
  database_busy: ["The server is busy", "Try again in a moment."],
  too_many_event_streams: [
    "Too many live pages are open in this browser",
    "Close a few tabs of live games, then try again.",
  ],
  event_streams_full: ["The server is busy", "Live updates will come back in a moment."],
  payload_too_large: ["That was too much to send", "Try again with less."],
  race_not_found: [
    "This race could not be found",
    "The link may be mistyped, or cut short. Open a new race from the races page.",
  ],
  race_not_open: [
    "This race cannot take that now",
    "Racers join while it is in its lobby, it starts once, and a rematch waits for its end.",
  ],
  race_game_private: [
    "This racer's game is private until the race ends",
    "Each racer sees only the others' counts while they play; the games open at the end.",
  ],
  race_not_over: [
    "Not while the race is on",
    "Hints and analyses wait until every racer has finished.",
  ],
  internal_error: [
    "Something went wrong on the server",
    "Try again; if it keeps happening, the site's operators can see what went wrong.",
  ],
};

// The same codes where a race answers them: a name is taken within the race, not by an
// account; a credential refused is a racer's, not a game's. On the account page, the key is
// used right there.
/** @type {Record<string, Record<string, [title: string, detail: string]>>} */
const WITHIN = {
  account: {
    name_taken: [
      "That name is taken",
      "A registered player has it (names that differ only in capitals, or in letters that " +
        "look alike, count as the same). Choose another; if it is yours, paste its key under " +
        "“Use an existing key”.",
    ],
    invalid_token: [
      "That key is not accepted",
      "It is no player's current key. Check that it was pasted whole; a key replaced since " +
        "(on another device) no longer works, the new one does.",
    ],
    invalid_recovery_code: [
      "That recovery code is not accepted",
      "It is not one of this player's unspent recovery codes: each works once. Check the name " +
        "and the code (capitals, spaces and dashes do not matter).",
    ],
    player_not_found: [
      "There is no account of that name",
      "Check the name's spelling: it is the name shown on the player's page.",
    ],
    sign_in_limited: [
      "Too many failed sign-ins",
      "For this account or from this address: wait a while (minutes, at most an hour) and try " +
        "again.",
    ],
    passkey_refused: [
      "The passkey was not accepted",
      "It may belong to no account here, or the sign-in took too long: try again, or use a " +
        "recovery code.",
    ],
    last_key: [
      "This is the account's only key",
      "It cannot be revoked: add a passkey or another device first.",
    ],
  },
  tournament: {
    name_taken: [
      "That name is taken in this tournament",
      "Another entrant, or a registered player, has it: choose another name and join again.",
    ],
    invalid_token: [
      "Only an entrant of this tournament can do that",
      "Join it first, from this browser (a guest's entry is kept in the browser it joined in).",
    ],
    guests_not_allowed: [
      "This tournament is for players with an account",
      "Register a name, or use your key, on the Account page; then join it.",
    ],
    tournament_full: ["The tournament is full", "Every place is taken: watch its standings, or join another."],
    tournament_not_open: [
      "The tournament takes no more entrants",
      "It has ended or was cancelled: see the tournaments coming up.",
    ],
    already_entered: ["You are in already", "Your entry is on the tournament's page."],
    tournament_not_running: [
      "The tournament is not running",
      "Its deals are played between its start and its end: see its page for when.",
    ],
    deal_in_progress: [
      "Your deal is still in progress",
      "Finish it first: the next deal comes once it has ended.",
    ],
    all_deals_played: ["You have played every deal", "The standings move on until the tournament ends."],
    not_an_entrant: ["You have not entered this tournament", "Join it on its page first."],
    entrant_left: ["You left this tournament", "Your deals played stay in the standings; there are no more to play."],
    tournament_started: ["The tournament has started", "It can no longer be changed."],
    tournament_not_found: ["There is no such tournament", "See the tournaments coming up and past."],
  },
  race: {
    name_taken: [
      "That name is taken in this race",
      "Another racer, or a registered player, has it: choose another name and join again.",
    ],
    invalid_token: [
      "Only a racer of this race can do that",
      "The race's opener starts it; a racer asks for its rematch, from the browser it joined in.",
    ],
  },
};

/** A problem (an ApiProblem, or any error) in words: {title, detail}; `within` ("race")
 * names where it was answered, for the codes that mean something else there.
 * @param {unknown} problem
 * @param {string | null} [within]
 * @returns {Words} */
export function problemWords(problem, within = null) {
  if (!(problem instanceof ApiProblem)) {
    return { title: "Something went wrong in this page", detail: "Reload the page and try again." };
  }
  const code = problem.code ?? "";
  const words = (within === null ? undefined : WITHIN[within]?.[code]) || WORDS[code];
  if (words) return { title: words[0], detail: words[1] };
  if (problem.status === 0) {
    return {
      title: "The server could not be reached",
      detail: "Check the connection, then try again.",
    };
  }
  if (problem.status >= 500) return { title: "The server could not answer", detail: "Try again in a moment." };
  // A code this page has no words for (a newer server's): its title is still in words.
  return { title: problem.title, detail: "Try again, or start again from the home page." };
}

// Counts the notices shown: a read that began before a notice was shown must not hide it
// when it ends (`noticeMark` / `clearNotice(mark)`), e.g. a page's load ending after a
// button's error.
let noticesShown = 0;

/** The notice shown now, to be passed to `clearNotice` when a read begun now ends. */
export function noticeMark() {
  return noticesShown;
}

/** @param {unknown} problem @param {string | null} [within] */
function fillNotice(problem, within = null) {
  noticesShown += 1;
  const { title, detail } = problemWords(problem, within);
  $("notice-title").textContent = title;
  $("notice-detail").textContent = detail;
  $("notice").hidden = false;
}

/** @type {NoticeAction | null} */
let noticeAction = null;

/** Show an error in words (`problemWords`): an ApiProblem, or any other error (logged).
 * `action` ({label, run}) adds a button to the notice, e.g. "Try again"; `within` as for
 * `problemWords`. Returns the notice's mark: `clearNotice(it)` hides this notice only.
 * @param {unknown} error
 * @param {NoticeAction | null} [action]
 * @param {string | null} [within] */
export function showError(error, action = null, within = null) {
  retryNoticeShown = false;
  fillNotice(error, within);
  $("notice").classList.remove("retrying");
  $("notice-retry").hidden = true;
  noticeAction = action;
  $("notice-action").hidden = !action;
  if (action) $("notice-action").textContent = action.label;
  if (!(error instanceof ApiProblem)) console.error(error);
  return noticesShown;
}

/** Hide the notice; with `mark` (from `noticeMark`), only if no notice was shown since.
 * @param {number | null} [mark] */
export function clearNotice(mark = null) {
  if (mark !== null && mark !== noticesShown) return;
  retryNoticeShown = false;
  noticeAction = null;
  $("notice").hidden = true;
}

export function installNotice() {
  $("notice-dismiss").addEventListener("click", () => clearNotice());
  $("notice-action").addEventListener("click", () => {
    const action = noticeAction;
    clearNotice();
    action?.run();
  });
  onRetry({
    retrying(problem, seconds, attempt, maxAttempts) {
      fillNotice(problem);
      $("notice").classList.add("retrying");
      $("notice-action").hidden = true;
      const when = seconds === 1 ? "1 second" : `${seconds} seconds`;
      const retry = $("notice-retry");
      retry.textContent = `Retrying automatically in ${when} (attempt ${attempt} of ${maxAttempts}).`;
      retry.hidden = false;
      retryNoticeShown = true;
    },
    recovered() {
      // The retried request got its answer: the notice about it is no longer true. (If the
      // answer is an error, the caller shows that next.)
      if (retryNoticeShown) clearNotice();
    },
  });
}

/** Ask before doing something; resolves to true if the person confirmed.
 * @param {{title: string, text: string, confirm: string}} question
 * @returns {Promise<boolean>} */
export function confirmDialog({ title, text, confirm }) {
  const dialog = $("confirm-dialog", HTMLDialogElement);
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = confirm;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), {
      once: true,
    });
    dialog.showModal();
  });
}
