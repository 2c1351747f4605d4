"""Building the directory part of the `pagerduty:` section into records (see `store` for their shapes).

Pass 1 (`assign`) gives every record with a `ref` its `P…` id, so targets and services can name
schedules and policies defined anywhere; explicit priorities are added then too. Pass 2 (`build`) adds the
records in dependency order (teams, users, schedules, escalation policies, services, maintenance
windows), and PagerDuty's default P1..P5 priorities when no section gave any.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...clock import US
from ...spec.build import BuildContext
from .maintenance import add_window
from .models import PagerdutySection
from .models_directory import (
    EscalationPolicy,
    MaintenanceWindow,
    Schedule,
    Service,
    Team,
    User,
    moment_us,
)
from .store import (
    ESCALATION_POLICIES,
    MAINTENANCE_WINDOWS,
    PRIORITIES,
    SCHEDULES,
    SERVICES,
    TEAMS,
    USERS,
    service_with_key,
)

DAY = 86400 * US

# PagerDuty's default priority scheme (name, colour), most urgent first.
DEFAULT_PRIORITIES = [
    ("P1", "a8171c"),
    ("P2", "eb6016"),
    ("P3", "f9b406"),
    ("P4", "555555"),
    ("P5", "b3b3b3"),
]

_KINDS = (
    ("users", USERS),
    ("teams", TEAMS),
    ("services", SERVICES),
    ("escalation_policies", ESCALATION_POLICIES),
    ("schedules", SCHEDULES),
    ("maintenance_windows", MAINTENANCE_WINDOWS),
)


def assign(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 1: ids for the records with a `ref`, and the priorities the file gives."""
    for field, collection in _KINDS:
        for i, item in enumerate(getattr(section, field)):
            if item.ref:
                ctx.attempt(partial(ctx.define, item.ref, ctx.ids.pagerduty(), collection, field, i))
    for i, priority in enumerate(section.priorities or []):
        record_id = ctx.ids.pagerduty()
        ctx.attempt(partial(ctx.define, priority.ref, record_id, PRIORITIES, "priorities", i))
        _add_priority(ctx, record_id, priority.name, priority.description or "", priority.color)


