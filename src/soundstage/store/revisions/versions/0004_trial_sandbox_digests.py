"""What a trial's grade can be trusted for: the sandbox its agent ran in, the failure of soundstage's own that
made it invalid, and the digests of the files it was graded from; and how many trials of a scene were invalid
(left out of its pass rates).

Trials stored before this revision recorded none of these: they read as unknown (empty), and their scenes'
figures as having no invalid trial, as they were computed.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added in place (not by rebuilding the tables, SQLite's batch mode, which would cascade to the checks).
    op.add_column("trials", sa.Column("sandbox", sa.String(20), nullable=True))
    op.add_column("trials", sa.Column("infrastructure", sa.Text, nullable=True))
    op.add_column("trials", sa.Column("digests", sa.JSON, nullable=True))
    op.add_column("figures", sa.Column("invalid", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("figures", "invalid")
    op.drop_column("trials", "digests")
    op.drop_column("trials", "infrastructure")
    op.drop_column("trials", "sandbox")
