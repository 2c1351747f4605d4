"""`soundstage view [RUN]`: the web viewer (docs/viewer.md) over the runs of a folder and its results store,
served on this machine until interrupted."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote as url_quote

import typer

from ..errors import NotFound, UsageError
from ..results import FolderRuns, RunLibrary
from ..server import Hub, Server
from .history import DbOption, OutOption
from .output import JsonOption, emit, handles_errors, say
from .serve import is_loopback

# Beside `serve`'s 8750 and 8751, so both can run at once.
VIEW_PORT = 8760


@handles_errors("view")
def view(
    run: Annotated[
        str | None,
        typer.Argument(
            metavar="[RUN]", help="A run id or a run folder to open at [default: the list of runs].", show_default=False
        ),
    ] = None,
    out: OutOption = Path("runs"),
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free one).")
    ] = VIEW_PORT,
    json_output: JsonOption = False,
) -> None:
    """Serve the web viewer of the runs under --out and in the results store; print its address."""
    token = os.environ.get("SOUNDSTAGE_ADMIN_TOKEN") or None
    if token is None and not is_loopback(host):
        raise UsageError(f"{host} is reachable from other machines: set SOUNDSTAGE_ADMIN_TOKEN to protect the runs")
    extra = [Path(run)] if run is not None and Path(run).is_dir() else []
    libraries: list[RunLibrary] = []
    store = _store(db, out)
    if store is not None:
        libraries.append(store)
    libraries.append(FolderRuns(out, extra))
    server = Server(Hub(), host, port, tls_port=None, admin_token=token, libraries=libraries)
    opened = "#/runs"
    if run is not None:
        run_id = extra[0].name if extra else run
        try:
            server.app.state.shelf.find(run_id)  # before anything listens
        except NotFound:
            server.stop()
            where = f"{out}/" + (f" or the results store {store.shown}" if store is not None else "")
            raise NotFound(f"no run {run_id!r} in {where} (soundstage runs lists them)") from None
        opened = f"#/run/{url_quote(run_id, safe='')}"
    page = f"{server.url}/ui/"
    address = page + (f"#token={server.admin_token}&go={url_quote(opened, safe='')}" if token is None else opened)
    info: dict[str, Any] = {"url": server.url, "ui": address, "store": store.shown if store is not None else None}
    if json_output:
        emit(info)
    else:
        say(f"the soundstage viewer is at {address}")
        if token is not None:
            say("it asks for the admin token (SOUNDSTAGE_ADMIN_TOKEN) once per tab")
        say(
            f"runs from {out}/"
            + (f" and the results store {store.shown}" if store is not None else "")
            + "; Ctrl-C stops it"
        )
    try:
        server.run()
    finally:
        if store is not None:
            store.close()


def _store(db: str | None, out: Path) -> Any:
    """The results store, when there is one (a SQLite file is not made for the viewer)."""
    from ..store import open_store, store_url  # SQLAlchemy and Alembic, loaded only when the command runs

    return open_store(store_url(db, out), create=False)
