"""What the tournaments refuse with. A refused request changes nothing."""

from __future__ import annotations

from api.core.errors import ApiError, Example

_ID = "5d0c2b1e-8a7f-4c3b-9e2d-1f0a6b5c4d3e"
_AT = f"/tournaments/{_ID}"


class TournamentNotFound(ApiError):
    """No tournament has this id."""

    status, code, title = 404, "tournament_not_found", "Tournament not found"
    example = Example(f"no tournament has the id {_ID!r}", _AT)


class InvalidTournament(ApiError):
    """The tournament's times do not make one: it must end after it starts (and not have
    ended already)."""

    status, code, title = 422, "invalid_tournament", "Invalid tournament"
    example = Example("the tournament must end after it starts", "/tournaments")


class TournamentStarted(ApiError):
    """An operator edits or cancels a tournament only while it is announced (before its
    start)."""

    status, code, title = 409, "tournament_started", "Tournament started"
    example = Example("the tournament is running: it is edited only before its start", _AT)


class GuestsNotAllowed(ApiError):
    """This tournament is for accounts only: join with a player's key."""

    status, code, title = 403, "guests_not_allowed", "Guests not allowed"
    example = Example(
        "this tournament takes accounts only: register a name and join with its key",
        f"{_AT}/entrants",
    )


class TournamentFull(ApiError):
    """The tournament has as many entrants as its cap allows."""

    status, code, title = 409, "tournament_full", "Tournament full"
    example = Example("the tournament has its 64 entrants", f"{_AT}/entrants")


class TournamentNotOpen(ApiError):
    """The tournament takes no more entrants: it has ended, or was cancelled."""

    status, code, title = 409, "tournament_not_open", "Tournament not open"
    example = Example(
        "the tournament has ended: entrants join while it is announced or running",
        f"{_AT}/entrants",
    )


class AlreadyEntered(ApiError):
    """This account (or a guest of a name that looks like this one) is an entrant already."""

    status, code, title = 409, "already_entered", "Already entered"
    example = Example("'ana' is an entrant of this tournament already", f"{_AT}/entrants")


class TournamentNotRunning(ApiError):
    """Deals are dealt while the tournament runs: not before its start, nor after its end."""

    status, code, title = 409, "tournament_not_running", "Tournament not running"
    example = Example("the tournament starts at 2026-12-05T20:00:00Z", f"{_AT}/games")


class DealInProgress(ApiError):
    """The entrant's game of its current deal has not ended: finish it first."""

    status, code, title = 409, "deal_in_progress", "Deal in progress"
    example = Example("deal 2 is in progress: finish its game first", f"{_AT}/games")


class AllDealsPlayed(ApiError):
    """The entrant has played every deal of the tournament, each once."""

    status, code, title = 409, "all_deals_played", "All deals played"
    example = Example("all 5 deals are played: each deal is played once", f"{_AT}/games")


class NotAnEntrant(ApiError):
    """The credential sent is no entrant's of this tournament (an account's key, or a guest
    entrant's token)."""

    status, code, title = 403, "not_an_entrant", "Not an entrant"
    example = Example(
        "this credential is no entrant's of the tournament: join it first", f"{_AT}/games"
    )


class EntrantLeft(ApiError):
    """The entrant left the tournament: it plays no more deals (its standing stays)."""

    status, code, title = 409, "entrant_left", "Entrant left"
    example = Example("you left this tournament: you play no more of its deals", f"{_AT}/games")
