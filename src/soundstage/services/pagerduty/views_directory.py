"""API objects of the directory: users, teams, services, escalation policies, schedules, priorities and
maintenance windows, built from their records (see `store`) as the schemas of PagerDuty's REST API v2
describe them. `include` is the request's `include[]`: the named related objects come whole instead of
as references.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from ...clock import US, iso
from ...world import Record
from .calls import Call, account_zone
from .maintenance import in_maintenance
from .oncall import Entry, render_final, render_layer, render_overrides
from .store import ESCALATION_POLICIES, SCHEDULES, SERVICES, TEAMS, USERS
from .views import identity, reference, self_url

UTC_ZONES = frozenset({"UTC", "Etc/UTC"})


def stamp(us: int | None, zone: str | None = None) -> str | None:
    """Epoch µs as ISO-8601: UTC with `Z`, or with the offset of time zone `zone` (`-05:00`)."""
    if us is None:
        return None
    if zone is None or zone in UTC_ZONES:
        return iso(us)
    return datetime.fromtimestamp(us // US, ZoneInfo(zone)).isoformat()


# -- users and teams ---------------------------------------------------------------------------------


def user_ref(call: Call, user_id: str) -> dict[str, Any]:
    user = call.world[USERS].get(user_id)
    return reference(call, "user", "users", user_id, user["name"] if user else user_id)


def avatar_url(user: Record) -> str:
    """The user's Gravatar picture (Gravatar's own scheme: the MD5 of the email in lower case)."""
    digest = hashlib.md5(user["email"].lower().encode()).hexdigest()
    return f"https://secure.gravatar.com/avatar/{digest}.png?d=mm&r=PG"


def user_ref_with_avatar(call: Call, user_id: str) -> dict[str, Any]:
    """A user reference with the user's `avatar_url`, as an incident's responders show them."""
    user = call.world[USERS].get(user_id)
    return {**user_ref(call, user_id), **({"avatar_url": avatar_url(user)} if user else {})}


def team_ref(call: Call, team_id: str) -> dict[str, Any]:
    team = call.world[TEAMS].get(team_id)
    return reference(call, "team", "teams", team_id, team["name"] if team else team_id)


def team_view(call: Call, team: Record) -> dict[str, Any]:
    return {
        **identity(call, "team", "teams", team["id"], team["name"]),
        "name": team["name"],
        "description": team["description"],
        "default_role": "manager",
        "parent": None,
    }


def _teams(call: Call, team_ids: list[str], whole: bool) -> list[dict[str, Any]]:
    if whole:
        return [team_view(call, t) for t in (call.world[TEAMS].get(i) for i in team_ids) if t is not None]
    return [team_ref(call, i) for i in team_ids]


def _contact_method(call: Call, user: Record, method: Record, whole: bool) -> dict[str, Any]:
    base = {
        "id": method["id"],
        "type": method["type"] if whole else f"{method['type']}_reference",
        "summary": method["label"],
        "self": f"{self_url(call, 'users', user['id'])}/contact_methods/{method['id']}",
        "html_url": None,
    }
    if not whole:
        return base
    return {
        **base,
        "label": method["label"],
        "address": method["address"],
        "send_short_email": False,
    }


def _notification_rule_ref(call: Call, user: Record, rule: Record) -> dict[str, Any]:
    return {
        "id": rule["id"],
        "type": "assignment_notification_rule_reference",
        "summary": f"{rule['start_delay_in_minutes']} minutes: channel {rule['contact_method']}",
        "self": f"{self_url(call, 'users', user['id'])}/notification_rules/{rule['id']}",
        "html_url": None,
    }


def user_view(call: Call, user: Record, include: list[str], calendars: bool = False) -> dict[str, Any]:
    """A user; `calendars` adds the URLs of their on-call calendar (`http_cal_url`, `web_cal_url`), which
    PagerDuty shows only on `GET /users/{id}`: one's own, or another's with `include[]=calendar_urls`."""
    view = {
        **identity(call, "user", "users", user["id"], user["name"]),
        "name": user["name"],
        "email": user["email"],
        "time_zone": user["time_zone"],
        "color": user["color"],
        "avatar_url": avatar_url(user),
        "billed": True,
        "role": user["role"],
        "description": user["description"],
        "invitation_sent": False,
        "created_via_sso": False,  # a world has no single sign-on
        "job_title": user["job_title"],
        "teams": _teams(call, user["teams"], "teams" in include),
        "contact_methods": [
            _contact_method(call, user, m, "contact_methods" in include) for m in user["contact_methods"]
        ],
        "notification_rules": [_notification_rule_ref(call, user, rule) for rule in user["notification_rules"]],
        "coordinated_incidents": [],
    }
    if calendars:
        feed = f"webcal.pagerduty.com/private/{calendar_key(call, user)}/feed"
        view.update(http_cal_url=f"https://{feed}", web_cal_url=f"webcal://{feed}")
    return view


def calendar_key(call: Call, user: Record) -> str:
    """The private key of a user's on-call calendar feed: 20 letters and digits, from the world's seed."""
    digest = hashlib.sha256(f"{call.world.ids.seed}\x00calendar\x00{user['id']}".encode()).hexdigest()
    return digest[:20].upper()


# -- escalation policies and services ----------------------------------------------------------------


def policy_ref(call: Call, policy_id: str) -> dict[str, Any]:
    policy = call.world[ESCALATION_POLICIES].get(policy_id)
    return reference(
        call,
        "escalation_policy",
        "escalation_policies",
        policy_id,
        policy["name"] if policy else policy_id,
    )


def _target(call: Call, target: Record, whole: bool) -> dict[str, Any]:
    if target["type"] == "user":
        user = call.world[USERS].get(target["id"])
        return user_view(call, user, []) if whole and user else user_ref(call, target["id"])
    schedule = call.world[SCHEDULES].get(target["id"])
    if whole and schedule:
        return schedule_view(call, schedule, None)
    return schedule_ref(call, target["id"])


def policy_view(call: Call, policy: Record, include: list[str]) -> dict[str, Any]:
    services = call.world[SERVICES].by("escalation_policy", policy["id"])
    return {
        **identity(
            call,
            "escalation_policy",
            "escalation_policies",
            policy["id"],
            policy["name"],
        ),
        "name": policy["name"],
        "description": policy["description"],
        "num_loops": policy["num_loops"],
        "on_call_handoff_notifications": policy["on_call_handoff_notifications"],
        "escalation_rules": [
            {
                "id": rule["id"],
                "escalation_delay_in_minutes": rule["escalation_delay_in_minutes"],
                "targets": [_target(call, t, "targets" in include) for t in rule["targets"]],
                "escalation_rule_assignment_strategy": "assign_to_everyone",
            }
            for rule in policy["escalation_rules"]
        ],
        "services": [
            service_view(call, s, []) if "services" in include else service_ref(call, s["id"]) for s in services
        ],
        "teams": _teams(call, policy["teams"], "teams" in include),
    }


def integration_ref(call: Call, service_id: str, integration: dict[str, Any]) -> dict[str, Any]:
    """An Events API v2 integration of a service, as a reference."""
    path = f"services/{service_id}/integrations"
    return reference(call, "events_api_v2_inbound_integration", path, integration["id"], integration["name"], path)


def integration_view(call: Call, service: Record, integration: dict[str, Any], zone: str | None) -> dict[str, Any]:
    """The integration object: its routing key is `integration_key`; its time in `zone`, by default the
    account's."""
    zone = zone or account_zone(call)
    path = f"services/{service['id']}/integrations"
    return {
        **identity(call, "events_api_v2_inbound_integration", path, integration["id"], integration["name"], path),
        "name": integration["name"],
        "service": service_ref(call, service["id"]),
        "created_at": stamp(service["created_at"], zone),
        "vendor": None,
        "integration_key": integration["integration_key"],
    }


