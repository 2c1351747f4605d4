"""Metric submission (v2): `POST /api/v2/series` writes the points into the world's series, so that later
queries and monitors see them (`series.submit`). It needs only the API key, as Datadog's intake does.

As Datadog documents, a point more than ten minutes ahead of now or more than an hour behind is dropped;
the payload is still accepted (202). A host resource adds the tag `host:<name>`.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from ...clock import US
from ...spec.loader import dotted
from ..base import INT64_MAX, Reply
from . import series
from .bodies import Body, Place, Says, empty_as, read
from .calls import Call, ops
from .errors import bad_request

_TYPES = ("gauge", "count", "rate", "gauge")  # MetricIntakeType: unspecified, count, rate, gauge
_AHEAD, _BEHIND = 600 * US, 3600 * US
MAX_SERIES = 1000  # series in one payload: Datadog's 500 kB holds about this many with a point or two


class _Point(Body):
    timestamp: Annotated[int, Field(ge=0, le=INT64_MAX)]  # epoch seconds
    value: float  # an integer too, never a boolean


class _Series(Body):
    """One of `series`."""

    metric: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.]{0,199}$"), Says("expected a metric name")]
    type: Annotated[int, Field(ge=0, le=3), Says("expected 0, 1, 2 or 3")] = 0
    points: Annotated[
        list[_Point],
        Field(min_length=1),
        Says("expected a non-empty array", each="expected {timestamp, value} numbers"),
    ]
    tags: Annotated[
        list[Annotated[str, StringConstraints(pattern=r"^[^ ]+$")]], empty_as([]), Says("expected an array of tags")
    ] = Field(default_factory=list)
    resources: Annotated[list[dict[str, Any]], empty_as([]), Says("expected an array of objects")] = Field(
        default_factory=list
    )
    unit: Annotated[str | None, Says("expected a string")] = None
    interval: Annotated[int, Field(ge=1, le=86400), empty_as(60), Says("expected seconds from 1 to 86400")] = 60


def _checked(item: Any, index: int) -> dict[str, Any]:
    given = read(_Series, item, partial(_refused, index))
    hosts = [f"host:{r['name']}" for r in given.resources if r.get("type") == "host" and isinstance(r.get("name"), str)]
    return {
        "metric": given.metric,
        "tags": list(dict.fromkeys([*given.tags, *hosts])),
        "points": [(point.timestamp * US, point.value) for point in given.points],
        "type": _TYPES[given.type],
        "unit": given.unit,
        "interval": given.interval,
    }


def _refused(index: int, place: Place) -> Exception:
    """`Invalid 'series[0].points': expected a non-empty array`."""
    return bad_request(f"Invalid '{dotted(('series', index, *place[:1]))}': {_Series.words(place)}")


@ops("POST /api/v2/series")
def submit_metrics(call: Call) -> Reply:
    given = call.fields.get("series")
    if not isinstance(given, list) or not given:
        raise bad_request("Invalid 'series': expected a non-empty array")
    if len(given) > MAX_SERIES:
        raise bad_request(f"Invalid 'series': at most {MAX_SERIES} series a payload")
    items = [_checked(item, i) for i, item in enumerate(given)]
    now = call.now()
    for item in items:
        kept = [(at, value) for at, value in item.pop("points") if now - _BEHIND <= at <= now + _AHEAD]
        if kept:
            series.submit(call.world, item.pop("metric"), item.pop("tags"), kept, **item)
    return Reply(202, {"errors": []})
