"""Opening a store: made when missing, migrated on first use, and refused with a clear error when unreachable."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from tests.stores import RUN

from soundstage.errors import InfrastructureError, UsageError
from soundstage.store import open_store, store_url


def test_a_store_is_made_and_migrated_on_first_use_and_opened_again_as_it_is(store_url: str) -> None:
    first = open_store(store_url)
    assert first is not None
    first.start_run(RUN)
    first.close()

    again = open_store(store_url)
    assert again is not None
    with again.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == ["0006"]
    assert again.run_ids() == ["20260101-000000"]
    again.close()


def test_the_default_store_is_soundstage_db_in_the_runs_folder(tmp_path: Path) -> None:
    assert store_url(None, tmp_path / "runs") == f"sqlite:///{tmp_path / 'runs' / 'soundstage.db'}"
    assert store_url("postgresql://u@h/db", tmp_path / "runs") == "postgresql://u@h/db"


def test_a_missing_sqlite_file_is_not_made_when_only_read(tmp_path: Path) -> None:
    assert open_store(f"sqlite:///{tmp_path / 'runs' / 'soundstage.db'}", create=False) is None
    assert not (tmp_path / "runs").exists()


def test_an_unreachable_postgresql_server_is_an_infrastructure_error_without_the_password() -> None:
    with pytest.raises(InfrastructureError) as raised:
        open_store("postgresql://someone:secret@127.0.0.1:1/nothing")

    message = str(raised.value)
    assert message.startswith("cannot reach the results store postgresql://someone:***@127.0.0.1:1/nothing: ")
    assert "secret" not in message
    assert raised.value.exit_code == 3


def test_a_sqlite_file_that_cannot_be_made_is_an_infrastructure_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")

    with pytest.raises(InfrastructureError, match="cannot reach the results store sqlite:///.*/file/soundstage.db"):
        open_store(f"sqlite:///{tmp_path / 'file' / 'soundstage.db'}")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u@h/db", "the results store must be SQLite or PostgreSQL, not 'mysql'"),
        ("not a url", "'not a url' is not a database URL (sqlite:///FILE or postgresql://...)"),
        ("sqlite://", "the results store sqlite:// needs a file"),
    ],
)
def test_a_url_that_is_no_usable_store_is_a_usage_error(url: str, message: str) -> None:
    with pytest.raises(UsageError) as raised:
        open_store(url)
    assert str(raised.value) == message
