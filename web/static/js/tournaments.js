// @ts-check
// Tournaments (`#/tournaments`, `#/tournaments/{id}`): a few deals, the same for every entrant,
// played one after the other between a start and an end. The index lists the announced and
// running ones (soonest first) and the past ones (latest first, with their winners); a
// tournament's page joins it (a guest under a name where it takes guests, or the account
// whose key this page holds), deals the entrant's next deal (`POST /tournaments/{id}/games`)
// and opens it in the ordinary Play view (play.js: its end offers the next deal and the way
// back here), and shows the standings a page at a time, or the page around the entrant.
//
// Everything that moves comes from the tournament's stream (`/tournaments/{id}/events`,
// events.js). The stream replays a tournament from its first event on each connection, so its
// events are taken as news that something changed, not as the change itself: the tournament
// and the standings page shown are read again (one read at a time; events meanwhile make one
// more read after it), and the page draws what the API answers. Once the tournament is over
// (finished or cancelled) the stream is closed: nothing more will come, and the browser would
// otherwise open it again.
//
// The entrant's credential is a guest's `token` (kept per tournament in localStorage: a
// reload finds the entrant again) or the account's key.

import * as api from "./api.js";
import { $, element } from "./dom.js";
import { currentGeneration, openStream, tournamentEventsUrl } from "./events.js";
import { nameRefused, refusedField } from "./fields.js";
import { ordinal, timeElement, timeText } from "./format.js";
import { nameElement, playerLink } from "./leaderboard.js";
import { checkNameField } from "./names.js";
import { labelCells, makePager, tableRow } from "./pager.js";
import { mayLeave, openTournamentGame } from "./play.js";
import {
  forgetTournamentToken,
  onAccountChange,
  readAccount,
  readSavedGame,
  readTournamentToken,
  storage,
  writeTournamentToken,
} from "./storage.js";
import { clearNotice, confirmDialog, noticeMark, showError } from "./ui.js";
import { checkItem, verifyReveal } from "./verify.js";

/** @typedef {import("./api.js").Schemas} Schemas */
/** @typedef {Schemas["TournamentOut"]} Tournament */
/** @typedef {Schemas["Entry"]} Entry */

const SAVED_PLAYER = "foursquare.player"; // the name last played under (play.js keeps it too)
const STANDINGS_PAGE = 20;
const STANDINGS_COLUMNS = ["Rank", "Player", "Deals", "Score", "Cards", "Games"];
/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const OVER = new Set(["finished", "cancelled"]);

/** @type {string | null} */
let tournamentId = null; // the tournament shown, or null on the index
/** @type {Tournament | null} */
let tournament = null; // as last read
/** @type {string | null} */
let credential = null; // this page's entrant credential in it: a guest's token or the key
let busy = false;
let around = false; // the standings show the page around the entrant, not from the top
/** @type {import("./events.js").Stream | null} */
let stream = null;
let reading = false; // a read of the tournament is under way
let readAgain = false; // news came during it: read once more after it

/** The tournament shown. Everything below but the index runs only while one is.
 * @returns {Tournament} */
function theTournament() {
  if (tournament === null) throw new Error("no tournament is shown");
  return tournament;
}

/** A tournament's state in words, for the index and its page.
 * @param {Tournament} t */
function stateText(t) {
  if (t.status === "announced") return `Starts ${timeText(t.starts_at)}.`;
  if (t.status === "running") return `Running until ${timeText(t.ends_at)}.`;
  if (t.status === "ending") {
    return "Ended: the fair-play review checks the wins before the final standings.";
  }
  if (t.status === "finished") return `Finished ${timeText(t.finished_at ?? t.ends_at)}.`;
  return "Cancelled: this tournament will not be played.";
}

// ---------------------------------------------------------------- the index

/** @param {Tournament} t */
function currentItem(t) {
  const link = element("a", {
    href: `#/tournaments/${encodeURIComponent(t.id)}`,
    textContent: t.name,
  });
  const facts =
    ` · ${plural(t.deals, "deal", "deals")} · ${plural(t.entrants, "entrant", "entrants")}` +
    (t.guests ? " · guests welcome" : "");
  const item = element(
    "li",
    {},
    link,
    element("span", { className: "badge", textContent: t.status }),
    " ",
    stateText(t),
    facts,
  );
  item.dataset.tournamentId = t.id;
  return item;
}

