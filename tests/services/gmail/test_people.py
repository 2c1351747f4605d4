"""The world's people answering the agent's mail: after their delay, in the thread, From them and To the agent,
delivered to the agent's inbox by Gmail's own sending; seen through Gmail's API, the log and checks."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

import pytest
from tests.people.mail_trial import SCENE
from tests.services.gmail.conftest import gmail_world, raw
from tests.services.google_world import GoogleWorld

from soundstage.checks import score_custom
from soundstage.services.gmail import sending


@pytest.fixture
def mail(stage: Any) -> GoogleWorld:
    return gmail_world(stage.world(scene_yaml=SCENE))


def send(mail: GoogleWorld, to: str, subject: str, body: str, **headers: str) -> dict[str, Any]:
    response = mail.raw("POST", "gmail/v1/users/me/messages/send", json={"raw": raw(to, subject, body, **headers)})
    assert response.status_code == 200, response.text
    return dict(response.json())


def headers(mail: GoogleWorld, message_id: str) -> dict[str, Any]:
    got = mail.raw("GET", f"gmail/v1/users/me/messages/{message_id}").json()
    found = {h["name"]: h["value"] for h in got["payload"]["headers"]}
    return {
        "labels": got["labelIds"],
        "thread": got["threadId"],
        "from": found.get("From"),
        "to": found.get("To"),
        "subject": found.get("Subject"),
        "in_reply_to": found.get("In-Reply-To"),
        "references": found.get("References"),
        "text": base64.urlsafe_b64decode(got["payload"]["body"]["data"] + "==").decode().strip(),
    }


def people_events(mail: GoogleWorld) -> list[tuple[Any, ...]]:
    kinds = ("message", "asked", "revealed", "withheld", "referred", "told", "knows", "decided")
    refs = {v: k for k, v in mail.live.world.refs.items()}
    out = []
    for e in mail.live.events():
        if e["kind"] in kinds and e.get("source") != "start":
            who = refs.get(e.get("person") or e.get("user"), "?")
            what = e.get("fact") or e.get("decision") or ",".join(refs.get(u, u) for u in e.get("to") or [])
            out.append((e["t"][11:19], e["kind"], who, what, e["ts"]))
    return out


def test_a_person_emailed_a_question_replies_in_the_thread_after_their_delay(mail: GoogleWorld) -> None:
    sent = send(mail, "Omar <omar@acme.test>", "Northwind", "Omar, which workspace is Northwind on?")
    assert mail.live.advance("9m")["now"] == "2026-03-02T14:09:05Z"
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()
    assert [m["id"] for m in thread["messages"]] == [sent["id"]]
    mail.live.advance("1m")
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()
    assert len(thread["messages"]) == 2
    assert thread["messages"][0]["id"] == sent["id"]
    reply = thread["messages"][1]
    messages = mail.live.world["gmail.messages"]
    asked = messages.one(sent["id"])["messageId"]
    got = headers(mail, reply["id"])
    assert got == {
        "labels": ["UNREAD", "INBOX"],
        "thread": sent["threadId"],
        "from": "Omar Haddad <omar@acme.test>",
        "to": "maya@acme.test",
        "subject": "Re: Northwind",
        "in_reply_to": asked,
        "references": asked,
        "text": got["text"],
    }
    assert "Northwind is on workspace W-4821." in got["text"]
    assert reply["internalDate"] == "1772460600000"  # 14:10:00: the send's time and his 10 minutes
    # Omar's own copy: in his mailbox, SENT, in the thread of his copy of the mail he was sent.
    own = [m for m in messages.by("messageId", messages.one(reply["id"])["messageId"]) if m["id"] != reply["id"]]
    received = [m for m in messages.by("messageId", asked) if m["mailbox"] == "omar@acme.test"]
    assert [(m["mailbox"], m["labelIds"], m["threadId"]) for m in own] == [
        ("omar@acme.test", ["SENT"], received[0]["threadId"])
    ]
    assert people_events(mail) == [
        ("14:00:00", "message", "maya", "omar", sent["id"]),
        ("14:00:00", "asked", "omar", "omar.workspace", sent["id"]),
        ("14:10:00", "revealed", "omar", "omar.workspace", reply["id"]),
        ("14:10:00", "message", "omar", "", reply["id"]),
    ]
    said = [e for e in mail.live.events() if e["kind"] == "message"]
    assert [(e["service"], e["channel"], e["from_agent"], e["facts"]) for e in said] == [
        ("gmail", sent["threadId"], True, []),
        ("gmail", sent["threadId"], False, ["omar.workspace"]),
    ]
    assert said[0]["text"] == "Northwind\n\nOmar, which workspace is Northwind on?"


def thread_of(mail: GoogleWorld, sent: dict[str, Any]) -> list[dict[str, Any]]:
    """The thread of a message the agent sent, as the agent reads it: each message's sender and text."""
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()
    return [headers(mail, m["id"]) for m in thread["messages"]]


