// @ts-check
// The player's account: register a name (the API answers with a secret key, shown once),
// or use a key from elsewhere; the key is kept in localStorage (see storage.js) and sent as
// `Authorization: Bearer <key>` when a game starts. Copy it, replace it (rotation), or sign
// out (forget it here). Several keys per account, one a device: the page lists them and the
// passkeys, revokes one, shows the recovery codes once; a new device signs in with a passkey,
// a recovery code or a pasted key, and gets a key of its own. Also a player's page: their
// figures and their games.

import * as api from "./api.js";
import { $, element } from "./dom.js";
import { clearFieldProblem, nameRefused, refusedField, showFieldProblem } from "./fields.js";
import { ordinal, percentText, timeElement, timeText } from "./format.js";
import { GUEST_NAME, resultText } from "./game.js";
import { labelCells, makePager, tableRow } from "./pager.js";
import { checkNameField } from "./names.js";
import { openAccountGame } from "./play.js";
import { onAccountChange, readAccount, writeAccount } from "./storage.js";
import { clearNotice, confirmDialog, noticeMark, problemWords, showError } from "./ui.js";

/** @typedef {import("./api.js").Schemas} Schemas */

let busy = false;

/** @param {string} text */
function say(text) {
  $("account-status").textContent = text;
}

/** Show or hide the key's box (a button, "Show the key", says which).
 * @param {boolean} shown */
function setKeyShown(shown) {
  $("key-box").hidden = !shown;
  $("key-toggle").setAttribute("aria-expanded", String(shown));
  $("key-toggle").textContent = shown ? "Hide the key" : "Show the key";
}

/** Show the key in its box; `fresh`: it was just made (the server shows it only once).
 * @param {string} key
 * @param {boolean} fresh */
function showKey(key, fresh) {
  $("account-key", HTMLInputElement).value = key;
  if (fresh) setKeyShown(true);
  $("key-once").hidden = !fresh;
}

function renderAccount() {
  const account = readAccount();
  $("account-signed-out").hidden = Boolean(account);
  $("account-signed-in").hidden = !account;
  const long = element("span", {
    className: "long",
    textContent: account ? `Account (${account.name})` : "Account",
  });
  const short = element("span", { className: "short", textContent: "Account" });
  short.setAttribute("aria-hidden", "true");
  $("account-link").replaceChildren(long, short);
  if (!account) return;
  $("account-name").textContent = account.name;
  $("account-page-link", HTMLAnchorElement).href = `#/players/${encodeURIComponent(account.name)}`;
  $("account-key", HTMLInputElement).value = account.key;
  // Read only where they are shown: a key revoked elsewhere says so on this page, not on
  // every page this browser opens.
  if (!$("account-view").hidden) loadCredentials();
}

/** The name this browser's key is given: what the player will recognise in the list. */
function deviceName() {
  const platform = navigator.platform || "this device";
  const brand = /Firefox\//.test(navigator.userAgent)
    ? "Firefox"
    : /Edg\//.test(navigator.userAgent)
      ? "Edge"
      : /Chrome\//.test(navigator.userAgent)
        ? "Chrome"
        : /Safari\//.test(navigator.userAgent)
          ? "Safari"
          : "Browser";
  return `${brand} on ${platform}`.slice(0, 64);
}

/** Why passkeys cannot be used on this page, or null: browsers refuse them on an IP
 * address, and without the WebAuthn JSON helpers. */
