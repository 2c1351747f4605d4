"""Key validation and metric queries (`GET /api/v1/validate`, `GET /api/v1/query`) through datadog-api-client
and raw httpx: points computed from the world's series, rollups, grouping, errors, determinism."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.clock import US
from soundstage.services.datadog import series
from soundstage.services.datadog.remembered import Computed
from soundstage.services.datadog.series import value_at
from soundstage.services.datadog.store import SERIES

from .conftest import SCENE, DatadogWorld, Evaluations

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds


def _query(dd: DatadogWorld, query: str, start: int, end: int) -> Any:
    return dd.raw("GET", "/api/v1/query", params={"from": start, "to": end, "query": query})


def _expected(dd: DatadogWorld, ref: str, at: int) -> float:
    record = dd.live.world[SERIES].get(dd.ref(ref))
    return value_at(record, at * US, dd.live.world.ids.seed)


def test_validate_needs_only_the_api_key(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v1.api.authentication_api import AuthenticationApi

    with dd_shared.client() as client:
        assert AuthenticationApi(client).validate().to_dict() == {"valid": True}
    response = dd_shared.raw("GET", "/api/v1/validate", keys=False, headers={"DD-API-KEY": dd_shared.api_key})
    assert (response.status_code, response.json()) == (200, {"valid": True})


def test_validate_without_a_key_says_so(dd_shared: DatadogWorld) -> None:
    from datadog_api_client import ApiClient
    from datadog_api_client.exceptions import ForbiddenException
    from datadog_api_client.v1.api.authentication_api import AuthenticationApi

    keyless = dd_shared.url.split("/w/")[0] + "/datadog"  # no world in the path: the key would find it
    for url in (dd_shared.url, keyless):
        response = dd_shared.live.http.get(url + "/api/v1/validate")
        assert (response.status_code, response.json()) == (403, {"errors": ["API key required"]})
    wrong = dd_shared.raw("GET", "/api/v1/validate", keys=False, headers={"DD-API-KEY": "nope"})
    assert (wrong.status_code, wrong.json()) == (403, {"errors": ["Forbidden"]})
    configuration = dd_shared.configuration()
    configuration.api_key = {}
    with ApiClient(configuration) as client, pytest.raises(ForbiddenException) as refused:
        AuthenticationApi(client).validate()
    assert refused.value.body == {"errors": ["API key required"]}


@pytest.mark.parametrize(
    "headers",
    [{}, {"DD-API-KEY": "nope"}, {"DD-API-KEY": "KEY", "DD-APPLICATION-KEY": "bad"}],
    ids=["no keys", "bad api key", "bad app key"],
)
def test_forbidden_without_good_keys(dd_shared: DatadogWorld, headers: dict[str, str]) -> None:
    headers = {k: dd_shared.api_key if v == "KEY" else v for k, v in headers.items()}
    response = dd_shared.raw(
        "GET", "/api/v1/query", keys=False, headers=headers, params={"from": 1, "to": 2, "query": "a{*}"}
    )
    assert (response.status_code, response.json()) == (403, {"errors": ["Forbidden"]})


def test_raw_query_by_host(dd_shared: DatadogWorld) -> None:
    response = _query(dd_shared, "avg:orders.latency.p99{service:orders} by {host}", START - 300, START)
    assert response.status_code == 200
    body = response.json()
    series = body.pop("series")
    assert body == {
        "status": "ok",
        "res_type": "time_series",
        "resp_version": 1,
        "query": "avg:orders.latency.p99{service:orders} by {host}",
        "from_date": (START - 300) * 1000,
        "to_date": START * 1000,
        "values": [],
        "times": [],
        "message": "",
        "group_by": ["host"],
    }
    assert [s["tag_set"] for s in series] == [["host:web-1"], ["host:web-2"]]
    web1 = series[0]
    times = [START - 300 + 60 * i for i in range(6)]
    assert web1["pointlist"] == [[t * 1000.0, _expected(dd_shared, "p99_web1", t)] for t in times]
    assert {k: v for k, v in web1.items() if k != "pointlist"} == {
        "metric": "orders.latency.p99",
        "display_name": "orders.latency.p99",
        "expression": "avg:orders.latency.p99{host:web-1,service:orders}",
        "scope": "host:web-1,service:orders",
        "tag_set": ["host:web-1"],
        "start": (START - 300) * 1000,
        "end": START * 1000 + 59999,
        "interval": 60,
        "length": 6,
        "aggr": "avg",
        "query_index": 0,
        "attributes": {},
        "unit": [
            {
                "family": "time",
                "name": "millisecond",
                "plural": "milliseconds",
                "scale_factor": 0.001,
                "short_name": "ms",
            },
            None,
        ],
    }
    assert 420 < web1["pointlist"][-1][1] < 500  # base 420, daily peak +40 at 14:00, noise 5%


def test_space_aggregation_and_rollup(dd_shared: DatadogWorld) -> None:
    response = _query(dd_shared, "max:orders.latency.p99{env:prod}.rollup(max, 300)", START - 600, START)
    (series,) = response.json()["series"]
    assert (series["interval"], series["length"], series["scope"]) == (300, 3, "env:prod")

    def bucket(start: int) -> float:
        return max(
            max(_expected(dd_shared, ref, t) for t in range(start, min(start + 300, START + 1), 60))
            for ref in ("p99_web1", "p99_web2")
        )

    assert series["pointlist"] == [[t * 1000.0, bucket(t)] for t in (START - 600, START - 300, START)]


def test_counts_sum_in_a_rollup_and_overrides_show(dd_shared: DatadogWorld) -> None:
    body = _query(dd_shared, "sum:payments.errors{*}.rollup(sum, 600)", START - 7200, START).json()
    (series,) = body["series"]
    # base 2 until the override at -1h steps it to 50 a minute
    assert [p[1] for p in series["pointlist"]] == [20.0] * 6 + [500.0] * 6 + [50.0]
    rate = _query(dd_shared, "sum:payments.errors{*}.as_rate()", START - 120, START).json()["series"][0]
    assert [p[1] for p in rate["pointlist"]] == [0.8333, 0.8333, 0.8333]


def test_default_rollup_keeps_a_week_under_300_points(dd_shared: DatadogWorld) -> None:
    (series,) = _query(dd_shared, "avg:orders.latency.p99{host:web-2}", START - 7 * 86400, START).json()["series"]
    assert (series["interval"], series["length"]) == (3600, 169)


def test_points_never_after_now_and_unknown_metrics_are_empty(dd_shared: DatadogWorld) -> None:
    (series,) = _query(dd_shared, "avg:orders.latency.p99{host:web-2}", START - 120, START + 3600).json()["series"]
    assert series["pointlist"][-1][0] <= dd_shared.live.world.now() // 1000
    assert _query(dd_shared, "avg:no.such.metric{*}", START - 120, START).json()["series"] == []
    assert _query(dd_shared, "avg:orders.latency.p99{service:nope}", START - 120, START).json()["series"] == []


def test_several_queries_and_exclusions(dd_shared: DatadogWorld) -> None:
    body = _query(dd_shared, "avg:orders.latency.p99{!host:web-1}, sum:orders.requests{*}", START - 60, START).json()
    assert [(s["metric"], s["query_index"], s["scope"]) for s in body["series"]] == [
        ("orders.latency.p99", 0, "!host:web-1"),
        ("orders.requests", 1, "*"),
    ]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"from": START, "to": START, "query": "avg:orders.latency.p99"},
            (
                "Error parsing query: unable to parse avg:orders.latency.p99: "
                "expected a scope in braces after 'orders.latency.p99', like {*} or {service:orders}"
            ),
        ),
        ({"to": START, "query": "avg:a{*}"}, "The value provided for parameter 'from' is invalid"),
        ({"from": "x", "to": START, "query": "avg:a{*}"}, "The value provided for parameter 'from' is invalid"),
        ({"from": START, "to": START - 1, "query": "avg:a{*}"}, "The value provided for parameter 'to' is invalid"),
        ({"from": START, "to": START}, "The value provided for parameter 'query' is invalid"),
        ({"from": -1, "to": START, "query": "avg:a{*}"}, "The value provided for parameter 'from' is invalid"),
        ({"from": 0, "to": 253402300800, "query": "avg:a{*}"}, "The value provided for parameter 'to' is invalid"),
        (
            {"from": START - 60, "to": START, "query": "avg:a{*}.rollup(avg, 2147483648)"},
            (
                "Error parsing query: unable to parse avg:a{*}.rollup(avg, 2147483648): "
                "the rollup interval must be from 1 to 2147483647 seconds"
            ),
        ),
    ],
)
def test_bad_queries(dd_shared: DatadogWorld, params: dict[str, Any], message: str) -> None:
    response = dd_shared.raw("GET", "/api/v1/query", params=params)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})


def test_sdk_query(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v1.api.metrics_api import MetricsApi

    with dd_shared.client() as client:
        result = MetricsApi(client).query_metrics(
            _from=START - 180, to=START, query="avg:orders.latency.p99{service:orders} by {host}"
        )
    assert (result.status, result.res_type, result.group_by) == ("ok", "time_series", ["host"])
    assert [s.tag_set for s in result.series] == [["host:web-1"], ["host:web-2"]]
    first = result.series[0]
    assert first.pointlist[0].value == [(START - 180) * 1000.0, _expected(dd_shared, "p99_web1", START - 180)]
    assert first.unit[0].short_name == "ms"


def test_sdk_bad_query_raises(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v1.api.metrics_api import MetricsApi

    with dd_shared.client() as client, pytest.raises(ApiException) as caught:
        MetricsApi(client).query_metrics(_from=START - 60, to=START, query="avg:")
    assert caught.value.status == 400


def test_same_scene_same_values(stage: Any) -> None:
    one, two = DatadogWorld(stage.world(SCENE)), DatadogWorld(stage.world(SCENE))
    query = "avg:orders.latency.p99{*} by {host}"
    assert _query(one, query, START - 86400, START).json() == _query(two, query, START - 86400, START).json()


def test_since_the_epoch_is_a_few_hundred_points(dd: DatadogWorld, evaluations: Evaluations) -> None:
    # `from=0` once computed every minute since 1970: now whole days keep it at 300 points.
    body = _query(dd, "sum:payments.errors{*}", 0, START).json()
    (errors,) = body["series"]
    interval = 69 * 86400  # the fewest whole days that keep 56 years at 300 points or fewer
    assert (errors["interval"], errors["length"], errors["start"]) == (interval, START // interval + 1, 0)
    # A count with a flat normal value sums exactly whatever is sampled: 2 a minute, 50 a minute since -1h.
    assert errors["pointlist"][0] == [0.0, 2.0 * (interval // 60)]
    last = START // interval * interval
    assert errors["pointlist"][-1] == [last * 1000.0, 2.0 * ((START - last) // 60 + 1 - 61) + 50.0 * 61]
    assert evaluations.count <= series.MAX_EVALUATIONS


def test_noisy_series_over_decades_stay_in_range(dd: DatadogWorld, evaluations: Evaluations) -> None:
    (web1,) = _query(dd, "avg:orders.latency.p99{host:web-1}", 0, START).json()["series"]
    assert web1["length"] == 298
    assert all(400 < value < 440 for _, value in web1["pointlist"])  # base 420, daily ±40 averaged, noise 5%
    assert evaluations.count <= series.MAX_EVALUATIONS


def test_a_rollup_finer_than_1500_points_is_widened(dd: DatadogWorld, evaluations: Evaluations) -> None:
    year = 365 * 86400
    body = _query(dd, "avg:orders.latency.p99{*} by {host}.rollup(max, 1)", START - year, START).json()
    assert [(s["interval"], s["length"]) for s in body["series"]] == [(28800, 1096), (28800, 1096)]
    assert evaluations.count <= series.MAX_EVALUATIONS
    # Up to 1500 points, the interval asked for is kept.
    (kept,) = _query(dd, "sum:orders.requests{*}.rollup(sum, 60)", START - 86400, START).json()["series"]
    assert (kept["interval"], kept["length"]) == (60, 1441)


def test_many_queries_in_one_request_are_widened_alike(dd: DatadogWorld, evaluations: Evaluations) -> None:
    one = "avg:orders.latency.p99{*} by {host}.rollup(avg, 60)"
    body = _query(dd, ", ".join([one] * 100), START - 86400, START).json()
    # 100 queries of 2 series at 1441 points are 288,200 cells: every interval widens to keep 20,000.
    assert len(body["series"]) == 200
    assert {(s["interval"], s["length"]) for s in body["series"]} == {(1200, 73)}
    assert evaluations.count <= series.MAX_EVALUATIONS


def test_a_bucket_keeps_an_overrides_peak_however_wide(dd: DatadogWorld) -> None:
    series.set_override(dd.live.world, "orders.latency.p99", ["host:web-2"], 5000, since=(START - 600) * US)
    series.end_override(dd.live.world, "orders.latency.p99", ["host:web-2"], at=(START - 540) * US)
    (web2,) = _query(dd, "max:orders.latency.p99{host:web-2}.rollup(max)", START - 30 * 86400, START).json()["series"]
    assert web2["interval"] == 14400  # 30 days at 4 hours
    assert web2["pointlist"][-1][1] == 5000.0  # one minute at 5000 among 240 in the bucket, never sampled away


def test_a_remembered_answer_follows_every_write_to_the_series(dd: DatadogWorld) -> None:
    """An answer asked again is the one remembered until the series change: after a fault's override, a
    submitted point, a new series and a call whose writes were undone it is each series' points as
    `value_at` gives them, and what the same request answers with nothing remembered."""
    world, query, start, end = dd.live.world, "avg:orders.latency.p99{*} by {host}", START - 900, START - 60
    remembered = world[SERIES].derived(Computed)

    def asked() -> list[Any]:
        first = _query(dd, query, start, end).json()["series"]
        assert remembered.answers  # the next request answers from the memo
        assert _query(dd, query, start, end).json()["series"] == first
        for found in first:  # one series a host: its points as they are defined
            record = next(
                r for r in world[SERIES].by("metric", "orders.latency.p99") if found["tag_set"][0] in r["tags"]
            )
            expected = [[at * 1000.0, value_at(record, at * US, world.ids.seed)] for at in range(start, end + 1, 60)]
            assert found["pointlist"] == expected
        remembered.answers.clear()
        remembered.scopes.clear()
        assert _query(dd, query, start, end).json()["series"] == first  # computed again from nothing
        return [s["tag_set"] for s in first]

    assert asked() == [["host:web-1"], ["host:web-2"]]
    series.set_override(world, "orders.latency.p99", ["host:web-1"], 1500, since=(START - 300) * US)
    assert asked() == [["host:web-1"], ["host:web-2"]]
    point = {
        "metric": "orders.latency.p99",
        "tags": ["service:orders", "env:prod", "host:web-2"],
        "points": [{"timestamp": START - 600, "value": 2500}],
    }
    assert dd.raw("POST", "/api/v2/series", json={"series": [point]}).status_code == 202
    assert asked() == [["host:web-1"], ["host:web-2"]]
    series.set_override(world, "orders.latency.p99", ["host:web-3"], 900, since=(START - 120) * US)
    assert asked() == [["host:web-1"], ["host:web-2"], ["host:web-3"]]
    before = _query(dd, query, start, end).json()
    at = world.begin_call()
    series.end_override(world, "orders.latency.p99", ["host:web-1"], at=(START - 240) * US)
    world.rollback()
    world.end_call(at, service="datadog", method="POST", path="/x", status=500)
    assert _query(dd, query, start, end).json() == before
    assert asked() == [["host:web-1"], ["host:web-2"], ["host:web-3"]]
