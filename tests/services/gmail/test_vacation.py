"""users.settings.getVacation and updateVacation through the official client and raw HTTP, and the responder at
work: a person's mail to the agent answered once in its thread, marked so that the person does not answer it."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.people.mail_trial import SCENE
from tests.services.gmail.conftest import gmail_world, raw
from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import sending

VACATION = "gmail/v1/users/me/settings/vacation"
START = 1772460000000  # 2026-03-02T14:00:00Z, the clock's start, in epoch ms
DAY = 86_400_000


@pytest.fixture
def mail(stage: Any) -> GoogleWorld:
    """Maya's mailbox (the agent's) with people who answer her mail: Omar in 10 minutes."""
    return gmail_world(stage.world(scene_yaml=SCENE))


def away(mail: GoogleWorld, **fields: Any) -> dict[str, Any]:
    body = {"enableAutoReply": True, "responseBodyPlainText": "I am away until Monday.", **fields}
    response = mail.raw("PUT", VACATION, json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def ask(mail: GoogleWorld, subject: str, body: str) -> dict[str, Any]:
    response = mail.raw("POST", "gmail/v1/users/me/messages/send", json={"raw": raw("omar@acme.test", subject, body)})
    assert response.status_code == 200, response.text
    return dict(response.json())


def deliver(mail: GoogleWorld, sender: str, subject: str, **headers: str) -> None:
    """Mail to Maya from `sender` (a person's mailbox or outside the world), delivered as sent mail is."""
    world = mail.live.world
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "maya@acme.test"
    message["Subject"] = subject
    message["Message-ID"] = f"<{subject.replace(' ', '.')}@elsewhere.test>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content("Hello.")
    with world.lock:
        sending.deliver(world, world.ids, sender, message, None, world.now())
        world.notify()


def replies(mail: GoogleWorld) -> list[dict[str, Any]]:
    """The automatic replies Maya's mailbox sent, oldest first: to whom, the subject, the thread."""
    found = [
        m
        for m in mail.live.world["gmail.messages"]
        if m["mailbox"] == "maya@acme.test" and "SENT" in m["labelIds"] and m.get("autoSubmitted")
    ]
    found.sort(key=lambda m: (m["internalDate"], m["id"]))
    return [{"to": m["to"], "subject": m["subject"], "thread": m["threadId"], "text": m["text"]} for m in found]


def test_settings_are_read_and_replaced_through_the_client(mail: GoogleWorld) -> None:
    settings = mail.client().users().settings()
    assert settings.getVacation(userId="me").execute() == {"enableAutoReply": False}
    body = {
        "enableAutoReply": True,
        "responseSubject": "Away",
        "responseBodyPlainText": "Back on Monday.",
        "restrictToDomain": True,
        "startTime": str(START),
        "endTime": START + 7 * DAY,
    }
    expected = {**body, "endTime": str(START + 7 * DAY)}
    assert settings.updateVacation(userId="me", body=body).execute() == expected
    assert settings.getVacation(userId="me").execute() == expected
    # A replacement, not a patch: what is not given is gone.
    assert settings.updateVacation(userId="me", body={"enableAutoReply": False}).execute() == {"enableAutoReply": False}
    with pytest.raises(HttpError) as refused:
        settings.updateVacation(userId="me", body={"enableAutoReply": True}).execute()
    assert refused.value.resp.status == 400


def test_refusals_are_gmails_and_change_nothing(mail: GoogleWorld) -> None:
    def refused(body: Any) -> tuple[int, str, str]:
        response = mail.raw("PUT", VACATION, json=body)
        error = response.json()["error"]
        return response.status_code, error["errors"][0]["reason"], error["message"]

    assert refused({"enableAutoReply": True, "responseSubject": ""}) == (
        400,
        "invalidArgument",
        "Response subject or body must be nonempty to enable auto-reply",
    )
    assert refused({"enableAutoReply": True, "responseSubject": "Away", "startTime": 5, "endTime": 5}) == (
        400,
        "invalidArgument",
        "Start time must precede end time",
    )
    assert refused({"enableAutoReply": "yes"})[:2] == (400, "invalidArgument")
    assert refused({"startTime": "soon"})[:2] == (400, "invalidArgument")
    assert refused({"startTime": -1})[:2] == (400, "invalidArgument")
    for hostile in ("--5", "9" * 5000, 2**63, "1e3", 1.5):
        assert refused({"endTime": hostile})[:2] == (400, "invalidArgument")
    assert refused("away")[:2] == (400, "parseError")
    assert mail.raw("GET", VACATION).json() == {"enableAutoReply": False}
    assert mail.raw("GET", "gmail/v1/users/omar@acme.test/settings/vacation").status_code == 403


def test_a_persons_mail_gets_one_reply_in_its_thread_and_the_person_does_not_answer_it(mail: GoogleWorld) -> None:
    away(mail)
    sent = ask(mail, "Northwind", "Omar, which workspace is Northwind on?")
    mail.live.advance("10m")
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()["messages"]
    assert len(thread) == 3  # the question, Omar's answer, the automatic reply to it
    answer, automatic = thread[1], thread[2]
    headers = {h["name"]: h["value"] for h in automatic["payload"]["headers"]}
    answered = {h["name"]: h["value"] for h in answer["payload"]["headers"]}
    assert automatic["labelIds"] == ["SENT"]
    assert headers["From"] == "Maya Chen <maya@acme.test>"
    assert headers["To"] == "omar@acme.test"
    assert headers["Subject"] == "Re: Northwind"
    assert headers["Auto-Submitted"] == "auto-replied"
    assert headers["In-Reply-To"] == answered["Message-ID"]
    assert headers["References"].endswith(answered["Message-ID"])
    text = base64.urlsafe_b64decode(automatic["payload"]["body"]["data"]).decode()
    assert text == "I am away until Monday.\n"
    # Omar has it in his thread, and hears it, but never answers it: no one wrote it.
    world = mail.live.world
    omar = [m for m in world["gmail.messages"] if m["mailbox"] == "omar@acme.test"]
    assert [(m["subject"], m["labelIds"]) for m in sorted(omar, key=lambda m: (m["internalDate"], m["id"]))] == [
        ("Northwind", ["UNREAD", "INBOX"]),
        ("Re: Northwind", ["SENT"]),
        ("Re: Northwind", ["UNREAD", "INBOX"]),
    ]
    assert len({m["threadId"] for m in omar}) == 1
    mail.live.advance("2h")
    assert len(replies(mail)) == 1
    assert len(mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}").json()["messages"]) == 3
    said = [e for e in mail.live.events() if e["kind"] == "message"]
    assert [(e["from_agent"], e["mail"]["subject"]) for e in said] == [
        (True, "Northwind"),
        (False, "Re: Northwind"),
        (True, "Re: Northwind"),
    ]


def test_one_reply_per_sender_in_four_days(mail: GoogleWorld) -> None:
    away(mail)
    ask(mail, "Northwind", "Omar, which workspace is Northwind on?")
    mail.live.advance("10m")
    ask(mail, "Northwind again", "Omar, which workspace is Northwind on, again?")
    mail.live.advance("3d")
    assert [r["subject"] for r in replies(mail)] == ["Re: Northwind"]
    mail.live.advance("1d")
    ask(mail, "Northwind once more", "Omar, which workspace is Northwind on?")
    mail.live.advance("10m")
    assert [r["subject"] for r in replies(mail)] == ["Re: Northwind", "Re: Northwind once more"]
    # Changing the settings starts the count again.
    away(mail, responseBodyPlainText="Still away.")
    deliver(mail, "omar@acme.test", "One more thing")
    assert [r["text"] for r in replies(mail)][-1] == "Still away.\n"


def test_no_reply_outside_the_window(mail: GoogleWorld) -> None:
    away(mail, startTime=str(START + DAY))
    deliver(mail, "a@elsewhere.test", "Before")
    assert replies(mail) == []
    mail.live.advance("1d")
    deliver(mail, "a@elsewhere.test", "During")
    assert [r["subject"] for r in replies(mail)] == ["Re: During"]
    away(mail, startTime=START, endTime=START + DAY + 1000)
    mail.live.advance("1s")
    deliver(mail, "b@elsewhere.test", "After")
    assert [r["to"] for r in replies(mail)] == [["a@elsewhere.test"]]


def test_no_reply_to_lists_automatic_mail_or_oneself(mail: GoogleWorld) -> None:
    away(mail)
    deliver(mail, "news@list.test", "Digest", Precedence="bulk")
    deliver(mail, "list@list.test", "Post", List_Id="<team.list.test>")
    deliver(mail, "bot@elsewhere.test", "Receipt", Auto_Submitted="auto-generated")
    deliver(mail, "maya@acme.test", "Note to self")
    assert replies(mail) == []
    deliver(mail, "person@elsewhere.test", "Hello", Auto_Submitted="no")
    assert [r["to"] for r in replies(mail)] == [["person@elsewhere.test"]]


def test_restricted_to_the_domain_and_to_contacts(mail: GoogleWorld) -> None:
    away(mail, restrictToDomain=True)
    deliver(mail, "a@elsewhere.test", "Outside")
    deliver(mail, "omar@acme.test", "Inside")
    assert [r["to"] for r in replies(mail)] == [["omar@acme.test"]]
    away(mail, restrictToContacts=True)
    deliver(mail, "a@elsewhere.test", "Stranger")
    assert len(replies(mail)) == 1
    sent = raw("b@elsewhere.test", "Hello", "Hi.")
    assert mail.raw("POST", "gmail/v1/users/me/messages/send", json={"raw": sent}).status_code == 200
    deliver(mail, "b@elsewhere.test", "Contact")
    assert [r["to"] for r in replies(mail)][-1] == ["b@elsewhere.test"]


def test_a_subject_and_html_of_the_responders_own(mail: GoogleWorld) -> None:
    away(mail, responseSubject="Out of office", responseBodyHtml="<p>Away</p>")
    deliver(mail, "a@elsewhere.test", "Question")
    (reply,) = replies(mail)
    assert reply["subject"] == "Out of office"
    raw_reply = next(
        m for m in mail.live.world["gmail.messages"] if m.get("autoSubmitted") and m["mailbox"] == "maya@acme.test"
    )
    got = mail.raw("GET", f"gmail/v1/users/me/messages/{raw_reply['id']}").json()
    assert got["payload"]["mimeType"] == "text/html"


def test_the_responder_is_deterministic(stage: Any) -> None:
    def run() -> list[Any]:
        mail = gmail_world(stage.world(scene_yaml=SCENE))
        away(mail)
        sent = ask(mail, "Northwind", "Omar, which workspace is Northwind on?")
        mail.live.advance("10m")
        return [sent, mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}", params={"format": "raw"}).json()]

    assert run() == run()
