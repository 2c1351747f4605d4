"""Junk input to every Datadog operation: always Datadog's 4xx (`{"errors": [<str>...]}`) or a 2xx where the
junk is legitimately ignored, never a 500, and a call that failed leaves the world's records as they were."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from soundstage.services.datadog.calls import ops

from ..junk import Sweep, fill
from .conftest import SCENE, DatadogWorld

# The conftest scene plus one record of every other kind an operation reads.
ROBUST_SCENE = (
    SCENE
    + """
    incidents:
      - {ref: slow, title: Orders are slow, severity: SEV-2, commander: $bot_dd, ago: 30m}
    events:
      - {title: Deployed orders v1.4, text: Rolled out, tags: [service:orders], aggregation_key: k, ago: 10m}
    logs:
      - {ago: 2m, message: Timeout calling payments, service: orders, host: web-1, status: error}
    slos:
      - {name: Orders availability, type: monitor, monitor_ids: [$latency], thresholds: [{timeframe: 7d, target: 99}]}
"""
).replace(
    "    downtimes:",
    """      - {name: db-2, muted: true}
    dashboards:
      - {ref: dashboard, id: abc-def-ghi, title: Orders, widgets: [{definition: {type: note, content: hi}}]}
    downtimes:""",
)
OPERATIONS = sorted(ops.handlers)


FUTURE_S = 1772470000  # 2026-03-02T16:46:40Z
MONITOR = {
    "name": "m",
    "type": "query alert",
    "query": "avg(last_5m):avg:orders.latency.p99{service:orders} > 800",
    "message": "x @slack-ops",
    "tags": ["a:b"],
    "priority": 2,
    "options": {
        "thresholds": {"critical": 800, "warning": 600},
        "notify_no_data": False,
        "evaluation_delay": 60,
        "renotify_interval": 10,
    },
    "restricted_roles": ["r"],
    "draft_status": "published",
}
DOWNTIME_ATTRIBUTES = {
    "scope": "env:prod",
    "monitor_identifier": {"monitor_tags": ["team:core"]},
    "schedule": {"start": "2026-03-02T15:00:00Z", "end": "2026-03-02T16:00:00Z"},
    "message": "x",
    "display_timezone": "UTC",
    "mute_first_recovery_notification": False,
    "notify_end_states": ["alert"],
    "notify_end_types": ["canceled"],
}
INCIDENT_ATTRIBUTES = {
    "title": "t",
    "customer_impacted": True,
    "customer_impact_scope": "x",
    "customer_impact_start": "2026-03-02T13:00:00Z",
    "fields": {"severity": {"type": "dropdown", "value": "SEV-1"}, "state": {"type": "dropdown", "value": "active"}},
}
DOWNTIME_V1 = {
    "scope": ["env:prod"],
    "monitor_tags": ["team:core"],
    "start": FUTURE_S - 3600,
    "end": FUTURE_S,
    "message": "x",
    "timezone": "UTC",
    "mute_first_recovery_notification": False,
    "notify_end_states": ["alert"],
    "notify_end_types": ["canceled"],
}
METRIC_QUERY = {
    "from": (FUTURE_S - 7200) * 1000,
    "to": (FUTURE_S - 3600) * 1000,
    "interval": 60000,
    "queries": [
        {
            "data_source": "metrics",
            "name": "a",
            "query": "avg:orders.latency.p99{*} by {host,service}",
            "aggregator": "max",
        }
    ],
    "formulas": [{"formula": "a * 2", "limit": {"count": 1, "order": "asc"}}],
}
COMMANDER = {"commander_user": {"data": {"type": "users", "id": "1b8c2d3e-4f50-4a61-8b72-9c83d4e5f601"}}}
SEARCH = {
    "filter": {"query": "service:orders", "from": "now-1h", "to": "now", "indexes": ["main"]},
    "sort": "-timestamp",
    "page": {"limit": 10},
    "options": {"timezone": "UTC", "timeOffset": 0},
}
# A valid body per operation that reads one; every field of it is then replaced with each junk value.
TEMPLATES: dict[str, Any] = {
    "POST /api/v1/monitor": MONITOR,
    "PUT /api/v1/monitor/{monitor_id}": MONITOR,
    "POST /api/v1/monitor/{monitor_id}/mute": {"scope": "host:web-1", "end": FUTURE_S},
    "POST /api/v1/monitor/{monitor_id}/unmute": {"scope": "*", "all_scopes": True},
    "POST /api/v1/host/{host_name}/mute": {"end": FUTURE_S, "message": "x", "override": True},
    "POST /api/v1/host/{host_name}/unmute": {},
    "POST /api/v2/downtime": {"data": {"type": "downtime", "attributes": DOWNTIME_ATTRIBUTES}},
    "PATCH /api/v2/downtime/{downtime_id}": {
        "data": {"type": "downtime", "id": "{downtime_id}", "attributes": DOWNTIME_ATTRIBUTES}
    },
    "POST /api/v1/downtime": DOWNTIME_V1,
    "PUT /api/v1/downtime/{downtime_id}": DOWNTIME_V1,
    "POST /api/v1/downtime/cancel/by_scope": {"scope": "env:prod"},
    "PUT /api/v1/metrics/{metric_name}": {
        "description": "x",
        "short_name": "x",
        "unit": "byte",
        "per_unit": "second",
        "type": "gauge",
        "statsd_interval": 10,
    },
    "POST /api/v2/query/timeseries": {"data": {"type": "timeseries_request", "attributes": METRIC_QUERY}},
    "POST /api/v2/query/scalar": {"data": {"type": "scalar_request", "attributes": METRIC_QUERY}},
    "POST /api/v2/series": {
        "series": [
            {
                "metric": "a.b",
                "type": 3,
                "points": [{"timestamp": 1772460000, "value": 1.5}],
                "tags": ["a:b"],
                "resources": [{"name": "web-1", "type": "host"}],
                "unit": "byte",
                "interval": 60,
            }
        ]
    },
    "POST /api/v1/events": {
        "title": "t",
        "text": "x",
        "tags": ["a:b"],
        "alert_type": "error",
        "priority": "normal",
        "date_happened": FUTURE_S - 7200,
        "aggregation_key": "k",
        "host": "web-1",
        "source_type_name": "github",
        "related_event_id": 1,
    },
    "POST /api/v2/events/search": {
        "filter": {"query": "*", "from": "now-1h", "to": "now"},
        "sort": "timestamp",
        "page": {"limit": 10},
    },
    "POST /api/v2/logs/events/search": SEARCH,
    "POST /api/v2/incidents": {
        "data": {"type": "incidents", "attributes": INCIDENT_ATTRIBUTES, "relationships": COMMANDER}
    },
    "PATCH /api/v2/incidents/{incident_id}": {
        "data": {
            "type": "incidents",
            "id": "{incident_id}",
            "attributes": INCIDENT_ATTRIBUTES,
            "relationships": COMMANDER,
        }
    },
}
QUERIES: list[dict[str, Any]] = [
    {"page": ["1", "2"], "per_page": ["1", "2"], "page_size": "x", "count": ["1", "2"]},
    {"page": "-1", "per_page": "-5", "page_size": "0", "count": "-1", "start": "-3", "id_offset": "-9"},
    {"page": str(2**70), "per_page": "1e308", "page_size": str(2**70), "count": "99999999999999999999", "start": "x"},
    {"page[size]": "-1", "page[offset]": str(2**70), "page[limit]": "abc", "page[cursor]": "%%%", "page[number]": "x"},
    {"from": "yesterday", "to": "-1", "start": "abc", "end": "1e308", "since": "x", "until": "y"},
    {"from": str(2**70), "to": "-99999999999999", "start": str(2**63), "end": "nan", "query": "avg:x{*}"},
    {"from": "1772460000", "to": "1772400000", "query": "avg:orders.latency.p99{*} by {host}"},
    {"filter[from]": "bad", "filter[to]": "bad", "filter[query]": "((", "sort": "sideways", "filter[status]": "x"},
    {"filter[from]": str(2**70), "filter[to]": "-1", "filter[indexes]": ["a", "b"], "filter[storage_tier]": "x"},
    {"query": "avg:((", "group_states": "zz", "with_downtimes": "maybe", "monitor_tags": ",,,", "id_offset": "x"},
    {"include": "nonsense", "current_only": "perhaps", "priority": "urgent", "sources": "", "tags": ["a", "b"]},
    {"query": "status:(", "sort": "name,sideways", "filter": "x", "sort_field": "x", "sort_dir": "up"},
    {"filter[shared]": "x", "filter[email]": "", "filter[status]": "x", "sort": "-", "unaggregated": "x"},
    {"from": "", "to": "", "page": "", "query": "", "include": ",", "end": "", "include_muted_hosts_data": "x"},
    {"filter[query]": 'service:"unclosed', "sort": "timestamp", "page[limit]": "1001", "page[cursor]": "eyJ9"},
    {"from": "²", "to": "١٢", "start": "²", "end": "³", "filter[from]": "²", "filter[to]": "now-99999999999999999999w"},
    {"from": "now-99999999999999999999d", "to": "now+99999999999999999999d", "filter[from]": "99999999999999999999"},
    {"query": "monitor_id:abc", "type": "x", "name": ["a", "b"], "monitor_tags": ["a", "b"], "tags": "a:,:b"},
]


def real_ids(dd: DatadogWorld, operation: str = "") -> dict[str, str]:
    """Path parameters naming seeded records (a muted host for the host unmute; v1 names a downtime by its
    integer id)."""
    return {
        "monitor_id": dd.ref("latency"),
        "downtime_id": "4000000001" if "/api/v1/downtime" in operation else dd.ref("maintenance"),
        "metric_name": "orders.latency.p99",
        "dashboard_id": "abc-def-ghi",
        "incident_id": dd.ref("slow"),
        "host_name": "db-2" if operation == "POST /api/v1/host/{host_name}/unmute" else "web-1",
    }


def is_envelope(body: Any) -> bool:
    """Datadog's `{"errors": [<str>, ...]}`."""
    errors = body.get("errors") if isinstance(body, dict) else None
    return list(body) == ["errors"] and bool(errors) and all(isinstance(e, str) for e in errors)


