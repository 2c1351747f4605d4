"""Media uploads (`/upload/gmail/v1/...`): a message sent, inserted, imported or drafted as the body itself
(`uploadType=media`) or after the call's JSON metadata (`uploadType=multipart`), as google-api-python-client sends
a `media_body`, and over raw HTTP, with Google's refusals."""

from __future__ import annotations

import base64
import json
from typing import Any

import httplib2
import pytest
from google.oauth2.credentials import Credentials
from google_auth_httplib2 import AuthorizedHttp
from googleapiclient.discovery import build
from googleapiclient.http import MediaInMemoryUpload
from tests.services.gmail.conftest import raw
from tests.services.google_world import GoogleWorld

from soundstage.grading.patterns import CallPattern
from soundstage.server.proxy import vendor
from soundstage.services.gmail import store


def rfc822(to: str, subject: str, body: str, **headers: str) -> bytes:
    return base64.urlsafe_b64decode(raw(to, subject, body, **headers))


def media(message: bytes) -> MediaInMemoryUpload:
    return MediaInMemoryUpload(message, mimetype="message/rfc822")


def tls_client(world: GoogleWorld) -> Any:
    """The official client as a user builds it for soundstage's TLS port: it sends an upload to Google's upload
    path on the host and port of its `api_endpoint`, over https whatever the endpoint's scheme."""
    stage = world.live.stage
    endpoint = world.url.replace(stage.url, stage.server.tls_url)
    http = AuthorizedHttp(Credentials(world.token), http=httplib2.Http(ca_certs=str(stage.server.hub.tls.ca.bundle)))
    return build("gmail", "v1", http=http, client_options={"api_endpoint": endpoint}, static_discovery=True)


def stored(world: GoogleWorld, message_id: str) -> dict:
    return world.live.world[store.MESSAGES].one(message_id)


def test_the_official_client_sends_an_uploaded_message(mail: GoogleWorld) -> None:
    gmail = tls_client(mail)
    alone = gmail.users().messages().send(userId="me", media_body=media(rfc822("omar@acme.test", "Up", "Hi"))).execute()
    assert alone == {"id": alone["id"], "threadId": alone["id"], "labelIds": ["SENT"]}
    assert stored(mail, alone["id"])["from"] == "maya@acme.test"
    omar = [m for m in mail.live.world[store.MESSAGES] if m["mailbox"] == "omar@acme.test" and m["subject"] == "Up"]
    assert len(omar) == 1 and omar[0]["labelIds"] == ["UNREAD", "INBOX"]
    # With metadata (the thread to join), the client sends multipart/related.
    reply = rfc822("omar@acme.test", "Re: Invoice 1142", "Paid twice?")
    body = {"threadId": mail.ref("invoice")}
    joined = gmail.users().messages().send(userId="me", body=body, media_body=media(reply)).execute()
    assert joined["threadId"] == mail.ref("invoice")


def test_the_official_client_inserts_imports_and_drafts_by_upload(mail: GoogleWorld) -> None:
    gmail = tls_client(mail)
    kept = rfc822(
        "maya@acme.test",
        "Archived",
        "Old.",
        From="Omar Haddad <omar@acme.test>",
        Date="Sun, 01 Feb 2026 09:30:00 +0000",
    )
    inserted = (
        gmail.users().messages().insert(userId="me", body={"labelIds": ["INBOX"]}, media_body=media(kept)).execute()
    )
    assert inserted["labelIds"] == ["INBOX"] and stored(mail, inserted["id"])["from"] == "omar@acme.test"
    imported = gmail.users().messages().import_(userId="me", media_body=media(kept)).execute()
    assert stored(mail, imported["id"])["internalDate"] == 1769938200000000
    draft = (
        gmail.users()
        .drafts()
        .create(userId="me", body={}, media_body=media(rfc822("omar@acme.test", "Plan", "v1")))
        .execute()
    )
    assert draft["message"]["labelIds"] == ["DRAFT"]
    updated = (
        gmail.users()
        .drafts()
        .update(userId="me", id=draft["id"], body={}, media_body=media(rfc822("omar@acme.test", "Plan", "v2")))
        .execute()
    )
    assert stored(mail, updated["message"]["id"])["text"] == "v2\n"
    sent = gmail.users().drafts().send(userId="me", body={"id": draft["id"]}).execute()
    assert sent["labelIds"] == ["SENT"] and stored(mail, sent["id"])["text"] == "v2\n"


def multipart(metadata: bytes, message: bytes, media_type: str = "message/rfc822") -> tuple[dict[str, str], bytes]:
    body = (
        b"--b1\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
        + metadata
        + b"\r\n--b1\r\nContent-Type: "
        + media_type.encode()
        + b"\r\n\r\n"
        + message
        + b"\r\n--b1--\r\n"
    )
    return {"Content-Type": 'multipart/related; boundary="b1"'}, body