async function loadCurrent() {
  let answer;
  try {
    answer = await api.getTournaments({ limit: 20 });
  } catch (error) {
    showError(error, { label: "Try again", run: loadCurrent }, "tournament");
    return;
  }
  if (tournamentId !== null) return;
  $("tournament-current").replaceChildren(...answer.tournaments.map(currentItem));
  $("tournament-current-empty").hidden = answer.tournaments.length > 0;
}

/** @param {Tournament} t */
function winnersText(t) {
  if (t.winners.length === 0) return "–";
  return t.winners.map((w) => `${ordinal(w.place)} ${w.name}`).join(", ");
}

/** @param {Tournament} t */
function pastRow(t) {
  const link = element("a", {
    href: `#/tournaments/${encodeURIComponent(t.id)}`,
    textContent: t.name,
  });
  const tr = tableRow([
    link,
    timeElement(t.finished_at ?? t.ends_at),
    String(t.entrants),
    winnersText(t),
  ]);
  tr.dataset.tournamentId = t.id;
  return labelCells(tr, ["Tournament", "Ended", "Entrants", "Winners"]);
}

const pastPager = makePager(
  {
    table: "tournament-past-table",
    body: "tournament-past-body",
    empty: "tournament-past-empty",
    first: "tournament-past-first",
    previous: "tournament-past-previous",
    next: "tournament-past-next",
    page: "tournament-past-page",
  },
  async (cursor) => {
    const answer = await api.getTournaments({ status: "finished", limit: 10, cursor });
    return { rows: answer.tournaments.map(pastRow), next_cursor: answer.next ?? null };
  },
);

// ---------------------------------------------------------------- the standings

/** @param {Entry} entry */
function standingRow(entry) {
  const t = theTournament();
  const you = t.you !== null && t.you.number === entry.number;
  const who = element("span", {}, playerLink(entry.name, entry.account));
  if (you) who.append(" ", element("span", { className: "badge", textContent: "you" }));
  if (entry.left) who.append(" ", element("span", { className: "badge", textContent: "left" }));
  /** @type {(Node | string)[]} */
  const games = [];
  for (const [index, game] of (entry.games ?? []).entries()) {
    const link = element("a", {
      href: `#/games/${encodeURIComponent(game)}`,
      textContent: `deal ${index + 1}`,
    });
    link.setAttribute("aria-label", `Replay deal ${index + 1} of ${entry.name}`);
    if (games.length) games.push(" ");
    games.push(link);
  }
  const place = entry.place ?? entry.rank;
  const tr = tableRow([
    place === null ? "–" : String(place),
    who,
    `${entry.deals_played} of ${t.deals}`,
    String(entry.score),
    String(entry.cards),
    games.length ? element("span", {}, ...games) : "–",
  ]);
  tr.children[1].className = "player";
  tr.dataset.number = String(entry.number);
  tr.dataset.score = String(entry.score);
  tr.dataset.dealsPlayed = String(entry.deals_played);
  if (you) tr.classList.add("mine");
  return labelCells(tr, STANDINGS_COLUMNS);
}

const standingsPager = makePager(
  {
    table: "tournament-standings-table",
    body: "tournament-standings-body",
    empty: "tournament-standings-empty",
    first: "tournament-standings-first",
    previous: "tournament-standings-previous",
    next: "tournament-standings-next",
    page: "tournament-standings-page",
  },
  async (cursor) => {
    const id = tournamentId;
    if (id === null) throw new Error("standings were read without a tournament");
    const name = around && !cursor ? (theTournament().you?.name ?? null) : null;
    const answer = await api.getStandings(id, { cursor, limit: STANDINGS_PAGE, around: name });
    if (id !== tournamentId) return { rows: [], next_cursor: null };
    const final = answer.status === "final";
    const count = plural(answer.total, "entrant", "entrants");
    $("tournament-standings-caption").textContent = final
      ? `Final standings, ${count}: the score of the deals won (a win the fair-play review held scores 0), then the cards placed`
      : `Provisional standings, ${count}: the score of the deals won, then the cards placed; the final ones come after the fair-play review`;
    $("tournament-standings-table").dataset.status = answer.status;
    return { rows: answer.entries.map(standingRow), next_cursor: answer.next ?? null };
  },
);

// ---------------------------------------------------------------- the tournament's page

function renderFigures() {
  const t = theTournament();
  $("tournament-starts").replaceChildren(timeElement(t.starts_at));
  $("tournament-ends").replaceChildren(timeElement(t.ends_at));
  $("tournament-deals").textContent = String(t.deals);
  $("tournament-entrants").textContent =
    t.max_entrants === null ? String(t.entrants) : `${t.entrants} of ${t.max_entrants}`;
  $("tournament-guests").textContent = t.guests ? "welcome" : "accounts only";
}