def sweep(dd: DatadogWorld) -> Sweep:
    keys = {"Accept": "application/json", "DD-API-KEY": dd.api_key, "DD-APPLICATION-KEY": dd.app_key}
    return Sweep(dd.live.http, dd.url, keys, dd.live.world, is_envelope)


@pytest.fixture(scope="module")
def shared(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(ROBUST_SCENE))


def test_every_operation_is_covered() -> None:
    assert len(OPERATIONS) == 48
    assert set(TEMPLATES) <= set(OPERATIONS)


@pytest.mark.parametrize("operation", [o for o in OPERATIONS if "{" in o])
def test_junk_ids_get_a_datadog_error(shared: DatadogWorld, operation: str) -> None:
    sweep(shared).junk_ids(operation, {}, TEMPLATES.get(operation, {}), QUERIES)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_junk_gets_a_datadog_error(stage: Any, operation: str) -> None:
    dd = DatadogWorld(stage.world(ROBUST_SCENE))
    calls = sweep(dd)
    params = real_ids(dd, operation)
    calls.operation(operation, params, TEMPLATES.get(operation, {}), QUERIES)
    calls.readable(OPERATIONS, params)


@pytest.mark.parametrize("operation", sorted(TEMPLATES))
def test_the_valid_body_succeeds(stage: Any, operation: str) -> None:
    """The templates the junk is made from are themselves accepted (else the sweep would test little)."""
    dd = DatadogWorld(stage.world(ROBUST_SCENE))
    params = real_ids(dd, operation)
    method, template = operation.split(" ", 1)
    response = sweep(dd).send(method, fill(template, params), json=fill(TEMPLATES[operation], params))
    assert response.status_code < 300, response.text


