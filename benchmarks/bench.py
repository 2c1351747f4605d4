"""soundstage's performance budgets (docs/architecture.md), measured side by side in one run.

    python benchmarks/bench.py [--calls 3000] [--events 100000]

(a) `chat.postMessage` through the whole stack (routing, auth, state change, recording, clock) against a
    bare Starlette endpoint that parses the same form body, both served by uvicorn with the same settings
    in a process of their own, each driven over loopback by one keep-alive client. Budget: at least 0.5.
    The same two apps are also driven in-process through ASGI, which leaves out the HTTP server's work
    and so shows the engine's own share (reported, not budgeted).
(b) building a live world from a cached scene image, for each example scene. Budget: under 2 ms.
(c) evaluating a scene's checks over a 100,000-entry event log made by real calls through the recording
    layer. Budget: under 1 s.
(d) 1,000 live worlds of the csv-export scene held at once in one process. Budget: under 1 GiB resident.
(e) the command line's start: `soundstage --help` beside `python -c pass` and an import of typer (what any
    typer command pays), medians of 5 runs each. Budget: `soundstage --help` under 0.3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.checks import Attempt, evaluate  # noqa: E402
from soundstage.server import Hub, create_app  # noqa: E402
from soundstage.server.serve import free_port  # noqa: E402
from soundstage.server.recording import record  # noqa: E402
from soundstage.services import SERVICES  # noqa: E402
from soundstage.services.base import ServiceRequest  # noqa: E402

SCENES = sorted(str(p) for p in (ROOT / "seeds").glob("*.yaml"))


async def _bare(request: Request) -> JSONResponse:
    form = dict(parse_qsl((await request.body()).decode()))
    return JSONResponse({"ok": True, "channel": form.get("channel"), "ts": "1.000100"})


async def _drive(app: Any, path: str, body: bytes, headers: list[tuple[bytes, bytes]], n: int) -> float:
    """Sends `n` POSTs straight into the ASGI app; answers calls per second."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope_base = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": headers, "server": ("127.0.0.1", 8750), "client": ("127.0.0.1", 50000),
    }
    started = time.perf_counter()
    for _ in range(n):
        delivered = False

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if delivered:
                return {"type": "http.disconnect"}
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await app(dict(scope_base), receive, send)
        if sent[0]["status"] != 200:
            raise RuntimeError(f"{path} answered {sent[0]['status']}")
        sent.clear()
    return n / (time.perf_counter() - started)


def _apps() -> tuple[Any, Any, str, bytes, list[tuple[bytes, bytes]]]:
    """The whole stack over a world of the csv-export scene, the bare app, and the request both get."""
    hub = Hub()
    app = create_app(hub)
    world = hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    token = next(t for t, p in world.tokens.items() if p.token_type == "bot")
    body = urlencode({"channel": world.refs["general"], "text": "Benchmark message with a little text in it"}).encode()
    headers = [(b"content-type", b"application/x-www-form-urlencoded"), (b"authorization", f"Bearer {token}".encode()),
               (b"host", b"127.0.0.1:8750")]
    bare = Starlette(routes=[Route("/w/{world}/slack/api/{method}", _bare, methods=["POST"])])
    return app, bare, f"/w/{world.id}/slack/api/chat.postMessage", body, headers


def _posted(app: Any) -> int:
    return sum(1 for w in app.hub.worlds.values() for e in w.log.events if e.kind == "write" and e.op == "added")


def in_process(calls: int) -> tuple[float, float]:
    app, bare, path, body, headers = _apps()
    rates: dict[str, list[float]] = {"stack": [], "bare": []}
    for _ in range(3):  # interleaved rounds, so both see the same machine
        rates["bare"].append(asyncio.run(_drive(bare, path, body, headers, calls)))
        rates["stack"].append(asyncio.run(_drive(app, path, body, headers, calls)))
    if _posted(app) != 3 * calls:  # every call must have done the real work, not answered an error
        raise RuntimeError(f"{_posted(app)} messages posted for {3 * calls} calls")
    return statistics.median(rates["stack"]), statistics.median(rates["bare"])


def _serve(which: str, port: int) -> None:
    """Child process: serves one of the two apps on uvicorn; prints the path and body to send, then serves."""
    import uvicorn

    app, bare, path, body, headers = _apps()
    print(json.dumps({"path": path, "body": body.decode(), "headers": [[k.decode(), v.decode()] for k, v in headers]}),
          flush=True)
    uvicorn.run(app if which == "stack" else bare, host="127.0.0.1", port=port, log_level="warning", access_log=False,
                lifespan="off", date_header=False, server_header=False)


def _client(port: int, path: str, body: bytes, headers: list[list[str]], n: int) -> float:
    """One keep-alive connection sending `n` POSTs one after another; answers calls per second."""
    head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    request = (head + f"content-length: {len(body)}\r\n\r\n").encode() + body
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = sock.makefile("rb")
        started = time.perf_counter()
        for _ in range(n):
            sock.sendall(request)
            status = reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(f"{path} answered {status!r}")
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
        return n / (time.perf_counter() - started)


