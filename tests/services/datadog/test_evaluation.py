"""Monitor state following the world's series as simulated time passes: overrides (faults) turn monitors to
Alert and back, transitions are single writes, downtimes mute without freezing the state; the
`datadog.monitor`/`datadog.downtime` checks and `record`/`diff`/`writes` on a live world; seed errors."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.clock import US
from soundstage.errors import SpecError
from soundstage.services.datadog.series import WINDOW_EVALUATIONS, end_override, set_override
from soundstage.services.datadog.store import MONITORS, SERIES
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld, Evaluations

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds


def _state(dd: DatadogWorld, ref: str) -> str:
    return dd.raw("GET", f"/api/v1/monitor/{dd.ref(ref)}").json()["overall_state"]


def _monitor_writes(dd: DatadogWorld, monitor_ref: str) -> list[dict[str, Any]]:
    return [
        e
        for e in dd.live.events()
        if e["kind"] == "write" and e["collection"] == MONITORS and e["id"] == dd.ref(monitor_ref)
    ]


def test_override_turns_a_monitor_to_alert_and_back(dd: DatadogWorld) -> None:
    world = dd.live.world
    assert set_override(world, "orders.latency.p99", ["service:orders"], 1500) == [
        dd.ref("p99_web1"),
        dd.ref("p99_web2"),
    ]
    assert _state(dd, "latency") == "OK"  # not evaluated yet
    dd.live.advance("2m")
    assert _state(dd, "latency") == "Alert"
    grouped = dd.raw("GET", f"/api/v1/monitor/{dd.ref('by_host')}", params={"group_states": "all"}).json()
    assert (grouped["overall_state"], {n: g["status"] for n, g in grouped["state"]["groups"].items()}) == (
        "Alert",
        {"host:web-1": "Alert", "host:web-2": "Alert"},
    )
    (write,) = _monitor_writes(dd, "latency")
    assert (write["t"], write["op"], write["fields"]) == (
        "2026-03-02T14:01:00Z",
        "changed",
        ["overall_state", "overall_state_modified", "state"],
    )
    assert end_override(world, "orders.latency.p99", ["service:orders"]) == [dd.ref("p99_web1"), dd.ref("p99_web2")]
    dd.live.advance("4m")
    assert _state(dd, "latency") == "Warn"  # the 5-minute window at 14:06 still holds the 1500 of 14:02
    dd.live.advance("1m")
    assert _state(dd, "latency") == "OK"
    record = dd.record(MONITORS, dd.ref("latency"))
    group = record["state"]["groups"]["*"]
    assert (group["last_triggered_ts"], group["last_resolved_ts"]) == (START + 360, START + 420)  # Warn at 14:06
    assert [w["fields"] for w in _monitor_writes(dd, "latency")][-1] == [
        "overall_state",
        "overall_state_modified",
        "state",
    ]


def test_a_monitor_is_evaluated_again_only_when_it_could_change(dd: DatadogWorld, evaluations: Evaluations) -> None:
    # Every value p99's normal shape can take (web-1 420 ± 40 ± 21, web-2 380 ± 20) is far below 600 and
    # 800, and the payments window holds its override's 50 only: after the first evaluation, nothing to compute.
    dd.live.advance("1m")
    evaluations.count = 0
    dd.live.advance("30m")
    assert evaluations.count == 0
    # A monitor whose threshold the noise can cross has its windows computed once, a point each, and is
    # evaluated again (a point) only where its state changes: at 7 of the 10 minutes.
    body = {"name": "noisy", "type": "metric alert", "query": "avg(last_1m):avg:orders.latency.p99{host:web-2} > 380"}
    noisy = str(dd.raw("POST", "/api/v1/monitor", json=body).json()["id"])
    evaluations.count = 0
    dd.live.advance("10m")
    flips = [e for e in dd.live.events() if e["kind"] == "write" and e["id"] == noisy and e["by"] is None]
    assert (evaluations.count, len(flips)) == (10 + 7, 7)
    # A step in a series its monitors read has them evaluated at once.
    set_override(dd.live.world, "orders.latency.p99", ["host:web-1"], 1500)
    dd.live.advance("1m")
    assert _state(dd, "by_host") == "Alert"


def test_a_month_long_window_is_evaluated_at_a_bounded_cost(dd: DatadogWorld, evaluations: Evaluations) -> None:
    # A minute at 5000, twenty days back, among 44,640 points of a month-long window.
    set_override(dd.live.world, "orders.latency.p99", ["host:web-2"], 5000, since=(START - 20 * 86400) * US)
    end_override(dd.live.world, "orders.latency.p99", ["host:web-2"], at=(START - 20 * 86400 + 60) * US)
    queries = {
        "peak": "max(last_31d):max:orders.latency.p99{host:web-2} > 4000",
        "mean": "avg(last_31d):avg:orders.latency.p99{host:web-2} > 400",
    }
    states = {}
    for name, query in queries.items():
        body = {"name": name, "type": "metric alert", "query": query}
        evaluations.count = 0
        states[name] = dd.raw("POST", "/api/v1/monitor", json=body).json()["overall_state"]
        assert evaluations.count <= WINDOW_EVALUATIONS
    assert states == {"peak": "Alert", "mean": "OK"}  # the peak counted exactly; the mean near base 380


def test_a_series_step_from_the_scene_and_recovery_thresholds(stage: Any) -> None:
    scene = """
