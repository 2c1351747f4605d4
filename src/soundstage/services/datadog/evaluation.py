"""Monitor state: a metric monitor's query evaluated over the world's series at the simulated time.

`attach(world)` evaluates every monitor once a simulated minute (at each whole minute after the clock start) and writes
`overall_state`, `overall_state_modified` and `state.groups` only when they change, so the event log shows each
transition as one write: a metric override (a fault) turns a monitor to Alert within a simulated minute. A fault may
also hold a monitor in a state (`force` / `release`): evaluation leaves a held monitor alone, and follows its metrics
again once released. Only `metric alert` and `query alert` monitors with a query `queries` reads are evaluated, once a
series matches their query; the others keep the state they were given.

Per group, the window's values (aggregated across the group's series at each timestamp) are reduced by
the time aggregation and compared with the thresholds: Alert past `critical` (staying Alert until past
`critical_recovery`, when given), Warn past `warning` likewise, else OK; No Data without values when
`notify_no_data` is set or the group never had a state. The overall state is the most severe group's.
Group states carry `last_triggered_ts`, `last_resolved_ts`, `last_nodata_ts` (epoch seconds).

A monitor is evaluated again only when an evaluation could change it (`calm_until`): once its state is what
its metrics say, it is left alone while neither it nor its metric's series change and no value its window can
take would move a group past a threshold: each point is an override's value or one its series' normal shape
can take (base ± daily ± noise), until an override starts or ends or a submitted point enters the window.
Where those values reach a threshold, the windows up to the time due events run to (a clock move's end, at
most `AHEAD` later) are computed in one pass, exactly as each evaluation would, and the monitor is left alone
until the first whose state differs. The world runs the minute's evaluation only when some monitor may change
(`World.every`): a clock move costs what it changes, and the log is the one evaluating every minute gives.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...clock import US
from ...world import Collection, Record, World, found_again_by_forks, shared_by_forks
from ..versions import tokens
from .queries import MonitorQuery, QueryError, parse_monitor_query
from .series import matching, window_range, window_value, window_values
from .store import MONITORS, SERIES

EVALUATED = ("metric alert", "query alert")
SEVERITY = {"OK": 0, "No Data": 1, "Warn": 2, "Alert": 3}
_MINUTE = 60 * US
_NEVER = 2**63  # a time past any simulated time
# How far ahead the windows of a monitor that its values' ranges do not prove steady are computed at once: a
# day, so that one whose ranges hold again soon after (an override that ended) is not computed a week ahead.
AHEAD = 86400 * US
_BLOCK = 64  # windows whose values are judged together, by their lowest and highest
_READS = (MONITORS, SERIES)  # what an evaluation reads of the world's collections


class Held(dict[str, tuple[str, dict[str, str]]]):
    """The monitors held in a state (a world part): monitor id -> (its overall state before the first hold,
    {source: state}). Evaluation skips them; see `force` and `release`."""


@shared_by_forks
@dataclass(frozen=True)
class _Calm:
    """What an evaluation proved of a monitor: while the monitor and its metric's series are these very records,
    evaluating it before `until` changes nothing."""

    monitor: Record
    series: list[Record]
    until: int

    def holds(self, monitor: Record, series: list[Record], now: int) -> bool:
        return (
            now < self.until
            and monitor is self.monitor
            and len(series) == len(self.series)
            and all(map(operator.is_, series, self.series))
        )


class Calm(dict[str, _Calm]):
    """The monitors left alone until something could change them (a world part): monitor id -> `_Calm`."""


@found_again_by_forks
class Quiet:
    """What the last evaluation of every monitor found, none being held (a world part): while the monitors and
    series are the contents of `reads` (their `versions` tokens) and none is held, every monitor's `_Calm`
    holds before `until`, so evaluating again changes nothing. A fork evaluates in full once."""

    __slots__ = ("reads", "until")

    def __init__(self) -> None:
        self.reads: tuple[object, ...] | None = None
        self.until = 0


@shared_by_forks
@dataclass(frozen=True)
class _Windows:
    """A group's windows computed ahead (`series.window_values`): their ends and values up to `last`, right
    while the monitor's query and the group's series are these very ones."""

    query: str
    series: list[Record]
    ends: Sequence[int]
    values: list[float | None]
    last: int

    def holds(self, query: str, series: list[Record], end: int) -> bool:
        return (
            end < self.last
            and query == self.query
            and len(series) == len(self.series)
            and all(map(operator.is_, series, self.series))
        )


class Ahead(dict[tuple[str, str], _Windows]):
    """The windows computed ahead (a world part): (monitor id, group) -> `_Windows`. A monitor whose state
    changes at one of them reads on from there, rather than computing the same windows again."""


_BREACH = {
    ">": lambda value, threshold: value > threshold,
    ">=": lambda value, threshold: value >= threshold,
    "<": lambda value, threshold: value < threshold,
    "<=": lambda value, threshold: value <= threshold,
}


def statuses(series: Collection, seed: str, monitor: Record, now: int) -> dict[str, str] | None:
    """Each group's status at `now` (`*` for an ungrouped monitor), or None when the world does not evaluate it
    (another monitor type, a query it cannot read, or no series ever matched)."""
    query = _query(monitor)
    if query is None:
        return None
    options = monitor["options"]
    thresholds = options.get("thresholds") or {}
    notify_no_data = bool(options.get("notify_no_data"))
    end = now - (options.get("evaluation_delay") or 0) * US
    before = {name: group["status"] for name, group in monitor["state"]["groups"].items()}
    found: dict[str, str] = {}
    for group, records in matching(series, query.metric).items():
        name = ",".join(group) or "*"
        value = window_value(records, end - query.window, end, query.metric.space, query.time_aggregation, seed)
        found[name] = _status(value, before.get(name), query.comparator, query.threshold, thresholds, notify_no_data)
    for name, status in before.items():  # groups that stopped reporting
        if name not in found:
            found[name] = "No Data" if notify_no_data else status
    # No series has ever matched: nothing to judge by, so the monitor keeps the state it has.
    return found or None


def _status(
    value: float | None,
    before: str | None,
    comparator: str,
    threshold: float,
    thresholds: dict[str, Any],
    notify_no_data: bool,
) -> str:
    if value is None:
        return "No Data" if notify_no_data or before is None else before
    breach = _BREACH[comparator]
    for status, level, recovery in (
        ("Alert", "critical", "critical_recovery"),
        ("Warn", "warning", "warning_recovery"),
    ):
        limit = thresholds.get(level, threshold if level == "critical" else None)
        if limit is None:
            continue
        if breach(value, limit) or (
            before == status and thresholds.get(recovery) is not None and breach(value, thresholds[recovery])
        ):
            return status
    return "OK"


def overall(groups: dict[str, str]) -> str:
    return max(groups.values(), key=SEVERITY.__getitem__) if groups else "No Data"


def changes(series: Collection, seed: str, monitor: Record, now: int) -> dict[str, Any]:
    """The monitor fields an evaluation at `now` changes (none when nothing does)."""
    found = statuses(series, seed, monitor, now)
    return {} if found is None else transition(monitor, found, now)


def transition(monitor: Record, found: dict[str, str], now: int) -> dict[str, Any]:
    """The monitor fields that change when its groups are found in these states at `now`."""
    seconds = now // US
    old = monitor["state"]["groups"]
    groups = {}
    for name, status in found.items():
        group = dict(
            old.get(name)
            or {
                "name": name,
                "status": None,
                "last_triggered_ts": None,
                "last_resolved_ts": None,
                "last_nodata_ts": None,
            }
        )
        if group["status"] != status:
            if status in ("Alert", "Warn"):
                group["last_triggered_ts"] = seconds
            elif status == "No Data":
                group["last_nodata_ts"] = seconds
            elif group["status"] in ("Alert", "Warn"):
                group["last_resolved_ts"] = seconds
            group["status"] = status
        groups[name] = group
    fields: dict[str, Any] = {}
    if groups != old:
        fields["state"] = {"groups": groups}
    state = overall(found)
    if state != monitor["overall_state"]:
        fields["overall_state"] = state
        fields["overall_state_modified"] = now
    return fields


def calm_until(series: Collection, seed: str, monitor: Record, now: int, until: int, ahead: Ahead) -> int:
    """Until when evaluating the monitor changes nothing, given that its state is what an evaluation at `now`
    found (`now` itself when that cannot be told). A group whose values' range (`series.window_range`) does not
    keep its status threshold by threshold has its windows computed to `until` (at most `AHEAD` on), or read
    on in those computed before, to the first whose status differs."""
    query = _query(monitor)
    if query is None:  # never evaluated
        return _NEVER
    options = monitor["options"]
    thresholds = options.get("thresholds") or {}
    delay = (options.get("evaluation_delay") or 0) * US
    end = now - delay
    before = {name: group["status"] for name, group in monitor["state"]["groups"].items()}
    calm = _NEVER
    for group, records in matching(series, query.metric).items():
        name = ",".join(group) or "*"
        status = before.get(name)
        found = window_range(records, end - query.window, end, query.metric.space, query.time_aggregation)
        if found is not None and _steady(query, thresholds, found[0], found[1], status):
            calm = min(calm, found[2] + delay)
            continue
        if status is None:
            return now
        key = (str(monitor["id"]), name)
        windows = ahead.get(key)
        if windows is None or not windows.holds(monitor["query"], records, end):
            last = min(until, now + AHEAD) - delay
            computed = window_values(records, query.window, end, last, query.metric.space, query.time_aggregation, seed)
            if computed is None:
                return now
            windows = ahead[key] = _Windows(monitor["query"], records, *computed, last)
        keeps = _keeping(status, query, thresholds, bool(options.get("notify_no_data")))
        changed = _first_change(windows.values, bisect.bisect_right(windows.ends, end), keeps)
        calm = min(calm, (windows.last + 1 if changed is None else windows.ends[changed]) + delay)
    return calm


def _first_change(values: list[float | None], start: int, keeps: Callable[[float | None], bool]) -> int | None:
    """The index of the first of `values` from `start` on that does not keep a status, or None. A status is the
    same for every value between two that give it (each threshold test is monotonic), so a block of values
    whose lowest and highest keep it is passed at once."""
    for low in range(start, len(values), _BLOCK):
        block = values[low : low + _BLOCK]
        if None in block or not (keeps(min(block)) and keeps(max(block))):  # type: ignore[type-var]
            for at in range(low, low + len(block)):
                if not keeps(values[at]):
                    return at
    return None


def _keeping(
    status: str, query: MonitorQuery, thresholds: dict[str, Any], notify_no_data: bool
) -> Callable[[float | None], bool]:
    """Whether a window's value keeps `status`. `_status` depends only on where a value lies among the
    thresholds (each test is a comparison with one), so it is worked out once for each place."""
    limits: list[float] = sorted({limit for limit in _limits(query, thresholds) if limit is not None})
    place = bisect.bisect_left if query.comparator in (">", "<=") else bisect.bisect_right
    known: dict[int | None, bool] = {}

    def keeps(value: float | None) -> bool:
        at = None if value is None else place(limits, value)
        found = known.get(at)
        if found is None:
            found = known[at] = (
                _status(value, status, query.comparator, query.threshold, thresholds, notify_no_data) == status
            )
        return found

    return keeps


def _limits(query: MonitorQuery, thresholds: dict[str, Any]) -> list[float | None]:
    """Every value `_status` compares a value with (None where a threshold is not given)."""
    others = [thresholds.get(k) for k in ("warning", "critical_recovery", "warning_recovery")]
    return [thresholds.get("critical", query.threshold), *others]


def _steady(query: MonitorQuery, thresholds: dict[str, Any], low: float, high: float, status: str | None) -> bool:
    """Whether every value in `[low, high]` gives `status`: as each threshold test is monotonic, one that
    gives the same answer at both ends gives it everywhere between."""
    breach = _BREACH[query.comparator]
    if any(limit is not None and breach(low, limit) != breach(high, limit) for limit in _limits(query, thresholds)):
        return False
    return status is not None and _status(low, status, query.comparator, query.threshold, thresholds, False) == status


def evaluate_all(world: World, until: int) -> int:
    """Evaluates every monitor that could change at the world's now; answers until when evaluating again changes
    nothing while no monitor or series changes (`World.every`), looking ahead at most to `until`."""
    now, forced, last = world.now(), world.part(Held), world.part(Quiet)
    if not forced and now < last.until and last.reads == tokens(world, _READS):
        return last.until
    monitors = world[MONITORS]
    series, seed = world[SERIES], world.ids.seed
    calm, ahead = world.part(Calm), world.part(Ahead)
    quiet = _NEVER
    for monitor in list(monitors):
        monitor_id = str(monitor["id"])
        if monitor_id in forced:  # its release is a due event or a call, after which evaluation runs again
            continue
        read = _read(series, monitor)
        known = calm.get(monitor_id)
        if known is None or not known.holds(monitor, read, now):
            fields = changes(series, seed, monitor, now)
            if fields:
                monitor = monitors.change(monitor_id, **fields)
            known = calm[monitor_id] = _Calm(monitor, read, calm_until(series, seed, monitor, now, until, ahead))
        quiet = min(quiet, known.until)
    last.reads, last.until = (None, 0) if forced else (tokens(world, _READS), quiet)
    return quiet


def _read(series: Collection, monitor: Record) -> list[Record]:
    """The series of the monitor's metric (none for a monitor the world does not evaluate)."""
    query = _query(monitor)
    return [] if query is None else series.by("metric", query.metric.metric)


