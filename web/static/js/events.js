// @ts-check
// The service's server-sent events, read with the browser's EventSource: a game's placements
// as they are stored (`/games/{id}/events`) and the site's news (`/events`: wins, new bests,
// the daily challenge's counts).
//
// A stream belongs to the view that opened it: every navigation closes them all
// (`closeStreams`, called by the router), so a page left behind keeps no connection open.
// EventSource reconnects by itself after a dropped connection, and then sends the id of the
// last event it received (Last-Event-ID): the server answers what was missed, so nothing is
// read twice. A stream that the server ends for good (`end` of a game) is closed here, or the
// browser would open it again.

/** @typedef {import("./api.js").Schemas} Schemas */

// Each stream's events by name, and the model of each one's data: what the OpenAPI document
// says of the stream (the `itemSchema` of its text/event-stream answer, which the generated
// types leave out; tests/web/test_types.py checks that these say the same).
/**
 * @typedef {{placement: Schemas["PlacementOut"], end: Schemas["GameEndEvent"],
 *   reconnect: Schemas["ReconnectEvent"]}} GameEvents
 * @typedef {{win: Schemas["WinEvent"], best: Schemas["BestEvent"],
 *   challenge: Schemas["ChallengeEvent"], game: Schemas["GameListedEvent"],
 *   reconnect: Schemas["ReconnectEvent"]}} SiteEvents
 * @typedef {{joined: Schemas["RacerEvent"], left: Schemas["RacerEvent"],
 *   countdown: Schemas["CountdownEvent"], started: Schemas["CountdownEvent"],
 *   progress: Schemas["RacerEvent"], finished: Schemas["RacerEvent"],
 *   result: Schemas["RaceResultEvent"], rematch: Schemas["RematchEvent"],
 *   closed: Schemas["RaceClosedEvent"]}} RaceEvents
 * @typedef {{announced: Schemas["TimesEvent"], joined: Schemas["EntryEvent"],
 *   left: Schemas["EntryEvent"], started: Schemas["TimesEvent"],
 *   deal_finished: Schemas["DealFinishedEvent"], standings: Schemas["StandingsEvent"],
 *   ended: Schemas["EndedEvent"], final: Schemas["FinalEvent"],
 *   cancelled: Schemas["CancelledEvent"]}} TournamentEvents
 * @typedef {{opened: Schemas["OpenRaceOut"], changed: Schemas["OpenRaceOut"],
 *   closed: Schemas["OpenRaceClosed"]}} OpenRaceEvents
 */

/**
 * A stream's URL, typed by its events (`gameEventsUrl`, `SITE_EVENTS_URL`, `raceEventsUrl`,
 * `OPEN_RACES_EVENTS_URL`):
 * `openStream` takes its handlers' data types from it.
 * @template {object} M
 * @typedef {string & {readonly events?: M}} EventsUrl
 */

/**
 * What a view does with a stream's events: a function of each event's data, by its name.
 * @template {object} M
 * @typedef {{[K in keyof M]?: (data: M[K], event: MessageEvent<string>) => void}} Handlers
 */

/** @typedef {{close(): void}} Stream */
/** @typedef {"open" | "reconnecting" | "stopped"} StreamState */

/** @type {Set<Stream>} */
const open = new Set();
let generation = 0;

/** The current navigation: a view captures it when it starts loading, and a stream it opens
 * later is refused if the person has navigated away since. */
export function currentGeneration() {
  return generation;
}

/** Close every stream (a navigation): what the next view needs, it opens. */
export function closeStreams() {
  generation += 1;
  for (const stream of open) stream.close();
  open.clear();
}

/**
 * Open `url` as an EventSource: `handlers` maps event names to functions of the event's
 * parsed JSON data (and the event itself); `onState(state)` hears "open", "reconnecting" and
 * "stopped" (the browser gave up: the server refused the stream, e.g. too many open). Returns
 * {close()}, or null if the view that asked is no longer shown (`gen` is stale).
 * @template {object} M
 * @param {EventsUrl<M>} url
 * @param {NoInfer<Handlers<M>>} handlers
 * @param {{gen?: number, onState?: (state: StreamState) => void}} [options]
 * @returns {Stream | null}
 */
export function openStream(url, handlers, { gen = generation, onState = () => {} } = {}) {
  if (gen !== generation) return null;
  const source = new EventSource(url);
  /** @type {Stream} */
  const stream = {
    close() {
      source.close();
      open.delete(stream);
    },
  };
  for (const [name, handler] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => {
      // An event named by the server: a MessageEvent, its data one line of JSON.
      const message = /** @type {MessageEvent<string>} */ (event);
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return; // not this client's to understand; the next event may be
      }
      handler(data, message);
    });
  }
  source.addEventListener("open", () => onState("open"));
  source.addEventListener("error", () => {
    // CONNECTING: the browser retries by itself (with Last-Event-ID); CLOSED: it gave up.
    if (source.readyState === EventSource.CLOSED) {
      open.delete(stream);
      onState("stopped");
    } else {
      onState("reconnecting");
    }
  });
  open.add(stream);
  return stream;
}

/** The game's stream: `/games/{id}/events`.
 * @param {string} id
 * @returns {EventsUrl<GameEvents>} */
export function gameEventsUrl(id) {
  return `/games/${encodeURIComponent(id)}/events`;
}

/** The race's stream: `/races/{id}/events`.
 * @param {string} id
 * @returns {EventsUrl<RaceEvents>} */
export function raceEventsUrl(id) {
  return `/races/${encodeURIComponent(id)}/events`;
}

/** The tournament's stream: `/tournaments/{id}/events`.
 * @param {string} id
 * @returns {EventsUrl<TournamentEvents>} */
export function tournamentEventsUrl(id) {
  return `/tournaments/${encodeURIComponent(id)}/events`;
}
/** The open races' stream: `/races/open/events`.
 * @type {EventsUrl<OpenRaceEvents>} */
export const OPEN_RACES_EVENTS_URL = "/races/open/events";

/** The site's stream: `/events`.
 * @type {EventsUrl<SiteEvents>} */
export const SITE_EVENTS_URL = "/events";
