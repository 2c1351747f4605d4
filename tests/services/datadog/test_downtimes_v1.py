"""Downtimes (v1): list, schedule, get, update, cancel and cancel by scope, through datadog-api-client and raw
httpx: the same downtimes as v2's, by their integer ids, with Datadog's errors."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DatadogWorld, parsed

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds
SEEDED = 4000000001  # the v1 id of the scene's downtime


def _api(client: Any) -> Any:
    from datadog_api_client.v1.api.downtimes_api import DowntimesApi

    return DowntimesApi(client)


def test_raw_seeded_downtime_shape(dd_shared: DatadogWorld) -> None:
    response = dd_shared.raw("GET", f"/api/v1/downtime/{SEEDED}")
    assert response.status_code == 200
    assert response.json() == {
        "id": SEEDED,
        "monitor_id": None,
        "org_id": 1,
        "start": START + 7200,
        "end": START + 10800,
        "canceled": None,
        # Stamped to the microsecond a moment before the clock start (2026-03-02T13:59:59.435020Z).
        "created": START - 1,
        "modified": START - 1,
        "message": "Payments maintenance window",
        "active": False,
        "disabled": False,
        "recurrence": None,
        "timezone": "UTC",
        "parent_id": None,
        "child_id": None,
        "updater_id": None,
        "downtime_type": 2,
        "status": "scheduled",
        "monitor_tags": ["team:payments"],
        "mute_first_recovery_notification": False,
        "notify_end_types": ["expired"],
        "notify_end_states": ["alert", "no data", "warn"],
        "uuid": dd_shared.ref("maintenance"),
        "scope": ["env:prod"],
    }


def test_sdk_schedule_update_cancel_shows_in_v2(dd: DatadogWorld) -> None:
    from datadog_api_client.v1.model.downtime import Downtime

    with dd.client() as client:
        api = _api(client)
        made = parsed(
            api.create_downtime(
                Downtime(
                    scope=["env:prod", "host:web-1"],
                    monitor_id=int(dd.ref("by_host")),
                    end=START + 3600,
                    message="deploy",
                    timezone="Europe/Paris",
                )
            )
        )
        assert (made.id, made.monitor_id, made.start, made.end, made.active, made.creator_id) == (
            4000000002,
            int(dd.ref("by_host")),
            START - 1,  # now, as Datadog stamps it: within the second before the clock's
            START + 3600,
            True,
            1445001,
        )
        assert made.scope == ["env:prod", "host:web-1"]
        v2 = dd.raw("GET", f"/api/v2/downtime/{made['uuid']}").json()["data"]["attributes"]
        assert (v2["scope"], v2["monitor_identifier"], v2["display_timezone"], v2["status"]) == (
            "env:prod AND host:web-1",
            {"monitor_id": int(dd.ref("by_host"))},
            "Europe/Paris",
            "active",
        )
        matches = dd.raw("GET", f"/api/v2/monitor/{dd.ref('by_host')}/downtime_matches").json()["data"]
        assert [(m["id"], m["attributes"]["groups"]) for m in matches] == [(made["uuid"], ["host:web-1"])]
        updated = parsed(api.update_downtime(made.id, Downtime(message="longer deploy", end=START + 7200)))
        assert (updated.message, updated.end, updated.updater_id, updated.scope) == (
            "longer deploy",
            START + 7200,
            1445001,
            ["env:prod", "host:web-1"],
        )
        listed = parsed(api.list_downtimes())
        assert [d.id for d in listed] == [SEEDED, made.id]
        assert [d.id for d in parsed(api.list_downtimes(current_only=True))] == [made.id]
        assert api.cancel_downtime(made.id) is None
        gone = parsed(api.get_downtime(made.id))
        assert (gone.active, gone.disabled, gone.canceled, gone["status"]) == (
            False,
            True,
            START + 29,  # the clock ticks 5s a call; Datadog stamps a moment before it
            "canceled",
        )
    assert dd.raw("GET", f"/api/v2/downtime/{made['uuid']}").json()["data"]["attributes"]["status"] == "canceled"


def test_a_v2_downtime_read_through_v1(dd: DatadogWorld) -> None:
    created = dd.raw(
        "POST",
        "/api/v2/downtime",
        json={
            "data": {
                "type": "downtime",
                "attributes": {
                    "scope": "env:prod AND host:(web-1 OR web-2)",
                    "monitor_identifier": {"monitor_tags": ["team:core"]},
                },
            }
        },
    ).json()["data"]
    [v1] = [
        d
        for d in dd.raw("GET", "/api/v1/downtime", params={"with_creator": "true"}).json()
        if d["uuid"] == created["id"]
    ]
    assert v1["creator"] == {
        "email": "stagebot@acme.test",
        "handle": "stagebot@acme.test",
        "id": 1445001,
        "name": "Stage Bot",
    }
    assert (v1["id"], v1["scope"], v1["monitor_tags"], v1["monitor_id"], v1["creator_id"]) == (
        4000000002,
        ["env:prod", "host:(web-1 OR web-2)"],
        ["team:core"],
        None,
        1445001,
    )


def test_a_downtime_without_monitor_covers_every_monitor(dd: DatadogWorld) -> None:
    made = dd.raw("POST", "/api/v1/downtime", json={"scope": "host:web-2"}).json()
    assert (made["monitor_tags"], made["monitor_id"], made["scope"]) == (["*"], None, ["host:web-2"])
    monitor = dd.raw("GET", f"/api/v1/monitor/{dd.ref('by_host')}", params={"with_downtimes": "true"}).json()
    assert monitor["matching_downtimes"] == [
        {"id": made["id"], "start": START - 1, "end": None, "scope": ["host:web-2"]}
    ]


def test_cancel_by_scope(dd: DatadogWorld) -> None:
    from datadog_api_client.v1.model.cancel_downtimes_by_scope_request import CancelDowntimesByScopeRequest

    first = dd.raw("POST", "/api/v1/downtime", json={"scope": ["env:prod", "host:web-1"]}).json()
    dd.raw("POST", "/api/v1/downtime", json={"scope": "host:web-2"})
    with dd.client() as client:
        answer = parsed(_api(client).cancel_downtimes_by_scope(CancelDowntimesByScopeRequest(scope="env:prod")))
    # The scheduled seeded downtime is for env:prod too: both are canceled, the other left alone.
    assert answer.to_dict() == {"cancelled_ids": [SEEDED, first["id"]]}
    statuses = [(d["id"], d["status"]) for d in dd.raw("GET", "/api/v1/downtime").json()]
    assert statuses == [(SEEDED, "canceled"), (first["id"], "canceled"), (4000000003, "active")]
    again = dd.raw("POST", "/api/v1/downtime/cancel/by_scope", json={"scope": "env:prod"})
    assert (again.status_code, again.json()) == (404, {"errors": ["No downtimes found"]})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Invalid scope parameter"),
        ({"scope": []}, "Invalid scope parameter"),
        ({"scope": ["env:(prod"]}, "Invalid scope parameter"),
        ({"scope": "*", "start": "soon"}, "The value provided for parameter 'start' is invalid"),
        ({"scope": "*", "start": START, "end": START}, "The downtime end must be after its start"),
        ({"scope": "*", "monitor_id": 42}, "Monitor 42 not found"),
        ({"scope": "*", "monitor_tags": "team:core"}, "The value provided for parameter 'monitor_tags' is invalid"),
        (
            {"scope": "*", "notify_end_types": ["never"]},
            "The value provided for parameter 'notify_end_types' is invalid",
        ),
        (
            {"scope": "*", "recurrence": {"type": "days", "period": 1}},
            "Recurring downtimes are not supported: give a one-time schedule with start and end",
        ),
    ],
)
def test_create_errors(dd: DatadogWorld, body: dict[str, Any], message: str) -> None:
    response = dd.raw("POST", "/api/v1/downtime", json=body)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})
    assert len(dd.raw("GET", "/api/v1/downtime").json()) == 1


def test_not_found(dd: DatadogWorld) -> None:
    from datadog_api_client.exceptions import NotFoundException

    for method, path, message in [
        ("GET", "/api/v1/downtime/0", "Downtime not found"),
        ("GET", "/api/v1/downtime/abc", "Downtime not found"),
        ("PUT", "/api/v1/downtime/0", "Downtime not found"),
        ("DELETE", "/api/v1/downtime/0", "Downtime 0 not found"),
    ]:
        response = dd.raw(method, path, json={})
        assert (response.status_code, response.json()) == (404, {"errors": [message]})
    with dd.client() as client, pytest.raises(NotFoundException) as missing:
        _api(client).get_downtime(1)
    assert missing.value.body == {"errors": ["Downtime not found"]}
    dd.raw("DELETE", f"/api/v1/downtime/{SEEDED}")
    late = dd.raw("PUT", f"/api/v1/downtime/{SEEDED}", json={"message": "x"})
    assert (late.status_code, late.json()) == (400, {"errors": ["A canceled downtime cannot be updated"]})
