"""users.getProfile and users.labels.list: every account's mailbox and its system labels."""

from __future__ import annotations

import pytest
from tests.services.google_world import GoogleWorld

SYSTEM = [
    {
        "id": "CHAT",
        "name": "CHAT",
        "messageListVisibility": "hide",
        "labelListVisibility": "labelHide",
        "type": "system",
    },
    {"id": "SENT", "name": "SENT", "type": "system"},
    {"id": "INBOX", "name": "INBOX", "type": "system"},
    {
        "id": "IMPORTANT",
        "name": "IMPORTANT",
        "messageListVisibility": "hide",
        "labelListVisibility": "labelHide",
        "type": "system",
    },
    {
        "id": "TRASH",
        "name": "TRASH",
        "messageListVisibility": "hide",
        "labelListVisibility": "labelHide",
        "type": "system",
    },
    {"id": "DRAFT", "name": "DRAFT", "type": "system"},
    {
        "id": "SPAM",
        "name": "SPAM",
        "messageListVisibility": "hide",
        "labelListVisibility": "labelHide",
        "type": "system",
    },
    {"id": "CATEGORY_FORUMS", "name": "CATEGORY_FORUMS", "type": "system"},
    {"id": "CATEGORY_UPDATES", "name": "CATEGORY_UPDATES", "type": "system"},
    {"id": "CATEGORY_PERSONAL", "name": "CATEGORY_PERSONAL", "type": "system"},
    {"id": "CATEGORY_PROMOTIONS", "name": "CATEGORY_PROMOTIONS", "type": "system"},
    {"id": "CATEGORY_SOCIAL", "name": "CATEGORY_SOCIAL", "type": "system"},
    {
        "id": "STARRED",
        "name": "STARRED",
        "messageListVisibility": "hide",
        "labelListVisibility": "labelHide",
        "type": "system",
    },
    {"id": "UNREAD", "name": "UNREAD", "type": "system"},
]


def test_the_official_client_reads_the_profile(gmail_read: GoogleWorld) -> None:
    profile = gmail_read.client().users().getProfile(userId="me").execute()
    assert profile == {"emailAddress": "maya@acme.test", "messagesTotal": 0, "threadsTotal": 0, "historyId": "1000"}


def test_the_official_client_lists_the_system_labels(gmail_read: GoogleWorld) -> None:
    assert gmail_read.client().users().labels().list(userId="me").execute() == {"labels": SYSTEM}


def test_the_own_address_names_the_mailbox_too(gmail_read: GoogleWorld) -> None:
    response = gmail_read.raw("GET", "gmail/v1/users/maya@acme.test/profile")
    assert response.status_code == 200
    assert response.json()["emailAddress"] == "maya@acme.test"


def test_another_mailbox_is_forbidden(gmail_read: GoogleWorld) -> None:
    response = gmail_read.raw("GET", "gmail/v1/users/omar@acme.test/labels")
    assert response.status_code == 403
    assert response.json()["error"]["errors"][0]["reason"] == "forbidden"
    assert response.json()["error"]["status"] == "PERMISSION_DENIED"


def test_one_token_reaches_calendar_and_gmail(gmail_read: GoogleWorld) -> None:
    env = gmail_read.live.env
    assert env["GOOGLE_CALENDAR_API_URL"].endswith(f"/w/{gmail_read.live.id}/calendar/calendar/v3/")
    assert env["GMAIL_API_URL"].endswith(f"/w/{gmail_read.live.id}/gmail/")
    assert env["GOOGLE_OAUTH_TOKEN"].startswith("ya29.")
    calendar = gmail_read.live.http.get(
        env["GOOGLE_CALENDAR_API_URL"] + "users/me/calendarList",
        headers={"Authorization": f"Bearer {env['GOOGLE_OAUTH_TOKEN']}"},
    )
    assert calendar.status_code == 200


@pytest.mark.parametrize("token", [None, "ya29.wrong"])
def test_a_missing_or_bad_token_is_unauthenticated(gmail_read: GoogleWorld, token: str | None) -> None:
    response = gmail_read.raw("GET", "gmail/v1/users/me/profile", token=token)
    assert response.status_code == 401
    assert response.json()["error"]["status"] == "UNAUTHENTICATED"
    assert response.headers["www-authenticate"].startswith('Bearer realm="https://accounts.google.com/"')


def test_a_slack_token_is_no_google_token(gmail_read: GoogleWorld) -> None:
    response = gmail_read.raw("GET", "gmail/v1/users/me/profile", token=gmail_read.live.env["SOUNDSTAGE_TOKEN"])
    assert response.status_code == 401
