"""acl.get, insert, patch, update and delete: rules of users, domains and the public, the lists of the people
they reach, and every refusal with Google's reason."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.calendar.conftest import calendar_world
from tests.services.calendar.test_calendars import SHARED, refusal
from tests.services.google_world import GoogleWorld


@pytest.fixture
def shared(stage: Any) -> GoogleWorld:
    return calendar_world(stage.world(SHARED))


def entries(world: GoogleWorld, person: str) -> dict[str, tuple[str, bool]]:
    """A person's list as stored: calendar -> (role, deleted)."""
    return {
        e["calendar"]: (e["accessRole"], e["deleted"])
        for e in world.live.state()["calendar.list"]
        if e["person"] == person
    }


def test_sharing_with_a_user_of_the_world_puts_the_calendar_on_their_list(shared: GoogleWorld) -> None:
    client = shared.client()
    made = client.calendars().insert(body={"summary": "Launch"}).execute()
    rule = (
        client.acl()
        .insert(calendarId=made["id"], body={"scope": {"type": "user", "value": "Omar@acme.test"}, "role": "reader"})
        .execute()
    )
    assert rule == {
        "kind": "calendar#aclRule",
        "etag": rule["etag"],
        "id": "user:omar@acme.test",
        "scope": {"type": "user", "value": "omar@acme.test"},
        "role": "reader",
    }
    assert client.acl().get(calendarId=made["id"], ruleId="user:omar@acme.test").execute() == rule
    assert entries(shared, "omar@acme.test")[made["id"]] == ("reader", False)
    raised = client.acl().patch(calendarId=made["id"], ruleId="user:omar@acme.test", body={"role": "writer"}).execute()
    assert raised["role"] == "writer" and entries(shared, "omar@acme.test")[made["id"]] == ("writer", False)
    updated = (
        client.acl()
        .update(
            calendarId=made["id"],
            ruleId="user:omar@acme.test",
            body={"scope": {"type": "user", "value": "omar@acme.test"}, "role": "freeBusyReader"},
        )
        .execute()
    )
    assert updated["role"] == "freeBusyReader"
    # Someone outside the world gets a rule and no list.
    outside = {"scope": {"type": "user", "value": "jo@partner.test"}, "role": "reader"}
    assert client.acl().insert(calendarId=made["id"], body=outside).execute()["id"] == "user:jo@partner.test"
    listed = client.acl().list(calendarId=made["id"]).execute()
    assert [(r["id"], r["role"]) for r in listed["items"]] == [
        ("user:jo@partner.test", "reader"),
        ("user:maya@acme.test", "owner"),
        ("user:omar@acme.test", "freeBusyReader"),
    ]
    assert shared.raw("DELETE", f"calendars/{made['id']}/acl/user:omar@acme.test").status_code == 204
    assert entries(shared, "omar@acme.test")[made["id"]] == ("freeBusyReader", True)
    assert shared.raw("GET", f"calendars/{made['id']}/acl/user:omar@acme.test").status_code == 404


def test_domain_and_public_rules_raise_the_role_of_whom_they_reach(shared: GoogleWorld) -> None:
    client = shared.client()
    made = client.calendars().insert(body={"summary": "Launch"}).execute()
    client.acl().insert(
        calendarId=made["id"], body={"scope": {"type": "user", "value": "omar@acme.test"}, "role": "freeBusyReader"}
    ).execute()
    domain = (
        client.acl()
        .insert(calendarId=made["id"], body={"scope": {"type": "domain", "value": "acme.test"}, "role": "reader"})
        .execute()
    )
    assert domain["id"] == "domain:acme.test"
    assert entries(shared, "omar@acme.test")[made["id"]] == ("reader", False)
    public = client.acl().insert(calendarId=made["id"], body={"scope": {"type": "default"}, "role": "writer"}).execute()
    assert public["id"] == "default" and public["scope"] == {"type": "default"}
    assert entries(shared, "omar@acme.test")[made["id"]] == ("writer", False)
    client.acl().delete(calendarId=made["id"], ruleId="default").execute()
    client.acl().delete(calendarId=made["id"], ruleId="domain:acme.test").execute()
    assert entries(shared, "omar@acme.test")[made["id"]] == ("freeBusyReader", False)


