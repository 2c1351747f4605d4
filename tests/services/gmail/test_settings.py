"""users.settings.sendAs.list and .get: the account's own address, through the official client and raw HTTP."""

from __future__ import annotations

from tests.services.google_world import GoogleWorld

MAYA = {
    "sendAsEmail": "maya@acme.test",
    "displayName": "Maya Chen",
    "replyToAddress": "",
    "signature": "",
    "isPrimary": True,
    "isDefault": True,
}


def test_the_own_address_is_the_one_send_as(mail_read: GoogleWorld) -> None:
    send_as = mail_read.client().users().settings().sendAs()
    assert send_as.list(userId="me").execute() == {"sendAs": [MAYA]}
    assert send_as.get(userId="me", sendAsEmail="maya@acme.test").execute() == MAYA
    assert send_as.get(userId="maya@acme.test", sendAsEmail="Maya@Acme.test").execute() == MAYA


def test_another_address_is_not_found(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/me/settings/sendAs/omar@acme.test")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": 404,
        "message": "Requested entity was not found.",
        "errors": [{"message": "Requested entity was not found.", "domain": "global", "reason": "notFound"}],
        "status": "NOT_FOUND",
    }


def test_another_mailbox_is_forbidden(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/omar@acme.test/settings/sendAs")
    assert response.status_code == 403
    assert response.json()["error"]["errors"][0]["message"] == "Delegation denied for maya@acme.test"
