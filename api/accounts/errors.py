"""What identity refuses with: a missing or wrong credential, a name taken or reserved, an
unknown player, and an account's credentials (its keys, recovery codes and passkeys)."""

from __future__ import annotations

from api.core.errors import ApiError, Example


class PlayerNotFound(ApiError):
    """No player of that name (in any case or width)."""

    status, code, title = 404, "player_not_found", "Player not found"
    example = Example("there is no player 'bob'", "/players/bob")


class KeyNotFound(ApiError):
    """The player has no key (or passkey) of that id: revoked already, or never theirs."""

    status, code, title = 404, "key_not_found", "Key not found"
    example = Example(
        "ana has no key '5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f'",
        "/players/ana/keys/5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f",
    )


class LastKey(ApiError):
    """Revoking this key would leave the account without any: create another first (on
    another device, or by a passkey or a recovery code). Nothing was changed."""

    status, code, title = 409, "last_key", "Last key"
    example = Example(
        "this is ana's only key: revoking it would lose the account; create another first",
        "/players/ana/keys/5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f",
    )


class InvalidRecoveryCode(ApiError):
    """The code is not one of the player's unspent recovery codes (a spent code is refused
    too). Failed attempts are limited per account and per address."""

    status, code, title = 403, "invalid_recovery_code", "Invalid recovery code"
    example = Example("this is not one of ana's unspent recovery codes", "/sign-in/recovery-code")


class PasskeyRefused(ApiError):
    """The passkey's answer was not accepted: no passkey of this service by that id, an
    expired or already answered challenge, or a signature, origin or relying party that does
    not match. Failed sign-ins are limited per account and per address."""

    status, code, title = 403, "passkey_refused", "Passkey refused"
    example = Example(
        "this passkey's answer is not valid for this sign-in: start again", "/sign-in/passkey"
    )


class MissingToken(ApiError):
    """No `Authorization: Bearer <token>` header (the game's token, or the player's key)."""

    status, code, title = 401, "missing_token", "Missing token"
    example = Example("send your key as 'Authorization: Bearer <key>'", "/players/me")
    answer_headers = ("WWW-Authenticate",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class InvalidToken(ApiError):
    """The bearer is neither the game's token nor the current key of the player concerned."""

    status, code, title = 403, "invalid_token", "Invalid token"
    example = Example("this key is not a player's current key", "/players/me")


class NameTaken(ApiError):
    """The name is a registered player's, or one name with it: the same in another case, a
    look-alike (`aIice`, `a1ice` for `alice`), or the same but for `_` and `-` (`alice_`,
    `a-l-i-c-e`) (`name_taken`). Or it is, or is one name with, a name nobody may take
    (`name_reserved`): `computer`, the computer player's, as an account or a guest's name, and
    `anonymous`, the guests' default, as an account's."""

    status, code, title = 409, "name_taken", "Name taken"
    example = Example("the name 'ana' is taken", "/players")

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        # Every route that may refuse a name as taken may refuse it as reserved: the codes are
        # declared together (api.core.openapi) wherever a route declares this error.
        return (NameTaken.code, NameReserved.code)


class NameReserved(NameTaken):
    """The name is, or is one name with, `computer` (the computer player's: nobody else plays
    under it) or, for an account, `anonymous` (every guest's). No key makes it usable."""

    code, title = "name_reserved", "Name reserved"
    example = Example("'C0mputer' is the computer player's name: choose another", "/players")

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        return (cls.code,)


class PlayerNameMismatch(ApiError):
    """A `player` other than the name of the key's account."""

    status, code, title = 422, "player_name_mismatch", "Player name mismatch"
    example = Example(
        "the key belongs to 'ana', not 'bob': omit 'player' or send the account's name",
        "/games",
    )
