"""Downtimes (v2): list with paging, schedule, get, update, cancel and a monitor's downtime matches, through
datadog-api-client and raw httpx, with Datadog's errors."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import BOT_ID, DatadogWorld

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds


def _api(client: Any) -> Any:
    from datadog_api_client.v2.api.downtimes_api import DowntimesApi

    return DowntimesApi(client)


def _create(dd: DatadogWorld, **attributes: Any) -> Any:
    return dd.raw("POST", "/api/v2/downtime", json={"data": {"type": "downtime", "attributes": attributes}})


def test_raw_seeded_downtime_shape(dd_shared: DatadogWorld) -> None:
    downtime_id = dd_shared.ref("maintenance")
    response = dd_shared.raw("GET", f"/api/v2/downtime/{downtime_id}")
    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "type": "downtime",
            "id": downtime_id,
            "attributes": {
                "canceled": None,
                "created": "2026-03-02T13:59:59.435020+00:00",
                "modified": "2026-03-02T13:59:59.435020+00:00",
                "display_timezone": "UTC",
                "message": "Payments maintenance window",
                "monitor_identifier": {"monitor_tags": ["team:payments"]},
                "mute_first_recovery_notification": False,
                "notify_end_states": ["alert", "no data", "warn"],
                "notify_end_types": ["expired"],
                "schedule": {"start": "2026-03-02T16:00:00+00:00", "end": "2026-03-02T17:00:00+00:00"},
                "scope": "env:prod",
                "status": "scheduled",
            },
        }
    }
    asked = dd_shared.raw("GET", f"/api/v2/downtime/{downtime_id}", params={"include": "created_by"}).json()
    assert (asked["data"]["relationships"], asked["included"]) == (
        {"created_by": {"data": None}, "monitor": {"data": None}},
        [],
    )


def test_raw_create_get_patch_cancel(dd: DatadogWorld) -> None:
    monitor_id = int(dd.ref("latency"))
    created = _create(
        dd,
        scope="env:prod",
        monitor_identifier={"monitor_id": monitor_id},
        schedule={"end": "2026-03-02T15:00:00Z"},
        message="Deploying",
    )
    assert created.status_code == 200
    data = created.json()["data"]
    assert [(i["type"], i["id"], i["attributes"]["handle"]) for i in created.json()["included"]] == [
        ("users", BOT_ID, "stagebot@acme.test")
    ]
    downtime_id = data["id"]
    assert data["attributes"]["status"] == "active"
    assert data["attributes"]["schedule"] == {
        "start": "2026-03-02T13:59:59.435020+00:00",
        "end": "2026-03-02T15:00:00+00:00",
    }
    assert data["relationships"] == {
        "created_by": {"data": {"type": "users", "id": BOT_ID}},
        "monitor": {"data": {"type": "monitors", "id": str(monitor_id)}},
    }
    plain = dd.raw("GET", f"/api/v2/downtime/{downtime_id}").json()
    assert (list(plain), list(plain["data"])) == (["data"], ["type", "id", "attributes"])
    included = dd.raw("GET", f"/api/v2/downtime/{downtime_id}", params={"include": "created_by,monitor"}).json()
    assert [(i["type"], i["id"]) for i in included["included"]] == [("users", BOT_ID), ("monitors", monitor_id)]
    assert included["included"][1]["attributes"] == {"name": "Orders p99 latency high"}
    patch = dd.raw(
        "PATCH",
        f"/api/v2/downtime/{downtime_id}",
        json={"data": {"type": "downtime", "id": downtime_id, "attributes": {"message": "Still deploying"}}},
    ).json()
    assert [(i["type"], i["id"]) for i in patch["included"]] == [("users", BOT_ID)]
    patched = patch["data"]["attributes"]
    assert (patched["message"], patched["scope"], patched["modified"]) == (
        "Still deploying",
        "env:prod",
        "2026-03-02T14:00:14.246645+00:00",
    )
    canceled = dd.raw("DELETE", f"/api/v2/downtime/{downtime_id}")
    assert (canceled.status_code, canceled.content) == (204, b"")
    after = dd.raw("GET", f"/api/v2/downtime/{downtime_id}").json()["data"]["attributes"]
    assert (after["status"], after["canceled"]) == ("canceled", "2026-03-02T14:00:19.071408+00:00")
    late = dd.raw(
        "PATCH",
        f"/api/v2/downtime/{downtime_id}",
        json={"data": {"type": "downtime", "id": downtime_id, "attributes": {"message": "x"}}},
    )
    assert (late.status_code, late.json()) == (400, {"errors": ["A canceled downtime cannot be updated"]})


def test_sdk_create_list_paginate_cancel(dd: DatadogWorld) -> None:
    from datadog_api_client.v2.model.downtime_create_request import DowntimeCreateRequest
    from datadog_api_client.v2.model.downtime_create_request_attributes import DowntimeCreateRequestAttributes
    from datadog_api_client.v2.model.downtime_create_request_data import DowntimeCreateRequestData
    from datadog_api_client.v2.model.downtime_monitor_identifier_tags import DowntimeMonitorIdentifierTags
    from datadog_api_client.v2.model.downtime_resource_type import DowntimeResourceType
    from datadog_api_client.v2.model.downtime_update_request import DowntimeUpdateRequest
    from datadog_api_client.v2.model.downtime_update_request_attributes import DowntimeUpdateRequestAttributes
    from datadog_api_client.v2.model.downtime_update_request_data import DowntimeUpdateRequestData

    with dd.client() as client:
        api = _api(client)
        made = []
        for n in range(3):
            attributes = DowntimeCreateRequestAttributes(
                scope=f"host:web-{n}", monitor_identifier=DowntimeMonitorIdentifierTags(monitor_tags=["team:core"])
            )
            body = DowntimeCreateRequest(
                data=DowntimeCreateRequestData(type=DowntimeResourceType.DOWNTIME, attributes=attributes)
            )
            made.append(api.create_downtime(body).data)
        assert [str(d.attributes.status) for d in made] == ["active"] * 3
        listed = [d.id for d in api.list_downtimes_with_pagination(page_limit=2)]
        assert listed == [dd.ref("maintenance"), *(d.id for d in made)]
        current = api.list_downtimes(current_only=True)
        assert (len(current.data), current.meta.page.total_filtered_count) == (3, 3)
        update = DowntimeUpdateRequest(
            data=DowntimeUpdateRequestData(
                id=made[0].id, type=DowntimeResourceType.DOWNTIME, attributes=DowntimeUpdateRequestAttributes(scope="*")
            )
        )
        assert api.update_downtime(made[0].id, update).data.attributes.scope == "*"
        api.cancel_downtime(made[0].id)
        assert str(api.get_downtime(made[0].id).data.attributes.status) == "canceled"
        matches = api.list_monitor_downtimes(int(dd.ref("by_host")))
        paged = list(api.list_monitor_downtimes_with_pagination(int(dd.ref("by_host")), page_limit=1))
    assert [m.id for m in paged] == [made[1].id, made[2].id]
    assert [(m.id, m.attributes.groups) for m in matches.data] == [
        (made[1].id, ["host:web-1"]),
        (made[2].id, ["host:web-2"]),
    ]


def test_raw_downtime_matches(dd: DatadogWorld) -> None:
    monitor_id = int(dd.ref("by_host"))
    made = _create(dd, scope="host:(web-1 OR web-2)", monitor_identifier={"monitor_id": monitor_id}).json()["data"]
    response = dd.raw("GET", f"/api/v2/monitor/{monitor_id}/downtime_matches")
    assert response.json() == {
        "data": [
            {
                "type": "downtime_match",
                "id": made["id"],
                "attributes": {
                    "start": "2026-03-02T13:59:59.435020+00:00",
                    "end": None,
                    "scope": "host:(web-1 OR web-2)",
                    "groups": ["host:web-1", "host:web-2"],
                },
            }
        ],
        "meta": {"page": {"total_filtered_count": 1}},
    }
    missing = dd.raw("GET", "/api/v2/monitor/42/downtime_matches")
    assert (missing.status_code, missing.json()) == (404, {"errors": ["Monitor with id 42 not found"]})


def test_scheduled_downtime_becomes_active_then_ends(dd: DatadogWorld) -> None:
    downtime_id = dd.ref("maintenance")
    statuses = []
    for step in ("1h", "1h", "1h"):
        dd.live.advance(step)
        statuses.append(dd.raw("GET", f"/api/v2/downtime/{downtime_id}").json()["data"]["attributes"]["status"])
    assert statuses == ["scheduled", "active", "ended"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "The value provided for parameter 'data' is invalid"),
        (
            {"data": {"type": "downtimes", "attributes": {}}},
            "The value provided for parameter 'type' is invalid: expected downtime",
        ),
        (
            {"data": {"type": "downtime", "attributes": {"monitor_identifier": {"monitor_id": 1000001}}}},
            "The value provided for parameter 'scope' is invalid",
        ),
        (
            {"data": {"type": "downtime", "attributes": {"scope": "env:prod"}}},
            "The value provided for parameter 'monitor_identifier' is invalid",
        ),
        (
            {
                "data": {
                    "type": "downtime",
                    "attributes": {"scope": "env:prod", "monitor_identifier": {"monitor_id": 42}},
                }
            },
            "Monitor 42 not found",
        ),
        (
            {
                "data": {
                    "type": "downtime",
                    "attributes": {
                        "scope": "*",
                        "monitor_identifier": {"monitor_tags": ["a:b"]},
                        "schedule": {"start": "2026-03-02T15:00:00Z", "end": "2026-03-02T14:30:00Z"},
                    },
                }
            },
            "The downtime end must be after its start",
        ),
        (
            {
                "data": {
                    "type": "downtime",
                    "attributes": {
                        "scope": "*",
                        "monitor_identifier": {"monitor_tags": ["a:b"]},
                        "schedule": {"recurrences": []},
                    },
                }
            },
            "Recurring downtimes are not supported: give a one-time schedule with start and end",
        ),
        (
            {
                "data": {
                    "type": "downtime",
                    "attributes": {
                        "scope": "*",
                        "monitor_identifier": {"monitor_tags": ["a:b"]},
                        "notify_end_states": ["bad"],
                    },
                }
            },
            "The value provided for parameter 'notify_end_states' is invalid",
        ),
    ],
)
def test_create_errors(dd_shared: DatadogWorld, body: dict[str, Any], message: str) -> None:
    response = dd_shared.raw("POST", "/api/v2/downtime", json=body)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})


def test_not_found_and_forbidden(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.exceptions import NotFoundException

    missing = "00000000-0000-1234-0000-000000000000"
    # Datadog's recorded answers: DELETE names the id, GET and PATCH do not; a malformed id is a 400.
    messages = {"GET": "Downtime not found", "PATCH": "Downtime not found", "DELETE": f"Downtime {missing} not found"}
    for method, message in messages.items():
        body = {} if method == "PATCH" else None
        response = dd_shared.raw(method, f"/api/v2/downtime/{missing}", json=body)
        assert (response.status_code, response.json()) == (404, {"errors": [message]})
        malformed = dd_shared.raw(method, "/api/v2/downtime/INVALID_UUID_LENGTH", json=body)
        assert (malformed.status_code, malformed.json()) == (
            400,
            {"errors": ["Invalid URL param: downtime_id must be an uuid"]},
        )
    with dd_shared.client() as client, pytest.raises(NotFoundException):
        _api(client).get_downtime("00000000-0000-4000-8000-000000000000")
    response = dd_shared.raw("GET", "/api/v2/downtime", keys=False, headers={"DD-API-KEY": dd_shared.api_key})
    assert (response.status_code, response.json()) == (403, {"errors": ["Forbidden"]})
