"""Runs, trials and check results.

Revision ID: 0001
Revises:
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
        "runs",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("folder", sa.Text, nullable=False),
        sa.Column("agent", sa.Text, nullable=False),
        sa.Column("scenes", sa.JSON, nullable=False),
        sa.Column("trials", sa.Integer, nullable=False),
        sa.Column("strict", sa.Boolean, nullable=False),
        sa.Column("exit_code", sa.Integer, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "trials",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("scene", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("world", sa.String(200), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("exit_code", sa.Integer, nullable=False),
        sa.Column("killed", sa.Boolean, nullable=False),
        sa.Column("timed_out", sa.Boolean, nullable=False),
        sa.Column("finish_reason", sa.String(50), nullable=False),
        sa.Column("wall_seconds", sa.Float, nullable=False),
        sa.Column("simulated_seconds", sa.Float, nullable=False),
        sa.Column("calls", sa.Integer, nullable=False),
        sa.Column("events", sa.Integer, nullable=False),
        sa.Column("errors", sa.Integer, nullable=False),
        sa.Column("unimplemented", sa.Integer, nullable=False),
        sa.Column("after_finish", sa.Integer, nullable=False),
        sa.Column("folder", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="trials_run", ondelete="CASCADE"),
    )
    op.create_table(
        "checks",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("scene", sa.String(200), primary_key=True),
        sa.Column("trial", sa.Integer, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("check_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("required", sa.Boolean, nullable=False),
        sa.Column("passed", sa.Boolean, nullable=True),
        sa.Column("invalid", sa.Boolean, nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("expected", sa.Text, nullable=False),
        sa.Column("actual", sa.Text, nullable=False),
        sa.Column("explanation", sa.Text, nullable=False),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id", "scene", "trial"],
            ["trials.run_id", "trials.scene", "trials.number"],
            name="checks_trial",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("checks")
    op.drop_table("trials")
    op.drop_table("runs")
