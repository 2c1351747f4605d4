"""CPU per call of each server stack: soundstage's app and a bare endpoint answering the same bytes on the same
stack, in one run.

    python benchmarks/stacks.py [--calls 3000] [--connections 8] [--rounds 3] [--stacks httptools+uvloop,...]

Each server runs in a process of its own; a load generator of this script's (threads of keep-alive
connections, in this process) makes `--calls` calls, and the figure is the server process's CPU time
(user + system, from /proc) divided by the calls: what a call costs the server, whatever else the machine is
doing. The stacks: uvicorn with httptools on uvloop, uvicorn with h11 on asyncio (what `soundstage serve`
chooses with and without those two installed), and granian (Rust's hyper, one worker) where installed. The
calls: the issue's five (`CALLS`, as benchmarks/load.py makes them, over plain HTTP), each through soundstage
and through a bare Starlette endpoint that reads the request's body and answers the status, headers and body
soundstage answered that call (`load.bare_app`), on the same stack with the same parser settings. Rounds
alternate between the servers; the table shows each median and the ratio.

`--against SRC`: soundstage's app as another checkout has it (SRC, the `src` folder of a worktree of main, say)
served too, in each round beside this one's, so a change is measured before and after in the same run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

# The five calls: the label shown, and the call's name in `load.calls`.
CALLS = {
    "auth.test": "slack auth.test",
    "chat.postMessage": "slack chat.postMessage",
    "GitHub contents": "github GET contents",
    "Datadog query": "datadog GET /api/v1/query (1 h)",
    "PagerDuty incidents": "pagerduty GET /incidents (https)",  # over http here: no TLS port
}
STACKS = ("httptools+uvloop", "h11+asyncio")
# Where the bare app's child reads the captured answers.
ROUTES = "SOUNDSTAGE_STACKS_ROUTES"


def app() -> Any:
    """soundstage's app over a hub of its own, its control API behind load.ADMIN (granian's factory)."""
    from soundstage.server.app import create_app
    from soundstage.server.hub import Hub

    return create_app(Hub(), admin_token=load.ADMIN)


def bare() -> Any:
    """The bare endpoint of every call, answering what soundstage answered it (the routes in `ROUTES`)."""
    return load.bare_app(json.loads(Path(os.environ[ROUTES]).read_text()))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(stack: str, which: str, port: int, source: str | None = None) -> list[str]:
    """The server's command; soundstage's package imported from `source` when given (load.py, which stacks.py
    imports, puts this checkout's first on the path)."""
    target = f"stacks:{which}"
    if stack == "granian":
        if source is not None:
            raise SystemExit("--against serves on uvicorn's stacks only")
        return [
            "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port", str(port),
            "--workers", "1", "--loop", "uvloop", "--http", "1", "--no-ws", "--log-level", "warning", target,
        ]  # fmt: skip
    http, loop = stack.split("+")
    code = (  # soundstage's own choice of protocol (its heads bounded) for both apps, run as serve runs it
        (f"import sys\nsys.path.insert(0, {source!r})\nimport soundstage\n" if source else "")
        + "import uvicorn, stacks\n"
        "from soundstage import collector\n"
        "from soundstage.server.stack import Stack\n"
        f"stack = Stack('{http}', '{loop}')\n"
        f"server = uvicorn.Server(uvicorn.Config(stacks.{which}(), host='127.0.0.1', port={port}, "
        "log_level='warning', access_log=False, lifespan='off', date_header=False, server_header=False, "
        "**stack.options()))\n"
        "with collector.serving():\n"
        "    stack.run(server.serve)\n"
    )
    return [sys.executable, "-c", code]


def _drive(call: load.Call, url: str, calls: int, connections: int) -> None:
    def worker(n: int) -> None:
        with httpx.Client(headers=call.headers, timeout=30) as client:
            for _ in range(n):
                answer = client.request(call.method, url, content=call.body)
                assert answer.status_code == 200, (url, answer.status_code, answer.text[:300])

    threads = [threading.Thread(target=worker, args=(calls // connections,)) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


class Served:
    def __init__(self, stack: str, which: str, routes: Path, source: str | None = None) -> None:
        self.port = _free_port()
        folder = Path(__file__).resolve().parent
        path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))  # where granian finds us
        env = {**os.environ, "PYTHONPATH": path, ROUTES: str(routes)}
        self.process = subprocess.Popen(_command(stack, which, self.port, source), cwd=folder.parent, env=env)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        # Granian serves from a child of the process started.
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        self.pid = int(children[0]) if stack == "granian" and children else self.process.pid

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    def cost(self, call: load.Call, calls: int, connections: int) -> float:
        """Microseconds of the server's CPU per call."""
        url = self.base + urlsplit(call.url)._replace(scheme="", netloc="").geturl()
        _drive(call, url, 200, connections)  # warm: connections, caches, lazy indexes
        before = load.cpu(self.pid)
        _drive(call, url, calls, connections)
        return (load.cpu(self.pid) - before) / calls * 1e6


def _calls(base: str, labels: list[str]) -> list[load.Call]:
    """The calls of `labels` in a new world of load's scene, each answer captured for the bare endpoint."""
    world = load.admin(base, "POST", "/v1/worlds", {"scene_yaml": load.SCENE})
    by_name = {call.name: call for call in load.calls(world)}
    chosen = [by_name[CALLS[label]] for label in labels]
    for call in chosen:
        load.capture(call, ssl.create_default_context())
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stacks", default="", help="comma-separated, of " + ", ".join([*STACKS, "granian"]))
    parser.add_argument("--only", default="", help="only the calls whose label holds this text")
    parser.add_argument("--against", default="", help="another checkout's src folder, served beside this one's")
    args = parser.parse_args()
    stacks = args.stacks.split(",") if args.stacks else list(STACKS)
    if not args.stacks and importlib.util.find_spec("granian") and shutil.which("granian"):
        stacks.append("granian")
    labels = [label for label in CALLS if args.only.lower() in label.lower()]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    figures: dict[tuple[str, str, str], list[float]] = {}
    routes = Path(tempfile.mkdtemp(prefix="soundstage-stacks-")) / "routes.json"
    try:
        for _ in range(args.rounds):
            for stack in stacks:
                with Served(stack, "app", routes) as served:
                    todo = _calls(served.base, labels)
                    for label, call in zip(labels, todo, strict=True):
                        cost = served.cost(call, args.calls, args.connections)
                        figures.setdefault((stack, label, "soundstage"), []).append(cost)
                if args.against:
                    with Served(stack, "app", routes, str(Path(args.against).resolve())) as served:
                        for label, call in zip(labels, _calls(served.base, labels), strict=True):
                            cost = served.cost(call, args.calls, args.connections)
                            figures.setdefault((stack, label, "against"), []).append(cost)
                answers = [{"method": c.method, "path": urlsplit(c.url).path, "answer": c.captured} for c in todo]
                routes.write_text(json.dumps(answers))
                with Served(stack, "bare", routes) as served:
                    for label, call in zip(labels, todo, strict=True):
                        cost = served.cost(call, args.calls, args.connections)
                        figures.setdefault((stack, label, "bare"), []).append(cost)
    finally:
        shutil.rmtree(routes.parent, ignore_errors=True)
    shape = f"{args.rounds} rounds of {args.calls} calls, {args.connections} connections"
    print(f"server CPU per call, µs (median of {shape}); ratio: bare's over soundstage's")
    against = f" {'against':>8} {'ratio':>6}" if args.against else ""
    print(f"{'stack':<18} {'call':<20} {'soundstage':>10} {'bare':>8} {'ratio':>6}{against}")
    for stack in stacks:
        for label in labels:
            ours = statistics.median(figures[(stack, label, "soundstage")])
            theirs = statistics.median(figures[(stack, label, "bare")])
            line = f"{stack:<18} {label:<20} {ours:>10.0f} {theirs:>8.0f} {theirs / ours:>6.2f}"
            if args.against:
                before = statistics.median(figures[(stack, label, "against")])
                line += f" {before:>8.0f} {theirs / before:>6.2f}"
            print(line)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
