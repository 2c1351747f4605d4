"""Incident records as PagerDuty's API objects: incidents, alerts, notes, log entries, change events,
responder requests and status updates, with references to the directory objects they name (rendered by
`views_directory`).

Times are ISO-8601 UTC with `Z`. `include[]` on incidents expands references into whole objects as
PagerDuty does: `assignees`, `acknowledgers` (`users` both), `agents`, `services`, `escalation_policies`,
`teams`, `first_trigger_log_entries`; priorities always come whole. An incident's `body` is rendered when
one incident is returned, or with `include[]=body`.

Where the OpenAPI description disagrees with PagerDuty's own examples and API, the API wins: `priority`
is null without a priority, `resolved_at` null until resolved, `alert_grouping` null without grouping and
`resolve_reason` null unless merged (the description says so in words or examples),
`body.details` is the string it was created with, and acknowledgements log `acknowledge_log_entry`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...clock import iso
from ...world import Record
from .calls import Call, account_zone
from .store import ALERTS, ESCALATION_POLICIES, INCIDENTS, LOG_ENTRIES, PRIORITIES, SERVICES, TEAMS, USERS
from .views import identity, reference
from .views_directory import (
    first_integration,
    policy_ref,
    policy_view,
    priority_view,
    service_ref,
    service_view,
    stamp,
    team_ref,
    team_view,
    user_ref,
    user_ref_with_avatar,
    user_view,
)


def _time(at: int | None) -> str | None:
    return iso(at) if at is not None else None


def _named(call: Call, collection: str, record_id: str) -> str:
    record = call.world[collection].get(record_id)
    return record["name"] if record else record_id


Reference = Callable[[Call, str], dict[str, Any]]
View = Callable[[Call, Record], dict[str, Any]]


def _related(call: Call, record_id: str, whole: bool, collection: str, ref: Reference, view: View) -> dict[str, Any]:
    """A related object: whole when `include[]` asks for it (a reference when the record is gone), else a
    reference."""
    if whole:
        record = call.world[collection].get(record_id)
        if record is not None:
            return view(call, record)
    return ref(call, record_id)


def _user(call: Call, record: Record) -> dict[str, Any]:
    return user_view(call, record, [])


def _service(call: Call, record: Record) -> dict[str, Any]:
    return service_view(call, record, [])


def _policy(call: Call, record: Record) -> dict[str, Any]:
    return policy_view(call, record, [])


# -- references --------------------------------------------------------------------------------------


def incident_ref(call: Call, incident_id: str) -> dict[str, Any]:
    record = call.world[INCIDENTS].get(incident_id)
    return reference(call, "incident", "incidents", incident_id, _incident_summary(record) if record else incident_id)


def agent_ref(call: Call, agent: dict[str, str]) -> dict[str, Any]:
    if agent["type"] == "service_reference":
        return service_ref(call, agent["id"])
    return user_ref(call, agent["id"])


def log_entry_ref(call: Call, entry: Record) -> dict[str, Any]:
    return identity(
        call,
        f"{entry['type']}_reference",
        "log_entries",
        entry["id"],
        entry["summary"],
        f"incidents/{entry['incident']}/log_entries",
    )


# -- incidents ---------------------------------------------------------------------------------------


def _incident_summary(record: Record) -> str:
    return f"[#{record['incident_number']}] {record['title']}"


def incident(
    call: Call, record: Record, body: bool = False, include: list[str] | tuple[str, ...] = ()
) -> dict[str, Any]:
    """The incident object; `body` adds its `body` (details), `include` expands related objects."""
    alerts = call.world[ALERTS].by("incident", record["id"])
    triggered = sum(1 for a in alerts if a["status"] == "triggered")
    first = call.world[LOG_ENTRIES].get(record["first_trigger_log_entry"] or "")
    users = "users" in include
    whole_assignees, whole_acknowledgers = users or "assignees" in include, users or "acknowledgers" in include
    whole_services = "services" in include
    whole_policy, whole_teams = "escalation_policies" in include, "teams" in include
    agent = record["last_status_change_by"]
    if "agents" in include:
        if agent["type"] == "service_reference":
            changed_by = _related(call, agent["id"], True, SERVICES, service_ref, _service)
        else:
            changed_by = _related(call, agent["id"], True, USERS, user_ref, _user)
    else:
        changed_by = agent_ref(call, agent)
    trigger: dict[str, Any] | None = None
    if first is not None:
        trigger = log_entry(call, first) if "first_trigger_log_entries" in include else log_entry_ref(call, first)
    priority = call.world[PRIORITIES].get(record["priority"] or "")
    view: dict[str, Any] = {
        **identity(call, "incident", "incidents", record["id"], _incident_summary(record)),
        "incident_number": record["incident_number"],
        "title": record["title"],
        "description": record["title"],
        "created_at": iso(record["created_at"]),
        "updated_at": iso(record["updated_at"]),
        "status": record["status"],
        "incident_key": record["incident_key"],
        "service": _related(call, record["service"], whole_services, SERVICES, service_ref, _service),
        "assignments": [
            {"at": iso(a["at"]), "assignee": _related(call, a["assignee"], whole_assignees, USERS, user_ref, _user)}
            for a in record["assignments"]
        ],
        "assigned_via": record["assigned_via"],
        "last_status_change_at": iso(record["last_status_change_at"]),
        "last_status_change_by": changed_by,
        "resolved_at": _time(record["resolved_at"]),
        "first_trigger_log_entry": trigger,
        "alert_counts": {"all": len(alerts), "triggered": triggered, "resolved": len(alerts) - triggered},
        "is_mergeable": True,
        "incident_type": {"name": "incident_default"},
        "escalation_policy": _related(
            call, record["escalation_policy"], whole_policy, ESCALATION_POLICIES, policy_ref, _policy
        ),
        "teams": [_related(call, t, whole_teams, TEAMS, team_ref, team_view) for t in record["teams"]],
        "pending_actions": [{"type": p["type"], "at": iso(p["at"])} for p in record["pending_actions"]],
        "acknowledgements": [
            {
                "at": iso(a["at"]),
                "acknowledger": (
                    _related(call, a["acknowledger"], whole_services, SERVICES, service_ref, _service)
                    if a.get("acknowledger_type") == "service_reference"  # through the Events API
                    else _related(call, a["acknowledger"], whole_acknowledgers, USERS, user_ref, _user)
                ),
            }
            for a in record["acknowledgements"]
        ],
        "priority": priority_view(call, priority) if priority is not None else None,
        "incidents_responders": [
            responder for r in record["responder_requests"] for responder in _responders(call, record, r)
        ],
        "responder_requests": [responder_request(call, record, r) for r in record["responder_requests"]],
        "urgency": record["urgency"],
        "resolve_reason": None,
        "alert_grouping": None,  # the services group no alerts (`alert_grouping_parameters.type` null)
        "custom_fields": [],  # the account defines none
    }
    if "conference_bridge" in include:
        view["conference_bridge"] = record["conference_bridge"] or {"conference_number": None, "conference_url": None}
    if record["merged_into"]:
        view["resolve_reason"] = {"type": "merge_resolve_reason", "incident": incident_ref(call, record["merged_into"])}
    if body:
        view["body"] = {"type": "incident_body", "details": record["details"] or ""}
    return view


# -- parts ---------------------------------------------------------------------------------------------


def alert(call: Call, record: Record) -> dict[str, Any]:
    return {
        **identity(call, "alert", f"incidents/{record['incident']}/alerts", record["id"], record["summary"], "alerts"),
        "created_at": iso(record["created_at"]),
        "status": record["status"],
        "alert_key": record["alert_key"],
        "service": service_ref(call, record["service"]),
        "incident": incident_ref(call, record["incident"]),
        "suppressed": False,
        "severity": record["severity"],
        "integration": first_integration(call, record["service"]),
        "body": {"type": "alert_body", "contexts": [], "details": record["details"]},
    }


def note(call: Call, record: Record) -> dict[str, Any]:
    return {
        "id": record["id"],
        "user": user_ref(call, record["user"]),
        "channel": {"summary": "The PagerDuty website or APIs"},
        "content": record["content"],
        "created_at": stamp(record["created_at"], account_zone(call)),
        "updated_at": stamp(record["created_at"], account_zone(call)),
    }


def log_entry(call: Call, record: Record) -> dict[str, Any]:
    channel = dict(record["channel"])
    channel.setdefault("summary", record.get("note") if record["type"] == "annotate_log_entry" else channel["type"])
    view: dict[str, Any] = {
        **identity(
            call,
            record["type"],
            "log_entries",
            record["id"],
            record["summary"],
            f"incidents/{record['incident']}/log_entries",
        ),
        "created_at": iso(record["created_at"]),
        "agent": agent_ref(call, record["agent"]),
        "channel": channel,
        "service": service_ref(call, record["service"]),
        "incident": incident_ref(call, record["incident"]),
        "teams": [team_ref(call, t) for t in _teams_of(call, record["incident"])],
        "contexts": [],
        "event_details": record.get("event_details") or {},
    }
    if record.get("note") is not None:
        view["note"] = record["note"]
    if "assignees" in record:
        view["assignees"] = [user_ref(call, u) for u in record["assignees"]]
    if record["type"] == "acknowledge_log_entry":
        view["acknowledgement_timeout"] = record["acknowledgement_timeout"]
    if "changed_actions" in record:
        view["changed_actions"] = [{"type": a["type"], "at": iso(a["at"])} for a in record["changed_actions"]]
    return view


def _teams_of(call: Call, incident_id: str) -> list[str]:
    record = call.world[INCIDENTS].get(incident_id)
    return list(record["teams"]) if record else []


def change_event(call: Call, record: Record) -> dict[str, Any]:
    return {
        "id": record["id"],
        "type": "change_event",
        "summary": record["summary"],
        "timestamp": iso(record["timestamp"]),
        "services": [service_ref(call, record["service"])],
        "integration": first_integration(call, record["service"]),
        "source": record["source"] or "",
        "links": record["links"],
        "images": [],
        "custom_details": record["custom_details"],
    }


def _responders(call: Call, incident: Record, request: dict[str, Any]) -> list[dict[str, Any]]:
    """One `incidents_responders` entry per user a responder request reached (pending until they answer)."""
    users = [t["id"] for t in request["targets"] if t["type"] == "user"]
    users += [u for t in request["targets"] if t["type"] == "escalation_policy" for u in t.get("users", [])]
    return [
        {
            "state": "pending",
            "user": user_ref_with_avatar(call, u),
            "incident": incident_ref(call, incident["id"]),
            "updated_at": stamp(request["requested_at"], account_zone(call)),  # as PagerDuty's example
            "message": request["message"],
            "requester": user_ref_with_avatar(call, request["requester"]),
            "requested_at": iso(request["requested_at"]),
        }
        for u in users
    ]


def responder_request(call: Call, incident: Record, request: dict[str, Any]) -> dict[str, Any]:
    responders = _responders(call, incident, request)
    targets = []
    for target in request["targets"]:
        if target["type"] == "user":
            summary = _named(call, USERS, target["id"])
            mine = [r for r in responders if r["user"]["id"] == target["id"]]
        else:
            summary = _named(call, ESCALATION_POLICIES, target["id"])
            mine = [r for r in responders if r["user"]["id"] in target.get("users", [])]
        targets.append(
            {
                "responder_request_target": {
                    "type": target["type"],
                    "id": target["id"],
                    "summary": summary,
                    "incidents_responders": mine,
                }
            }
        )
    return {
        "incident": incident_ref(call, incident["id"]),
        "requester": user_ref(call, request["requester"]),
        "requested_at": stamp(request["requested_at"], account_zone(call)),
        "message": request["message"],
        "responder_request_targets": targets,
    }


def status_update(call: Call, update: dict[str, Any]) -> dict[str, Any]:
    view = {
        "id": update["id"],
        "message": update["message"],
        "created_at": stamp(update["created_at"], account_zone(call)),
        "sender": user_ref(call, update["sender"]),
    }
    return {**view, "subject": update["subject"], "html_message": update["html_message"]}
