"""A clock move costs what it changes: the minute's monitor evaluation runs only when a monitor could change,
and the world's log is exactly the one evaluating every monitor every minute gives, through week-long moves,
calls that write series and monitors, faults starting and recovering, people and PagerDuty's timers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from soundstage.clock import US, parse_duration
from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.datadog import evaluation
from soundstage.services.datadog.store import MONITORS, SERIES
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene, read_scene_text
from soundstage.world import World

from .conftest import Evaluations

SEEDS = Path(__file__).parents[3] / "seeds"
MINUTE = 60 * US
# The shipped scenes with Datadog records or faults of their own, and csv-export for the others: their Datadog
# is the acme world's alone (the same series, monitors, faults and seed as csv-export's).
SCENES = sorted(
    path.stem for path in SEEDS.glob("*.yaml") if path.stem == "csv-export" or "datadog" in path.read_text()
)
# Monitors crossing thresholds again and again, windows of series on other intervals, an evaluation delay,
# recovery thresholds, no data, a downtime, and a fault that holds a monitor and steps a metric while a
# monitor named "trigger" exists.
SCENE = """
name: dd-moves
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    users:
      - {ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}
    metrics:
      - {metric: app.latency, tags: [host:a], base: 380, noise: 20, daily: 30}
      - {metric: app.latency, tags: [host:b], base: 400, noise: 5%, interval: 20}
      - {metric: app.latency, tags: [host:c], base: 300, interval: 90, overrides: [{from: -10m, to: 2h, value: 900}]}
      - {metric: app.errors, type: count, tags: [host:a], base: 2, noise: 2}
      - {metric: app.errors, type: count, tags: [host:b], base: 3, noise: 1, \
overrides: [{from: 1d, to: 26h, value: 40}]}
      - {metric: app.queue, tags: [host:a], base: 10, noise: 10}
    monitors:
      - ref: latency
        name: latency flips
        type: query alert
        query: "avg(last_5m):avg:app.latency{*} > 420"
        options: {thresholds: {critical: 420, warning: 400, critical_recovery: 410}, evaluation_delay: 90}
      - ref: by_host
        name: latency by host
        type: metric alert
        query: "max(last_10m):max:app.latency{*} by {host} > 850"
        options: {thresholds: {critical: 850, warning: 430}, notify_no_data: true}
      - ref: errors
        name: errors
        type: query alert
        query: "sum(last_10m):sum:app.errors{*} > 60"
        options: {thresholds: {critical: 60, warning: 55}}
      - ref: queue
        name: queue
        type: query alert
        query: "min(last_1h):avg:app.queue{host:a} < 1"
        options: {thresholds: {critical: 1}}
      - ref: quiet
        name: never evaluated
        type: service check
        query: '"http.can_connect".over("*").by("host").last(2).count_by_status()'
    downtimes:
      - {scope: "*", monitor_identifier: {monitor_id: $latency}, schedule: {start: 1h, end: 3d}, message: quiet}
faults:
  - id: tripped
    active_while: {record: {collection: datadog.monitors, where: {name: trigger}}}
    effects:
      - datadog.monitor: {monitor: $errors, state: Alert}
      - metric: {name: app.latency, value: 2000, tags: [host:a]}
    recover_after: 7m
