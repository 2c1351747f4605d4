"""Metric queries with formulas (v2): `POST /api/v2/query/timeseries` and `POST /api/v2/query/scalar`, over
the world's series, computed as `GET /api/v1/query` is (`plans`), at a cost bounded by the points answered.

Metrics queries only (`data_source: metrics`); a formula is `formulas`' subset. A formula's groups are those
of the queries it reads, joined on their tags (a query without `by` joins every group).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator

from ...spec.loader import dotted
from ..base import INT64_MAX
from . import formulas, metrics, plans
from .bodies import Body, Int64, Place, Says, empty_as, holds, read
from .calls import Call, ops
from .errors import bad_request
from .queries import MetricQuery, QueryError, parse_metric_query
from .series import AGGREGATE, Point

Group = tuple[str, ...]
Formula = tuple[str, ast.expr, dict[str, Any] | None]  # a formula's text, parsed, and its `limit`
_AGGREGATORS = ("avg", "min", "max", "sum", "last", "mean")


@dataclass
class _Request:
    start: int  # epoch µs
    end: int
    names: list[str]
    plans: list[plans.Plan]
    formulas: list[Formula]
    aggregators: list[str]


class _Attributes(Body):
    """A request's attributes as far as its queries: `formulas` is read once they are (`_Formulas`)."""

    start: Annotated[int, Field(ge=0, le=INT64_MAX), Says("must be an integer of epoch milliseconds")] = Field(
        alias="from"
    )
    to: Annotated[Int64, Says("must be an integer of epoch milliseconds after from")]
    interval: Annotated[
        Annotated[int, Field(ge=1000, le=INT64_MAX)] | None, Says("must be an integer of milliseconds, at least 1000")
    ] = None
    queries: Annotated[list[Any], Field(min_length=1), Says("must be a non-empty array")]

    @field_validator("to")
    @classmethod
    def _after_from(cls, to: int, info: ValidationInfo) -> int:
        start = info.data.get("start")  # absent when `from` failed, which is answered first
        if start is not None and to <= start:
            raise ValueError("not after from")
        return to


class _Query(Body):
    """One of `queries` (its `data_source` and `aggregator` are Datadog's 400s of their own)."""

    whole: ClassVar[str] = "must be an object"
    name: Annotated[str, holds(str.isidentifier), Says("must be a distinct name")]
    query: Annotated[str, Says("is required")]


class _Formulas(Body):
    formulas: Annotated[list[Any], empty_as([]), Says("must be an array")] = Field(default_factory=list)


class _Formula(Body):
    """One of `formulas`; its `limit` is read once the formula is."""

    formula: Annotated[str, Says("is required")]


class _Limit(Body):
    count: Annotated[int, Field(gt=0, le=INT64_MAX)] = 10
    order: Literal["asc", "desc"] = "desc"


def _invalid(message: str) -> Exception:
    return bad_request(f"API input validation failed: {message}")


def _refused(model: type[Body], at: Place, place: Place) -> Exception:
    """`API input validation failed: queries[0].name must be a distinct name`: the field at `place` of a
    `model` found at `at`."""
    return _invalid(f"{dotted((*at, *place[:1]))} {model.words(place)}")


def _read(call: Call, kind: str) -> _Request:
    attributes = _attributes(call, kind)
    given = read(_Attributes, attributes, partial(_refused, _Attributes, ()))
    names: list[str] = []
    parsed, aggregators = [], []
    for index, query in enumerate(given.queries):
        name, metric_query, aggregator = _query(query, index, names, kind)
        names.append(name)
        parsed.append(metric_query)
        aggregators.append(aggregator)
    read_formulas = _formulas(attributes, names)
    since, until = given.start * 1000, min(given.to * 1000 - 1, call.now())  # `to` is exclusive
    seconds = given.interval // 1000 if given.interval is not None else None
    found = plans.plan(call.world, parsed, since, max(until, since), [seconds] * len(parsed))
    return _Request(since, until, names, found, read_formulas, aggregators)


def _attributes(call: Call, kind: str) -> dict[str, Any]:
    """The attributes of a JSON:API body of type `kind`."""
    data = call.fields.get("data")
    if not isinstance(data, dict):
        raise _invalid("data is required")
    if data.get("type") != kind:
        raise _invalid(f'Invalid type. Expected "{kind}".')
    attributes = data.get("attributes")
    if not isinstance(attributes, dict):
        raise _invalid("attributes is required")
    return attributes


def _query(query: Any, index: int, names: list[str], kind: str) -> tuple[str, MetricQuery, str]:
    """One of `queries`, after those in `names`: its name (`query1` by default), the query, its aggregator."""
    refused = partial(_refused, _Query, ("queries", index))
    if isinstance(query, dict):
        if query.get("data_source") != "metrics":
            raise bad_request(
                f"Unsupported data source {query.get('data_source')!r}: only metrics queries are answered"
            )
        query = {"name": f"query{index + 1}", **query}
        if query["name"] in names:  # a name taken is answered where a name that is no name is
            raise refused(("name",))
    given = read(_Query, query, refused)
    try:
        parsed = parse_metric_query(given.query)
    except QueryError as exc:
        raise bad_request(f"Error parsing query: unable to parse {given.query}: {exc}") from exc
    aggregator = query.get("aggregator", "avg")
    if kind == "scalar_request" and aggregator not in _AGGREGATORS:
        raise bad_request(f"Unsupported aggregator {aggregator!r}: one of {', '.join(_AGGREGATORS)}")
    return given.name, parsed, aggregator


