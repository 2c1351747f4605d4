"""What hangs off an incident: notes, alerts, log entries (also account-wide), merging, snoozing,
responder requests, status updates and related change events.

Log entries list newest first. `is_overview=true` keeps the changes of state (trigger, assign, escalate,
acknowledge, snooze, resolve...) and leaves out notes and notifications.
"""

from __future__ import annotations

from typing import Any

from ..base import Reply
from . import views_incidents as views
from .calls import (
    Call,
    body_text,
    flag,
    incident_of,
    listed,
    moment,
    ops,
    paginate,
    ref_id,
    requester,
    text,
    user_of,
    wrapped,
)
from .errors import conflict, invalid, not_found
from .incident_parts import IncidentParts
from .incidents import Incidents
from .log_entries import OVERVIEW, IncidentLog
from .store import ALERTS, ESCALATION_POLICIES, INCIDENTS, LOG_ENTRIES, USERS
from .timers import arm

MAX_SNOOZE = 604800  # a week, in seconds


# -- notes -------------------------------------------------------------------------------------------


@ops("GET /incidents/{id}/notes")
def list_notes(call: Call) -> dict[str, Any]:
    incident = incident_of(call)
    return {"notes": [views.note(call, n) for n in IncidentParts.of(call.world).notes(incident["id"])]}


@ops("POST /incidents/{id}/notes")
def create_note(call: Call) -> dict[str, Any]:
    user = requester(call)
    incident = incident_of(call)
    content = body_text(wrapped(call, "note"), "content", required=True)
    assert content is not None
    note = IncidentParts.of(call.world).annotate(incident, user["id"], content, call.now())
    return {"note": views.note(call, note)}


# -- alerts ------------------------------------------------------------------------------------------


@ops("GET /incidents/{id}/alerts")
def list_alerts(call: Call) -> dict[str, Any]:
    incident = incident_of(call)
    statuses = listed(call, "statuses")
    if any(s not in ("triggered", "resolved") for s in statuses):
        raise invalid("statuses must be any of triggered, resolved.")
    alerts = Incidents.of(call.world).alerts(incident["id"])
    key = text(call, "alert_key")
    alerts = [a for a in alerts if (not statuses or a["status"] in statuses) and (not key or a["alert_key"] == key)]
    sort = text(call, "sort_by") or "created_at:asc"
    field, _, direction = sort.partition(":")
    if field not in ("created_at", "resolved_at") or direction not in ("", "asc", "desc"):
        raise invalid("sort_by must be created_at or resolved_at, with :asc or :desc.")
    alerts.sort(key=lambda a: a[field] or 0, reverse=direction == "desc")
    return paginate(call, "alerts", alerts, lambda a: views.alert(call, a))


@ops("GET /incidents/{id}/alerts/{alert_id}")
def get_alert(call: Call) -> dict[str, Any]:
    incident = incident_of(call)
    alert = call.world[ALERTS].get(call.params["alert_id"])
    if alert is None or alert["incident"] != incident["id"]:
        raise not_found()
    return {"alert": views.alert(call, alert)}


# -- log entries -------------------------------------------------------------------------------------


def _log_page(call: Call, entries: list[Any]) -> dict[str, Any]:
    since, until = moment(call, "since"), moment(call, "until")
    overview = flag(call, "is_overview")
    chosen = [
        e
        for e in entries
        if (since is None or e["created_at"] >= since)
        and (until is None or e["created_at"] < until)
        and (not overview or e["type"] in OVERVIEW)
    ]
    chosen.reverse()  # newest first, and among entries of the same moment the last written first
    chosen.sort(key=lambda e: e["created_at"], reverse=True)
    return paginate(call, "log_entries", chosen, lambda e: views.log_entry(call, e))


@ops("GET /incidents/{id}/log_entries")
def list_incident_log_entries(call: Call) -> dict[str, Any]:
    incident = incident_of(call)
    return _log_page(call, IncidentLog.of(call.world).log(incident["id"]))


@ops("GET /log_entries")
def list_log_entries(call: Call) -> dict[str, Any]:
    entries = list(call.world[LOG_ENTRIES])
    if teams := listed(call, "team_ids"):
        incidents = call.world[INCIDENTS]
        entries = [e for e in entries if any(t in teams for t in (incidents.get(e["incident"]) or {}).get("teams", []))]
    return _log_page(call, entries)


@ops("GET /log_entries/{id}")
def get_log_entry(call: Call) -> dict[str, Any]:
    entry = call.world[LOG_ENTRIES].get(call.params["id"])
    if entry is None:
        raise not_found()
    return {"log_entry": views.log_entry(call, entry)}


# -- merge and snooze --------------------------------------------------------------------------------


