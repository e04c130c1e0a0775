"""Request and response schemas (Pydantic v2), one per purpose."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)

from engine.grid import WINDOW_RADIUS

# Characters a player name may not hold: C0 and C1 controls, spaces other than U+0020,
# zero-width and bidirectional format characters, line and paragraph separators and the BOM.
# The rest of the name is free (letters of any script, emoji...). Lone surrogates cannot pass
# Pydantic's string validation at all.
_NAME_FORBIDDEN = (
    "\\x00-\\x1f\\x7f-\\xa0\\u1680\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff"
)
PLAYER_NAME_PATTERN = f"^ *[^ {_NAME_FORBIDDEN}][^{_NAME_FORBIDDEN}]*$"

SuitName = Literal["clubs", "diamonds", "hearts", "spades"]
StatusName = Literal["in_progress", "won", "lost"]
EndReasonName = Literal["too_many_face_down", "stock_exhausted", "abandoned"]


def _whole_number(value: object) -> object:
    """JSON Schema's ``integer`` admits ``1.0``; so do we (but not ``1.5``, ``"1"`` or ``true``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Coordinate = Annotated[
    int,
    Field(
        strict=True,
        ge=-WINDOW_RADIUS,
        le=WINDOW_RADIUS,
        description="Relative to the first pile at (0, 0); no placement can ever use more than 3.",
    ),
    BeforeValidator(_whole_number),
]

_CARD_EXAMPLE: dict[str, Any] = {"rank": 6, "suit": "diamonds", "code": "6D"}


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardOut(_Out):
    """A card. Suits never matter for the rules."""

    model_config = ConfigDict(json_schema_extra={"examples": [_CARD_EXAMPLE]})

    rank: int = Field(ge=1, le=10, description="1 (Ace) to 10.")
    suit: SuitName
    code: str = Field(description="Rank (A, 2..10) then suit (C, D, H, S).", examples=["6D"])


class PositionOut(_Out):
    """A place on the grid, relative to the first pile at (0, 0); rows grow downward."""

    row: int
    col: int


class PileOut(_Out):
    """A pile: its cards from bottom to top. Only the top card's face matters."""

    row: int
    col: int
    cards: list[CardOut] = Field(min_length=1, max_length=4)
    face_up: bool = Field(description="Whether the top card is face up.")


class FlipOut(_Out):
    """A pile whose top card was turned over by a placement, and the side it now shows."""

    row: int
    col: int
    face_up: bool


_GAME_EXAMPLE: dict[str, Any] = {
    "id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
    "player": "ana",
    "status": "in_progress",
    "end_reason": None,
    "score": None,
    "current_card": {"rank": 9, "suit": "hearts", "code": "9H"},
    "stock_count": 37,
    "face_down_count": 1,
    "placements_count": 2,
    "piles": [
        {
            "row": 0,
            "col": 0,
            "cards": [{"rank": 5, "suit": "clubs", "code": "5C"}],
            "face_up": False,
        },
        {
            "row": 0,
            "col": 1,
            "cards": [{"rank": 8, "suit": "clubs", "code": "8C"}],
            "face_up": True,
        },
    ],
    "legal_placements": [
        {"row": -1, "col": 0},
        {"row": -1, "col": 1},
        {"row": 0, "col": -1},
        {"row": 0, "col": 0},
        {"row": 0, "col": 1},
        {"row": 0, "col": 2},
        {"row": 1, "col": 0},
        {"row": 1, "col": 1},
    ],
    "version": 3,
    "assisted": False,
    "deck_commitment": "5d41c2a1f0b7e3d9a8c6b4e2f1d0c9b8a7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2",
    "reveal": None,
    "created_at": "2026-11-29T16:20:00.000000Z",
    "updated_at": "2026-11-29T16:20:09.000000Z",
    "finished_at": None,
    "challenge_date": None,
}


