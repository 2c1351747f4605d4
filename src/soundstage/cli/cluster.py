"""Start, show and stop the local Ray cluster `run --ray` uses: `ray start|status|stop` (docs/ray.md)."""

from __future__ import annotations

from dataclasses import asdict

import typer

from .. import local_cluster
from ..local_cluster import LocalCluster
from .output import JsonOption, emit, handles_errors, next_step, say

ray_app = typer.Typer(
    help="Start, show and stop the local Ray cluster `run --ray` uses.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@ray_app.command("start")
@handles_errors("ray start")
def start(json_output: JsonOption = False) -> None:
    """Start the local Ray cluster unless it is up; print its address. It stays up until `soundstage ray stop`."""
    cluster, started = local_cluster.start()
    if json_output:
        emit({"cluster": asdict(cluster), "started": started})
        return
    say(f"{'started' if started else 'already up:'} the local Ray cluster at {cluster.address}")
    next_step("soundstage run SCENE --agent COMMAND --ray")


@ray_app.command("status")
@handles_errors("ray status")
def status(json_output: JsonOption = False) -> None:
    """Say whether the local Ray cluster is up, and its address."""
    cluster = local_cluster.running()
    if json_output:
        emit({"cluster": asdict(cluster) if cluster is not None else None})
        return
    _shown(cluster, "up")
    next_step("soundstage ray stop" if cluster is not None else "soundstage ray start")


@ray_app.command("stop")
@handles_errors("ray stop")
def stop(json_output: JsonOption = False) -> None:
    """Stop the local Ray cluster, with every trial still running on it."""
    cluster = local_cluster.stop()
    if json_output:
        emit({"cluster": asdict(cluster) if cluster is not None else None})
        return
    _shown(cluster, "stopped")
    next_step("soundstage ray start")


def _shown(cluster: LocalCluster | None, state: str) -> None:
    if cluster is None:
        say("no local Ray cluster is up")
    else:
        say(f"{state}: the local Ray cluster at {cluster.address} (pid {cluster.pid}, started {cluster.started})")
