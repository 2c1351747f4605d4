"""Who is on call: schedules rendered from their layers and overrides, and escalation policies resolved
through them, at any simulated moment (epoch µs). Pure functions of the records; no HTTP here.

A layer rotates its `users` every `rotation_turn_length_seconds` counted from `rotation_virtual_start`,
between its `start` and `end`, and only inside its restrictions (daily or weekly windows in the
schedule's time zone) when it has any. Later layers win over earlier ones; overrides win over every
layer, later overrides over earlier ones. Rendering splits a range at every moment the answer can change
(layer edges, hand-offs, restriction edges, override edges) and merges neighbours with the same user.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from itertools import pairwise
from zoneinfo import ZoneInfo

from ...clock import US
from ...world import Record, World
from .store import ESCALATION_POLICIES, SCHEDULES

DAY = 86400 * US
WEEK = 7 * DAY


@dataclass(frozen=True)
class Entry:
    """One rendered stretch of a schedule: `user` from `start` (inclusive) to `end` (exclusive), µs."""

    start: int
    end: int
    user: str


@dataclass(frozen=True)
class OnCall:
    """One on-call of `GET /oncalls`: `start`/`end` are None for a user the policy names directly."""

    escalation_policy: str
    escalation_level: int
    user: str
    schedule: str | None
    start: int | None
    end: int | None


# -- one layer ---------------------------------------------------------------------------------------


def layer_user(schedule: Record, layer: Record, at: int) -> str | None:
    """The user this layer puts on call at `at`, or None (before/after the layer, outside restrictions)."""
    if at < layer["start"] or (layer["end"] is not None and at >= layer["end"]):
        return None
    if layer["restrictions"] and not any(_in_window(r, schedule["time_zone"], at) for r in layer["restrictions"]):
        return None
    turn = (at - layer["rotation_virtual_start"]) // (layer["rotation_turn_length_seconds"] * US)
    users = layer["users"]
    return users[turn % len(users)]


def _in_window(restriction: Record, zone: str, at: int) -> bool:
    return any(start <= at < end for start, end in _windows(restriction, zone, at - WEEK, at + 1))


def _windows(restriction: Record, zone: str, since: int, until: int) -> Iterable[tuple[int, int]]:
    """The restriction's windows (start, end) that may touch [since, until)."""
    tz = _zone(zone)
    duration = restriction["duration_seconds"] * US
    clock = time.fromisoformat(restriction["start_time_of_day"])
    first = datetime.fromtimestamp((since - duration) / US, tz).date() - timedelta(days=7)
    last = datetime.fromtimestamp(until / US, tz).date()
    day = first
    while day <= last:
        if restriction["type"] == "daily_restriction" or day.isoweekday() == restriction["start_day_of_week"]:
            start = _local_us(day, clock, tz)
            if start + duration > since and start < until:
                yield start, start + duration
        day += timedelta(days=1)


def _local_us(day: date, clock: time, tz: ZoneInfo) -> int:
    return int(datetime.combine(day, clock, tzinfo=tz).timestamp()) * US


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def _layer_edges(schedule: Record, layer: Record, since: int, until: int) -> set[int]:
    edges = {layer["start"]} | ({layer["end"]} if layer["end"] is not None else set())
    turn = layer["rotation_turn_length_seconds"] * US
    virtual = layer["rotation_virtual_start"]
    k = (max(since, layer["start"]) - virtual) // turn
    while virtual + k * turn < until:
        edges.add(virtual + k * turn)
        k += 1
    for restriction in layer["restrictions"]:
        for start, end in _windows(restriction, schedule["time_zone"], since, until):
            edges |= {start, end}
    return edges


# -- a schedule --------------------------------------------------------------------------------------


def override_user(schedule: Record, at: int) -> str | None:
    for override in reversed(schedule["overrides"]):
        if override["start"] <= at < override["end"]:
            return override["user"]
    return None


def final_user(schedule: Record, at: int) -> str | None:
    """Who the schedule puts on call at `at`: the latest override, else the last layer with someone."""
    user = override_user(schedule, at)
    if user is not None:
        return user
    for layer in reversed(schedule["schedule_layers"]):
        user = layer_user(schedule, layer, at)
        if user is not None:
            return user
    return None