class DeckReveal(_Out):
    """The deck order and the salt, revealed when the game ends.

    Check: ``sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest() == deck_commitment``.
    """

    deck: list[str] = Field(
        min_length=40, max_length=40, description="Card codes, first drawn first."
    )
    salt: str


class GameOut(_Out):
    """A game as anyone may see it: everything but the order of the stock."""

    model_config = ConfigDict(json_schema_extra={"examples": [_GAME_EXAMPLE]})

    id: uuid.UUID
    player: str
    status: StatusName
    end_reason: EndReasonName | None = Field(
        description="Why the game was lost (abandoned: left untouched too long, see "
        "`foursquare expire`); null otherwise."
    )
    score: int | None = Field(description="Cards left in the stock when won; null until won.")
    current_card: CardOut | None = Field(
        description="The card drawn and waiting to be placed; null once the game is over."
    )
    stock_count: int = Field(description="Cards still in the stock, not counting the current card.")
    face_down_count: int = Field(description="Piles whose top card is face down (5 loses).")
    placements_count: int
    piles: list[PileOut] = Field(description="Sorted by row, then column.")
    legal_placements: list[PositionOut] = Field(
        description="Where the current card may go, sorted by row then column; empty when over."
    )
    version: int = Field(
        description="Bumped by every change (placements, the first hint); the ETag is built on it."
    )
    assisted: bool = Field(description="Whether the player asked for a hint in this game.")
    deck_commitment: str = Field(
        description="SHA-256 of the salt and the deck order, fixed when the game was dealt."
    )
    reveal: DeckReveal | None = Field(
        description="The deck order and the salt, once the game is over; null before. A daily "
        "challenge game shows them only once its day has closed (the deal is everybody's)."
    )
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    challenge_date: date | None = Field(
        description="The UTC day whose daily challenge this game is (see `GET "
        "/challenges/{date}`); null for an ordinary game."
    )
    rank: int | None = Field(
        default=None,
        description="A won game's all-time rank on `/leaderboard` (for an assisted game, on "
        "the listing with `include_assisted=true`); null otherwise. It moves as better games "
        "finish: a won game's ETag includes it.",
    )


class GameCreated(GameOut):
    """A new game, with the secret token that authorises placements on it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    **_GAME_EXAMPLE,
                    "token": "Vx3lM2k0b1Q9t7l0cG9rZXIta2VlcC1pdC1zZWNyZXQ",
                }
            ]
        }
    )

    token: str = Field(
        description="Send as `Authorization: Bearer <token>` to place cards. Shown only once."
    )


class GameCreate(_In):
    """Who is playing. The body may be omitted altogether."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "ana"}]})

    player: Annotated[
        str,
        StringConstraints(min_length=1, max_length=32, pattern=PLAYER_NAME_PATTERN),
        AfterValidator(str.strip),
    ] = Field(
        default="anonymous",
        description=(
            "1 to 32 characters, at least one of them not a space; no control, format or "
            "separator characters and no spaces but U+0020. Leading and trailing spaces are "
            "trimmed. A registered player's name (in any case or width) needs their key "
            "(`409 name_taken` without it); with a key, omit it or give the key's name."
        ),
    )
    challenge: Literal["daily"] | None = Field(
        default=None,
        description="`daily`: play today's daily challenge, the deal every player gets today "
        "(needs a player's key; one attempt per player per UTC day). Omitted: a fresh deal.",
    )


class PlacementIn(_In):
    """Where to put the current card."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"row": 1, "col": -1}]})

    row: Coordinate
    col: Coordinate


class PlacementOut(_Out):
    """One placement: the card played, where, what it flipped and the status after it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "number": 2,
                    "row": 0,
                    "col": 1,
                    "card": {"rank": 8, "suit": "clubs", "code": "8C"},
                    "flipped": [{"row": 0, "col": 0, "face_up": False}],
                    "status_after": "in_progress",
                    "created_at": "2026-11-29T16:20:09.000000Z",
                }
            ]
        }
    )

    number: int = Field(description="1 for the first placement of the game.")
    row: int
    col: int
    card: CardOut
    flipped: list[FlipOut] = Field(description="Sorted by row, then column.")
    status_after: StatusName
    created_at: datetime


