"""A trial's model calls: those of its agent the interception proxy captured, the tokens their answers used,
and those refused at the run's token cap.

Trials stored before this revision had none captured: they read as 0.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COLUMNS = ("model_calls", "model_tokens", "model_refused")


def upgrade() -> None:
    for name in COLUMNS:  # in place, as 0004's
        op.add_column("trials", sa.Column(name, sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    for name in reversed(COLUMNS):
        op.drop_column("trials", name)