def _formulas(attributes: dict[str, Any], names: list[str]) -> list[Formula]:
    """`formulas`, over the queries `names`."""
    given = read(_Formulas, attributes, partial(_refused, _Formulas, ())).formulas
    return [_formula(formula, index, names) for index, formula in enumerate(given)]


def _formula(formula: Any, index: int, names: list[str]) -> Formula:
    """One of `formulas`; one that is no object has no formula."""
    refused = partial(_refused, _Formula, ("formulas", index))
    text = read(_Formula, formula if isinstance(formula, dict) else {}, refused).formula
    try:
        tree = formulas.parse(text, set(names))
    except formulas.FormulaError as exc:
        raise bad_request(f"Invalid formula: {exc}") from exc
    limit = formula.get("limit")
    if limit is not None:
        read(_Limit, limit, lambda _: _invalid(f"formulas[{index}].limit is invalid"))
    return text, tree, limit


def _outputs(call: Call, request: _Request, reduce: bool) -> list[tuple[str, int, str | None, dict[Group, Any]]]:
    """What the answer shows: each formula (or each query, without formulas) as (name, index, unit, values by
    group); values are {time: value}, or one value each when `reduce` (scalar: the query's aggregator)."""
    by_name: dict[str, dict[Group, Any]] = {}
    for name, plan, aggregator in zip(request.names, request.plans, request.aggregators, strict=True):
        points = plan.points(call.world, request.start, request.end) if request.start <= request.end else {}
        by_name[name] = {g: _reduced(p, aggregator) if reduce else dict(p) for g, p in points.items()}
    units = {n: metrics.unit(call.world, p.query.metric) for n, p in zip(request.names, request.plans, strict=True)}
    if not request.formulas:
        return [(name, i, units[name], by_name[name]) for i, name in enumerate(request.names)]
    found = []
    for index, (text, tree, limit) in enumerate(request.formulas):
        read = formulas.names(tree)
        values = _joined(tree, {n: by_name[n] for n in read}, reduce)
        if limit is not None:
            values = _limited(values, limit)
        unit = units[read[0]] if isinstance(tree, ast.Name) else None
        found.append((text, index, unit, values))
    return found


def _reduced(points: list[Point], aggregator: str) -> float:
    values = [v for _, v in points]
    return values[-1] if aggregator == "last" else AGGREGATE["avg" if aggregator == "mean" else aggregator](values)


def _joined(tree: ast.expr, inputs: dict[str, dict[Group, Any]], reduce: bool) -> dict[Group, Any]:
    """The formula's values by group: the groups of the queries it reads, each query's values taken from the
    same group, or from its only group when it has no `by`."""
    groups = list(dict.fromkeys(g for values in inputs.values() for g in values if g))
    if not groups:
        groups = [()]
    found: dict[Group, Any] = {}
    for group in groups:
        parts = {}
        for name, values in inputs.items():
            part = values.get(group, values.get(()) if list(values) == [()] else None)
            if part is None:
                break
            parts[name] = part
        else:
            if reduce:
                value = formulas.evaluate(tree, parts)
                found[group] = value
            else:
                times = sorted({t for part in parts.values() for t in part})
                found[group] = {t: formulas.evaluate(tree, {n: p.get(t) for n, p in parts.items()}) for t in times}
    return found


def _limited(values: dict[Group, Any], limit: dict[str, Any]) -> dict[Group, Any]:
    """The `count` groups with the highest (`desc`) or lowest (`asc`) values (their mean over time)."""

    def level(value: Any) -> float:
        known = [v for v in (value.values() if isinstance(value, dict) else [value]) if v is not None]
        return sum(known) / len(known) if known else float("-inf")

    ranked = sorted(values, key=lambda g: level(values[g]), reverse=limit.get("order", "desc") == "desc")
    return {g: values[g] for g in ranked[: limit.get("count", 10)]}


def _unit(name: str | None) -> list[Any] | None:
    return [metrics.unit_object(name), None] if name else None


@ops("POST /api/v2/query/timeseries")
def query_timeseries_data(call: Call) -> dict[str, Any]:
    request = _read(call, "timeseries_request")
    outputs = _outputs(call, request, reduce=False)
    times = sorted({t for *_, values in outputs for points in values.values() for t in points})
    series, columns = [], []
    for _, index, unit, values in outputs:
        for group, points in values.items():
            series.append({"group_tags": list(group), "query_index": index, "unit": _unit(unit)})
            columns.append([points.get(t) for t in times])
    return {
        "data": {
            "id": "0",
            "type": "timeseries_response",
            "attributes": {"series": series, "times": [t // 1000 for t in times], "values": columns},
        }
    }


@ops("POST /api/v2/query/scalar")
def query_scalar_data(call: Call) -> dict[str, Any]:
    request = _read(call, "scalar_request")
    outputs = _outputs(call, request, reduce=True)
    rows = list(dict.fromkeys(g for *_, values in outputs for g in values))
    keys = list(dict.fromkeys(tag.partition(":")[0] for group in rows for tag in group))
    columns: list[dict[str, Any]] = [
        {
            "name": key,
            "type": "group",
            "values": [[t.partition(":")[2] for t in group if t.partition(":")[0] == key] for group in rows],
        }
        for key in keys
    ]
    for name, _, unit, values in outputs:
        columns.append(
            {"name": name, "type": "number", "values": [values.get(g) for g in rows], "meta": {"unit": _unit(unit)}}
        )
    return {"data": {"type": "scalar_response", "attributes": {"columns": columns}}}
