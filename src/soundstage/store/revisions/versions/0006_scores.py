"""Partial credit: each check result's weight, each trial's score (the weighted share of its checks) and each
scene's mean score.

Check results stored before this revision weigh 1, as every check did; trials stored before it have no score,
and their scenes no mean score (None), as none was computed.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place, as 0004's columns (rebuilding a table in SQLite's batch mode would cascade to the checks).
    op.add_column("trials", sa.Column("score", sa.Float, nullable=True))
    op.add_column("checks", sa.Column("weight", sa.Float, nullable=False, server_default="1"))
    op.add_column("figures", sa.Column("mean_score", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("figures", "mean_score")
    op.drop_column("checks", "weight")
    op.drop_column("trials", "score")
