"""PagerDuty's MCP tools (facts in `mcp_tools.yaml`), each the REST operation it stands for.

As PagerDuty's own server does, every call carries `From: <email>` of the user the token acts as (the server
reads it from GET /users/me when it starts; soundstage knows the user already), so the writes that PagerDuty
makes as a user (creating, updating, noting incidents) need nothing more from the agent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...world import Principal, World
from ..mcp import RestCall, Tools, env_headers, path, picked
from .store import USERS


def _from(world: World, caller: Principal) -> dict[str, str]:
    user = world[USERS].get(caller.user or "")
    return {"from": user["email"]} if user is not None else {}


tools = Tools(
    "pagerduty",
    Path(__file__).with_name("mcp_tools.yaml"),
    env_headers({"authorization": "Token token={PAGERDUTY_TOKEN}"}),
    caller=_from,
)


def _reference(kind: str, given: dict[str, Any]) -> dict[str, Any]:
    """A reference as the source's models write it: the id (and summary) with its type."""
    return {**picked(given, {"id": "id", "summary": "summary"}), "type": kind}


@tools("list_incidents", "GET /incidents")
def list_incidents(arguments: dict[str, Any]) -> RestCall:
    renames = {
        "statuses": "statuses[]",
        "since": "since",
        "until": "until",
        "urgencies": "urgencies[]",
        "priorities": "priority_ids[]",  # as the source sends it: PagerDuty filters on priority_ids[]
        "limit": "limit",
    }
    return RestCall("GET", "/incidents", query=picked(arguments, renames))


@tools("get_incident", "GET /incidents/{id}")
def get_incident(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments.get("query_model") or {}, {"include": "include[]"})
    return RestCall("GET", path("/incidents/{incident_id}", arguments), query=query)


@tools("create_incident", "POST /incidents")
def create_incident(arguments: dict[str, Any]) -> RestCall:
    given = arguments["incident"]
    incident: dict[str, Any] = {
        "title": given["title"],
        "service": _reference("service_reference", given["service"]),
        "urgency": given.get("urgency", "high"),
        "type": "incident",
    }
    if given.get("body") is not None:
        incident["body"] = {"details": given["body"]["details"], "type": "incident_body"}
    if given.get("assignments"):
        incident["assignments"] = [
            {"assignee": _reference("user_reference", a["assignee"])} for a in given["assignments"]
        ]
    return RestCall("POST", "/incidents", body={"incident": incident})


@tools("manage_incidents", "PUT /incidents")
def manage_incidents(arguments: dict[str, Any]) -> RestCall:
    # The source's server sends one PUT /incidents per field given; all of them go in one here, as PagerDuty takes.
    given = arguments["manage_request"]
    change = picked(given, {"status": "status", "urgency": "urgency", "escalation_level": "escalation_level"})
    if given.get("assignement") is not None:
        change["assignments"] = [{"assignee": _reference("user_reference", given["assignement"])}]
    incidents = [{"id": i, "type": "incident_reference", **change} for i in given["incident_ids"]]
    return RestCall("PUT", "/incidents", body={"incidents": incidents})


@tools("add_note_to_incident", "POST /incidents/{id}/notes")
def add_note_to_incident(arguments: dict[str, Any]) -> RestCall:
    where = path("/incidents/{incident_id}/notes", arguments)
    return RestCall("POST", where, body={"note": {"content": arguments["note"]}})


@tools("list_incident_notes", "GET /incidents/{id}/notes")
def list_incident_notes(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/incidents/{incident_id}/notes", arguments))


@tools("list_services", "GET /services")
def list_services(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments, {"query": "query", "teams_ids": "team_ids[]", "limit": "limit"})
    return RestCall("GET", "/services", query=query)


@tools("get_service", "GET /services/{id}")
def get_service(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/services/{service_id}", arguments))


@tools("list_oncalls", "GET /oncalls")
def list_oncalls(arguments: dict[str, Any]) -> RestCall:
    renames = {
        "time_zone": "time_zone",
        "user_ids": "user_ids[]",
        "escalation_policy_ids": "escalation_policy_ids[]",
        "schedule_ids": "schedule_ids[]",
        "since": "since",
        "until": "until",
        "limit": "limit",
    }
    return RestCall(
        "GET", "/oncalls", query={**picked(arguments, renames), "earliest": arguments.get("earliest", True)}
    )


@tools("list_schedules", "GET /schedules")
def list_schedules(arguments: dict[str, Any]) -> RestCall:
    given = arguments["query_model"]
    renames = {"query": "query", "team_ids": "team_ids[]", "user_ids": "user_ids[]", "include": "include[]"}
    return RestCall("GET", "/schedules", query={**picked(given, renames), "limit": given.get("limit", 20)})


@tools("get_schedule", "GET /schedules/{id}")
def get_schedule(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/schedules/{schedule_id}", arguments))


@tools("list_escalation_policies", "GET /escalation_policies")
def list_escalation_policies(arguments: dict[str, Any]) -> RestCall:
    renames = {"query": "query", "user_ids": "user_ids[]", "team_ids": "team_ids[]", "include": "include[]"}
    return RestCall("GET", "/escalation_policies", query=picked(arguments, {**renames, "limit": "limit"}))


@tools("get_escalation_policy", "GET /escalation_policies/{id}")
def get_escalation_policy(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/escalation_policies/{policy_id}", arguments))


@tools("get_user_data", "GET /users/me")
def get_user_data(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/users/me")


@tools("list_users", "GET /users")
def list_users(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments, {"query": "query", "teams_ids": "team_ids[]"})
    return RestCall("GET", "/users", query={**query, "limit": arguments.get("limit", 100)})
