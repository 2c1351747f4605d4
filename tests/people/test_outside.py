"""People outside Slack, given by `email`: a mailbox of the world and nothing in Slack, they hear the agent's mail
and answer it by mail, in its thread, as the world's other people do."""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import LiveWorld
from tests.people.conftest import cast_of
from tests.people.test_mail import send
from tests.services.calendar.conftest import calendar_world
from tests.services.calendar.test_invitations import answers, invite
from tests.services.google_world import SCENE as GOOGLE_SCENE

from soundstage.checks import score_custom
from soundstage.errors import SpecError

# The agent is the bot in Slack and Maya in Google. Dana, Harbor Hall's events manager, only mails: she answers in
# 2 hours, owns the deposit terms and the venue's margin (confidential) and sends whoever asks for the headcount to
# Omar, who owns it and, asked in Slack for the deposit, sends the asker to her.
SCENE = (
    GOOGLE_SCENE.replace("agent: {google_user: $maya}", "agent: {slack_user: $bot, google_user: $maya}")
    + """people:
  - ref: omar
    slack_user: $omar
    reply_after: 5m
    facts:
      - {id: headcount, text: "We are twelve.", match: ["twelve"], ask: ["headcount"], referred_by: [$dana]}
  - ref: dana
    email: Events@HarborHall.example
    name: Dana Wells
    persona: Events manager at Harbor Hall.
    reply_after: 2h
    facts:
      - id: deposit
        text: "A 30% deposit holds the date; the rest is due on the day."
        match: ["30% deposit"]
        ask: ["deposit", "payment"]
        referred_by: [$omar]
      - {id: margin, text: "We clear 40% on the Loft.", match: ["40%"], ask: ["margin"], confidential: true}
"""
)
DANA = "events@harborhall.example"


def events(live: Any, *kinds: str) -> list[tuple[Any, ...]]:
    names = {v: "$" + k for k, v in live.world.refs.items()}
    return [
        (e["t"][11:19], e["kind"], names.get(e.get("person") or e.get("user"), "?"), e.get("fact") or "")
        for e in live.events()
        if e["kind"] in kinds and e.get("source") != "start"
    ]


def thread(live: Any, thread_id: str) -> list[dict[str, Any]]:
    """The agent's thread as its API gives it: each message's From, To, Subject and text."""
    got = live.http.get(
        live.env["GMAIL_API_URL"] + f"gmail/v1/users/me/threads/{thread_id}",
        params={"format": "full"},
        headers={"Authorization": f"Bearer {live.env['GOOGLE_OAUTH_TOKEN']}"},
    ).json()
    out = []
    for message in got["messages"]:
        found = {h["name"]: h["value"] for h in message["payload"]["headers"]}
        out.append({"from": found["From"], "to": found["To"], "subject": found["Subject"], "id": message["id"]})
    return out