class PlacementCreated(_Out):
    """The placement just made and the game after it."""

    placement: PlacementOut
    game: GameOut


class PlacementHistory(_Out):
    """Every placement of a game, in order (at most 40)."""

    game_id: uuid.UUID
    placements: list[PlacementOut] = Field(max_length=40)


class LeaderboardEntry(_Out):
    rank: int = Field(description="Position on the board: 1 is the best score, earliest finish.")
    player: str
    score: int
    game_id: uuid.UUID
    finished_at: datetime
    assisted: bool = Field(description="The player asked for hints in this game.")


PeriodName = Literal["all", "day", "week"]


# A board's window, the last fields of a page of it (after the entries, as a reader looks for
# them): aliases rather than a base class, whose fields Pydantic would list first.
Period = Annotated[
    PeriodName | None,
    Field(
        description="`all`, `day` (a UTC calendar day) or `week` (an ISO week, Monday to "
        "Sunday, UTC); null on a daily challenge's board."
    ),
]
StartsOn = Annotated[date | None, Field(description="The window's first day; null for `all`.")]
EndsOn = Annotated[
    date | None, Field(description="The window's last day (inclusive); null for `all`.")
]
PerPlayer = Annotated[
    Literal["best"] | None,
    Field(
        description="`best`: each player's best game only (ties to the earlier finish); "
        "null: every won game."
    ),
]


class Leaderboard(_Out):
    """One page of won games, best score first, earlier finish first on ties."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "entries": [
                        {
                            "rank": 1,
                            "player": "ana",
                            "score": 21,
                            "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "finished_at": "2026-11-29T16:31:02.000000Z",
                            "assisted": False,
                        }
                    ],
                    "next_cursor": "eyJzIjotMjEsImYiOiIyMDI2LTExLTI5VDE2OjMxOjAyIn0",
                    "period": "week",
                    "starts_on": "2026-11-23",
                    "ends_on": "2026-11-29",
                    "per_player": None,
                }
            ]
        }
    )

    entries: list[LeaderboardEntry]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    period: Period = None
    starts_on: StartsOn = None
    ends_on: EndsOn = None
    per_player: PerPlayer = None


class Around(_Out):
    """A won game's place on a board: its rank and the entries just above and below it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "rank": 42,
                    "size": 1203,
                    "entries": [
                        {
                            "rank": 41,
                            "player": "bob",
                            "score": 15,
                            "game_id": "5f0c1e9a-8d7b-4c2e-a1f3-9b8e7d6c5a40",
                            "finished_at": "2026-11-29T09:12:40.000000Z",
                            "assisted": False,
                        },
                        {
                            "rank": 42,
                            "player": "ana",
                            "score": 15,
                            "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "finished_at": "2026-11-29T16:31:02.000000Z",
                            "assisted": False,
                        },
                        {
                            "rank": 43,
                            "player": "cy",
                            "score": 14,
                            "game_id": "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e00",
                            "finished_at": "2026-11-28T20:05:11.000000Z",
                            "assisted": False,
                        },
                    ],
                    "period": "all",
                    "starts_on": None,
                    "ends_on": None,
                    "per_player": None,
                }
            ]
        }
    )

    game_id: uuid.UUID
    rank: int = Field(description="The game's rank on this board.")
    size: int = Field(
        description="How many entries the board has (so the game is `rank` of `size`)."
    )
    entries: list[LeaderboardEntry] = Field(
        description="Up to `count` entries above the game, the game, and up to `count` below, "
        "in board order."
    )
    period: Period = None
    starts_on: StartsOn = None
    ends_on: EndsOn = None
    per_player: PerPlayer = None


