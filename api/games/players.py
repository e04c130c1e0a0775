"""Player accounts: names, secret keys, stats and the games page.

Names. An account's name is 3 to 24 ASCII letters, digits, ``_`` or ``-``, exactly as sent
(``422 invalid_player_name`` otherwise): ASCII is its own NFKC form, so a name in any other
form (full-width letters, other scripts, invisible or format characters such as U+200B or
U+00AD) is refused rather than silently rewritten, and the OpenAPI pattern is the whole rule.
ASCII only is deliberate: allowing other scripts would need confusable detection (Cyrillic
U+0430 looks like Latin ``a``) to keep look-alike accounts apart.

Names are compared by :func:`name_key`, the NFKC caseless form with format characters removed,
unique among accounts. Guests (games without a key) keep free-form names, but one whose key
equals an account's is refused (``409 name_taken``), so a name on the leaderboard that belongs
to an account is that account's. So is a guest name that only looks like an account's: with its
letters from other scripts replaced by the Latin letters Unicode lists them as confusable with
(UTS #39's confusables data, from the ``confusable_homoglyphs`` package), Cyrillic ``\u0430na``
is ``ana``.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import datetime

from confusable_homoglyphs import confusables
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.clock import now
from api.errors import (
    InvalidCursor,
    InvalidPlayerName,
    InvalidToken,
    MissingToken,
    NameTaken,
    PlayerNameMismatch,
    PlayerNotFound,
)
from api.games.credentials import (
    hash_token,
    new_player_key,
    player_key_matches,
    player_key_owner,
)
from api.games.cursors import open_cursor, seal_cursor
from api.store import repository
from api.store.repository import (
    Executor,
    PlayerGameRecord,
    PlayerGamesKey,
    PlayerRecord,
    PlayerStatsRecord,
)

ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_-]{3,24}", re.ASCII)
# Guests play as "anonymous" by default: nobody may own it.
RESERVED_NAMES = frozenset({"anonymous"})
GAME_STATUSES = ("in_progress", "won", "lost")
_CURSOR_KIND = "player_games"


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, case-folded, NFKC again (Unicode's caseless
    identifier matching), without format characters (zero-width spaces, soft hyphens, bidi
    marks) and surrounding spaces.

    >>> name_key("\\uff21\\uff2e\\u00adA")
    'ana'
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def account_name(raw: str) -> str:
    """The name an account is registered under, or ``422 invalid_player_name``."""
    if ACCOUNT_NAME.fullmatch(raw) is None:
        normal = unicodedata.normalize("NFKC", raw)
        hint = (
            f" (write it as {normal!r})"
            if normal != raw and ACCOUNT_NAME.fullmatch(normal) is not None
            else ""
        )
        raise InvalidPlayerName(
            f"{raw[:64]!r} is not a valid player name: a name is 3 to 24 ASCII letters, "
            f"digits, '_' or '-'{hint}"
        )
    return raw


@dataclass(frozen=True)
class Registered:
    player: PlayerRecord
    key: str  # shown once


@dataclass(frozen=True)
class Identity:
    """Who a new game is for: an account (``player_id``) or a guest."""

    name: str
    player_id: uuid.UUID | None


def register(session: Session, raw_name: str) -> Registered:
    name = account_name(raw_name)
    key_of_name = name_key(name)
    if key_of_name in RESERVED_NAMES or repository.name_key_taken(session, key_of_name):
        raise NameTaken(f"the name {name!r} is taken")
    player_id = uuid.uuid4()
    key = new_player_key(player_id)
    player = PlayerRecord(player_id, name, key_of_name, hash_token(key), now())
    try:
        repository.insert_player(session, player)
    except IntegrityError:  # registered by a concurrent request since the check
        raise NameTaken(f"the name {name!r} is taken") from None
    return Registered(player, key)


def find_player(session: Executor, name: str) -> PlayerRecord:
    """The account of a name (in any case or width), or 404."""
    key = name_key(name)
    # A name no account can have is not looked up at all.
    player = (
        None
        if ACCOUNT_NAME.fullmatch(key) is None
        else repository.get_player_by_name_key(session, key)
    )
    if player is None:
        raise PlayerNotFound(f"there is no player {name[:64]!r}")
    return player


def authenticate(session: Executor, key: str) -> PlayerRecord:
    """The account whose current key this is, or ``403 invalid_token``."""
    owner = player_key_owner(key)
    player = None if owner is None else repository.get_player(session, owner)
    if player is None or not player_key_matches(key, player.id, player.key_hash):
        raise InvalidToken("this key is not a player's current key")
    return player


def rotate_key(session: Session, name: str, key: str | None) -> Registered:
    """Give a player a new key; the old one is refused from the moment this commits."""
    player = find_player(session, name)
    if key is None:
        raise MissingToken("send the player's current key as 'Authorization: Bearer <key>'")
    if not player_key_matches(key, player.id, player.key_hash):
        raise InvalidToken("this key is not this player's current key")
    fresh = new_player_key(player.id)
    if not repository.replace_player_key_hash(
        session, player.id, player.key_hash, hash_token(fresh)
    ):
        raise InvalidToken("this key was replaced by a concurrent rotation")
    return Registered(player._replace(key_hash=hash_token(fresh)), fresh)


def latin_lookalike(key: str) -> str:
    """``key`` with each non-ASCII character that Unicode lists as confusable with ASCII
    letters or digits replaced by them (lower-cased), others kept.

    >>> latin_lookalike("\u0430n\u0430")  # Cyrillic a, Latin n, Cyrillic a
    'ana'
    """
    out: list[str] = []
    for char in key:
        found = not char.isascii() and confusables.is_confusable(char, preferred_aliases=["latin"])
        glyphs = [glyph["c"] for entry in found or () for glyph in entry["homoglyphs"]]
        latin = next((glyph for glyph in glyphs if glyph.isascii() and glyph.isalnum()), char)
        out.append(latin.lower())
    return "".join(out)


def check_guest_name(session: Executor, name: str) -> None:
    """``409 name_taken`` if a guest's name is an account's (in any case, width or with
    invisible characters), or looks like one (:func:`latin_lookalike`). Only names that fold
    to a possible account name cost a query."""
    key = name_key(name)
    if not key.isascii():
        key = latin_lookalike(key)
    if ACCOUNT_NAME.fullmatch(key) is None or key in RESERVED_NAMES:
        return
    if repository.name_key_taken(session, key):
        raise NameTaken(
            f"{name[:64]!r} is a registered player's name: send their key as "
            "'Authorization: Bearer <key>', or play under another name"
        )


def identify(session: Executor, key: str | None, requested: str | None) -> Identity:
    """Who a new game is for. With a player key: that account (a body ``player`` naming
    anybody else is ``422 player_name_mismatch``). Without: a guest of the requested name."""
    if key is None:
        name = requested if requested is not None else "anonymous"
        check_guest_name(session, name)
        return Identity(name, None)
    player = authenticate(session, key)
    if requested is not None and name_key(requested) != player.name_key:
        raise PlayerNameMismatch(
            f"the key belongs to {player.name!r}, not {requested[:64]!r}: omit 'player' or "
            "send the account's name"
        )
    return Identity(player.name, player.id)


@dataclass(frozen=True)
class Profile:
    player: PlayerRecord
    stats: PlayerStatsRecord


def profile(session: Executor, name: str) -> Profile:
    return _profile_of(session, find_player(session, name))


def own_profile(session: Executor, key: str | None) -> Profile:
    """The page of the key's account: ``401 missing_token`` without a key, ``403
    invalid_token`` for a key that is no player's current key."""
    if key is None:
        raise MissingToken("send your key as 'Authorization: Bearer <key>'")
    return _profile_of(session, authenticate(session, key))


