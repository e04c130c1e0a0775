"""The players' request and response models: accounts, keys, stats and games pages."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import ConfigDict, Field, StringConstraints

from api.core.names import NAME_RULE, PlayerName
from api.core.schemas import EndReasonName, RequestModel, ResponseModel, StatusName
from api.games import ReviewState

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
        "races_played": 3,
        "races_won": 1,
    },
    "tournaments": {"first": 1, "second": 0, "third": 2, "played": 5},
    "challenge_streak": {"played": 4, "won": 2, "best_played": 9, "best_won": 3},
}
_PLAYER_KEY_EXAMPLE = (
    "fsp.3f0c2d8e9b7a4c1d8e2f0a1b2c3d4e5f.Vx3lM2k0b1Q9t7l0cG9rZXIta2VlcC1pdC1zZWNyZXQ"
)


_CODES_EXAMPLE: list[Any] = [
    "7kq2-m9xd-4hbp-t3wz",
    "a8cv-2npr-kx5m-w7qe",
    "...",
]
_KEY_ID_EXAMPLE = "5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f"

KeyName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=64),
    Field(description="What the key is for, as the player will recognise it (a device)."),
]


class PlayerCreate(RequestModel):
    """The name to register."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ana"}]})

    name: PlayerName = Field(
        description=(
            f"{NAME_RULE}; one name with no other account's: not in another case, not a "
            "look-alike, not the same but for `_` and `-` (once `ana` is registered, nobody "
            "can register, or play as a guest under, `ANA`, `a-n-a` or `ana_`). Else "
            "`422 invalid_player_name`, `409 name_taken`, or `409 name_reserved` for "
            "`computer`, `anonymous` and names that are one name with them."
        ),
    )
    key_name: KeyName = "first key"


class PlayerStatsOut(ResponseModel):
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
    races_played: int = Field(description="Races finished (`GET /players/{name}/races`).")
    races_won: int = Field(
        description="Races finished first, against another racer at least (the ranking: "
        "`GET /races/{id}`)."
    )


class TrophiesOut(ResponseModel):
    """A player's tournament places: finished tournaments they played a deal of, and how
    many they finished first, second and third (`GET /players/{name}/tournaments`)."""

    first: int = 0
    second: int = 0
    third: int = 0
    played: int = 0


class ChallengeStreakOut(ResponseModel):
    """A player's daily challenge streaks: runs of consecutive UTC days on which they
    finished the day's challenge (`played`), and won it (`won`). A current run ends on the
    last such day and stands while that is today or yesterday: today not yet played breaks
    nothing."""

    played: int = Field(description="Consecutive days played, now.")
    won: int = Field(description="Consecutive days won, now.")
    best_played: int = Field(description="The longest run of days played.")
    best_won: int = Field(description="The longest run of days won.")


class PlayerOut(ResponseModel):
    """A player's page."""

    model_config = ConfigDict(json_schema_extra={"examples": [_PLAYER_EXAMPLE]})

    name: str
    created_at: datetime
    stats: PlayerStatsOut
    challenge_streak: ChallengeStreakOut = Field(
        description="Their daily challenge streaks, counted when the page is read."
    )
    marked: bool = Field(
        default=False,
        description="Marked by the fair-play review (several of its wins followed the "
        "computer player's choices too closely): all its games are off the public boards "
        "until a moderator clears it (docs/fairplay.md).",
    )
    tournaments: TrophiesOut = Field(
        default_factory=TrophiesOut,
        description="Tournament places (1st to 3rd are trophies) and tournaments played.",
    )


class PlayerKey(ResponseModel):
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
    """A new player, their secret key and their recovery codes (shown only in this
    response)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {**_PLAYER_EXAMPLE, "key": _PLAYER_KEY_EXAMPLE, "recovery_codes": _CODES_EXAMPLE}
            ]
        }
    )

    key: str = Field(
        description="Send as `Authorization: Bearer <key>` to start games as this player, to "
        "place cards and ask hints in them, and to rotate the key. Shown only once."
    )
    recovery_codes: list[str] = Field(
        description="Ten one-time codes: each gives a new key on a device that lost its own "
        "(`POST /sign-in/recovery-code`). Shown only once: keep them somewhere safe."
    )


class KeyOut(ResponseModel):
    """One of a player's keys (never the secret)."""

    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None = Field(
        description="When it last signed a request that changed something (to the hour); null "
        "if never."
    )
    this_key: bool = Field(description="Whether it is the key that signed this request.")


