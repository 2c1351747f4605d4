"""The world's people answering the agent's invitations: after their delay, by their calendar or their decision,
once per revision of an event, seen through Calendar's API and in the log."""

from __future__ import annotations

from typing import Any

import pytest
from tests.services.calendar.conftest import calendar_world
from tests.services.google_world import SCENE as GOOGLE_SCENE
from tests.services.google_world import GoogleWorld

from soundstage.checks import score_custom
from soundstage.checks.transcript import transcript
from soundstage.grading.attempt import Attempt

# The Google test scene and Priya. Omar (London) answers in 10 minutes by his calendars: a dentist at 10:00 on
# Tuesday, a gym hour he is free in (transparent), a pager hour on his on-call calendar on Wednesday. Priya answers
# in an hour, by her decision.
SCENE = (
    GOOGLE_SCENE
    + """      - {ref: priya, name: priya, real_name: Priya Raman, email: priya@acme.test}
  calendar:
    calendars:
      - {ref: oncall, owner: $omar, summary: On-call}
    events:
      - {ref: dentist, calendar: $omar, summary: Dentist, start: "2026-03-03T10:00:00Z", duration: 1h}
      - {ref: gym, calendar: $omar, summary: Gym, start: "2026-03-03T12:00:00Z", duration: 1h,
         transparency: transparent}
      - {ref: pager, calendar: $oncall, summary: Pager, start: "2026-03-04T10:00:00Z", duration: 1h}
      - {ref: review, calendar: $omar, summary: Review, start: "2026-03-05T10:00:00Z", attendees: [$maya, $priya]}
people:
  - {ref: omar, slack_user: $omar, reply_after: 10m}
  - ref: priya
    slack_user: $priya
    reply_after: 1h
    decisions:
      - {id: invites, invitation: true, options: [accepted, tentative, declined], default: tentative}
"""
)


@pytest.fixture
def cal(stage: Any) -> GoogleWorld:
    return calendar_world(stage.world(scene_yaml=SCENE))


def invite(cal: GoogleWorld, start: str, end: str, *who: str, summary: str = "Sync") -> str:
    body = {
        "summary": summary,
        "start": {"dateTime": start},
        "end": {"dateTime": end},
        "attendees": [{"email": email} for email in who],
    }
    response = cal.raw("POST", "calendars/primary/events", json=body)
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


def answers(cal: GoogleWorld, event_id: str) -> dict[str, str]:
    got = cal.raw("GET", f"calendars/primary/events/{event_id}").json()
    return {a["email"]: a["responseStatus"] for a in got["attendees"]}


def answered(cal: GoogleWorld) -> list[dict[str, Any]]:
    return [e for e in cal.live.events() if e["kind"] in ("answered", "decided")]


def test_a_free_person_accepts_after_their_delay(cal: GoogleWorld) -> None:
    event_id = invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    assert cal.live.advance("9m")["now"] == "2026-03-02T14:09:05Z"
    assert answers(cal, event_id) == {"omar@acme.test": "needsAction"}
    assert answered(cal) == []
    cal.live.advance("1m")
    omar = cal.ref("omar")
    seq = next(e["seq"] for e in cal.live.events() if e["kind"] == "answered")
    write, event = cal.live.events()[seq - 2 : seq]
    assert write == {
        "seq": seq - 1,
        "kind": "write",
        "t": "2026-03-02T14:10:00Z",
        "collection": "calendar.events",
        "op": "changed",
        "id": f"maya@acme.test/{event_id}",
        "fields": ["attendees", "updated"],
        "by": None,
    }
    assert event == {
        "seq": seq,
        "kind": "answered",
        "t": "2026-03-02T14:10:00Z",
        "person": omar,
        "service": "calendar",
        "event": event_id,
        "revision": 0,
        "response": "accepted",
        "reason": "free",
        "conflict": None,
        "decision": None,
        "by": "maya@acme.test",
    }
    got = cal.raw("GET", f"calendars/primary/events/{event_id}").json()
    assert got["attendees"] == [{"email": "omar@acme.test", "responseStatus": "accepted"}]
    assert (got["updated"], got["etag"], got["sequence"]) == ("2026-03-02T14:10:00.000Z", '"1772460600000000"', 0)
    # The official client reads the answer on the organizer's calendar; Omar's calendar shows the same record.
    listed = cal.client().events().list(calendarId="primary", q="Sync").execute()["items"]
    assert [a["responseStatus"] for a in listed[0]["attendees"]] == ["accepted"]
    assert cal.live.world["calendar.events"].one(f"maya@acme.test/{event_id}")["attendees"][0]["responseStatus"] == (
        "accepted"
    )


