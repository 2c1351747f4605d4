"""What Datadog metric queries and monitor evaluation cost, measured in one process.

    python benchmarks/datadog.py [--runs 5] [--calls 2400] [--monitors 20] [--moves 100] [--only-moves]

(a) `GET /api/v1/query` and `POST /api/v2/query/timeseries` over the last hour, day and 30 days, for 1
    series and for 20 (`by {host}`), each series with a base, a daily swing, noise and an override. Each
    figure is the median of `--runs` requests through the service (routing, keys, recording), each over a
    range a minute apart so that no answer is remembered (the buckets of normal values an earlier range
    shares are, as when an agent asks for the last hour again); "cold" is the first request of a fresh
    process, before anything computed is cached; "a range never asked before" is a range 40 days back or
    more, sharing no bucket with any range asked before in the process.
(b) `chat.postMessage` driven in-process through the ASGI app in a world that also holds `--monitors`
    metric monitors over those series (the clock ticks 5 s a call, so monitors are evaluated every 12
    calls): the calls per second, and the share of the engine's time spent evaluating monitors.
(c) `--moves` clock moves of 7 days (`POST /v1/worlds/<id>/clock {"advance": "7d"}`, `World.advance` here) in a
    world of each shipped scene with Datadog records of its own: the CPU seconds they take in all, and how many
    monitor evaluations (`evaluation.statuses`) ran. Goal: 100 moves under 5 s on the heaviest scene.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from bench import _drive

from soundstage.server import Hub, create_app
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.datadog import evaluation
from soundstage.world import World

SERIES = 20
SPANS = {"1h": 3600, "1d": 86400, "30d": 30 * 86400}


def scene(monitors: int) -> str:
    """A world with a Slack channel, `SERIES` noisy series of one metric and `monitors` metric monitors."""
    lines = [
        "name: datadog-bench",
        "task: bench",
        'clock: {start: "2026-03-02T14:00:00Z", tick: 5s}',
        "agent: {slack_user: $bot}",
        "seed:",
        "  slack:",
        "    team: {ref: acme, name: Acme, domain: acme}",
        "    users:",
        "      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}",
        "      - {ref: maya, name: maya, real_name: Maya Chen}",
        "    channels:",
        "      - {ref: general, name: general, members: [$bot, $maya]}",
        "  datadog:",
        "    metrics:",
    ]
    for i in range(SERIES):
        lines.append(
            f"      - {{metric: bench.latency, unit: millisecond, tags: [service:bench, host:h-{i}], base: 400,"
            f" noise: 5%, daily: 40, overrides: [{{from: -3h, to: -2h, value: 1500}}]}}"
        )
    if monitors:
        lines.append("    monitors:")
    for i in range(monitors):
        window = ("5m", "10m", "1h")[i % 3]
        by = " by {host}" if i % 2 else ""
        lines.append(
            f"      - {{name: bench {i}, type: query alert,"
            f' query: "avg(last_{window}):avg:bench.latency{{host:h-{i % SERIES}}}{by} > 900",'
            f" options: {{thresholds: {{critical: 900, warning: 600}}}}}}"
        )
    return "\n".join(lines) + "\n"


class Datadog:
    """A world of the benchmark scene, called through the Datadog service in-process."""

    def __init__(self, monitors: int = 0) -> None:
        hub = Hub()
        self.world: World = hub.add(hub.images.load(scene_yaml=scene(monitors)))
        self.service = SERVICES["datadog"]
        keys = {p.token_type: t for t, p in self.world.tokens.items() if p.service == "datadog"}
        self.principal = self.world.tokens[keys["api_key"]]
        self.headers = {
            "dd-api-key": keys["api_key"],
            "dd-application-key": keys["application_key"],
            "content-type": "application/json",
        }

    def call(self, method: str, path: str, query: dict[str, str], body: Any = None) -> float:
        """Seconds one request takes; fails on anything but a 200 with points."""
        request = ServiceRequest(
            method,
            path,
            query,
            self.headers,
            json.dumps(body).encode() if body else b"",
            "http://127.0.0.1:8750/w/x/datadog",
        )
        started = time.process_time()
        reply, content, _, _ = record(self.world, self.service, self.principal, request)
        elapsed = time.process_time() - started
        answer = json.loads(content)
        if reply.status != 200 or not (
            answer.get("series") or answer.get("data", {}).get("attributes", {}).get("times")
        ):
            raise RuntimeError(f"{path} answered {reply.status}: {str(answer)[:200]}")
        return elapsed

    def v1(self, text: str, span: int, back: int) -> float:
        end = self.world.now() // 1_000_000 - back
        return self.call("GET", "/api/v1/query", {"query": text, "from": str(end - span), "to": str(end)})

    def v2(self, text: str, span: int, back: int) -> float:
        end = (self.world.now() // 1_000_000 - back) * 1000
        body = {
            "data": {
                "type": "timeseries_request",
                "attributes": {
                    "from": end - span * 1000,
                    "to": end,
                    "queries": [{"data_source": "metrics", "name": "a", "query": text}],
                },
            }
        }
        return self.call("POST", "/api/v2/query/timeseries", {}, body)


def queries(runs: int) -> None:
    texts = {1: "avg:bench.latency{host:h-0}", SERIES: "avg:bench.latency{service:bench} by {host}"}
    cold = Datadog()
    first = cold.v1(texts[SERIES], SPANS["30d"], 0)
    print(f"(a) cold: the first request of the process, v1 30d x {SERIES} series: {first * 1000:.1f} ms")
    bench = Datadog()
    for api in ("v1", "v2"):
        for n, text in texts.items():
            figures = []
            for name, span in SPANS.items():
                ask = bench.v1 if api == "v1" else bench.v2
                samples = [ask(text, span, 60 * (run + 1)) for run in range(runs)]
                figures.append(f"{name} {statistics.median(samples) * 1000:8.1f} ms")
            print(f"    {api} {n:2d} series: " + "  ".join(figures))
    # Ranges 40 days apart, none of them, nor any bucket of them, asked before in this process.
    figures = []
    for name, span in SPANS.items():
        samples = [bench.v1(texts[SERIES], span, 40 * 86400 * (run + 1)) for run in range(runs)]
        figures.append(f"{name} {statistics.median(samples) * 1000:8.1f} ms")
    print(f"    v1 {SERIES:2d} series, a range never asked before: " + "  ".join(figures))


def slack_traffic(calls: int, monitors: int) -> tuple[float, float, int]:
    """Calls per second of `calls` chat.postMessage, the share of that time spent evaluating monitors, and
    how many monitor evaluations ran."""
    hub = Hub()
    app = create_app(hub)
    spent = [0.0, 0]
    evaluate = evaluation.evaluate_all

    def timed(world: World, until: int) -> int:
        started = time.process_time()
        quiet = evaluate(world, until)
        spent[0] += time.process_time() - started
        spent[1] += 1
        return quiet

    evaluation.evaluate_all = timed  # type: ignore[assignment]
    try:
        world = hub.add(hub.images.load(scene_yaml=scene(monitors)))  # made here, so that it runs `timed`
        token = next(t for t, p in world.tokens.items() if p.token_type == "bot")
        body = urlencode(
            {"channel": world.refs["general"], "text": "Benchmark message with a little text in it"}
        ).encode()
        headers = [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"authorization", f"Bearer {token}".encode()),
            (b"host", b"127.0.0.1:8750"),
        ]
        started = time.process_time()
        asyncio.run(_drive(app, f"/w/{world.id}/slack/api/chat.postMessage", body, headers, calls))
        elapsed = time.process_time() - started
    finally:
        evaluation.evaluate_all = evaluate  # type: ignore[assignment]
    return calls / elapsed, spent[0] / elapsed, int(spent[1])


def clock_moves(moves: int) -> None:
    """CPU seconds of `moves` 7-day clock moves in a world of each shipped Datadog scene, and the evaluations."""
    seven_days = 7 * 86400 * 1_000_000
    evaluated = [0]
    statuses = evaluation.statuses

    def counted(*args: Any) -> Any:
        evaluated[0] += 1
        return statuses(*args)

    evaluation.statuses = counted  # type: ignore[assignment]
    try:
        for path in sorted((ROOT / "seeds").glob("*.yaml")):
            if "datadog" not in path.read_text():
                continue
            hub = Hub()
            world = hub.add(hub.images.load(str(path)))
            evaluated[0] = 0
            started = time.process_time()
            for _ in range(moves):
                world.advance(seven_days)
            elapsed = time.process_time() - started
            print(
                f"(c) {path.stem:20s} {moves} moves of 7d: {elapsed:7.2f} s ({elapsed / moves * 1000:7.1f} ms a move),"
                f" {evaluated[0]:,} evaluations"
            )
    finally:
        evaluation.statuses = statuses  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="requests per query figure (median)")
    parser.add_argument("--calls", type=int, default=2400, help="chat.postMessage calls for (b)")
    parser.add_argument("--monitors", type=int, default=20, help="metric monitors in the world for (b)")
    parser.add_argument("--moves", type=int, default=100, help="7-day clock moves in each scene for (c)")
    parser.add_argument("--only-moves", action="store_true", help="run (c) alone")
    args = parser.parse_args()
    if args.only_moves:
        clock_moves(args.moves)
        return
    queries(args.runs)
    rounds: dict[int, list[tuple[float, float, int]]] = {0: [], args.monitors: []}
    for _ in range(3):  # interleaved rounds, so both see the same machine
        for monitors, found in rounds.items():
            found.append(slack_traffic(args.calls, monitors))
    bare = statistics.median(r[0] for r in rounds[0])
    rate, share, ticks = sorted(rounds[args.monitors])[1]
    print(
        f"(b) chat.postMessage in-process: {bare:,.0f} calls/s without monitors, {rate:,.0f} calls/s with "
        f"{args.monitors}; monitor evaluation {share:.1%} of the time ({ticks} evaluations of every monitor)"
    )
    clock_moves(args.moves)


if __name__ == "__main__":
    main()
