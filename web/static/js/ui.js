// The page's shared pieces: the error notice (a problem's title and detail, and the automatic
// retry after Retry-After) and a confirmation dialog.

import { onRetry } from "./api.js";
import { $, element } from "./dom.js";

let retryNoticeShown = false;

function fillNotice(problem) {
  $("notice-title").textContent = problem.title;
  $("notice-status").textContent = problem.status ? `(${problem.status})` : "";
  $("notice-detail").textContent = problem.detail;
  const list = $("notice-errors");
  list.replaceChildren();
  for (const error of problem.errors || []) {
    const where = Array.isArray(error.loc) ? error.loc.join(".") : "";
    const text = where ? `${where}: ${error.message}` : String(error.message);
    list.append(element("li", { textContent: text }));
  }
  list.hidden = list.children.length === 0;
  $("notice").hidden = false;
}

let noticeAction = null;

/** Show an error: an ApiProblem (title and detail), or any other error as "Unexpected error".
 * `action` ({label, run}) adds a button to the notice, e.g. "Try again". */
export function showError(error, action = null) {
  const problem =
    error && error.name === "ApiProblem"
      ? error
      : { title: "Unexpected error", detail: String(error?.message || error), status: 0 };
  retryNoticeShown = false;
  fillNotice(problem);
  $("notice").classList.remove("retrying");
  $("notice-retry").hidden = true;
  noticeAction = action;
  $("notice-action").hidden = !action;
  if (action) $("notice-action").textContent = action.label;
  if (!(error && error.name === "ApiProblem")) console.error(error);
}

export function clearNotice() {
  retryNoticeShown = false;
  noticeAction = null;
  $("notice").hidden = true;
}

/** Run an action, showing any error it throws; returns its result, or undefined on error. */
export async function guarded(action) {
  try {
    return await action();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

export function installNotice() {
  $("notice-dismiss").addEventListener("click", clearNotice);
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

/** Ask before doing something; resolves to true if the person confirmed. */
export function confirmDialog({ title, text, confirm }) {
  const dialog = $("confirm-dialog");
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
