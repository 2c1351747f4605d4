"""Gmail's MCP tools (docs/mcp.md), each through the SDK's client: its answer is the Gmail API's answer to the
call it stands for, and it is one logged call through the tool."""

from __future__ import annotations

import base64
from email import message_from_bytes, policy
from typing import Any

import pytest
from tests.services.gmail.conftest import MAIL
from tests.services.mcp_tools import call, rest

from soundstage.services.gmail.store import DRAFTS, MESSAGES


@pytest.fixture
def live(stage: Any) -> Any:
    return stage.world(MAIL)


def _sent(live: Any, message_id: str) -> Any:
    record = live.world[MESSAGES].one(message_id)
    return message_from_bytes(base64.urlsafe_b64decode(record["raw"]), policy=policy.default)


def test_send_email_sends_from_the_account(live: Any) -> None:
    arguments = {"to": ["omar@acme.test"], "subject": "Lunch", "body": "Noon?", "cc": ["laura@acme.test"]}
    sent = call(live, "gmail", "send_email", arguments)
    assert sent.event["path"] == "/gmail/v1/users/me/messages/send"
    assert sent.json["labelIds"] == ["SENT"]
    message = _sent(live, sent.json["id"])
    assert (message["From"], message["To"], message["Cc"], message["Subject"]) == (
        "Maya Chen <maya@acme.test>",
        "omar@acme.test",
        "laura@acme.test",
        "Lunch",
    )
    assert message.get_content() == "Noon?\n"


def test_send_email_with_html_is_an_alternative_and_a_reply(live: Any) -> None:
    invoice = live.world[MESSAGES].one(live.world.refs["invoice"])
    arguments = {
        "to": ["omar@acme.test"],
        "subject": "Re: Invoice 1142",
        "body": "Paid.",
        "htmlBody": "<p>Paid.</p>",
        "mimeType": "multipart/alternative",
        "threadId": invoice["threadId"],
        "inReplyTo": invoice["messageId"],
    }
    sent = call(live, "gmail", "send_email", arguments)
    assert sent.json["threadId"] == invoice["threadId"]
    message = _sent(live, sent.json["id"])
    assert message.get_content_type() == "multipart/alternative"
    assert message["In-Reply-To"] == invoice["messageId"]


def test_draft_email_saves_a_draft(live: Any) -> None:
    drafted = call(live, "gmail", "draft_email", {"to": ["omar@acme.test"], "subject": "Later", "body": "Soon."})
    assert drafted.json["message"]["labelIds"] == ["DRAFT"]
    assert drafted.json["id"] in live.world[DRAFTS]


def test_search_and_read_answer_as_the_api_does(live: Any) -> None:
    found = call(live, "gmail", "search_emails", {"query": "from:omar is:unread"})
    assert found.event["query"] == {"q": "from:omar is:unread", "maxResults": "10"}
    assert found.json == rest(live, "gmail", "GET", "/gmail/v1/users/me/messages?q=from:omar+is:unread&maxResults=10")
    [first] = found.json["messages"]
    read = call(live, "gmail", "read_email", {"messageId": first["id"]})
    assert read.json == rest(live, "gmail", "GET", f"/gmail/v1/users/me/messages/{first['id']}?format=full")


def test_modify_and_delete_a_message(live: Any) -> None:
    invoice = live.world.refs["invoice"]
    changed = call(
        live, "gmail", "modify_email", {"messageId": invoice, "labelIds": ["STARRED"], "removeLabelIds": ["UNREAD"]}
    )
    assert changed.event["body"] == {"addLabelIds": ["STARRED"], "removeLabelIds": ["UNREAD"]}
    assert changed.json["labelIds"] == ["INBOX", "STARRED"]
    assert call(live, "gmail", "delete_email", {"messageId": invoice}).error is False
    assert invoice not in live.world[MESSAGES]


def test_labels_are_listed_made_changed_and_deleted(live: Any) -> None:
    listed = call(live, "gmail", "list_email_labels")
    assert listed.json == rest(live, "gmail", "GET", "/gmail/v1/users/me/labels")
    made = call(live, "gmail", "create_label", {"name": "Receipts", "labelListVisibility": "labelShow"}).json
    assert made["name"] == "Receipts"
    updated = call(live, "gmail", "update_label", {"id": made["id"], "name": "Bills"}).json
    assert updated["name"] == "Bills"
    assert call(live, "gmail", "delete_label", {"id": made["id"]}).error is False


def test_a_refusal_is_the_api_error(live: Any) -> None:
    refused = call(live, "gmail", "read_email", {"messageId": "18c0ffee00000000"})
    assert refused.error is True
    assert refused.json["error"]["message"] == "Requested entity was not found."


def test_filters_are_made_listed_read_and_deleted(live: Any) -> None:
    vendors = live.world.refs["vendors"]
    label = live.world["gmail.labels"].one(vendors)["label"]
    made = call(
        live,
        "gmail",
        "create_filter",
        {"criteria": {"from": "billing@vendor.test"}, "action": {"addLabelIds": [label], "removeLabelIds": ["INBOX"]}},
    )
    assert made.event["path"] == "/gmail/v1/users/me/settings/filters"
    assert made.json == {
        "id": made.json["id"],
        "criteria": {"from": "billing@vendor.test"},
        "action": {"addLabelIds": [label], "removeLabelIds": ["INBOX"]},
    }
    listed = call(live, "gmail", "list_filters")
    assert listed.json == rest(live, "gmail", "GET", "/gmail/v1/users/me/settings/filters") == {"filter": [made.json]}
    assert call(live, "gmail", "get_filter", {"filterId": made.json["id"]}).json == made.json
    assert call(live, "gmail", "delete_filter", {"filterId": made.json["id"]}).error is False
    assert call(live, "gmail", "get_filter", {"filterId": made.json["id"]}).error is True


@pytest.mark.parametrize(
    ("template", "parameters", "criteria", "action"),
    [
        (
            "fromSender",
            {"senderEmail": "a@b.test", "archive": True},
            {"from": "a@b.test"},
            {"removeLabelIds": ["INBOX"]},
        ),
        (
            "withSubject",
            {"subjectText": "Invoice", "markAsRead": True},
            {"subject": "Invoice"},
            {"removeLabelIds": ["UNREAD"]},
        ),
        ("withAttachments", {"labelIds": ["STARRED"]}, {"hasAttachment": True}, {"addLabelIds": ["STARRED"]}),
        (
            "largeEmails",
            {"sizeInBytes": 5000, "labelIds": ["STARRED"]},
            {"size": 5000, "sizeComparison": "larger"},
            {"addLabelIds": ["STARRED"]},
        ),
        (
            "containingText",
            {"searchText": "quarterly plan", "markImportant": True},
            {"query": '"quarterly plan"'},
            {"addLabelIds": ["IMPORTANT"]},
        ),
        (
            "mailingList",
            {"listIdentifier": "team"},
            {"query": "list:team OR subject:[team]"},
            {"removeLabelIds": ["INBOX"]},
        ),
    ],
)
def test_a_filter_from_each_template(
    live: Any, template: str, parameters: dict[str, Any], criteria: dict[str, Any], action: dict[str, Any]
) -> None:
    made = call(live, "gmail", "create_filter_from_template", {"template": template, "parameters": parameters})
    assert made.json == {"id": made.json["id"], "criteria": criteria, "action": action}


def test_a_template_without_an_action_is_gmails_refusal(live: Any) -> None:
    refused = call(live, "gmail", "create_filter_from_template", {"template": "withAttachments", "parameters": {}})
    assert refused.error is True
    assert "Filter doesn't have any actions" in refused.text