def thread_ids(mail: GoogleWorld, sent: dict[str, Any]) -> list[str]:
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()
    return [m["id"] for m in thread["messages"]]


@pytest.mark.parametrize(
    ("to", "cc", "body"),
    [
        ("omar@acme.test", "priya@acme.test", "Omar: we moved Northwind to W-4821 yesterday, can you confirm?"),
        # To both: a group DM, put to Omar alone, whom it calls on; Priya hears it as a member not called on does.
        (
            "omar@acme.test, priya@acme.test",
            None,
            "Hi Omar,\n\nwe moved Northwind to W-4821 yesterday. Can you confirm?",
        ),
    ],
)
def test_a_person_copied_or_not_called_on_learns_what_the_mail_says_but_does_not_answer(
    mail: GoogleWorld, to: str, cc: str | None, body: str
) -> None:
    sent = send(mail, to, "Northwind", body, **({"Cc": cc} if cc else {}))
    mail.live.advance("2h")
    assert people_events(mail) == [
        ("14:00:00", "message", "maya", "omar,priya", sent["id"]),
        ("14:00:00", "told", "omar", "omar.workspace", sent["id"]),
        ("14:00:00", "knows", "priya", "omar.workspace", sent["id"]),
        ("14:00:00", "told", "priya", "omar.workspace", sent["id"]),
        ("14:10:00", "message", "omar", "", thread_ids(mail, sent)[1]),
    ]
    # Omar, to whom it was put, acknowledges it; Priya says nothing.
    assert [m["from"] for m in thread_of(mail, sent)] == ["Maya Chen <maya@acme.test>", "Omar Haddad <omar@acme.test>"]


def test_a_person_in_cc_who_owns_what_is_asked_speaks_up_as_a_watcher_does(mail: GoogleWorld) -> None:
    sent = send(mail, "omar@acme.test", "Renewal", "Omar, when is the renewal?", Cc="priya@acme.test")
    mail.live.advance("1h")
    said = thread_of(mail, sent)
    assert [(m["from"], m["to"]) for m in said[1:]] == [
        ("Omar Haddad <omar@acme.test>", "maya@acme.test"),  # he does not know it
        ("Priya Raman <priya@acme.test>", "maya@acme.test"),  # hers, asked as written
    ]
    assert "They renew on June 30." in said[2]["text"]


def test_mail_the_agent_did_not_send_is_heard_but_not_answered(mail: GoogleWorld) -> None:
    world = mail.live.world
    with world.lock:
        message = EmailMessage()
        message["To"] = "priya@acme.test"
        message["Subject"] = "Northwind"
        message.set_content("Priya, which workspace is it? I think W-4821.")
        sending.send(world, world.ids, "omar@acme.test", "Omar Haddad", message.as_bytes(), None, world.now())
        world.notify()
    mail.live.advance("2h")
    events = people_events(mail)
    assert [e[:4] for e in events] == [
        ("14:00:00", "message", "omar", "priya"),
        ("14:00:00", "knows", "priya", "omar.workspace"),
    ]
    said = [e for e in mail.live.events() if e["kind"] == "message"]
    assert [(e["from_agent"], e["ts"] in world["gmail.messages"]) for e in said] == [(False, True)]
    priya = [m for m in world["gmail.messages"] if m["mailbox"] == "priya@acme.test"]
    assert [m["labelIds"] for m in priya] == [["UNREAD", "INBOX"]]  # and nothing sent back


def test_mail_inserted_as_sent_is_never_heard(mail: GoogleWorld) -> None:
    """insert and import put a message into the agent's own mailbox only: labelled SENT, it still reached no one."""
    asked = raw("omar@acme.test", "Northwind", "Omar, which workspace is Northwind on?", From="maya@acme.test")
    body = {"raw": asked, "labelIds": ["SENT"]}
    for path in ("gmail/v1/users/me/messages", "gmail/v1/users/me/messages/import"):
        assert mail.raw("POST", path, json=body).status_code == 200
    mail.live.advance("1h")
    assert people_events(mail) == []
    assert [m for m in mail.live.world["gmail.messages"] if m["mailbox"] == "omar@acme.test"] == []