def first_integration(call: Call, service_id: str) -> dict[str, Any] | None:
    """The reference to a service's Events API integration, through which its alerts and change events come."""
    service = call.world[SERVICES].get(service_id)
    return integration_ref(call, service_id, service["integrations"][0]) if service else None


def service_ref(call: Call, service_id: str) -> dict[str, Any]:
    service = call.world[SERVICES].get(service_id)
    return reference(
        call,
        "service",
        "services",
        service_id,
        service["name"] if service else service_id,
        "service-directory",
    )


def service_view(call: Call, service: Record, include: list[str], zone: str | None = None) -> dict[str, Any]:
    """A service; its times in `zone` (the request's `time_zone`), by default the account's."""
    zone = zone or account_zone(call)
    status = "maintenance" if in_maintenance(call.world, service["id"], call.now()) else service["status"]
    policy = call.world[ESCALATION_POLICIES].get(service["escalation_policy"])
    return {
        **identity(
            call,
            "service",
            "services",
            service["id"],
            service["name"],
            "service-directory",
        ),
        "name": service["name"],
        "description": service["description"],
        "auto_resolve_timeout": service["auto_resolve_timeout"],
        "acknowledgement_timeout": service["acknowledgement_timeout"],
        "created_at": stamp(service["created_at"], zone),
        "updated_at": stamp(service["created_at"], zone),
        "status": status,
        "last_incident_timestamp": stamp(service["last_incident_timestamp"], zone),
        "escalation_policy": (
            policy_view(call, policy, [])
            if "escalation_policies" in include and policy
            else policy_ref(call, service["escalation_policy"])
        ),
        "teams": _teams(call, service["teams"], "teams" in include),
        "integrations": [integration_ref(call, service["id"], i) for i in service["integrations"]],
        "incident_urgency_rule": service["incident_urgency_rule"],
        "support_hours": service["support_hours"],
        "scheduled_actions": [],
        "addons": [],
        "alert_creation": service["alert_creation"],
        "alert_grouping_parameters": {"type": None},
        "auto_pause_notifications_parameters": {"enabled": False, "timeout": 0},
    }


