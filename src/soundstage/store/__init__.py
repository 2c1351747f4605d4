"""The results store (docs/cli.md, "The results store"): every run, trial and check result of `soundstage
run`, each evaluation of a run (`soundstage check RUN`) and the figures of each, in SQLite by default
(`<out>/soundstage.db`) or PostgreSQL (`--db`, `SOUNDSTAGE_DB`), written and read as the models of
`soundstage.results`. Opening a store reaches it and applies its migrations, so an unreachable store is known
before any agent starts.

    schema.py       the tables
    migrations.py   Alembic, driven from Python; the revisions are in revisions/versions/
    transaction.py  the one way a statement runs, on SQLite and PostgreSQL alike: values encoded and decoded
    writing.py      runs, trials, checks, evaluations and figures, each write replacing what it writes
    reading.py      the list of runs and one run, each row into its model
    sqlite.py       reaching a SQLite store at the newest schema with the stdlib's sqlite3
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..checks.results import CheckResult
from ..errors import InfrastructureError, UsageError
from ..results import ListedRun, Run, Trial
from . import reading, sqlite, writing
from .migrations import HEAD
from .transaction import Transaction, over

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.engine import URL

DB_FILE = "soundstage.db"
# PostgreSQL through psycopg 3 (SQLAlchemy's plain `postgresql://` would mean psycopg2).
DRIVERS = {"postgresql": "postgresql+psycopg", "postgres": "postgresql+psycopg", "sqlite": "sqlite"}
# How long reaching a PostgreSQL server may take before `run` gives up, in seconds.
CONNECT_TIMEOUT = 10
# A SQLite URL whose file name SQLAlchemy would read as written (no escapes, query or drive letter): the stdlib's
# sqlite3 opens it, and the URL is shown as given, as SQLAlchemy would render it.
PLAIN_SQLITE = re.compile(r"sqlite:///([A-Za-z0-9_./ -]+)")


def store_url(db: str | None, out: Path) -> str:
    """The store a command uses: `db` (from `--db` or SOUNDSTAGE_DB) when given, else `<out>/soundstage.db`."""
    return db if db else f"sqlite:///{out / DB_FILE}"


class Store:
    """An open, migrated store: the results' library (`results.RunLibrary`) and sink (`results.ResultsSink`).
    Every method raises InfrastructureError when the store cannot be reached.

    A SQLite file is reached through the stdlib's sqlite3 (`connection`); SQLAlchemy's engine is made for
    PostgreSQL (and a SQLite URL sqlite3 is not given), or when asked for."""

    def __init__(
        self, url: str, shown: str, engine: Engine | None = None, connection: sqlite3.Connection | None = None
    ) -> None:
        self.url = url
        self.shown = shown  # the URL without its password, for messages
        self._engine = engine
        self._connection = connection
        self._lock = threading.Lock()  # one sqlite3 transaction at a time
        self._making = threading.Lock()  # one engine, whichever thread asks first

    @property
    def file(self) -> Path | None:
        """The SQLite store's file; None for PostgreSQL."""
        if self.url.startswith("sqlite:"):
            plain = PLAIN_SQLITE.fullmatch(self.url)
            database = plain[1] if plain is not None else _parse(self.url)[0].database
            return Path(database).absolute() if database else None
        return None

    @property
    def engine(self) -> Engine:
        with self._making:
            if self._engine is None:
                self._engine = _engine(_parse(self.url)[0])
            return self._engine

    def start_run(self, run: Run) -> None:
        self._do(writing.start_run, run)

    def write_trial(self, run_id: str, trial: Trial) -> None:
        self._do(writing.write_trial, run_id, trial)

    def finish_run(self, run: Run) -> None:
        """The run's end (its exit code and when; both None for a run that was stopped), and its figures."""
        self._do(writing.finish_run, run)

    def add_evaluation(
        self,
        run_id: str,
        scored: dict[tuple[str, int], list[CheckResult]],
        checks_from: str,
        checks_file: str | None,
        created: datetime,
    ) -> int:
        """A stored run scored again (`checks_from`: `scene`, or `file` for `checks_file`'s checks): the check
        results of each trial in `scored`, by scene and number. Returns the evaluation's number."""
        return int(self._do(writing.add_evaluation, run_id, scored, checks_from, checks_file, created))

    def runs(self) -> list[ListedRun]:
        return self._do(reading.list_runs)  # type: ignore[no-any-return]

    def run(self, run_id: str, evaluation: int | None = 0) -> Run | None:
        """A run under one of its evaluations (None: the newest; 0, the run's own grading, by default)."""
        return self._do(reading.get_run, run_id, evaluation)  # type: ignore[no-any-return]

    def run_ids(self) -> list[str]:
        return self._do(reading.run_ids)  # type: ignore[no-any-return]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
        if self._engine is not None:
            self._engine.dispose()

    def _do(self, action: Callable[..., Any], *args: Any) -> Any:
        with self._transaction() as tx:
            return action(tx, *args)

    @contextmanager
    def _transaction(self) -> Iterator[Transaction]:
        if self._connection is not None:
            try:
                with sqlite.transaction(self._connection, self._lock) as tx:
                    yield tx
            except sqlite3.Error as exc:
                raise InfrastructureError(f"the results store {self.shown} failed: {_reason(exc)}") from None
            return
        from sqlalchemy.exc import SQLAlchemyError

        engine = self.engine
        try:
            with engine.begin() as connection:
                yield over(connection)
        except (SQLAlchemyError, engine.dialect.loaded_dbapi.Error) as exc:
            raise InfrastructureError(f"the results store {self.shown} failed: {_reason(exc)}") from None


