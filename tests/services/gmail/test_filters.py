"""users.settings.filters.*: made, read and deleted through the official client and raw HTTP, Gmail's refusals,
and filters applied to the mail the mailbox receives (a person's reply, mail from outside) as it is delivered."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.people.mail_trial import SCENE
from tests.services.gmail.conftest import gmail_world, raw
from tests.services.google_world import GoogleWorld

from soundstage.checks import score_custom
from soundstage.services.gmail import sending

FILTERS = "gmail/v1/users/me/settings/filters"


@pytest.fixture
def mail(stage: Any) -> GoogleWorld:
    """Maya's mailbox (the agent's) with people who answer her mail: Omar in 10 minutes."""
    return gmail_world(stage.world(scene_yaml=SCENE))


def label(mail: GoogleWorld, name: str) -> str:
    response = mail.raw("POST", "gmail/v1/users/me/labels", json={"name": name})
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


def create(mail: GoogleWorld, body: dict[str, Any]) -> dict[str, Any]:
    response = mail.raw("POST", FILTERS, json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def refusal(mail: GoogleWorld, body: Any) -> tuple[int, str, str]:
    response = mail.raw("POST", FILTERS, json=body)
    error = response.json()["error"]
    assert error["code"] == response.status_code
    return response.status_code, error["errors"][0]["reason"], error["message"]


def deliver(mail: GoogleWorld, sender: str, subject: str, body: str, **headers: str) -> dict[str, Any]:
    """Mail to Maya from `sender` (a person's mailbox or outside the world), delivered as sent mail is; her copy."""
    world = mail.live.world
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "maya@acme.test"
    message["Subject"] = subject
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    with world.lock:
        copies = sending.deliver(world, world.ids, sender, message, None, world.now())
        world.notify()
    return dict(copies["maya@acme.test"])


def test_a_filter_is_made_read_listed_and_deleted_through_the_client(mail: GoogleWorld) -> None:
    vendors = label(mail, "Vendors")
    filters = mail.client().users().settings().filters()
    assert filters.list(userId="me").execute() == {}
    made = filters.create(
        userId="me",
        body={
            "criteria": {"from": "billing@vendor.test", "hasAttachment": True, "excludeChats": False, "to": ""},
            "action": {"addLabelIds": [vendors], "removeLabelIds": ["INBOX"], "forward": ""},
        },
    ).execute()
    assert made == {
        "id": made["id"],
        "criteria": {"from": "billing@vendor.test", "hasAttachment": True},
        "action": {"addLabelIds": [vendors], "removeLabelIds": ["INBOX"]},
    }
    assert made["id"].startswith("ANe1Bmj")
    other = filters.create(userId="me", body={"criteria": {"query": "invoice"}, "action": {"addLabelIds": ["STARRED"]}})
    second = other.execute()
    assert filters.get(userId="me", id=made["id"]).execute() == made
    assert filters.list(userId="me").execute() == {"filter": [made, second]}
    assert filters.delete(userId="me", id=made["id"]).execute() == ""
    assert filters.list(userId="me").execute() == {"filter": [second]}
    with pytest.raises(HttpError) as gone:
        filters.get(userId="me", id=made["id"]).execute()
    assert gone.value.resp.status == 404
    assert mail.raw("DELETE", f"{FILTERS}/{made['id']}").json()["error"]["errors"][0]["reason"] == "notFound"


def test_a_persons_reply_is_labelled_and_archived_on_delivery(mail: GoogleWorld) -> None:
    vendors = label(mail, "Northwind")
    made = create(
        mail,
        {"criteria": {"from": "omar@acme.test"}, "action": {"addLabelIds": [vendors], "removeLabelIds": ["INBOX"]}},
    )
    start = mail.raw("GET", "gmail/v1/users/me/profile").json()["historyId"]
    sent = mail.raw(
        "POST",
        "gmail/v1/users/me/messages/send",
        json={"raw": raw("omar@acme.test", "Northwind", "Omar, which workspace is Northwind on?")},
    ).json()
    mail.live.advance("10m")
    thread = mail.raw("GET", f"gmail/v1/users/me/threads/{sent['threadId']}", params={"format": "minimal"}).json()
    reply = thread["messages"][1]
    assert reply["labelIds"] == ["UNREAD", vendors]  # archived: out of the inbox
    inbox = mail.raw("GET", "gmail/v1/users/me/messages", params={"labelIds": "INBOX"}).json()
    assert inbox == {"resultSizeEstimate": 0}
    history = mail.raw("GET", "gmail/v1/users/me/history", params={"startHistoryId": start}).json()["history"]
    # Each arrival is one record: the reply lands with the filter's labels, as Gmail applies them.
    assert [list(h) for h in history] == [["id", "messages", "messagesAdded"]] * 2
    assert history[1]["messagesAdded"][0]["message"]["labelIds"] == ["UNREAD", vendors]
    checks = [
        {"id": "filed", "state": {"gmail.message": {"mailbox": "$maya", "from": "$omar", "label": "Northwind"}}},
        {"id": "inbox", "state": {"gmail.message": {"mailbox": "$maya", "from": "$omar", "label": "INBOX"}}},
    ]
    result = score_custom(mail.live.world, checks)
    assert [(c.id, c.passed) for c in result.checks] == [("filed", True), ("inbox", False)]
    # Deleted, the filter no longer acts; the mail it filed stays as it is.
    assert mail.raw("DELETE", f"{FILTERS}/{made['id']}").status_code == 204
    later = deliver(mail, "omar@acme.test", "Another", "Nothing to file.")
    assert later["labelIds"] == ["UNREAD", "INBOX"]
    assert mail.live.world["gmail.messages"].one(reply["id"])["labelIds"] == ["UNREAD", vendors]


def test_a_filter_does_not_act_on_mail_already_there(mail: GoogleWorld) -> None:
    before = deliver(mail, "alerts@vendor.test", "Weekly report", "Latency is fine.")
    create(mail, {"criteria": {"from": "alerts@vendor.test"}, "action": {"removeLabelIds": ["INBOX", "UNREAD"]}})
    assert mail.live.world["gmail.messages"].one(before["id"])["labelIds"] == ["UNREAD", "INBOX"]
    assert deliver(mail, "alerts@vendor.test", "Weekly report", "Latency is fine.")["labelIds"] == []
    # The mailbox's own mail is not filtered: Maya writing to herself keeps her copy in the inbox.
    sent = mail.raw(
        "POST",
        "gmail/v1/users/me/messages/send",
        json={"raw": raw("maya@acme.test", "Note", "from alerts@vendor.test")},
    ).json()
    assert sent["labelIds"] == ["SENT", "INBOX"]


def test_criteria_read_as_search_does(mail: GoogleWorld) -> None:
    starred = {"addLabelIds": ["STARRED"]}
    create(mail, {"criteria": {"query": "invoice", "negatedQuery": "paid"}, "action": starred})
    create(mail, {"criteria": {"subject": "Quarterly Report"}, "action": {"addLabelIds": ["IMPORTANT"]}})
    create(mail, {"criteria": {"to": "maya@"}, "action": {"removeLabelIds": ["UNREAD"]}})
    create(
        mail,
        {
            "criteria": {"from": "vendor.test", "query": "has:attachment OR urgent"},
            "action": {"addLabelIds": ["TRASH"]},
        },
    )
    assert deliver(mail, "a@elsewhere.test", "Invoice 7", "Please pay.")["labelIds"] == ["INBOX", "STARRED"]
    assert deliver(mail, "a@elsewhere.test", "Invoice 7", "It is paid.")["labelIds"] == ["INBOX"]
    got = deliver(mail, "a@elsewhere.test", "Re: the quarterly report", "Attached.")["labelIds"]
    assert got == ["INBOX", "IMPORTANT"]
    assert deliver(mail, "a@elsewhere.test", "Quarterly", "Report.")["labelIds"] == ["INBOX"]
    assert deliver(mail, "x@vendor.test", "Hello", "An urgent matter.")["labelIds"] == ["INBOX", "TRASH"]
    assert deliver(mail, "x@vendor.test", "Hello", "Nothing pressing.")["labelIds"] == ["INBOX"]


def test_size_criteria(mail: GoogleWorld) -> None:
    create(mail, {"criteria": {"size": 2000, "sizeComparison": "larger"}, "action": {"addLabelIds": ["STARRED"]}})
    create(mail, {"criteria": {"size": "400", "sizeComparison": "smaller"}, "action": {"addLabelIds": ["IMPORTANT"]}})
    big = deliver(mail, "a@elsewhere.test", "Big", "word " * 500)
    middling = deliver(mail, "a@elsewhere.test", "Middling", "word " * 100)
    small = deliver(mail, "a@elsewhere.test", "Small", "hi")
    assert big["sizeEstimate"] > 2000 and big["labelIds"] == ["UNREAD", "INBOX", "STARRED"]
    assert 400 <= middling["sizeEstimate"] <= 2000 and middling["labelIds"] == ["UNREAD", "INBOX"]
    assert small["sizeEstimate"] < 400 and small["labelIds"] == ["UNREAD", "INBOX", "IMPORTANT"]
    listed = mail.raw("GET", FILTERS).json()["filter"]
    assert [f["criteria"] for f in listed] == [
        {"size": 2000, "sizeComparison": "larger"},
        {"size": 400, "sizeComparison": "smaller"},
    ]


def test_refusals_are_gmails_and_change_nothing(mail: GoogleWorld) -> None:
    starred = {"addLabelIds": ["STARRED"]}
    no_criteria = (400, "invalidArgument", "Filter doesn't have any criteria")
    assert refusal(mail, {"action": starred}) == no_criteria
    assert refusal(mail, {"criteria": {"excludeChats": True, "size": 10}, "action": starred}) == no_criteria
    assert refusal(mail, {"criteria": {"from": "a@b.test"}}) == (
        400,
        "invalidArgument",
        "Filter doesn't have any actions",
    )
    assert refusal(mail, {"criteria": {"from": "a@b.test"}, "action": {"addLabelIds": ["Label_99"]}}) == (
        400,
        "invalidArgument",
        "Invalid label: Label_99",
    )
    assert refusal(mail, {"criteria": {"from": "a@b.test"}, "action": {"removeLabelIds": ["DRAFT"]}})[2] == (
        "Invalid label: DRAFT"
    )
    forward = {"criteria": {"from": "a@b.test"}, "action": {"forward": "omar@acme.test"}}
    assert refusal(mail, forward) == (400, "failedPrecondition", "Unrecognized forwarding address")
    for size in ("big", "--5", "9" * 5000, -1, 2**31, True):
        assert refusal(mail, {"criteria": {"size": size}, "action": starred})[:2] == (400, "invalidArgument")
    assert refusal(mail, {"criteria": {"from": "a@b.test", "sizeComparison": "equal"}, "action": starred})[1] == (
        "invalidArgument"
    )
    assert refusal(mail, {"criteria": "from:a", "action": starred})[1] == "invalidArgument"
    assert refusal(mail, [1])[1] == "parseError"
    assert mail.raw("GET", FILTERS).json() == {}
    create(mail, {"criteria": {"from": "a@b.test"}, "action": starred})
    again = {"criteria": {"from": "a@b.test"}, "action": starred}
    assert refusal(mail, again) == (400, "failedPrecondition", "Filter already exists")
    assert mail.raw("GET", f"{FILTERS}/ANe1Bmjnope").status_code == 404
    assert mail.raw("GET", "gmail/v1/users/omar@acme.test/settings/filters").status_code == 403


def test_a_mailbox_holds_at_most_a_thousand_filters(mail: GoogleWorld) -> None:
    for n in range(1000):
        create(mail, {"criteria": {"from": f"sender{n}@elsewhere.test"}, "action": {"addLabelIds": ["STARRED"]}})
    assert refusal(mail, {"criteria": {"from": "one@more.test"}, "action": {"addLabelIds": ["STARRED"]}}) == (
        400,
        "failedPrecondition",
        "Too many filters",
    )
    assert len(mail.raw("GET", FILTERS).json()["filter"]) == 1000
    assert deliver(mail, "sender999@elsewhere.test", "Hi", "Hello.")["labelIds"] == ["UNREAD", "INBOX", "STARRED"]


def test_a_deleted_label_leaves_the_filters(mail: GoogleWorld) -> None:
    vendors = label(mail, "Vendors")
    made = create(mail, {"criteria": {"from": "a@b.test"}, "action": {"addLabelIds": [vendors, "STARRED"]}})
    assert mail.raw("DELETE", f"gmail/v1/users/me/labels/{vendors}").status_code == 204
    assert mail.raw("GET", f"{FILTERS}/{made['id']}").json()["action"] == {"addLabelIds": ["STARRED"]}


WORLD = SCENE.replace(
    "people:\n",
    """  gmail:
    labels:
      - {ref: vendors, mailbox: $maya, name: Vendors}
    filters:
      - ref: vendor_mail
        mailbox: $maya
        criteria: {from: billing@vendor.test, negated_query: urgent}
        action: {add_labels: [$vendors, STARRED], remove_labels: [INBOX]}
people:
""",
    1,
)


def test_filters_of_the_world_file(stage: Any) -> None:
    mail = gmail_world(stage.world(scene_yaml=WORLD))
    vendors = mail.live.world["gmail.labels"].one(mail.ref("vendors"))["label"]
    listed = mail.raw("GET", FILTERS).json()["filter"]
    assert listed == [
        {
            "id": mail.live.world["gmail.filters"].one(mail.ref("vendor_mail"))["filterId"],
            "criteria": {"from": "billing@vendor.test", "negatedQuery": "urgent"},
            "action": {"addLabelIds": [vendors, "STARRED"], "removeLabelIds": ["INBOX"]},
        }
    ]
    assert deliver(mail, "billing@vendor.test", "Invoice", "Due.")["labelIds"] == ["UNREAD", vendors, "STARRED"]
    assert deliver(mail, "billing@vendor.test", "Invoice", "Urgent: due.")["labelIds"] == ["UNREAD", "INBOX"]


def test_filtering_is_deterministic(stage: Any) -> None:
    def run() -> list[Any]:
        mail = gmail_world(stage.world(scene_yaml=SCENE))
        made = create(mail, {"criteria": {"query": "report"}, "action": {"addLabelIds": ["STARRED"]}})
        got = deliver(mail, "a@elsewhere.test", "Report", "Weekly report.")
        return [
            made,
            got["id"],
            got["labelIds"],
            mail.raw("GET", "gmail/v1/users/me/history", params={"startHistoryId": 1000}).json(),
        ]

    assert run() == run()