class HintOption(_Out):
    """A legal placement and what the computer player expects of it."""

    placement: PositionOut
    win_probability: float = Field(ge=0, le=1, description="Estimated chance to win from here.")
    expected_score: float = Field(
        ge=0, description="Estimated score, counting a loss as 0 (so at most 24 x win chance)."
    )


class Hint(_Out):
    """The computer player's advice for the current card, from the public state only."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "placement": {"row": 0, "col": 1},
                    "win_probability": 0.97,
                    "expected_score": 14.2,
                    "alternatives": [
                        {
                            "placement": {"row": 1, "col": 0},
                            "win_probability": 0.95,
                            "expected_score": 13.1,
                        }
                    ],
                    "policy": "best",
                    "simulated_placements": 11840,
                }
            ]
        }
    )

    placement: PositionOut = Field(description="Where the computer player would put the card.")
    win_probability: float = Field(ge=0, le=1)
    expected_score: float = Field(ge=0)
    alternatives: list[HintOption] = Field(
        max_length=64, description="Every other legal placement, best first."
    )
    policy: str = Field(description="The computer player that answered.")
    simulated_placements: int = Field(description="The effort spent on this hint.")


class Health(_Out):
    status: Literal["ok"]


class Readiness(_Out):
    status: Literal["ready"]
    database: str = Field(description="The database backend: sqlite or postgresql.")


class FieldError(_Out):
    loc: list[str] = Field(description="Where the error is, e.g. ['body', 'row'].")
    message: str
    type: str


class Problem(_Out):
    """An error, as RFC 9457 problem details, with a machine-readable ``code``."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "urn:foursquare:problem:not_adjacent",
                    "title": "Illegal placement",
                    "status": 422,
                    "detail": "(2, 0) is not adjacent to any pile",
                    "code": "not_adjacent",
                    "instance": "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/placements",
                    "request_id": "4f6c2b1e9a8d4c7b8e5f3a2d1c0b9a87",
                }
            ]
        }
    )

    type: str
    title: str
    status: int
    detail: str
    code: str = Field(description="Stable and machine-readable, e.g. `not_adjacent`.")
    instance: str | None = None
    errors: list[FieldError] | None = Field(
        default=None, description="For `invalid_request`: every offending field."
    )
    current_version: int | None = Field(
        default=None, description="For `precondition_failed`: the game's version now."
    )
    request_id: str | None = Field(
        default=None,
        description="The request's id, as in the `X-Request-ID` response header and the "
        "server's log line (a replayed idempotent response keeps its first request's id).",
    )
    game_id: uuid.UUID | None = Field(
        default=None,
        description="For `challenge_already_played`: the player's game of that day's challenge.",
    )


# ---------------------------------------------------------------- players

_PLAYER_EXAMPLE: dict[str, Any] = {
    "name": "ana",
    "created_at": "2026-11-29T16:00:00.000000Z",
    "stats": {
        "games_played": 12,
        "games_won": 7,
        "games_lost": 4,
        "games_in_progress": 1,
        "win_rate": 0.6364,
        "best_score": 21,
        "mean_winning_score": 9.857142857142858,
        "current_streak": 2,
        "longest_streak": 4,
        "last_played_at": "2026-11-30T09:12:44.000000Z",
    },
}
_PLAYER_KEY_EXAMPLE = (
    "fsp.3f0c2d8e9b7a4c1d8e2f0a1b2c3d4e5f.Vx3lM2k0b1Q9t7l0cG9rZXIta2VlcC1pdC1zZWNyZXQ"
)


