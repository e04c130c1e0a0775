"""Who may play a game and who may read it: its token, or one of its player's keys."""

from __future__ import annotations

from api.accounts import InvalidToken, MissingToken
from api.core import days
from api.core.secrets import token_matches
from api.games.errors import ChallengeGamePrivate, RaceGamePrivate
from api.games.store import GameRecord


def authorize(row: GameRecord, token: str | None) -> None:
    """Check a request's bearer token: the game's token, or one of the keys of the account
    that plays it (both compared with stored hashes in constant time). The row must have
    been read with the same bearer (:func:`api.games.store.get_game`), which fetched the
    hashes of the key it names if that key is the game's player's."""
    if token is None:
        raise MissingToken(
            "send the game's token or its player's key as 'Authorization: Bearer <token>'"
        )
    if token_matches(token, row.token_hash):
        return
    if row.player_id is not None and any(
        key_hash is not None and token_matches(token, key_hash)
        # The key's current secret, or the one its last rotation replaced until the new one
        # is used (api.accounts.authenticate_key).
        for key_hash in (row.player_key_hash, row.player_previous_key_hash)
    ):
        return
    raise InvalidToken("this token does not authorise placements on this game")


def authorize_private_read(row: GameRecord, token: str | None) -> None:
    """A daily challenge game is its player's alone until its day closes: reading its piles
    or history needs the game's token or its player's key (else ``403
    challenge_game_private``), so that nobody can follow the day's deal over a player's
    shoulder and play it knowing the cards to come."""
    if not days.is_sealed(row.challenge_date, row.sealed):
        return
    try:
        authorize(row, token)
    except (MissingToken, InvalidToken):
        if row.sealed:
            raise RaceGamePrivate(
                "this game of a race or a tournament is visible to its player only until the "
                "race or the tournament ends; its player sends their racer or entrant token, "
                "or their key, as 'Authorization: Bearer <token>'"
            ) from None
        assert row.challenge_date is not None
        closes = days.closes_at(row.challenge_date).isoformat()
        raise ChallengeGamePrivate(
            f"this daily challenge game is visible to its player only until its day closes "
            f"({closes}); its player sends the game's token or their key as "
            "'Authorization: Bearer <token>'"
        ) from None
