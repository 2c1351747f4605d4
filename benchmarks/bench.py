"""soundstage's performance budgets (docs/architecture.md), measured side by side in one run.

    python benchmarks/bench.py [--seconds 5] [--connections 16] [--events 100000,1000000] [--posts 60000]

Needs the load generator `wrk` for (a); benchmarks/load.py says how to install it.

(a) each call of the table under load (benchmarks/load.py): `soundstage serve` beside a bare Starlette app
    answering the bytes soundstage answered, on the same uvicorn settings and TLS, driven by wrk; medians
    of 3 rounds each. While soundstage is driven, a grader's trials run beside it, one after another: each
    creates a world over the control API, makes a few calls in it and deletes it (`load.py --trials`). Goal:
    at least 0.7 of the bare endpoint's requests/s, p99 within 3x of its p99. Beside each rate, each server's
    CPU per request (its process's user and system time from /proc, over the requests it answered).
    The engine's share alone: `chat.postMessage` driven in-process through ASGI against the bare app.
(b) garbage collection while one world takes `--posts` chat.postMessage calls in-process, in a fresh process
    each: with the collector as it comes, and as `soundstage serve` runs it (soundstage/collector.py). Full
    collections, the longest pause, the share of the time spent collecting, all in CPU time.
    And deleting a world while one of `--big` events is alive, in a fresh process serving as `soundstage serve`
    does: the delete's own CPU time, the longest collection in the 20,000 calls after it, and the full
    collection that handing every object back to the collector (as the server did before) led to. Budget: the
    longest pause under 10 ms.
(c) building a live world from a cached scene image, for each example scene. Budget: under 2 ms. And forking a
    world that made 100 calls against that reset, CPU medians of 200 each. Budget: a fork at most 2x a reset.
(d) evaluating a scene's checks over event logs of each size in `--events`, made by real calls through the
    recording layer. Budget: under 1 s at 100,000 (the aim is 0.3 s), growing linearly.
(e) 1,000 live worlds of the csv-export scene held at once in a fresh process. Budget: under 1 GiB resident.
(f) the command line's start: `soundstage --help` beside `python -c pass` and an import of typer (what any
    typer command pays), medians of 5 runs each. Budget: `soundstage --help` under 0.3 s. And soundstage's own
    share of the README's command, a csv-export `soundstage run` with the example agent: the CPU of the command
    and every process under it, less the agent process's (reported by a small wrapper around the agent),
    median of 5 runs against a store a first run made, with bytecode caches. Goal: under 0.5 s.
(g) reads as the world grows, and loading a world of 100,000 messages given as records and one whose `generate:`
    makes 100,000 (benchmarks/reads.py). Budget for the generated one: within 1.5x the records' CPU, 150 MiB.
(h) Datadog metric queries over 1 h, 1 d and 30 d of 1 and 20 series, and monitor evaluation under Slack
    traffic (benchmarks/datadog.py).
(g) and (h) run as their own scripts, after the rest; `--skip-scripts` leaves them out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from load import report as load_report
from load import run as load_run

from soundstage import collector
from soundstage.checks import Attempt, evaluate
from soundstage.server import Hub, create_app
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest

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
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "server": ("127.0.0.1", 8750),
        "client": ("127.0.0.1", 50000),
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
    headers = [
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"authorization", f"Bearer {token}".encode()),
        (b"host", b"127.0.0.1:8750"),
    ]
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


def gc_pauses(posts: int, serving: bool) -> dict[str, float]:
    """In a fresh process: `posts` chat.postMessage calls in-process into one world, timing every collection."""
    child = subprocess.run(
        [sys.executable, __file__, "--gc-child", str(posts), *(["--serving"] if serving else [])],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(child.stdout)  # type: ignore[no-any-return]


def _gc_child(posts: int, serving: bool) -> None:
    """Times in the process's CPU time, which other processes on the machine do not inflate."""
    app, _, path, body, headers = _apps()
    pauses: list[tuple[int, float]] = []
    began = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            pauses.append((info["generation"], time.process_time() - began[0]))

    with collector.serving() if serving else contextlib.nullcontext():
        gc.callbacks.insert(0, timed)  # first, so the serving policy's own work is outside the pause
        started = time.process_time()
        asyncio.run(_drive(app, path, body, headers, posts))
        elapsed = time.process_time() - started
        gc.callbacks.remove(timed)
    if _posted(app) != posts:
        raise RuntimeError(f"{_posted(app)} messages posted for {posts} calls")
    full = [p for generation, p in pauses if generation == 2]
    print(
        json.dumps(
            {
                "rate": posts / elapsed,
                "full": len(full),
                "longest_ms": max(full, default=0) * 1000,
                "share": sum(p for _, p in pauses) / elapsed,
                "full_share": sum(full) / elapsed,
            }
        )
    )


