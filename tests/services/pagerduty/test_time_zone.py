"""The account's time zone (`time_zone` of the `pagerduty:` section): the times PagerDuty renders in it carry
its offset, through the official client and raw httpx; incidents stay in UTC, and `time_zone=` overrides."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PagerDutyWorld
from .incident_scene import ZONED_INCIDENT_SCENE


@pytest.fixture
def zoned(stage: Any) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(ZONED_INCIDENT_SCENE))


def test_services_show_their_times_in_the_account_zone(zoned: PagerDutyWorld) -> None:
    orders = zoned.ref("orders_svc")
    service = zoned.client().rget(f"services/{orders}")
    assert service["created_at"] == "2025-05-06T10:00:00-04:00"  # 14:00 UTC, in New York's summer time
    (listed,) = [s for s in zoned.client().list_all("services") if s["id"] == orders]
    assert listed["created_at"] == "2025-05-06T10:00:00-04:00"
    in_utc = zoned.raw("GET", f"/services/{orders}", params={"time_zone": "Etc/UTC"}).json()["service"]
    assert in_utc["created_at"] == "2025-05-06T14:00:00Z"


def test_oncalls_follow_the_account_zone_across_daylight_saving(zoned: PagerDutyWorld) -> None:
    week = {"since": "2026-03-02T14:00:00Z", "until": "2026-03-09T14:00:00Z", "schedule_ids[]": zoned.ref("primary")}
    oncalls = zoned.raw("GET", "/oncalls", params=week).json()["oncalls"]
    assert [(o["user"]["summary"], o["start"], o["end"]) for o in oncalls] == [
        ("Maya Chen", "2026-03-02T04:00:00-05:00", "2026-03-02T19:00:00-05:00"),
        ("Lee Park", "2026-03-02T19:00:00-05:00", "2026-03-03T01:00:00-05:00"),
        ("Maya Chen", "2026-03-03T01:00:00-05:00", "2026-03-09T05:00:00-04:00"),
        ("Sam Ortiz", "2026-03-09T05:00:00-04:00", "2026-03-16T05:00:00-04:00"),
    ]


def test_notes_status_updates_and_windows_in_the_account_zone(zoned: PagerDutyWorld) -> None:
    client = zoned.client()
    latency = zoned.ref("latency")
    (note,) = client.rget(f"incidents/{latency}/notes")
    assert (note["created_at"], note["updated_at"]) == ("2026-03-02T08:42:00-05:00", "2026-03-02T08:42:00-05:00")
    added = client.rpost(f"incidents/{latency}/notes", json={"content": "Rolled back."})
    assert added["created_at"].endswith("-05:00") and added["created_at"].startswith("2026-03-02T09:00:")
    update = zoned.raw(
        "POST", f"/incidents/{latency}/status_updates", headers={"From": zoned.email}, json={"message": "Rolling back."}
    ).json()["status_update"]
    assert update["created_at"].endswith("-05:00") and update["created_at"].startswith("2026-03-02T09:00:")
    window = {
        "type": "maintenance_window",
        "start_time": "2026-03-02T15:00:00Z",
        "end_time": "2026-03-02T16:00:00Z",
        "services": [{"id": zoned.ref("billing_svc"), "type": "service_reference"}],
    }
    made = client.rpost("maintenance_windows", json=window)
    assert (made["start_time"], made["end_time"]) == ("2026-03-02T10:00:00-05:00", "2026-03-02T11:00:00-05:00")
    incident = client.rget(f"incidents/{latency}")
    assert incident["created_at"] == "2026-03-02T13:35:00Z"  # incidents render in UTC unless asked


def test_responder_requests_in_the_account_zone(zoned: PagerDutyWorld) -> None:
    """As PagerDuty's examples: the request's time and each responder's `updated_at` in the account's zone,
    the responder's `requested_at` in UTC."""
    client = zoned.client()
    latency, lee = zoned.ref("latency"), zoned.ref("lee")
    request = client.rpost(
        f"incidents/{latency}/responder_requests",
        json={
            "requester_id": zoned.ref("maya"),
            "message": "Join the bridge",
            "responder_request_targets": [{"responder_request_target": {"id": lee, "type": "user_reference"}}],
        },
    )
    (target,) = request["responder_request_targets"]
    (responder,) = target["responder_request_target"]["incidents_responders"]
    assert (request["requested_at"], responder["updated_at"], responder["requested_at"]) == (
        "2026-03-02T09:00:00-05:00",
        "2026-03-02T09:00:00-05:00",
        "2026-03-02T14:00:00Z",
    )


def test_the_account_zone_must_be_an_iana_zone() -> None:
    from soundstage.errors import SpecError
    from soundstage.stage.image import build_image
    from soundstage.stage.models import read_scene_text

    scene = 'name: z\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  pagerduty:\n    time_zone: Mars/Base\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(scene))
    assert "IANA time zone" in caught.value.message
    assert caught.value.field == "seed.pagerduty.time_zone"
