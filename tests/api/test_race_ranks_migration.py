"""Migration 0021 ranks the races finished before it again, by the rule that rewards playing
on (a win before every loss, the higher score first; among losses the game that went further;
then the earlier end), on both databases: each racer's rank and the race's stored ``result``
event, so that the race's page, its stream and the players' figures agree. A race of one racer
is no race won, whatever its rank. Downgrading ranks them by the rule before, and gives back
the ``result`` events as the service wrote them."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from api.accounts import COMPUTER, Identity
from api.app import create_app
from api.core import migrate
from api.core.database import Database, create_database
from api.games import GameService
from api.games.dealing import deal, store_dealt
from api.players.service import register
from api.races.schemas import CountdownEvent, RaceResultEvent, RacerEvent, RematchEvent
from api.races.tables import race_events as EVENTS  # noqa: N812
from api.races.tables import race_racers as RACERS  # noqa: N812
from api.races.tables import races as RACES  # noqa: N812
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.games import place_in
from tests.api.test_races import events_of, lost_lines
from tests.integrity.players import winning_lines

T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)
REVISION = "0021_race_ranks"


class Racer(NamedTuple):
    name: str
    player_id: uuid.UUID | None
    computer: bool
    game_id: uuid.UUID
    old_rank: int  # as the service ranked it before 0021: the earlier end first


def play(
    database: Database,
    who: Identity,
    deck: list[str],
    cells: list[tuple[int, int]],
    at: datetime,
) -> uuid.UUID:
    """A game of ``deck`` played by ``who`` along ``cells``, over at ``at``."""
    with fake_clock.frozen(at), database.transaction() as session:
        game = store_dealt(session, deal(who, deck=deck))
        for cell in cells:
            place_in(session, game.id, game.token, cell)
    return game.id


def old_race(database: Database, racers: list[Racer], opened: datetime) -> uuid.UUID:
    """A finished race as the service stored it before 0021: its racers' ranks, and its rare
    events (the ``result`` with the racers in that ranking; a ``rematch``, with which its
    stream ends)."""
    race_id, rematch = uuid.uuid4(), uuid.uuid4()
    starts, ends = opened + timedelta(seconds=5), opened + timedelta(seconds=305)
    with database.transaction() as session:
        games = GameService.summaries(session, [racer.game_id for racer in racers])
        numbered = list(enumerate(racers, 1))

        def racer_event(number: int, racer: Racer, over: bool) -> RacerEvent:
            game = games[racer.game_id]
            return RacerEvent(
                racer=number,
                name=racer.name,
                registered=racer.player_id is not None,
                computer=racer.computer,
                state=game.status if over else "waiting",  # type: ignore[arg-type]
                placements=game.placements if over else 0,
                face_down=game.face_down if over else 0,
                cards_left=game.stock if over else 40,
                score=game.score if over else None,
                rank=racer.old_rank if over else None,
                game_id=racer.game_id if over else None,
            )

        ranked = sorted(numbered, key=lambda pair: pair[1].old_rank)
        result = RaceResultEvent(
            racers=[racer_event(number, racer, True) for number, racer in ranked],
            deck=["AC"] * 40,
            salt="0" * 32,
        )
        events: list[tuple[str, Any]] = [
            *(("joined", racer_event(number, racer, False)) for number, racer in numbered),
            ("countdown", CountdownEvent(starts_at=starts, ends_at=ends)),
            ("started", CountdownEvent(starts_at=starts, ends_at=ends)),
            ("result", result),
            ("rematch", RematchEvent(next_race=rematch)),
        ]
        connection = session.connection()
        race = {"seats": len(racers), "time_limit": 300, "deck_commitment": "0" * 64}
        connection.execute(
            insert(RACES),
            race
            | {"id": race_id, "status": "finished", "events": len(events)}
            | {"created_at": opened, "active_at": ends, "starts_at": starts, "ends_at": ends}
            | {"finished_at": ends, "next_race_id": rematch},
        )
        connection.execute(
            insert(RACES),
            race
            | {"id": rematch, "status": "lobby", "events": 0, "created_at": ends}
            | {"active_at": ends},
        )
        connection.execute(
            insert(RACERS),
            [
                {"race_id": race_id, "number": number, "name": racer.name}
                | {"player_id": racer.player_id, "computer": racer.computer}
                | {"game_id": racer.game_id, "rank": racer.old_rank}
                for number, racer in numbered
            ],
        )
        connection.execute(
            insert(EVENTS),
            [
                {"race_id": race_id, "number": number, "kind": kind}
                | {"data": data.model_dump_json()}
                for number, (kind, data) in enumerate(events, 1)
            ],
        )
    return race_id


def stored(url: str) -> tuple[dict[uuid.UUID, list[tuple[str, int]]], dict[uuid.UUID, str]]:
    """Each race's racers by rank as stored, and its ``result`` event's JSON."""
    database = create_database(Settings(database_url=url, migrate_on_start=False))
    try:
        with database.reading() as connection:
            rows = connection.execute(
                select(RACERS.c.race_id, RACERS.c.name, RACERS.c.rank).order_by(RACERS.c.rank)
            )
            ranks: dict[uuid.UUID, list[tuple[str, int]]] = {}
            for race_id, name, rank in rows:
                ranks.setdefault(race_id, []).append((name, rank))
            results = connection.execute(
                select(EVENTS.c.race_id, EVENTS.c.data).where(EVENTS.c.kind == "result")
            )
            return ranks, {race_id: data for race_id, data in results}
    finally:
        database.dispose()


def unranked(result: dict[str, Any]) -> dict[str, Any]:
    """A ``result`` event's data but for its racers' order and ranks."""
    racers = {r["racer"]: {k: v for k, v in r.items() if k != "rank"} for r in result["racers"]}
    return result | {"racers": racers}


def test_the_old_races_are_ranked_again_and_page_stream_and_figures_agree(
    database_url: str,
) -> None:
    line = winning_lines()[0]
    losses = lost_lines(line.deck)
    short, long = losses[0], losses[-1]
    assert short.placements < long.placements
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with database.transaction() as session:
            bob = Identity("bob", register(session, "bob").player.id)
            cyd = Identity("cyd", register(session, "cyd").player.id)
        minute = timedelta(minutes=1)

        def racer(who: Identity, cells: list[tuple[int, int]], end: int, old: int) -> Racer:
            game = play(database, who, line.deck, cells, T0 + end * minute)
            return Racer(who.name, who.player_id, who.computer, game, old)

        # Bob loses soon, the computer plays on and loses later: bob ranked first before.
        against_computer = old_race(
            database,
            [racer(bob, short.cells, 1, 1), racer(COMPUTER, long.cells, 5, 2)],
            T0,
        )
        # Ana wins last; cyd loses soon, bob later and further: cyd ranked second before.
        three = old_race(
            database,
            [
                racer(Identity("ana", None), line.positions, 13, 1),
                racer(bob, long.cells, 12, 3),
                racer(cyd, short.cells, 11, 2),
            ],
            T0 + 10 * minute,
        )
        # Bob alone (as no race starts today): first of one, which is no race won.
        alone = old_race(database, [racer(bob, short.cells, 21, 1)], T0 + 20 * minute)
    finally:
        database.dispose()
    old_ranks, old_results = stored(database_url)
    assert old_ranks[against_computer] == [("bob", 1), ("computer", 2)]
    assert old_ranks[three] == [("ana", 1), ("cyd", 2), ("bob", 3)]

    parent = ScriptDirectory.from_config(migrate.alembic_config(database_url)).get_revision(
        REVISION
    )
    assert parent is not None and isinstance(parent.down_revision, str)
    # Down (the rule before: nothing moves), then up: ranked again.
    migrate.downgrade(database_url, parent.down_revision)
    assert stored(database_url) == (old_ranks, old_results)
    migrate.upgrade(database_url, "head")

    new_ranks, new_results = stored(database_url)
    assert new_ranks[against_computer] == [("computer", 1), ("bob", 2)]
    assert new_ranks[three] == [("ana", 1), ("bob", 2), ("cyd", 3)]
    assert new_ranks[alone] == [("bob", 1)] and new_results[alone] == old_results[alone]

    settings = Settings(database_url=database_url, migrate_on_start=False)
    with TestClient(create_app(settings)) as client:
        for race_id in (against_computer, three, alone):
            page = client.get(f"/races/{race_id}").json()
            told = [(r["name"], r["rank"]) for r in page["racers"]]
            assert told == new_ranks[race_id]
            events = events_of(client.get(f"/races/{race_id}/events").text)
            result = next(data for _, kind, data in events if kind == "result")
            assert [(r["name"], r["rank"]) for r in result["racers"]] == told
            finished = {
                data["name"]: data["rank"] for _, kind, data in events if kind == "finished"
            }
            assert finished == dict(told)
            # But for its order and ranks, the result is as the service wrote it.
            assert unranked(result) == unranked(json.loads(old_results[race_id]))
        for name, played, won, ranks in (("bob", 3, 0, [1, 2, 2]), ("cyd", 1, 0, [3])):
            stats = client.get(f"/players/{name}").json()["stats"]
            races = client.get(f"/players/{name}/races").json()
            assert (stats["races_played"], stats["races_won"]) == (played, won)
            assert (races["races_played"], races["races_won"]) == (played, won)
            assert [r["rank"] for r in races["races"] if r["status"] == "finished"] == ranks

    # Down again: the earlier end first, and the result events as the service wrote them.
    migrate.downgrade(database_url, parent.down_revision)
    assert stored(database_url) == (old_ranks, old_results)
    migrate.upgrade(database_url, "head")
    assert stored(database_url) == (new_ranks, new_results)
