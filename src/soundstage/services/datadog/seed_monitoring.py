"""Building the monitoring part of the `datadog:` section: metric series, hosts, monitors, downtimes.

Records are as `series`, `monitors` and `downtimes` describe them, hosts as `hosts` does. A series with
the metric and tags of an earlier one replaces it (a scene restating a world file's series). A monitor
without a given `overall_state` is evaluated at the clock start, after every section is built (so a
world file's monitor sees the scene's series).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from . import evaluation
from .downtimes import new_downtime, next_legacy_id, parse_scope
from .hosts import new_host
from .models import DatadogSection
from .models_monitoring import Downtime, Host, Monitor, Series, parse_offset
from .monitors import FIRST_ID, MADE_IN_APP, new_monitor, problem
from .seed_records import user_ref
from .series import new_series
from .stamps import stamp
from .store import DOWNTIMES, HOSTS, MONITORS, SERIES, USERS

_GIVEN = "datadog.monitors_with_state"  # ctx.settings: ids of monitors whose state the files give


def assign(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 1: ids for the records with a `ref`."""
    for i, monitor in enumerate(section.monitors):
        if monitor.ref:
            monitor_id = str(monitor.id or FIRST_ID + ctx.ids.next(MONITORS))
            ctx.attempt(partial(ctx.define, monitor.ref, monitor_id, MONITORS, "monitors", i))
    for i, series in enumerate(section.metrics):
        if series.ref:
            ctx.attempt(partial(ctx.define, series.ref, str(ctx.ids.next(SERIES)), SERIES, "metrics", i))
    for i, host in enumerate(section.hosts):
        ctx.attempt(partial(ctx.define, host.ref, host.name, HOSTS, "hosts", i))
    for i, downtime in enumerate(section.downtimes):
        if downtime.ref:
            ctx.attempt(partial(ctx.define, downtime.ref, ctx.ids.uuid(DOWNTIMES), DOWNTIMES, "downtimes", i))


def build(section: DatadogSection, ctx: BuildContext) -> None:
    """Pass 2: the records."""
    _series(section, ctx)
    _hosts(section, ctx)
    _monitors(section, ctx)
    _downtimes(section, ctx)
    _evaluate(ctx)


def _offset(text: str, ctx: BuildContext, *path: str | int) -> int:
    try:
        return parse_offset(text, ctx.start)
    except ValueError as exc:
        raise ctx.error(str(exc), *path) from exc


def _series(section: DatadogSection, ctx: BuildContext) -> None:
    for i, series in enumerate(section.metrics):
        record_id = ctx.refs[series.ref] if series.ref else str(ctx.ids.next(SERIES))
        ctx.attempt(partial(_one_series, ctx, series, record_id, i), record_id)


def _one_series(ctx: BuildContext, series: Series, record_id: str, i: int) -> None:
    collection = ctx.collection(SERIES)
    noise = series.noise
    if isinstance(noise, str):
        try:
            noise = abs(series.base) * float(noise.rstrip("%")) / 100 if noise.endswith("%") else float(noise)
        except ValueError as exc:
            raise ctx.error(
                f"expected noise as a number or a percentage like 5%, found {noise!r}", "metrics", i, "noise"
            ) from exc
    overrides = []
    for j, override in enumerate(series.overrides):
        start = _offset(override.from_, ctx, "metrics", i, "overrides", j, "from")
        end = _offset(override.to, ctx, "metrics", i, "overrides", j, "to") if override.to else None
        if end is not None and end <= start:
            raise ctx.error("an override must end after it starts", "metrics", i, "overrides", j, "to")
        overrides.append({"from": start, "to": end, "value": override.value})
    record = new_series(
        record_id,
        series.metric,
        list(series.tags),
        type=series.type,
        unit=series.unit,
        base=series.base,
        noise=noise,
        daily=series.daily,
        interval=series.interval,
        overrides=overrides,
    )
    # One series per metric and tags: a scene's series replaces the world file's.
    for earlier in collection.by("metric", series.metric):
        if earlier["tags"] == record["tags"]:
            collection.remove(earlier["id"])
    collection.add(record_id, record)


def _hosts(section: DatadogSection, ctx: BuildContext) -> None:
    for i, host in enumerate(section.hosts):
        ctx.attempt(partial(_host, ctx, host, i))


def _host(ctx: BuildContext, host: Host, i: int) -> None:
    collection = ctx.collection(HOSTS)
    if host.name in collection:
        raise ctx.error(f"host {host.name!r} is defined twice", "hosts", i, "name")
    tags = host.tags if isinstance(host.tags, dict) else {"Datadog": list(host.tags)} if host.tags else {}
    last = None if host.up else ctx.start - parse_duration(host.last_reported or "1h")
    mute_timeout = _offset(host.mute_timeout, ctx, "hosts", i, "mute_timeout") // US if host.mute_timeout else None
    collection.add(
        host.name,
        new_host(
            host.name,
            ctx.ids.next(HOSTS) + 100_000_000,
            aliases=list(host.aliases),
            apps=list(host.apps),
            tags_by_source={k: list(v) for k, v in tags.items()},
            up=host.up,
            last_reported=last,
            is_muted=host.muted,
            mute_timeout=mute_timeout,
            platform=host.platform,
        ),
    )


