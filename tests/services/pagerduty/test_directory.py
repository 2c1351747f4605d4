"""Users, teams, services, escalation policies and priorities, read through the official client and raw
HTTPS: wrappers, references, filters, `include[]`, and the 404 of an unknown id."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ORDERS_KEY, PagerDutyWorld

NOT_FOUND = {"error": {"message": "Not Found", "code": 2100}}


def ref(
    pd: PagerDutyWorld,
    kind: str,
    path: str,
    name: str,
    summary: str,
    web: str | None = None,
) -> dict[str, Any]:
    record_id = pd.ref(name)
    return {
        "id": record_id,
        "type": f"{kind}_reference",
        "summary": summary,
        "self": f"{pd.url}/{path}/{record_id}",
        "html_url": f"https://acme.pagerduty.com/{web or path}/{record_id}",
    }


def test_users_me_is_the_token_user(pd_read: PagerDutyWorld) -> None:
    me = pd_read.client().rget("users/me")
    assert me["id"] == pd_read.ref("maya")
    assert me["self"] == f"{pd_read.url}/users/{pd_read.ref('maya')}"
    assert (me["type"], me["name"], me["email"], me["role"], me["job_title"]) == (
        "user",
        "Maya Chen",
        "maya@acme.test",
        "admin",
        "SRE",
    )
    assert me["teams"] == [ref(pd_read, "team", "teams", "sre", "SRE")]
    assert me["contact_methods"][0]["type"] == "email_contact_method_reference"
    raw = pd_read.raw("GET", "/users/me")
    assert raw.status_code == 200
    assert raw.json() == {"user": me}


def test_users_list_filters_and_includes(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    assert [u["name"] for u in client.iter_all("users")] == [
        "Lee Park",
        "Maya Chen",
        "Sam Ortiz",
    ]
    assert [u["name"] for u in client.iter_all("users", params={"query": "ORTIZ"})] == ["Sam Ortiz"]
    assert [u["name"] for u in client.iter_all("users", params={"query": "lee@acme"})] == ["Lee Park"]
    team = [u["name"] for u in client.iter_all("users", params={"team_ids": [pd_read.ref("sre")]})]
    assert team == ["Maya Chen", "Sam Ortiz"]
    body = pd_read.raw("GET", "/users", params={"include[]": "contact_methods", "limit": "2"}).json()
    assert (body["limit"], body["offset"], body["more"], body["total"]) == (
        2,
        0,
        True,
        None,
    )
    method = body["users"][0]["contact_methods"][0]
    assert (method["type"], method["address"], method["label"]) == (
        "email_contact_method",
        "lee@acme.test",
        "Default",
    )


def test_users_get_and_404(pd_read: PagerDutyWorld) -> None:
    sam = pd_read.client().rget(f"users/{pd_read.ref('sam')}")
    assert (sam["name"], sam["time_zone"], sam["role"], sam["color"]) == (
        "Sam Ortiz",
        "America/New_York",
        "user",
        "green",
    )
    assert sam["created_via_sso"] is False
    (method,) = sam["contact_methods"]
    (rule,) = sam["notification_rules"]
    assert rule == {
        "id": rule["id"],
        "type": "assignment_notification_rule_reference",
        "summary": f"0 minutes: channel {method['id']}",
        "self": f"{pd_read.url}/users/{pd_read.ref('sam')}/notification_rules/{rule['id']}",
        "html_url": None,
    }
    assert len(rule["id"]) == 7 and rule["id"].startswith("P") and rule["id"] != method["id"]
    response = pd_read.raw("GET", "/users/PNOSUCH")
    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert response.headers["content-type"] == "application/json; charset=utf-8"


def test_teams(pd_read: PagerDutyWorld) -> None:
    teams = pd_read.client().list_all("teams")
    assert teams == [
        {
            **ref(pd_read, "team", "teams", "sre", "SRE"),
            "type": "team",
            "name": "SRE",
            "description": "Site reliability",
            "default_role": "manager",
            "parent": None,
        }
    ]
    assert pd_read.raw("GET", "/teams", params={"query": "nothing"}).json()["teams"] == []


def test_services(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    services = client.list_all("services")
    assert [s["name"] for s in services] == ["Billing", "Orders API"]
    orders = client.rget(f"services/{pd_read.ref('orders_svc')}")
    assert orders["html_url"] == f"https://acme.pagerduty.com/service-directory/{pd_read.ref('orders_svc')}"
    assert orders["escalation_policy"] == ref(
        pd_read, "escalation_policy", "escalation_policies", "ep", "SRE escalation"
    )
    assert (
        orders["status"],
        orders["acknowledgement_timeout"],
        orders["auto_resolve_timeout"],
    ) == ("active", 1800, 14400)
    assert orders["incident_urgency_rule"] == {
        "type": "use_support_hours",
        "during_support_hours": {"type": "constant", "urgency": "high"},
        "outside_support_hours": {"type": "constant", "urgency": "low"},
    }
    assert orders["support_hours"] == {
        "type": "fixed_time_per_day",
        "time_zone": "Etc/UTC",
        "days_of_week": [1, 2, 3, 4, 5],
        "start_time": "09:00:00",
        "end_time": "17:00:00",
    }
    billing = client.rget(f"services/{pd_read.ref('billing_svc')}")
    assert billing["incident_urgency_rule"] == {"type": "constant", "urgency": "high"}
    # What a service was given none of is null, as PagerDuty answers it (its schema has no null for them).
    assert (billing["support_hours"], billing["description"], billing["last_incident_timestamp"]) == (None, None, None)
    assert orders["created_at"] == "2025-05-06T14:00:00Z"
    desc = pd_read.raw("GET", "/services", params={"sort_by": "name:desc"}).json()["services"]
    assert [s["name"] for s in desc] == ["Orders API", "Billing"]
    team = client.list_all("services", params={"team_ids": [pd_read.ref("sre")]})
    assert [s["name"] for s in team] == ["Orders API"]
    assert [s["name"] for s in client.list_all("services", params={"query": "bill"})] == ["Billing"]
    included = pd_read.raw(
        "GET",
        f"/services/{pd_read.ref('orders_svc')}",
        params={"include[]": "escalation_policies"},
    )
    assert included.json()["service"]["escalation_policy"]["type"] == "escalation_policy"
    assert pd_read.raw("GET", "/services/PNOSUCH").json() == NOT_FOUND


def test_service_integrations_hold_the_routing_keys(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    orders_id = pd_read.ref("orders_svc")
    (listed,) = client.rget(f"services/{orders_id}")["integrations"]
    path = f"services/{orders_id}/integrations/{listed['id']}"
    assert listed == {
        "id": listed["id"],
        "type": "events_api_v2_inbound_integration_reference",
        "summary": "Events API V2",
        "self": f"{pd_read.url}/{path}",
        "html_url": f"https://acme.pagerduty.com/{path}",
    }
    integration = client.rget(path)
    assert (integration["type"], integration["integration_key"], integration["service"]["id"]) == (
        "events_api_v2_inbound_integration",
        ORDERS_KEY,
        orders_id,
    )
    billing = client.rget(f"services/{pd_read.ref('billing_svc')}")["integrations"][0]
    key = client.rget(f"services/{pd_read.ref('billing_svc')}/integrations/{billing['id']}")["integration_key"]
    assert len(key) == 32 and key.isalnum() and key != ORDERS_KEY
    for missing in (f"services/{orders_id}/integrations/PNOSUCH", f"services/PNOSUCH/integrations/{listed['id']}"):
        assert pd_read.raw("GET", f"/{missing}").json() == NOT_FOUND


def test_calendar_urls_only_on_ones_own_profile_or_when_asked(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    me = client.rget("users/me")
    assert me["http_cal_url"].startswith("https://webcal.pagerduty.com/private/")
    assert me["web_cal_url"] == "webcal://" + me["http_cal_url"][len("https://") :]
    assert client.rget(f"users/{pd_read.ref('maya')}")["http_cal_url"] == me["http_cal_url"]
    sam = client.rget(f"users/{pd_read.ref('sam')}")
    assert "http_cal_url" not in sam and "web_cal_url" not in sam
    asked = client.rget(f"users/{pd_read.ref('sam')}", params={"include[]": "calendar_urls"})
    assert asked["http_cal_url"].endswith("/feed") and asked["http_cal_url"] != me["http_cal_url"]
    assert all("http_cal_url" not in u for u in client.list_all("users"))


def test_escalation_policies(pd_read: PagerDutyWorld) -> None:
    client = pd_read.client()
    policy = client.rget(f"escalation_policies/{pd_read.ref('ep')}")
    assert (policy["type"], policy["name"], policy["num_loops"]) == (
        "escalation_policy",
        "SRE escalation",
        1,
    )
    rules = policy["escalation_rules"]
    assert [r["escalation_delay_in_minutes"] for r in rules] == [30, 15]
    assert rules[0]["targets"] == [ref(pd_read, "schedule", "schedules", "primary", "SRE primary")]
    assert rules[1]["targets"] == [ref(pd_read, "user", "users", "lee", "Lee Park")]
    assert [s["summary"] for s in policy["services"]] == ["Orders API", "Billing"]
    assert policy["teams"] == [ref(pd_read, "team", "teams", "sre", "SRE")]
    by_user = client.list_all("escalation_policies", params={"user_ids": [pd_read.ref("sam")]})
    assert [p["id"] for p in by_user] == [pd_read.ref("ep")]
    assert client.list_all("escalation_policies", params={"query": "nothing"}) == []
    targets = pd_read.raw(
        "GET",
        f"/escalation_policies/{pd_read.ref('ep')}",
        params={"include[]": "targets"},
    )
    assert [t["type"] for r in targets.json()["escalation_policy"]["escalation_rules"] for t in r["targets"]] == [
        "schedule",
        "user",
    ]
    assert pd_read.raw("GET", "/escalation_policies/PNOSUCH").json() == NOT_FOUND


def test_default_priorities(pd_read: PagerDutyWorld) -> None:
    priorities = pd_read.client().list_all("priorities")
    assert [(p["name"], p["order"], p["type"]) for p in priorities] == [
        ("P1", 1, "priority"),
        ("P2", 2, "priority"),
        ("P3", 3, "priority"),
        ("P4", 4, "priority"),
        ("P5", 5, "priority"),
    ]
    body = pd_read.raw("GET", "/priorities").json()
    assert (body["more"], body["offset"], body["limit"]) == (False, 0, 25)


@pytest.mark.parametrize(
    "path",
    [
        "/users/me",
        "/users",
        "/teams",
        "/services",
        "/escalation_policies",
        "/schedules",
        "/oncalls",
        "/priorities",
    ],
)
def test_every_read_answers_json_under_its_key(pd_read: PagerDutyWorld, path: str) -> None:
    response = pd_read.raw("GET", path)
    assert response.status_code == 200
    key = "user" if path == "/users/me" else path.strip("/")
    assert key in response.json()


SHIPPED = """
name: shipped-directory
world: acme
task: test
agent: {pagerduty_user: $bot_pd}
"""


def test_the_shipped_world_describes_its_rotation_and_policy(stage: Any) -> None:
    pd = PagerDutyWorld(stage.world(SHIPPED))
    client = pd.client()
    schedule = client.rget(f"schedules/{pd.ref('orders_primary')}")
    policy = client.rget(f"escalation_policies/{pd.ref('orders_ep')}")
    assert (schedule["description"], policy["description"]) == (
        "The orders team's weekly on-call rotation",
        "The orders rotation, then Omar",
    )
    (listed,) = pd.raw("GET", "/schedules").json()["schedules"]
    assert listed["description"] == "The orders team's weekly on-call rotation"
    service = client.rget(f"services/{pd.ref('orders_svc')}")
    assert (service["support_hours"], service["incident_urgency_rule"]) == (
        None,
        {"type": "constant", "urgency": "high"},
    )