name: dd-eval
task: test
clock: {start: "2026-03-02T14:00:00Z"}
seed:
  datadog:
    metrics:
      - {metric: queue.depth, tags: [service:jobs], base: 10, \
overrides: [{from: 3m, to: 6m, value: 100}, {from: 6m, to: 9m, value: 45}]}
    monitors:
      - ref: queue
        name: Queue deep
        query: "max(last_1m):avg:queue.depth{service:jobs} >= 50"
        options: {thresholds: {critical: 50, critical_recovery: 40}}
"""
    dd = DatadogWorld(stage.world(scene))
    seen = []
    for _ in range(10):
        dd.live.advance("1m")
        seen.append(_state(dd, "queue"))
    # 100 from 14:03 alerts; 45 from 14:06 is under 50 but over the recovery threshold, so it stays Alert
    assert seen == ["OK", "OK", "Alert", "Alert", "Alert", "Alert", "Alert", "Alert", "OK", "OK"]


def test_set_override_adds_a_series_when_none_matches(dd: DatadogWorld) -> None:
    world = dd.live.world
    (new_id,) = set_override(world, "checkout.errors", ["service:checkout"], 7, since=world.now() - 60 * US)
    record = world[SERIES].get(new_id)
    assert (record["metric"], record["tags"], record["overrides"]) == (
        "checkout.errors",
        ["service:checkout"],
        [{"from": world.now() - 60 * US, "to": None, "value": 7}],
    )
    points = dd.raw("GET", "/api/v1/query", params={"from": START - 60, "to": START, "query": "sum:checkout.errors{*}"})
    assert points.json()["series"][0]["pointlist"] == [[(START - 60) * 1000.0, 7.0], [START * 1000.0, 7.0]]


def test_downtime_mutes_without_freezing_the_state(dd: DatadogWorld) -> None:
    monitor_id = int(dd.ref("latency"))
    body = {
        "data": {"type": "downtime", "attributes": {"scope": "*", "monitor_identifier": {"monitor_id": monitor_id}}}
    }
    assert dd.raw("POST", "/api/v2/downtime", json=body).status_code == 200
    set_override(dd.live.world, "orders.latency.p99", [], 2000)
    dd.live.advance("5m")
    shown = dd.raw("GET", f"/api/v1/monitor/{monitor_id}", params={"with_downtimes": "true"}).json()
    assert (shown["overall_state"], len(shown["matching_downtimes"])) == ("Alert", 1)
    search = dd.raw("GET", "/api/v1/monitor/search", params={"query": "muted:true"}).json()
    assert ([m["id"] for m in search["monitors"]], search["counts"]["muted"]) == (
        [monitor_id],
        [{"name": True, "count": 1}],  # counts are over the monitors found
    )
    assert dd.checks(
        alert_muted={"state": {"datadog.monitor": {"monitor": "$latency", "state": "Alert", "muted": True}}},
        by_name={"state": {"datadog.monitor": {"monitor": "Orders p99 latency high", "muted": False}}},
        covered={"state": {"datadog.downtime": {"monitor": "$latency", "remaining_gte": "1h"}}},
        short={"state": {"datadog.downtime": {"monitor": "$latency", "duration_lte": "2h"}}},
        payments={"state": {"datadog.downtime": {"monitor": "$payments"}}},
    ) == {"alert_muted": True, "by_name": False, "covered": True, "short": False, "payments": False}


def test_record_diff_and_writes_on_monitors_and_downtimes(dd: DatadogWorld) -> None:
    monitor_id = int(dd.ref("payments"))
    body = {
        "data": {
            "type": "downtime",
            "attributes": {"scope": "env:prod", "monitor_identifier": {"monitor_id": monitor_id}},
        }
    }
    dd.raw("POST", "/api/v2/downtime", json=body)
    dd.raw("PUT", f"/api/v1/monitor/{monitor_id}", json={"name": "Payments errors (muted)"})
    assert dd.checks(
        renamed={"state": {"record": {"collection": "datadog.monitors", "where": {"name": "(muted)"}}}},
        alerting={
            "state": {
                "record": {
                    "collection": "datadog.monitors",
                    "where": {"id": monitor_id},
                    "field": "overall_state",
                    "equals": "Alert",
                }
            }
        },
        added={
            "state": {"diff": {"collection": "datadog.downtimes", "change": "added", "where": {"scope": "env:prod"}}}
        },
        changed={
            "state": {
                "diff": {
                    "collection": "datadog.monitors",
                    "change": "changed",
                    "changes": {"name": {"to": "Payments errors (muted)"}},
                }
            }
        },
        one_downtime_write={"state": {"writes": {"collection": "datadog.downtimes", "min": 1, "max": 1}}},
        one_monitor_write={"state": {"writes": {"collection": "datadog.monitors", "min": 1, "max": 1}}},
    ) == {
        "renamed": True,
        "alerting": True,
        "added": True,
        "changed": True,
        "one_downtime_write": True,
        "one_monitor_write": True,
    }


def test_worlds_from_the_same_scene_evaluate_alike(stage: Any) -> None:
    from .conftest import SCENE

    one, two = DatadogWorld(stage.world(SCENE)), DatadogWorld(stage.world(SCENE))
    for dd in (one, two):
        set_override(dd.live.world, "orders.latency.p99", ["host:web-2"], 950)
        dd.live.advance("15m")
    assert (
        one.raw("GET", "/api/v1/monitor", params={"group_states": "all"}).json()
        == two.raw("GET", "/api/v1/monitor", params={"group_states": "all"}).json()
    )
    assert one.live.world[MONITORS].get(one.ref("by_host"))["overall_state"] == "Alert"


HEAD = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n'


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        (
            "    monitors: [{name: m, query: 'avg:a{*} > 1'}]\n",
            "seed.datadog.monitors[0].query",
            (
                "The value provided for parameter 'query' is invalid: "
                "expected time_aggr(last_#m):space_aggr:metric{scope} [by {tags}] <comparator> <threshold>"
            ),
        ),
        (
            (
                "    monitors: [{name: m, type: 'metric alert', query: 'avg(last_5m):avg:a{*} > 1', "
                "options: {thresholds: {critical: 3}}}]\n"
            ),
            "seed.datadog.monitors[0].query",
            "Alert threshold (3.0) does not match that used in the query (1.0).",
        ),
        (
            "    metrics: [{metric: a, overrides: [{from: 2h, to: 1h, value: 1}]}]\n",
            "seed.datadog.metrics[0].overrides[0].to",
            "an override must end after it starts",
        ),
        (
            "    downtimes: [{monitor_identifier: {monitor_tags: [a:b]}, scope: 'env:(prod'}]\n",
            "seed.datadog.downtimes[0].scope",
            "invalid scope 'env:(prod'",
        ),
        (
            "    downtimes: [{monitor_identifier: {}}]\n",
            "seed.datadog.downtimes[0].monitor_identifier",
            "give monitor_id or monitor_tags",
        ),
        ("    hosts: [{name: a}, {name: a}]\n", "seed.datadog.hosts[1].name", "host 'a' is defined twice"),
    ],
)
def test_seed_errors(body: str, field: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(HEAD + body))
    assert (caught.value.field, caught.value.message) == (field, message)


def test_seed_given_state_and_explicit_id() -> None:
    body = (
        "    monitors:\n"
        "      - {ref: logs, id: 77, name: Errors in logs, type: log alert, "
        'query: \'logs("status:error").last("5m") > 10\', overall_state: Alert}\n'
        "      - {name: No data yet, query: 'avg(last_5m):avg:nothing.here{*} > 1'}\n"
    )
    image = build_image(*read_scene_text(HEAD + body))
    monitors = image.collections[MONITORS]
    assert [(m["id"], m["overall_state"]) for m in monitors] == [(77, "Alert"), (1000001, "No Data")]
    assert image.refs["logs"] == "77"


def test_a_later_series_with_the_same_metric_and_tags_replaces_the_earlier() -> None:
    body = (
        "    metrics:\n"
        "      - {metric: disk.used, tags: [host:a, env:prod], base: 0.5}\n"
        "      - {metric: disk.used, tags: [env:prod, host:a], base: 0.9}\n"
        "      - {metric: disk.used, tags: [host:b], base: 0.1}\n"
    )
    image = build_image(*read_scene_text(HEAD + body))
    assert [(s["tags"], s["base"]) for s in image.collections[SERIES]] == [
        (["env:prod", "host:a"], 0.9),
        (["host:b"], 0.1),
    ]
