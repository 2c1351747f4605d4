"""users.messages.*: listing, the four formats, sending and delivery, labels, trash and delete, through the
official client and raw HTTP."""

from __future__ import annotations

import base64
from email import message_from_bytes, policy

import pytest
from googleapiclient.errors import HttpError
from tests.services.gmail.conftest import raw
from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import store


def messages(world: GoogleWorld, address: str) -> list[dict]:
    return [m for m in world.live.world[store.MESSAGES] if m["mailbox"] == address]


def test_the_inbox_lists_newest_first(mail_read: GoogleWorld) -> None:
    gmail = mail_read.client()
    listed = gmail.users().messages().list(userId="me", labelIds=["INBOX"]).execute()
    ids = [m["id"] for m in listed["messages"]]
    assert ids == [mail_read.ref(name) for name in ("invoice", "report", "contract")]
    assert listed["resultSizeEstimate"] == 3
    assert listed["messages"][0]["threadId"] == mail_read.ref("invoice")


def test_pages_follow_one_another(mail_read: GoogleWorld) -> None:
    gmail = mail_read.client()
    first = gmail.users().messages().list(userId="me", maxResults=2).execute()
    second = gmail.users().messages().list(userId="me", maxResults=2, pageToken=first["nextPageToken"]).execute()
    assert len(first["messages"]) == 2 and len(second["messages"]) == 2
    assert "nextPageToken" not in second
    assert first["resultSizeEstimate"] == 4


def test_an_empty_list_has_only_its_estimate(mail_read: GoogleWorld) -> None:
    assert mail_read.client().users().messages().list(userId="me", q="nothingmatches").execute() == {
        "resultSizeEstimate": 0
    }


def test_full_format_is_the_parsed_part_tree(mail_read: GoogleWorld) -> None:
    got = mail_read.client().users().messages().get(userId="me", id=mail_read.ref("invoice")).execute()
    assert list(got) == [
        "id",
        "threadId",
        "labelIds",
        "snippet",
        "payload",
        "sizeEstimate",
        "historyId",
        "internalDate",
    ]
    assert got["labelIds"] == ["UNREAD", "INBOX"]
    assert got["snippet"] == "Please pay invoice 1142 by Friday. It&#39;s overdue."
    assert got["internalDate"] == "1772449200000"  # three hours before the clock start, in ms
    payload = got["payload"]
    assert payload["partId"] == "" and payload["mimeType"] == "text/plain" and payload["filename"] == ""
    headers = {h["name"]: h["value"] for h in payload["headers"]}
    assert headers["From"] == "Omar Haddad <omar@acme.test>"
    assert headers["To"] == "Maya Chen <maya@acme.test>"
    assert headers["Subject"] == "Invoice 1142"
    assert headers["Date"] == "Mon, 02 Mar 2026 11:00:00 +0000"
    data = base64.urlsafe_b64decode(payload["body"]["data"])
    assert data == b"Please pay invoice 1142 by Friday. It's overdue.\n"
    assert payload["body"]["size"] == len(data)


def test_an_attachment_is_a_part_read_by_its_id(mail_read: GoogleWorld) -> None:
    gmail = mail_read.client()
    got = gmail.users().messages().get(userId="me", id=mail_read.ref("report")).execute()
    assert got["payload"]["mimeType"] == "multipart/mixed"
    text, attached = got["payload"]["parts"]
    assert text["partId"] == "0" and text["mimeType"] == "text/plain"
    assert attached["partId"] == "1" and attached["filename"] == "report.txt"
    assert "data" not in attached["body"] and attached["body"]["size"] == 9
    content = (
        gmail.users()
        .messages()
        .attachments()
        .get(userId="me", messageId=got["id"], id=attached["body"]["attachmentId"])
        .execute()
    )
    assert base64.urlsafe_b64decode(content["data"]) == b"p99 820ms"


def test_raw_format_is_the_message_itself(mail_read: GoogleWorld) -> None:
    got = mail_read.client().users().messages().get(userId="me", id=mail_read.ref("invoice"), format="raw").execute()
    assert "payload" not in got
    parsed = message_from_bytes(base64.urlsafe_b64decode(got["raw"]), policy=policy.default)
    assert parsed["Subject"] == "Invoice 1142"
    assert got["sizeEstimate"] == len(base64.urlsafe_b64decode(got["raw"]))


def test_metadata_format_gives_the_headers_asked_for(mail_read: GoogleWorld) -> None:
    got = (
        mail_read.client()
        .users()
        .messages()
        .get(userId="me", id=mail_read.ref("invoice"), format="metadata", metadataHeaders=["Subject", "From"])
        .execute()
    )
    assert got["payload"] == {
        "mimeType": "text/plain",
        "headers": [
            {"name": "From", "value": "Omar Haddad <omar@acme.test>"},
            {"name": "Subject", "value": "Invoice 1142"},
        ],
    }


