"""The first schema: tables, their seats, every accepted action, and finished games' records.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("timeout", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("next_table", sa.String(16), nullable=True),
        sa.Column("record_id", sa.Integer, nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("time", sa.Float, nullable=True),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("outcome", sa.Text, nullable=True),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_index("ix_records_table_code", "records", ["table_code"])


def downgrade() -> None:
    op.drop_index("ix_records_table_code", "records")
    op.drop_table("records")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_status", "game_tables")
    op.drop_table("game_tables")