# -- the bugs the sweep found, one focused test each ----------------------------------------------------


def invalid(name: str) -> dict[str, list[str]]:
    return {"errors": [f"The value provided for parameter '{name}' is invalid"]}


def refused(dd: DatadogWorld, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    """A call that must fail: its status and body, after checking that it changed no record."""
    before = dd.live.world.snapshot()
    response = dd.raw(method, path, **kwargs)
    assert dd.live.world.snapshot() == before
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"type": ["query alert"]}, "type"),
        ({"type": {"a": None}}, "type"),
        ({"options": {"evaluation_delay": "60"}}, "evaluation_delay"),
        ({"options": {"evaluation_delay": 1e308}}, "evaluation_delay"),
        ({"options": {"renotify_interval": 2**70}}, "renotify_interval"),
        ({"options": {"min_failure_duration": 7201}}, "min_failure_duration"),
        ({"options": {"notify_no_data": "yes"}}, "notify_no_data"),
        ({"options": {"escalation_message": 5}}, "escalation_message"),
        ({"options": {"thresholds": {"critical": 2**70}}}, "thresholds"),
        ({"options": {"variables": [{"n": 2**70}]}}, "options"),
    ],
)
def test_monitor_fields_of_the_wrong_type_are_a_400(dd: DatadogWorld, change: dict[str, Any], name: str) -> None:
    """A non-string type was a 500, options of the wrong type broke the evaluation (500), and integers wider
    than int64 were stored and then could not be encoded (a 500 after the write)."""
    body = {**MONITOR, **change}
    assert refused(dd, "POST", "/api/v1/monitor", json=body) == (400, invalid(name))
    assert refused(dd, "PUT", f"/api/v1/monitor/{dd.ref('latency')}", json=body) == (400, invalid(name))


