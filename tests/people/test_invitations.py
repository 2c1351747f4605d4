"""A person's decision on invitations: chosen by its conditions when they answer, else their calendar decides;
never asked in Slack."""

from __future__ import annotations

from typing import Any

import pytest
from tests.people.conftest import cast_of
from tests.services.calendar.conftest import calendar_world
from tests.services.calendar.test_invitations import SCENE, invite
from tests.services.google_world import GoogleWorld

from soundstage.errors import SpecError

# Omar declines whatever he is invited to once an offsite is on the agent's calendar; otherwise his calendar says.
OFFSITE = SCENE.replace(
    "  - {ref: omar, slack_user: $omar, reply_after: 10m}\n",
    """  - ref: omar
    slack_user: $omar
    reply_after: 10m
    decisions:
      - id: invites
        invitation: true
        options: [declined]
        choose:
          - {option: declined, if: {state: {calendar.event: {calendar: $maya, summary_contains: Offsite}}}}
""",
)


@pytest.fixture
def cal(stage: Any) -> GoogleWorld:
    return calendar_world(stage.world(scene_yaml=OFFSITE))


def answers(cal: GoogleWorld) -> list[tuple[str, str, str, str | None]]:
    return [
        (e["kind"], e["t"], e.get("response") or e["option"], e["decision"])
        for e in cal.live.events()
        if e["kind"] in ("answered", "decided")
    ]


def test_without_a_choice_that_holds_their_calendar_decides(cal: GoogleWorld) -> None:
    invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    cal.live.advance("10m")
    assert answers(cal) == [("answered", "2026-03-02T14:10:00Z", "accepted", None)]


def test_a_choice_is_made_when_they_answer(cal: GoogleWorld) -> None:
    invite(cal, "2026-03-03T15:00:00Z", "2026-03-03T16:00:00Z", "omar@acme.test")
    invite(cal, "2026-03-06T09:00:00Z", "2026-03-06T17:00:00Z", summary="Offsite")  # before his answer is due
    cal.live.advance("10m")
    assert answers(cal) == [
        ("answered", "2026-03-02T14:10:00Z", "declined", "omar.invites"),
        ("decided", "2026-03-02T14:10:00Z", "declined", "omar.invites"),
    ]


def test_a_decision_on_invitations_is_not_a_question_of_slack() -> None:
    cast = cast_of(OFFSITE)
    decision = cast.decisions["omar.invites"]
    assert (decision.key, decision.invitation, decision.ask.phrases) == ("omar.invites", True, ())
    assert cast.person("omar").on_invitation is decision  # type: ignore[union-attr]
    assert cast.person("priya").on_invitation is not None  # type: ignore[union-attr]
    with pytest.raises(SpecError, match="has a decision on invitations already"):
        cast_of(
            OFFSITE.replace(
                "Offsite}}}}\n",
                "Offsite}}}}\n      - {id: more, invitation: true, options: [accepted]}\n",
            )
        )


def test_outside_their_working_hours_they_decline(stage: Any) -> None:
    hours = '    working_hours: {from: "09:00", to: "17:00"}\n'
    cal = calendar_world(
        stage.world(scene_yaml=OFFSITE.replace("    reply_after: 10m\n", "    reply_after: 10m\n" + hours))
    )
    late = invite(cal, "2026-03-03T17:00:00Z", "2026-03-03T18:00:00Z", "omar@acme.test")  # 17:00 in London
    day = invite(cal, "2026-03-03T16:00:00Z", "2026-03-03T17:00:00Z", "omar@acme.test")
    saturday = invite(cal, "2026-03-07T10:00:00Z", "2026-03-07T11:00:00Z", "omar@acme.test")
    body = {"summary": "Away day", "start": {"date": "2026-03-07"}, "end": {"date": "2026-03-08"}}
    body["attendees"] = [{"email": "omar@acme.test"}]
    all_day = cal.raw("POST", "calendars/primary/events", json=body).json()["id"]
    cal.live.advance("10m")
    said = [(e["event"], e["response"], e["reason"]) for e in cal.live.events() if e["kind"] == "answered"]
    assert said == [
        (late, "declined", "hours"),
        (day, "accepted", "free"),
        (saturday, "declined", "hours"),
        (all_day, "accepted", "free"),  # a day alone has no hours to fall outside
    ]