def _monitors(section: DatadogSection, ctx: BuildContext) -> None:
    for i, monitor in enumerate(section.monitors):
        if monitor.ref:
            monitor_id = int(ctx.refs[monitor.ref])
        else:
            monitor_id = monitor.id or FIRST_ID + ctx.ids.next(MONITORS)
        ctx.attempt(partial(_monitor, ctx, monitor, monitor_id, i), str(monitor_id) if monitor.ref else None)


def _monitor(ctx: BuildContext, monitor: Monitor, monitor_id: int, i: int) -> None:
    collection = ctx.collection(MONITORS)
    given = ctx.settings.setdefault(_GIVEN, [])
    if str(monitor_id) in collection:
        raise ctx.error(f"monitor id {monitor_id} is used twice", "monitors", i, "id")
    options = {**MADE_IN_APP, **monitor.options.model_dump(exclude_none=True)}
    message = problem(monitor.type, monitor.query, options)
    if message:
        raise ctx.error(message, "monitors", i, "query")
    made = ctx.start - parse_duration(monitor.ago)
    creator = user_ref(ctx, monitor.creator, "monitors", i, "creator") if monitor.creator else _maker(ctx)
    fields: dict[str, Any] = {
        "name": monitor.name,
        "type": monitor.type,
        "query": monitor.query,
        "message": monitor.message,
        "tags": list(monitor.tags),
        "priority": monitor.priority,
        "options": options,
    }
    record = new_monitor(monitor_id, made, stamp(ctx.ids, made), creator, fields)
    if monitor.overall_state is not None:
        record["overall_state"] = monitor.overall_state
        record["overall_state_modified"] = ctx.start
        given.append(monitor_id)
    collection.add(str(monitor_id), record)


def _maker(ctx: BuildContext) -> str | None:
    """Who made a monitor the files name no creator for: the first of the world's people (not a service
    account) in Datadog, or no one when it has none."""
    return next((u["id"] for u in ctx.collection(USERS) if not u["service_account"]), None)


def _downtimes(section: DatadogSection, ctx: BuildContext) -> None:
    for i, downtime in enumerate(section.downtimes):
        record_id = ctx.refs[downtime.ref] if downtime.ref else ctx.ids.uuid(DOWNTIMES)
        ctx.attempt(partial(_downtime, ctx, downtime, record_id, i), record_id)


def _downtime(ctx: BuildContext, downtime: Downtime, record_id: str, i: int) -> None:
    collection = ctx.collection(DOWNTIMES)
    monitors = ctx.collection(MONITORS)
    try:
        parse_scope(downtime.scope)
    except ValueError as exc:
        raise ctx.error(str(exc), "downtimes", i, "scope") from exc
    ident = downtime.monitor_identifier
    if (ident.monitor_id is None) == (ident.monitor_tags is None):
        raise ctx.error("give monitor_id or monitor_tags", "downtimes", i, "monitor_identifier")
    if ident.monitor_id is not None:
        monitor_id = ctx.resolve_kind(
            str(ident.monitor_id), MONITORS, "downtimes", i, "monitor_identifier", "monitor_id"
        )
        if monitor_id not in monitors:
            raise ctx.error(f"no monitor {monitor_id}", "downtimes", i, "monitor_identifier", "monitor_id")
        identifier: dict[str, Any] = {"monitor_id": int(monitor_id)}
    else:
        identifier = {"monitor_tags": list(ident.monitor_tags or [])}
    start = (
        _offset(downtime.schedule.start, ctx, "downtimes", i, "schedule", "start")
        if downtime.schedule.start
        else stamp(ctx.ids, ctx.start)
    )
    end = _offset(downtime.schedule.end, ctx, "downtimes", i, "schedule", "end") if downtime.schedule.end else None
    if end is not None and end <= start:
        raise ctx.error("a downtime must end after it starts", "downtimes", i, "schedule", "end")
    created = stamp(ctx.ids, min(start, ctx.start) - parse_duration(downtime.ago))
    record = new_downtime(
        record_id,
        next_legacy_id(ctx.ids),
        created,
        None,  # made before the world began, by no one the world knows
        scope=downtime.scope,
        monitor_identifier=identifier,
        schedule={"start": start, "end": end},
        message=downtime.message,
        mute_first_recovery_notification=downtime.mute_first_recovery_notification,
        notify_end_states=list(downtime.notify_end_states),
        notify_end_types=list(downtime.notify_end_types),
        display_timezone=downtime.display_timezone,
    )
    collection.add(record_id, record)


def _evaluate(ctx: BuildContext) -> None:
    """States at the clock start, for monitors the files give none."""
    monitors, series = ctx.collection(MONITORS), ctx.collection(SERIES)
    given = set(ctx.settings.get(_GIVEN, []))
    for monitor in list(monitors):
        if monitor["id"] in given:
            continue
        fields = evaluation.changes(series, ctx.ids.seed, monitor, ctx.start)
        if fields:
            monitors.change(str(monitor["id"]), **{**fields, "overall_state_modified": ctx.start})