def test_only_owners_change_rules_and_nobody_their_own(shared: GoogleWorld) -> None:
    oncall = shared.ref("oncall")
    before = shared.live.state()
    body = {"scope": {"type": "user", "value": "jo@partner.test"}, "role": "reader"}
    owner_only = (403, "requiredAccessLevel", "You need to have owner access to this calendar.")
    assert refusal(shared.raw("POST", f"calendars/{oncall}/acl", json=body)) == owner_only
    assert (
        refusal(shared.raw("PATCH", f"calendars/{oncall}/acl/user:omar@acme.test", json={"role": "reader"}))
        == owner_only
    )
    assert refusal(shared.raw("DELETE", f"calendars/{oncall}/acl/user:omar@acme.test")) == owner_only
    assert refusal(shared.raw("GET", f"calendars/{oncall}/acl/user:omar@acme.test")) == (403, "forbidden", "Forbidden")
    own = (403, "cannotChangeOwnAcl", "Cannot change your own access level.")
    mine = {"scope": {"type": "user", "value": "maya@acme.test"}, "role": "reader"}
    assert refusal(shared.raw("POST", "calendars/primary/acl", json=mine)) == own
    assert refusal(shared.raw("PATCH", "calendars/primary/acl/user:maya@acme.test", json={"role": "reader"})) == own
    assert refusal(shared.raw("DELETE", "calendars/primary/acl/user:maya@acme.test")) == own
    assert shared.live.state() == before


def test_another_owner_shares_but_leaves_the_calendars_owner_alone(stage: Any) -> None:
    world = calendar_world(stage.world(SHARED.replace("role: writer", "role: owner")))
    oncall = world.ref("oncall")
    client = world.client()
    body = {"scope": {"type": "user", "value": "jo@partner.test"}, "role": "reader"}
    assert client.acl().insert(calendarId=oncall, body=body).execute()["role"] == "reader"
    before = world.live.state()
    owners = (403, "cannotChangeOwnerAcl", "Cannot change the access level of the owner.")
    assert refusal(world.raw("PATCH", f"calendars/{oncall}/acl/user:omar@acme.test", json={"role": "reader"})) == owners
    assert refusal(world.raw("DELETE", f"calendars/{oncall}/acl/user:omar@acme.test")) == owners
    assert world.live.state() == before


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"role": "reader"}, (400, "required", "Missing scope type.")),
        ({"scope": {"type": "user", "value": "jo@partner.test"}}, (400, "required", "Missing role.")),
        (
            {"scope": {"type": "user", "value": "jo@partner.test"}, "role": "boss"},
            (400, "invalid", "Invalid value for: role"),
        ),
        (
            {"scope": {"type": "team", "value": "x"}, "role": "reader"},
            (400, "invalid", "Invalid value for: scope.type"),
        ),
        ({"scope": {"type": "user"}, "role": "reader"}, (400, "required", "Missing scope value.")),
        (
            {"scope": {"type": "user", "value": "nobody"}, "role": "reader"},
            (400, "invalid", "Invalid value for: scope.value"),
        ),
        (
            {"scope": {"type": "domain", "value": "a@b.test"}, "role": "reader"},
            (400, "invalid", "Invalid value for: scope.value"),
        ),
        (
            {"scope": {"type": "default", "value": "x"}, "role": "reader"},
            (400, "invalid", "Invalid value for: scope.value"),
        ),
    ],
)
def test_insert_refuses_what_google_refuses(cal_read: GoogleWorld, body: dict[str, Any], expected: Any) -> None:
    before = cal_read.live.state()
    assert refusal(cal_read.raw("POST", "calendars/primary/acl", json=body)) == expected
    assert cal_read.live.state() == before


def test_a_rules_scope_does_not_change_and_unknown_rules_are_not_found(cal: GoogleWorld) -> None:
    client = cal.client()
    client.acl().insert(
        calendarId="primary", body={"scope": {"type": "user", "value": "jo@partner.test"}, "role": "reader"}
    ).execute()
    other = {"scope": {"type": "user", "value": "al@partner.test"}, "role": "reader"}
    assert refusal(cal.raw("PUT", "calendars/primary/acl/user:jo@partner.test", json=other)) == (
        400,
        "invalid",
        "Invalid value for: scope",
    )
    with pytest.raises(HttpError) as raised:
        client.acl().update(calendarId="primary", ruleId="user:jo@partner.test", body={"role": "writer"}).execute()
    assert raised.value.status_code == 400
    assert cal.raw("GET", "calendars/primary/acl/user:nobody@partner.test").status_code == 404
    assert cal.raw("DELETE", "calendars/primary/acl/default").status_code == 404
