"""The accounts' credential use cases as the players' routes run them: one unit of work per
request (:mod:`api.accounts.credentials` has each use case, in the caller's transaction)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from api.accounts import credentials as cases
from api.accounts.credentials import Ceremony, Credentials, NewKey, Relying
from api.accounts.store import PasskeyListed
from api.core.database import Database


class AccountService:
    """A player's keys, recovery codes and passkeys; each method one unit of work."""

    def __init__(
        self,
        database: Database,
        passkey_rp_id: str = "localhost",
        passkey_origins: Sequence[str] = (),
    ) -> None:
        self.database = database
        self.passkey_rp_id = passkey_rp_id
        self.passkey_origins = list(passkey_origins)

    def relying(self, host: str | None) -> Relying:
        """Who passkeys are for. Without configured origins, the embedded default's: the page
        at http://<rp id> on the port this request reached (``host``, its Host header)."""
        if self.passkey_origins:
            return Relying(self.passkey_rp_id, self.passkey_origins)
        hostname, _, port = (host or "").rpartition(":")
        if not hostname or not port.isdigit():
            port = ""
        suffix = f":{port}" if port else ""
        return Relying(self.passkey_rp_id, [f"http://{self.passkey_rp_id}{suffix}"])

    async def credentials(self, name: str, key: str | None) -> Credentials:
        return await self.database.read(lambda session: cases.credentials(session, name, key))

    async def create_key(self, name: str, key: str | None, key_name: str) -> NewKey:
        return await self.database.write(
            lambda session: cases.create_key(session, name, key, key_name)
        )

    async def revoke_key(self, name: str, key: str | None, key_id: uuid.UUID) -> None:
        await self.database.write(lambda session: cases.revoke_key(session, name, key, key_id))

    async def new_recovery_codes(self, name: str, key: str | None) -> list[str]:
        return await self.database.write(
            lambda session: cases.new_recovery_codes(session, name, key)
        )

    async def recover(self, name: str, code: str, key_name: str) -> NewKey:
        return await self.database.write(
            lambda session: cases.recover(session, name, code, key_name)
        )

    async def passkey_options(self, name: str, key: str | None, rp: Relying) -> Ceremony:
        return await self.database.write(
            lambda session: cases.passkey_options(session, name, key, rp)
        )

    async def register_passkey(
        self,
        name: str,
        key: str | None,
        challenge_id: uuid.UUID,
        credential: dict[str, Any],
        passkey_name: str,
        rp: Relying,
    ) -> PasskeyListed:
        return await self.database.write(
            lambda session: cases.register_passkey(
                session, name, key, challenge_id, credential, passkey_name, rp
            )
        )

    async def revoke_passkey(self, name: str, key: str | None, passkey_id: uuid.UUID) -> None:
        await self.database.write(
            lambda session: cases.revoke_passkey(session, name, key, passkey_id)
        )

    async def sign_in_options(self, rp: Relying) -> Ceremony:
        return await self.database.write(lambda session: cases.sign_in_options(session, rp))

    async def passkey_sign_in(
        self,
        challenge_id: uuid.UUID,
        credential: dict[str, Any],
        key_name: str,
        rp: Relying,
    ) -> NewKey:
        return await self.database.write(
            lambda session: cases.passkey_sign_in(session, challenge_id, credential, key_name, rp)
        )
