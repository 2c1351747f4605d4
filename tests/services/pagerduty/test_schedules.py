"""Schedules rendered over `since`..`until` and `GET /oncalls` at several simulated times, through the
official client and raw HTTPS."""

from __future__ import annotations

from typing import Any

from .conftest import PagerDutyWorld


def entries(pd: PagerDutyWorld, rendered: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    names = {pd.ref(n): n for n in ("maya", "sam", "lee")}
    return [(e["start"], e["end"], names[e["user"]["id"]]) for e in rendered]


def oncall_rows(pd: PagerDutyWorld, oncalls: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    names = {pd.ref(n): n for n in ("maya", "sam", "lee", "primary")}
    return [
        (
            o["escalation_level"],
            names[o["user"]["id"]],
            o["schedule"] and names[o["schedule"]["id"]],
            o["start"],
            o["end"],
        )
        for o in oncalls
    ]


def test_schedule_renders_layers_overrides_and_final(pd_read: PagerDutyWorld) -> None:
    params = {"since": "2026-03-02T00:00:00Z", "until": "2026-03-10T00:00:00Z"}
    schedule = pd_read.client().rget(f"schedules/{pd_read.ref('primary')}", params=params)
    assert (schedule["type"], schedule["name"], schedule["time_zone"]) == (
        "schedule",
        "SRE primary",
        "Etc/UTC",
    )
    layer = schedule["schedule_layers"][0]
    assert (layer["name"], layer["start"], layer["rotation_turn_length_seconds"]) == (
        "Weekly",
        "2026-02-23T09:00:00Z",
        604800,
    )
    assert entries(pd_read, layer["rendered_schedule_entries"]) == [
        ("2026-03-02T00:00:00Z", "2026-03-02T09:00:00Z", "sam"),
        ("2026-03-02T09:00:00Z", "2026-03-09T09:00:00Z", "maya"),
        ("2026-03-09T09:00:00Z", "2026-03-10T00:00:00Z", "sam"),
    ]
    assert entries(pd_read, schedule["overrides_subschedule"]["rendered_schedule_entries"]) == [
        ("2026-03-03T00:00:00Z", "2026-03-03T06:00:00Z", "lee")
    ]
    assert schedule["overrides_subschedule"]["rendered_coverage_percentage"] == 3.12
    final = schedule["final_schedule"]
    assert (final["name"], final["rendered_coverage_percentage"]) == (
        "Final Schedule",
        100.0,
    )
    assert entries(pd_read, final["rendered_schedule_entries"]) == [
        ("2026-03-02T00:00:00Z", "2026-03-02T09:00:00Z", "sam"),
        ("2026-03-02T09:00:00Z", "2026-03-03T00:00:00Z", "maya"),
        ("2026-03-03T00:00:00Z", "2026-03-03T06:00:00Z", "lee"),
        ("2026-03-03T06:00:00Z", "2026-03-09T09:00:00Z", "maya"),
        ("2026-03-09T09:00:00Z", "2026-03-10T00:00:00Z", "sam"),
    ]
    assert [p["id"] for p in schedule["escalation_policies"]] == [pd_read.ref("ep")]


def test_schedule_range_defaults_and_time_zone(pd_read: PagerDutyWorld) -> None:
    path = f"/schedules/{pd_read.ref('primary')}"
    unrendered = pd_read.raw("GET", path).json()["schedule"]["final_schedule"]
    assert unrendered == {
        "name": "Final Schedule",
        "rendered_schedule_entries": [],
        "rendered_coverage_percentage": None,
    }
    two_weeks = pd_read.raw("GET", path, params={"since": "2026-03-02T09:00:00Z"}).json()["schedule"]
    assert entries(pd_read, two_weeks["final_schedule"]["rendered_schedule_entries"])[-1] == (
        "2026-03-09T09:00:00Z",
        "2026-03-16T09:00:00Z",
        "sam",
    )
    local = pd_read.raw(
        "GET",
        path,
        params={
            "since": "2026-03-02T00:00:00Z",
            "until": "2026-03-02T12:00:00Z",
            "time_zone": "America/New_York",
        },
    ).json()["schedule"]
    assert entries(pd_read, local["final_schedule"]["rendered_schedule_entries"]) == [
        ("2026-03-01T19:00:00-05:00", "2026-03-02T04:00:00-05:00", "sam"),
        ("2026-03-02T04:00:00-05:00", "2026-03-02T07:00:00-05:00", "maya"),
    ]


def test_next_oncall_for_user(pd_read: PagerDutyWorld) -> None:
    """The user's shift on now or next, whole; none for someone the schedule never puts on call."""
    primary = pd_read.ref("primary")

    def upcoming(user: str, **params: str) -> Any:
        query = {"include_next_oncall_for_user": pd_read.ref(user), **params}
        return pd_read.client().rget(f"schedules/{primary}", params=query).get("next_oncall_for_user")

    sam = {"id": pd_read.ref("sam"), "type": "user_reference", "summary": "Sam Ortiz"}
    assert upcoming("sam") == {
        "start": "2026-03-09T09:00:00Z",
        "end": "2026-03-16T09:00:00Z",
        "user": [
            {
                **sam,
                "self": f"{pd_read.url}/users/{sam['id']}",
                "html_url": f"https://acme.pagerduty.com/users/{sam['id']}",
            }
        ],
    }
    maya = upcoming("maya", time_zone="America/New_York")  # on call now: the shift from its start
    assert (maya["start"], maya["end"]) == ("2026-03-02T04:00:00-05:00", "2026-03-02T19:00:00-05:00")
    lee = upcoming("lee")
    assert (lee["start"], lee["end"]) == ("2026-03-03T00:00:00Z", "2026-03-03T06:00:00Z")
    assert "next_oncall_for_user" not in pd_read.client().rget(
        f"schedules/{primary}", params={"include_next_oncall_for_user": "PNOSUCH"}
    )


def test_schedules_list(pd_read: PagerDutyWorld) -> None:
    schedules = pd_read.client().list_all("schedules")
    assert [s["name"] for s in schedules] == ["SRE primary"]
    assert "schedule_layers" not in schedules[0]
    assert [u["summary"] for u in schedules[0]["users"]] == ["Sam Ortiz", "Maya Chen"]
    assert pd_read.raw("GET", "/schedules", params={"query": "nothing"}).json()["schedules"] == []
    full = pd_read.raw(
        "GET",
        "/schedules",
        params={
            "include[]": "final_schedule",
            "since": "2026-03-03T01:00:00Z",
            "until": "2026-03-03T02:00:00Z",
        },
    ).json()["schedules"][0]
    assert entries(pd_read, full["final_schedule"]["rendered_schedule_entries"]) == [
        ("2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z", "lee")
    ]


def test_oncalls_now(pd_read: PagerDutyWorld) -> None:
    oncalls = pd_read.client().list_all("oncalls")
    assert oncall_rows(pd_read, oncalls) == [
        (1, "maya", "primary", "2026-03-02T09:00:00Z", "2026-03-03T00:00:00Z"),
        (2, "lee", None, None, None),
    ]
    assert oncalls[0]["escalation_policy"]["id"] == pd_read.ref("ep")
    raw = pd_read.raw("GET", "/oncalls", params={"include[]": "users"}).json()
    assert raw["oncalls"][0]["user"]["email"] == "maya@acme.test"
    assert (raw["limit"], raw["offset"], raw["more"], raw["total"]) == (
        25,
        0,
        False,
        None,
    )


def test_oncalls_over_a_range_with_filters(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    week = {"since": "2026-03-02T14:00:00Z", "until": "2026-03-09T14:00:00Z"}
    assert oncall_rows(pd_read, client.list_all("oncalls", params=week)) == [
        (1, "maya", "primary", "2026-03-02T09:00:00Z", "2026-03-03T00:00:00Z"),
        (1, "lee", "primary", "2026-03-03T00:00:00Z", "2026-03-03T06:00:00Z"),
        (1, "maya", "primary", "2026-03-03T06:00:00Z", "2026-03-09T09:00:00Z"),
        (1, "sam", "primary", "2026-03-09T09:00:00Z", "2026-03-16T09:00:00Z"),
        (2, "lee", None, None, None),
    ]
    earliest = client.list_all("oncalls", params={**week, "earliest": "true"})
    assert [(o["escalation_level"], o["user"]["summary"]) for o in earliest] == [
        (1, "Maya Chen"),
        (1, "Lee Park"),
        (1, "Sam Ortiz"),
        (2, "Lee Park"),
    ]
    sam = client.list_all("oncalls", params={**week, "user_ids": [pd_read.ref("sam")]})
    assert oncall_rows(pd_read, sam) == [(1, "sam", "primary", "2026-03-09T09:00:00Z", "2026-03-16T09:00:00Z")]
    direct = pd_read.raw("GET", "/oncalls", params={"schedule_ids[]": "null"}).json()["oncalls"]
    assert oncall_rows(pd_read, direct) == [(2, "lee", None, None, None)]
    scheduled = client.list_all("oncalls", params={"schedule_ids": [pd_read.ref("primary")]})
    assert [o["escalation_level"] for o in scheduled] == [1]
    assert client.list_all("oncalls", params={"escalation_policy_ids": ["PNOSUCH"]}) == []


def test_oncalls_follow_the_simulated_clock(pd: PagerDutyWorld) -> None:
    client = pd.client()
    assert (
        client.list_all("oncalls", params={"escalation_policy_ids": [pd.ref("ep")]})[0]["user"]["summary"]
        == "Maya Chen"
    )
    pd.advance("10h")  # 2026-03-03 00:00 and a few ticks: Lee's override
    assert oncall_rows(pd, client.list_all("oncalls"))[0] == (
        1,
        "lee",
        "primary",
        "2026-03-03T00:00:00Z",
        "2026-03-03T06:00:00Z",
    )
    pd.advance("6h")
    assert oncall_rows(pd, client.list_all("oncalls"))[0] == (
        1,
        "maya",
        "primary",
        "2026-03-03T06:00:00Z",
        "2026-03-09T09:00:00Z",
    )
    pd.advance("147h")  # Monday 2026-03-09 09:00 and a few ticks
    assert oncall_rows(pd, client.list_all("oncalls"))[0] == (
        1,
        "sam",
        "primary",
        "2026-03-09T09:00:00Z",
        "2026-03-16T09:00:00Z",
    )