def build(section: PagerdutySection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
    ctx.settings["pagerduty"] = {"time_zone": section.time_zone}
    builders: list[tuple[list[Any], Callable[[BuildContext, Any, int], None]]] = [
        (section.teams, _add_team),
        (section.users, _add_user),
        (section.schedules, _add_schedule),
        (section.escalation_policies, _add_policy),
        (section.services, _add_service),
        (section.maintenance_windows, _add_window),
    ]
    for records, add in builders:
        for i, record in enumerate(records):
            ctx.attempt(partial(add, ctx, record, i), ctx.refs[record.ref] if record.ref else None)
    if not len(ctx.collection(PRIORITIES)):
        for name, color in DEFAULT_PRIORITIES:
            _add_priority(ctx, ctx.ids.pagerduty(), name, "", color)


def _id(ctx: BuildContext, ref: str | None) -> str:
    return ctx.refs[ref] if ref else ctx.ids.pagerduty()


def _existing(ctx: BuildContext, value: str, collection: str, *path: str | int) -> str:
    """A ref or plain id that must name a record of `collection` built already."""
    record_id = ctx.resolve_kind(value, collection, *path)
    if record_id not in ctx.collection(collection):
        raise ctx.error(f"{value} is not a record of {collection}", *path)
    return record_id


def _teams(ctx: BuildContext, values: list[str], *path: str | int) -> list[str]:
    return [_existing(ctx, value, TEAMS, *path, k) for k, value in enumerate(values)]


def _add_team(ctx: BuildContext, team: Team, i: int) -> None:
    record_id = _id(ctx, team.ref)
    ctx.collection(TEAMS).add(record_id, {"id": record_id, "name": team.name, "description": team.description})


def _add_user(ctx: BuildContext, user: User, i: int) -> None:
    users = ctx.collection(USERS)
    if users.by("email", user.email):
        raise ctx.error(
            f"email {user.email} is already used by another PagerDuty user",
            "users",
            i,
            "email",
        )
    record_id = _id(ctx, user.ref)
    method = {"id": ctx.ids.pagerduty(), "type": "email_contact_method", "label": "Default", "address": user.email}
    # PagerDuty gives a new user a rule to be told at once, by each contact method, of a high-urgency
    # incident. Its own id namespace: the ids the rest of the world draws stay as they were.
    rule = {
        "id": "P" + ctx.ids.code("pagerduty:notification_rule", 6),
        "start_delay_in_minutes": 0,
        "contact_method": method["id"],
        "urgency": "high",
    }
    users.add(
        record_id,
        {
            "id": record_id,
            "name": user.name,
            "email": user.email,
            "role": user.role,
            "time_zone": user.time_zone,
            "job_title": user.job_title,
            "description": user.description,
            "color": user.color or ctx.random.choice(_COLORS),
            "teams": _teams(ctx, user.teams, "users", i, "teams"),
            "contact_methods": [method],
            "notification_rules": [rule],
            "created_at": ctx.start - 400 * DAY,
        },
    )


_COLORS = [
    "purple",
    "green",
    "red",
    "teal",
    "orange",
    "blue",
    "brown",
    "cayenne",
    "forest-green",
    "violet",
]


def _add_schedule(ctx: BuildContext, schedule: Schedule, i: int) -> None:
    here = ("schedules", i)
    layers: list[dict[str, Any]] = []
    for k, layer in enumerate(schedule.schedule_layers):
        at = (*here, "schedule_layers", k)
        start = moment_us(layer.start, ctx.start)
        end = moment_us(layer.end, ctx.start) if layer.end is not None else None
        if end is not None and end <= start:
            raise ctx.error("a layer must end after it starts", *at, "end")
        for r, restriction in enumerate(layer.restrictions):
            if restriction.type == "weekly_restriction" and restriction.start_day_of_week is None:
                raise ctx.error(
                    "a weekly_restriction needs start_day_of_week",
                    *at,
                    "restrictions",
                    r,
                )
        layers.append(
            {
                "id": ctx.ids.pagerduty(),
                "name": layer.name or f"Layer {k + 1}",
                "start": start,
                "end": end,
                "rotation_virtual_start": (
                    moment_us(layer.rotation_virtual_start, ctx.start) if layer.rotation_virtual_start else start
                ),
                "rotation_turn_length_seconds": layer.turn_seconds(),
                "users": [_existing(ctx, u, USERS, *at, "users", n) for n, u in enumerate(layer.users)],
                "restrictions": [r.model_dump(exclude_none=True) for r in layer.restrictions],
            }
        )
    overrides: list[dict[str, Any]] = []
    for k, override in enumerate(schedule.overrides):
        at = (*here, "overrides", k)
        start, end = (
            moment_us(override.start, ctx.start),
            moment_us(override.end, ctx.start),
        )
        if end <= start:
            raise ctx.error("an override must end after it starts", *at, "end")
        user = _existing(ctx, override.user, USERS, *at, "user")
        overrides.append({"id": ctx.ids.pagerduty(), "start": start, "end": end, "user": user})
    record_id = _id(ctx, schedule.ref)
    ctx.collection(SCHEDULES).add(
        record_id,
        {
            "id": record_id,
            "name": schedule.name,
            "time_zone": schedule.time_zone,
            "description": schedule.description,
            "teams": _teams(ctx, schedule.teams, *here, "teams"),
            "schedule_layers": layers,
            "overrides": overrides,
        },
    )


def _target(ctx: BuildContext, value: str, *path: str | int) -> dict[str, str]:
    """An escalation target: `{"id", "type": "user" | "schedule"}`."""
    record_id = ctx.resolve(value, *path)
    for collection, kind in ((USERS, "user"), (SCHEDULES, "schedule")):
        if record_id in ctx.collection(collection):
            return {"id": record_id, "type": kind}
    raise ctx.error(f"{value} is neither a PagerDuty user nor a schedule", *path)


def _add_policy(ctx: BuildContext, policy: EscalationPolicy, i: int) -> None:
    here = ("escalation_policies", i)
    rules = [
        {
            "id": ctx.ids.pagerduty(),
            "escalation_delay_in_minutes": rule.escalation_delay_in_minutes,
            "targets": [
                _target(ctx, t, *here, "escalation_rules", k, "targets", n) for n, t in enumerate(rule.targets)
            ],
        }
        for k, rule in enumerate(policy.escalation_rules)
    ]
    record_id = _id(ctx, policy.ref)
    ctx.collection(ESCALATION_POLICIES).add(
        record_id,
        {
            "id": record_id,
            "name": policy.name,
            "description": policy.description,
            "num_loops": policy.num_loops,
            "on_call_handoff_notifications": "if_has_services",
            "teams": _teams(ctx, policy.teams, *here, "teams"),
            "escalation_rules": rules,
        },
    )


def _add_service(ctx: BuildContext, service: Service, i: int) -> None:
    here = ("services", i)
    record_id = _id(ctx, service.ref)
    key = service.integration_key or ctx.ids.hex("pagerduty:integration_key", 32)
    if service_with_key(ctx.collection(SERVICES), key) is not None:
        raise ctx.error(f"integration key {key} is used by another service", *here, "integration_key")
    # Its own id namespace: the ids the rest of the world draws stay as they were before services had one.
    integration_id = "P" + ctx.ids.code("pagerduty:integration", 6)
    integration = {"id": integration_id, "name": "Events API V2", "integration_key": key}
    ctx.collection(SERVICES).add(
        record_id,
        {
            "id": record_id,
            "name": service.name,
            "description": service.description,
            "escalation_policy": _existing(
                ctx,
                service.escalation_policy,
                ESCALATION_POLICIES,
                *here,
                "escalation_policy",
            ),
            "status": service.status,
            "acknowledgement_timeout": service.acknowledgement_timeout,
            "auto_resolve_timeout": service.auto_resolve_timeout,
            "teams": _teams(ctx, service.teams, *here, "teams"),
            "incident_urgency_rule": _urgency_rule(service),
            "support_hours": service.support_hours.model_dump() if service.support_hours else None,
            "alert_creation": "create_alerts_and_incidents",
            "integrations": [integration],
            "created_at": ctx.start - 300 * DAY,
            "last_incident_timestamp": None,
        },
    )


def _urgency_rule(service: Service) -> dict[str, Any]:
    """The rule as PagerDuty shows it: one urgency, or one for inside and one for outside support hours."""
    rule = service.incident_urgency_rule
    if rule.type == "use_support_hours":
        return rule.model_dump(exclude_none=True, exclude={"urgency"})
    return rule.model_dump(exclude_none=True, include={"type", "urgency"})


def _add_window(ctx: BuildContext, window: MaintenanceWindow, i: int) -> None:
    here = ("maintenance_windows", i)
    start, end = moment_us(window.start, ctx.start), moment_us(window.end, ctx.start)
    if end <= start:
        raise ctx.error("a maintenance window must end after it starts", *here, "end")
    services = [_existing(ctx, s, SERVICES, *here, "services", k) for k, s in enumerate(window.services)]
    add_window(
        ctx.collection(MAINTENANCE_WINDOWS),
        _id(ctx, window.ref),
        start,
        end,
        services,
        window.description,
        None,
    )


def _add_priority(ctx: BuildContext, record_id: str, name: str, description: str, color: str | None) -> None:
    priorities = ctx.collection(PRIORITIES)
    priorities.add(
        record_id,
        {
            "id": record_id,
            "name": name,
            "description": description,
            "color": color,
            "order": len(priorities) + 1,
        },
    )