def test_minimal_format_has_no_payload(mail_read: GoogleWorld) -> None:
    got = (
        mail_read.client().users().messages().get(userId="me", id=mail_read.ref("invoice"), format="minimal").execute()
    )
    assert list(got) == ["id", "threadId", "labelIds", "snippet", "sizeEstimate", "historyId", "internalDate"]


def test_a_bad_format_is_refused(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", f"gmail/v1/users/me/messages/{mail_read.ref('invoice')}?format=bogus")
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0]["reason"] == "invalid"


def test_an_unknown_message_is_not_found(mail_read: GoogleWorld) -> None:
    with pytest.raises(HttpError) as caught:
        mail_read.client().users().messages().get(userId="me", id="18c0ffee00000000").execute()
    assert caught.value.resp.status == 404
    assert caught.value.error_details == [
        {"message": "Requested entity was not found.", "domain": "global", "reason": "notFound"}
    ]
    response = mail_read.raw("GET", "gmail/v1/users/me/messages/18c0ffee00000000")
    assert response.json() == {
        "error": {
            "code": 404,
            "message": "Requested entity was not found.",
            "errors": [{"message": "Requested entity was not found.", "domain": "global", "reason": "notFound"}],
            "status": "NOT_FOUND",
        }
    }


def test_another_mailbox_message_is_not_found(mail_read: GoogleWorld) -> None:
    omar_copy = next(m for m in messages(mail_read, "omar@acme.test") if m["subject"] == "Invoice 1142")
    response = mail_read.raw("GET", f"gmail/v1/users/me/messages/{omar_copy['id']}")
    assert response.status_code == 404


def test_a_malformed_id_is_invalid(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/me/messages/not-an-id")
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0] == {
        "message": "Invalid id value",
        "domain": "global",
        "reason": "invalidArgument",
    }
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"


def test_sending_delivers_to_the_world_mailboxes(mail: GoogleWorld) -> None:
    gmail = mail.client()
    sent = (
        gmail.users()
        .messages()
        .send(userId="me", body={"raw": raw("omar@acme.test, someone@outside.example", "Lunch?", "Noon?")})
        .execute()
    )
    assert sent == {"id": sent["id"], "threadId": sent["id"], "labelIds": ["SENT"]}
    mine = gmail.users().messages().get(userId="me", id=sent["id"]).execute()
    headers = {h["name"]: h["value"] for h in mine["payload"]["headers"]}
    assert headers["From"] == "Maya Chen <maya@acme.test>"
    assert headers["Date"] == "Mon, 02 Mar 2026 14:00:00 +0000"
    assert headers["Message-ID"].endswith("@mail.gmail.com>")
    delivered = [m for m in messages(mail, "omar@acme.test") if m["subject"] == "Lunch?"]
    assert len(delivered) == 1
    assert delivered[0]["labelIds"] == ["UNREAD", "INBOX"] and delivered[0]["from"] == "maya@acme.test"
    assert delivered[0]["id"] != sent["id"]


def test_a_reply_joins_the_thread_in_both_mailboxes(mail: GoogleWorld) -> None:
    gmail = mail.client()
    invoice = gmail.users().messages().get(userId="me", id=mail.ref("invoice"), format="metadata").execute()
    message_id = next(h["value"] for h in invoice["payload"]["headers"] if h["name"] == "Message-ID")
    body = {
        "raw": raw(
            "omar@acme.test", "Re: Invoice 1142", "And the receipt.", In_Reply_To=message_id, References=message_id
        ),
        "threadId": invoice["threadId"],
    }
    sent = gmail.users().messages().send(userId="me", body=body).execute()
    assert sent["threadId"] == mail.ref("invoice")
    omar = [m for m in messages(mail, "omar@acme.test") if "Invoice 1142" in m["subject"]]
    assert len({m["threadId"] for m in omar}) == 1 and len(omar) == 3


def test_a_thread_id_with_another_subject_starts_a_thread(mail: GoogleWorld) -> None:
    body = {"raw": raw("omar@acme.test", "Something else", "Hi"), "threadId": mail.ref("invoice")}
    sent = mail.client().users().messages().send(userId="me", body=body).execute()
    assert sent["threadId"] == sent["id"]


def test_sending_to_oneself_is_in_the_inbox_too(mail: GoogleWorld) -> None:
    sent = (
        mail.client().users().messages().send(userId="me", body={"raw": raw("maya@acme.test", "Note", "x")}).execute()
    )
    assert sent["labelIds"] == ["SENT", "INBOX"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "'raw' RFC822 payload message string or uploading message via /upload/* URL required"),
        ({"raw": raw("", "No one", "x")}, "Recipient address required"),
    ],
)
def test_a_send_without_message_or_recipient_is_refused(mail: GoogleWorld, body: dict, message: str) -> None:
    before = len(mail.live.world[store.MESSAGES])
    response = mail.raw("POST", "gmail/v1/users/me/messages/send", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0] == {
        "message": message,
        "domain": "global",
        "reason": "invalidArgument",
    }
    assert len(mail.live.world[store.MESSAGES]) == before


