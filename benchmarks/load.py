"""Calls under load: soundstage beside a bare Starlette endpoint returning the same bytes, in one run.

    python benchmarks/load.py [--seconds 5] [--connections 32] [--rounds 3] [--only TEXT] [--trials]

Needs `wrk` (https://github.com/wg/wrk) on PATH: `apt-get install wrk` on Debian and Ubuntu, `brew install wrk`
on macOS. A load generator of its own keeps many connections busy, so the figures are the servers' and not
one blocking client's.

Both servers run in processes of their own on the same uvicorn settings as `soundstage serve` (one event loop
serving a plain port and a TLS port with soundstage's own certificate, Nagle off): `soundstage serve` itself,
and a Starlette app with one route per call that reads the request's body and answers the status, headers
and body soundstage answered that call, captured from soundstage just before the call's rounds. For each
call, rounds alternate between the two (bare first), three of each unless `--rounds` says otherwise (more
rounds, steadier medians on a shared machine); the table shows the medians of requests per second and of the
99th percentile latency, and their ratios against the goals (soundstage at 0.6 of the bare endpoint's rate or
better, and a p99 within 3 times the bare endpoint's), and each server's CPU per request: its process's user and
system time over the round (from /proc) divided by the requests it answered, which other processes on a shared
machine cannot lower or raise as they do the rate. soundstage's is shown against the call's reference (`REFERENCE`:
what it cost on the h11 and asyncio stack), whose half is the goal.

`--trials`: while soundstage is driven, a client does what a grader does, trial after trial: it creates a world
over the control API, makes a few calls in it (`TRIAL_CALLS`) and deletes it. Those requests count in the CPU
per request; the table says how many trials ran meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))  # for the tests' free ports

from tests.ports import free_port

from soundstage.server.serve import bind
from soundstage.server.stack import Stack

RATE_GOAL = 0.6  # soundstage's requests/s over the bare endpoint's, at least
P99_GOAL = 3.0  # soundstage's p99 over the bare endpoint's, at most
CPU_GOAL = 0.5  # soundstage's CPU per request over its reference, at most
# CPU µs per call of soundstage on h11 and asyncio, the stack it served on before httptools and uvloop: Slack's two
# as the issue measured them; the other three from benchmarks/stacks.py (over http, 3 rounds of 3,000 calls) on the
# commit before the issue's work, with `--stacks h11+asyncio`, on 2 cores under other work (load average 6 to 15).
REFERENCE = {
    "slack auth.test": 195,
    "slack chat.postMessage": 279,
    "github GET contents": 550,
    "datadog GET /api/v1/query (1 h)": 460,
    "pagerduty GET /incidents (https)": 350,
}
UVICORN = {"log_level": "warning", "access_log": False, "lifespan": "off", "date_header": False, "server_header": False}
ADMIN = "loadbench-admin"
# The agent's token in every service of the acme world, as a scene gives them.
SCENE = """name: loadbench
world: acme
task: Answer calls under load.
agent: {slack_user: $bot, github_user: $bot_gh, pagerduty_user: $bot_pd, datadog_user: $bot_dd}
"""
TRIAL_CALLS = 3  # the first calls of `calls`, Slack's, over plain HTTP
INSTALL = (
    "benchmarks/load.py needs the load generator wrk on PATH: `apt-get install wrk` (Debian, Ubuntu) or "
    "`brew install wrk` (macOS); see https://github.com/wg/wrk"
)


@dataclass
class Call:
    name: str
    method: str
    url: str  # on soundstage
    headers: dict[str, str]
    body: bytes = b""
    captured: dict[str, Any] = field(default_factory=dict)  # status, headers, body (latin-1) soundstage answered


@dataclass
class Round:
    rate: float  # requests per second
    p99_ms: float
    requests: int
    cpu_us: float = 0.0  # the server process's CPU per request answered, µs


def calls(world: dict[str, Any]) -> list[Call]:
    """The calls of the issue's table, with the agent's own credentials and the world's own ids."""
    env = world["env"]
    agent = {"user-agent": "soundstage-load/1"}  # GitHub refuses a call without one, as github.com does
    slack = {**agent, "authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"}
    form = {**slack, "content-type": "application/x-www-form-urlencoded"}
    github = {**agent, "authorization": f"token {env['GITHUB_TOKEN']}", "accept": "application/vnd.github+json"}
    datadog = {**agent, "dd-api-key": env["DD_API_KEY"], "dd-application-key": env["DD_APP_KEY"]}
    pagerduty = {
        **agent,
        "authorization": f"Token token={env['PAGERDUTY_TOKEN']}",
        "from": env["PAGERDUTY_FROM"],
        "accept": "application/vnd.pagerduty+json;version=2",
    }
    general, support = _slack_channel(env, "general"), _slack_channel(env, "support")
    now = int(datetime.fromisoformat(world["now"]).timestamp())
    query = urlencode({"from": now - 3600, "to": now, "query": "avg:orders.latency.p99{service:orders}"})
    text = urlencode({"channel": general, "text": "Deploy of orders 1.4.1 is done; latency is back to normal."})
    return [
        Call("slack auth.test", "POST", env["SLACK_API_URL"] + "auth.test", slack),
        Call("slack chat.postMessage", "POST", env["SLACK_API_URL"] + "chat.postMessage", form, text.encode()),
        Call(
            "slack conversations.history",
            "GET",
            env["SLACK_API_URL"] + f"conversations.history?channel={support}",
            slack,
        ),
        Call("github GET contents", "GET", env["GITHUB_API_URL"] + "/repos/acme/orders/contents/README.md", github),
        Call("github GET pulls", "GET", env["GITHUB_API_URL"] + "/repos/acme/orders/pulls", github),
        Call("datadog GET /api/v1/query (1 h)", "GET", env["DATADOG_API_URL"] + f"/api/v1/query?{query}", datadog),
        Call("pagerduty GET /incidents (https)", "GET", env["PAGERDUTY_API_URL"] + "/incidents", pagerduty),
    ]