def test_view_parameters_are_checked_before_the_write(dd: DatadogWorld) -> None:
    """A bad `group_states`/`with_downtimes`/`include` used to be noticed only when rendering the reply, after
    the monitor, mute or downtime had been written."""
    monitor = f"/api/v1/monitor/{dd.ref('latency')}"
    downtime = dd.ref("maintenance")
    patch = {"data": {"type": "downtime", "id": downtime, "attributes": {"message": "m"}}}
    bad_states, bad_flag = {"group_states": "zz"}, {"with_downtimes": "maybe"}
    assert refused(dd, "POST", "/api/v1/monitor", json=MONITOR, params=bad_states) == (400, invalid("group_states"))
    assert refused(dd, "PUT", monitor, json=MONITOR, params=bad_flag) == (400, invalid("with_downtimes"))
    assert refused(dd, "POST", f"{monitor}/mute", json={}, params=bad_states) == (400, invalid("group_states"))
    assert refused(dd, "POST", f"{monitor}/unmute", json={}, params=bad_flag) == (400, invalid("with_downtimes"))
    assert refused(dd, "PATCH", f"/api/v2/downtime/{downtime}", json=patch, params={"include": "x"}) == (
        400,
        invalid("include"),
    )


@pytest.mark.parametrize("end", [2**70, 1e308, 253_402_300_800, -5])
def test_mute_ends_that_are_no_time_are_a_400(dd: DatadogWorld, end: Any) -> None:
    """A mute ending past year 9999 (or beyond int64) was stored, and its reply and every later downtime list
    were 500s."""
    assert refused(dd, "POST", f"/api/v1/monitor/{dd.ref('latency')}/mute", json={"end": end}) == (400, invalid("end"))
    assert refused(dd, "POST", "/api/v1/host/web-1/mute", json={"end": end}) == (400, invalid("end"))


def test_event_numbers_beyond_int64_are_a_400(dd: DatadogWorld) -> None:
    event = {"title": "t", "text": "x"}
    assert refused(dd, "POST", "/api/v1/events", json={**event, "date_happened": 2**70}) == (
        400,
        {"errors": ["Invalid 'date_happened': expected epoch seconds"]},
    )
    assert refused(dd, "POST", "/api/v1/events", json={**event, "related_event_id": 2**70}) == (
        400,
        {"errors": ["Invalid 'related_event_id': expected an integer"]},
    )


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("POST", "/api/v2/logs/events/search", {"json": {"filter": {"from": "²"}}}),
        ("POST", "/api/v2/events/search", {"json": {"filter": {"from": "²"}}}),
        ("GET", "/api/v2/logs/events", {"params": {"filter[from]": "²"}}),
        ("GET", "/api/v2/events", {"params": {"filter[from]": "²"}}),
    ],
)
def test_non_ascii_digits_are_no_time(dd_shared: DatadogWorld, method: str, path: str, kwargs: Any) -> None:
    """`"²".isdigit()` is true but `int("²")` fails: the search times were a 500."""
    response = dd_shared.raw(method, path, **kwargs)
    assert (response.status_code, response.json()) == (
        400,
        {"errors": ["Invalid 'from': expected a date (ISO-8601, epoch milliseconds or now-15m), found '²'"]},
    )


def test_json_nested_too_deep_is_invalid_json(shared: DatadogWorld) -> None:
    # deep enough for json.loads to raise RecursionError, small enough for the trace to keep the parsed body
    deep = '{"name": "m", "options": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    response = shared.raw("POST", "/api/v1/monitor", content=deep, headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()) == (
        400,
        {"errors": ["Invalid JSON: body is not valid JSON: nested more than 100 levels deep"]},
    )
    call = shared.live.trace()[-1]
    assert (call["operation"], call["status"], call["body"]) == ("POST /api/v1/monitor", 400, None)


def test_a_forged_cursor_nested_too_deep_is_a_400(shared: DatadogWorld) -> None:
    # deep enough for json.loads to raise RecursionError, short enough for a URL
    forged = base64.urlsafe_b64encode(("[" * 5000 + "]" * 5000).encode()).decode()
    response = shared.raw("GET", "/api/v2/logs/events", params={"page[cursor]": forged})
    assert response.status_code == 400
    assert response.json()["errors"][0].startswith("Invalid 'page[cursor]': ")


@pytest.mark.parametrize("path", ["/api/v1/monitor/search", "/api/v1/monitor/groups/search"])
@pytest.mark.parametrize("name", ["page", "per_page"])
@pytest.mark.parametrize("value", ["99999999999999999999", "1_0", "²", " 1"])
def test_paging_numbers_that_are_no_int64_are_a_400(dd_shared: DatadogWorld, path: str, name: str, value: str) -> None:
    """`per_page=99999999999999999999` was echoed in the reply's metadata, which could not be encoded: a 500."""
    response = dd_shared.raw("GET", path, params={name: value})
    assert (response.status_code, response.json()) == (400, invalid(name))
