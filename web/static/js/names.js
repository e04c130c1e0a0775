// @ts-check
// The rule for a player's name, as the server applies it: read from the API's own OpenAPI
// document (`GameCreate.player`: its pattern and lengths, api.core.names.NAME_PATTERN), never
// written here a second time. The page's name fields take it as they load, and say as the
// player types what is wrong with a name, in words.

import { $ } from "./dom.js";

/** @type {{pattern: RegExp, min: number, max: number} | null} */
let rule = null; // once the schema is read
/** @type {Promise<unknown> | null} */
let loading = null;
/** @type {(() => void)[]} */
const waiting = [];

/** Read the rule from `/openapi.json`, once; the fields wired before it came take it then.
 * (The document as JSON, not through the typed client: the rule is in its schemas.) */
export function loadNameRule() {
  if (!loading) {
    loading = fetch("/openapi.json", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((document) => {
        const field = document?.components?.schemas?.GameCreate?.properties?.player;
        if (!field?.pattern) return;
        rule = { pattern: new RegExp(field.pattern), min: field.minLength, max: field.maxLength };
        for (const wire of waiting.splice(0)) wire();
      })
      // Without the rule the server still checks every name, and says so in words (ui.js).
      .catch(() => null);
  }
  return loading;
}

/** What is wrong with `name`, in words, or "" (an empty name is the caller's concern). The
 * server says the rest of the rule when it answers: a name that is another's (409 name_taken:
 * in another case, a look-alike, or the same but for _ and -) or the computer's.
 * @param {string} name */
export function nameProblem(name) {
  if (rule === null || name === "") return "";
  const { pattern, min, max } = rule;
  if (name.length < min) return `A name has at least ${min} characters.`;
  if (name.length > max) return `A name has at most ${max} characters.`;
  if (pattern.test(name)) return "";
  // A character the rule takes beside a letter ("a" stands for any) is one a name may hold.
  const odd = [...new Set([...name].filter((c) => !pattern.test(`a${c}`)))];
  if (odd.length === 0) return "A name needs at least one letter, A to Z.";
  const shown = odd.map((c) => (c === " " ? "a space" : `“${c}”`)).join(", ");
  return `A name may hold only letters A to Z, digits, _ and -: not ${shown}.`;
}

/** Check the name field `inputId` as the player types, with its words in `messageId` (and
 * as the field's validity message, so that the form is not sent with a name the server
 * would refuse).
 * @param {string} inputId
 * @param {string} messageId */
export function checkNameField(inputId, messageId) {
  const input = $(inputId, HTMLInputElement);
  const message = $(messageId);
  const check = () => {
    const problem = nameProblem(input.value.trim());
    input.setCustomValidity(problem);
    input.setAttribute("aria-invalid", String(problem !== ""));
    message.textContent = problem;
    message.hidden = problem === "";
  };
  input.addEventListener("input", check);
  // No maxLength: a longer name is said to be too long, never cut short without a word.
  waiting.push(() => {
    if (input.value) check();
  });
  if (rule) waiting.splice(0).forEach((wire) => wire());
  return check;
}
