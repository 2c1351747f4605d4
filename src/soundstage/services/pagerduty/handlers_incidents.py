"""Incidents: list, create, show, update one, update many.

Every write needs the `From` header (a user's email), acts as that user, and validates the whole body
before its first write. The lifecycle is triggered -> acknowledged -> resolved: acknowledging again adds
an acknowledger; a resolved incident can be reopened (status `triggered` or `acknowledged`, as the API
describes) and refuses any other change (400, code 2002); an acknowledged incident cannot be set back to
`triggered` by hand (it returns there when a snooze or the acknowledgement timeout ends).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from ...clock import US
from ...world import Record
from ..base import Reply
from . import kept
from . import views_incidents as views
from .calls import (
    Call,
    assignees_of,
    body_text,
    bridge_of,
    choice,
    details_of,
    incident_of,
    listed,
    moment,
    ops,
    paginate,
    policy_of,
    priority_of,
    ref_id,
    requester,
    sorts,
    text,
    wrapped,
)
from .errors import bad_range, conflict, invalid, not_found
from .incidents import URGENCIES, Incidents, default_urgency
from .log_entries import user_agent
from .store import INCIDENTS, SERVICES, assignee_ids
from .timers import arm

DAY = 86400 * US
STATUSES = ("triggered", "acknowledged", "resolved")
# What each `sort_by` field sorts by, in the order its 400 names them.
_SORT_KEYS: dict[str, Callable[[Record], Any]] = {
    "incident_number": itemgetter("incident_number"),
    "created_at": itemgetter("created_at"),
    "resolved_at": lambda record: record["resolved_at"] or 0,
    "urgency": lambda record: URGENCIES.index(record["urgency"]),
}
_SORTS = tuple(_SORT_KEYS)


# -- list --------------------------------------------------------------------------------------------


@ops("GET /incidents")
def list_incidents(call: Call) -> dict[str, Any]:
    """Incidents created in [`since`, `until`) (by default the last 30 days up to now, an incident opened
    this very moment included; `date_range=all` for all),
    filtered by the set parameters, sorted by `sort_by` (default `created_at` ascending)."""
    statuses = listed(call, "statuses")
    urgencies = listed(call, "urgencies")
    for name, given, allowed in (("statuses", statuses, STATUSES), ("urgencies", urgencies, URGENCIES)):
        if given and not all(map(allowed.__contains__, given)):
            raise invalid(f"{name} must be any of {', '.join(allowed)}.")
    order = sorts(call, _SORTS, "created_at")
    records: list[Record] = list(call.world[INCIDENTS])
    if text(call, "date_range") != "all":
        until_given = moment(call, "until")
        until = call.now() + 1 if until_given is None else until_given  # without it: everything so far, now included
        since_given = moment(call, "since")
        since = until - 30 * DAY if since_given is None else since_given
        if since > until:
            raise bad_range("since must be before until.")
        records = [r for r in records if since <= r["created_at"] < until]
    key = text(call, "incident_key")
    filters: list[Callable[[Record], bool]] = []
    if statuses:
        filters.append(lambda r: r["status"] in statuses)
    if urgencies:
        filters.append(lambda r: r["urgency"] in urgencies)
    if key:
        filters.append(lambda r: r["incident_key"] == key)
    if services := listed(call, "service_ids"):
        filters.append(lambda r: r["service"] in services)
    if teams := listed(call, "team_ids"):
        filters.append(lambda r: any(t in teams for t in r["teams"]))
    if users := listed(call, "user_ids"):
        filters.append(lambda r: any(u in users for u in assignee_ids(r)))
    if filters:
        records = [r for r in records if all(f(r) for f in filters)]
    for field, descending in reversed(order):
        records.sort(key=_SORT_KEYS[field], reverse=descending)
    include = listed(call, "include")
    if not include:  # the default objects, the same call after call: kept (`kept`)
        return paginate(call, "incidents", records, kept.incidents(call))
    return paginate(call, "incidents", records, lambda r: views.incident(call, r, "body" in include, include))


# -- create ------------------------------------------------------------------------------------------


@ops("POST /incidents")
def create_incident(call: Call) -> Reply:
    user = requester(call)
    body = wrapped(call, "incident")
    if body.get("type") != "incident":
        raise invalid("incident type must be incident.")
    title = body_text(body, "title", required=True)
    assert title is not None
    service = call.world[SERVICES].get(ref_id(body.get("service"), "service", ("service_reference", "service")))
    if service is None:
        raise invalid("Service not found.")
    urgency = choice(body, "urgency", URGENCIES) or default_urgency(service, call.now())
    priority = priority_of(call, body.get("priority"))
    details = details_of(body.get("body"))
    bridge = bridge_of(body["conference_bridge"]) if body.get("conference_bridge") is not None else None
    key = body_text(body, "incident_key")
    assignees = assignees_of(call, body)
    policy = policy_of(call, body["escalation_policy"]) if body.get("escalation_policy") is not None else None
    if assignees is not None and policy is not None:
        raise invalid("Assignments cannot be specified if an escalation policy is given.")
    incidents = Incidents.of(call.world)
    if key and incidents.open_with_key(service["id"], key):
        raise conflict("Open incident with matching dedup key already exists on this service")
    incident = incidents.trigger(
        service=service,
        title=title,
        at=call.now(),
        agent=user_agent(user["id"]),
        urgency=urgency,
        priority=priority,
        details=details,
        incident_key=key,
        conference_bridge=bridge,
        assignees=assignees,
        escalation_policy=policy,
    )
    arm(call.world, incident)
    return Reply(201, {"incident": views.incident(call, incident, body=True)})


# -- show and update ---------------------------------------------------------------------------------


@ops("GET /incidents/{id}")
def get_incident(call: Call) -> dict[str, Any]:
    return {"incident": views.incident(call, incident_of(call), body=True, include=listed(call, "include"))}


@ops("PUT /incidents/{id}")
def update_incident(call: Call) -> dict[str, Any]:
    user = requester(call)
    incident = incident_of(call)
    apply = plan_update(call, incident, wrapped(call, "incident"), user)
    return {"incident": views.incident(call, apply(), body=True)}


@ops("PUT /incidents")
def update_incidents(call: Call) -> dict[str, Any]:
    """Several updates at once: all are checked before any is made."""
    user = requester(call)
    items = call.fields.get("incidents")
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
        raise invalid("incidents must be a non-empty array of incident objects.")
    incidents = Incidents.of(call.world)
    steps = []
    for item in items:
        if not isinstance(item.get("id"), str):
            raise invalid("Each incident must have an id.")
        incident = incidents.incident(item["id"])
        if incident is None:
            raise not_found()
        steps.append(plan_update(call, incident, item, user))
    updated = [step() for step in steps]
    return {
        "incidents": [views.incident(call, r) for r in updated],
        "limit": len(updated),
        "offset": 0,
        "more": False,
        "total": None,
    }


def plan_update(call: Call, incident: Record, body: dict[str, Any], user: Record) -> Callable[[], Record]:
    """Checks one incident update and answers the function that makes it."""
    if body.get("type") not in ("incident", "incident_reference"):
        raise invalid("incident type must be incident or incident_reference.")
    status = choice(body, "status", STATUSES)
    title = body_text(body, "title", required="title" in body)
    urgency = choice(body, "urgency", URGENCIES)
    resolution = body_text(body, "resolution")
    priority = priority_of(call, body["priority"]) if "priority" in body else incident["priority"]
    bridge = bridge_of(body["conference_bridge"]) if body.get("conference_bridge") is not None else None
    assignees = assignees_of(call, body)
    policy = policy_of(call, body["escalation_policy"]) if body.get("escalation_policy") is not None else None
    level = body.get("escalation_level")
    incidents = Incidents.of(call.world)
    if level is not None:
        levels = incidents.levels(policy or incident["escalation_policy"])
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= levels:
            raise invalid(f"escalation_level must be an integer from 1 to {levels}.")
    routed = assignees is not None or policy is not None or level is not None
    reopening = status in ("triggered", "acknowledged")
    if incident["status"] == "resolved" and not reopening and (status == "resolved" or routed or urgency is not None):
        raise conflict("Incident Already Resolved")
    if incident["status"] == "acknowledged" and status == "triggered" and not routed:
        raise conflict("An acknowledged incident cannot be set back to triggered.")
    agent = user_agent(user["id"])

    def apply() -> Record:
        at = call.now()
        record = incident
        if record["status"] == "resolved" and status in ("triggered", "acknowledged"):
            record = incidents.reopen(record, status, user["id"], at, assignees)
        else:
            if assignees is not None:
                record = incidents.reassign(record, assignees, agent, at)
            elif policy is not None or level is not None:
                if policy is not None:
                    record = call.world[INCIDENTS].change(record["id"], escalation_policy=policy)
                record = incidents.escalate(record, level or 1, agent, at)
            if status == "acknowledged":
                record = incidents.acknowledge(record, user["id"], at)
            elif status == "resolved":
                record = incidents.resolve(record, agent, at, resolution=resolution)
        changes = {"title": title, "urgency": urgency, "priority": priority, "conference_bridge": bridge}
        record = incidents.update(
            record, agent, at, **{k: v for k, v in changes.items() if v is not None or k == "priority"}
        )
        arm(call.world, record)
        return record

    return apply
