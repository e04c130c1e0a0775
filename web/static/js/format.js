// How the page writes times and figures, the one way everywhere: times ISO, in UTC, with the
// local time beside them; chances as whole percentages.

import { element } from "./dom.js";

/** "2026-11-29 16:31" from an ISO timestamp (UTC, as the API sends it). */
export function shortTime(iso) {
  return iso.replace("T", " ").slice(0, 16);
}

const pad = (n) => String(n).padStart(2, "0");

/** The local time of an ISO timestamp, "17:31", or "2026-11-30 01:31" on another day than
 * its UTC date; null where local time is UTC. */
export function localTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime()) || when.getTimezoneOffset() === 0) return null;
  const day = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
  const time = `${pad(when.getHours())}:${pad(when.getMinutes())}`;
  return day === iso.slice(0, 10) ? time : `${day} ${time}`;
}

/** "2026-11-29 16:31 UTC (17:31 local)": every time the page shows. */
export function timeText(iso) {
  const local = localTime(iso);
  return `${shortTime(iso)} UTC${local ? ` (${local} local)` : ""}`;
}

/** A <time> element for an ISO timestamp: UTC, and the local time beside it. */
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
 * (it is: by the fraction of a point the rounding hid, or by the score it keeps). */
export function percentText(probability) {
  if (probability === null) return "–";
  if (probability > 0.99 && probability < 1) return "> 99 %";
  if (probability > 0 && probability < 0.01) return "< 1 %";
  return `${Math.round(probability * 100)} %`;
}
