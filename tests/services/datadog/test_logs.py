"""Log search (`POST /api/v2/logs/events/search`, `GET /api/v2/logs/events`) through datadog-api-client and
raw httpx: the search syntax, time windows, sort, cursor paging, errors, and seeded `generate` noise."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.services.datadog.store import LOGS
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

SCENE = """
name: dd-logs
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    users: [{ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}]
    logs:
      - ago: 2m
        message: "Timeout after 3000ms calling payments-1.internal"
        service: orders
        host: web-1
        status: error
        tags: [env:prod, version:1.4]
        attributes: {http: {status_code: 504, method: POST}, duration: 3000000000, customer: {ids: [7, 9]}}
      - {ago: 3m, message: "Processed order 123 in 12ms", service: orders, host: web-2, tags: [env:prod, source:nginx],
         attributes: {http: {status_code: 200, method: GET}}}
      - {ago: 5m, message: "Slow query on carts took 2000ms", service: cart, host: web-1, status: warn,
         tags: [env:staging]}
      - {ago: 1h, message: "old failure in orders", service: orders, host: web-1, status: error}
      - {at: "2026-03-02T14:10:00Z", message: "later failure", service: orders, host: web-1, status: error}
  generate:
    datadog.logs: {count: 23, services: [search, ranker], hosts: [web-3, web-4], span: 10m, tags: [env:prod]}