def _profile_of(session: Executor, player: PlayerRecord) -> Profile:
    stats = repository.get_player_stats(session, player.id)
    assert stats is not None  # made with the player, removed only with it
    return Profile(player, stats)


def _encode_cursor(
    secret: bytes, player_id: uuid.UUID, status: str | None, key: PlayerGamesKey
) -> str:
    created_at, game_id = key
    return seal_cursor(
        secret, [_CURSOR_KIND, player_id.hex, status, created_at.isoformat(), game_id.hex]
    )


def _decode_cursor(
    secret: bytes, cursor: str, player_id: uuid.UUID, status: str | None
) -> PlayerGamesKey:
    invalid = InvalidCursor("not a cursor of this player's games listing; start again without one")
    fields = open_cursor(secret, cursor)
    if fields is None:
        raise invalid
    try:
        kind, player_hex, listing_status, created_at, game_hex = fields
        created = datetime.fromisoformat(created_at)
        game_id = uuid.UUID(hex=game_hex)
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise invalid from None
    if (
        kind != _CURSOR_KIND
        or player_hex != player_id.hex
        or listing_status != status
        or created.tzinfo is None
    ):
        raise invalid
    return created, game_id


@dataclass(frozen=True)
class GamesPage:
    player: PlayerRecord
    games: list[PlayerGameRecord]
    next_cursor: str | None


def games_page(
    session: Executor,
    secret: bytes,
    name: str,
    status: str | None,
    limit: int,
    cursor: str | None,
) -> GamesPage:
    """A page of a player's games, newest first, and the cursor of the next (None at the end)."""
    player = find_player(session, name)
    after = _decode_cursor(secret, cursor, player.id, status) if cursor else None
    rows = repository.player_games(session, player.id, status, after, limit + 1)
    next_cursor = None
    if len(rows) > limit:
        last = rows[limit - 1]
        next_cursor = _encode_cursor(secret, player.id, status, (last.created_at, last.id))
    return GamesPage(player, rows[:limit], next_cursor)