def _query(monitor: Record) -> MonitorQuery | None:
    """The monitor's query, when the world evaluates the monitor: a metric monitor with a query it reads."""
    if monitor["type"] not in EVALUATED:
        return None
    try:
        return parse_monitor_query(monitor["query"])
    except QueryError:
        return None


def force(world: World, monitor_id: str, source: str, state: str) -> None:
    """Holds the monitor in `state` for `source` (a fault): written at once, and evaluations leave it be until
    every source has released it. With several sources, the most severe state wins."""
    forced = world.part(Held)
    monitor = world[MONITORS].get(monitor_id)
    if monitor is None:
        return
    held = forced.setdefault(monitor_id, (monitor["overall_state"], {}))[1]
    held[source] = state
    _hold(world, monitor, overall(held))


def release(world: World, monitor_id: str, source: str) -> None:
    """Ends `source`'s hold on the monitor. Once nothing holds it, it is evaluated at once and follows its
    metrics again; a monitor the world does not evaluate goes back to the state it had before the hold."""
    forced = world.part(Held)
    monitor = world[MONITORS].get(monitor_id)
    if monitor_id not in forced or monitor is None:
        return
    before, held = forced[monitor_id]
    held.pop(source, None)
    if held:
        _hold(world, monitor, overall(held))
        return
    del forced[monitor_id]
    now = world.now()
    found = statuses(world[SERIES], world.ids.seed, monitor, now)
    if found is None:
        _hold(world, monitor, before)
        return
    fields = transition(monitor, found, now)
    if fields:
        world[MONITORS].change(monitor_id, **fields)


def _hold(world: World, monitor: Record, state: str) -> None:
    groups = {name: state for name in monitor["state"]["groups"]} or {"*": state}
    fields = transition(monitor, groups, world.now())
    if fields:
        world[MONITORS].change(str(monitor["id"]), **fields)


def attach(world: World) -> None:
    """Evaluates every monitor at each whole simulated minute after the clock start (those that could change)."""
    world.every((world.clock.start // _MINUTE + 1) * _MINUTE, _MINUTE, evaluate_all)