def test_a_busy_person_declines_and_a_transparent_event_keeps_nobody_busy(cal: GoogleWorld) -> None:
    clash = invite(cal, "2026-03-03T10:30:00Z", "2026-03-03T11:00:00Z", "omar@acme.test", summary="Clash")
    gym = invite(cal, "2026-03-03T12:00:00Z", "2026-03-03T12:30:00Z", "omar@acme.test", summary="Lunch")
    pager = invite(cal, "2026-03-04T10:30:00Z", "2026-03-04T11:30:00Z", "omar@acme.test", summary="On-call clash")
    cal.live.advance("10m")
    assert [(e["event"], e["response"], e["reason"], e["conflict"], e["t"]) for e in answered(cal)] == [
        (clash, "declined", "busy", cal.ref("dentist"), "2026-03-02T14:10:00Z"),
        (gym, "accepted", "free", None, "2026-03-02T14:10:05Z"),
        (pager, "declined", "busy", cal.ref("pager"), "2026-03-02T14:10:10Z"),
    ]
    assert answers(cal, clash) == {"omar@acme.test": "declined"}
    # A declined event keeps him free: free/busy, through the official client, shows the dentist alone.
    busy = (
        cal.client()
        .freebusy()
        .query(
            body={
                "timeMin": "2026-03-03T00:00:00Z",
                "timeMax": "2026-03-04T00:00:00Z",
                "items": [{"id": "omar@acme.test"}],
            }
        )
        .execute()
    )
    assert busy["calendars"]["omar@acme.test"]["busy"] == [
        {"start": "2026-03-03T10:00:00Z", "end": "2026-03-03T11:00:00Z"},
        {"start": "2026-03-03T12:00:00Z", "end": "2026-03-03T12:30:00Z"},
    ]


def test_an_accepted_invitation_keeps_them_busy_for_the_next(cal: GoogleWorld) -> None:
    first = invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    second = invite(cal, "2026-03-03T15:30:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    cal.live.advance("10m")
    assert [(e["event"], e["response"], e["conflict"]) for e in answered(cal)] == [
        (first, "accepted", None),
        (second, "declined", first),
    ]


def test_a_decision_overrides_the_calendar(cal: GoogleWorld) -> None:
    event_id = invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "priya@acme.test", "omar@acme.test")
    cal.live.advance("59m")
    assert [(e["kind"], e["person"], e["t"]) for e in answered(cal)] == [
        ("answered", cal.ref("omar"), "2026-03-02T14:10:00Z")
    ]
    cal.live.advance("1m")
    priya = cal.ref("priya")
    assert answered(cal)[1:] == [
        {
            "seq": answered(cal)[1]["seq"],
            "kind": "answered",
            "t": "2026-03-02T15:00:00Z",
            "person": priya,
            "service": "calendar",
            "event": event_id,
            "revision": 0,
            "response": "tentative",
            "reason": "decision",
            "conflict": None,
            "decision": "priya.invites",
            "by": "maya@acme.test",
        },
        {
            "seq": answered(cal)[1]["seq"] + 1,
            "kind": "decided",
            "t": "2026-03-02T15:00:00Z",
            "person": priya,
            "decision": "priya.invites",
            "option": "tentative",
            "by": "maya@acme.test",
            "ts": None,
        },
    ]
    assert answers(cal, event_id) == {"priya@acme.test": "tentative", "omar@acme.test": "accepted"}
    evaluation = score_custom(
        cal.live.world,
        [
            {"id": "decided", "decided": {"person": "$priya", "decision": "invites", "option": "tentative"}},
            {
                "id": "answers",
                "state": {
                    "calendar.event": {"event": event_id, "responses": {"$priya": "tentative", "$omar": "accepted"}}
                },
            },
        ],
    )
    assert [(c.id, c.passed) for c in evaluation.checks] == [("decided", True), ("answers", True)]


