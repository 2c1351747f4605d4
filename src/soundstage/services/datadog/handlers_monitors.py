"""Monitors (v1): list, create, get, edit, delete, and the legacy mute/unmute (not in the spec; mapped onto
v2 downtime records). Every handler checks all it reads before its first write. Search is
`handlers_monitor_search`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, model_validator

from ...clock import US
from ...world import Record
from . import downtimes, evaluation, views_monitoring
from .bodies import Body, Int64, Number, Place, read
from .calls import Call, fits_int64, invalid, is_epoch_seconds, monitor_of, monitor_view, ops
from .errors import DatadogError, bad_request
from .monitors import FIRST_ID, complete_options, is_multi, new_monitor, problem
from .queries import QueryError, parse_monitor_query
from .store import DOWNTIMES, MONITORS, SERIES

_EDITABLE = ("name", "type", "query", "message", "tags", "priority", "options", "restricted_roles", "draft_status")


class _Options(Body):
    """MonitorOptions (the v1 spec) as far as evaluation and views read them, so they can trust them; checked
    in this order, the first that fails named: thresholds, every integer, the range of `min_failure_duration`,
    booleans, texts."""

    thresholds: dict[str, Number | None] | None = None
    evaluation_delay: Int64 | None = None
    min_failure_duration: Int64 | None = None
    min_location_failed: Int64 | None = None
    new_group_delay: Int64 | None = None
    new_host_delay: Int64 | None = None
    no_data_timeframe: Int64 | None = None
    renotify_interval: Int64 | None = None
    renotify_occurrences: Int64 | None = None
    timeout_h: Int64 | None = None
    # `min_failure_duration` again: its range is checked only once every integer is known to be one.
    failure_duration: Annotated[int, Field(ge=0, le=7200)] | None = Field(None, alias="min_failure_duration")
    enable_logs_sample: bool | None = None
    enable_samples: bool | None = None
    groupby_simple_monitor: bool | None = None
    include_tags: bool | None = None
    locked: bool | None = None
    notify_audit: bool | None = None
    notify_no_data: bool | None = None
    require_full_window: bool | None = None
    escalation_message: str | None = None
    group_retention_duration: str | None = None
    synthetics_check_id: str | None = None

    @model_validator(mode="wrap")
    @classmethod
    def _stored(cls, options: Any, fields: ValidatorFunctionWrapHandler) -> _Options:
        """Options Datadog can store: no integer past int64 anywhere, in options it does not read too."""
        checked = fields(options)
        if not fits_int64(options):
            raise ValueError("an integer past int64")
        return checked


class _Monitor(Body):
    """What a create or an edit leaves a monitor with (`query` is read by `monitors.problem`)."""

    name: str | None = None
    message: str | None = None
    type: str | None = None
    tags: list[str] | None = None
    priority: Annotated[int, Field(ge=1, le=5)] | None = None
    options: _Options | None = None
    draft_status: Literal["draft", "published"] | None = None
    restricted_roles: list[str] | None = None


def _view(call: Call, record: Record, shown: tuple[list[str] | None, bool] | None = None) -> dict[str, Any]:
    return views_monitoring.monitor(call.world, record, *(shown or monitor_view(call)))


def _checked_fields(body: dict[str, Any], current: Record | None) -> dict[str, Any]:
    """The editable fields of a create or edit body, checked; an edit keeps what the body leaves out."""
    for needed in ("type", "query"):
        if current is None and needed not in body:
            raise invalid(needed)
    merged = {**_editable(current or {}), **_editable(body)}
    read(_Monitor, merged, _refused)
    if current is not None and not _may_become(current["type"], merged["type"]):
        raise bad_request("The monitor type cannot be changed")
    message = problem(merged.get("type"), merged.get("query"), merged.get("options") or {})
    if message:
        raise bad_request(message)
    return merged


def _editable(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {k: fields[k] for k in _EDITABLE if k in fields}


def _may_become(was: str, now: str) -> bool:
    """Datadog changes a monitor's type only from one of its two metric types to the other."""
    return was == now or {was, now} == {"metric alert", "query alert"}


def _refused(place: Place) -> DatadogError:
    """Datadog names the field, or the option, it cannot read."""
    return invalid(str(place[1] if place[0] == "options" and len(place) > 1 else place[0]))


def _evaluated(call: Call, record: dict[str, Any]) -> dict[str, Any]:
    """The record with its state at the simulated now (Datadog evaluates a new or edited monitor at once)."""
    fields = evaluation.changes(call.world[SERIES], call.world.ids.seed, record, call.now())
    return {**record, **fields}


def _next_id(call: Call) -> int:
    monitors = call.world[MONITORS]
    while True:
        candidate = FIRST_ID + call.world.ids.next(MONITORS)
        if str(candidate) not in monitors:
            return candidate


