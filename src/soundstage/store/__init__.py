"""The results store (docs/cli.md, "The results store"): every run, trial and check result of `soundstage
run`, each evaluation of a run (`soundstage check RUN`) and the figures of each, in SQLite by default (`<out>/soundstage.db`) or PostgreSQL (`--db`, `SOUNDSTAGE_DB`). Opening a store
reaches it and applies its migrations, so an unreachable store is known before any agent starts.

    schema.py      the tables
    migrations.py  Alembic, driven from Python; the revisions are in revisions/versions/
    writing.py     runs, trials, checks, evaluations and figures, each write replacing what it writes
    reading.py     the list of runs and one run
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from ..errors import InfrastructureError, UsageError
from . import reading, writing
from .migrations import migrate

DB_FILE = "soundstage.db"
# PostgreSQL through psycopg 3 (SQLAlchemy's plain `postgresql://` would mean psycopg2).
DRIVERS = {"postgresql": "postgresql+psycopg", "postgres": "postgresql+psycopg", "sqlite": "sqlite"}
# How long reaching a PostgreSQL server may take before `run` gives up, in seconds.
CONNECT_TIMEOUT = 10


def store_url(db: str | None, out: Path) -> str:
    """The store a command uses: `db` (from `--db` or SOUNDSTAGE_DB) when given, else `<out>/soundstage.db`."""
    return db if db else f"sqlite:///{out / DB_FILE}"


class Store:
    """An open, migrated store. Every method raises InfrastructureError when the store cannot be reached."""

    def __init__(self, engine: Engine, shown: str) -> None:
        self.engine = engine
        self.shown = shown  # the URL without its password, for messages

    def start_run(self, run: dict[str, Any], started: datetime) -> None:
        self._do(writing.start_run, run, started)

    def write_trial(self, run_id: str, trial: dict[str, Any], results: list[dict[str, Any]] | None = None) -> None:
        self._do(writing.write_trial, run_id, trial, results)

    def finish_run(self, run_id: str, exit_code: int, finished: datetime) -> None:
        self._do(writing.finish_run, run_id, exit_code, finished)

    def add_evaluation(
        self,
        run_id: str,
        scored: list[dict[str, Any]],
        checks_from: str,
        checks_file: str | None,
        created: datetime,
    ) -> int:
        """A stored run scored again (`checks_from`: `scene`, or `file` for `checks_file`'s checks): the check
        results of each trial in `scored`, `{scene, trial, checks}`. Returns the evaluation's number."""
        number = self._do(writing.add_evaluation, run_id, scored, checks_from, checks_file, created)
        return int(number)

    def runs(self) -> list[dict[str, Any]]:
        return self._do(reading.list_runs)  # type: ignore[no-any-return]

    def run(self, run_id: str, evaluation: int | None = 0) -> dict[str, Any] | None:
        """A run under one of its evaluations (None: the newest; 0, the run's own grading, by default)."""
        return self._do(reading.get_run, run_id, evaluation)  # type: ignore[no-any-return]

    def run_ids(self) -> list[str]:
        return self._do(reading.run_ids)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.engine.dispose()

    def _do(self, action: Any, *args: Any) -> Any:
        try:
            return action(self.engine, *args)
        except SQLAlchemyError as exc:
            raise InfrastructureError(f"the results store {self.shown} failed: {_reason(exc)}") from None


def open_store(url: str, create: bool = True) -> Store | None:
    """Reaches the store at `url` and brings its tables up to date. With `create` false, a SQLite file that
    does not exist is not made: None. Raises UsageError for a URL it cannot use, InfrastructureError when the
    store cannot be reached or migrated."""
    parsed, shown = _parse(url)
    if parsed.get_backend_name() == "sqlite":
        path = Path(parsed.database or "")
        if not parsed.database or parsed.database == ":memory:":
            raise UsageError(f"the results store {shown} needs a file")
        if not path.exists():
            if not create:
                return None
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InfrastructureError(f"cannot reach the results store {shown}: {exc.strerror}") from None
        engine = create_engine(parsed)
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(parsed, connect_args={"connect_timeout": CONNECT_TIMEOUT})
    try:
        migrate(engine)
    except SQLAlchemyError as exc:
        engine.dispose()
        raise InfrastructureError(f"cannot reach the results store {shown}: {_reason(exc)}") from None
    return Store(engine, shown)


def _parse(url: str) -> tuple[URL, str]:
    """The URL with its driver, and as given without its password."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UsageError(f"{url!r} is not a database URL (sqlite:///FILE or postgresql://...)") from None
    backend = parsed.drivername.partition("+")[0]
    if backend not in DRIVERS:
        raise UsageError(f"the results store must be SQLite or PostgreSQL, not {backend!r}")
    shown = parsed.render_as_string(hide_password=True)
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername=DRIVERS[backend])
    return parsed, shown


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Foreign keys on; and a write-ahead log synced at its checkpoints, not at every commit: a trial's write
    costs a fraction of the fsyncs of the rollback journal (benchmarks/store.py), readers do not wait for
    writers, and a crash of soundstage never loses a commit (a crash of the machine may lose the last ones)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _reason(exc: SQLAlchemyError) -> str:
    """The driver's own message, first line: SQLAlchemy's adds the statement and a link."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
