"""An account's credentials beside its keys (:class:`api.core.models.PlayerKeyRow`): its
recovery codes, its passkeys and their ceremonies' challenges (api.players.credentials), on
:mod:`api.core.models`' one metadata; a module of their own so that neither grows past a
reader's page (``api.core.models`` imports this one, so that its metadata has every table)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column

from api.core.models import Base, UTCDateTime


class RecoveryCodeRow(Base):
    """A player's unspent one-time recovery codes, each stored only as its SHA-256 (the codes
    are random: a fast hash is enough, as for keys). Spending one deletes its row."""

    __tablename__ = "player_recovery_codes"

    player_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PasskeyRow(Base):
    """A player's passkey (a WebAuthn credential): its id (public, what the browser names it
    by), its public key (COSE) and signature counter. Nothing here is secret."""

    __tablename__ = "player_passkeys"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    player_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)  # base64url
    public_key: Mapped[str] = mapped_column(Text)  # base64url of the COSE key
    sign_count: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PasskeyChallengeRow(Base):
    """A WebAuthn ceremony's challenge, kept server-side until it is answered (deleted then,
    whatever the outcome) or expires: for a registration, the player it is for."""

    __tablename__ = "passkey_challenges"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    challenge: Mapped[str] = mapped_column(String(128))  # base64url
    purpose: Mapped[str] = mapped_column(String(16))  # "register" or "sign_in"
    player_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE")
    )
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