def _slack_channel(env: dict[str, str], name: str) -> str:
    """The id of channel `name` (chat.postMessage posts in #general; conversations.history reads #support,
    whose messages stay as the scene made them, so its answer is the same size in every round)."""
    request = urllib.request.Request(
        env["SLACK_API_URL"] + "conversations.list", headers={"authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"}
    )
    with urllib.request.urlopen(request) as answer:
        return next(c["id"] for c in json.load(answer)["channels"] if c["name"] == name)


def capture(call: Call, context: ssl.SSLContext) -> None:
    """What soundstage answers `call` now: the bare endpoint answers exactly that."""
    request = urllib.request.Request(call.url, data=call.body or None, headers=call.headers, method=call.method)
    with urllib.request.urlopen(request, context=context) as answer:
        body = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{call.name} answered {answer.status}: {body[:300]!r}")
        call.captured = {
            "status": answer.status,
            "headers": list(answer.headers.items()),
            "body": body.decode("latin-1"),
        }


# -- the bare endpoint (a child process) ----------------------------------------------------------------


def bare_app(routes: list[dict[str, Any]]) -> Any:
    """A Starlette app answering each route's captured answer (`method`, `path`, `answer`) after reading the
    request's body: the status, headers and body soundstage answered that call."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    def endpoint(answer: dict[str, Any]) -> Any:
        body = answer["body"].encode("latin-1")
        # Everything soundstage sent but what the server itself adds: the length, and `connection: close`
        # (an answer to the capturing client's own request, not to a load generator's).
        headers = {k.lower(): v for k, v in answer["headers"] if k.lower() not in ("content-length", "connection")}

        async def reply(request: Request) -> Response:
            await request.body()
            return Response(body, answer["status"], headers)

        return reply

    return Starlette(routes=[Route(r["path"], endpoint(r["answer"]), methods=[r["method"]]) for r in routes])


def serve_bare(spec: dict[str, Any]) -> None:
    """Serves each captured answer at its call's path, on a plain port and a TLS port, in one event loop."""
    import uvicorn

    app = bare_app(spec["routes"])
    stack = Stack.choose()  # soundstage serve's own: the same parser (its heads bounded) on the same loop
    settings = {**UVICORN, **stack.options()}
    servers = [
        (uvicorn.Server(uvicorn.Config(app, **settings)), bind("127.0.0.1", spec["port"])),
        (
            uvicorn.Server(uvicorn.Config(app, ssl_certfile=spec["certificate"], **settings)),
            bind("127.0.0.1", spec["tls_port"]),
        ),
    ]

    async def both() -> None:
        await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in servers))

    stack.run(both)


# -- driving them ---------------------------------------------------------------------------------------