function renderJoin() {
  const t = theTournament();
  const account = readAccount();
  const open = t.status === "announced" || t.status === "running";
  const full = t.max_entrants !== null && t.entrants >= t.max_entrants;
  const may = open && t.you === null && !full && (Boolean(account) || t.guests);
  $("tournament-join-form").hidden = !may;
  $("tournament-join-guest").hidden = Boolean(account);
  $("tournament-join-account").hidden = !account;
  if (account) $("tournament-join-account-name").textContent = account.name;
  $("tournament-join-button", HTMLButtonElement).disabled = busy;
  $("tournament-account-needed").hidden = !(open && t.you === null && !account && !t.guests);
}

/** What the entrant reads of its entry: where it stands, what is left to play. */
function youText() {
  const t = theTournament();
  const you = t.you;
  if (you === null) return "";
  const played = `${you.deals_played} of ${plural(t.deals, "deal", "deals")} played`;
  const score = `score ${you.score}, ${plural(you.cards, "card", "cards")} placed`;
  if (t.status === "finished") {
    const place = you.place ?? you.rank;
    return `You finished ${ordinal(place)} of ${t.entrants} as ${you.name}: ${played}, ${score}.`;
  }
  if (you.left) return `You left the tournament: your ${played} stay in the standings (${score}).`;
  if (t.status === "announced") {
    return `You are in as ${you.name}. The first deal is yours to play from the start, ${timeText(t.starts_at)}.`;
  }
  if (t.status === "ending") {
    return `You are in as ${you.name}: ${played}, ${score}. The final standings come after the fair-play review.`;
  }
  if (t.status === "cancelled") return `You had entered as ${you.name}.`;
  const rank = you.rank === null ? "" : `, ranked ${ordinal(you.rank)} for now`;
  const next =
    you.current_game !== null
      ? " Your deal is in progress."
      : you.next_deal === null
        ? " You have played every deal: the standings move on until the end."
        : "";
  return `You are in as ${you.name}: ${played}, ${score}${rank}.${next}`;
}

function renderYou() {
  const t = theTournament();
  const you = t.you;
  $("tournament-you").hidden = you === null;
  $("tournament-around").hidden = you === null;
  if (you === null) return;
  $("tournament-you-text").textContent = youText();
  const running = t.status === "running" && !you.left;
  const play = $("tournament-play", HTMLButtonElement);
  play.hidden = !(running && you.current_game === null && you.next_deal !== null);
  play.textContent = `Play deal ${you.next_deal ?? ""} of ${t.deals}`;
  play.disabled = busy;
  $("tournament-resume").hidden = !(running && you.current_game !== null);
  const leave = $("tournament-leave", HTMLButtonElement);
  leave.hidden = you.left || !(t.status === "announced" || t.status === "running");
  leave.disabled = busy;
}

function renderWinners() {
  const t = theTournament();
  const box = $("tournament-winners-box");
  box.hidden = t.status !== "finished" || t.winners.length === 0;
  const items = t.winners.map((w) => {
    const item = element(
      "li",
      { className: `place-${w.place}` },
      element("span", { className: "trophy", textContent: ordinal(w.place) }),
      " ",
      nameElement(w.name),
    );
    item.dataset.place = String(w.place);
    return item;
  });
  $("tournament-winners").replaceChildren(...items);
}

function renderVerify() {
  const t = theTournament();
  const revealed = t.reveal !== null && t.reveal.length > 0;
  $("tournament-verify-text").textContent = revealed
    ? "The server committed to each deal (the SHA-256 of its deck and a salt) when the " +
      "tournament was announced; now that it has ended, it reveals them, and your browser " +
      "checks them against these commitments."
    : "The server committed to each deal (the SHA-256 of its deck and a salt) when the " +
      "tournament was announced: these. It reveals the decks and salts once the tournament " +
      "ends, for anybody to check them.";
  const items = t.commitments.map((commitment, index) =>
    element("li", {}, `Deal ${index + 1}: `, element("code", { textContent: commitment })),
  );
  $("tournament-commitments").replaceChildren(...items);
  $("tournament-verify-button").hidden = !revealed;
}

function render() {
  const t = theTournament();
  $("tournament-heading").textContent = t.name;
  $("tournament-state").textContent = stateText(t);
  $("tournament-room").dataset.status = t.status;
  renderFigures();
  renderJoin();
  renderYou();
  renderWinners();
  renderVerify();
}