@ops("PUT /incidents/{id}/merge")
def merge_incidents(call: Call) -> dict[str, Any]:
    """The source incidents' alerts move into the target; the sources are resolved."""
    user = requester(call)
    target = incident_of(call)
    given = call.fields.get("source_incidents")
    if not isinstance(given, list) or not given:
        raise invalid("source_incidents must be a non-empty array of incident references.")
    incidents = Incidents.of(call.world)
    sources = []
    for value in given:
        source = incidents.incident(ref_id(value, "source_incidents", ("incident_reference", "incident")))
        if source is None:
            raise not_found()
        if source["id"] == target["id"]:
            raise conflict("An incident cannot be merged into itself.")
        if source["status"] == "resolved":
            raise conflict(f"Incident {source['id']} is resolved and cannot be merged.")
        if source not in sources:
            sources.append(source)
    if target["status"] == "resolved":
        raise conflict("Incident Already Resolved")
    merged = incidents.merge(target, sources, user["id"], call.now())
    return {"incident": views.incident_ref(call, merged["id"])}


@ops("POST /incidents/{id}/snooze")
def snooze_incident(call: Call) -> Reply:
    """Snoozes an acknowledged incident for `duration` seconds; it returns to triggered afterwards."""
    user = requester(call)
    incident = incident_of(call)
    duration = call.fields.get("duration")
    if isinstance(duration, bool) or not isinstance(duration, int) or not 1 <= duration <= MAX_SNOOZE:
        raise invalid(f"duration must be an integer number of seconds from 1 to {MAX_SNOOZE}.")
    if incident["status"] != "acknowledged":
        raise conflict("Only acknowledged incidents can be snoozed.")
    incident = Incidents.of(call.world).snooze(incident, user["id"], duration, call.now())
    arm(call.world, incident)
    return Reply(201, {"incident": views.incident(call, incident, body=True)})


# -- responders and status updates -------------------------------------------------------------------


@ops("POST /incidents/{id}/responder_requests")
def request_responders(call: Call) -> dict[str, Any]:
    incident = incident_of(call)
    body = call.fields
    requester_id = body_text(body, "requester_id", required=True)
    if requester_id not in call.world[USERS]:
        raise invalid("requester_id must be the id of a user.")
    message = body_text(body, "message", required=True)
    given = body.get("responder_request_targets")
    if not isinstance(given, list) or not given:
        raise invalid("responder_request_targets must be a non-empty array.")
    targets: list[dict[str, str]] = []
    for item in given:
        target = item.get("responder_request_target") if isinstance(item, dict) else None
        if isinstance(target, dict) and target.get("type") in ("escalation_policy_reference", "escalation_policy"):
            policy_id = ref_id(target, "responder_request_target", ("escalation_policy_reference", "escalation_policy"))
            if policy_id not in call.world[ESCALATION_POLICIES]:
                raise invalid(f"Escalation policy {policy_id} was not found.")
            targets.append({"type": "escalation_policy", "id": policy_id})
        else:
            targets.append({"type": "user", "id": user_of(call, target, "responder_request_target")})
    if incident["status"] == "resolved":
        raise conflict("Incident Already Resolved")
    assert requester_id is not None and message is not None
    request = IncidentParts.of(call.world).request_responders(incident, requester_id, message, targets, call.now())
    record = call.world[INCIDENTS].get(incident["id"])
    assert record is not None
    return {"responder_request": views.responder_request(call, record, request)}


@ops("POST /incidents/{id}/status_updates")
def create_status_update(call: Call) -> dict[str, Any]:
    user = requester(call)
    incident = incident_of(call)
    body = call.fields
    message = body_text(body, "message", required=True)
    subject = body_text(body, "subject")
    html_message = body_text(body, "html_message")
    assert message is not None
    update = IncidentParts.of(call.world).post_status_update(
        incident, user["id"], message, call.now(), subject, html_message
    )
    return {"status_update": views.status_update(call, update)}


# -- change events -----------------------------------------------------------------------------------


@ops("GET /incidents/{id}/related_change_events")
def related_change_events(call: Call) -> dict[str, Any]:
    """The change events on the incident's service before it began, newest first (`most_recent`)."""
    incident = incident_of(call)
    events = IncidentParts.of(call.world).related_change_events(incident)
    given = text(call, "limit")
    limit = None
    if given is not None:
        if not (given.isascii() and given.isdigit()):
            raise invalid("limit must be a non-negative integer.")
        limit = int(given)
        events = events[:limit]
    # PagerDuty's paging envelope, one page: the `limit` given (else null), `offset` and `total` null.
    return {
        "change_events": [
            {**views.change_event(call, e), "correlation_reason": {"reason": "most_recent"}} for e in events
        ],
        "limit": limit,
        "offset": None,
        "total": None,
        "more": False,
    }