def test_a_person_outside_slack_answers_mail_in_the_thread_after_their_delay(people: Any) -> None:
    live = people(SCENE)
    assert live.world.refs["dana"] == DANA
    sent = send(live, "Dana Wells <events@harborhall.example>", "Offsite", "Hi Dana, what deposit do you need?")
    live.advance("119m")
    assert [m["id"] for m in thread(live, sent["threadId"])] == [sent["id"]]
    live.advance("1m")
    said = thread(live, sent["threadId"])
    assert [(m["from"], m["to"], m["subject"]) for m in said] == [
        ("Maya Chen <maya@acme.test>", "Dana Wells <events@harborhall.example>", "Offsite"),
        ("Dana Wells <events@harborhall.example>", "maya@acme.test", "Re: Offsite"),
    ]
    reply = live.world["gmail.messages"].one(said[1]["id"])
    assert reply["internalDate"] == 1772467200000000  # 16:00: the send's time and her 2 hours
    assert (
        reply["text"].strip() == "Yes, I can help with that. A 30% deposit holds the date; the rest is due on the day."
    )
    assert events(live, "message", "asked", "revealed") == [
        ("14:00:00", "message", "$bot", ""),
        ("14:00:00", "asked", "$dana", "dana.deposit"),
        ("16:00:00", "revealed", "$dana", "dana.deposit"),
        ("16:00:00", "message", "$dana", ""),
    ]
    revealed = next(e for e in live.events() if e["kind"] == "revealed")
    assert (revealed["person"], revealed["to"], revealed["ts"]) == (DANA, live.world.refs["bot"], said[1]["id"])
    checks = [
        {"id": "revealed", "revealed": ["dana.deposit"]},
        {"id": "heard", "message": {"from": "$bot", "to": "$dana"}},
        {"id": "answered", "state": {"gmail.message": {"mailbox": "$maya", "from": "$dana", "to": "$maya"}}},
        {"id": "mailed", "state": {"gmail.message": {"mailbox": "$maya", "from": "$maya", "to": "$dana"}}},
        {"id": "knows", "knows": {"person": "$dana", "facts": ["dana.deposit"]}},
        {"id": "told", "told": {"person": "$dana", "facts": ["dana.deposit"]}},
    ]
    evaluation = score_custom(live.world, checks)
    # She was never told her own fact by the agent.
    assert [(c.id, c.passed) for c in evaluation.checks] == [(c["id"], c["id"] != "told") for c in checks]
    # Nothing of her in Slack.
    assert [u for u in live.world["slack.users"] if DANA in str(u)] == []


def test_her_confidential_fact_is_withheld_and_she_refers_to_the_owner(people: Any) -> None:
    live = people(SCENE)
    sent = send(live, DANA, "Offsite", "Dana, what is your margin on the Loft, and what headcount do we have?")
    live.advance("2h")
    said = thread(live, sent["threadId"])
    text = live.world["gmail.messages"].one(said[1]["id"])["text"]
    assert "40%" not in text
    assert "Omar Haddad (omar@acme.test)" in text and "<@" not in text
    assert events(live, "withheld", "referred") == [
        ("16:00:00", "referred", "$dana", "omar.headcount"),
        ("16:00:00", "withheld", "$dana", "dana.margin"),
    ]


def test_a_slack_person_refers_to_her_by_name_and_address(people: Any) -> None:
    live = people(SCENE)
    channel = live.slack().conversations_open(users=live.world.refs["omar"])["channel"]["id"]
    live.slack().chat_postMessage(channel=channel, text="Omar, what deposit does the venue need?")
    live.advance("5m")
    replies = live.slack().conversations_history(channel=channel)["messages"]
    assert "Dana Wells (events@harborhall.example)" in replies[0]["text"]
    referred = [e for e in live.events() if e["kind"] == "referred"]
    assert [(e["person"], e["owner"]) for e in referred] == [(live.world.refs["omar"], DANA)]


def test_the_same_mail_gives_the_same_reply(people: Any) -> None:
    said = []
    for _ in range(2):
        live = people(SCENE)
        sent = send(live, DANA, "Offsite", "Dana, any news on the deposit?")
        live.advance("2h")
        reply = thread(live, sent["threadId"])[1]
        said.append((live.world["gmail.messages"].one(reply["id"])["text"], events(live, "revealed", "asked")))
    assert said[0] == said[1]