async function verify() {
  const t = theTournament();
  const reveal = t.reveal;
  if (!reveal) return;
  const button = $("tournament-verify-button", HTMLButtonElement);
  button.disabled = true;
  $("tournament-verify-results").replaceChildren();
  try {
    for (const [index, deal] of reveal.entries()) {
      const checks = await verifyReveal(t.commitments[index] ?? "", deal);
      for (const check of checks) {
        const item = checkItem({ ...check, name: `Deal ${index + 1}, ${check.name.toLowerCase()}` });
        $("tournament-verify-results").append(item);
      }
    }
  } finally {
    button.disabled = false;
  }
}

/** Read the tournament again (news on its stream), and the standings page shown; one read at
 * a time, and one more after it if news came meanwhile.
 * @param {string} id */
async function reread(id) {
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  try {
    do {
      readAgain = false;
      let fresh;
      try {
        fresh = await api.getTournament(id, credential);
      } catch {
        return; // the page stays as it was; the next news reads it again
      }
      if (id !== tournamentId) return;
      tournament = fresh;
      render();
      await standingsPager.refresh();
      if (OVER.has(fresh.status)) endStream();
    } while (readAgain && id === tournamentId);
  } finally {
    reading = false;
  }
}

function endStream() {
  stream?.close();
  stream = null;
  $("tournament-live").textContent = "";
}

/** @param {string} id @param {number} gen */
function follow(id, gen) {
  const news = () => {
    if (id === tournamentId) reread(id);
  };
  stream = openStream(
    tournamentEventsUrl(id),
    {
      announced: news,
      joined: news,
      left: news,
      started: news,
      deal_finished: news,
      standings: news,
      ended: news,
      final: news,
      cancelled: news,
    },
    {
      gen,
      onState(state) {
        if (id !== tournamentId || !stream) return;
        $("tournament-live").textContent =
          state === "open"
            ? ""
            : state === "reconnecting"
              ? "Connection lost: reconnecting…"
              : "Live updates stopped: reload the page to follow the tournament again.";
      },
    },
  );
}

/** @param {string} id */
async function showTournament(id) {
  const gen = currentGeneration();
  tournamentId = id;
  tournament = null;
  around = false;
  reading = false;
  readAgain = false;
  $("tournament-index").hidden = true;
  $("tournament-room").hidden = true;
  $("tournament-heading").textContent = "Tournament";
  $("tournament-live").textContent = "";
  $("tournament-verify-results").replaceChildren();
  $("tournament-around").textContent = "Show my place";
  credential = readTournamentToken(id) || readAccount()?.key || null;
  const mark = noticeMark();
  let read;
  try {
    read = await api.getTournament(id, credential);
  } catch (error) {
    if (id !== tournamentId) return;
    showError(error, { label: "Try again", run: () => showTournament(id) }, "tournament");
    return;
  }
  if (id !== tournamentId || gen !== currentGeneration()) return;
  clearNotice(mark);
  tournament = read;
  $("tournament-room").hidden = false;
  render();
  standingsPager.reload(mark);
  if (!OVER.has(read.status)) follow(id, gen);
}

// ---------------------------------------------------------------- the entrant's buttons

/** @param {SubmitEvent} event */
async function join(event) {
  event.preventDefault();
  if (busy || tournamentId === null) return;
  const id = tournamentId;
  const account = readAccount();
  clearNotice();
  if (!account && refusedField("tournament-join-name", "tournament-join-name-check", "Give a name to enter the tournament under.")) {
    return;
  }
  const name = $("tournament-join-name", HTMLInputElement).value.trim();
  if (!account) storage()?.setItem(SAVED_PLAYER, name);
  busy = true;
  renderJoin();
  try {
    const joined = await api.joinTournament(id, account ? { key: account.key } : { name });
    if (id !== tournamentId) return;
    clearNotice();
    if (joined.token) writeTournamentToken(id, joined.token);
    credential = joined.token || account?.key || null;
    busy = false;
    await reread(id);
    $("tournament-you-heading").focus();
  } catch (error) {
    if (!(!account && nameRefused(error, "tournament-join-name", "tournament-join-name-check", "tournament"))) {
      showError(error, null, "tournament");
    }
  } finally {
    busy = false;
    if (id === tournamentId && tournament) render();
  }
}

