"""Building the records part of the `datadog:` section: users, events, logs, SLOs, dashboards, incidents.

`assign` (pass 1) gives every record its id, so refs to users, SLOs, dashboards, events and incidents
resolve anywhere; `build` (pass 2) adds the records, resolving the refs they hold (monitors, users).
Times: `ago` before the clock start, or `at`; a record without either is placed by kind (users 400 days,
SLOs 90 days, dashboards 30 days before the start; events, logs and incidents at the start). SLOs and
dashboards are made only here (the API reads them), so their ids are made here too: an SLO's is 32 hex
digits, a dashboard's `abc-def-ghi`, and each of its widgets has an integer id.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from ...clock import US, parse_duration, parse_time
from ...ids import IdSource
from ...spec.build import BuildContext
from . import events, incidents, logs, users
from .models import DatadogSection
from .models_records import Dashboard, Event, Incident, Log, Slo, Timed, User
from .stamps import stamp
from .store import DASHBOARDS, EVENTS, INCIDENTS, LOGS, MONITORS, SLOS, USERS

DAY = 86400 * US
_LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
LEGACY_USER_IDS = 1_445_000  # users' integer ids count from here (a monitor's `creator.id`)
# The section's list of each collection whose records `assign` gives ids.
_LISTS = {SLOS: "slos", DASHBOARDS: "dashboards", INCIDENTS: "incidents"}
# The ids `assign` gave each section's records, by record, for `build` (per build).
_ids: WeakKeyDictionary[BuildContext, dict[int, Any]] = WeakKeyDictionary()


def _slo_id(ids: IdSource) -> str:
    return ids.hex("datadog:slo", 32)


def _dashboard_id(ids: IdSource) -> str:
    number = int.from_bytes(ids.digest("datadog:dashboard"), "big")
    chars = []
    for _ in range(9):
        number, rest = divmod(number, len(_LOWER))
        chars.append(_LOWER[rest])
    return f"{''.join(chars[:3])}-{''.join(chars[3:6])}-{''.join(chars[6:])}"


def _widget_id(ids: IdSource) -> int:
    return int.from_bytes(ids.digest("datadog:widget")[:6], "big")


def _when(ctx: BuildContext, record: Timed, *path: str | int) -> int:
    if record.at is not None and record.ago is not None:
        raise ctx.error("give either ago or at, not both", *path)
    if record.at is not None:
        return ctx.start if record.at == "now" else parse_time(record.at)
    return ctx.start - parse_duration(record.ago) if record.ago is not None else ctx.start


def _before(ctx: BuildContext, ago: str | None, default: int) -> int:
    return ctx.start - (parse_duration(ago) if ago is not None else default)


# -- pass 1 ------------------------------------------------------------------------------------------


def assign(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 1: every record's id, and each `ref` defined."""
    given = _ids.setdefault(ctx, {})
    ctx.collection(USERS)  # the image has the collection, with users or without
    for i, user in enumerate(section.users):
        ctx.attempt(partial(_assign_user, ctx, user, i))
    for i, event in enumerate(section.events):
        given[id(event)] = event.id or events.event_id(ctx.ids)
        ctx.attempt(partial(ctx.define, event.ref, str(given[id(event)]), EVENTS, "events", i))
    made: list[tuple[str, list[Any], Callable[[], str]]] = [
        (SLOS, section.slos, partial(_slo_id, ctx.ids)),
        (DASHBOARDS, section.dashboards, partial(_dashboard_id, ctx.ids)),
        (INCIDENTS, section.incidents, partial(ctx.ids.uuid, "datadog:incident")),
    ]
    for name, records, new_id in made:
        for i, record in enumerate(records):
            ctx.attempt(partial(_assign_id, ctx, name, record, new_id, i))
    for i, entry in enumerate(section.logs):
        if entry.ref is not None:
            ctx.errors.append(ctx.error("logs cannot carry a ref (their ids are opaque)", "logs", i, "ref"))


