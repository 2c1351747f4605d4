"""users.labels.*: user labels made, read with their counts, changed and deleted; system labels kept."""

from __future__ import annotations

import pytest
from googleapiclient.errors import HttpError
from tests.services.google_world import GoogleWorld

from soundstage.services.gmail import store


def test_a_label_is_created_and_listed_after_the_system_ones(mail: GoogleWorld) -> None:
    gmail = mail.client()
    made = (
        gmail.users()
        .labels()
        .create(userId="me", body={"name": "Receipts", "labelListVisibility": "labelShow"})
        .execute()
    )
    assert made == {"id": "Label_2", "name": "Receipts", "labelListVisibility": "labelShow", "type": "user"}
    names = [label["name"] for label in gmail.users().labels().list(userId="me").execute()["labels"]]
    assert names[-2:] == ["Vendors", "Receipts"]


def test_get_counts_messages_and_threads(mail_read: GoogleWorld) -> None:
    inbox = mail_read.client().users().labels().get(userId="me", id="INBOX").execute()
    assert inbox == {
        "id": "INBOX",
        "name": "INBOX",
        "type": "system",
        "messagesTotal": 3,
        "messagesUnread": 2,
        "threadsTotal": 3,
        "threadsUnread": 2,
    }


@pytest.mark.parametrize("name", ["vendors", "INBOX"])
def test_a_taken_name_conflicts(mail: GoogleWorld, name: str) -> None:
    response = mail.raw("POST", "gmail/v1/users/me/labels", json={"name": name})
    assert response.status_code == 409
    assert response.json()["error"]["errors"][0] == {
        "message": "Label name exists or conflicts",
        "domain": "global",
        "reason": "aborted",
    }
    assert response.json()["error"]["status"] == "ABORTED"


def test_a_label_needs_a_name(mail: GoogleWorld) -> None:
    with pytest.raises(HttpError) as caught:
        mail.client().users().labels().create(userId="me", body={}).execute()
    assert caught.value.resp.status == 400
    assert caught.value.error_details[0]["reason"] == "invalidArgument"


def test_patch_changes_only_what_is_given(mail: GoogleWorld) -> None:
    vendors = mail.live.world.refs["vendors"].split("/")[1]
    gmail = mail.client()
    patched = gmail.users().labels().patch(userId="me", id=vendors, body={"messageListVisibility": "hide"}).execute()
    assert patched == {"id": vendors, "name": "Vendors", "messageListVisibility": "hide", "type": "user"}
    updated = gmail.users().labels().update(userId="me", id=vendors, body={"name": "Suppliers"}).execute()
    assert updated == {"id": vendors, "name": "Suppliers", "type": "user"}


def test_system_labels_cannot_change_or_go(mail: GoogleWorld) -> None:
    assert mail.raw("PATCH", "gmail/v1/users/me/labels/INBOX", json={"name": "x"}).json()["error"]["message"] == (
        "Invalid update request"
    )
    assert mail.raw("DELETE", "gmail/v1/users/me/labels/INBOX").json()["error"]["message"] == "Invalid delete request"


def test_deleting_a_label_takes_it_off_its_messages(mail: GoogleWorld) -> None:
    vendors = mail.live.world.refs["vendors"].split("/")[1]
    assert mail.client().users().labels().delete(userId="me", id=vendors).execute() == ""
    assert vendors not in mail.live.world[store.MESSAGES].one(mail.ref("contract"))["labelIds"]
    assert mail.raw("GET", f"gmail/v1/users/me/labels/{vendors}").status_code == 404
