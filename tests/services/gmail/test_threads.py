"""users.threads.*: a thread is its messages by threadId."""

from __future__ import annotations

from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import store


def test_threads_list_newest_first(mail_read: GoogleWorld) -> None:
    listed = mail_read.client().users().threads().list(userId="me").execute()
    assert [t["id"] for t in listed["threads"]] == [mail_read.ref(n) for n in ("invoice", "report", "contract")]
    assert listed["threads"][0] == {
        "id": mail_read.ref("invoice"),
        "snippet": "Paid it this morning.",
        "historyId": "1002",
    }
    assert listed["resultSizeEstimate"] == 3


def test_a_thread_holds_its_messages_oldest_first(mail_read: GoogleWorld) -> None:
    got = mail_read.client().users().threads().get(userId="me", id=mail_read.ref("invoice"), format="minimal").execute()
    assert [m["id"] for m in got["messages"]] == [mail_read.ref("invoice"), mail_read.ref("paid")]
    assert got["historyId"] == "1002"


def test_modify_and_trash_reach_every_message(mail: GoogleWorld) -> None:
    gmail = mail.client()
    thread_id = mail.ref("invoice")
    gmail.users().threads().modify(userId="me", id=thread_id, body={"addLabelIds": ["STARRED"]}).execute()
    records = [mail.live.world[store.MESSAGES].one(mail.ref(n)) for n in ("invoice", "paid")]
    assert all("STARRED" in r["labelIds"] for r in records)
    trashed = gmail.users().threads().trash(userId="me", id=thread_id).execute()
    assert all("TRASH" in m["labelIds"] for m in trashed["messages"])
    assert thread_id not in [t["id"] for t in gmail.users().threads().list(userId="me").execute()["threads"]]
    gmail.users().threads().untrash(userId="me", id=thread_id).execute()
    assert gmail.users().threads().delete(userId="me", id=thread_id).execute() == ""
    assert mail.raw("GET", f"gmail/v1/users/me/threads/{thread_id}").status_code == 404