def delete_pause(events: int) -> dict[str, float]:
    """In a fresh process: a world deleted while one of `events` events is alive (see `_delete_child`)."""
    child = subprocess.run(
        [sys.executable, __file__, "--delete-child", str(events)], check=True, capture_output=True, text=True
    )
    return json.loads(child.stdout)  # type: ignore[no-any-return]


def _delete_child(events: int) -> None:
    """In CPU time: a big world filled as a server fills it, a small one used and deleted, then calls into the big
    one timing every collection; then what handing every object back to the collector cost (`gc.unfreeze` and
    the full collection that followed a delete before)."""
    hub = Hub()
    image = hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml"))
    pauses: list[float] = []
    began = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            pauses.append(time.process_time() - began[0])

    with collector.serving():
        big = hub.add(image)
        _fill(big, events)
        small = hub.add(image)
        _fill(small, 1_000)
        alive = big.log.last_seq
        gc.callbacks.insert(0, timed)
        started = time.process_time()
        hub.drop(small.id)
        del small
        dropped = time.process_time() - started
        _fill(big, big.log.last_seq + 30_000)
        gc.callbacks.remove(timed)
        started = time.process_time()
        gc.unfreeze()
        gc.collect()
        handed_back = time.process_time() - started
    print(
        json.dumps(
            {
                "events": alive,
                "drop_ms": dropped * 1000,
                "collections": len(pauses),
                "longest_ms": max(pauses) * 1000,
                "handed_back_ms": handed_back * 1000,
            }
        )
    )


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


def fork_against_reset(calls: int = 100, rounds: int = 200) -> dict[str, tuple[float, float]]:
    """For each example scene, the median CPU ms of a reset (a live world built from the cached image) and of a
    fork of a world that made `calls` Slack posts (clock moves of a minute where the agent has no Slack bot)."""
    hub = Hub()
    results = {}
    for scene in SCENES:
        image = hub.images.load(scene=scene)
        parent = hub.add(image)
        bot = next((p for p in parent.tokens.values() if p.service == "slack" and p.token_type == "bot"), None)
        channel = next(iter(parent["slack.channels"]), None)
        for n in range(calls):
            if bot is not None and channel is not None:
                body = urlencode({"channel": channel["id"], "text": f"update {n}: is the deploy done?"}).encode()
                form = {"content-type": "application/x-www-form-urlencoded"}
                request = ServiceRequest("POST", "/api/chat.postMessage", {}, form, body, "http://x/w/x/slack")
                record(parent, SERVICES["slack"], bot, request)
            else:
                parent.advance(60_000_000)
        resets, forks = [], []
        for i in range(rounds):
            started = time.process_time_ns()
            image.instantiate(f"r{i}")
            resets.append(time.process_time_ns() - started)
            started = time.process_time_ns()
            parent.fork(f"f{i}")
            forks.append(time.process_time_ns() - started)
        results[Path(scene).stem] = (statistics.median(resets) / 1e6, statistics.median(forks) / 1e6)
    return results


