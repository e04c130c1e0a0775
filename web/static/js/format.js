// @ts-check
// How the page writes times and figures, the one way everywhere: times ISO, in UTC, with the
// local time beside them; chances as whole percentages where they are compared (an analysis),
// and in words where a player is told one (a hint).

import { element } from "./dom.js";

/** "2026-11-29 16:31" from an ISO timestamp (UTC, as the API sends it).
 * @param {string} iso */
export function shortTime(iso) {
  return iso.replace("T", " ").slice(0, 16);
}

/** @param {number} n */
const pad = (n) => String(n).padStart(2, "0");

/** The local time of an ISO timestamp, "17:31", or "2026-11-30 01:31" on another day than
 * its UTC date; null where local time is UTC.
 * @param {string} iso */
export function localTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime()) || when.getTimezoneOffset() === 0) return null;
  const day = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
  const time = `${pad(when.getHours())}:${pad(when.getMinutes())}`;
  return day === iso.slice(0, 10) ? time : `${day} ${time}`;
}

/** "2026-11-29 16:31 UTC (17:31 local)": every time the page shows.
 * @param {string} iso */
export function timeText(iso) {
  const local = localTime(iso);
  return `${shortTime(iso)} UTC${local ? ` (${local} local)` : ""}`;
}

/** A <time> element for an ISO timestamp: UTC, and the local time beside it.
 * @param {string} iso */
export function timeElement(iso) {
  const time = element("time", { dateTime: iso, textContent: `${shortTime(iso)} UTC` });
  const local = localTime(iso);
  if (local) {
    time.append(element("span", { className: "local-time", textContent: ` (${local} local)` }));
  }
  return time;
}

/** A probability (0 to 1) as a whole percentage, "37 %"; "–" for none. Only a certainty
 * reads "100 %" or "0 %": 0.996 is "> 99 %" and 0.004 "< 1 %", or an analysis would show a
 * placement at "100 %" beside the computer's "99 %" and call the computer's choice better
 * (it is: by the fraction of a point the rounding hid, or by the score it keeps).
 * @param {number | null} probability */
export function percentText(probability) {
  if (probability === null) return "–";
  if (probability > 0.99 && probability < 1) return "> 99 %";
  if (probability > 0 && probability < 0.01) return "< 1 %";
  return `${Math.round(probability * 100)} %`;
}

// The fractions a chance is said in: "about 1 in 3", "about 3 in 4".
/** @type {[number, number][]} */
const SAID = [[1, 20], [1, 10], [1, 5], [1, 4], [1, 3], [2, 5], [1, 2], [3, 5], [2, 3], [3, 4],
  [4, 5], [9, 10], [19, 20]];

/** A chance to win (0 to 1) as people say it: "a win is almost certain" from 97 %, "a win is
 * very unlikely" below 3 %, else the nearest of the fractions above: "about 3 in 4 to win",
 * "about an even chance to win". A hint's chance is an estimate: never "100 %" or "> 99 %".
 * @param {number} probability */
export function winChanceText(probability) {
  if (probability >= 0.97) return "a win is almost certain";
  if (probability < 0.03) return "a win is very unlikely";
  /** @param {[number, number]} said */
  const distance = ([n, d]) => Math.abs(n / d - probability);
  const [n, d] = SAID.reduce((best, said) => (distance(said) < distance(best) ? said : best));
  return n * 2 === d ? "about an even chance to win" : `about ${n} in ${d} to win`;
}

/** A place in words, "1st", "2nd", "3rd", "4th", "11th", "21st"…; "–" for none (not ranked
 * yet).
 * @param {number | null | undefined} n */
export function ordinal(n) {
  if (n === null || n === undefined) return "–";
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return `${n}${suffix}`;
}
