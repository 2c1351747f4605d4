"""Calendar's batch requests (`/batch/calendar/v3`): events inserted and read in one request through the official
client's BatchHttpRequest, each call logged as its own; Calendar's limit of 1,000 calls."""

from __future__ import annotations

import json
from typing import Any

from googleapiclient.errors import HttpError
from googleapiclient.http import BatchHttpRequest
from tests.services.calendar.test_events import STANDUP
from tests.services.google_world import GoogleWorld


def batch_url(world: GoogleWorld) -> str:
    """Calendar's batch path under the world's URL: `GOOGLE_CALENDAR_API_URL` ends with the API's own
    `calendar/v3/`, which the batch path replaces."""
    return world.url.removesuffix("calendar/v3/") + "batch/calendar/v3"


def test_the_clients_own_batch_url_is_googles_host(cal_read: GoogleWorld) -> None:
    assert cal_read.client().new_batch_http_request()._batch_uri == "https://www.googleapis.com/batch/calendar/v3"


def test_insert_and_get_in_one_batch(cal: GoogleWorld) -> None:
    client = cal.client()
    answers: dict[str, Any] = {}

    def answered(request_id: str, response: Any, exception: HttpError | None) -> None:
        answers[request_id] = (exception.resp.status, json.loads(exception.content)) if exception else response

    first = BatchHttpRequest(callback=answered, batch_uri=batch_url(cal))
    retro = {**STANDUP, "summary": "Retro", "attendees": []}
    first.add(client.events().insert(calendarId="primary", body=STANDUP), request_id="standup")
    first.add(client.events().insert(calendarId="primary", body=retro), request_id="retro")
    first.add(client.events().get(calendarId="primary", eventId="nosuchevent"), request_id="missing")
    first.execute()
    standup, made_retro = answers["standup"], answers["retro"]
    assert (standup["summary"], made_retro["summary"]) == ("Orders standup", "Retro")
    assert answers["missing"][0] == 404
    assert answers["missing"][1]["error"]["errors"][0]["reason"] == "notFound"

    second = BatchHttpRequest(callback=answered, batch_uri=batch_url(cal))
    for name, event in (("got_standup", standup), ("got_retro", made_retro)):
        second.add(client.events().get(calendarId="primary", eventId=event["id"]), request_id=name)
    second.execute()
    assert (answers["got_standup"], answers["got_retro"]) == (standup, made_retro)
    logged = [(c.method, c.path, c.status) for c in cal.live.world.log.calls()]
    assert logged == [
        ("POST", "/calendar/v3/calendars/primary/events", 200),
        ("POST", "/calendar/v3/calendars/primary/events", 200),
        ("GET", "/calendar/v3/calendars/primary/events/nosuchevent", 404),
        ("GET", f"/calendar/v3/calendars/primary/events/{standup['id']}", 200),
        ("GET", f"/calendar/v3/calendars/primary/events/{made_retro['id']}", 200),
    ]
    # Each call its own: the clock ticked once a call, as for calls sent alone.
    assert [c.t for c in cal.live.world.log.calls()][:2] == ["2026-03-02T14:00:00Z", "2026-03-02T14:00:05Z"]


def test_calendar_takes_a_thousand_calls(cal: GoogleWorld) -> None:
    call = "--b\r\nContent-Type: application/http\r\n\r\nGET /calendar/v3/colors\r\n\r\n"
    refused = cal.live.http.post(
        batch_url(cal),
        content=(call * 1001 + "--b--\r\n").encode(),
        headers={"Authorization": f"Bearer {cal.token}", "Content-Type": "multipart/mixed; boundary=b"},
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "Inner request count exceeds the limit. Received: 1001, Limit: 1000"
    assert [(c.path, c.operation) for c in cal.live.world.log.calls()] == [("/batch/calendar/v3", "batch")]