def test_modify_adds_and_removes_labels(mail: GoogleWorld) -> None:
    gmail = mail.client()
    vendors = mail.live.world.refs["vendors"].split("/")[1]
    body = {"addLabelIds": [vendors, "STARRED"], "removeLabelIds": ["UNREAD"]}
    changed = gmail.users().messages().modify(userId="me", id=mail.ref("invoice"), body=body).execute()
    assert changed == {
        "id": mail.ref("invoice"),
        "threadId": mail.ref("invoice"),
        "labelIds": ["INBOX", vendors, "STARRED"],
    }


def test_modify_with_an_unknown_label_changes_nothing(mail: GoogleWorld) -> None:
    response = mail.raw(
        "POST",
        f"gmail/v1/users/me/messages/{mail.ref('invoice')}/modify",
        json={"addLabelIds": ["STARRED", "Label_99"]},
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0]["message"] == "Invalid label: Label_99"
    assert mail.live.world[store.MESSAGES].one(mail.ref("invoice"))["labelIds"] == ["UNREAD", "INBOX"]


def test_trash_hides_a_message_until_untrashed(mail: GoogleWorld) -> None:
    gmail = mail.client()
    trashed = gmail.users().messages().trash(userId="me", id=mail.ref("invoice")).execute()
    assert "TRASH" in trashed["labelIds"]
    listed = gmail.users().messages().list(userId="me").execute()
    assert mail.ref("invoice") not in [m["id"] for m in listed["messages"]]
    everywhere = gmail.users().messages().list(userId="me", includeSpamTrash=True).execute()
    assert mail.ref("invoice") in [m["id"] for m in everywhere["messages"]]
    untrashed = gmail.users().messages().untrash(userId="me", id=mail.ref("invoice")).execute()
    assert untrashed["labelIds"] == ["UNREAD", "INBOX"]


def test_delete_removes_the_message_for_good(mail: GoogleWorld) -> None:
    gmail = mail.client()
    assert gmail.users().messages().delete(userId="me", id=mail.ref("report")).execute() == ""
    response = mail.raw("DELETE", f"gmail/v1/users/me/messages/{mail.ref('report')}")
    assert response.status_code == 404


def test_the_profile_counts_the_mailbox(mail_read: GoogleWorld) -> None:
    profile = mail_read.client().users().getProfile(userId="me").execute()
    assert profile == {"emailAddress": "maya@acme.test", "messagesTotal": 4, "threadsTotal": 3, "historyId": "1004"}


def nested(depth: int) -> bytes:
    """A message of parts within parts, `depth` deep."""
    opened = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i) for i in range(depth))
    closed = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return b"To: omar@acme.test\r\n" + opened + b"Content-Type: text/plain\r\n\r\nhi\r\n" + closed


@pytest.mark.parametrize(
    "message",
    [
        b"To: omar@acme.test\r\nMessage-ID: <<>>\r\n\r\nbody",  # the email package's IndexError
        b"To: omar@acme.test\r\nReferences: <a> <b\r\nSubject: \xff\xfe\r\n\r\n\xff",
        nested(60),  # deeper than soundstage reads
        nested(3000),  # deeper than the email package's parser recurses
    ],
)
def test_a_hostile_message_is_refused_or_sent_never_a_failure(mail: GoogleWorld, message: bytes) -> None:
    before = len(mail.live.world[store.MESSAGES])
    body = {"raw": base64.urlsafe_b64encode(message).decode()}
    response = mail.raw("POST", "gmail/v1/users/me/messages/send", json=body)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["error"]["errors"][0]["reason"] == "invalidArgument"
        assert len(mail.live.world[store.MESSAGES]) == before


def test_batch_modify_and_delete_reach_every_message(mail: GoogleWorld) -> None:
    gmail = mail.client()
    ids = [mail.ref("invoice"), mail.ref("report")]
    body = {"ids": ids, "removeLabelIds": ["UNREAD", "INBOX"]}
    assert gmail.users().messages().batchModify(userId="me", body=body).execute() == ""
    assert [mail.live.world[store.MESSAGES].one(i)["labelIds"] for i in ids] == [[], []]
    assert gmail.users().messages().batchDelete(userId="me", body={"ids": ids}).execute() == ""
    assert not any(i in mail.live.world[store.MESSAGES] for i in ids)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"ids": []}, 400),
        ({"ids": ["18c0ffee00000000"]}, 404),
        ({"ids": ["not-an-id"]}, 400),
        ({"ids": ["18c0ffee00000000"] * 1001}, 400),
    ],
)
def test_a_batch_with_a_bad_id_changes_nothing(mail: GoogleWorld, body: dict, status: int) -> None:
    body = {**body, "ids": [mail.ref("invoice"), *body["ids"]]} if body["ids"] else body
    response = mail.raw("POST", "gmail/v1/users/me/messages/batchModify", json={**body, "addLabelIds": ["STARRED"]})
    assert response.status_code == status
    assert "STARRED" not in mail.live.world[store.MESSAGES].one(mail.ref("invoice"))["labelIds"]