def test_a_confidential_fact_is_withheld_and_a_referrer_names_the_owner(mail: GoogleWorld) -> None:
    sent = send(mail, "priya@acme.test", "Northwind", "Priya, what is the contract worth, and which workspace?")
    mail.live.advance("1h")
    said = thread_of(mail, sent)
    assert len(said) == 2
    reply = said[1]
    assert "180k" not in reply["text"]
    assert "Omar Haddad (omar@acme.test)" in reply["text"] and "<@" not in reply["text"]
    refs = mail.live.world.refs
    events = [e for e in mail.live.events() if e["kind"] in ("withheld", "referred")]
    assert [(e["kind"], e["fact"], e.get("reason"), e.get("owner"), e["to"], e["t"]) for e in events] == [
        ("referred", "omar.workspace", None, refs["omar"], refs["maya"], "2026-03-02T15:00:00Z"),
        ("withheld", "priya.contract", "confidential", None, refs["maya"], "2026-03-02T15:00:00Z"),
    ]
    assert {e["ts"] for e in events} == {thread_ids(mail, sent)[1]}


def test_a_draft_sent_is_answered_too(mail: GoogleWorld) -> None:
    created = mail.raw(
        "POST",
        "gmail/v1/users/me/drafts",
        json={"message": {"raw": raw("omar@acme.test", "Northwind", "Omar, which workspace is Northwind on?")}},
    ).json()
    sent = mail.raw("POST", "gmail/v1/users/me/drafts/send", json={"id": created["id"]}).json()
    mail.live.advance("10m")
    said = thread_of(mail, sent)
    assert [m["subject"] for m in said] == ["Northwind", "Re: Northwind"]
    assert "Northwind is on workspace W-4821." in said[1]["text"]


OMAR, PRIYA = "Omar Haddad <omar@acme.test>", "Priya Raman <priya@acme.test>"


@pytest.mark.parametrize(
    ("body", "answering"),
    [
        ("Priya, when is the renewal?\nOmar, do you know?", [OMAR, PRIYA]),
        ("Hi Priya and Omar,\n\nwhen is the renewal?", [OMAR, PRIYA]),
        ("Priya, Omar: when is the renewal?", [OMAR, PRIYA]),
        ("When is the renewal?", [OMAR, PRIYA]),  # calls on nobody: put to both
        ("Hi Priya,\n\nwhen is the renewal?", [PRIYA]),  # Omar, not called on, has nothing of his own to say
    ],
)
def test_mail_to_several_is_answered_by_each_it_calls_on(mail: GoogleWorld, body: str, answering: list[str]) -> None:
    sent = send(mail, "omar@acme.test, priya@acme.test", "Renewal", body)
    mail.live.advance("1h")
    said = thread_of(mail, sent)[1:]
    assert [(m["from"], m["to"], m["subject"]) for m in said] == [
        (a, "maya@acme.test", "Re: Renewal") for a in answering
    ]
    assert ["They renew on June 30." in m["text"] for m in said] == [a == PRIYA for a in answering]
    # Both are asked, as the rules of Slack ask everyone who hears it; only those called on, and the owner, answer.
    assert [(e[2], e[3]) for e in people_events(mail) if e[1] == "asked"] == [
        ("omar", "priya.renewal"),
        ("priya", "priya.renewal"),
    ]


def test_mail_to_one_person_is_a_dm_whatever_names_it_calls(mail: GoogleWorld) -> None:
    sent = send(mail, "omar@acme.test", "Northwind", "Priya, which workspace is Northwind on?")
    mail.live.advance("10m")
    said = thread_of(mail, sent)
    assert [m["from"] for m in said[1:]] == ["Omar Haddad <omar@acme.test>"]
    assert "Northwind is on workspace W-4821." in said[1]["text"]


def run(stage: Any, body: str) -> tuple[list[dict[str, Any]], list[str]]:
    mail = gmail_world(stage.world(scene_yaml=SCENE))
    sent = send(mail, "omar@acme.test, priya@acme.test", "Northwind", body)
    mail.live.advance("1h")
    events = [{k: v for k, v in e.items() if k != "seq"} for e in mail.live.events() if e["kind"] != "call"]
    return events, [m["text"] for m in thread_of(mail, sent)]


