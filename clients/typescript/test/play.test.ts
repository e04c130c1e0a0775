// The client against a real server (FOURSQUARE_URL): tests/clients/test_typescript_client.py
// starts one, builds this with tsc and runs it with node's test runner.
import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { test } from "node:test";

import {
  bearer,
  createFoursquareClient,
  versionTag,
  type FoursquareClient,
  type Game,
  type GameCreated,
} from "../src/index.js";

const baseUrl = process.env.FOURSQUARE_URL;
if (!baseUrl) throw new Error("FOURSQUARE_URL names the server to play against");
const client = createFoursquareClient(baseUrl);

/** Places each card on a legal cell until the game ends, with the credential given, each
 * placement under If-Match (the version seen) and an Idempotency-Key, sent twice: the retry
 * replays the first answer. */
async function play(api: FoursquareClient, credential: string, start: Game | GameCreated) {
  let game: Game | GameCreated = start;
  while (game.status === "in_progress") {
    const cell = game.legal_placements[randomInt(game.legal_placements.length)];
    assert.ok(cell);
    const request = {
      params: {
        path: { game_id: game.id },
        header: { "if-match": versionTag(game), "idempotency-key": randomUUID() },
      },
      body: { row: cell.row, col: cell.col },
      headers: bearer(credential),
    };
    const sent = await api.POST("/games/{game_id}/placements", request);
    const again = await api.POST("/games/{game_id}/placements", request);
    assert.equal(sent.response.status, 201, JSON.stringify(sent.error));
    assert.equal(again.response.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(again.data, sent.data);
    assert.ok(sent.data);
    assert.equal(sent.data.placement.number, game.placements_count + 1);
    game = sent.data.game;
  }
  return game;
}

test("a whole game: created, played to its end, read with its history", async () => {
  const created = await client.POST("/games", { body: { player: "guest-ts" } });
  assert.equal(created.response.status, 201);
  assert.ok(created.data);
  assert.equal(created.response.headers.get("location"), `/games/${created.data.id}`);
  assert.equal(created.data.stock_count, 39);

  const game = await play(client, created.data.token, created.data);
  assert.ok(game.status === "won" || game.status === "lost");

  const read = await client.GET("/games/{game_id}", { params: { path: { game_id: game.id } } });
  assert.equal(read.data?.status, game.status);
  assert.ok(read.data?.reveal, "a finished game reveals its deck");
  const history = await client.GET("/games/{game_id}/placements", {
    params: { path: { game_id: game.id } },
  });
  assert.deepEqual(
    history.data?.placements.map((placement) => placement.number),
    Array.from({ length: game.placements_count }, (_, index) => index + 1),
  );

  // A finished game takes no more cards: a problem+json error with its code.
  const refused = await client.POST("/games/{game_id}/placements", {
    params: { path: { game_id: game.id } },
    body: { row: 0, col: 0 },
    headers: bearer(created.data.token),
  });
  assert.equal(refused.response.status, 409);
  assert.equal(refused.response.headers.get("content-type"), "application/problem+json");
  assert.equal(refused.error?.code, "game_over");
});

test("the leaderboard lists won games, best first", async () => {
  const board = await client.GET("/leaderboard", { params: { query: { limit: 100 } } });
  assert.equal(board.response.status, 200);
  assert.ok(board.data);
  const scores = board.data.entries.map((entry) => entry.score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  const wrong = await client.GET("/leaderboard", { params: { query: { limit: 0 } } });
  assert.equal(wrong.error?.code, "invalid_request");
});

test("an account plays with its key, and opens a race with the computer", async () => {
  const name = `ts-${randomInt(1_000_000)}`;
  const account = await client.POST("/players", { body: { name } });
  assert.equal(account.response.status, 201);
  assert.ok(account.data);
  const key = account.data.key;
  const me = await client.GET("/players/me", { headers: bearer(key) });
  assert.equal(me.data?.name, name);

  const created = await client.POST("/games", { body: null, headers: bearer(key) });
  assert.ok(created.data);
  const game = await play(client, key, created.data);
  assert.equal(game.player, name);
  const games = await client.GET("/players/{name}/games", { params: { path: { name } } });
  assert.deepEqual(
    games.data?.games.map((listed) => [listed.id, listed.status]),
    [[game.id, game.status]],
  );

  const opened = await client.POST("/races", {
    body: { computer: true, seats: 2, time_limit: 60 },
    headers: bearer(key),
  });
  assert.equal(opened.response.status, 201);
  assert.ok(opened.data);
  assert.deepEqual(
    opened.data.racers.map((racer) => racer.name),
    [name, "computer"],
  );
  const race = await client.GET("/races/{race_id}", {
    params: { path: { race_id: opened.data.id } },
    headers: bearer(key),
  });
  assert.equal(race.data?.you, 1);
  assert.ok(race.data?.status === "countdown" || race.data?.status === "running");
  const seen = await client.GET("/races/{race_id}", {
    params: { path: { race_id: opened.data.id } },
  });
  assert.equal(seen.data?.you, null);
});