function passkeyBlocker() {
  if (/^[\d.]+$|^\[|:/.test(location.hostname)) {
    return "Passkeys work only when this page is opened by name, as localhost, not by address.";
  }
  if (!window.PublicKeyCredential || !("parseCreationOptionsFromJSON" in PublicKeyCredential)) {
    return "This browser does not offer passkeys.";
  }
  return null;
}

/** @param {{ name: string, created_at: string, last_used_at: string | null }} item */
function credentialText(item) {
  const used = item.last_used_at ? `last used ${timeText(item.last_used_at)}` : "not used yet";
  return `${item.name}: made ${timeText(item.created_at)}, ${used}`;
}

async function loadCredentials() {
  const account = readAccount();
  if (!account) return;
  try {
    const found = await api.getCredentials(account.name, account.key);
    const keys = found.keys.map((item) => {
      const line = element("li", { textContent: credentialText(item) });
      if (item.this_key) line.append(" (this browser)");
      const revoke = element("button", { type: "button", textContent: "Revoke" });
      revoke.addEventListener("click", () => revokeOne("key", item.id, item.name));
      line.append(" ", revoke);
      return line;
    });
    $("credential-keys").replaceChildren(...keys);
    const passkeys = found.passkeys.map((item) => {
      const line = element("li", { textContent: `Passkey ${credentialText(item)}` });
      const remove = element("button", { type: "button", textContent: "Remove" });
      remove.addEventListener("click", () => revokeOne("passkey", item.id, item.name));
      line.append(" ", remove);
      return line;
    });
    $("credential-passkeys").replaceChildren(...passkeys);
    const left = found.recovery_codes_left;
    $("recovery-left").textContent =
      `${left} recovery code${left === 1 ? "" : "s"} left` +
      (left < 3 ? ": make new ones before they run out." : ".");
    const blocker = passkeyBlocker();
    $("passkey-note").hidden = !blocker;
    $("passkey-note").textContent = blocker || "";
    $("add-passkey", HTMLButtonElement).disabled = Boolean(blocker);
  } catch (error) {
    showError(error);
  }
}

/** @param {"key" | "passkey"} kind @param {string} id @param {string} name */
async function revokeOne(kind, id, name) {
  const account = readAccount();
  if (!account || busy) return;
  const ok = await confirmDialog({
    title: kind === "key" ? `Revoke the key "${name}"?` : `Remove the passkey "${name}"?`,
    text:
      kind === "key"
        ? "The device that uses it can no longer play as you. The last key is never revoked."
        : "It can no longer sign in. Keys it made stay until you revoke them.",
    confirm: kind === "key" ? "Revoke" : "Remove",
  });
  if (!ok) return;
  try {
    if (kind === "key") await api.revokeKey(account.name, account.key, id);
    else await api.revokePasskey(account.name, account.key, id);
    say(kind === "key" ? `The key "${name}" was revoked.` : `The passkey "${name}" was removed.`);
    await loadCredentials();
  } catch (error) {
    showError(error, null, "account");
  }
}

/** Show recovery codes, this once. @param {string[]} codes */
function showCodes(codes) {
  $("recovery-codes").textContent = codes.join("\n");
  $("recovery-box").hidden = false;
}

async function copyCodes() {
  try {
    await navigator.clipboard.writeText($("recovery-codes").textContent || "");
    say("The recovery codes were copied to the clipboard.");
  } catch {
    say("The browser did not allow copying: select the codes and copy them with Ctrl+C (⌘C).");
  }
}

async function newCodes() {
  const account = readAccount();
  if (!account || busy) return;
  const ok = await confirmDialog({
    title: "Make new recovery codes?",
    text: "Ten new codes are shown once; the codes you have now stop working.",
    confirm: "Make new codes",
  });
  if (!ok) return;
  try {
    const made = await api.newRecoveryCodes(account.name, account.key);
    showCodes(made.recovery_codes);
    say("New recovery codes: copy them somewhere safe now.");
    await loadCredentials();
  } catch (error) {
    showError(error);
  }
}

async function addPasskey() {
  const account = readAccount();
  if (!account || busy || passkeyBlocker()) return;
  try {
    const ceremony = await api.passkeyRegistrationOptions(account.name, account.key);
    const options = PublicKeyCredential.parseCreationOptionsFromJSON(
      /** @type {any} */ (ceremony.options),
    );
    const made = /** @type {PublicKeyCredential | null} */ (
      await navigator.credentials.create({ publicKey: options })
    );
    if (!made) return;
    await api.registerPasskey(
      account.name,
      account.key,
      ceremony.challenge_id,
      made.toJSON(),
      deviceName(),
    );
    say("A passkey was added: sign in with it on another device.");
    await loadCredentials();
  } catch (error) {
    if (error instanceof DOMException) say(`No passkey was added (${error.message}).`);
    else showError(error);
  }
}

/** A new device signed in: keep its new key. @param {{ player: string, key: string }} made */
function signedIn(made) {
  writeAccount({ name: made.player, key: made.key });
  setKeyShown(false);
  $("key-once").hidden = true;
  say(`Signed in as ${made.player} with a key of this browser's own.`);
}

async function passkeySignIn() {
  if (busy) return;
  const blocker = passkeyBlocker();
  if (blocker) {
    say(blocker);
    return;
  }
  clearNotice();
  setBusy(true);
  try {
    const ceremony = await api.passkeySignInOptions();
    const options = PublicKeyCredential.parseRequestOptionsFromJSON(
      /** @type {any} */ (ceremony.options),
    );
    const answer = /** @type {PublicKeyCredential | null} */ (
      await navigator.credentials.get({ publicKey: options })
    );
    if (!answer) return;
    signedIn(await api.signInWithPasskey(ceremony.challenge_id, answer.toJSON(), deviceName()));
  } catch (error) {
    if (error instanceof DOMException) say(`No passkey signed in (${error.message}).`);
    else showError(error, null, "account");
  } finally {
    setBusy(false);
  }
}

/** @param {SubmitEvent} event */
async function recoverySignIn(event) {
  event.preventDefault();
  if (busy) return;
  clearNotice();
  const name = $("recovery-name", HTMLInputElement).value.trim();
  const code = $("recovery-code", HTMLInputElement).value.trim();
  if (!name || !code) {
    showFieldProblem("recovery-code", "recovery-code-check", "Type your name and a code.");
    return;
  }
  setBusy(true);
  try {
    signedIn(await api.signInWithRecoveryCode(name, code, deviceName()));
    $("recovery-code", HTMLInputElement).value = "";
  } catch (error) {
    const words = problemWords(error, "account");
    showFieldProblem("recovery-code", "recovery-code-check", `${words.title}. ${words.detail}`);
  } finally {
    setBusy(false);
  }
}

/** @param {boolean} value */
function setBusy(value) {
  busy = value;
  for (const id of [
    "register-button",
    "existing-button",
    "rotate-key",
    "sign-out",
    "passkey-sign-in",
    "recovery-button",
  ]) {
    $(id, HTMLButtonElement).disabled = value;
  }
}

/** @param {SubmitEvent} event */
async function register(event) {
  event.preventDefault();
  if (busy) return;
  // A refusal is said beside the name, once: an older one at the top of the page goes.
  clearNotice();
  if (refusedField("register-name", "register-name-check", "Type the name to register first.")) {
    return;
  }
  const name = $("register-name", HTMLInputElement).value.trim();
  setBusy(true);
  say("Registering…");
  try {
    const created = await api.registerPlayer(name);
    clearNotice();
    writeAccount({ name: created.name, key: created.key });
    $("register-name", HTMLInputElement).value = "";
    showKey(created.key, true);
    showCodes(created.recovery_codes);
    say(`Registered as ${created.name}. Your key is kept in this browser; copy it somewhere safe.`);
    $("copy-key").focus();
  } catch (error) {
    say("");
    if (!nameRefused(error, "register-name", "register-name-check", "account")) showError(error);
  } finally {
    setBusy(false);
  }
}

/** @param {SubmitEvent} event */
async function useExistingKey(event) {
  event.preventDefault();
  if (busy) return;
  clearNotice();
  if (refusedField("existing-key", "existing-key-check", "Paste your key first.")) return;
  const key = $("existing-key", HTMLInputElement).value.trim();
  setBusy(true);
  try {
    // The API names the key's account (403 for a key that is no player's current one).
    const player = await api.getOwnPlayer(key);
    clearNotice();
    writeAccount({ name: player.name, key });
    $("existing-key", HTMLInputElement).value = "";
    setKeyShown(false);
    $("key-once").hidden = true;
    say(`Signed in as ${player.name}. New games are started as this account.`);
    $("account-page-link").focus();
  } catch (error) {
    if (api.codeOf(error) === "invalid_token") {
      const words = problemWords(error, "account");
      showFieldProblem("existing-key", "existing-key-check", `${words.title}. ${words.detail}`);
    } else {
      showError(error);
    }
  } finally {
    setBusy(false);
  }
}

async function copyKey() {
  const key = readAccount()?.key;
  if (!key) return;
  try {
    await navigator.clipboard.writeText(key);
    say("The key was copied to the clipboard.");
  } catch {
    // No clipboard here (e.g. not a secure context): select the key for a manual copy.
    setKeyShown(true);
    $("account-key").focus();
    $("account-key", HTMLInputElement).select();
    say("The browser did not allow copying: the key is selected, copy it with Ctrl+C (⌘C).");
  }
}

async function rotate() {
  const account = readAccount();
  if (!account || busy) return;
  const ok = await confirmDialog({
    title: "Replace your key?",
    text:
      "The server makes a new key and refuses the current one from then on, on every device " +
      "that uses it. The new key is kept in this browser. Games in progress go on.",
    confirm: "Replace the key",
  });
  if (!ok) return;
  setBusy(true);
  try {
    const rotated = await api.rotateKey(account.name, account.key);
    clearNotice();
    writeAccount({ name: rotated.name, key: rotated.key });
    showKey(rotated.key, true);
    // The old key works until the new one is first used (so that a lost answer strands
    // nobody): checking the new one here is that use, and the old one is refused from now on.
    await api.getOwnPlayer(rotated.key);
    say("A new key was made and kept in this browser; the old one no longer works.");
  } catch (error) {
    showError(error);
  } finally {
    setBusy(false);
  }
}

async function signOut() {
  const account = readAccount();
  if (!account) return;
  const ok = await confirmDialog({
    title: "Sign out?",
    text:
      `This browser forgets the key of ${account.name}. Without a copy of the key you can ` +
      "no longer play as this account (there is no password to recover it).",
    confirm: "Forget the key",
  });
  if (!ok) return;
  writeAccount(null);
  $("recovery-box").hidden = true;
  say(`Signed out: the key of ${account.name} was forgotten here.`);
  $("register-name").focus();
}

// ---------------------------------------------------------------- a player's page

/** @type {string | null} */
let shownPlayer = null;
/** @type {Schemas["PlayerGameOut"]["status"][]} */
const GAME_STATUSES = ["in_progress", "won", "lost"];

/** @param {number | null} value @param {number} [digits] */
function number(value, digits = 0) {
  return value === null ? "–" : value.toFixed(digits);
}

/** @param {Schemas["PlayerOut"]} player */
function fillStats(player) {
  const s = player.stats;
  /** @type {Record<string, string>} */
  const figures = {
    "stat-played": String(s.games_played),
    "stat-won": String(s.games_won),
    "stat-lost": String(s.games_lost),
    "stat-in-progress": String(s.games_in_progress),
    "stat-win-rate": percentText(s.win_rate),
    "stat-best": number(s.best_score),
    "stat-mean": number(s.mean_winning_score, 1),
    "stat-streak": String(s.current_streak),
    "stat-longest": String(s.longest_streak),
    "stat-races": String(s.races_played),
    "stat-races-won": String(s.races_won),
  };
  // The places default to 0 in the API's model (optional in its types): none is none.
  const { first = 0, second = 0, third = 0, played = 0 } = player.tournaments ?? {};
  figures["stat-tournaments"] = String(played);
  figures["stat-trophies"] =
    first + second + third === 0 ? "none yet" : `1st: ${first}, 2nd: ${second}, 3rd: ${third}`;
  for (const [id, text] of Object.entries(figures)) $(id).textContent = text;
  $("player-marked").hidden = !player.marked;
  $("player-since").textContent =
    `Registered ${player.created_at.slice(0, 10)}` +
    (s.last_played_at ? `; last played ${timeText(s.last_played_at)}.` : ".");
}

/** The player's daily challenge streaks: runs of consecutive UTC days on which they
 * finished the day's challenge, and won it (today not yet played breaks no run).
 * @param {Schemas["PlayerOut"]} player */
function fillStreaks(player) {
  const streak = player.challenge_streak;
  /** @param {number} n */
  const days = (n) => (n === 1 ? "1 day" : `${n} days`);
  const figures = {
    "streak-played": days(streak.played),
    "streak-won": days(streak.won),
    "streak-best-played": days(streak.best_played),
    "streak-best-won": days(streak.best_won),
  };
  for (const [id, text] of Object.entries(figures)) $(id).textContent = text;
}

/** The fair-play review's word on a won game, shown beside it: a badge and its meaning.
 * @type {Record<string, [string, string]>} */
const REVIEW_BADGES = {
  pending: ["being checked", "the fair-play review checks this win before it joins the public boards"],
  flagged: ["held", "held off the public boards: it followed the computer player's choices too closely"],
  confirmed: ["held", "kept off the public boards by a moderator after the fair-play review"],
  held: ["held", "off the public boards while this account is marked"],
  cleared: ["cleared", "cleared by a moderator: on the public boards"],
};

/** @param {Schemas["PlayerGameOut"]} game */
function gameRow(game) {
  const result = resultText(game.status, game.end_reason);
  const status = element("span", { textContent: result });
  if (game.assisted) {
    status.append(" ", element("span", { className: "badge", textContent: "assisted" }));
  }
  const review = REVIEW_BADGES[game.review ?? ""];
  if (review) {
    const badge = element("span", { className: "badge review-badge", textContent: review[0] });
    badge.title = review[1];
    status.append(" ", badge, element("span", { className: "visually-hidden", textContent: ` (${review[1]})` }));
  }
  if (game.challenge_date) {
    const daily = element("span", {
      className: "badge daily-badge",
      textContent: `daily challenge ${game.challenge_date}`,
    });
    status.append(" ", daily);
  }
  const open = element("a", {
    href: `#/games/${encodeURIComponent(game.id)}`,
    textContent: game.status === "in_progress" ? "Open" : "Replay",
  });
  const started = timeText(game.created_at);
  open.setAttribute("aria-label", `${open.textContent} the game started ${started}`);
  if (game.status === "in_progress" && readAccount()?.name === shownPlayer) {
    // The account's own game: play on with the key.
    open.addEventListener("click", (event) => {
      event.preventDefault();
      openAccountGame(game.id);
    });
  }
  const tr = tableRow([
    timeElement(game.created_at),
    status,
    game.score === null ? "–" : String(game.score),
    String(game.placements_count),
    open,
  ]);
  tr.dataset.gameId = game.id;
  return labelCells(tr, ["Started", "Result", "Score", "Placements", "Game"]);
}

const gamesPager = makePager(
  {
    table: "player-games-table",
    body: "player-games-body",
    empty: "player-games-empty",
    first: "player-games-first",
    previous: "player-games-previous",
    next: "player-games-next",
    page: "player-games-page",
  },
  async (cursor) => {
    // The games are on show (and read) only with their player's page.
    if (shownPlayer === null) throw new Error("a player's games were read without the player");
    const chosen = $("player-games-status", HTMLSelectElement).value; // "" for every game
    const status = GAME_STATUSES.find((known) => known === chosen) ?? null;
    const answer = await api.getPlayerGames(shownPlayer, { cursor, status });
    return { rows: answer.games.map(gameRow), next_cursor: answer.next_cursor };
  },
);

/** @param {Schemas["PlayerRaceOut"]} entry */
function raceRow(entry) {
  const open = element("a", {
    href: `#/races/${encodeURIComponent(entry.race_id)}`,
    textContent: entry.status === "finished" ? "Result" : "Open",
  });
  open.setAttribute("aria-label", `${open.textContent} of the race opened ${timeText(entry.created_at)}`);
  const place = entry.rank ? `${entry.rank} of ${entry.racers}` : entry.status === "finished" ? "–" : "racing";
  const tr = tableRow([timeElement(entry.created_at), String(entry.racers), place, open]);
  tr.dataset.raceId = entry.race_id;
  return labelCells(tr, ["Opened", "Racers", "Place", "Race"]);
}

/** @param {Schemas["PlayerTournamentOut"]} entry */
function tournamentRow(entry) {
  const open = element("a", {
    href: `#/tournaments/${encodeURIComponent(entry.id)}`,
    textContent: entry.name,
  });
  const place = element("span", { textContent: `${ordinal(entry.place)} of ${entry.entrants}` });
  if (entry.place !== null && entry.place <= 3) {
    place.append(" ", element("span", { className: "badge trophy", textContent: "trophy" }));
  }
  const tr = tableRow([timeElement(entry.ends_at), open, place, String(entry.score)]);
  tr.dataset.tournamentId = entry.id;
  if (entry.place !== null) tr.dataset.place = String(entry.place);
  return labelCells(tr, ["Ended", "Tournament", "Place", "Score"]);
}

/** The player's finished tournaments, latest first (left out, as the races are, if unread).
 * @param {string} name */
async function loadTournaments(name) {
  let answer;
  try {
    answer = await api.getPlayerTournaments(name);
  } catch {
    return;
  }
  if (shownPlayer !== name) return;
  $("player-tournaments-body").replaceChildren(...answer.tournaments.map(tournamentRow));
  $("player-tournaments-empty").hidden = answer.tournaments.length > 0;
  $("player-tournaments-table").hidden = answer.tournaments.length === 0;
  $("player-tournaments").hidden = false;
}

/** The player's races, newest first (the list left out, without a word, if unread: the
 * figures and games above are the page's business).
 * @param {string} name */
async function loadRaces(name) {
  let answer;
  try {
    answer = await api.getPlayerRaces(name);
  } catch {
    return;
  }
  if (shownPlayer !== name) return;
  $("player-races-body").replaceChildren(...answer.races.map(raceRow));
  $("player-races-empty").hidden = answer.races.length > 0;
  $("player-races-table").hidden = answer.races.length === 0;
  $("player-races").hidden = false;
}

/** The view became visible for player `name` (`#/players/{name}`).
 * @param {string} name */
export async function showPlayer(name) {
  const mark = noticeMark();
  shownPlayer = name;
  $("player-heading").textContent = `Player ${name}`;
  $("player-since").textContent = "Loading…";
  // Nothing of the player shown before stays on the page while this one is read.
  $("player-content").hidden = true;
  $("player-games-body").replaceChildren();
  $("player-races").hidden = true;
  $("player-tournaments").hidden = true;
  $("player-stats").setAttribute("aria-busy", "true");
  try {
    const player = await api.getPlayer(name);
    if (shownPlayer !== name) return;
    clearNotice(mark);
    $("player-heading").textContent = `Player ${player.name}`;
    fillStats(player);
    fillStreaks(player);
    $("player-content").hidden = false;
  } catch (error) {
    if (shownPlayer !== name) return;
    if (api.codeOf(error) === "player_not_found") {
      // A guest's name, most likely (guests have no page): said in place, not as an error;
      // the computer's and the guests' own names are nobody's account for another reason.
      const reserved = name.toLowerCase();
      $("player-since").textContent =
        reserved === "computer"
          ? "The computer is no player with an account: it plays in races only, and its " +
            "games are on the pages of those races."
          : reserved === GUEST_NAME
            ? `“${GUEST_NAME}” is every guest's name, and guests have no player page.`
            : `There is no account named ${name}: games under this name were played as a ` +
              "guest, and guests have no player page.";
      return;
    }
    $("player-since").textContent = "This player could not be read.";
    showError(error, { label: "Try again", run: () => showPlayer(name) });
    return;
  } finally {
    $("player-stats").removeAttribute("aria-busy");
  }
  gamesPager.reload(mark);
  loadRaces(name);
  loadTournaments(name);
}

/** Wire the account and player views; called once. */
export function installAccount() {
  checkNameField("register-name", "register-name-check");
  $("register-form").addEventListener("submit", register);
  $("existing-key-form").addEventListener("submit", useExistingKey);
  $("existing-key").addEventListener("input", () =>
    clearFieldProblem("existing-key", "existing-key-check"),
  );
  $("copy-key").addEventListener("click", copyKey);
  $("key-toggle").addEventListener("click", () => setKeyShown($("key-box").hidden));
  $("rotate-key").addEventListener("click", rotate);
  $("sign-out").addEventListener("click", signOut);
  $("copy-codes").addEventListener("click", copyCodes);
  $("new-codes").addEventListener("click", newCodes);
  $("add-passkey").addEventListener("click", addPasskey);
  $("passkey-sign-in").addEventListener("click", passkeySignIn);
  $("recovery-form").addEventListener("submit", recoverySignIn);
  if (passkeyBlocker()?.includes("by name")) {
    $("passkey-address-note").hidden = false;
    $("passkey-address-link", HTMLAnchorElement).href =
      `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}/#/account`;
  }
  $("player-games-status").addEventListener("change", () => gamesPager.reload());
  onAccountChange(renderAccount);
  renderAccount();
}

/** The account view became visible (`#/account`). */
export function showAccount() {
  renderAccount();
}
