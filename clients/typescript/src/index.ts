/**
 * A typed client for the Foursquare Server API: the types are generated from the service's
 * OpenAPI document (schema.ts, by openapi-typescript: run `bash clients/generate`, never edit
 * it), and openapi-fetch makes the requests, checking every path, parameter, body and answer
 * against them at compile time. Nothing else runs: openapi-fetch is a thin layer over fetch.
 */
import createClient, { type ClientOptions } from "openapi-fetch";

import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

type Schemas = components["schemas"];
export type Game = Schemas["GameOut"];
export type GameCreated = Schemas["GameCreated"];
export type Placement = Schemas["PlacementOut"];
export type Leaderboard = Schemas["Leaderboard"];
export type PlayerCreated = Schemas["PlayerCreated"];
export type Race = Schemas["RaceOut"];
export type RaceCreated = Schemas["RaceCreated"];
/** Every error: `application/problem+json` with a machine-readable `code`. */
export type Problem = Schemas["Problem"];

/** A client of the service at `baseUrl` (`http://127.0.0.1:8000`). It sends no credential of
 * its own: pass `headers: bearer(token)` on the requests that need one. */
export function createFoursquareClient(baseUrl: string, options: ClientOptions = {}) {
  return createClient<paths>({ ...options, baseUrl });
}

export type FoursquareClient = ReturnType<typeof createFoursquareClient>;

/** The `Authorization` header of a credential: a game's `token`, a player's `key` or a
 * racer's `racer_token`. */
export function bearer(credential: string): { Authorization: string } {
  return { Authorization: `Bearer ${credential}` };
}

/** The ETag of a game's version, for `If-Match` (a placement only on the game as it was seen)
 * and `If-None-Match`. A won game's own ETag also names its rank: use the `ETag` header of
 * its answer to revalidate it. */
export function versionTag(game: { version: number }): string {
  return `"v${game.version}"`;
}