def _assign_user(ctx: BuildContext, user: User, i: int) -> None:
    """A user's id, and the user: users hold no refs, so they are added now."""
    collection = ctx.collection(USERS)
    user_id = user.id or ctx.ids.uuid("datadog:user")
    if user_id in collection:
        raise ctx.error(f"user id {user_id} is used twice", "users", i, "id")
    if collection.by("handle", user.handle or user.email):
        raise ctx.error(f"handle {user.handle or user.email} is used by another user", "users", i, "handle")
    ctx.define(user.ref, user_id, USERS, "users", i)
    collection.add(user_id, _user(ctx, user, user_id))


def _assign_id(
    ctx: BuildContext, collection: str, record: Slo | Dashboard | Incident, new_id: Callable[[], str], i: int
) -> None:
    """The id of a record of `collection` (its own, else `new_id()`), unique; its ref defined."""
    path = (_LISTS[collection], i)
    _ids[ctx][id(record)] = _unique(ctx, collection, record.id or new_id(), *path)
    ctx.define(record.ref, _ids[ctx][id(record)], collection, *path)


def _unique(ctx: BuildContext, collection: str, record_id: str, *path: str | int) -> str:
    if record_id in ctx.collection(collection) or record_id in _ids[ctx].values():
        raise ctx.error(f"id {record_id} is used twice", *path, "id")
    return record_id


# -- pass 2 ------------------------------------------------------------------------------------------


