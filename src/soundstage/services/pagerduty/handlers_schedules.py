"""Schedules and on-calls: `GET /schedules`, `GET /schedules/{id}` (rendered over `since`..`until`) and
`GET /oncalls` (who is on call for which policy and level, over a moment or a range)."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from .calls import Call, account_zone, by_name, flag, listed, moment, ops, paginate, text, zone
from .errors import bad_range, not_found
from .oncall import OnCall, oncalls, shifts
from .store import ESCALATION_POLICIES, SCHEDULES, USERS
from .views_directory import (
    policy_ref,
    policy_view,
    schedule_ref,
    schedule_view,
    stamp,
    user_ref,
    user_view,
)

DAY = 86400 * US
# PagerDuty renders two weeks from whichever end of the range is given.
DEFAULT_SPAN = 14 * DAY
# How far a schedule is rendered at most; on-calls are limited to 90 days.
MAX_SCHEDULE_SPAN = 366 * DAY
MAX_ONCALL_SPAN = 90 * DAY
# How far ahead `include_next_oncall_for_user` looks for the user's next shift.
NEXT_ONCALL_HORIZON = 90 * DAY
# `include[]` values of `GET /schedules` that ask for the rendered parts.
RENDERED = {"schedule_layers", "overrides_subschedule", "final_schedule"}


def _span(call: Call) -> tuple[int, int] | None:
    """The range to render: `since`/`until`, one defaulting to two weeks from the other; None without both."""
    since, until = moment(call, "since"), moment(call, "until")
    if since is None and until is None:
        return None
    since = since if since is not None else until - DEFAULT_SPAN  # type: ignore[operator]
    until = until if until is not None else since + DEFAULT_SPAN
    _check(since, until, MAX_SCHEDULE_SPAN)
    return since, until


def _check(since: int, until: int, longest: int) -> None:
    if since > until:
        raise bad_range("The since parameter must be before the until parameter.")
    if until - since > longest:
        raise bad_range(f"The date range cannot be longer than {longest // DAY} days.")


@ops("GET /schedules")
def schedules_list(call: Call) -> dict[str, Any]:
    include, time_zone = set(listed(call, "include")), zone(call)
    span = _span(call) if include & RENDERED else None
    schedules = by_name(call.world[SCHEDULES], text(call, "query"), "name")
    teams = set(listed(call, "team_ids"))
    if teams:
        schedules = [s for s in schedules if teams.intersection(s["teams"])]
    full = bool(include & RENDERED)
    return paginate(
        call,
        "schedules",
        schedules,
        lambda s: schedule_view(call, s, span, time_zone, full),
    )


@ops("GET /schedules/{id}")
def schedules_get(call: Call) -> dict[str, Any]:
    schedule = call.world[SCHEDULES].get(call.params["id"])
    if schedule is None:
        raise not_found()
    view = schedule_view(call, schedule, _span(call), zone(call))
    user_id = text(call, "include_next_oncall_for_user")
    if user_id:
        upcoming = _next_oncall(call, schedule, user_id, zone(call) or schedule["time_zone"])
        if upcoming is not None:
            view["next_oncall_for_user"] = upcoming
    return {"schedule": view}


def _next_oncall(call: Call, schedule: Record, user_id: str, time_zone: str) -> dict[str, Any] | None:
    """The user's shift in the final schedule that is on now or comes next (within 90 days), whole; None
    when there is none."""
    now = call.now()
    mine = [e for e in shifts(schedule, now, now + NEXT_ONCALL_HORIZON) if e.user == user_id and e.end > now]
    if not mine:
        return None
    first = min(mine, key=lambda e: e.start)
    return {
        "start": stamp(first.start, time_zone),
        "end": stamp(first.end, time_zone),
        "user": [user_ref(call, user_id)],
    }


@ops("GET /oncalls")
def oncalls_list(call: Call) -> dict[str, Any]:
    include, time_zone = set(listed(call, "include")), zone(call) or account_zone(call)
    now = call.now()
    since, until = moment(call, "since"), moment(call, "until")
    since = since if since is not None else now
    until = until if until is not None else max(now, since)
    _check(since, until, MAX_ONCALL_SPAN)
    entries = oncalls(call.world, since, until, flag(call, "earliest"))
    users, policies = (
        set(listed(call, "user_ids")),
        set(listed(call, "escalation_policy_ids")),
    )
    schedules = set(listed(call, "schedule_ids"))
    if users:
        entries = [e for e in entries if e.user in users]
    if policies:
        entries = [e for e in entries if e.escalation_policy in policies]
    if schedules:
        # `null` among the schedule ids keeps the users a policy names directly.
        entries = [e for e in entries if (e.schedule or "null") in schedules]

    def view(entry: OnCall) -> dict[str, Any]:
        user = call.world[USERS].get(entry.user)
        policy = call.world[ESCALATION_POLICIES].get(entry.escalation_policy)
        schedule = call.world[SCHEDULES].get(entry.schedule) if entry.schedule else None
        return {
            "escalation_policy": (
                policy_view(call, policy, [])
                if "escalation_policies" in include and policy
                else policy_ref(call, entry.escalation_policy)
            ),
            "escalation_level": entry.escalation_level,
            "schedule": (
                None
                if entry.schedule is None
                else schedule_view(call, schedule, None, time_zone, False)
                if "schedules" in include and schedule
                else schedule_ref(call, entry.schedule)
            ),
            "user": user_view(call, user, []) if "users" in include and user else user_ref(call, entry.user),
            "start": stamp(entry.start, time_zone),
            "end": stamp(entry.end, time_zone),
        }

    return paginate(call, "oncalls", entries, view)