def over_http(calls: int) -> tuple[float, float]:
    rates: dict[str, list[float]] = {"stack": [], "bare": []}
    for which in ("bare", "stack"):
        port = free_port()
        child = subprocess.Popen([sys.executable, __file__, "--serve", which, "--port", str(port)],
                                 stdout=subprocess.PIPE, text=True)
        try:
            request = json.loads(child.stdout.readline())  # type: ignore[union-attr]
            for _ in range(50):
                try:
                    socket.create_connection(("127.0.0.1", port)).close()
                    break
                except OSError:
                    time.sleep(0.1)
            for _ in range(3):
                rates[which].append(_client(port, request["path"], request["body"].encode(), request["headers"], calls))
        finally:
            child.terminate()
            child.wait()
    return statistics.median(rates["stack"]), statistics.median(rates["bare"])


def world_build() -> dict[str, float]:
    hub = Hub()
    results = {}
    for scene in SCENES:
        image = hub.images.load(scene=scene)
        samples = []
        for i in range(200):
            started = time.perf_counter()
            image.instantiate(f"b{i}")
            samples.append(time.perf_counter() - started)
        results[Path(scene).stem] = statistics.median(samples) * 1000
    return results


def check_evaluation(events: int) -> tuple[int, float]:
    """Fills a world of the csv-export scene with real calls until its log holds `events` entries."""
    hub = Hub()
    world = hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    service = SERVICES["slack"]
    principal = next(p for p in world.tokens.values() if p.token_type == "bot")
    support, question = world.refs["support"], world.refs["csv_question"]
    calls = [
        ("conversations.history", {"channel": support, "limit": "5"}),
        ("chat.postMessage", {"channel": world.refs["general"], "text": "noise"}),
        ("reactions.add", {"channel": support, "timestamp": question, "name": "eyes"}),
        ("reactions.remove", {"channel": support, "timestamp": question, "name": "eyes"}),
    ]
    i = 0
    while world.log.last_seq < events:
        method, args = calls[i % len(calls)]
        i += 1
        request = ServiceRequest(
            "POST", f"/api/{method}", {}, {"content-type": "application/x-www-form-urlencoded"},
            urlencode(args).encode(), "http://127.0.0.1:8750/w/x/slack",
        )
        record(world, service, principal, request)
    world.finish("done")
    started = time.perf_counter()
    evaluation = evaluate(world.checks, Attempt.from_world(world), world.pass_ids)
    elapsed = time.perf_counter() - started
    assert len(evaluation.checks) == len(world.checks)
    return world.log.last_seq, elapsed


def many_worlds(n: int = 1000) -> tuple[int, float]:
    """Resident memory (MiB, the process's peak) with `n` live worlds held by one hub."""
    import resource

    hub = Hub()
    for _ in range(n):
        hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    return len(hub.worlds), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cli_start(runs: int = 5) -> dict[str, float]:
    """Median wall seconds of each command, started afresh."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import typer": [sys.executable, "-c", "import typer"],
        "soundstage --help": [sys.executable, "-m", "soundstage", "--help"],
    }
    medians = {}
    for name, argv in commands.items():
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            samples.append(time.perf_counter() - started)
        medians[name] = statistics.median(samples)
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per throughput round")
    parser.add_argument("--events", type=int, default=100_000, help="entries in the event log for (c)")
    parser.add_argument("--serve", choices=["stack", "bare"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.serve, args.port)
        return

    stack, bare = over_http(args.calls)
    ratio = stack / bare
    print(f"(a) chat.postMessage over HTTP: {stack:,.0f} calls/s through soundstage, {bare:,.0f} calls/s bare "
          f"Starlette; ratio {ratio:.2f} (budget >= 0.5) {'ok' if ratio >= 0.5 else 'OVER BUDGET'}")
    stack, bare = in_process(args.calls)
    print(f"    in-process (no HTTP server): {stack:,.0f} calls/s through soundstage, {bare:,.0f} calls/s bare; "
          f"ratio {stack / bare:.2f} (the engine's own share; not budgeted)")
    for scene, ms in world_build().items():
        print(f"(b) live world from cached image, {scene}: {ms:.3f} ms (budget < 2 ms) {'ok' if ms < 2 else 'OVER BUDGET'}")
    n, seconds = check_evaluation(args.events)
    print(f"(c) checks of csv-export over {n:,} events: {seconds:.3f} s (budget < 1 s) {'ok' if seconds < 1 else 'OVER BUDGET'}")
    worlds, mib = many_worlds()
    print(f"(d) {worlds:,} live worlds in one process: peak resident {mib:,.0f} MiB, the whole benchmark included "
          f"(budget < 1024 MiB) {'ok' if mib < 1024 else 'OVER BUDGET'}")
    start = cli_start()
    shown = ", ".join(f"{name} {seconds:.3f} s" for name, seconds in start.items())
    help_s = start["soundstage --help"]
    print(f"(e) command line start: {shown} (budget: --help < 0.3 s) {'ok' if help_s < 0.3 else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