def open_store(url: str, create: bool = True) -> Store | None:
    """Reaches the store at `url` and brings its tables up to date. With `create` false, a SQLite file that
    does not exist is not made: None. Raises UsageError for a URL it cannot use, InfrastructureError when the
    store cannot be reached or migrated."""
    plain = PLAIN_SQLITE.fullmatch(url)
    if plain is None:
        return _open_migrated(url, create)
    path = Path(plain[1])
    if not path.exists():
        if not create:
            return None
        _make_folder(path, url)
    try:
        connection = sqlite.connect(path)
        try:
            current = sqlite.revision(connection) == HEAD
            if current:
                with sqlite.transaction(connection, threading.Lock()) as tx:
                    writing.fill_figures(tx)
        except sqlite3.Error:
            connection.close()
            raise
    except sqlite3.Error as exc:
        raise InfrastructureError(f"cannot reach the results store {url}: {_reason(exc)}") from None
    if current:
        return Store(url, url, connection=connection)
    # A new store, or one an earlier soundstage made: Alembic brings it to HEAD, and sqlite3 writes it from then on.
    connection.close()
    migrated = _open_migrated(url, create)
    assert migrated is not None  # the file exists now
    migrated.close()
    return Store(url, url, connection=sqlite.connect(path))


def _open_migrated(url: str, create: bool) -> Store | None:
    """`open_store` through SQLAlchemy: PostgreSQL, a SQLite store to migrate, or a SQLite URL sqlite3 is not
    given (escapes, a query)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .migrations import migrate

    parsed, shown = _parse(url)
    if parsed.get_backend_name() == "sqlite":
        path = Path(parsed.database or "")
        if not parsed.database or parsed.database == ":memory:":
            raise UsageError(f"the results store {shown} needs a file")
        if not path.exists():
            if not create:
                return None
            _make_folder(path, shown)
    engine = _engine(parsed)
    try:
        migrate(engine)
    except (SQLAlchemyError, engine.dialect.loaded_dbapi.Error) as exc:
        engine.dispose()
        raise InfrastructureError(f"cannot reach the results store {shown}: {_reason(exc)}") from None
    return Store(url, shown, engine=engine)


def _make_folder(path: Path, shown: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InfrastructureError(f"cannot reach the results store {shown}: {exc.strerror}") from None


def _engine(parsed: URL) -> Engine:
    from sqlalchemy import create_engine, event

    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed)
        event.listen(engine, "connect", sqlite.pragmas)
        return engine
    return create_engine(parsed, connect_args={"connect_timeout": CONNECT_TIMEOUT})


def _parse(url: str) -> tuple[URL, str]:
    """The URL with its driver, and as given without its password."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

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


def _reason(exc: Exception) -> str:
    """The driver's own message, first line: SQLAlchemy's adds the statement and a link."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