def cpu(pid: int) -> float:
    """Seconds of CPU (user and system) process `pid` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Trials:
    """A grader's trials, one after another in a thread, against soundstage while it is under load: each creates
    a world of the scene, makes `TRIAL_CALLS` in it and deletes it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.trials = self.requests = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.failed: Exception | None = None

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self.failed is not None:
            raise RuntimeError("a trial failed") from self.failed

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                world = admin(self.base, "POST", "/v1/worlds", {"scene_yaml": SCENE})
                for call in calls(world)[:TRIAL_CALLS]:
                    request = urllib.request.Request(
                        call.url, data=call.body or None, headers=call.headers, method=call.method
                    )
                    with urllib.request.urlopen(request) as answer:
                        answer.read()
                admin(self.base, "DELETE", f"/v1/worlds/{world['id']}")
                self.trials += 1
                self.requests += TRIAL_CALLS + 4  # and two conversations.list (the channels' ids), create, delete
        except Exception as exc:  # noqa: BLE001 (whatever failed, __exit__ tells it in the measuring thread)
            self.failed = exc


def wrk(url: str, call: Call, seconds: int, connections: int, folder: Path) -> Round:
    script = folder / "call.lua"
    lines = [f"wrk.method = {_lua(call.method)}", f"wrk.body = {_lua(call.body.decode())}"]
    lines += [f"wrk.headers[ {_lua(k)} ] = {_lua(v)}" for k, v in call.headers.items()]
    script.write_text("\n".join(lines) + "\n")
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency", "-s", str(script), url]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE)
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    bad = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    bad += sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    if p99 is None or bad:
        raise RuntimeError(f"{call.name} at {url}: errors under load, or no latency distribution:\n{out}")
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return Round(rate, p99_ms, requests)


def _lua(text: str) -> str:
    return "[==[" + text + "]==]"


def _on(url: str, port: int, tls_port: int) -> str:
    """`url` (soundstage's) on the bare endpoint's ports."""
    parts = urlsplit(url)
    target = tls_port if parts.scheme == "https" else port
    return parts._replace(netloc=f"127.0.0.1:{target}").geturl()


