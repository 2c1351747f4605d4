"""users.history.list: one record per change of the mailbox since a history id."""

from __future__ import annotations

from tests.services.gmail.conftest import raw
from tests.services.google_world import GoogleWorld


def test_history_records_each_change(mail: GoogleWorld) -> None:
    gmail = mail.client()
    start = gmail.users().getProfile(userId="me").execute()["historyId"]
    sent = gmail.users().messages().send(userId="me", body={"raw": raw("omar@acme.test", "Hi", "x")}).execute()
    gmail.users().messages().modify(userId="me", id=mail.ref("invoice"), body={"removeLabelIds": ["UNREAD"]}).execute()
    gmail.users().messages().delete(userId="me", id=mail.ref("report")).execute()
    history = gmail.users().history().list(userId="me", startHistoryId=start).execute()
    ref = {"id": sent["id"], "threadId": sent["threadId"]}
    invoice = {"id": mail.ref("invoice"), "threadId": mail.ref("invoice")}
    report = {"id": mail.ref("report"), "threadId": mail.ref("report")}
    assert history == {
        "history": [
            {"id": "1005", "messages": [ref], "messagesAdded": [{"message": {**ref, "labelIds": ["SENT"]}}]},
            {
                "id": "1006",
                "messages": [invoice],
                "labelsRemoved": [{"message": {**invoice, "labelIds": ["INBOX"]}, "labelIds": ["UNREAD"]}],
            },
            {"id": "1007", "messages": [report], "messagesDeleted": [{"message": report}]},
        ],
        "historyId": "1007",
    }
    only = gmail.users().history().list(userId="me", startHistoryId=start, historyTypes=["labelRemoved"]).execute()
    assert [h["id"] for h in only["history"]] == ["1006"]


def test_nothing_since_is_only_the_history_id(mail_read: GoogleWorld) -> None:
    assert mail_read.client().users().history().list(userId="me", startHistoryId="1004").execute() == {
        "historyId": "1004"
    }


def test_a_start_older_than_the_history_kept_is_not_found(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/me/history?startHistoryId=5")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "Requested entity was not found."


def test_a_missing_start_is_refused(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/me/history")
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0]["reason"] == "invalidArgument"
