"""Building the incidents part of the `pagerduty:` section: incidents with the history their fields imply,
and change events.

Pass 1 gives every incident, alert, note and change event its id (in file order), so refs resolve anywhere.
Pass 2 replays each incident's life through the state layer, oldest first (so `incident_number`s follow
creation time): triggered by its service through the API `ago` before the clock start and assigned
(to `assignees`, or to whoever the escalation policy has on call at `escalation_level` then), its alerts,
acknowledged by the first assignee (`acknowledged_ago`, default halfway to the start), its notes, then
resolved (`resolved_ago`, default halfway from the last step to the start). Each step writes the log
entry PagerDuty would. Timers that would have fired before the start are dropped: the file says what the
state is.
"""

from __future__ import annotations

from functools import partial
from typing import cast
from weakref import WeakKeyDictionary

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Collection, Record, World
from .incident_parts import IncidentParts
from .incidents import Incidents
from .log_entries import service_agent, user_agent
from .models import PagerdutySection
from .models_incidents import ChangeEvent, Incident
from .oncall import escalation_targets
from .store import ALERTS, CHANGE_EVENTS, INCIDENTS, NOTES, PRIORITIES, SERVICES, USERS

MINUTE = 60 * US

# The ids pass 1 gave, per build, per file and section.
_given: WeakKeyDictionary[BuildContext, dict[tuple[str | int, ...], dict[tuple[str | int, ...], str]]] = (
    WeakKeyDictionary()
)


class _Image:
    """The image being built, seen as a world by the on-call lookup (which only reads collections)."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx

    def __getitem__(self, name: str) -> Collection:
        return self.ctx.collection(name)


def assign(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 1: ids for every incident, alert, note and change event; refs for those that have one."""
    ids = _ids(ctx)
    for i, incident in enumerate(section.incidents):
        ids[("incidents", i)] = ctx.ids.pagerduty()
        ctx.attempt(partial(ctx.define, incident.ref, ids[("incidents", i)], INCIDENTS, "incidents", i))
        for k, alert in enumerate(incident.alerts or []):
            ids[("alerts", i, k)] = ctx.ids.pagerduty("Q", 14)
            ctx.attempt(partial(ctx.define, alert.ref, ids[("alerts", i, k)], ALERTS, "incidents", i, "alerts", k))
        for k, note in enumerate(incident.notes):
            ids[("notes", i, k)] = ctx.ids.pagerduty()
            ctx.attempt(partial(ctx.define, note.ref, ids[("notes", i, k)], NOTES, "incidents", i, "notes", k))
    for i, event in enumerate(section.change_events):
        ids[("change_events", i)] = "01" + ctx.ids.code("pagerduty:change_event", 24)
        ctx.attempt(partial(ctx.define, event.ref, ids[("change_events", i)], CHANGE_EVENTS, "change_events", i))


def _ids(ctx: BuildContext) -> dict[tuple[str | int, ...], str]:
    """The ids pass 1 gave in the section being built (a world file and a scene both may have one)."""
    return _given.setdefault(ctx, {}).setdefault((ctx.file, *ctx.here), {})