def test_a_moved_event_is_answered_again_and_another_change_is_not(cal: GoogleWorld) -> None:
    event_id = invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    cal.live.advance("10m")
    path = f"calendars/primary/events/{event_id}"
    assert cal.raw("PATCH", path, json={"summary": "Sync, agenda inside"}).status_code == 200
    moved = {"start": {"dateTime": "2026-03-03T10:15:00Z"}, "end": {"dateTime": "2026-03-03T10:45:00Z"}}
    assert cal.raw("PATCH", path, json=moved).json()["sequence"] == 1
    cal.live.advance("10m")
    assert [(e["revision"], e["response"], e["conflict"], e["t"]) for e in answered(cal)] == [
        (0, "accepted", None, "2026-03-02T14:10:00Z"),
        (1, "declined", cal.ref("dentist"), "2026-03-02T14:20:10Z"),
    ]
    assert answers(cal, event_id) == {"omar@acme.test": "declined"}


def test_a_cancelled_event_or_an_uninvited_person_is_not_answered(cal: GoogleWorld) -> None:
    cancelled = invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    assert cal.raw("DELETE", f"calendars/primary/events/{cancelled}").status_code == 204
    dropped = invite(cal, "2026-03-03T17:00:00Z", "2026-03-03T18:00:00Z", "omar@acme.test")
    assert cal.raw("PATCH", f"calendars/primary/events/{dropped}", json={"attendees": []}).status_code == 200
    cal.live.advance("1h")
    assert answered(cal) == []
    assert answers(cal, cancelled) == {"omar@acme.test": "needsAction"}


def test_the_same_calls_give_the_same_log(stage: Any) -> None:
    def run() -> list[dict[str, Any]]:
        cal = calendar_world(stage.world(scene_yaml=SCENE))
        first = invite(cal, "2026-03-03T10:30:00Z", "2026-03-03T11:00:00Z", "omar@acme.test", "priya@acme.test")
        invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
        cal.raw("PATCH", f"calendars/primary/events/{first}", json={"start": {"dateTime": "2026-03-03T09:00:00Z"}})
        cal.live.advance("2h")
        return cal.live.events()

    # The first event's first revision is never answered: it was moved before anyone's delay had passed.
    once, again = run(), run()
    assert once == again
    assert [e["response"] for e in once if e["kind"] == "answered"] == ["accepted", "declined", "tentative"]


def test_the_agents_own_answer_invites_nobody(cal: GoogleWorld) -> None:
    review = cal.ref("review")
    mine = {"attendees": [{"email": "maya@acme.test", "responseStatus": "accepted"}]}
    assert cal.raw("PATCH", f"calendars/primary/events/{review}", json=mine).status_code == 200
    cal.live.advance("2h")
    assert answered(cal) == []


def test_a_fork_answers_as_its_parent_does(cal: GoogleWorld) -> None:
    invite(cal, "2026-03-03T10:30:00Z", "2026-03-03T11:00:00Z", "omar@acme.test", "priya@acme.test")
    world = cal.live.world
    fork = world.fork("fork")
    for each in (world, fork):
        each.advance(3600 * 1_000_000)
    theirs = [e.model_dump(mode="json") for e in fork.log.events if e.kind == "answered"]
    assert [(e["response"], e["reason"]) for e in theirs] == [("declined", "busy"), ("tentative", "decision")]
    assert theirs == [e for e in answered(cal) if e["kind"] == "answered"]


def test_the_judges_transcript_says_each_answer_and_why(cal: GoogleWorld) -> None:
    clash = invite(cal, "2026-03-03T10:30:00Z", "2026-03-03T11:00:00Z", "omar@acme.test", "priya@acme.test")
    cal.live.advance("1h")
    said = [line for line in transcript(Attempt.from_world(cal.live.world), lambda v: v) if "answered" in line]
    dentist = cal.ref("dentist")
    assert said == [
        f"14:10:00 Omar Haddad answered the invitation to event {clash}: declined (busy with event {dentist})",
        f"15:00:00 Priya Raman answered the invitation to event {clash}: tentative (by priya.invites)",
    ]