async function leave() {
  if (busy || tournamentId === null) return;
  const id = tournamentId;
  const running = theTournament().status === "running";
  const ok = await confirmDialog({
    title: "Leave the tournament?",
    text: running
      ? "Your deals played stay in the standings, a deal in progress ends (lost), and you " +
        "cannot play on: leaving is for good."
      : "Your entry goes. You may join again until the tournament starts.",
    confirm: "Leave it",
  });
  if (!ok || id !== tournamentId) return;
  busy = true;
  renderYou();
  try {
    await api.leaveTournament(id, credential);
    if (id !== tournamentId) return;
    clearNotice();
    // Before the start the entry is gone, and its token names nobody; once running it stays
    // (marked left), and the token still reads it.
    if (theTournament().status === "announced") {
      if (credential !== readAccount()?.key) forgetTournamentToken(id);
      credential = readAccount()?.key || null;
    }
    busy = false;
    await reread(id);
    $("tournament-state").focus();
  } catch (error) {
    if (id === tournamentId) showError(error, null, "tournament");
  } finally {
    busy = false;
    if (id === tournamentId && tournament) renderYou();
  }
}

/** Deal the entrant's next deal and open it in the Play view. */
async function play() {
  if (busy || tournamentId === null) return;
  const id = tournamentId;
  const t = theTournament();
  // A game of another kind left unfinished on this page: asked first, as Play asks.
  if (readSavedGame()?.tournament?.id !== id && !(await mayLeave())) return;
  busy = true;
  renderYou();
  try {
    const dealt = await api.playTournamentDeal(id, credential);
    if (id !== tournamentId) return;
    clearNotice();
    const { token, ...game } = dealt.game;
    openTournamentGame(game, token, { id, name: t.name, deal: dealt.deal, deals: t.deals });
  } catch (error) {
    if (id === tournamentId) {
      showError(error, null, "tournament");
      reread(id);
    }
  } finally {
    busy = false;
    if (id === tournamentId && tournament) renderYou();
  }
}

/** Open the entrant's deal in progress in the Play view. */
async function resume() {
  const t = theTournament();
  const you = t.you;
  if (!you?.current_game) return;
  const token = credential !== readAccount()?.key ? credential : null;
  let game;
  try {
    game = await api.getGame(you.current_game, credential);
  } catch (error) {
    showError(error, null, "tournament");
    return;
  }
  const deal = you.deals_played + 1;
  openTournamentGame(game, token, { id: t.id, name: t.name, deal, deals: t.deals });
}

function toggleAround() {
  around = !around;
  $("tournament-around").textContent = around ? "Show the top" : "Show my place";
  standingsPager.reload();
}

/** Wire the view's controls; called once. */
export function installTournaments() {
  $("tournament-join-name", HTMLInputElement).value = storage()?.getItem(SAVED_PLAYER) || "";
  checkNameField("tournament-join-name", "tournament-join-name-check");
  $("tournament-join-form").addEventListener("submit", join);
  $("tournament-leave").addEventListener("click", leave);
  $("tournament-play").addEventListener("click", play);
  $("tournament-resume").addEventListener("click", resume);
  $("tournament-around").addEventListener("click", toggleAround);
  $("tournament-verify-button").addEventListener("click", verify);
  onAccountChange(() => {
    if ($("tournament-view").hidden || tournamentId === null) return;
    showTournament(tournamentId);
  });
}

/** The view became visible: the index (`#/tournaments`) or tournament `id`.
 * @param {string | null} [id] */
export function showTournaments(id = null) {
  stream = null; // the router closed it
  if (id !== null) {
    showTournament(id);
    return;
  }
  tournamentId = null;
  tournament = null;
  $("tournament-heading").textContent = "Tournaments";
  $("tournament-room").hidden = true;
  $("tournament-index").hidden = false;
  loadCurrent();
  pastPager.reload(noticeMark());
}

/** The next tournament in words, for the home page: a running one, else the soonest
 * announced; null when none is.
 * @returns {Promise<{text: string, id: string} | null>} */
export async function nextTournament() {
  const answer = await api.getTournaments({ limit: 1 });
  const next = answer.tournaments[0];
  if (!next) return null;
  const entrants = plural(next.entrants, "entrant", "entrants");
  const text =
    next.status === "running"
      ? `${next.name} is running until ${timeText(next.ends_at)}: ${entrants} so far.`
      : `${next.name} starts ${timeText(next.starts_at)}: ${plural(next.deals, "deal", "deals")}, ${entrants} so far.`;
  return { text, id: next.id };
}
