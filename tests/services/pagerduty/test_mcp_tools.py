"""PagerDuty's MCP tools (docs/mcp.md), each through the SDK's client with the agent's token: its answer is
the REST API's answer to the call it stands for, its writes are in the world and made as the token's user
(`From`, as PagerDuty's own server sends it), and it is one logged call through the tool."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.test_isolation import EVERY_SERVICE
from tests.server.test_mcp import over_mcp
from tests.services.mcp_tools import call, credential_headers, rest


@pytest.fixture(scope="module")
def live(stage: Any) -> Any:
    """One world for the module: only the incident test writes, to an incident of its own."""
    return stage.world(EVERY_SERVICE)


def _id(live: Any, collection: str, name: str) -> str:
    return next(r["id"] for r in live.state()[f"pagerduty.{collection}"] if r["name"] == name)


def test_incidents_are_created_managed_noted_and_read_as_the_tokens_user(live):
    bot, service = _id(live, "users", "Stage Bot"), _id(live, "services", "Orders Web")
    # A From of someone else's on the request is not who the tool acts as: the token's user is.
    as_maya = {**credential_headers(live, "pagerduty"), "From": "maya@acme.test"}
    incident = {"title": "Checkout errors", "service": {"id": service}, "body": {"details": "5xx on /checkout"}}
    created = call(live, "pagerduty", "create_incident", {"incident": incident}, as_maya)
    assert created.event["body"] == {
        "incident": {
            "title": "Checkout errors",
            "service": {"id": service, "type": "service_reference"},
            "urgency": "high",
            "type": "incident",
            "body": {"details": "5xx on /checkout", "type": "incident_body"},
        }
    }
    new = created.json["incident"]
    assert (created.event["status"], new["status"], new["service"]["id"], new["urgency"]) == (
        201,
        "triggered",
        service,
        "high",
    )
    managed = call(
        live,
        "pagerduty",
        "manage_incidents",
        {"manage_request": {"incident_ids": [new["id"]], "status": "acknowledged"}},
    )
    assert managed.event["body"] == {
        "incidents": [{"id": new["id"], "type": "incident_reference", "status": "acknowledged"}]
    }
    assert [(i["id"], i["status"]) for i in managed.json["incidents"]] == [(new["id"], "acknowledged")]
    noted = call(live, "pagerduty", "add_note_to_incident", {"incident_id": new["id"], "note": "Rolling back"})
    assert (noted.json["note"]["content"], noted.json["note"]["user"]["id"]) == ("Rolling back", bot)
    notes = call(live, "pagerduty", "list_incident_notes", {"incident_id": new["id"]})
    assert [n["content"] for n in notes.json["notes"]] == ["Rolling back"]
    read = call(live, "pagerduty", "get_incident", {"incident_id": new["id"], "query_model": {"include": ["users"]}})
    assert read.event["query"] == {"include[]": ["users"]}
    assert read.json == rest(live, "pagerduty", "GET", f"/incidents/{new['id']}", params={"include[]": ["users"]})
    [record] = [r for r in live.state()["pagerduty.incidents"] if r["id"] == new["id"]]
    assert record["status"] == "acknowledged"
    assert [a["acknowledger"] for a in record["acknowledgements"]] == [bot]
    listed = call(live, "pagerduty", "list_incidents", {"statuses": ["acknowledged"], "urgencies": ["high"]})
    assert listed.event["query"] == {"statuses[]": ["acknowledged"], "urgencies[]": ["high"]}
    assert [i["id"] for i in listed.json["incidents"]] == [new["id"]]


def test_services_are_listed_and_read(live):
    team = _id(live, "teams", "Orders")
    listed = call(live, "pagerduty", "list_services", {"query": "Web", "teams_ids": [team], "limit": 5})
    query = {"query": "Web", "team_ids[]": [team], "limit": "5"}
    assert listed.event["query"] == query
    assert listed.json == rest(live, "pagerduty", "GET", "/services", params=query)
    [service] = listed.json["services"]
    read = call(live, "pagerduty", "get_service", {"service_id": service["id"]})
    assert (read.event["path"], read.json["service"]["name"]) == (f"/services/{service['id']}", "Orders Web")


def test_on_call_schedules_and_policies_are_read(live):
    schedule, policy = _id(live, "schedules", "Orders primary"), _id(live, "escalation_policies", "Orders API")
    oncalls = call(live, "pagerduty", "list_oncalls", {"schedule_ids": [schedule]})
    query = {"schedule_ids[]": [schedule], "earliest": "true"}
    assert oncalls.event["query"] == query
    assert oncalls.json == rest(live, "pagerduty", "GET", "/oncalls", params=query)
    assert [o["user"]["summary"] for o in oncalls.json["oncalls"]] == ["Stage Bot"]
    schedules = call(live, "pagerduty", "list_schedules", {"query_model": {"query": "Orders"}})
    assert schedules.event["query"] == {"query": "Orders", "limit": "20"}
    assert [s["id"] for s in schedules.json["schedules"]] == [schedule]
    read = call(live, "pagerduty", "get_schedule", {"schedule_id": schedule, "kind": "layer_based"})
    assert read.json == rest(live, "pagerduty", "GET", f"/schedules/{schedule}")
    policies = call(live, "pagerduty", "list_escalation_policies", {"query": "Orders", "include": ["services"]})
    assert policies.event["query"] == {"query": "Orders", "include[]": ["services"]}
    assert [p["id"] for p in policies.json["escalation_policies"]] == [policy]
    read = call(live, "pagerduty", "get_escalation_policy", {"policy_id": policy})
    assert [len(r["targets"]) for r in read.json["escalation_policy"]["escalation_rules"]] == [1, 1]


def test_users_are_read(live):
    me = call(live, "pagerduty", "get_user_data", {})
    assert (me.event["path"], me.json["user"]["email"]) == ("/users/me", "stagebot@acme.test")
    team = _id(live, "teams", "Orders")
    listed = call(live, "pagerduty", "list_users", {"teams_ids": [team]})
    assert listed.event["query"] == {"team_ids[]": [team], "limit": "100"}
    assert [u["name"] for u in listed.json["users"]] == ["Maya Chen", "Omar Haddad", "Stage Bot"]


def test_a_missing_service_is_pagerdutys_not_found(live):
    missing = call(live, "pagerduty", "get_service", {"service_id": "PNOPE00"})
    assert (missing.error, missing.event["status"]) == (True, 404)
    assert missing.json == rest(live, "pagerduty", "GET", "/services/PNOPE00")
    assert missing.json["error"]["message"] == "Not Found"


def test_the_endpoint_of_every_service_tells_datadogs_and_pagerdutys_incidents_apart(live):
    async def steps(session: Any) -> Any:
        pagerduty = await session.call_tool("pagerduty_list_incidents", {"statuses": ["resolved"]})
        datadog = await session.call_tool("datadog_list_incidents", {})
        return pagerduty, datadog

    before = live.world.log.last_seq
    pagerduty, datadog = over_mcp(live.env["SOUNDSTAGE_MCP_URL"], live.env["SOUNDSTAGE_TOKEN"], steps)
    assert (pagerduty.is_error, datadog.is_error) == (False, False)
    assert [(e["service"], e["path"], e["mcp"]["tool"]) for e in live.trace(after=before)] == [
        ("pagerduty", "/incidents", "list_incidents"),
        ("datadog", "/api/v2/incidents", "list_incidents"),
    ]