class PlayerCreate(_In):
    """The name to register."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ana"}]})

    # The pattern is documented (and fuzzed) but checked by the service, which answers a name
    # outside it with its own code, invalid_player_name, rather than invalid_request.
    name: Annotated[
        str,
        WithJsonSchema(
            {"type": "string", "pattern": "^[A-Za-z0-9_-]{3,24}$", "minLength": 3, "maxLength": 24}
        ),
    ] = Field(
        description=(
            "3 to 24 ASCII letters, digits, `_` or `-`, unique ignoring case (and width: once "
            "`ana` is registered, no guest can play as `ANA` or in full-width letters). Else "
            "`422 invalid_player_name` or `409 name_taken`."
        ),
    )


class PlayerStatsOut(_Out):
    """A player's all-time figures, updated in the transaction that starts or ends a game."""

    games_played: int = Field(description="Games started, whatever their status.")
    games_won: int
    games_lost: int
    games_in_progress: int
    win_rate: float | None = Field(description="Won / (won + lost); null before a game ended.")
    best_score: int | None = Field(description="Best winning score; null before a win.")
    mean_winning_score: float | None = Field(description="Mean score of won games.")
    current_streak: int = Field(description="Games won since the last loss.")
    longest_streak: int = Field(description="Most games won in a row.")
    last_played_at: datetime | None = Field(
        description="When one of their games last started or ended."
    )


class PlayerOut(_Out):
    """A player's page."""

    model_config = ConfigDict(json_schema_extra={"examples": [_PLAYER_EXAMPLE]})

    name: str
    created_at: datetime
    stats: PlayerStatsOut


class PlayerKey(_Out):
    """A player's new secret key (shown only in this response)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"name": "ana", "key": _PLAYER_KEY_EXAMPLE}]}
    )

    name: str
    key: str = Field(
        description="Send as `Authorization: Bearer <key>` to start games as this player, to "
        "place cards and ask hints in them, and to rotate the key. Shown only once."
    )


class PlayerCreated(PlayerOut):
    """A new player and their secret key (shown only in this response)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{**_PLAYER_EXAMPLE, "key": _PLAYER_KEY_EXAMPLE}]}
    )

    key: str = Field(
        description="Send as `Authorization: Bearer <key>` to start games as this player, to "
        "place cards and ask hints in them, and to rotate the key. Shown only once."
    )


class PlayerGameOut(_Out):
    """One of a player's games, in short (the whole game is at `/games/{id}`)."""

    id: uuid.UUID
    status: StatusName
    end_reason: EndReasonName | None
    score: int | None
    placements_count: int
    assisted: bool
    created_at: datetime
    finished_at: datetime | None
    challenge_date: date | None = Field(
        description="The UTC day whose daily challenge this game is; null for an ordinary game."
    )


class PlayerGames(_Out):
    """A page of a player's games, newest first."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "player": "ana",
                    "games": [
                        {
                            "id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "status": "won",
                            "end_reason": None,
                            "score": 12,
                            "placements_count": 28,
                            "assisted": False,
                            "created_at": "2026-11-30T09:10:00.000000Z",
                            "finished_at": "2026-11-30T09:12:44.000000Z",
                        }
                    ],
                    "next_cursor": None,
                }
            ]
        }
    )

    player: str
    games: list[PlayerGameOut]
    next_cursor: str | None = Field(
        description="Pass as `cursor` (with the same `status`) for the next page; null at the end."
    )


# ---------------------------------------------------------------- the daily challenge

Day = date  # (a field named ``date`` cannot be annotated with the name it shadows)


class DailyChallenge(_Out):
    """One UTC day's challenge: one deal for every player, committed to before anyone plays."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "date": "2026-12-01",
                    "deck_commitment": _GAME_EXAMPLE["deck_commitment"],
                    "played": 12,
                    "won": 5,
                    "opens_at": "2026-12-01T00:00:00Z",
                    "closes_at": "2026-12-02T00:00:00Z",
                    "closed": False,
                    "reveal": None,
                }
            ]
        }
    )

    date: Day
    deck_commitment: str = Field(
        description="SHA-256 of the day's salt and deck order (the recipe of a game's "
        "`deck_commitment`); every challenge game of the day carries it."
    )
    played: int = Field(description="Challenge games started this day (one per player).")
    won: int = Field(description="Of those, the games won.")
    your_game_id: uuid.UUID | None = Field(
        default=None,
        description="Asked with a player's key (`Authorization: Bearer <key>`): the id of "
        "their challenge game of this day if they have started it, else null; null without "
        "a key.",
    )
    opens_at: datetime = Field(description="00:00 UTC of the day.")
    closes_at: datetime = Field(
        description="00:00 UTC the next day: from then on the deal is revealed and the day's "
        "games take no more placements."
    )
    closed: bool
    reveal: DeckReveal | None = Field(
        description="The day's deck order and salt, once the day has closed; null before."
    )