"""


def _minute_by_minute(world: World) -> None:
    """The reference: every monitor the world evaluates, evaluated at every whole minute."""

    def tick(world: World) -> None:
        held = world.part(evaluation.Held)
        for monitor in list(world[MONITORS]):
            if str(monitor["id"]) not in held:
                fields = evaluation.changes(world[SERIES], world.ids.seed, monitor, world.now())
                if fields:
                    world[MONITORS].change(str(monitor["id"]), **fields)
        world.schedule(world.now() + MINUTE, tick)

    world.schedule((world.clock.start // MINUTE + 1) * MINUTE, tick)


class Twins:
    """One scene's world twice, evaluated the fast way and the reference way, driven alike."""

    def __init__(self, image: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        hub = Hub()
        self.fast = hub.add(image)
        with monkeypatch.context() as patched:
            patched.setattr(evaluation, "attach", _minute_by_minute)
            self.reference = hub.add(image)
        self.keys = {
            w.id: {p.token_type: t for t, p in w.tokens.items() if p.service == "datadog"} for w in self.worlds
        }

    @property
    def worlds(self) -> tuple[World, World]:
        return self.fast, self.reference

    def advance(self, duration: str) -> None:
        for world in self.worlds:
            world.advance(parse_duration(duration))

    def call(self, method: str, path: str, body: Any = None) -> list[Any]:
        """The same Datadog call in both worlds; answers each world's answer."""
        answers = []
        for world in self.worlds:
            keys = self.keys[world.id]
            headers = {
                "dd-api-key": keys["api_key"],
                "dd-application-key": keys["application_key"],
                "content-type": "application/json",
            }
            request = ServiceRequest(
                method, path, {}, headers, json.dumps(body).encode() if body else b"", "http://x/dd"
            )
            reply, content, _, _ = record(world, SERVICES["datadog"], world.tokens[keys["api_key"]], request)
            assert reply.status < 300, content
            answers.append(json.loads(content) if content else None)
        return answers

    def same(self) -> list[dict[str, Any]]:
        logs = [[event.model_dump(mode="json") for event in world.log.events] for world in self.worlds]
        assert logs[0] == logs[1]
        assert self.fast.state() == self.reference.state()
        return logs[0]


def _points(world: World, metric: str, host: str, value: float, minutes: int) -> dict[str, Any]:
    now = world.now() // US
    points = [{"timestamp": now - 60 * i, "value": value} for i in range(minutes)]
    return {"series": [{"metric": metric, "type": 1, "points": points, "tags": [f"host:{host}"]}]}


def _monitor(name: str, query: str, **options: Any) -> dict[str, Any]:
    return {"name": name, "type": "query alert", "query": query, "options": options}


@pytest.mark.parametrize("scene", SCENES)
def test_week_long_moves_log_what_evaluating_every_minute_logs(scene: str, monkeypatch: pytest.MonkeyPatch) -> None:
    twins = Twins(build_image(*read_scene(SEEDS / f"{scene}.yaml")), monkeypatch)
    twins.advance("7d")
    twins.advance("37s")
    # Points submitted into a series a monitor reads, and a monitor the noise moves across its thresholds.
    twins.call("POST", "/api/v2/series", _points(twins.fast, "orders.errors", "web-1", 30, 10))
    (created, _) = twins.call(
        "POST",
        "/api/v1/monitor",
        _monitor("noisy", "avg(last_5m):avg:orders.latency.p99{service:orders} > 195", thresholds={"critical": 195}),
    )
    twins.advance("8h")
    changed = {
        "query": "max(last_1h):max:orders.latency.p99{*} by {host} > 225",
        "options": {"thresholds": {"critical": 225}},
    }
    twins.call("PUT", f"/api/v1/monitor/{created['id']}", changed)
    twins.advance("2h")
    twins.advance("10h")
    twins.call("DELETE", f"/api/v1/monitor/{created['id']}")
    twins.advance("1h")
    log = twins.same()
    assert any(e["kind"] == "write" and e["collection"] == MONITORS for e in log)


def test_faults_downtimes_and_other_intervals_log_what_evaluating_every_minute_logs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    twins = Twins(build_image(*read_scene_text(SCENE)), monkeypatch)
    twins.advance("7d")
    (trigger, _) = twins.call("POST", "/api/v1/monitor", _monitor("trigger", "avg(last_5m):avg:app.queue{*} > 1000"))
    twins.advance("1d")
    twins.call("DELETE", f"/api/v1/monitor/{trigger['id']}")  # the fault resolves; `errors` is released 7m later
    twins.advance("5m")
    twins.call("POST", "/api/v2/series", _points(twins.fast, "app.errors", "c", 9, 30))
    twins.advance("2d")
    twins.call("POST", "/api/v1/monitor", _monitor("trigger", "avg(last_5m):avg:app.queue{*} > 1000"))
    twins.advance("1d")
    log = twins.same()
    kinds = [e["kind"] for e in log]
    assert kinds.count("fault_started") == 2 and kinds.count("fault_resolved") == 1
    transitions = [
        e for e in log if e["kind"] == "write" and e["collection"] == MONITORS and "overall_state" in e["fields"]
    ]
    assert len(transitions) > 100  # the latency monitor flips again and again: the windows were computed


def test_a_week_long_move_evaluates_only_what_could_change(
    evaluations: Evaluations, monkeypatch: pytest.MonkeyPatch
) -> None:
    # latency-incident's errors monitor sums web-3's 9 errors a minute and the noise of two hosts: about 110,
    # against a threshold of 100 the noise may reach, so its windows are computed, a day at a time; its other
    # monitors are steady, web-3's p99 at 3100 holding the average above 800 whatever the others' noise.
    world = Hub().add(build_image(*read_scene(SEEDS / "latency-incident.yaml")))
    world.advance(parse_duration("1m"))
    evaluated = []
    statuses = evaluation.statuses
    monkeypatch.setattr(evaluation, "statuses", lambda *args: evaluated.append(args[3]) or statuses(*args))
    evaluations.count = 0
    for _ in range(3):
        world.advance(parse_duration("7d"))
    # One evaluation a day, each computing that day's points of web-1 and web-2 (web-3's are its override's).
    # One evaluation a day (and one at each move's end), each computing about a day of points of web-1 and web-2
    # at once (web-3's are its override's): evaluating every minute was 60,480 evaluations and 907,200 points.
    assert (len(evaluated), evaluations.count) == (21, 61_278)