def check_evaluation(events: int) -> tuple[int, float, float]:
    """Fills a world of the csv-export scene with real calls until its log holds `events` entries, then times
    the evaluation of the scene's checks: wall seconds, and the process's CPU seconds (what other processes on
    a shared machine do not inflate)."""
    hub = Hub()
    world = hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    with collector.serving():  # filled as a server fills it: without ever longer collections
        _fill(world, events)
    world.finish("done")
    started, cpu = time.perf_counter(), time.process_time()
    evaluation = evaluate(world.checks, Attempt.from_world(world), world.pass_ids)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert len(evaluation.checks) == len(world.checks)
    return world.log.last_seq, elapsed, cpu


def _fill(world: Any, events: int) -> None:
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
            "POST",
            f"/api/{method}",
            {},
            {"content-type": "application/x-www-form-urlencoded"},
            urlencode(args).encode(),
            "http://127.0.0.1:8750/w/x/slack",
        )
        record(world, service, principal, request)


def many_worlds(n: int = 1000) -> tuple[int, float]:
    """Resident memory (MiB) of a fresh process holding `n` live worlds in one hub."""
    child = subprocess.run(
        [sys.executable, __file__, "--worlds-child", str(n)], check=True, capture_output=True, text=True
    )
    worlds, mib = json.loads(child.stdout)
    return worlds, mib


def _worlds_child(n: int) -> None:
    hub = Hub()
    for _ in range(n):
        hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    print(json.dumps([len(hub.worlds), _resident_mib()]))


def _resident_mib() -> float:
    """What the process holds now, the worlds still held (Linux's VmRSS). Not the peak (ru_maxrss): Linux
    carries a parent's peak over into a child it forks, so after (d)'s big logs the child would report those."""
    import resource

    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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


# The agent of the own-share run, wrapped: runs the command after the report file's name, then writes there the
# CPU seconds its process used from its fork on (the wrapper's own start included) and its children's.
AGENT_CPU = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[2:])\n"
    "used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]\n"
    "open(sys.argv[1], 'w').write(str(sum(u.ru_utime + u.ru_stime for u in used)))\n"
    "sys.exit(code)\n"
)


