"""A trial's attempts: more than 1 when it was run again after the machine running it died (`run --ray`).

The trials stored before this revision each ran once: the column's default says so.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place (not by rebuilding the table, SQLite's batch mode, which would cascade to the checks).
    op.add_column("trials", sa.Column("attempts", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    op.drop_column("trials", "attempts")