def test_the_same_mail_gives_the_same_replies_and_events(stage: Any) -> None:
    first, second = (
        run(stage, "Which workspace and what renewal date?"),
        run(stage, "Which workspace and what renewal date?"),
    )
    assert first == second
    assert len(first[1]) == 3  # put to both, as a group DM that calls on nobody
    assert any(e["kind"] == "revealed" and e["fact"] == "priya.renewal" for e in first[0])
    body = "Hi Omar, can you confirm Northwind is on W-4821?"
    first, second = run(stage, body), run(stage, body)
    assert first == second
    assert len(first[1]) == 2  # put to Omar alone
    assert len([e for e in first[0] if e["kind"] == "told"]) == 2  # and both learn what it says


def test_checks_see_the_reply(mail: GoogleWorld) -> None:
    send(mail, "omar@acme.test", "Northwind", "Omar, which workspace is Northwind on?")
    checks = [
        {"id": "revealed", "revealed": ["omar.workspace"]},
        {
            "id": "reply",
            "state": {
                "gmail.message": {
                    "mailbox": "$maya",
                    "from": "$omar",
                    "label": "INBOX",
                    "subject_contains": "Re: Northwind",
                    "body_contains": "W-4821",
                }
            },
        },
    ]
    early = score_custom(mail.live.world, checks)
    assert [(c.id, c.passed) for c in early.checks] == [("revealed", False), ("reply", False)]
    mail.live.advance("10m")
    late = score_custom(mail.live.world, checks)
    assert [(c.id, c.passed) for c in late.checks] == [("revealed", True), ("reply", True)]


def test_mail_marked_automatic_is_heard_but_never_answered(mail: GoogleWorld) -> None:
    """An `Auto-Submitted` message (a vacation responder's reply, a notification) was written by no one: people
    learn what it says, and never answer it, so two mailboxes never answer each other without end."""
    question = "Omar, which workspace is Northwind on? I think W-4821."
    send(mail, "omar@acme.test", "Northwind", question, Auto_Submitted="auto-replied")
    mail.live.advance("2h")
    events = people_events(mail)
    assert [e[:4] for e in events] == [
        ("14:00:00", "message", "maya", "omar"),
        ("14:00:00", "told", "omar", "omar.workspace"),
    ]
    assert [m for m in mail.live.world["gmail.messages"] if m["mailbox"] == "maya@acme.test"][1:] == []
    # The same question, not marked, is answered.
    send(mail, "omar@acme.test", "Northwind", question)
    mail.live.advance("10m")
    assert len([m for m in mail.live.world["gmail.messages"] if m["mailbox"] == "maya@acme.test"]) == 3


def test_a_person_outside_slack_answers_the_agent_through_the_official_client(stage: Any) -> None:
    """offsite-planning's venue, Dana, only mails: Priya's draft, sent in her thread, is answered two hours later."""
    mail = gmail_world(stage.world(scene="offsite-planning"))
    gmail = mail.client()
    draft = gmail.users().drafts().list(userId="me").execute()["drafts"][0]
    raw_draft = gmail.users().drafts().get(userId="me", id=draft["id"], format="raw").execute()["message"]
    text = base64.urlsafe_b64decode(raw_draft["raw"]).decode().replace("[DATE]", "Thursday, March 19")
    body = {"id": draft["id"], "message": {"raw": base64.urlsafe_b64encode(text.encode()).decode()}}
    sent = gmail.users().drafts().send(userId="me", body=body).execute()
    mail.live.advance("2h")
    thread = gmail.users().threads().get(userId="me", id=sent["threadId"]).execute()["messages"]
    reply = thread[-1]
    found = {h["name"]: h["value"] for h in reply["payload"]["headers"]}
    said = base64.urlsafe_b64decode(reply["payload"]["body"]["data"]).decode()
    assert (found["From"], found["To"], found["Subject"]) == (
        "Dana Wells <events@harborhall.example>",
        "priya@acme.test",
        "Re: Engineering offsite in March",
    )
    assert "A 30% deposit holds the date; the rest is due on the day." in said
    assert [m["id"] for m in thread].index(sent["id"]) == len(thread) - 2
    revealed = [(e["person"], e["fact"], e["ts"]) for e in mail.live.events() if e["kind"] == "revealed"]
    assert revealed == [("events@harborhall.example", "dana.deposit", reply["id"])]
    # Her mailbox holds what she sent (the quote and her answer); she is nobody in Slack.
    own = [m for m in mail.live.world["gmail.messages"] if m["mailbox"] == "events@harborhall.example"]
    assert [(m["subject"], "SENT" in m["labelIds"]) for m in own if m["from"] == m["mailbox"]] == [
        ("Re: Engineering offsite in March", True),
        ("Re: Engineering offsite in March", True),
    ]
    assert not any("harborhall" in str(u) for u in mail.live.world["slack.users"])