def on_call(world: World, schedule_id: str, at: int) -> str | None:
    """The user id on call in schedule `schedule_id` at `at` µs, or None (unknown schedule, or a gap)."""
    schedule = world[SCHEDULES].get(schedule_id)
    return final_user(schedule, at) if schedule is not None else None


def _render(edges: set[int], who: Callable[[int], str | None], since: int, until: int) -> list[Entry]:
    points = sorted({since, until} | {e for e in edges if since < e < until})
    entries: list[Entry] = []
    for start, end in pairwise(points):
        user = who(start)
        if user is None:
            continue
        if entries and entries[-1].user == user and entries[-1].end == start:
            entries[-1] = Entry(entries[-1].start, end, user)
        else:
            entries.append(Entry(start, end, user))
    return entries


def render_layer(schedule: Record, layer: Record, since: int, until: int) -> list[Entry]:
    """The layer on its own over [since, until), clipped to the range."""
    return _render(
        _layer_edges(schedule, layer, since, until),
        lambda at: layer_user(schedule, layer, at),
        since,
        until,
    )


def render_overrides(schedule: Record, since: int, until: int) -> list[Entry]:
    edges = {moment for o in schedule["overrides"] for moment in (o["start"], o["end"])}
    return _render(edges, lambda at: override_user(schedule, at), since, until)


def render_final(schedule: Record, since: int, until: int) -> list[Entry]:
    """The final schedule (layers and overrides) over [since, until), clipped to the range."""
    edges = {moment for o in schedule["overrides"] for moment in (o["start"], o["end"])}
    for layer in schedule["schedule_layers"]:
        edges |= _layer_edges(schedule, layer, since, until)
    return _render(edges, lambda at: final_user(schedule, at), since, until)


def shifts(schedule: Record, since: int, until: int) -> list[Entry]:
    """The final schedule's shifts that overlap [since, until] (or hold `since` when the two are equal),
    with their whole extent as far as one turn of the longest rotation either side."""
    reach = max([DAY] + [layer["rotation_turn_length_seconds"] * US for layer in schedule["schedule_layers"]])
    entries = render_final(schedule, since - reach, until + reach)
    if since == until:
        return [e for e in entries if e.start <= since < e.end]
    return [e for e in entries if e.start < until and e.end > since]


# -- escalation policies -----------------------------------------------------------------------------


def escalation_targets(world: World, policy_id: str, level: int, at: int) -> list[str]:
    """The user ids on call at escalation `level` (1-based) of the policy at `at` µs, in target order
    without repeats: users named directly, schedules resolved at `at`. Empty for an unknown policy or level."""
    policy = world[ESCALATION_POLICIES].get(policy_id)
    if policy is None or not 1 <= level <= len(policy["escalation_rules"]):
        return []
    users: list[str] = []
    for target in policy["escalation_rules"][level - 1]["targets"]:
        user = target["id"] if target["type"] == "user" else on_call(world, target["id"], at)
        if user is not None and user not in users:
            users.append(user)
    return users


def oncalls(world: World, since: int, until: int, earliest: bool = False) -> list[OnCall]:
    """Every on-call of every escalation policy over [since, until] (a moment when equal), by policy,
    level, then start. `earliest` keeps only the first on-call of each policy, level and user."""
    found: list[OnCall] = []
    for policy in world[ESCALATION_POLICIES]:
        for level, rule in enumerate(policy["escalation_rules"], 1):
            per_level: list[OnCall] = []
            for target in rule["targets"]:
                if target["type"] == "user":
                    per_level.append(OnCall(policy["id"], level, target["id"], None, None, None))
                    continue
                schedule = world[SCHEDULES].get(target["id"])
                if schedule is None:
                    continue
                for entry in shifts(schedule, since, until):
                    per_level.append(
                        OnCall(
                            policy["id"],
                            level,
                            entry.user,
                            schedule["id"],
                            entry.start,
                            entry.end,
                        )
                    )
            per_level.sort(key=lambda o: (o.start is not None, o.start or 0))
            found += _first_per_user(per_level) if earliest else per_level
    return found


def _first_per_user(entries: list[OnCall]) -> list[OnCall]:
    first: dict[str, OnCall] = {}
    for entry in entries:
        first.setdefault(entry.user, entry)
    return list(first.values())
