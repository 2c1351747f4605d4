"""`POST /maintenance_windows`: the From header, validation before any write, 201 with the window, and
services in maintenance while it is on."""

from __future__ import annotations

from typing import Any

import pagerduty
import pytest

from soundstage.services.pagerduty.maintenance import in_maintenance
from soundstage.services.pagerduty.store import MAINTENANCE_WINDOWS

from .conftest import PagerDutyWorld


def body(pd: PagerDutyWorld, **fields: Any) -> dict[str, Any]:
    window = {
        "type": "maintenance_window",
        "start_time": "2026-03-02T14:00:00Z",
        "end_time": "2026-03-02T16:00:00Z",
        "description": "Database upgrade",
        "services": [{"id": pd.ref("orders_svc"), "type": "service_reference"}],
        **fields,
    }
    return {"maintenance_window": window}


def test_create_through_the_client(pd: PagerDutyWorld) -> None:
    window = pd.client().rpost("maintenance_windows", json=body(pd))
    assert window["type"] == "maintenance_window"
    assert window["id"].startswith("P") and len(window["id"]) == 7
    assert window["self"] == f"{pd.url}/maintenance_windows/{window['id']}"
    # The first call is answered at the clock start; the tick comes after it.
    assert (window["start_time"], window["end_time"]) == (
        "2026-03-02T14:00:00Z",
        "2026-03-02T16:00:00Z",
    )
    assert (window["description"], window["sequence_number"]) == ("Database upgrade", 1)
    assert window["created_by"]["id"] == pd.ref("maya")
    assert [s["id"] for s in window["services"]] == [pd.ref("orders_svc")]
    assert [t["id"] for t in window["teams"]] == [pd.ref("sre")]
    orders = pd.client().rget(f"services/{pd.ref('orders_svc')}")
    assert orders["status"] == "maintenance"
    assert pd.client().rget(f"services/{pd.ref('billing_svc')}")["status"] == "active"
    world = pd.live.world
    assert in_maintenance(world, pd.ref("orders_svc"), world.now())
    pd.advance("2h")
    assert not in_maintenance(world, pd.ref("orders_svc"), world.now())
    assert pd.client().rget(f"services/{pd.ref('orders_svc')}")["status"] == "active"


def test_create_raw_answers_201(pd: PagerDutyWorld) -> None:
    response = pd.raw(
        "POST",
        "/maintenance_windows",
        json=body(pd, start_time="2026-03-02T15:00:00Z"),
        headers={"From": "sam@acme.test"},
    )
    assert response.status_code == 201
    window = response.json()["maintenance_window"]
    assert (window["start_time"], window["created_by"]["summary"]) == (
        "2026-03-02T15:00:00Z",
        "Sam Ortiz",
    )
    assert not in_maintenance(pd.live.world, pd.ref("orders_svc"), pd.live.world.now())


@pytest.mark.parametrize(
    ("headers", "status", "error"),
    [
        (
            {},
            400,
            {
                "message": 'You must specify a user\'s email address in the "From" header to perform this action',
                "code": 2016,
            },
        ),
        (
            {"From": "nobody@acme.test"},
            400,
            {"message": "Requester User Not Found", "code": 1008, "errors": []},
        ),
    ],
)
def test_from_header(pd: PagerDutyWorld, headers: dict[str, str], status: int, error: dict[str, Any]) -> None:
    response = pd.raw("POST", "/maintenance_windows", json=body(pd), headers=headers)
    assert response.status_code == status
    assert response.json() == {"error": error}
    assert len(pd.live.world[MAINTENANCE_WINDOWS]) == 0


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ({"end_time": "2026-03-02T13:00:00Z"}, "End time must be in the future."),
        (
            {"start_time": "2026-03-03T00:00:00Z", "end_time": "2026-03-02T18:00:00Z"},
            "End time must be after start time.",
        ),
        ({"start_time": "soon"}, "start_time is not a valid ISO-8601 date-time."),
        ({"end_time": None}, "end_time is required and must be an ISO-8601 date-time."),
        ({"services": []}, "Maintenance window must have at least one service."),
        (
            {"services": [{"id": "PNOSUCH", "type": "service_reference"}]},
            "Service PNOSUCH was not found.",
        ),
        ({"services": ["x"]}, "Each service must be a service reference with an id."),
        ({"type": "incident"}, "type must be maintenance_window."),
        ({"description": 5}, "description must be a string."),
    ],
)
def test_invalid_windows(pd: PagerDutyWorld, fields: dict[str, Any], detail: str) -> None:
    response = pd.raw(
        "POST",
        "/maintenance_windows",
        json=body(pd, **fields),
        headers={"From": pd.email},
    )
    assert response.status_code == 400
    assert response.json() == {"error": {"message": "Invalid Input Provided", "code": 2001, "errors": [detail]}}
    assert len(pd.live.world[MAINTENANCE_WINDOWS]) == 0


def test_client_errors_raise(pd: PagerDutyWorld) -> None:
    # `rpost` wraps an unwrapped body under the entity key itself, so only `end_time` is missing.
    with pytest.raises(pagerduty.HttpError) as raised:
        pd.client().rpost("maintenance_windows", json={"start_time": "2026-03-02T14:00:00Z"})
    assert raised.value.response.status_code == 400
    assert raised.value.response.json()["error"]["errors"] == [
        "end_time is required and must be an ISO-8601 date-time."
    ]


def test_missing_wrapper(pd: PagerDutyWorld) -> None:
    response = pd.raw(
        "POST",
        "/maintenance_windows",
        json={"start_time": "x"},
        headers={"From": pd.email},
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == ["maintenance_window is required."]
