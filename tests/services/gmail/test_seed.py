"""Building the `gmail:` section: deliveries, threads, labels and drafts, and errors that name the field."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from tests.services.gmail.conftest import MAIL
from tests.services.google_world import SCENE

from soundstage.errors import SpecError
from soundstage.services.gmail.store import DRAFTS, MAILBOXES, MESSAGES
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text


def build(text: str) -> Any:
    return build_image(*read_scene_text(text, "gmail-seed.yaml"))


def test_a_message_is_a_copy_in_every_mailbox_of_the_world() -> None:
    image = build(MAIL)
    invoice = image.collections[MESSAGES].one(image.refs["invoice"])
    copies = [m for m in image.collections[MESSAGES] if m["messageId"] == invoice["messageId"]]
    assert sorted((m["mailbox"], tuple(m["labelIds"])) for m in copies) == [
        ("maya@acme.test", ("UNREAD", "INBOX")),
        ("omar@acme.test", ("SENT",)),
    ]
    paid = image.collections[MESSAGES].one(image.refs["paid"])
    assert paid["threadId"] == invoice["threadId"] and paid["subject"] == "Re: Invoice 1142"
    assert paid["references"] == [invoice["messageId"]]
    assert image.collections[MAILBOXES].one("maya@acme.test")["people"] == [image.refs["maya"]]
    draft = image.collections[DRAFTS].one(image.refs["omar_draft"])
    assert image.collections[MESSAGES].one(draft["message"])["labelIds"] == ["DRAFT"]


SEED = "  gmail:\n" + textwrap.indent("{}", "    ")


@pytest.mark.parametrize(
    ("gmail", "message", "field"),
    [
        ("labels: [{mailbox: nobody@else.test, name: X}]", "names no person", "seed.gmail.labels[0].mailbox"),
        ("labels: [{mailbox: $maya, name: Inbox}]", "has a label named", "seed.gmail.labels[0].name"),
        ("messages: [{from: $maya, subject: x}]", "needs a recipient", "seed.gmail.messages[0].to"),
        ("messages: [{from: nobody, to: [$maya]}]", "names no person", "seed.gmail.messages[0].from"),
        ("messages: [{from: $omar, to: [$maya], labels: [Nope]}]", "has no label", "seed.gmail.messages[0].labels[0]"),
        (
            "messages: [{from: $omar, to: [$maya], reply_to: $maya}]",
            "no earlier message",
            "seed.gmail.messages[0].reply_to",
        ),
        (
            "messages: [{from: x@out.example, to: [$maya], mailbox: $omar}]",
            "neither sent nor received",
            "seed.gmail.messages[0].mailbox",
        ),
        ("drafts: [{mailbox: x@out.example}]", "names no person", "seed.gmail.drafts[0].mailbox"),
        (
            "filters: [{mailbox: $maya, criteria: {exclude_chats: true}, action: {add_labels: [STARRED]}}]",
            "needs criteria",
            "seed.gmail.filters[0]",
        ),
        (
            "filters: [{mailbox: $maya, criteria: {to: me}, action: {}}]",
            "needs an action",
            "seed.gmail.filters[0].action",
        ),
        (
            "filters: [{mailbox: $maya, criteria: {to: me}, action: {remove_labels: [INBOX, Nope]}}]",
            "has no label",
            "seed.gmail.filters[0].action.remove_labels[1]",
        ),
        (
            "filters: [{mailbox: $maya, criteria: {to: me}, action: {add_labels: [STARRED]}}, "
            + "{mailbox: $maya, criteria: {to: me}, action: {add_labels: [STARRED]}}]",
            "has this filter already",
            "seed.gmail.filters[1]",
        ),
    ],
)
def test_errors_name_the_field(gmail: str, message: str, field: str) -> None:
    with pytest.raises(SpecError) as caught:
        build(SCENE + SEED.format(gmail))
    assert message in caught.value.message
    assert caught.value.field == field
