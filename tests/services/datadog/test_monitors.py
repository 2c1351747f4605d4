"""Monitors (v1): list with filters and paging, create, get, edit, delete, search, group search and the
legacy mute/unmute, through datadog-api-client and raw httpx, with Datadog's errors."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.datadog.store import DOWNTIMES, MONITORS

from .conftest import BOT_ID, DatadogWorld

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds
IDS = [1000001, 1000002, 1000003]


def _monitors_api(client: Any) -> Any:
    from datadog_api_client.v1.api.monitors_api import MonitorsApi

    return MonitorsApi(client)


def test_raw_get_monitor_shape(dd_shared: DatadogWorld) -> None:
    response = dd_shared.raw("GET", f"/api/v1/monitor/{dd_shared.ref('latency')}", params={"group_states": "all"})
    assert response.status_code == 200
    assert response.json() == {
        "id": 1000001,
        "name": "Orders p99 latency high",
        "type": "query alert",
        "query": "avg(last_5m):avg:orders.latency.p99{service:orders} > 800",
        "message": "p99 is high @slack-orders",
        "tags": ["service:orders", "team:core"],
        "priority": 2,
        "options": {  # as Datadog's web app saves them, and the API's own defaults
            "notify_no_data": False,
            "notify_audit": False,
            "include_tags": True,
            "require_full_window": False,
            "renotify_interval": 0,
            "new_group_delay": 60,
            "new_host_delay": 300,
            "groupby_simple_monitor": False,
            "thresholds": {"critical": 800, "warning": 600},
            "silenced": {},
        },
        "overall_state": "OK",
        "overall_state_modified": "2026-03-02T14:00:00+00:00",  # evaluations keep to the second
        "creator": {"email": "stagebot@acme.test", "handle": "stagebot@acme.test", "id": 1445001, "name": "Stage Bot"},
        "created": "2026-01-31T13:59:59.983373+00:00",
        "created_at": 1769867999000,
        "modified": "2026-01-31T13:59:59.983373+00:00",
        "deleted": None,
        "multi": False,
        "restricted_roles": None,
        "draft_status": "published",
        "org_id": 1,
        "state": {
            "groups": {
                "*": {
                    "name": "*",
                    "status": "OK",
                    "last_triggered_ts": 0,
                    "last_resolved_ts": 0,
                    "last_nodata_ts": 0,
                    "last_notified_ts": 0,
                }
            }
        },
    }


def test_seeded_states(dd_shared: DatadogWorld) -> None:
    monitors = dd_shared.raw("GET", "/api/v1/monitor", params={"group_states": "all"}).json()
    assert [(m["id"], m["overall_state"]) for m in monitors] == [(1000001, "OK"), (1000002, "OK"), (1000003, "Alert")]
    assert {n: g["status"] for n, g in monitors[1]["state"]["groups"].items()} == {
        "host:web-1": "OK",
        "host:web-2": "OK",
    }
    assert monitors[2]["state"]["groups"]["*"]["last_triggered_ts"] == START


@pytest.mark.parametrize(
    ("params", "ids"),
    [
        ({"name": "orders"}, IDS[:2]),
        ({"monitor_tags": "team:payments"}, IDS[2:]),
        ({"monitor_tags": "service:orders,team:core"}, IDS[:2]),
        ({"tags": "env:prod"}, IDS[1:2]),
        ({"id_offset": "1000001"}, IDS[1:]),
        ({"page": "0", "page_size": "2"}, IDS[:2]),
        ({"page": "1", "page_size": "2"}, IDS[2:]),
    ],
)
def test_raw_list_filters(dd_shared: DatadogWorld, params: dict[str, str], ids: list[int]) -> None:
    response = dd_shared.raw("GET", "/api/v1/monitor", params=params)
    assert [m["id"] for m in response.json()] == ids


def test_group_states_filter(dd_shared: DatadogWorld) -> None:
    monitors = dd_shared.raw("GET", "/api/v1/monitor", params={"group_states": "alert"}).json()
    assert [list(m["state"]["groups"]) for m in monitors] == [[], [], ["*"]]
    assert "state" not in dd_shared.raw("GET", "/api/v1/monitor").json()[0]


def test_sdk_list_and_pagination(dd_shared: DatadogWorld) -> None:
    with dd_shared.client() as client:
        api = _monitors_api(client)
        assert [m.id for m in api.list_monitors()] == IDS
        assert [m.id for m in api.list_monitors_with_pagination(page_size=2)] == IDS
        monitor = api.get_monitor(IDS[0], group_states="all", with_downtimes=True)
    assert (monitor.name, str(monitor.overall_state), monitor.matching_downtimes) == (
        "Orders p99 latency high",
        "OK",
        [],
    )
    assert monitor.created.isoformat() == "2026-01-31T13:59:59.983373+00:00"


def test_sdk_create_edit_delete(dd: DatadogWorld) -> None:
    from datadog_api_client.v1.model.monitor import Monitor
    from datadog_api_client.v1.model.monitor_options import MonitorOptions
    from datadog_api_client.v1.model.monitor_thresholds import MonitorThresholds
    from datadog_api_client.v1.model.monitor_type import MonitorType
    from datadog_api_client.v1.model.monitor_update_request import MonitorUpdateRequest

    with dd.client() as client:
        api = _monitors_api(client)
        created = api.create_monitor(
            Monitor(
                name="web-2 latency",
                type=MonitorType.METRIC_ALERT,
                query="avg(last_5m):avg:orders.latency.p99{host:web-2} > 300",
                message="@pagerduty-orders",
                tags=["service:orders"],
                options=MonitorOptions(thresholds=MonitorThresholds(critical=300.0)),
            )
        )
        assert (created.id, str(created.overall_state), created.creator.handle, created.creator.id) == (
            1000004,
            "Alert",
            "stagebot@acme.test",
            1445001,
        )
        assert created.created.isoformat() == "2026-03-02T13:59:59.435020+00:00"
        edited = api.update_monitor(
            created.id,
            MonitorUpdateRequest(
                query="avg(last_5m):avg:orders.latency.p99{host:web-2} > 500",
                options=MonitorOptions(thresholds=MonitorThresholds(critical=500.0)),
            ),
        )
        assert (edited.name, str(edited.overall_state), edited.modified.isoformat()) == (
            "web-2 latency",
            "OK",
            "2026-03-02T14:00:04.804007+00:00",
        )
        assert api.delete_monitor(created.id).to_dict() == {"deleted_monitor_id": 1000004}
    assert str(created.id) not in dd.live.world[MONITORS]


def test_raw_create_fills_defaults_and_edit_keeps_fields(dd: DatadogWorld) -> None:
    body = {"type": "query alert", "query": "max(last_10m):max:orders.requests{*} < 10", "name": "Traffic stopped"}
    created = dd.raw("POST", "/api/v1/monitor", json=body)
    assert created.status_code == 200
    monitor = created.json()
    assert (monitor["options"]["thresholds"], monitor["overall_state"], monitor["multi"]) == (
        {"critical": 10.0},
        "OK",
        False,
    )
    assert monitor["creator"] == {
        "email": "stagebot@acme.test",
        "handle": "stagebot@acme.test",
        "id": 1445001,
        "name": "Stage Bot",
    }
    edited = dd.raw("PUT", f"/api/v1/monitor/{monitor['id']}", json={"tags": ["team:core"], "priority": 1}).json()
    assert (edited["name"], edited["tags"], edited["priority"], edited["query"]) == (
        "Traffic stopped",
        ["team:core"],
        1,
        body["query"],
    )


def test_edit_replaces_the_options_keeping_given_nulls(dd: DatadogWorld) -> None:
    """As in Datadog's recorded edit: the new options replace the old ones, a null stays null, a null
    threshold goes, and the defaults come back."""
    body = {
        "type": "query alert",
        "query": "max(last_10m):max:orders.requests{*} < 10",
        "name": "Traffic stopped",
        "options": {"enable_logs_sample": True, "locked": False, "renotify_interval": 60, "timeout_h": 24},
    }
    monitor = dd.raw("POST", "/api/v1/monitor", json=body).json()
    options = {
        "evaluation_delay": None,
        "new_group_delay": 600,
        "new_host_delay": None,
        "renotify_interval": None,
        "thresholds": {"critical": 10, "warning": None},
        "timeout_h": None,
    }
    edited = dd.raw("PUT", f"/api/v1/monitor/{monitor['id']}", json={"options": options})
    assert edited.status_code == 200
    assert edited.json()["options"] == {
        "notify_no_data": False,
        "notify_audit": False,
        "include_tags": True,
        "new_host_delay": None,
        "groupby_simple_monitor": False,
        "evaluation_delay": None,
        "new_group_delay": 600,
        "renotify_interval": None,
        "thresholds": {"critical": 10},
        "timeout_h": None,
        "silenced": {},
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": "bogus", "query": "avg(last_5m):avg:a{*} > 1"}, "The value provided for parameter 'type' is invalid"),
        ({"query": "avg(last_5m):avg:a{*} > 1"}, "The value provided for parameter 'type' is invalid"),
        ({"type": "metric alert"}, "The value provided for parameter 'query' is invalid"),
        (
            {"type": "metric alert", "query": "avg:a{*} > 1"},
            (
                "The value provided for parameter 'query' is invalid: "
                "expected time_aggr(last_#m):space_aggr:metric{scope} [by {tags}] <comparator> <threshold>"
            ),
        ),
        (
            {"type": "metric alert", "query": "avg(last_5m):" + " " * 100_000 + "x"},  # once quadratic to refuse
            (
                "The value provided for parameter 'query' is invalid: "
                "expected time_aggr(last_#m):space_aggr:metric{scope} [by {tags}] <comparator> <threshold>"
            ),
        ),
        (
            {"type": "metric alert", "query": "avg(last_32d):avg:a{*} > 1"},
            (
                "The value provided for parameter 'query' is invalid: "
                "the evaluation window is longer than a month (last_31d)"
            ),
        ),
        (
            {"type": "metric alert", "query": "avg(last_" + "9" * 5000 + "d):avg:a{*} > 1"},
            (
                "The value provided for parameter 'query' is invalid: "
                "the evaluation window is longer than a month (last_31d)"
            ),
        ),
        (
            {"type": "metric alert", "query": "avg(last_5m):avg:a{*} > 1", "options": {"thresholds": {"critical": 2}}},
            "Alert threshold (2.0) does not match that used in the query (1.0).",
        ),
        (
            {"type": "metric alert", "query": "avg(last_5m):avg:a{*} > 1", "priority": 9},
            "The value provided for parameter 'priority' is invalid",
        ),
        (
            {"type": "metric alert", "query": "avg(last_5m):avg:a{*} > 1", "tags": "x"},
            "The value provided for parameter 'tags' is invalid",
        ),
    ],
)
def test_create_errors(dd_shared: DatadogWorld, body: dict[str, Any], message: str) -> None:
    response = dd_shared.raw("POST", "/api/v1/monitor", json=body)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})


def test_sdk_create_error(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v1.model.monitor import Monitor
    from datadog_api_client.v1.model.monitor_type import MonitorType

    with dd_shared.client() as client, pytest.raises(ApiException) as caught:
        _monitors_api(client).create_monitor(Monitor(type=MonitorType.QUERY_ALERT, query="avg(last_5m):nope"))
    assert caught.value.status == 400


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v1/monitor/42"), ("PUT", "/api/v1/monitor/42"), ("DELETE", "/api/v1/monitor/abc")],
)
def test_not_found(dd_shared: DatadogWorld, method: str, path: str) -> None:
    response = dd_shared.raw(method, path, json={} if method == "PUT" else None)
    assert (response.status_code, response.json()) == (404, {"errors": ["Monitor not found"]})


def test_sdk_not_found_and_forbidden(dd_shared: DatadogWorld) -> None:
    from datadog_api_client import ApiClient, Configuration
    from datadog_api_client.exceptions import ForbiddenException, NotFoundException

    with dd_shared.client() as client, pytest.raises(NotFoundException) as missing:
        _monitors_api(client).get_monitor(42)
    assert missing.value.body == {"errors": ["Monitor not found"]}
    config = Configuration(host=dd_shared.url, api_key={"apiKeyAuth": dd_shared.api_key, "appKeyAuth": "wrong"})
    with ApiClient(config) as client, pytest.raises(ForbiddenException) as forbidden:
        _monitors_api(client).list_monitors()
    assert forbidden.value.body == {"errors": ["Forbidden"]}


def test_unknown_path_is_404(dd_shared: DatadogWorld) -> None:
    response = dd_shared.raw("GET", "/api/v1/nothing/here")
    assert (response.status_code, response.json()) == (404, {"errors": ["Not found"]})


def test_raw_search(dd_shared: DatadogWorld) -> None:
    body = dd_shared.raw("GET", "/api/v1/monitor/search", params={"query": 'tag:"service:orders" type:metric'}).json()
    assert [m["id"] for m in body["monitors"]] == IDS[:2]
    assert body["metadata"] == {"page": 0, "page_count": 1, "per_page": 30, "total_count": 2}
    assert body["counts"] == {
        "status": [{"name": "OK", "count": 2}],
        "muted": [{"name": False, "count": 2}],
        "tag": [{"name": "service:orders", "count": 2}, {"name": "team:core", "count": 2}],
        "type": [{"name": "metric", "count": 2}],
    }
    assert body["monitors"][0] == {
        "id": 1000001,
        "name": "Orders p99 latency high",
        "status": "OK",
        "type": "query alert",
        "classification": "metric",
        "tags": ["service:orders", "team:core"],
        "query": "avg(last_5m):avg:orders.latency.p99{service:orders} > 800",
        "metrics": ["orders.latency.p99"],
        "scopes": ["service:orders"],
        "notifications": [{"handle": "slack-orders", "name": "slack-orders"}],
        "last_triggered_ts": None,
        "muted_until_ts": None,
        "priority": 2,
        "overall_state_modified": 1772460000,  # the clock start, in epoch seconds
        "creator": {"handle": "stagebot@acme.test", "id": 1445001, "name": "Stage Bot"},
        "restricted_roles": None,
        "org_id": 1,
        "quality_issues": [],
    }


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        ("status:alert", IDS[2:]),
        ("status:(alert OR ok) payments", IDS[2:]),
        ("latency", IDS[:2]),
        ('"by host"', IDS[1:2]),
        ("muted:false", IDS),
        ("metric:orders.latency.p99 notification:slack-orders", IDS[:1]),
        ("priority:p2", IDS[:1]),
        (f"id:{IDS[1]}", IDS[1:2]),
    ],
)
def test_search_terms(dd_shared: DatadogWorld, query: str, ids: list[int]) -> None:
    body = dd_shared.raw("GET", "/api/v1/monitor/search", params={"query": query}).json()
    assert [m["id"] for m in body["monitors"]] == ids


def test_search_paging_sort_and_errors(dd_shared: DatadogWorld) -> None:
    params = {"per_page": "2", "page": "1", "sort": "name,asc"}
    body = dd_shared.raw("GET", "/api/v1/monitor/search", params=params).json()
    assert ([m["name"] for m in body["monitors"]], body["metadata"]["page_count"]) == (["Payments errors"], 2)
    bad = dd_shared.raw("GET", "/api/v1/monitor/search", params={"query": "colour:red"})
    assert (bad.status_code, bad.json()) == (400, {"errors": ["Invalid query: invalid search field 'colour'"]})
    for path in ("/api/v1/monitor/search", "/api/v1/monitor/groups/search"):  # Datadog's recorded answer
        bad = dd_shared.raw("GET", path, params={"query": "status:notastatus"})
        assert (bad.status_code, bad.json()) == (
            400,
            {"errors": ["Query parsing error: 'notastatus' is not a valid monitor status"]},
        )
    quoted = dd_shared.raw("GET", "/api/v1/monitor/search", params={"query": 'status:"no data"'})
    assert (quoted.status_code, quoted.json()["monitors"]) == (200, [])


def test_sdk_search_and_group_search(dd_shared: DatadogWorld) -> None:
    with dd_shared.client() as client:
        api = _monitors_api(client)
        found = api.search_monitors(query="status:alert")
        groups = api.search_monitor_groups(query="tag:team:core", sort="group,desc")
    assert ([m.id for m in found.monitors], found.metadata.total_count) == (IDS[2:], 1)
    assert [(g.monitor_id, g.group, str(g.status)) for g in groups.groups] == [
        (1000002, "host:web-2", "OK"),
        (1000002, "host:web-1", "OK"),
        (1000001, "*", "OK"),
    ]


def test_raw_group_search(dd_shared: DatadogWorld) -> None:
    body = dd_shared.raw("GET", "/api/v1/monitor/groups/search", params={"query": "status:alert"}).json()
    assert body == {
        "groups": [
            {
                "group": "*",
                "group_tags": ["*"],
                "monitor_id": 1000003,
                "monitor_name": "Payments errors",
                "status": "Alert",
                "priority": None,
                "all_tags": ["service:payments", "team:payments"],
                "env_tags": [],
                "team_tags": ["team:payments"],
                "muted": False,
                "muted_until_ts": None,
                "downtimes": [],
                "last_triggered_ts": START,
                "last_nodata_ts": 0,
            }
        ],
        "metadata": {"page": 0, "page_count": 1, "per_page": 30, "total_count": 1},
        "counts": {
            "status": [{"name": "Alert", "count": 1}],
            "muted": [{"name": False, "count": 1}],
            "tag": [{"name": "service:payments", "count": 1}, {"name": "team:payments", "count": 1}],
            "type": [{"name": "metric", "count": 1}],
        },
    }


def test_group_search_shows_the_downtimes_silencing_each_group(dd: DatadogWorld) -> None:
    monitor_id = int(dd.ref("by_host"))
    body = {
        "scope": "host:web-1",
        "monitor_identifier": {"monitor_id": monitor_id},
        "schedule": {"end": "2026-03-02T15:00:00Z"},
    }
    made = dd.raw("POST", "/api/v2/downtime", json={"data": {"type": "downtime", "attributes": body}}).json()["data"]
    legacy_id = dd.record(DOWNTIMES, made["id"])["legacy_id"]
    found = dd.raw("GET", "/api/v1/monitor/groups/search", params={"query": f"id:{monitor_id}", "sort": "group,asc"})
    groups = found.json()["groups"]
    silencing = {"id": legacy_id, "start": START - 1, "end": START + 3600, "scope": ["host:web-1"]}
    assert [(g["group"], g["muted"], g["muted_until_ts"], g["downtimes"]) for g in groups] == [
        ("host:web-1", True, START + 3600, [silencing]),
        ("host:web-2", False, None, []),
    ]
    assert found.json()["counts"]["muted"] == [{"name": False, "count": 1}, {"name": True, "count": 1}]
    muted = dd.raw("GET", "/api/v1/monitor/groups/search", params={"query": "muted:true"}).json()["groups"]
    assert [g["group"] for g in muted] == ["host:web-1"]
    searched = dd.raw("GET", "/api/v1/monitor/search", params={"query": f"id:{monitor_id}"}).json()["monitors"]
    assert searched[0]["muted_until_ts"] == START + 3600


def test_legacy_mute_and_unmute(dd: DatadogWorld) -> None:
    monitor_id = dd.ref("by_host")
    muted = dd.raw("POST", f"/api/v1/monitor/{monitor_id}/mute", json={"scope": "host:web-1", "end": START + 3600})
    assert (muted.status_code, muted.json()["options"]["silenced"]) == (200, {"host:web-1": START + 3600})
    (downtime,) = dd.live.world[DOWNTIMES].by("scope", "host:web-1")
    assert (downtime["monitor_identifier"], downtime["created_by"]) == ({"monitor_id": 1000002}, BOT_ID)
    shown = dd.raw("GET", f"/api/v1/monitor/{monitor_id}", params={"with_downtimes": "true"}).json()
    assert shown["matching_downtimes"] == [
        {"id": downtime["legacy_id"], "start": START - 1, "end": START + 3600, "scope": ["host:web-1"]}
    ]
    search = dd.raw("GET", "/api/v1/monitor/search", params={"query": "muted:true"}).json()
    assert [m["id"] for m in search["monitors"]] == [1000002]
    unmuted = dd.raw("POST", f"/api/v1/monitor/{monitor_id}/unmute", params={"scope": "host:web-1"})
    assert (unmuted.status_code, unmuted.json()["options"]["silenced"]) == (200, {})
    again = dd.raw("POST", f"/api/v1/monitor/{monitor_id}/unmute", params={"scope": "host:web-1"})
    assert (again.status_code, again.json()) == (400, {"errors": ["Monitor 1000002 is not muted for scope host:web-1"]})
    past = dd.raw("POST", f"/api/v1/monitor/{monitor_id}/mute", json={"end": START - 60})
    assert (past.status_code, past.json()) == (400, {"errors": ["The value provided for parameter 'end' is invalid"]})


PEOPLES_MONITORS = """
name: monitors-made-by-people
world: acme
task: test
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    monitors:
      - {ref: omars, name: Orders p99 above 900, type: query alert, creator: $omar_dd,
         query: "avg(last_5m):avg:orders.latency.p99{service:orders} > 900"}
