"""What the players' endpoints refuse with: an unknown player, and an account's credentials
(its keys, recovery codes and passkeys)."""

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
