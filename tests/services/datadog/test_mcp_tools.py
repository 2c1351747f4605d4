"""Datadog's MCP tools (docs/mcp.md), each through the SDK's client with both keys: its answer is the REST
API's answer to the call it stands for, its writes are in the world, and it is one logged call through the
tool."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.test_isolation import EVERY_SERVICE
from tests.services.mcp_tools import call, rest


@pytest.fixture(scope="module")
def live(stage: Any) -> Any:
    """One world for the module: the writes (a downtime, host batch-2's mute, an incident) are each one test's."""
    return stage.world(EVERY_SERVICE)


def _now(live: Any) -> int:
    return live.world.now() // 1_000_000


def test_get_monitors_filters_by_name_and_tags(live):
    listed = call(live, "datadog", "get_monitors", {"name": "orders", "tags": ["env:prod"], "groupStates": ["alert"]})
    query = {"name": "orders", "group_states": "alert", "tags": "env:prod"}
    assert (listed.event["path"], listed.event["query"]) == ("/api/v1/monitor", query)
    assert listed.json == rest(live, "datadog", "GET", "/api/v1/monitor", params=query)
    assert [m["name"] for m in listed.json] == ["Orders p99 latency", "Orders error count"]


def test_get_dashboard_reads_it(live):
    read = call(live, "datadog", "get_dashboard", {"dashboardId": "ord-api-ovw"})
    assert read.event["path"] == "/api/v1/dashboard/ord-api-ovw"
    assert read.json == rest(live, "datadog", "GET", "/api/v1/dashboard/ord-api-ovw")
    assert read.json["title"] == "Orders API overview"


def test_downtimes_are_scheduled_listed_and_cancelled(live):
    start = _now(live)
    scheduled = call(
        live,
        "datadog",
        "schedule_downtime",
        {"scope": "host:batch-1", "start": start, "end": start + 3600, "message": "Disk swap", "monitorId": 1000003},
    )
    assert scheduled.event["body"] == {
        "scope": ["host:batch-1"],
        "start": start,
        "end": start + 3600,
        "message": "Disk swap",
        "monitor_id": 1000003,
    }
    downtime = scheduled.json
    assert (downtime["scope"], downtime["monitor_id"], downtime["message"], downtime["active"]) == (
        ["host:batch-1"],
        1000003,
        "Disk swap",
        True,
    )
    current = call(live, "datadog", "list_downtimes", {"currentOnly": True})
    assert current.event["query"] == {"current_only": "true"}
    assert [d["id"] for d in current.json] == [downtime["id"]]
    cancelled = call(live, "datadog", "cancel_downtime", {"downtimeId": downtime["id"]})
    assert (cancelled.error, cancelled.text, cancelled.event["status"]) == (False, "", 204)
    assert call(live, "datadog", "list_downtimes", {"currentOnly": True}).json == []


def test_a_host_is_muted_and_unmuted(live):
    muted = call(
        live, "datadog", "mute_host", {"hostname": "batch-2", "message": "Rebuilding", "end": _now(live) + 600}
    )
    assert muted.event["body"] == {"override": False, "message": "Rebuilding", "end": muted.event["body"]["end"]}
    assert (muted.json["action"], muted.json["hostname"], muted.json["message"]) == ("Muted", "batch-2", "Rebuilding")
    [host] = [h for h in live.state()["datadog.hosts"] if h["name"] == "batch-2"]
    assert host["is_muted"] is True
    unmuted = call(live, "datadog", "unmute_host", {"hostname": "batch-2"})
    assert (unmuted.json["action"], unmuted.json["hostname"]) == ("Unmuted", "batch-2")
    [host] = [h for h in live.state()["datadog.hosts"] if h["name"] == "batch-2"]
    assert host["is_muted"] is False


def test_hosts_are_listed_and_counted(live):
    arguments = {"filter": "web", "sort_field": "name", "sort_dir": "desc", "count": 5, "include_hosts_metadata": False}
    listed = call(live, "datadog", "list_hosts", arguments)
    query = {"filter": "web", "sort_field": "name", "sort_dir": "desc", "count": "5", "include_hosts_metadata": "false"}
    assert listed.event["query"] == query
    assert [h["name"] for h in listed.json["host_list"]] == ["web-2", "web-1"]
    counted = call(live, "datadog", "get_active_hosts_count", {})
    assert counted.event["query"] == {"from": "7200"}
    assert counted.json == {"total_active": 4, "total_up": 4}


def test_incidents_are_listed_and_read(live):
    body = {"data": {"type": "incidents", "attributes": {"title": "Checkout slow", "customer_impacted": False}}}
    created = rest(live, "datadog", "POST", "/api/v2/incidents", json=body)["data"]
    listed = call(live, "datadog", "list_incidents", {"pageSize": 5})
    assert listed.event["query"] == {"page[size]": "5", "page[offset]": "0"}
    assert [i["id"] for i in listed.json["data"]] == [created["id"]]
    read = call(live, "datadog", "get_incident", {"incidentId": created["id"]})
    assert read.event["path"] == f"/api/v2/incidents/{created['id']}"
    assert read.json["data"]["attributes"]["title"] == "Checkout slow"


def test_get_logs_searches_a_span_newest_first(live):
    now = _now(live)
    found = call(
        live, "datadog", "get_logs", {"query": "service:orders host:web-1", "from": now - 3600, "to": now, "limit": 3}
    )
    body = {
        "filter": {"query": "service:orders host:web-1", "from": str((now - 3600) * 1000), "to": str(now * 1000)},
        "page": {"limit": 3},
        "sort": "-timestamp",
    }
    assert found.event["body"] == body
    got, answer = found.json, rest(live, "datadog", "POST", "/api/v2/logs/events/search", json=body)
    assert got["meta"].pop("request_id") != answer["meta"].pop("request_id")  # each answer's own
    assert got == answer
    stamps = [log["attributes"]["timestamp"] for log in got["data"]]
    assert len(stamps) == 3 and stamps == sorted(stamps, reverse=True)
    assert {log["attributes"]["host"] for log in found.json["data"]} == {"web-1"}


def test_query_metrics_reads_the_points(live):
    # A window on the minute, so both its ends are points of the minutely series, however far the module's earlier
    # calls moved the clock (the count was 10 or 11 by which tests ran before it).
    now = _now(live) // 60 * 60
    arguments = {"from": now - 600, "to": now, "query": "max:system.disk.in_use{host:batch-1}"}
    read = call(live, "datadog", "query_metrics", arguments)
    query = {"from": str(now - 600), "to": str(now), "query": "max:system.disk.in_use{host:batch-1}"}
    assert read.event["query"] == query
    assert read.json == rest(live, "datadog", "GET", "/api/v1/query", params=query)
    [series] = read.json["series"]
    assert (series["metric"], len(series["pointlist"])) == ("system.disk.in_use", 11)


def test_a_missing_dashboard_is_datadogs_not_found(live):
    missing = call(live, "datadog", "get_dashboard", {"dashboardId": "abc-def-ghi"})
    assert (missing.error, missing.event["status"]) == (True, 404)
    assert missing.json == rest(live, "datadog", "GET", "/api/v1/dashboard/abc-def-ghi")
    assert missing.json == {"errors": ["Dashboard with ID abc-def-ghi not found"]}
