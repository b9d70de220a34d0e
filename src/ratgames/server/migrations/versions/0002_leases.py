"""Table leases: which server process owns a table in play, until when, and its fencing token.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("owner_address", sa.String(200), nullable=True))
        batch.add_column(sa.Column("owner_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("fence")
        batch.drop_column("owner_until")
        batch.drop_column("owner_address")
        batch.drop_column("owner")