@pytest.mark.parametrize(
    ("person", "field", "message"),
    [
        ("{ref: dana, name: Dana Wells}", "people[0].slack_user", "required field is missing"),
        ("{ref: dana, slack_user: $omar, email: dana@x.example}", "people[0].email", "exactly one"),
        ("{ref: dana, email: not-an-address, name: Dana}", "people[0].email", "expected an email address"),
        ("{ref: dana, email: dana@x.example}", "people[0]", "needs a `name`"),
        ("{ref: omar, slack_user: $omar, name: Omar}", "people[0].name", "`name` is for a person given by `email`"),
        ("{ref: dana, email: omar@acme.test, name: Dana}", "people[0].email", "a record of this world"),
        ("{ref: dana, email: dana@x.example, name: Dana, watches: [general]}", "people[0].watches", "no Slack channel"),
        # Her ref is defined before the records are built: the record that takes it again is told so.
        ("{ref: omar, email: dana@x.example, name: Dana}", "seed.slack.users[2].ref", "first for gmail.mailboxes"),
    ],
)
def test_a_person_is_given_by_exactly_one_of_slack_user_and_email(person: str, field: str, message: str) -> None:
    with pytest.raises(SpecError) as raised:
        cast_of(GOOGLE_SCENE + f"people:\n  - {person}\n")
    errors = getattr(raised.value, "errors", None) or [raised.value]
    assert [(e.field, message in e.message) for e in errors] == [(field, True)], errors


def test_two_people_at_one_address_are_an_error() -> None:
    with pytest.raises(SpecError) as raised:
        cast_of(
            GOOGLE_SCENE
            + "people:\n  - {ref: dana, email: dana@x.example, name: Dana}\n"
            + "  - {ref: d2, email: DANA@x.example, name: D}\n"
        )
    errors = getattr(raised.value, "errors", None) or [raised.value]
    assert [(e.field, e.line, e.message) for e in errors] == [
        ("people[1].email", 14, "DANA@x.example is the address of $dana already")
    ]


# Dana's own calendar is busy on Tuesday morning (the scene puts an event on it); she works 09:00 to 17:00 UTC.
CALENDAR = SCENE.replace(
    "people:\n",
    """  calendar:
    events:
      - {ref: site_visit, calendar: $dana, summary: Site visit, start: "2026-03-03T10:00:00Z", duration: 1h}
people:
""",
).replace("    reply_after: 2h\n", '    reply_after: 2h\n    working_hours: {from: "09:00", to: "17:00"}\n')


def test_she_answers_invitations_by_her_calendar_which_the_agent_cannot_read(stage: Any) -> None:
    cal = calendar_world(stage.world(scene_yaml=CALENDAR))
    busy = invite(cal, "2026-03-03T10:30:00Z", "2026-03-03T11:00:00Z", DANA)
    late = invite(cal, "2026-03-03T18:00:00Z", "2026-03-03T19:00:00Z", DANA)
    free = invite(cal, "2026-03-03T14:00:00Z", "2026-03-03T15:00:00Z", DANA)
    cal.live.advance("2h")
    assert [answers(cal, event) for event in (busy, late, free)] == [
        {DANA: "declined"},
        {DANA: "declined"},
        {DANA: "accepted"},
    ]
    said = [(e["person"], e["response"], e["reason"]) for e in cal.live.events() if e["kind"] == "answered"]
    assert said == [(DANA, "declined", "busy"), (DANA, "declined", "hours"), (DANA, "accepted", "free")]
    # Her calendar is hers alone, as anyone's primary calendar is.
    assert cal.raw("GET", f"calendars/{DANA}/events").status_code == 404


def test_a_fork_made_before_her_reply_gets_it_too(people: Any, stage: Any) -> None:
    live = people(SCENE)
    send(live, DANA, "Offsite", "Hi Dana, what deposit do you need?")
    response = stage.http.post(f"{live.control}/fork")
    assert response.status_code == 201, response.text
    fork = LiveWorld(stage, response.json())
    for world in (live, fork):
        world.advance("2h")
    assert events(fork, "revealed") == events(live, "revealed") == [("16:00:00", "revealed", "$dana", "dana.deposit")]


def test_what_the_agent_mails_her_is_told_to_her(people: Any) -> None:
    live = people(SCENE)
    send(live, DANA, "Offsite", "Hi Dana, FYI we will be twelve.")
    evaluation = score_custom(live.world, [{"id": "told", "told": {"person": "$dana", "facts": ["omar.headcount"]}}])
    assert [(c.id, c.passed) for c in evaluation.checks] == [("told", True)]
    assert events(live, "told") == [("14:00:00", "told", "$dana", "omar.headcount")]