def build(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
    given = _ids[ctx]
    for i, event in enumerate(section.events):
        ctx.attempt(partial(_build_event, ctx, event, given[id(event)], i), str(given[id(event)]))
    for i, entry in enumerate(section.logs):
        ctx.attempt(partial(_build_log, ctx, entry, i))
    for i, slo in enumerate(section.slos):
        ctx.attempt(partial(_build_slo, ctx, slo, given[id(slo)], i), given[id(slo)])
    for i, dashboard in enumerate(section.dashboards):
        ctx.attempt(partial(_build_dashboard, ctx, dashboard, given[id(dashboard)], i), given[id(dashboard)])
    collection = ctx.collection(INCIDENTS)
    for i, incident in enumerate(section.incidents):
        ctx.attempt(partial(_build_incident, ctx, incident, given[id(incident)], collection, i), given[id(incident)])


def _user(ctx: BuildContext, user: User, user_id: str) -> dict[str, Any]:
    return users.user(
        user_id,
        LEGACY_USER_IDS + ctx.ids.next("datadog.user_ids"),
        user.email,
        stamp(ctx.ids, _before(ctx, user.ago, 400 * DAY)),
        handle=user.handle,
        name=user.name,
        title=user.title,
        status=user.status,
        disabled=user.disabled,
        verified=user.verified,
        service_account=user.service_account,
        mfa_enabled=user.mfa_enabled,
    )


def user_ref(ctx: BuildContext, value: str | None, *path: str | int) -> str | None:
    if value is None:
        return None
    user_id = ctx.resolve_kind(value, USERS, *path)
    if user_id not in ctx.collection(USERS):
        raise ctx.error(f"unknown Datadog user {value!r}", *path)
    return user_id


def _build_event(ctx: BuildContext, event: Event, event_id: int, i: int) -> None:
    record = events.event(
        event_id,
        event.title,
        event.text,
        _when(ctx, event, "events", i),
        tags=event.tags,
        alert_type=event.alert_type,
        priority=event.priority,
        source_type_name=event.source_type_name,
        host=event.host,
        device_name=event.device_name,
        aggregation_key=event.aggregation_key,
    )
    collection = ctx.collection(EVENTS)
    if str(event_id) in collection:
        raise ctx.error(f"event id {event_id} is used twice", "events", i, "id")
    collection.add(str(event_id), record)


def _build_log(ctx: BuildContext, entry: Log, i: int) -> None:
    record = logs.log(
        ctx.ids,
        _when(ctx, entry, "logs", i),
        entry.message,
        entry.service,
        entry.host,
        entry.status,
        list(entry.tags),
        ctx.resolve(entry.attributes, "logs", i, "attributes"),
    )
    ctx.collection(LOGS).add(record["id"], record)


def _build_slo(ctx: BuildContext, slo: Slo, slo_id: str, i: int) -> None:
    if slo.type == "metric" and slo.query is None:
        raise ctx.error("a metric SLO needs a query: {numerator, denominator}", "slos", i, "query")
    if slo.type == "monitor" and not slo.monitor_ids:
        raise ctx.error("a monitor SLO needs monitor_ids", "slos", i, "monitor_ids")
    monitor_ids = []
    for k, value in enumerate(slo.monitor_ids):
        resolved = ctx.resolve_kind(value, MONITORS, "slos", i, "monitor_ids", k) if isinstance(value, str) else value
        try:
            monitor_ids.append(int(resolved))
        except ValueError:
            raise ctx.error(f"expected a monitor ref or id, found {value!r}", "slos", i, "monitor_ids", k) from None
    at = _before(ctx, slo.ago, 90 * DAY)
    ctx.collection(SLOS).add(
        slo_id,
        {
            "id": slo_id,
            "name": slo.name,
            "type": slo.type,
            "description": slo.description,
            "tags": list(slo.tags),
            "thresholds": [t.model_dump(exclude_none=True) for t in slo.thresholds],
            "monitor_ids": monitor_ids,
            "query": slo.query.model_dump() if slo.query else None,
            "groups": list(slo.groups),
            "creator": user_ref(ctx, slo.creator, "slos", i, "creator"),
            "created_at": at,
            "modified_at": at,
        },
    )


def _build_dashboard(ctx: BuildContext, dashboard: Dashboard, dashboard_id: str, i: int) -> None:
    at = stamp(ctx.ids, _before(ctx, dashboard.ago, 30 * DAY))
    ctx.collection(DASHBOARDS).add(
        dashboard_id,
        {
            "id": dashboard_id,
            "title": dashboard.title,
            "description": dashboard.description,
            "layout_type": dashboard.layout_type,
            # Datadog gives every widget an id; one given in the file is kept.
            "widgets": [
                {"id": _widget_id(ctx.ids), **ctx.resolve(widget, "dashboards", i, "widgets", k)}
                for k, widget in enumerate(dashboard.widgets)
            ],
            "tags": list(dashboard.tags),
            "template_variables": ctx.resolve(dashboard.template_variables, "dashboards", i, "template_variables"),
            "author": user_ref(ctx, dashboard.author, "dashboards", i, "author"),
            "created_at": at,
            "modified_at": at,
        },
    )


def _build_incident(ctx: BuildContext, incident: Incident, incident_id: str, collection: Any, i: int) -> None:
    public_id = incident.public_id or incidents.next_public_id(collection)
    if collection.by("public_id", public_id):
        raise ctx.error(f"public_id {public_id} is used by another incident", "incidents", i, "public_id")
    when = _when(ctx, incident, "incidents", i)
    at = stamp(ctx.ids, when)
    resolved = None
    if incident.state == "resolved":
        resolved = stamp(ctx.ids, when + (parse_duration(incident.resolved_after) if incident.resolved_after else 0))
    elif incident.resolved_after is not None:
        raise ctx.error("resolved_after is for resolved incidents", "incidents", i, "resolved_after")
    commander = user_ref(ctx, incident.commander, "incidents", i, "commander")
    created_by = user_ref(ctx, incident.created_by, "incidents", i, "created_by") or commander
    for name in incident.fields:
        if name in (incidents.SEVERITY, incidents.STATE):
            raise ctx.error(
                f"give {name} as the incident's own field, not under fields", "incidents", i, "fields", name
            )
    record = incidents.incident(
        incident_id,
        public_id,
        incident.title,
        at,
        customer_impacted=incident.customer_impacted,
        customer_impact_scope=incident.customer_impact_scope,
        severity=incident.severity,
        state=incident.state,
        commander=commander,
        created_by=created_by,
        fields=ctx.resolve(incident.fields, "incidents", i, "fields"),
        resolved=resolved,
    )
    collection.add(incident_id, record)