def build(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 2: the incidents, oldest first, then the change events."""
    image = cast(World, _Image(ctx))  # the on-call lookup only reads collections, which the image has

    def on_call(policy: str, level: int, at: int) -> list[str]:
        return escalation_targets(image, policy, level, at)

    incidents = Incidents(ctx.collection, ctx.ids, on_call)
    parts = IncidentParts(ctx.collection, ctx.ids, on_call)
    order = sorted(range(len(section.incidents)), key=lambda i: -parse_duration(section.incidents[i].ago))
    ids = _ids(ctx)
    for i in order:
        built = partial(_build_incident, section.incidents[i], i, incidents, parts, ctx)
        ctx.attempt(built, ids[("incidents", i)])
    for i, event in enumerate(section.change_events):
        ctx.attempt(partial(_build_change_event, event, i, ctx), ids[("change_events", i)])


def _build_incident(spec: Incident, i: int, incidents: Incidents, parts: IncidentParts, ctx: BuildContext) -> None:
    ids = _ids(ctx)
    here = ("incidents", i)
    service_id = ctx.resolve_kind(spec.service, SERVICES, *here, "service")
    service = ctx.collection(SERVICES).get(service_id)
    if service is None:
        raise ctx.error(f"no PagerDuty service {spec.service}", *here, "service")
    assignees = None
    if spec.assignees is not None:
        assignees = [_user(ctx, value, *here, "assignees", k) for k, value in enumerate(spec.assignees)]
    levels = incidents.levels(service["escalation_policy"])
    if not 1 <= spec.escalation_level <= max(levels, 1):
        raise ctx.error(f"the service's escalation policy has {levels} level(s)", *here, "escalation_level")
    triggered, acknowledged, resolved = _times(spec, ctx, here)
    incident = incidents.trigger(
        service=service,
        title=spec.title,
        at=triggered,
        agent=service_agent(service_id),
        urgency=spec.urgency,
        priority=_priority(ctx, spec.priority, *here, "priority") if spec.priority else None,
        details=spec.details,
        incident_key=spec.incident_key,
        assignees=assignees,
        escalation_level=spec.escalation_level,
        incident_id=ids[here],
    )
    alerts = spec.alerts if spec.alerts is not None else []
    for k, alert in enumerate(alerts):
        incidents.add_alert(
            incident,
            summary=alert.summary,
            at=ctx.start - parse_duration(alert.ago) if alert.ago else triggered,
            severity=alert.severity,
            source=alert.source or service["name"],
            details=ctx.resolve(alert.details, *here, "alerts", k, "details"),
            alert_key=alert.alert_key,
            alert_id=ids[("alerts", i, k)],
        )
    if spec.alerts is None:
        incidents.add_alert(incident, summary=spec.title, at=triggered, source=service["name"])
    responder = incident["assignments"][0]["assignee"] if incident["assignments"] else None
    if acknowledged is not None:
        if responder is None:
            raise ctx.error("nobody is assigned to acknowledge this incident; give assignees", *here, "status")
        incident = incidents.acknowledge(incident, responder, acknowledged)
    last = acknowledged or triggered
    for k, note in enumerate(spec.notes):
        last = ctx.start - parse_duration(note.ago) if note.ago else min(last + MINUTE, ctx.start)
        user = _user(ctx, note.user, *here, "notes", k, "user")
        parts.annotate(incident, user, note.content, last, note_id=ids[("notes", i, k)])
    if resolved is not None:
        agent = user_agent(responder) if responder else service_agent(service_id)
        incident = incidents.resolve(incident, agent, resolved, resolution=spec.resolution)
    pending = [p for p in incident["pending_actions"] if p["at"] > ctx.start]
    if pending != incident["pending_actions"]:
        ctx.collection(INCIDENTS).change(incident["id"], pending_actions=pending)


def _times(spec: Incident, ctx: BuildContext, here: tuple[str, int]) -> tuple[int, int | None, int | None]:
    """When the incident was triggered, acknowledged and resolved (None for what did not happen)."""
    triggered = ctx.start - parse_duration(spec.ago)
    acknowledged = resolved = None
    if spec.status == "acknowledged" or (spec.status == "resolved" and spec.acknowledged_ago):
        acknowledged = (
            ctx.start - parse_duration(spec.acknowledged_ago) if spec.acknowledged_ago else (triggered + ctx.start) // 2
        )
        if not triggered <= acknowledged <= ctx.start:
            raise ctx.error("acknowledged_ago must be at most ago", *here, "acknowledged_ago")
    elif spec.acknowledged_ago:
        raise ctx.error(f"a {spec.status} incident has no acknowledged_ago", *here, "acknowledged_ago")
    if spec.status == "resolved":
        after = acknowledged or triggered
        resolved = ctx.start - parse_duration(spec.resolved_ago) if spec.resolved_ago else (after + ctx.start) // 2
        if not after <= resolved <= ctx.start:
            raise ctx.error("resolved_ago must be at most acknowledged_ago and ago", *here, "resolved_ago")
    elif spec.resolved_ago:
        raise ctx.error(f"a {spec.status} incident has no resolved_ago", *here, "resolved_ago")
    return triggered, acknowledged, resolved


def _user(ctx: BuildContext, value: str, *path: str | int) -> str:
    user_id = ctx.resolve_kind(value, USERS, *path)
    if user_id not in ctx.collection(USERS):
        raise ctx.error(f"no PagerDuty user {value}", *path)
    return user_id


def _priority(ctx: BuildContext, value: str, *path: str | int) -> str:
    """A priority by ref, id or name."""
    priorities = ctx.collection(PRIORITIES)
    if value.startswith("$"):
        return ctx.resolve_kind(value, PRIORITIES, *path)
    if value in priorities:
        return value
    named = priorities.by("name", value)
    if not named:
        known = ", ".join(p["name"] for p in priorities) or "none"
        raise ctx.error(f"no priority named {value!r} (priorities: {known})", *path)
    return named[0]["id"]


def _build_change_event(event: ChangeEvent, i: int, ctx: BuildContext) -> Record:
    service = ctx.resolve_kind(event.service, SERVICES, "change_events", i, "service")
    if service not in ctx.collection(SERVICES):
        raise ctx.error(f"no PagerDuty service {event.service}", "change_events", i, "service")
    event_id = _ids(ctx)[("change_events", i)]
    return ctx.collection(CHANGE_EVENTS).add(
        event_id,
        {
            "id": event_id,
            "summary": event.summary,
            "timestamp": ctx.start - parse_duration(event.ago),
            "service": service,
            "source": event.source,
            "links": event.links,
            "custom_details": ctx.resolve(event.custom_details, "change_events", i, "custom_details"),
        },
    )
