"""CPU per call of each server stack: soundstage's app and a bare Starlette endpoint on the same stack, in one run.

    python benchmarks/stacks.py [--calls 4000] [--connections 8] [--rounds 3]

Each server runs in a process of its own; a load generator of this script's (threads of keep-alive
connections, in another process) makes `--calls` calls, and the figure is the server process's CPU time
(user + system, from /proc) divided by the calls: what a call costs the server, whatever else the machine is
doing. The stacks: uvicorn with httptools on uvloop, uvicorn with h11 on asyncio (what `soundstage serve`
chooses with and without those two installed), and granian (Rust's hyper, one worker) where installed. The
calls: Slack's `auth.test` and `chat.postMessage` through soundstage, and the same path answered by a bare
endpoint with the same body. Rounds alternate between the servers; the table shows each median.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Self

import httpx

ADMIN = "stacks-admin"
SCENE = "name: stacks\nworld: acme\ntask: Answer.\nagent: {slack_user: $bot}\n"
# The answer the bare endpoint gives every call: about the size of soundstage's auth.test answer.
BARE_BODY = json.dumps({"ok": True, "url": "https://acme.slack.com/", "team": "Acme", "user": "stagebot"}).encode()


def app() -> Any:
    """soundstage's app over a hub of its own, its control API behind ADMIN (granian's factory)."""
    from soundstage.server.app import create_app
    from soundstage.server.hub import Hub

    return create_app(Hub(), admin_token=ADMIN)


def bare() -> Any:
    """A Starlette app answering any Slack method with BARE_BODY, after reading the request's body."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def reply(request: Request) -> Response:
        await request.body()
        return Response(BARE_BODY, 200, {"content-type": "application/json; charset=utf-8"})

    return Starlette(routes=[Route("/w/{world}/slack/api/{method}", reply, methods=["POST"])])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(stack: str, which: str, port: int) -> list[str]:
    target = f"stacks:{which}"
    if stack == "granian":
        return [
            "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port", str(port),
            "--workers", "1", "--loop", "uvloop", "--http", "1", "--no-ws", "--log-level", "warning", target,
        ]  # fmt: skip
    http, loop = stack.split("+")
    code = (  # soundstage's own choice of protocol (its heads bounded) for both apps
        "import uvicorn, stacks; "
        "from soundstage.server.stack import Stack; "
        f"uvicorn.run(stacks.{which}(), host='127.0.0.1', port={port}, loop='{loop}', "
        "log_level='warning', access_log=False, lifespan='off', date_header=False, server_header=False, "
        f"**Stack('{http}', '{loop}').options())"
    )
    return [sys.executable, "-c", code]


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drive(url: str, headers: dict[str, str], body: bytes, calls: int, connections: int) -> None:
    def worker(n: int) -> None:
        with httpx.Client(headers=headers, timeout=30) as client:
            for _ in range(n):
                assert client.post(url, content=body).status_code == 200

    threads = [threading.Thread(target=worker, args=(calls // connections,)) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


class Served:
    def __init__(self, stack: str, which: str) -> None:
        self.port = _free_port()
        root = Path(__file__).resolve().parents[1]
        env = {**os.environ, "PYTHONPATH": str(root / "benchmarks")}  # where granian finds `stacks`
        self.process = subprocess.Popen(_command(stack, which, self.port), cwd=root, env=env)
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

    def cost(self, path: str, headers: dict[str, str], body: bytes, calls: int, connections: int) -> float:
        """Microseconds of the server's CPU per call."""
        _drive(self.base + path, headers, body, 200, connections)  # warm
        before = _cpu(self.pid)
        _drive(self.base + path, headers, body, calls, connections)
        return (_cpu(self.pid) - before) / calls * 1e6


def _world(base: str) -> tuple[str, str, str]:
    admin = {"authorization": f"Bearer {ADMIN}"}
    created = httpx.post(f"{base}/v1/worlds", json={"scene_yaml": SCENE}, headers=admin, timeout=30).json()
    env = created["env"]
    channel = next(c for c in httpx.post(
        f"{base}/w/{created['id']}/slack/api/conversations.list",
        headers={"authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"}, timeout=30,
    ).json()["channels"] if c["is_member"])["id"]  # fmt: skip
    return created["id"], env["SLACK_BOT_TOKEN"], channel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    stacks = ["httptools+uvloop", "h11+asyncio"]
    if importlib.util.find_spec("granian") and shutil.which("granian"):
        stacks.append("granian")
    figures: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.rounds):
        for stack in stacks:
            with Served(stack, "app") as served:
                world, token, channel = _world(served.base)
                auth = {"authorization": f"Bearer {token}"}
                form = {**auth, "content-type": "application/x-www-form-urlencoded"}
                post = f"channel={channel}&text=hello".encode()
                for method, headers, body in (("auth.test", auth, b""), ("chat.postMessage", form, post)):
                    cost = served.cost(f"/w/{world}/slack/api/{method}", headers, body, args.calls, args.connections)
                    figures.setdefault((stack, method, "soundstage"), []).append(cost)
            with Served(stack, "bare") as served:
                for method in ("auth.test", "chat.postMessage"):
                    cost = served.cost(f"/w/x/slack/api/{method}", {}, b"", args.calls, args.connections)
                    figures.setdefault((stack, method, "bare"), []).append(cost)
    shape = f"{args.rounds} rounds of {args.calls} calls, {args.connections} connections"
    print(f"server CPU per call, µs (median of {shape})")
    print(f"{'stack':<18} {'call':<18} {'soundstage':>10} {'bare':>8} {'ratio':>6}")
    for stack in stacks:
        for method in ("auth.test", "chat.postMessage"):
            ours = statistics.median(figures[(stack, method, "soundstage")])
            theirs = statistics.median(figures[(stack, method, "bare")])
            print(f"{stack:<18} {method:<18} {ours:>10.0f} {theirs:>8.0f} {ours / theirs:>6.2f}")


if __name__ == "__main__":
    main()