def own_share(runs: int = 5) -> float:
    """Median CPU seconds of soundstage's own in a csv-export `soundstage run` of this checkout with the example
    agent: the command's CPU and that of every process under it (the agent's supervisor included), less the
    agent process's. As on a user's machine, with bytecode caches, written by a first run that is not counted."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT / "src")
    samples = []
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "agent-cpu"
        agent = [
            sys.executable,
            "-c",
            AGENT_CPU,
            str(report),
            sys.executable,
            str(ROOT / "examples" / "agents" / "csv_export.py"),
        ]
        argv = [
            sys.executable,
            "-m",
            "soundstage",
            "run",
            str(ROOT / "seeds" / "csv-export.yaml"),
            "--agent",
            shlex.join(agent),
            "--out",
            scratch,
            "--json",
        ]
        for run in range(runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if run:
                used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                samples.append(used - float(report.read_text()))
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="length of each load round of (a)")
    parser.add_argument("--connections", type=int, default=16, help="connections wrk keeps open in (a)")
    parser.add_argument("--calls", type=int, default=3000, help="calls per in-process round of (a)")
    parser.add_argument("--posts", type=int, default=60_000, help="calls into one world for (b)")
    parser.add_argument("--events", default="100000,1000000", help="event log sizes for (d), comma-separated")
    parser.add_argument("--big", type=int, default=244_000, help="events of the world alive at a delete in (b)")
    parser.add_argument("--skip-load", action="store_true", help="leave out (a)'s calls under load")
    parser.add_argument("--skip-scripts", action="store_true", help="leave out (g) reads.py and (h) datadog.py")
    parser.add_argument("--gc-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serving", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worlds-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--delete-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.gc_child:
        _gc_child(args.gc_child, args.serving)
        return
    if args.worlds_child:
        _worlds_child(args.worlds_child)
        return
    if args.delete_child:
        _delete_child(args.delete_child)
        return

    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    if not args.skip_load:
        rows, logged = load_run(args.seconds, args.connections, trials=True)
        print(f"(a) calls under load (wrk, {args.connections} connections, {args.seconds} s rounds, medians of 3):")
        print("\n".join(load_report(rows)))
        print(
            f"    soundstage's world logged {logged['last_seq']:,} events meanwhile, while {logged['trials']:,} "
            "trials created, called and deleted worlds beside it"
        )
    stack, bare = in_process(args.calls)
    print(
        f"    in-process chat.postMessage (no HTTP server): {stack:,.0f} calls/s through soundstage, {bare:,.0f} "
        f"calls/s bare; ratio {stack / bare:.2f} (the engine's own share; not budgeted)"
    )
    for serving in (False, True):
        found = gc_pauses(args.posts, serving)
        how = "as `soundstage serve` runs it" if serving else "as it comes"
        print(
            f"(b) GC over {args.posts:,} posts into one world, the collector {how}: {found['full']} full collections, "
            f"longest {found['longest_ms']:.0f} ms, {found['full_share']:.0%} of the time in full and "
            f"{found['share']:.0%} in all collections; {found['rate']:,.0f} calls/s"
        )
    found = delete_pause(args.big)
    print(
        f"(b) a world deleted while one of {found['events']:,} events is alive: the delete {found['drop_ms']:.1f} ms, "
        f"the longest of the {found['collections']} collections in the 30,000 events after it "
        f"{found['longest_ms']:.1f} ms (budget <= 10 ms) {'ok' if found['longest_ms'] <= 10 else 'OVER BUDGET'}; "
        f"handing every object back to the collector, as a delete did before: {found['handed_back_ms']:.0f} ms"
    )
    for scene, ms in world_build().items():
        verdict = "ok" if ms < 2 else "OVER BUDGET"
        print(f"(c) live world from cached image, {scene}: {ms:.3f} ms (budget < 2 ms) {verdict}")
    for scene, (reset, fork) in fork_against_reset().items():
        verdict = "ok" if fork <= 2 * reset else "OVER BUDGET"
        print(
            f"(c) fork of a world of 100 calls against a reset, {scene}: fork {fork:.3f} ms, reset {reset:.3f} ms "
            f"of CPU, {fork / reset:.2f}x (budget <= 2x) {verdict}"
        )
    for size in (int(n) for n in args.events.split(",")):
        n, seconds, cpu = check_evaluation(size)
        budget = 0.3 * n / 100_000  # the aim, linear in the log
        print(
            f"(d) checks of csv-export over {n:,} events: {seconds:.3f} s, {cpu:.3f} s of CPU "
            f"({seconds / n * 1e6:.2f} µs an event; aim {budget:.1f} s) {'ok' if seconds < budget else 'OVER THE AIM'}"
        )
    worlds, mib = many_worlds()
    print(
        f"(e) {worlds:,} live worlds in one process: resident {mib:,.0f} MiB, the process's start included "
        f"(budget < 1024 MiB) {'ok' if mib < 1024 else 'OVER BUDGET'}"
    )
    start = cli_start()
    shown = ", ".join(f"{name} {seconds:.3f} s" for name, seconds in start.items())
    help_s = start["soundstage --help"]
    print(f"(f) command line start: {shown} (budget: --help < 0.3 s) {'ok' if help_s < 0.3 else 'OVER BUDGET'}")
    own = own_share()
    print(
        f"    soundstage's own CPU in a csv-export run with the example agent (the agent's process left out): "
        f"{own:.3f} s (goal < 0.5 s) {'ok' if own < 0.5 else 'OVER THE GOAL'}"
    )
    if not args.skip_scripts:
        for part, script in (("g", "reads.py"), ("h", "datadog.py")):
            print(f"({part}) benchmarks/{script}:", flush=True)
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / script)], check=True)


if __name__ == "__main__":
    main()