# -- schedules ---------------------------------------------------------------------------------------


def schedule_ref(call: Call, schedule_id: str) -> dict[str, Any]:
    schedule = call.world[SCHEDULES].get(schedule_id)
    return reference(
        call,
        "schedule",
        "schedules",
        schedule_id,
        schedule["name"] if schedule else schedule_id,
    )


def _entries(call: Call, entries: list[Entry], zone: str) -> list[dict[str, Any]]:
    return [
        {
            "start": stamp(e.start, zone),
            "end": stamp(e.end, zone),
            "user": user_ref(call, e.user),
        }
        for e in entries
    ]


def _coverage(entries: list[Entry], since: int, until: int) -> float:
    covered = sum(e.end - e.start for e in entries)
    return round(100.0 * covered / (until - since), 2) if until > since else 0.0


def _sub(
    call: Call,
    name: str,
    entries: list[Entry] | None,
    span: tuple[int, int] | None,
    zone: str,
) -> dict[str, Any]:
    return {
        "name": name,
        "rendered_schedule_entries": _entries(call, entries or [], zone),
        "rendered_coverage_percentage": _coverage(entries, *span) if entries is not None and span else None,
    }


def schedule_view(
    call: Call,
    schedule: Record,
    span: tuple[int, int] | None,
    zone: str | None = None,
    full: bool = True,
) -> dict[str, Any]:
    """A schedule; `span` (since, until) renders its entries, `full` adds the layers and subschedules."""
    zone = zone or schedule["time_zone"]
    policies = [p for p in call.world[ESCALATION_POLICIES] if _targets_schedule(p, schedule["id"])]
    user_ids = list(dict.fromkeys(u for layer in schedule["schedule_layers"] for u in layer["users"]))
    view = {
        **identity(call, "schedule", "schedules", schedule["id"], schedule["name"]),
        "name": schedule["name"],
        "time_zone": schedule["time_zone"],
        "description": schedule["description"],
        "escalation_policies": [policy_ref(call, p["id"]) for p in policies],
        "users": [user_ref(call, u) for u in user_ids],
        "teams": [team_ref(call, t) for t in schedule["teams"]],
    }
    if not full:
        return view
    final = render_final(schedule, *span) if span else None
    overrides = render_overrides(schedule, *span) if span else None
    return {
        **view,
        "schedule_layers": [_layer_view(call, schedule, layer, span, zone) for layer in schedule["schedule_layers"]],
        "final_schedule": _sub(call, "Final Schedule", final, span, zone),
        "overrides_subschedule": _sub(call, "Overrides", overrides, span, zone),
    }


def _layer_view(call: Call, schedule: Record, layer: Record, span: tuple[int, int] | None, zone: str) -> dict[str, Any]:
    entries = render_layer(schedule, layer, *span) if span else None
    return {
        "id": layer["id"],
        "name": layer["name"],
        "start": stamp(layer["start"], zone),
        "end": stamp(layer["end"], zone),
        "rotation_virtual_start": stamp(layer["rotation_virtual_start"], zone),
        "rotation_turn_length_seconds": layer["rotation_turn_length_seconds"],
        "users": [{"user": user_ref(call, u)} for u in layer["users"]],
        "restrictions": layer["restrictions"],
        "rendered_schedule_entries": _entries(call, entries or [], zone),
        "rendered_coverage_percentage": _coverage(entries, *span) if entries is not None and span else None,
    }


def _targets_schedule(policy: Record, schedule_id: str) -> bool:
    return any(t["id"] == schedule_id for rule in policy["escalation_rules"] for t in rule["targets"])


# -- priorities and maintenance windows --------------------------------------------------------------


def priority_view(call: Call, priority: Record) -> dict[str, Any]:
    return {
        **identity(
            call,
            "priority",
            "priorities",
            priority["id"],
            priority["name"],
            "account/incident_priorities",
        ),
        "name": priority["name"],
        "description": priority["description"],
        "order": priority["order"],
        "color": priority["color"],
        "account_id": "PACME01",
        "schema_version": 0,
    }


def window_view(call: Call, window: Record) -> dict[str, Any]:
    services = [call.world[SERVICES].get(s) for s in window["services"]]
    teams = list(dict.fromkeys(t for s in services if s for t in s["teams"]))
    return {
        **identity(
            call,
            "maintenance_window",
            "maintenance_windows",
            window["id"],
            window["description"] or "",
        ),
        "sequence_number": window["sequence_number"],
        "start_time": stamp(window["start_time"], account_zone(call)),
        "end_time": stamp(window["end_time"], account_zone(call)),
        "description": window["description"],
        "created_by": user_ref(call, window["created_by"]) if window["created_by"] else None,
        "services": [service_ref(call, s) for s in window["services"]],
        "teams": [team_ref(call, t) for t in teams],
    }
