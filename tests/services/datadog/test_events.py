"""Events: the v1 stream (`GET`/`POST /api/v1/events`) and the v2 search (`POST /api/v2/events/search`,
`GET /api/v2/events`), through datadog-api-client and raw httpx; and the `record`/`diff`/`writes` checks
on `datadog.events`."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.services.datadog.store import EVENTS
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds
SCENE = """
name: dd-events
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    users: [{ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}]
    events:
      - {ref: deploy, title: "Deployed orders v1.4", text: "Rolled out by maya", tags: [service:orders, env:prod],
         source_type_name: github, host: web-1, ago: 10m}
      - {ref: alert1, title: "Orders latency high", text: "p99 above 800ms", alert_type: error, tags: [service:orders],
         aggregation_key: latency, source_type_name: monitor, ago: 6m}
      - {ref: alert2, title: "Orders latency high", text: "p99 above 900ms", alert_type: error, tags: [service:orders],
         aggregation_key: latency, source_type_name: monitor, ago: 4m}
      - {ref: low, title: "Nightly backup done", text: "ok", alert_type: success, priority: low, tags: [team:db],
         ago: 2h}
      - {ref: later, title: "Scheduled restart", text: "soon", at: "2026-03-02T14:30:00Z"}
"""


@pytest.fixture(scope="module")
def events(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def listing(dd: DatadogWorld, **params: Any) -> Any:
    return dd.raw("GET", "/api/v1/events", params={"start": START - 86400, "end": START + 86400, **params})


def titles(response: Any) -> list[str]:
    assert response.status_code == 200, response.text
    return [e["title"] for e in response.json()["events"]]


def test_raw_list_shape(events: DatadogWorld) -> None:
    response = listing(events, unaggregated="true", tags="env:prod")
    assert response.json() == {
        "events": [
            {
                "id": int(events.ref("deploy")),
                "id_str": events.ref("deploy"),
                "title": "Deployed orders v1.4",
                "text": "Rolled out by maya",
                "date_happened": START - 600,
                "alert_type": "info",
                "priority": "normal",
                "tags": ["service:orders", "env:prod"],
                "url": f"https://app.datadoghq.com/event/event?id={events.ref('deploy')}",
                "host": "web-1",
                "source_type_name": "github",
                "is_aggregate": False,
                "resource": f"/api/v1/events/{events.ref('deploy')}",
            }
        ],
        "status": "ok",
    }


def test_list_filters_and_aggregation(events: DatadogWorld) -> None:
    # Newest first; the two latency alerts are one aggregate; the 14:30 event has not happened yet.
    assert titles(listing(events)) == ["Orders latency high", "Deployed orders v1.4", "Nightly backup done"]
    aggregate = listing(events).json()["events"][0]
    assert aggregate["id"] == int(events.ref("alert2")) and aggregate["is_aggregate"] is True
    assert [c["id"] for c in aggregate["children"]] == [int(events.ref("alert2")), int(events.ref("alert1"))]
    assert titles(listing(events, unaggregated="true")) == [
        "Orders latency high",
        "Orders latency high",
        "Deployed orders v1.4",
        "Nightly backup done",
    ]
    assert len(titles(listing(events, exclude_aggregate="true"))) == 4
    assert titles(listing(events, priority="low")) == ["Nightly backup done"]
    assert titles(listing(events, sources="GitHub,nagios")) == ["Deployed orders v1.4"]
    assert titles(listing(events, tags="service:orders,env:prod", unaggregated="true")) == ["Deployed orders v1.4"]
    assert titles(listing(events, start=START - 420, end=START)) == ["Orders latency high"]
    assert titles(listing(events, page=1)) == []


def test_sdk_list(events: DatadogWorld) -> None:
    from datadog_api_client.v1.api.events_api import EventsApi
    from datadog_api_client.v1.model.event_priority import EventPriority

    with events.client() as client:
        response = EventsApi(client).list_events(start=START - 3600, end=START, priority=EventPriority.NORMAL)
    assert [e.title for e in response.events] == ["Orders latency high", "Deployed orders v1.4"]
    first = response.events[0]
    assert first.id == int(events.ref("alert2")) and first.date_happened == START - 240
    assert str(first.alert_type) == "error" and first.source_type_name == "monitor"
    assert response.status == "ok"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"end": START}, "Missing required parameter 'start' (epoch seconds)"),
        ({"start": START}, "Missing required parameter 'end' (epoch seconds)"),
        ({"start": "yesterday", "end": START}, "The value provided for parameter 'start' is invalid"),
        ({"start": 0, "end": START, "priority": "high"}, "The value provided for parameter 'priority' is invalid"),
        (
            {"start": 0, "end": START, "unaggregated": "yes"},
            "The value provided for parameter 'unaggregated' is invalid",
        ),
        ({"start": 0, "end": START, "page": -1}, "The value provided for parameter 'page' is invalid"),
    ],
)
def test_list_errors(events: DatadogWorld, params: dict[str, Any], message: str) -> None:
    response = events.raw("GET", "/api/v1/events", params=params)
    assert response.status_code == 400 and response.json() == {"errors": [message]}


def test_sdk_create_with_the_api_key_only(dd: DatadogWorld) -> None:
    from datadog_api_client import ApiClient, Configuration
    from datadog_api_client.v1.api.events_api import EventsApi
    from datadog_api_client.v1.model.event_alert_type import EventAlertType
    from datadog_api_client.v1.model.event_create_request import EventCreateRequest

    configuration = Configuration(host=dd.url, api_key={"apiKeyAuth": dd.api_key})
    body = EventCreateRequest(
        title="Rollback of orders",
        text="Rolled back to v1.3",
        tags=["service:orders"],
        alert_type=EventAlertType.WARNING,
        aggregation_key="rollback",
    )
    with ApiClient(configuration) as client:
        response = EventsApi(client).create_event(body=body)
    assert response.status == "ok"
    event = response.event
    record = dd.record(EVENTS, str(event.id))
    assert record["title"] == "Rollback of orders" and record["alert_type"] == "warning"
    assert event.date_happened == START and record["date_happened"] == START * 1_000_000
    assert event.url == f"https://app.datadoghq.com/event/event?id={event.id}"
    assert (event.aggregation_key, event.to_dict()["handle"], event.priority) == ("rollback", None, None)
    trace = dd.live.trace()
    assert trace[-1]["operation"] == "POST /api/v1/events" and trace[-1]["status"] == 202


def test_raw_create_and_validation(dd: DatadogWorld) -> None:
    response = dd.raw(
        "POST", "/api/v1/events", json={"title": "Manual note", "text": "hello", "date_happened": START - 30}
    )
    assert response.status_code == 202
    body = response.json()
    event_id = body["event"]["id"]
    assert body == {
        "status": "ok",
        "event": {
            "id": event_id,
            "id_str": str(event_id),
            "title": "Manual note",
            "text": "hello",
            "date_happened": START - 30,
            "handle": None,
            "priority": None,
            "related_event_id": None,
            "tags": [],
            "url": f"https://app.datadoghq.com/event/event?id={event_id}",
        },
    }
    assert dd.record(EVENTS, str(event_id))["priority"] == "normal"
    given = {"title": "t", "text": "t", "priority": "low", "host": "web-1", "related_event_id": event_id}
    echoed = dd.raw("POST", "/api/v1/events", json=given).json()["event"]
    assert (echoed["priority"], echoed["host"], echoed["related_event_id"]) == ("low", "web-1", event_id)
    oldest = dd.raw("POST", "/api/v1/events", json={"title": "t", "text": "t", "date_happened": START - 18 * 3600 + 60})
    assert oldest.status_code == 202
    before = len(dd.live.world[EVENTS])
    for payload, message in [
        ({"text": "no title"}, "Event title is required"),
        ({"title": "no text"}, "Event text is required"),
        ({"title": "x" * 101, "text": "t"}, "Invalid 'title': longer than 100 characters"),
        ({"title": "t", "text": "x" * 4001}, "Invalid 'text': longer than 4000 characters"),
        (
            {"title": "t", "text": "t", "aggregation_key": "k" * 101},
            "Invalid 'aggregation_key': longer than 100 characters",
        ),
        (
            {"title": "t", "text": "t", "alert_type": "panic"},
            "Invalid 'alert_type': expected one of error, warning, info, success, user_update, recommendation, "
            + "snapshot, found 'panic'",
        ),
        ({"title": "t", "text": "t", "tags": "env:prod"}, "Invalid 'tags': expected a list of strings"),
        ({"title": "t", "text": "t", "date_happened": "now"}, "Invalid 'date_happened': expected epoch seconds"),
        ({"title": "t", "text": "t", "date_happened": 1}, "Event too far in the past"),  # Datadog's recorded answer
        ({"title": "t", "text": "t", "date_happened": START - 18 * 3600 - 1}, "Event too far in the past"),
    ]:
        response = dd.raw("POST", "/api/v1/events", json=payload)
        assert response.status_code == 400 and response.json() == {"errors": [message]}
    assert len(dd.live.world[EVENTS]) == before


def test_v2_search_sdk(events: DatadogWorld) -> None:
    from datadog_api_client.v2.api.events_api import EventsApi
    from datadog_api_client.v2.model.events_list_request import EventsListRequest
    from datadog_api_client.v2.model.events_query_filter import EventsQueryFilter
    from datadog_api_client.v2.model.events_request_page import EventsRequestPage

    with events.client() as client:
        body = EventsListRequest(
            filter=EventsQueryFilter(query="source:monitor status:error", _from="now-1h", to="now"),
            page=EventsRequestPage(limit=1),
        )
        first = EventsApi(client).search_events(body=body)
        every = list(EventsApi(client).search_events_with_pagination(body=body))
    assert len(first.data) == 1 and first.meta.page.after
    item = first.data[0]
    assert item.attributes.attributes.evt.id == events.ref("alert2")
    assert item.attributes.attributes.title == "Orders latency high"
    assert str(item.attributes.attributes.status) == "error"
    shown = item.attributes.attributes.to_dict()
    assert (shown["aggregation_key"], shown["event_object"], shown["service"]) == ("latency", "latency", "orders")
    assert item.attributes.message == "p99 above 900ms"
    assert [e.attributes.attributes.evt.id for e in every] == [events.ref("alert2"), events.ref("alert1")]


def test_v2_search_raw(events: DatadogWorld) -> None:
    response = events.raw(
        "POST", "/api/v2/events/search", json={"filter": {"query": "service:orders deployed", "from": "now-1h"}}
    )
    assert response.status_code == 200
    [item] = response.json()["data"]
    assert item["type"] == "event"
    assert item["attributes"]["timestamp"] == "2026-03-02T13:50:00.000Z"
    assert item["attributes"]["attributes"]["timestamp"] == (START - 600) * 1000
    assert item["attributes"]["attributes"]["hostname"] == "web-1"
    assert item["attributes"]["attributes"]["service"] == "orders"
    assert item["attributes"]["tags"] == ["service:orders", "env:prod"]
    get = events.raw("GET", "/api/v2/events", params={"filter[query]": "team:db", "filter[from]": "now-3h"})
    [backup] = get.json()["data"]
    assert (backup["attributes"]["attributes"]["title"], backup["attributes"]["attributes"]["service"]) == (
        "Nightly backup done",
        "undefined",
    )
    bad = events.raw("POST", "/api/v2/events/search", json={"filter": {"query": "(x"}})
    assert bad.status_code == 400 and bad.json() == {"errors": ["Invalid query '(x': unbalanced parentheses"]}


def checks(dd: DatadogWorld, **given: dict[str, Any]) -> dict[str, bool | None]:
    """Each check's result on the live world now."""
    body = {"checks": [{"id": name, **check} for name, check in given.items()]}
    response = dd.live.http.post(f"{dd.live.control}/checks", json=body)
    assert response.status_code == 200, response.text
    return {c["id"]: c["passed"] for c in response.json()["checks"]}


def test_checks_on_events(dd: DatadogWorld) -> None:
    dd.raw("POST", "/api/v1/events", json={"title": "Rollback of orders", "text": "done", "tags": ["service:orders"]})
    assert checks(
        dd,
        found={"state": {"record": {"collection": "datadog.events", "where": {"title": "rollback"}}}},
        missing={"state": {"record": {"collection": "datadog.events", "where": {"title": "nothing"}}}},
        added={"state": {"diff": {"collection": "datadog.events", "change": "added", "where": {"text": "done"}}}},
        one_write={"state": {"writes": {"collection": "datadog.events", "min": 1, "max": 1}}},
        none={"state": {"writes": {"collection": "datadog.events", "max": 0}}},
    ) == {"found": True, "missing": False, "added": True, "one_write": True, "none": False}


def test_seed_errors() -> None:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    events:\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + "      - {title: t, alert_type: panic}\n"))
    assert caught.value.field == "seed.datadog.events[0].alert_type"
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + "      - {title: a, id: 5}\n      - {title: b, id: 5}\n"))
    assert caught.value.message == "event id 5 is used twice"
