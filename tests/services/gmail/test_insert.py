"""users.messages.insert and users.messages.import: a message put straight into the caller's mailbox, not sent,
through the official client and raw HTTP."""

from __future__ import annotations

import pytest
from tests.services.gmail.conftest import raw
from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import store


def messages(world: GoogleWorld, address: str) -> list[dict]:
    return [m for m in world.live.world[store.MESSAGES] if m["mailbox"] == address]


DATED = raw("maya@acme.test", "Old news", "From the archive.", From="Omar Haddad <omar@acme.test>")
DATED_AT = "Sun, 01 Feb 2026 09:30:00 +0000"


def test_insert_keeps_the_message_as_given_and_sends_nothing(mail: GoogleWorld) -> None:
    gmail = mail.client()
    start = gmail.users().getProfile(userId="me").execute()["historyId"]
    omar_before = len(messages(mail, "omar@acme.test"))
    now = mail.live.world.now()
    body = {
        "raw": raw("maya@acme.test", "Kept", "As it was.", From="Omar Haddad <omar@acme.test>"),
        "labelIds": ["INBOX"],
    }
    placed = gmail.users().messages().insert(userId="me", body=body).execute()
    assert placed == {"id": placed["id"], "threadId": placed["id"], "labelIds": ["INBOX"]}
    got = gmail.users().messages().get(userId="me", id=placed["id"]).execute()
    headers = {h["name"]: h["value"] for h in got["payload"]["headers"]}
    assert headers["From"] == "Omar Haddad <omar@acme.test>"  # not the account's: nothing was sent
    assert "Message-ID" not in headers and "Date" not in headers
    assert got["internalDate"] == str(now // 1000)  # receivedTime, the default of insert
    assert len(messages(mail, "omar@acme.test")) == omar_before
    history = gmail.users().history().list(userId="me", startHistoryId=start).execute()["history"]
    ref = {"id": placed["id"], "threadId": placed["id"]}
    assert history == [
        {"id": str(int(start) + 1), "messages": [ref], "messagesAdded": [{"message": {**ref, "labelIds": ["INBOX"]}}]}
    ]


def test_import_dates_the_message_by_its_date_header(mail: GoogleWorld) -> None:
    gmail = mail.client()
    body = {"raw": raw("maya@acme.test", "Old news", "From the archive.", Date=DATED_AT)}
    imported = gmail.users().messages().import_(userId="me", body=body).execute()
    assert imported["labelIds"] == []  # only the labels asked for: All Mail
    got = gmail.users().messages().get(userId="me", id=imported["id"], format="minimal").execute()
    assert got["internalDate"] == "1769938200000"
    received = gmail.users().messages().import_(userId="me", body=body, internalDateSource="receivedTime").execute()
    assert gmail.users().messages().get(userId="me", id=received["id"]).execute()["internalDate"] != "1769938200000"


def test_insert_by_date_header_without_one_is_dated_now(mail: GoogleWorld) -> None:
    now = mail.live.world.now()
    body = {"raw": raw("maya@acme.test", "Undated", "x")}
    placed = mail.client().users().messages().insert(userId="me", body=body, internalDateSource="dateHeader").execute()
    assert mail.live.world[store.MESSAGES].one(placed["id"])["internalDate"] == now


def test_an_imported_reply_joins_its_thread(mail: GoogleWorld) -> None:
    gmail = mail.client()
    invoice = gmail.users().messages().get(userId="me", id=mail.ref("invoice"), format="metadata").execute()
    message_id = next(h["value"] for h in invoice["payload"]["headers"] if h["name"] == "Message-ID")
    reply = raw("maya@acme.test", "Re: Invoice 1142", "Received.", In_Reply_To=message_id, Date=DATED_AT)
    joined = gmail.users().messages().import_(userId="me", body={"raw": reply, "labelIds": ["INBOX"]}).execute()
    assert joined["threadId"] == mail.ref("invoice")
    asked = {"raw": raw("maya@acme.test", "Invoice 1142", "A copy."), "threadId": mail.ref("invoice")}
    assert gmail.users().messages().insert(userId="me", body=asked).execute()["threadId"] == mail.ref("invoice")
    other = {"raw": raw("maya@acme.test", "Unrelated", "x"), "threadId": mail.ref("invoice")}
    alone = gmail.users().messages().insert(userId="me", body=other).execute()
    assert alone["threadId"] == alone["id"]


def test_deleted_keeps_nothing_the_mailbox_shows(mail: GoogleWorld) -> None:
    gmail = mail.client()
    before = gmail.users().getProfile(userId="me").execute()
    placed = gmail.users().messages().insert(userId="me", body={"raw": DATED}, deleted=True).execute()
    assert placed == {"id": placed["id"], "threadId": placed["id"], "labelIds": []}
    assert gmail.users().getProfile(userId="me").execute() == before
    response = mail.raw("GET", f"gmail/v1/users/me/messages/{placed['id']}")
    assert response.status_code == 404


@pytest.mark.parametrize("path", ["gmail/v1/users/me/messages", "gmail/v1/users/me/messages/import"])
@pytest.mark.parametrize(
    ("query", "body", "status", "reason", "message"),
    [
        (
            "",
            {},
            400,
            "invalidArgument",
            "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
        ),
        ("", {"raw": DATED, "labelIds": ["Label_99"]}, 400, "invalidArgument", "Invalid label: Label_99"),
        ("", {"raw": DATED, "labelIds": ["DRAFT"]}, 400, "invalidArgument", "Invalid label: DRAFT"),
        ("", {"raw": "a"}, 400, "invalidArgument", "Invalid value for ByteString: a"),
        (
            "?internalDateSource=never",
            {"raw": DATED},
            400,
            "invalid",
            "Invalid value at 'internal_date_source' (never)",
        ),
        ("?deleted=maybe", {"raw": DATED}, 400, "invalidBoolean", "Invalid boolean value: 'maybe'."),
    ],
)
def test_a_refused_insert_or_import_changes_nothing(
    mail: GoogleWorld, path: str, query: str, body: dict, status: int, reason: str, message: str
) -> None:
    before = len(mail.live.world[store.MESSAGES])
    response = mail.raw("POST", path + query, json=body)
    assert response.status_code == status
    error = response.json()["error"]["errors"][0]
    assert (error["reason"], error["message"]) == (reason, message)
    assert len(mail.live.world[store.MESSAGES]) == before


def test_import_reads_its_spam_and_calendar_switches(mail: GoogleWorld) -> None:
    ok = mail.raw(
        "POST", "gmail/v1/users/me/messages/import?neverMarkSpam=true&processForCalendar=false", json={"raw": DATED}
    )
    assert ok.status_code == 200
    bad = mail.raw("POST", "gmail/v1/users/me/messages/import?processForCalendar=yes", json={"raw": DATED})
    assert bad.status_code == 400 and bad.json()["error"]["errors"][0]["reason"] == "invalidBoolean"


def test_another_mailbox_is_forbidden(mail: GoogleWorld) -> None:
    response = mail.raw("POST", "gmail/v1/users/omar@acme.test/messages", json={"raw": DATED})
    assert response.status_code == 403
    assert response.json()["error"]["errors"][0]["reason"] == "forbidden"