"""


def test_seeded_monitors_name_their_maker_and_carry_the_web_apps_options(stage: Any) -> None:
    world = DatadogWorld(stage.world(PEOPLES_MONITORS))
    with world.client() as client:
        api = _monitors_api(client)
        latency = api.get_monitor(int(world.ref("latency")))  # acme's, which names no creator
        omars = api.get_monitor(int(world.ref("omars")))
    # Made by the world's first person in Datadog (its first user is the agent's, a service account).
    assert (latency.creator.name, latency.creator.email, latency.creator.handle) == (
        "Maya Chen",
        "maya@acme.test",
        "maya@acme.test",
    )
    assert (omars.creator.name, omars.creator.id) == ("Omar Haddad", latency.creator.id + 1)
    raw = world.raw("GET", f"/api/v1/monitor/{world.ref('latency')}").json()
    assert raw["options"] == {
        "notify_audit": False,
        "require_full_window": False,
        "notify_no_data": True,
        "no_data_timeframe": 10,
        "renotify_interval": 0,
        "include_tags": True,
        "new_group_delay": 60,
        "new_host_delay": 300,
        "groupby_simple_monitor": False,
        "thresholds": {"critical": 800, "warning": 600},
        "silenced": {},
    }
    assert raw["created"] == "2026-01-31T13:59:59.618427+00:00"


def test_a_seeded_monitors_creator_must_be_a_datadog_user(stage: Any) -> None:
    scene = PEOPLES_MONITORS.replace("creator: $omar_dd", "creator: $omar")  # omar is a Slack user
    response = stage.http.post("/v1/worlds", json={"scene_yaml": scene})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["errors"] == [
        {
            "file": "<scene_yaml>",
            "line": 9,
            "field": "seed.datadog.monitors[0].creator",
            "message": "$omar names a record of slack.users, expected one of datadog.users",
        }
    ]
