"""Replays that carry a secret, and a rotated key kept until its successor is used.

- ``service_secrets`` row ``replay``: 256 random bits, used when
  ``FOURSQUARE_REPLAY_SECRET`` is unset. An ``Idempotency-Key`` answer that carries a secret
  (a game's token, a player's key, a racer's token) is stored encrypted with a key derived
  from it and from the request's own ``Idempotency-Key`` (api/idempotency/sealing.py), so
  every process on one database can replay what another stored, without configuration (like
  migration 0006's ``cursor``).
- ``idempotency_keys.response_sealed``: the stored body is that ciphertext, not JSON.
- ``players.previous_key_hash``: the hash of the key a rotation replaced, which keeps working
  until the new key is first used (then NULL): a rotation whose answer was lost never
  strands its account.

Answers stored before this revision with their secret masked by a stream of the
``Idempotency-Key`` alone are deleted: the code that read them is gone, and a replay of one
would hand back the masked value instead of the secret. A retry of one of those requests is
then served as a new request.

Downgrading drops the columns and the secret, and deletes the sealed answers (the code before
this revision would replay the ciphertext as the body).

Revision ID: 0020_replay_secrets
Revises: 0018_fair_play
Create Date: 2026-12-05
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_replay_secrets"
down_revision: str | None = "0018_fair_play"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_secrets = sa.table("service_secrets", sa.column("name", sa.String), sa.column("value", sa.String))
_keys = sa.table(
    "idempotency_keys",
    sa.column("response_body", sa.Text),
    sa.column("response_sealed", sa.Boolean),
)


def upgrade() -> None:
    op.execute(sa.delete(_keys).where(_keys.c.response_body.contains('"masked:')))
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(
            sa.Column("response_sealed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("previous_key_hash", sa.String(64), nullable=True))
    op.execute(sa.insert(_secrets).values(name="replay", value=secrets.token_hex(32)))


def downgrade() -> None:
    op.execute(sa.delete(_secrets).where(_secrets.c.name == "replay"))
    op.execute(sa.delete(_keys).where(_keys.c.response_sealed.is_(True)))
    with op.batch_alter_table("players") as batch:
        batch.drop_column("previous_key_hash")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("response_sealed")
