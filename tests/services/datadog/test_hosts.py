"""Hosts (v1): the host list with filter, sort and paging, and muting, through datadog-api-client and raw httpx."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DatadogWorld, parsed

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds


def _api(client: Any) -> Any:
    from datadog_api_client.v1.api.hosts_api import HostsApi

    return HostsApi(client)


def test_raw_list_shape(dd_shared: DatadogWorld) -> None:
    body = dd_shared.raw("GET", "/api/v1/hosts", params={"filter": "i-0a1b2c"}).json()
    assert body == {
        "exact_total_matching": True,
        "host_list": [
            {
                "name": "web-1",
                "host_name": "web-1",
                "id": 100000001,
                "aliases": ["web-1", "i-0a1b2c"],
                "apps": ["nginx", "python"],
                "sources": ["agent"],
                "tags_by_source": {"Datadog": ["service:orders", "env:prod"]},
                "up": True,
                "is_muted": False,
                "last_reported_time": START,
                "metrics": {"cpu": 0.0, "iowait": 0.0, "load": 0.0},
                "mute_timeout": None,
                "meta": {
                    "platform": "linux",
                    "agent_version": "7.52.0",
                    "agent_flavor": "agent",
                    "agent_checks": [
                        ["nginx", "nginx", "nginx", "OK", "", ""],
                        ["python", "python", "python", "OK", "", ""],
                    ],
                    "host_id": 100000001,
                    "socket-hostname": "web-1",
                    "socket-fqdn": "web-1",
                    "machine": "amd64",
                    "timezones": ["UTC"],
                    "install_method": {"tool": None, "installer_version": None, "tool_version": "undefined"},
                    "nixV": ["", "", ""],
                    "macV": ["", "", ""],
                    "winV": ["", "", ""],
                    "fbsdV": ["", "", ""],
                },
            }
        ],
        "total_matching": 1,
        "total_returned": 1,
    }


@pytest.mark.parametrize(
    ("params", "names", "matching"),
    [
        ({}, ["db-1", "web-1", "web-2"], 3),
        ({"filter": "nginx"}, ["web-1", "web-2"], 2),
        ({"filter": "env:prod postgres"}, ["db-1"], 1),
        ({"sort_field": "status", "sort_dir": "desc"}, ["db-1", "web-2", "web-1"], 3),
        ({"sort_field": "apps", "sort_dir": "desc"}, ["web-1", "web-2", "db-1"], 3),
        ({"start": "1", "count": "1"}, ["web-1"], 3),
        ({"from": str(START - 600)}, ["web-1", "web-2"], 2),
    ],
)
def test_raw_list_filters(dd_shared: DatadogWorld, params: dict[str, str], names: list[str], matching: int) -> None:
    body = dd_shared.raw("GET", "/api/v1/hosts", params=params).json()
    assert ([h["name"] for h in body["host_list"]], body["total_matching"], body["total_returned"]) == (
        names,
        matching,
        len(names),
    )


def test_down_host_last_reported(dd_shared: DatadogWorld) -> None:
    (db,) = dd_shared.raw("GET", "/api/v1/hosts", params={"filter": "db-1"}).json()["host_list"]
    assert (db["up"], db["last_reported_time"]) == (False, START - 3 * 3600)


def test_sdk_list(dd_shared: DatadogWorld) -> None:
    with dd_shared.client() as client:
        result = _api(client).list_hosts(filter="web", sort_field="name", sort_dir="asc")
    assert ([h.name for h in result.host_list], result.total_matching) == (["web-1", "web-2"], 2)
    assert result.host_list[1].tags_by_source == {"Datadog": ["service:orders"], "Amazon Web Services": ["env:prod"]}


def test_list_errors(dd_shared: DatadogWorld) -> None:
    response = dd_shared.raw("GET", "/api/v1/hosts", params={"sort_field": "colour"})
    assert (response.status_code, response.json()) == (
        400,
        {"errors": ["The value provided for parameter 'sort_field' is invalid"]},
    )


def test_sdk_mute_and_unmute(dd: DatadogWorld) -> None:
    from datadog_api_client.v1.model.host_mute_settings import HostMuteSettings

    with dd.client() as client:
        api = _api(client)
        muted = api.mute_host("web-1", HostMuteSettings(end=START + 3600, message="Deploying"))
        assert muted.to_dict() == {"action": "Muted", "hostname": "web-1", "message": "Deploying", "end": START + 3600}
        (host,) = api.list_hosts(filter="web-1").host_list
        assert (host.is_muted, host.mute_timeout) == (True, START + 3600)
        assert api.unmute_host("web-1").to_dict() == {"action": "Unmuted", "hostname": "web-1"}


def test_raw_mute_errors_and_override(dd: DatadogWorld) -> None:
    assert dd.raw("POST", "/api/v1/host/web-2/mute", json={}).json() == {
        "action": "Muted",
        "hostname": "web-2",
        "message": "",
    }
    again = dd.raw("POST", "/api/v1/host/web-2/mute", json={"end": START + 60})
    assert (again.status_code, again.json()) == (
        400,
        {
            "errors": [
                (
                    "host:web-2 is already muted. "
                    "To mute this host with a different end timestamp, add 'override': true to the request"
                )
            ]
        },
    )
    override = dd.raw("POST", "/api/v1/host/web-2/mute", json={"end": START + 60, "override": True})
    assert (override.status_code, override.json()["end"]) == (200, START + 60)
    dd.live.advance("2m")  # the mute ends on its own
    (host,) = dd.raw("GET", "/api/v1/hosts", params={"filter": "web-2"}).json()["host_list"]
    assert (host["is_muted"], host["mute_timeout"]) == (False, None)
    not_muted = dd.raw("POST", "/api/v1/host/web-2/unmute")
    assert (not_muted.status_code, not_muted.json()) == (400, {"errors": ["host:web-2 is not muted"]})
    missing = dd.raw("POST", "/api/v1/host/nope/mute", json={})
    assert (missing.status_code, missing.json()) == (404, {"errors": ["Host not found"]})
    past = dd.raw("POST", "/api/v1/host/web-1/mute", json={"end": START - 1})
    assert (past.status_code, past.json()) == (400, {"errors": ["The value provided for parameter 'end' is invalid"]})


def test_host_totals(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v1.api.hosts_api import HostsApi

    with dd_shared.client() as client:
        totals = parsed(HostsApi(client).get_host_totals())
    # db-1 is down and last reported 3h before the clock start: outside the default two hours.
    assert totals.to_dict() == {"total_active": 2, "total_up": 2}
    since = dd_shared.raw("GET", "/api/v1/hosts/totals", params={"from": START - 4 * 3600})
    assert (since.status_code, since.json()) == (200, {"total_active": 3, "total_up": 2})
    bad = dd_shared.raw("GET", "/api/v1/hosts/totals", params={"from": "yesterday"})
    assert (bad.status_code, bad.json()) == (400, {"errors": ["The value provided for parameter 'from' is invalid"]})