class PasskeyOut(ResponseModel):
    """One of a player's passkeys."""

    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None = Field(description="When it last signed in; null if never.")


class PlayerCredentials(ResponseModel):
    """A player's keys and passkeys, and how many recovery codes are left."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "player": "ana",
                    "keys": [
                        {
                            "id": _KEY_ID_EXAMPLE,
                            "name": "first key",
                            "created_at": "2026-11-29T16:00:00.000000Z",
                            "last_used_at": "2026-11-30T09:00:00.000000Z",
                            "this_key": True,
                        }
                    ],
                    "passkeys": [],
                    "recovery_codes_left": 10,
                }
            ]
        }
    )

    player: str
    keys: list[KeyOut]
    passkeys: list[PasskeyOut]
    recovery_codes_left: int


class KeyCreate(RequestModel):
    """A new key's name."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "phone"}]})

    name: KeyName


class NewKeyOut(ResponseModel):
    """A new key of a player (its secret shown only in this response)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "player": "ana",
                    "id": _KEY_ID_EXAMPLE,
                    "name": "phone",
                    "created_at": "2026-11-30T09:00:00.000000Z",
                    "key": _PLAYER_KEY_EXAMPLE,
                }
            ]
        }
    )

    player: str
    id: uuid.UUID
    name: str
    created_at: datetime
    key: str = Field(description="Send as `Authorization: Bearer <key>`. Shown only once.")


class RecoveryCodesOut(ResponseModel):
    """A player's new recovery codes (shown only in this response; the old ones are void)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"player": "ana", "recovery_codes": _CODES_EXAMPLE}]}
    )

    player: str
    recovery_codes: list[str]


class RecoveryCodeSignIn(RequestModel):
    """A recovery code of the named player, spent for a new key."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"name": "ana", "code": "7kq2-m9xd-4hbp-t3wz", "key_name": "laptop"}]
        }
    )

    name: str = Field(max_length=64)
    code: str = Field(max_length=64, description="Case, spaces and dashes do not matter.")
    key_name: KeyName = "recovered key"


class PasskeyCeremony(ResponseModel):
    """A passkey ceremony begun: pass `options` to `navigator.credentials.create()` (a
    registration) or `.get()` (a sign-in), and send the answer with `challenge_id` within five
    minutes."""

    challenge_id: uuid.UUID
    options: dict[str, Any] = Field(
        description="WebAuthn `PublicKeyCredentialCreationOptions` or "
        "`PublicKeyCredentialRequestOptions`, as JSON (binary fields in base64url)."
    )


class PasskeyRegistration(RequestModel):
    """A new passkey: the browser's answer to the registration options."""

    challenge_id: uuid.UUID
    credential: dict[str, Any] = Field(
        description="The `PublicKeyCredential` as JSON (`credential.toJSON()`)."
    )
    name: KeyName = "passkey"


class PasskeySignIn(RequestModel):
    """A passkey's answer to the sign-in options, and the name of the key it yields."""

    challenge_id: uuid.UUID
    credential: dict[str, Any] = Field(
        description="The `PublicKeyCredential` as JSON (`credential.toJSON()`)."
    )
    key_name: KeyName = "passkey sign-in"


class PlayerGameOut(ResponseModel):
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
    review: ReviewState | None = Field(
        default=None,
        description="The fair-play review's word on a won game without hints (as the game's "
        "`fair_play.status`): `pending` until checked, then on the boards (`clean`, "
        "`cleared`) or off them (`flagged`, `confirmed`, `held`). Null for other games.",
    )


class PlayerGames(ResponseModel):
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