def _wait(url: str, context: ssl.SSLContext | None = None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, context=context, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def admin(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"authorization": f"Bearer {ADMIN}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


@dataclass
class Row:
    name: str
    stack: list[Round]
    bare: list[Round]

    @property
    def rate(self) -> float:
        return statistics.median(r.rate for r in self.stack) / statistics.median(r.rate for r in self.bare)

    @property
    def p99(self) -> tuple[float, float]:
        return statistics.median(r.p99_ms for r in self.stack), statistics.median(r.p99_ms for r in self.bare)

    @property
    def cpu_us(self) -> tuple[float, float]:
        return statistics.median(r.cpu_us for r in self.stack), statistics.median(r.cpu_us for r in self.bare)


def run(
    seconds: int, connections: int, rounds: int = 3, only: str = "", trials: bool = False
) -> tuple[list[Row], dict[str, Any]]:
    """Drives every call whose name holds `only` against both servers, with a grader's trials beside soundstage's
    load when `trials`; answers the rows and what soundstage's world logged and the trials run."""
    if shutil.which("wrk") is None:
        raise SystemExit(INSTALL)
    home = Path(tempfile.mkdtemp(prefix="soundstage-load-"))
    port, tls_port, bare_port, bare_tls = (free_port() for _ in range(4))
    env = {**os.environ, "SOUNDSTAGE_HOME": str(home), "SOUNDSTAGE_ADMIN_TOKEN": ADMIN}
    with (home / "serve.log").open("w") as log:  # the child keeps its own copy of the descriptor
        stack = subprocess.Popen(
            [sys.executable, "-m", "soundstage", "serve", "--port", str(port), "--tls-port", str(tls_port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=ROOT,
        )
    bare: subprocess.Popen[bytes] | None = None
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base + "/healthz")
        context = ssl.create_default_context(cafile=str(home / "tls" / "ca.pem"))
        world = admin(base, "POST", "/v1/worlds", {"scene_yaml": SCENE})
        todo = [call for call in calls(world) if only.lower() in call.name.lower()]
        if not todo:
            raise SystemExit(f"no call's name holds {only!r}: " + ", ".join(c.name for c in calls(world)))
        for call in todo:
            capture(call, context)
        spec = {
            "port": bare_port,
            "tls_port": bare_tls,
            "certificate": str(home / "tls" / "server.pem"),
            "routes": [{"method": c.method, "path": urlsplit(c.url).path, "answer": c.captured} for c in todo],
        }
        (home / "bare.json").write_text(json.dumps(spec))
        bare = subprocess.Popen([sys.executable, __file__, "--bare", str(home / "bare.json")], cwd=ROOT)
        _wait(f"http://127.0.0.1:{bare_port}/healthz")
        rows = []
        pids = {"stack": stack.pid, "bare": bare.pid}
        done = 0
        for call in todo:
            capture(call, context)  # the body as it is now (the log and the channel have grown meanwhile)
            targets = {"stack": call.url, "bare": _on(call.url, bare_port, bare_tls)}
            for url in targets.values():  # warm both up: connections, caches, lazy indexes
                wrk(url, call, 1, connections, home)
            measured: dict[str, list[Round]] = {"stack": [], "bare": []}
            for _ in range(rounds):
                for which in ("bare", "stack"):
                    with Trials(base) if trials and which == "stack" else contextlib.nullcontext() as beside:
                        used = cpu(pids[which])
                        found = wrk(targets[which], call, seconds, connections, home)
                        used = cpu(pids[which]) - used
                        more = beside.requests if beside is not None else 0
                        done += beside.trials if beside is not None else 0
                    found.cpu_us = used / (found.requests + more) * 1e6
                    measured[which].append(found)
            rows.append(Row(call.name, measured["stack"], measured["bare"]))
        logged = admin(base, "GET", f"/v1/worlds/{world['id']}")
        return rows, {"last_seq": logged["last_seq"], "trials": done}
    finally:
        for child in (bare, stack):
            if child is not None:
                child.terminate()
                child.wait()
        shutil.rmtree(home, ignore_errors=True)


def report(rows: list[Row]) -> list[str]:
    lines = [
        (
            f"    {'call':<34} {'soundstage/s':>12} {'bare/s':>9} {'ratio':>6}   {'p99 ms':>7} {'bare p99':>8} "
            f"{'x':>5}   {'CPU µs':>6} {'bare':>5} {'ref':>5} {'x':>5}   "
            f"goal (rate >= {RATE_GOAL}, p99 <= {P99_GOAL:g}x, CPU <= {CPU_GOAL} of ref)"
        )
    ]
    for row in rows:
        stack_rate = statistics.median(r.rate for r in row.stack)
        bare_rate = statistics.median(r.rate for r in row.bare)
        p99, bare_p99 = row.p99
        used, bare_used = row.cpu_us
        misses = []
        if row.rate < RATE_GOAL:
            misses.append(f"rate short by {RATE_GOAL - row.rate:.2f}")
        if p99 > P99_GOAL * bare_p99:
            misses.append(f"p99 over by {p99 / bare_p99 - P99_GOAL:.1f}x")
        reference = REFERENCE.get(row.name)
        if reference is not None and used > CPU_GOAL * reference:
            misses.append(f"CPU over by {used / reference - CPU_GOAL:.2f} of ref")
        lines.append(
            f"    {row.name:<34} {stack_rate:>12,.0f} {bare_rate:>9,.0f} {row.rate:>6.2f}   {p99:>7.1f} "
            f"{bare_p99:>8.1f} {p99 / bare_p99:>5.1f}   {used:>6.0f} {bare_used:>5.0f} "
            f"{reference or '-':>5} {f'{used / reference:.2f}' if reference else '-':>5}   "
            f"{'ok' if not misses else 'MISSES: ' + ', '.join(misses)}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="length of each round")
    parser.add_argument("--connections", type=int, default=32, help="connections wrk keeps open")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each server per call")
    parser.add_argument("--only", default="", help="only the calls whose name holds this text, e.g. pulls")
    parser.add_argument("--trials", action="store_true", help="a grader's trials beside soundstage's load")
    parser.add_argument("--bare", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare:
        serve_bare(json.loads(Path(args.bare).read_text()))
        return
    rows, logged = run(args.seconds, args.connections, rounds=args.rounds, only=args.only, trials=args.trials)
    print("\n".join(report(rows)))
    print(f"    soundstage's world logged {logged['last_seq']:,} events; {logged['trials']:,} trials ran beside it")


if __name__ == "__main__":
    main()