@ops("GET /api/v1/monitor")
def list_monitors(call: Call) -> list[dict[str, Any]]:
    name = (call.text("name") or "").lower()
    scope = [t for t in (call.text("tags") or "").split(",") if t]
    monitor_tags = [t for t in (call.text("monitor_tags") or "").split(",") if t]
    id_offset = call.integer("id_offset")
    page = call.integer("page", minimum=0)
    page_size = call.integer("page_size", 100, minimum=1)
    shown = monitor_view(call)
    found = []
    for record in sorted(call.world[MONITORS], key=lambda r: r["id"]):
        if name and name not in record["name"].lower():
            continue
        if scope and not all(tag in _scope_tags(record) for tag in scope):
            continue
        if monitor_tags and not set(monitor_tags) <= set(record["tags"]):
            continue
        if id_offset is not None and record["id"] <= id_offset:
            continue
        found.append(record)
    if page is not None:
        size = min(page_size or 100, 1000)
        found = found[page * size : (page + 1) * size]
    return [_view(call, r, shown) for r in found]


def _scope_tags(record: Record) -> list[str]:
    try:
        return list(parse_monitor_query(record["query"]).metric.scope)
    except QueryError:
        return []


@ops("POST /api/v1/monitor")
def create_monitor(call: Call) -> dict[str, Any]:
    fields = _checked_fields(call.fields, None)
    shown = monitor_view(call)
    record = _evaluated(
        call, new_monitor(_next_id(call), call.now(), call.stamp(), call.principal.user or None, fields)
    )
    call.world[MONITORS].add(str(record["id"]), record)
    return _view(call, record, shown)


@ops("GET /api/v1/monitor/{monitor_id}")
def get_monitor(call: Call) -> dict[str, Any]:
    return _view(call, monitor_of(call))


@ops("PUT /api/v1/monitor/{monitor_id}")
def update_monitor(call: Call) -> dict[str, Any]:
    current = monitor_of(call)
    merged = _checked_fields(call.fields, current)
    shown = monitor_view(call)
    changes: dict[str, Any] = {k: merged[k] for k in _EDITABLE if merged[k] != current[k]}
    if "query" in changes or "type" in changes or "options" in changes:
        changes["options"] = complete_options(merged["query"], merged["type"], dict(merged["options"] or {}))
        changes["multi"] = is_multi(merged["query"])
    if "query" in changes:
        changes["state"] = {"groups": {}}  # other groups, other states
    changes["tags"] = list(merged["tags"] or [])
    changes["modified"] = call.stamp()
    record = _evaluated(call, {**current, **changes})
    updated = call.world[MONITORS].change(
        str(current["id"]), **{k: v for k, v in record.items() if current.get(k) != v}
    )
    return _view(call, updated, shown)


@ops("DELETE /api/v1/monitor/{monitor_id}")
def delete_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    call.world[MONITORS].remove(str(record["id"]))
    return {"deleted_monitor_id": record["id"]}


# -- legacy mute ---------------------------------------------------------------------------------------


@ops("POST /api/v1/monitor/{monitor_id}/mute")
def mute_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    scope = call.body_or_query("scope") or "*"
    end = call.body_or_query("end")
    now = call.now()
    shown = monitor_view(call)
    if not isinstance(scope, str):
        raise invalid("scope")
    try:
        downtimes.parse_scope(scope)
    except ValueError:
        raise invalid("scope") from None
    end_us = None
    if end not in (None, ""):
        try:
            end_s = int(end)  # from the query string it is text
        except (TypeError, ValueError):
            raise invalid("end") from None
        if isinstance(end, bool) or not is_epoch_seconds(end_s) or end_s * US <= now:
            raise invalid("end")
        end_us = end_s * US
    downtime_id = call.world.ids.uuid(DOWNTIMES)
    stamped = call.stamp()
    call.world[DOWNTIMES].add(
        downtime_id,
        downtimes.new_downtime(
            downtime_id,
            downtimes.next_legacy_id(call.world.ids),
            stamped,
            call.principal.user or None,
            scope=scope,
            monitor_identifier={"monitor_id": record["id"]},
            schedule={"start": stamped, "end": end_us},
        ),
    )
    return _view(call, record, shown)


@ops("POST /api/v1/monitor/{monitor_id}/unmute")
def unmute_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    scope = call.body_or_query("scope")
    all_scopes = call.body_or_query("all_scopes") in (True, "true")
    now = call.now()
    shown = monitor_view(call)
    mutes = [
        d
        for d in downtimes.for_monitor(call.world[DOWNTIMES], record, now, ("active", "scheduled"))
        if "monitor_id" in d["monitor_identifier"] and (all_scopes or not scope or d["scope"] == scope)
    ]
    if scope and not all_scopes and not mutes:
        raise DatadogError(400, f"Monitor {record['id']} is not muted for scope {scope}")
    stamped = call.stamp()
    for downtime in mutes:
        call.world[DOWNTIMES].change(downtime["id"], canceled=stamped, modified=stamped)
    return _view(call, record, shown)
