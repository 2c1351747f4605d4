"""Evaluations and figures: a run graded again keeps each grading; check results belong to one.

Every stored run gets its evaluation 0 (its own grading, made when it started) and its check results go there.
SQLite cannot change a primary key in place: the checks table is rebuilt (Alembic's batch mode). The figures
of runs finished before this revision are filled in when the store is opened (migrations.py).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "evaluations",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("checks_from", sa.String(20), nullable=False),
        sa.Column("checks_file", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="evaluations_run", ondelete="CASCADE"),
    )
    op.execute(
        "INSERT INTO evaluations (run_id, number, checks_from, checks_file, created_at) "
        "SELECT id, 0, 'run', NULL, started_at FROM runs"
    )
    op.create_table(
        "figures",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("evaluation", sa.Integer, primary_key=True),
        sa.Column("scene", sa.String(200), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("trials", sa.Integer, nullable=False),
        sa.Column("passed", sa.Integer, nullable=True),
        sa.Column("pass_at_1", sa.Float, nullable=True),
        sa.Column("pass_at_k", sa.Float, nullable=True),
        sa.Column("pass_hat_k", sa.Float, nullable=True),
        sa.Column("pass_at", sa.JSON, nullable=True),
        sa.Column("pass_hat", sa.JSON, nullable=True),
        sa.Column("checks", sa.JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id", "evaluation"],
            ["evaluations.run_id", "evaluations.number"],
            name="figures_evaluation",
            ondelete="CASCADE",
        ),
    )
    with op.batch_alter_table("checks", copy_from=_checks_table()) as batch:
        # The rows already there are the runs' own grading; the default only fills them in.
        batch.add_column(sa.Column("evaluation", sa.Integer, nullable=False, server_default="0"))
        batch.drop_constraint("checks_pkey", type_="primary")
        batch.create_primary_key("checks_pkey", ["run_id", "evaluation", "scene", "trial", "position"])
        batch.create_foreign_key(
            "checks_evaluation",
            "evaluations",
            ["run_id", "evaluation"],
            ["run_id", "number"],
            ondelete="CASCADE",
        )
    with op.batch_alter_table("checks") as batch:
        batch.alter_column("evaluation", server_default=None)


def _checks_table() -> sa.Table:
    """The checks table as the database has it, its primary key under the name PostgreSQL gives it: SQLite's
    has no name, and batch mode (which rebuilds SQLite's table) drops a key by its name."""
    table = sa.Table("checks", sa.MetaData(), autoload_with=op.get_bind())
    table.primary_key.name = "checks_pkey"
    return table


def downgrade() -> None:
    op.execute("DELETE FROM checks WHERE evaluation <> 0")
    with op.batch_alter_table("checks", copy_from=_checks_table()) as batch:
        batch.drop_constraint("checks_evaluation", type_="foreignkey")
        batch.drop_constraint("checks_pkey", type_="primary")
        batch.create_primary_key("checks_pkey", ["run_id", "scene", "trial", "position"])
        batch.drop_column("evaluation")
    op.drop_table("figures")
    op.drop_table("evaluations")
