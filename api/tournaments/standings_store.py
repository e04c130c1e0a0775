"""The SQL of the tournaments' standings: a page of them is a range of the index
``ix_tournament_entrants_standing`` from a key (:func:`_page_after`), and a rank is one more
than how many are strictly ahead (:func:`_ahead`), equal score, cards and finish sharing one;
and a player's places. Apart from :mod:`api.tournaments.store` (the same tables, the same
rules) only so that neither module is too long to read.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, and_, bindparam, false, func, or_, select

from api.core.database import Executor
from api.tournaments.store import ENTRANT_ROW, STANDING_ORDER, Standing, StandingKey
from api.tournaments.tables import tournament_entrants as _entrants
from api.tournaments.tables import tournaments as _tournaments

# ---------------------------------------------------------------- standings


def key_of(entrant: Standing) -> StandingKey:
    return entrant.score, entrant.cards, entrant.finished_at, entrant.number


def _page_after(finished: bool) -> Any:
    """The statement of a page after a key (bound: ``tournament``, ``score``, ``cards``,
    ``finished``, ``number``, ``limit``), built once rather than per request: one for keys
    with a finish and one for keys without (none finished sorts last). ``score <= the
    key's`` (implied by the rest) said on its own is the index range the page starts from."""
    c = _entrants.c
    score = bindparam("score", type_=c.score.type)
    cards = bindparam("cards", type_=c.cards.type)
    number = bindparam("number", type_=c.number.type)
    if finished:
        at = bindparam("finished", type_=c.finished_at.type)
        later: ColumnElement[bool] = or_(c.finished_at > at, c.finished_at.is_(None))
        same: ColumnElement[bool] = c.finished_at == at
    else:
        later, same = false(), c.finished_at.is_(None)
    after = or_(
        c.score < score,
        and_(
            c.score == score,
            or_(c.cards < cards, and_(c.cards == cards, or_(later, and_(same, c.number > number)))),
        ),
    )
    tournament = bindparam("tournament", type_=c.tournament_id.type)
    statement = ENTRANT_ROW.where(c.tournament_id == tournament, c.score <= score, after)
    return statement.order_by(*STANDING_ORDER).limit(bindparam("limit", type_=Integer()))


_PAGE_AFTER = {finished: _page_after(finished) for finished in (True, False)}


def _ahead(key: StandingKey, *, strictly: bool) -> ColumnElement[bool]:
    """The entrants ahead of ``key``: ``strictly`` (a better score, cards or finish: what a
    rank counts), or anywhere before it in the order (the entrant's number too)."""
    score, cards, finished, number = key
    c = _entrants.c
    sooner: ColumnElement[bool] = (
        c.finished_at.is_not(None) if finished is None else c.finished_at < finished
    )
    same = c.finished_at.is_(None) if finished is None else c.finished_at == finished
    tie = and_(same, c.number < number) if not strictly else false()
    return or_(
        c.score > score,
        and_(c.score == score, or_(c.cards > cards, and_(c.cards == cards, or_(sooner, tie)))),
    )


def count_ahead(
    session: Executor, tournament_id: uuid.UUID, key: StandingKey, *, strictly: bool
) -> int:
    return counts_ahead(session, tournament_id, key)[0 if strictly else 1]


def counts_ahead(session: Executor, tournament_id: uuid.UUID, key: StandingKey) -> tuple[int, int]:
    """The entrants strictly ahead of ``key`` and those before it in the order, in one count;
    ``score >= key's`` (implied by _ahead) said on its own is the index range to count."""
    c = _entrants.c
    strictly = func.count().filter(_ahead(key, strictly=True))
    where = (c.tournament_id == tournament_id, c.score >= key[0], _ahead(key, strictly=False))
    ahead, before = session.execute(select(strictly, func.count()).where(*where)).one()
    return int(ahead), int(before)


