"""The results store's tables (docs/cli.md, "The results store"): one schema for SQLite and PostgreSQL.

A run has trials, a trial has check results. A run is graded once or more: evaluation 0 is the run's own
grading, each `soundstage check RUN` adds one (1, 2...) that scores the same trials again. Check results and
figures belong to an evaluation; a trial's outcome under an evaluation other than 0 follows from its check
results there (figures.outcome). A trial's artefacts (trace, events, state) stay files in its folder; the
store holds the folder's path. The migrations (revisions/versions/) build exactly these tables:
tests/store/test_migrations.py compares them.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

runs = Table(
    "runs",
    metadata,
    Column("id", String(200), primary_key=True),  # the run folder's name: YYYYMMDD-HHMMSS[-N]
    Column("folder", Text, nullable=False),
    Column("agent", Text, nullable=False),
    Column("scenes", JSON, nullable=False),  # the scene files given, in order
    Column("trials", Integer, nullable=False),  # per scene
    Column("strict", Boolean, nullable=False),
    Column("exit_code", Integer, nullable=True),  # None while the run goes on, or when it was stopped
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
)

trials = Table(
    "trials",
    metadata,
    Column("run_id", String(200), primary_key=True),
    Column("scene", String(200), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("world", String(200), nullable=False),
    Column("outcome", String(20), nullable=False),  # passed | failed | invalid | ungraded
    Column("exit_code", Integer, nullable=False),
    Column("killed", Boolean, nullable=False),
    Column("timed_out", Boolean, nullable=False),
    Column("finish_reason", String(50), nullable=False),
    Column("wall_seconds", Float, nullable=False),
    Column("simulated_seconds", Float, nullable=False),
    Column("calls", Integer, nullable=False),
    Column("events", Integer, nullable=False),
    Column("errors", Integer, nullable=False),
    Column("unimplemented", Integer, nullable=False),
    Column("after_finish", Integer, nullable=False),
    Column("folder", Text, nullable=False),
    # More than 1: run again after the machine running it died (run --ray).
    Column("attempts", Integer, nullable=False, server_default="1"),
    Column("sandbox", String(20), nullable=True),  # bwrap | none; None: stored before trials recorded it
    Column("infrastructure", Text, nullable=True),  # the failure of soundstage's own that made the trial invalid
    Column("digests", JSON, nullable=True),  # each file of its folder, as graded: {name: "sha256:..."}
    # Its agent's model calls captured by the proxy, their tokens, those refused at the token cap.
    Column("model_calls", Integer, nullable=False, server_default="0"),
    Column("model_tokens", Integer, nullable=False, server_default="0"),
    Column("model_refused", Integer, nullable=False, server_default="0"),
    Column("score", Float, nullable=True),  # the weighted share of its checks; None: none (invalid, or stored before)
    ForeignKeyConstraint(["run_id"], ["runs.id"], name="trials_run", ondelete="CASCADE"),
)

evaluations = Table(
    "evaluations",
    metadata,
    Column("run_id", String(200), primary_key=True),
    Column("number", Integer, primary_key=True),  # 0: the run's own grading
    Column("checks_from", String(20), nullable=False),  # run | scene (its checks again) | file (checks_file's)
    Column("checks_file", Text, nullable=True),  # the --checks file, as given
    Column("created_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["run_id"], ["runs.id"], name="evaluations_run", ondelete="CASCADE"),
)

checks = Table(
    "checks",
    metadata,
    Column("run_id", String(200), primary_key=True),
    Column("evaluation", Integer, primary_key=True),
    Column("scene", String(200), primary_key=True),
    Column("trial", Integer, primary_key=True),
    Column("position", Integer, primary_key=True),  # the check's place in the trial's checks.json
    Column("check_id", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("required", Boolean, nullable=False),
    Column("passed", Boolean, nullable=True),  # None: could not be decided
    Column("invalid", Boolean, nullable=False),
    Column("score", Float, nullable=True),  # when the result carries one
    Column("weight", Float, nullable=False, server_default="1"),  # its share of the trial's score
    Column("expected", Text, nullable=False),
    Column("actual", Text, nullable=False),
    Column("explanation", Text, nullable=False),
    Column("evidence", JSON, nullable=False),  # seq of the log entries behind the result
    Column("source", String(20), nullable=False),
    ForeignKeyConstraint(
        ["run_id", "scene", "trial"],
        ["trials.run_id", "trials.scene", "trials.number"],
        name="checks_trial",
        ondelete="CASCADE",
    ),
    ForeignKeyConstraint(
        ["run_id", "evaluation"],
        ["evaluations.run_id", "evaluations.number"],
        name="checks_evaluation",
        ondelete="CASCADE",
    ),
)

# Each scene's figures under an evaluation, as figures.scene_figures has them; written when a run finishes
# (evaluation 0) and with each later evaluation.
figures = Table(
    "figures",
    metadata,
    Column("run_id", String(200), primary_key=True),
    Column("evaluation", Integer, primary_key=True),
    Column("scene", String(200), primary_key=True),
    Column("status", String(20), nullable=False),  # graded | ungraded
    Column("trials", Integer, nullable=False),
    Column("invalid", Integer, nullable=False, server_default="0"),  # trials left out of the pass rates
    Column("passed", Integer, nullable=True),  # None, as every figure, for an ungraded scene
    Column("pass_at_1", Float, nullable=True),
    Column("pass_at_k", Float, nullable=True),
    Column("pass_hat_k", Float, nullable=True),
    Column("pass_at", JSON, nullable=True),  # {"1": pass@1, "2": pass@2...}
    Column("pass_hat", JSON, nullable=True),
    Column("mean_score", Float, nullable=True),  # of the trials' scores; None: no trial has one
    Column("checks", JSON, nullable=False),  # per check id: {required, passed, trials, pass_rate}
    ForeignKeyConstraint(
        ["run_id", "evaluation"],
        ["evaluations.run_id", "evaluations.number"],
        name="figures_evaluation",
        ondelete="CASCADE",
    ),
)