"""
START_MS = 1772460000000  # 2026-03-02T14:00:00Z
TIMEOUT = "Timeout after 3000ms calling payments-1.internal"


@pytest.fixture(scope="module")
def logs(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def search(dd: DatadogWorld, body: dict[str, Any]) -> Any:
    return dd.raw("POST", "/api/v2/logs/events/search", json=body)


def messages(dd: DatadogWorld, query: str, **filters: Any) -> list[str]:
    response = search(dd, {"filter": {"query": query, "from": "now-2h", **filters}, "page": {"limit": 1000}})
    assert response.status_code == 200, response.text
    return [item["attributes"]["message"] for item in response.json()["data"]]


def test_sdk_search_parses_every_field(logs: DatadogWorld) -> None:
    from datadog_api_client.v2.api.logs_api import LogsApi
    from datadog_api_client.v2.model.logs_list_request import LogsListRequest
    from datadog_api_client.v2.model.logs_list_request_page import LogsListRequestPage
    from datadog_api_client.v2.model.logs_query_filter import LogsQueryFilter
    from datadog_api_client.v2.model.logs_sort import LogsSort

    with logs.client() as client:
        body = LogsListRequest(
            filter=LogsQueryFilter(query="service:orders status:error", _from="now-15m", to="now"),
            sort=LogsSort.TIMESTAMP_DESCENDING,
            page=LogsListRequestPage(limit=5),
        )
        response = LogsApi(client).list_logs(body=body)
    assert len(response.data) == 1
    log = response.data[0]
    record = next(r for r in logs.live.world[LOGS] if r["message"] == TIMEOUT)
    assert log.id == record["id"] and str(log.type) == "log"
    assert log.attributes.message == TIMEOUT
    assert log.attributes.service == "orders" and log.attributes.host == "web-1" and log.attributes.status == "error"
    assert log.attributes.tags == ["env:prod", "version:1.4"]
    assert log.attributes.timestamp.isoformat() == "2026-03-02T13:58:00+00:00"
    assert log.attributes.attributes["http"] == {"status_code": 504, "method": "POST"}
    assert str(response.meta.status) == "done"
    assert "page" not in response.meta.to_dict() and "links" not in response.to_dict()


def test_raw_search_shape(logs: DatadogWorld) -> None:
    response = search(logs, {"filter": {"query": "service:orders status:error"}})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    record = next(r for r in logs.live.world[LOGS] if r["message"] == TIMEOUT)
    assert body["data"] == [
        {
            "id": record["id"],
            "type": "log",
            "attributes": {
                "timestamp": "2026-03-02T13:58:00.000Z",
                "message": TIMEOUT,
                "status": "error",
                "tags": ["env:prod", "version:1.4"],
                "attributes": {
                    "http": {"status_code": 504, "method": "POST"},
                    "duration": 3000000000,
                    "customer": {"ids": [7, 9]},
                },
                "service": "orders",
                "host": "web-1",
            },
        }
    ]
    assert set(body["meta"]) == {"elapsed", "request_id", "status"} and body["meta"]["status"] == "done"
    assert isinstance(body["meta"]["request_id"], str) and isinstance(body["meta"]["elapsed"], int)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("service:orders status:error", [TIMEOUT, "old failure in orders"]),
        ("service:orders AND status:error", [TIMEOUT, "old failure in orders"]),
        ("service:(cart OR nothing)", ["Slow query on carts took 2000ms"]),
        ("status:warn OR host:web-2", ["Processed order 123 in 12ms", "Slow query on carts took 2000ms"]),
        ("service:ord*", [TIMEOUT, "Processed order 123 in 12ms", "old failure in orders"]),
        ("host:web-1 -status:error", ["Slow query on carts took 2000ms"]),
        ("host:web-1 NOT service:orders", ["Slow query on carts took 2000ms"]),
        ("env:staging", ["Slow query on carts took 2000ms"]),
        ("source:nginx", ["Processed order 123 in 12ms"]),
        ("version:1.*", [TIMEOUT]),
        ("timeout", [TIMEOUT]),
        ("TIME*", [TIMEOUT]),
        ("time", []),
        ('"query on carts"', ["Slow query on carts took 2000ms"]),
        ("@http.status_code:504", [TIMEOUT]),
        ("@http.status_code:>=500", [TIMEOUT]),
        ("@http.status_code:[200 TO 299]", ["Processed order 123 in 12ms"]),
        ("@http.method:get", ["Processed order 123 in 12ms"]),
        ("@customer.ids:9", [TIMEOUT]),
        ("@duration:>1000000000 service:orders", [TIMEOUT]),
        ("(service:cart OR service:orders) failure", ["old failure in orders"]),
        ("service:orders -(status:error)", ["Processed order 123 in 12ms"]),
        ("t*o*a*c*l", [TIMEOUT]),
        ("t*o*a*c*p", []),  # a whole word: no `p` ends one after `calling`
        ("*ms", [TIMEOUT, "Processed order 123 in 12ms", "Slow query on carts took 2000ms"]),
        ("service:o*d*s", [TIMEOUT, "Processed order 123 in 12ms", "old failure in orders"]),
        ("service:*r*t", ["Slow query on carts took 2000ms"]),
        ("query*took", ["Slow query on carts took 2000ms"]),
        ("query*tool", []),
    ],
)
def test_search_syntax(logs: DatadogWorld, query: str, expected: list[str]) -> None:
    assert messages(logs, f"({query}) -service:search -service:ranker") == expected


def test_many_wildcards_cost_no_backtracking(logs: DatadogWorld) -> None:
    # Each would backtrack through 2**50 ways over these values with a plain regular expression.
    assert messages(logs, "service:" + "o*" * 50 + "x") == []
    assert messages(logs, "e*" * 50 + "z") == []
    assert messages(logs, "service:orders @http.method:" + "*" * 50 + "T") == [TIMEOUT, "Processed order 123 in 12ms"]


@pytest.mark.parametrize(
    "query", ["(" * 101 + "timeout" + ")" * 101, "NOT " * 101 + "timeout", "(" * 100_000 + "timeout" + ")" * 100_000]
)
def test_nesting_past_the_limit_is_a_400(logs: DatadogWorld, query: str) -> None:
    response = search(logs, {"filter": {"query": query}})
    assert response.status_code == 400
    (message,) = response.json()["errors"]
    assert message.startswith("Invalid query '") and message.endswith("': parentheses and NOTs nest more than 100 deep")


def test_nesting_up_to_the_limit_is_read(logs: DatadogWorld) -> None:
    assert messages(logs, "(" * 99 + "NOT " + "-status:error" + ")" * 99 + " service:orders") == [
        TIMEOUT,
        "old failure in orders",
    ]


def test_time_windows_and_now(logs: DatadogWorld) -> None:
    assert messages(logs, "service:orders", **{"from": "now-15m"}) == [TIMEOUT, "Processed order 123 in 12ms"]
    by_iso = messages(logs, "service:orders", **{"from": "2026-03-02T12:00:00Z", "to": "2026-03-02T13:30:00Z"})
    assert by_iso == ["old failure in orders"]
    by_ms = messages(logs, "service:orders", **{"from": str(START_MS - 200_000), "to": str(START_MS - 150_000)})
    assert by_ms == ["Processed order 123 in 12ms"]
    # The 14:10 log has not happened yet, whatever the window says.
    assert "later failure" not in messages(logs, "service:orders", to="2026-03-02T15:00:00Z")


def test_later_logs_appear_as_time_passes(stage: Any) -> None:
    live = DatadogWorld(stage.world(SCENE))
    live.live.advance("15m")
    assert messages(live, "service:orders status:error", **{"from": "now-15m"}) == ["later failure"]


def test_sort(logs: DatadogWorld) -> None:
    newest = messages(logs, "service:orders")
    oldest = [
        item["attributes"]["message"]
        for item in search(logs, {"filter": {"query": "service:orders", "from": "now-2h"}, "sort": "timestamp"}).json()[
            "data"
        ]
    ]
    assert newest == [TIMEOUT, "Processed order 123 in 12ms", "old failure in orders"]
    assert oldest == list(reversed(newest))


def test_cursor_paging_raw(logs: DatadogWorld) -> None:
    seen: list[str] = []
    body: dict[str, Any] = {"filter": {"query": "env:prod", "from": "now-1h"}, "page": {"limit": 10}}
    pages = 0
    while True:
        response = search(logs, body).json()
        pages += 1
        seen += [item["id"] for item in response["data"]]
        after = response["meta"].get("page", {}).get("after")
        if not after:
            assert "links" not in response
            break
        assert response["links"]["next"].startswith(logs.url + "/api/v2/logs/events?")
        body["page"]["cursor"] = after
    # 23 generated (all env:prod) and the two env:prod logs of the last hour.
    assert pages == 3 and len(seen) == 25 == len(set(seen))


def test_links_next_is_a_working_get(logs: DatadogWorld) -> None:
    first = search(logs, {"filter": {"query": "env:prod", "from": "now-1h"}, "page": {"limit": 20}}).json()
    follow = logs.raw("GET", first["links"]["next"].removeprefix(logs.url))
    assert follow.status_code == 200
    rest = [item["id"] for item in follow.json()["data"]]
    assert len(rest) == 5 and not set(rest) & {item["id"] for item in first["data"]}
    assert "links" not in follow.json()


def test_sdk_pagination_iterates_every_page(logs: DatadogWorld) -> None:
    from datadog_api_client.v2.api.logs_api import LogsApi
    from datadog_api_client.v2.model.logs_list_request import LogsListRequest
    from datadog_api_client.v2.model.logs_list_request_page import LogsListRequestPage
    from datadog_api_client.v2.model.logs_query_filter import LogsQueryFilter

    with logs.client() as client:
        body = LogsListRequest(filter=LogsQueryFilter(query="*", _from="now-2h"), page=LogsListRequestPage(limit=4))
        items = list(LogsApi(client).list_logs_with_pagination(body=body))
    expected = sorted(
        (r for r in logs.live.world[LOGS] if r["message"] != "later failure"),
        key=lambda r: (r["timestamp"], r["id"]),
        reverse=True,
    )
    assert [item.id for item in items] == [r["id"] for r in expected] and len(items) == 27


def test_sdk_get_form(logs: DatadogWorld) -> None:
    from datadog_api_client.v2.api.logs_api import LogsApi

    with logs.client() as client:
        response = LogsApi(client).list_logs_get(filter_query="@http.status_code:504", page_limit=3)
    assert [log.attributes.message for log in response.data] == [TIMEOUT]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"filter": {"query": "service:(a OR"}}, "Invalid query 'service:(a OR': unbalanced parentheses"),
        ({"filter": {"query": '"open'}}, "Invalid query '\"open': unterminated quote"),
        ({"filter": {"query": "a OR"}}, "Invalid query 'a OR': a term is missing"),
        ({"filter": {"query": "@x:>abc"}}, "Invalid query '@x:>abc': expected a number, found 'abc'"),
        ({"filter": {"query": 5}}, "Invalid 'query': expected a string, found 5"),
        (
            {"filter": {"from": "yesterday"}},
            "Invalid 'from': expected a date (ISO-8601, epoch milliseconds or now-15m), found 'yesterday'",
        ),
        ({"filter": {"from": "now", "to": "now-1h"}}, "Invalid time range: 'from' is after 'to'"),
        ({"sort": "message"}, "Invalid 'sort': expected timestamp or -timestamp, found 'message'"),
        ({"page": {"limit": 1001}}, "Invalid 'page[limit]': expected an integer from 1 to 1000, found 1001"),
        ({"page": {"limit": "5"}}, "Invalid 'page[limit]': expected an integer from 1 to 1000, found '5'"),
        ({"page": {"cursor": "nope"}}, "Invalid 'page[cursor]': 'nope' is not a cursor this search returned"),
        ({"filter": "service:orders"}, "Invalid 'filter': expected an object"),
    ],
)
def test_bad_requests(logs: DatadogWorld, body: dict[str, Any], message: str) -> None:
    response = search(logs, body)
    assert response.status_code == 400
    assert response.json() == {"errors": [message]}


def test_sdk_sees_the_400(logs: DatadogWorld) -> None:
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v2.api.logs_api import LogsApi
    from datadog_api_client.v2.model.logs_list_request import LogsListRequest
    from datadog_api_client.v2.model.logs_query_filter import LogsQueryFilter

    with logs.client() as client, pytest.raises(ApiException) as caught:
        LogsApi(client).list_logs(body=LogsListRequest(filter=LogsQueryFilter(query="(service:orders")))
    assert caught.value.status == 400
    assert caught.value.body == {"errors": ["Invalid query '(service:orders': unbalanced parentheses"]}


def test_keys_are_required(logs: DatadogWorld) -> None:
    response = logs.raw("POST", "/api/v2/logs/events/search", keys=False, json={})
    assert response.status_code == 403 and response.json() == {"errors": ["Forbidden"]}


def test_generated_logs_are_deterministic(logs: DatadogWorld, stage: Any) -> None:
    again = DatadogWorld(stage.world(SCENE))
    first = [dict(r) for r in logs.live.world[LOGS]]
    assert [dict(r) for r in again.live.world[LOGS]] == first
    generated = [r for r in first if r["service"] in ("search", "ranker")]
    assert len(generated) == 23
    assert {r["host"] for r in generated} <= {"web-3", "web-4"}
    assert {r["status"] for r in generated} <= {"info", "warn", "error"}
    assert all(START_MS * 1000 - 600_000_000 <= r["timestamp"] <= START_MS * 1000 for r in generated)
    assert all(r["tags"] == ["env:prod"] and r["message"] for r in generated)
    access = [r for r in generated if "http" in r["attributes"]]
    assert access  # the noise has access lines, with what Datadog's web-server pipelines extract
    for record in access:
        attributes = record["attributes"]
        http, network = attributes["http"], attributes["network"]
        code, sent = http["status_code"], network["bytes_written"]
        assert f'"{http["method"]} {http["url"]} HTTP/{http["version"]}" {code} {sent} ' in record["message"]
        assert http["url"] == http["url_details"]["path"] and http["version"] == "1.1"
        category = {2: "OK", 3: "notice", 4: "warning", 5: "error"}[code // 100]
        assert http["status_category"] == category
        assert attributes["date_access"] == record["timestamp"] // 1000


def build(text: str) -> Any:
    return build_image(*read_scene_text(text))


def test_generate_errors() -> None:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  generate:\n'
    with pytest.raises(SpecError) as caught:
        build(head + "    datadog.events: {count: 3}\n")
    assert caught.value.message == "datadog.events cannot be generated; only datadog.logs can"
    assert caught.value.field == "seed.generate.datadog.events"
    with pytest.raises(SpecError) as caught:
        build(head + "    datadog.logs: {count: 0}\n")
    assert caught.value.field == "seed.generate.datadog.logs.count"
    with pytest.raises(SpecError) as caught:
        build(head + "    datadog.logs: {statuses: {info: 0}}\n")
    assert caught.value.message == "the status weights must add up to more than 0"


def test_seed_errors() -> None:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    logs:\n'
    with pytest.raises(SpecError) as caught:
        build(head + '      - {message: m, ago: 5m, at: "2026-03-02T13:00:00Z"}\n')
    assert caught.value.message == "give either ago or at, not both"
    assert caught.value.field == "seed.datadog.logs[0]"
    with pytest.raises(SpecError) as caught:
        build(head + "      - {message: m, ref: x}\n")
    assert caught.value.message == "logs cannot carry a ref (their ids are opaque)"