# ---------------------------------------------------------------- game analysis

AnalysisState = Literal["queued", "running", "done", "failed"]
LabelName = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class AnalysisEstimate(_Out):
    """A placement and what the computer player expected of it, from the public view."""

    placement: PositionOut
    win_probability: float = Field(ge=0, le=1)
    expected_score: float = Field(ge=0, description="A loss counted as 0.")


class PlacementAnalysis(_Out):
    """One placement, judged from what the player could see at that moment."""

    number: int = Field(ge=1, description="1 for the first placement.")
    card: CardOut
    played: AnalysisEstimate = Field(description="The placement made, as estimated.")
    best: AnalysisEstimate = Field(description="The computer player's choice.")
    legal_placements: int = Field(ge=1)
    forced: bool = Field(description="Only one legal placement: left out of the accuracy.")
    win_probability_loss: float = Field(
        ge=0, le=1, description="`best` minus `played` win probability, never below 0."
    )
    expected_score_loss: float = Field(
        ge=0, description="`best` minus `played` expected score, never below 0."
    )
    label: LabelName = Field(
        description="`best` (the computer player's choice), else by the win-probability loss: "
        "`good` < 0.01 <= `inaccuracy` < 0.03 <= `mistake` < 0.10 <= `blunder`."
    )
    accuracy: float = Field(ge=0, le=100, description="lichess's formula on the win-% loss.")


class HindsightOptimum(_Out):
    """The best score of the deal with the whole deck order known, and a line reaching it."""

    score: int | None = Field(description="The best score found; null if no win was found.")
    proven: bool = Field(description="True when the search proved `score` optimal.")
    upper_bound: int | None = Field(description="No line scores more than this.")
    line: list[PositionOut] = Field(max_length=40, description="Placements reaching `score`.")


class AnalysisResult(_Out):
    """A finished game's analysis."""

    status: StatusName
    score: int | None
    accuracy: float | None = Field(
        ge=0,
        le=100,
        description="Mean accuracy of the placements that had a choice; null if none had.",
    )
    labels: dict[LabelName, int] = Field(description="How many placements got each label.")
    effort: int | None = Field(
        description="Simulated placements the computer player spent on each placement."
    )
    placements: list[PlacementAnalysis] = Field(max_length=40)
    optimum: HindsightOptimum | None = Field(
        default=None, description="The hindsight optimum of the deal (null if not computed)."
    )


class AnalysisProgress(_Out):
    reviewed: int = Field(ge=0, description="Placements reviewed so far.")
    total: int = Field(ge=0, description="Placements to review.")


class AnalysisOut(_Out):
    """An analysis: its state and progress, and its result once `done`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "state": "running",
                    "progress": {"reviewed": 12, "total": 28},
                    "requested_at": "2026-12-01T09:12:45.000000Z",
                    "started_at": "2026-12-01T09:12:45.200000Z",
                    "finished_at": None,
                    "error": None,
                    "result": None,
                }
            ]
        }
    )

    game_id: uuid.UUID
    state: AnalysisState = Field(
        description="`queued`, `running` (202 while either), `done` (with `result`) or "
        "`failed` (with `error`; POST again to retry)."
    )
    progress: AnalysisProgress
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    result: AnalysisResult | None