def standings(
    session: Executor,
    tournament_id: uuid.UUID,
    *,
    after: StandingKey | None = None,
    limit: int,
) -> list[Standing]:
    """A page of the standings: from the top, or after the key ``after``."""
    if after is None:
        statement = ENTRANT_ROW.where(_entrants.c.tournament_id == tournament_id)
        rows = session.execute(statement.order_by(*STANDING_ORDER).limit(limit))
    else:
        score, cards, finished, number = after
        values = {
            "tournament": tournament_id,
            "score": score,
            "cards": cards,
            "finished": finished,
            "number": number,
            "limit": limit,
        }
        rows = session.execute(_PAGE_AFTER[finished is not None], values)
    return [Standing._make(row) for row in rows]


def standings_from(
    session: Executor, tournament_id: uuid.UUID, key: StandingKey, *, limit: int
) -> list[Standing]:
    """A page of the standings from the entrant of ``key`` (it included): the entrants after
    the key one before it in its tie (numbers are whole, so ``number - 1`` is just before)."""
    score, cards, finished, number = key
    return standings(
        session, tournament_id, after=(score, cards, finished, number - 1), limit=limit
    )


def standings_before(
    session: Executor, tournament_id: uuid.UUID, key: StandingKey, *, limit: int
) -> list[Standing]:
    """The ``limit`` entrants just before ``key`` in the standings, in the standings' order:
    the index read backwards from the key, as a page is read forwards (no OFFSET)."""
    c = _entrants.c
    backwards = (c.score.asc(), c.cards.asc(), c.finished_at.desc().nulls_first(), c.number.desc())
    statement = ENTRANT_ROW.where(
        c.tournament_id == tournament_id, c.score >= key[0], _ahead(key, strictly=False)
    )
    rows = session.execute(statement.order_by(*backwards).limit(limit))
    return [Standing._make(row) for row in rows][::-1]


def winners(session: Executor, tournament_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[Any]]:
    """The first three of each finished tournament: (place, name), in order."""
    c = _entrants.c
    statement = (
        select(c.tournament_id, c.place, c.name)
        .where(c.tournament_id.in_(tournament_ids), c.place <= 3)
        .order_by(c.tournament_id, c.place, c.number)
    )
    found: dict[uuid.UUID, list[Any]] = {each: [] for each in tournament_ids}
    for tournament_id, place, name in session.execute(statement):
        if len(found[tournament_id]) < 3:
            found[tournament_id].append((place, name))
    return found


# ---------------------------------------------------------------- a player's tournaments


def tournament_places(session: Executor, player_id: uuid.UUID) -> dict[str, int]:
    """How many finished tournaments the player took part in (played a deal of), and how many
    they finished first, second and third (by ``ix_tournament_entrants_player_id``)."""
    c = _entrants.c
    statement = (
        select(
            func.count(),
            func.count().filter(c.place == 1),
            func.count().filter(c.place == 2),
            func.count().filter(c.place == 3),
        )
        .join(_tournaments, _tournaments.c.id == c.tournament_id)
        .where(
            c.player_id == player_id,
            _tournaments.c.status == "finished",
            c.place.is_not(None),
        )
    )
    played, first, second, third = session.execute(statement).one()
    return {"first": first, "second": second, "third": third, "played": played}


def player_tournaments(
    session: Executor,
    player_id: uuid.UUID,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> list[dict[str, Any]]:
    """A player's finished tournaments, the latest end first: id, name, ends_at, place,
    entrants and score."""
    t, c = _tournaments.c, _entrants.c
    statement = (
        select(t.id, t.name, t.ends_at, c.place, t.entrants, c.score)
        .join(_entrants, c.tournament_id == t.id)
        .where(c.player_id == player_id, t.status == "finished", c.place.is_not(None))
    )
    if after is not None:
        statement = statement.where(
            or_(t.ends_at < after[0], and_(t.ends_at == after[0], t.id > after[1]))
        )
    statement = statement.order_by(t.ends_at.desc(), t.id).limit(limit)
    return [dict(row) for row in session.execute(statement).mappings()]
