// @ts-check
// A form field's problem, said once and beside it: in the paragraph under the field (the one
// its aria-describedby names, which names.js also fills as a name is typed) and as its
// validity (aria-invalid, :invalid); never in the notice at the top of the page, nor in the
// browser's own pop-up (the forms that use this are sent with `novalidate` and checked here).
// The field's next change says it again or clears it (names.js's check, on every input).

import { ApiProblem } from "./api.js";
import { $ } from "./dom.js";
import { problemWords } from "./ui.js";

/** Show `text` beside the field `inputId` (in `messageId`) and focus the field.
 * @param {string} inputId
 * @param {string} messageId
 * @param {string} text */
export function showFieldProblem(inputId, messageId, text) {
  const input = $(inputId, HTMLInputElement);
  input.setCustomValidity(text);
  input.setAttribute("aria-invalid", "true");
  $(messageId).textContent = text;
  $(messageId).hidden = false;
  input.focus();
  $(messageId).scrollIntoView({ block: "nearest" }); // the words in view, under the field
}

/** Clear what was said beside the field (it changed): for fields names.js does not check.
 * @param {string} inputId
 * @param {string} messageId */
export function clearFieldProblem(inputId, messageId) {
  $(inputId, HTMLInputElement).setCustomValidity("");
  $(inputId).removeAttribute("aria-invalid");
  $(messageId).textContent = "";
  $(messageId).hidden = true;
}

/** Whether the field `inputId` holds what cannot be sent: a name that names.js refuses (too
 * long, a character outside the rule), a refusal still standing, or nothing in a required
 * field (`emptyText` then). If so, its words are shown beside it and it is focused.
 * @param {string} inputId
 * @param {string} messageId
 * @param {string} [emptyText] */
export function refusedField(inputId, messageId, emptyText = "") {
  const input = $(inputId, HTMLInputElement);
  const empty = input.value.trim() === "";
  const text = empty ? (input.required ? emptyText : "") : input.validationMessage;
  if (!text) return false;
  showFieldProblem(inputId, messageId, text);
  return true;
}

// The refusals of a name, said beside the name's field rather than at the top of the page: a
// name taken or reserved, or outside the rule (`invalid_player_name`, which every route that
// takes a name answers alike).
const NAME_CODES = new Set(["name_taken", "name_reserved", "invalid_player_name"]);

/** Say `error` beside the name field `inputId` if it is about the name sent (true), in the
 * words of `within` (ui.js's `problemWords`); false for any other error (the caller's).
 * @param {unknown} error
 * @param {string} inputId
 * @param {string} messageId
 * @param {string | null} [within] */
export function nameRefused(error, inputId, messageId, within = null) {
  if (!(error instanceof ApiProblem) || !NAME_CODES.has(error.code ?? "")) return false;
  const words = problemWords(error, within);
  showFieldProblem(inputId, messageId, `${words.title}. ${words.detail}`);
  return true;
}
