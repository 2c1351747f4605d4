"""users.drafts.*: a draft's message carries DRAFT until it is sent."""

from __future__ import annotations

import base64

from tests.services.gmail.conftest import raw
from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import store


def test_a_draft_is_made_read_updated_and_sent(mail: GoogleWorld) -> None:
    gmail = mail.client()
    made = (
        gmail.users()
        .drafts()
        .create(userId="me", body={"message": {"raw": raw("omar@acme.test", "Plan", "v1")}})
        .execute()
    )
    assert made["id"].startswith("r") and made["message"]["labelIds"] == ["DRAFT"]
    got = gmail.users().drafts().get(userId="me", id=made["id"], format="full").execute()
    assert base64.urlsafe_b64decode(got["message"]["payload"]["body"]["data"]) == b"v1\n"
    listed = gmail.users().drafts().list(userId="me").execute()
    assert listed["drafts"] == [
        {"id": made["id"], "message": {"id": made["message"]["id"], "threadId": made["message"]["threadId"]}}
    ]
    body = {"message": {"raw": raw("omar@acme.test", "Plan", "v2")}}
    updated = gmail.users().drafts().update(userId="me", id=made["id"], body=body).execute()
    assert updated["id"] == made["id"] and updated["message"]["id"] != made["message"]["id"]
    sent = gmail.users().drafts().send(userId="me", body={"id": made["id"]}).execute()
    assert sent["labelIds"] == ["SENT"]
    assert gmail.users().drafts().list(userId="me").execute() == {"resultSizeEstimate": 0}
    delivered = [
        m for m in mail.live.world[store.MESSAGES] if m["mailbox"] == "omar@acme.test" and m["subject"] == "Plan"
    ]
    assert [m["text"] for m in delivered] == ["v2\n"]


def test_a_draft_without_recipient_is_kept_when_sent(mail: GoogleWorld) -> None:
    gmail = mail.client()
    made = gmail.users().drafts().create(userId="me", body={"message": {"raw": raw("", "Notes", "x")}}).execute()
    response = mail.raw("POST", "gmail/v1/users/me/drafts/send", json={"id": made["id"]})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Recipient address required"
    assert made["id"] in mail.live.world[store.DRAFTS]


def test_a_deleted_draft_is_gone_with_its_message(mail: GoogleWorld) -> None:
    gmail = mail.client()
    made = (
        gmail.users().drafts().create(userId="me", body={"message": {"raw": raw("omar@acme.test", "X", "x")}}).execute()
    )
    assert gmail.users().drafts().delete(userId="me", id=made["id"]).execute() == ""
    assert made["message"]["id"] not in mail.live.world[store.MESSAGES]
    assert mail.raw("GET", f"gmail/v1/users/me/drafts/{made['id']}").status_code == 404


def test_another_mailbox_draft_is_not_found(mail_read: GoogleWorld) -> None:
    assert mail_read.raw("GET", f"gmail/v1/users/me/drafts/{mail_read.ref('omar_draft')}").status_code == 404