def test_raw_http_uploads_under_the_world_and_at_the_root(mail: GoogleWorld) -> None:
    message = rfc822("omar@acme.test", "Raw up", "Body")
    prefixed = mail.raw(
        "POST",
        "upload/gmail/v1/users/me/messages/send?uploadType=media",
        content=message,
        headers={"Content-Type": "message/rfc822"},
    )
    assert prefixed.status_code == 200, prefixed.text
    headers, body = multipart(json.dumps({"labelIds": ["STARRED"]}).encode(), message)
    at_root = mail.live.http.post(
        mail.live.stage.url + "/upload/gmail/v1/users/me/messages?uploadType=multipart",
        content=body,
        headers={**headers, "Authorization": f"Bearer {mail.token}"},
    )
    assert at_root.status_code == 200, at_root.text
    assert at_root.json()["labelIds"] == ["STARRED"]
    assert [c["path"] for c in mail.live.trace()[-2:]] == [
        "/upload/gmail/v1/users/me/messages/send",
        "/upload/gmail/v1/users/me/messages",
    ]


def test_a_trace_pattern_can_take_a_send_made_either_way() -> None:
    """The pattern seeds/customer-email-reply.yaml counts sends with."""
    pattern = CallPattern.parse("gmail:POST /*gmail/v1/users/*/messages/send")
    assert pattern.matches("gmail", "POST", "/gmail/v1/users/me/messages/send")
    assert pattern.matches("gmail", "POST", "/upload/gmail/v1/users/me/messages/send")
    assert not pattern.matches("gmail", "POST", "/gmail/v1/users/me/drafts/send")


def test_the_interception_proxy_hands_uploads_to_gmail() -> None:
    assert vendor("www.googleapis.com", "/upload/gmail/v1/users/me/messages/send") == "gmail"
    assert vendor("gmail.googleapis.com", "/upload/gmail/v1/users/me/drafts") == "gmail"
    assert vendor("www.googleapis.com", "/upload/drive/v3/files") is None


MESSAGE = rfc822("omar@acme.test", "Refused", "x")


@pytest.mark.parametrize(
    ("query", "headers", "body", "reason", "message"),
    [
        (
            "",
            {"Content-Type": "message/rfc822"},
            MESSAGE,
            "wrongUrlForUpload",
            "Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/",
        ),
        (
            "?uploadType=resumable",
            {"Content-Type": "message/rfc822"},
            MESSAGE,
            "wrongUrlForUpload",
            "Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/",
        ),
        (
            "?uploadType=media",
            {"Content-Type": "text/plain"},
            MESSAGE,
            "badRequest",
            "Media type 'text/plain' is not supported. Valid media types: [message/rfc822]",
        ),
        (
            "?uploadType=multipart",
            {"Content-Type": "message/rfc822"},
            MESSAGE,
            "badRequest",
            "Invalid multipart request with 0 mime parts.",
        ),
        (
            "?uploadType=multipart",
            {"Content-Type": 'multipart/related; boundary="b1"'},
            b"--b1\r\nContent-Type: application/json\r\n\r\n{}\r\n--b1--\r\n",
            "badRequest",
            "Invalid multipart request with 1 mime parts.",
        ),
        ("?uploadType=multipart", *multipart(b"[1]", MESSAGE), "parseError", "Parse Error"),
        ("?uploadType=multipart", *multipart(b"{nope", MESSAGE), "parseError", "Parse Error"),
        (
            "?uploadType=multipart",
            *multipart(b"{}", MESSAGE, "application/octet-stream"),
            "badRequest",
            "Media type 'application/octet-stream' is not supported. Valid media types: [message/rfc822]",
        ),
        (
            "?uploadType=media",
            {"Content-Type": "message/rfc822"},
            rfc822("", "No one", "x"),
            "invalidArgument",
            "Recipient address required",
        ),
    ],
)
def test_a_refused_upload_changes_nothing(
    mail: GoogleWorld, query: str, headers: dict[str, str], body: bytes, reason: str, message: str
) -> None:
    before = len(mail.live.world[store.MESSAGES])
    response = mail.raw("POST", "upload/gmail/v1/users/me/messages/send" + query, content=body, headers=headers)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert (error["errors"][0]["reason"], error["message"]) == (reason, message)
    assert error["status"] == "INVALID_ARGUMENT"
    assert len(mail.live.world[store.MESSAGES]) == before


def test_an_upload_past_the_body_limit_is_refused(mail: GoogleWorld) -> None:
    limit = mail.live.stage.server.hub.max_body
    response = mail.raw(
        "POST",
        "upload/gmail/v1/users/me/messages/send?uploadType=media",
        content=MESSAGE + b"x" * limit,
        headers={"Content-Type": "message/rfc822"},
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == 413
