"""`gmail.message` and `gmail.draft`, with the trace and the generic record checks over Gmail's calls and
collections, on a world the agent changed through the official client."""

from __future__ import annotations

from typing import Any

import pytest
from tests.services.gmail.conftest import MAIL, gmail_world, raw

from soundstage.checks import Attempt, evaluate, parse_checks
from soundstage.services.gmail.store import DRAFTS


@pytest.fixture(scope="module")
def results(stage: Any) -> dict[str, Any]:
    """Maya answers Omar's invoice in its thread, drafts a note to Omar and stars the report."""
    world = gmail_world(stage.world(MAIL))
    gmail = world.client()
    invoice = gmail.users().messages().get(userId="me", id=world.ref("invoice"), format="metadata").execute()
    message_id = next(h["value"] for h in invoice["payload"]["headers"] if h["name"] == "Message-ID")
    reply = raw("omar@acme.test", "Re: Invoice 1142", "The receipt is attached.", In_Reply_To=message_id)
    gmail.users().messages().send(userId="me", body={"raw": reply, "threadId": world.ref("invoice")}).execute()
    note = raw("omar@acme.test", "Budget", "Numbers by Monday?")
    gmail.users().drafts().create(userId="me", body={"message": {"raw": note}}).execute()
    gmail.users().messages().modify(userId="me", id=world.ref("report"), body={"addLabelIds": ["STARRED"]}).execute()
    checks = [
        {
            "id": "replied",
            "state": {
                "gmail.message": {"from": "$maya", "to": "$omar", "thread": "$invoice", "body_contains": "receipt"}
            },
        },
        {
            "id": "omar_got_it",
            "state": {
                "gmail.message": {
                    "mailbox": "$omar",
                    "thread": "$invoice",
                    "body_contains": "RECEIPT",
                    "label": "UNREAD",
                }
            },
        },
        {
            "id": "two_in_omars_thread",
            "state": {"gmail.message": {"mailbox": "$omar", "subject_contains": "Invoice", "count": 3}},
        },
        {"id": "not_to_laura", "state": {"gmail.message": {"to": "laura@acme.test"}}},
        {"id": "body_by_regex", "state": {"gmail.message": {"from": "$maya", "body_matches": r"receipt is \w+ed"}}},
        {"id": "regex_minds_case", "state": {"gmail.message": {"from": "$maya", "body_matches": "RECEIPT"}}},
        {"id": "subject_by_regex", "state": {"gmail.draft": {"mailbox": "$maya", "subject_matches": "(?i)^budget$"}}},
        {
            "id": "starred",
            "state": {"gmail.message": {"mailbox": "$maya", "label": "STARRED", "subject_contains": "report"}},
        },
        {"id": "vendors_by_name", "state": {"gmail.message": {"label": "vendors", "subject_contains": "contract"}}},
        {
            "id": "draft_kept",
            "state": {"gmail.draft": {"mailbox": "$maya", "to": "$omar", "subject_contains": "budget"}},
        },
        {"id": "no_draft_sent_as_message", "state": {"gmail.message": {"subject_contains": "Budget", "count": 0}}},
        {"id": "omar_draft", "state": {"gmail.draft": {"from": "$omar", "subject_contains": "dinner"}}},
        {
            "id": "maya_drafted_in_the_invoice_thread",
            "state": {"gmail.draft": {"mailbox": "$maya", "thread": "$invoice"}},
        },
        {"id": "no_draft_in_the_invoice_thread", "state": {"gmail.draft": {"thread": "$invoice", "count": 0}}},
        {"id": "sent_once", "trace": {"called": "gmail:POST /gmail/v1/users/*/messages/send", "times": {"exactly": 1}}},
        {"id": "a_record", "state": {"record": {"collection": "gmail.messages", "where": {"subject": "Budget"}}}},
    ]
    evaluation = evaluate(parse_checks(checks, world.live.world.refs), Attempt.from_world(world.live.world))
    return {"world": world, **{r.id: r for r in evaluation.checks}}


@pytest.mark.parametrize(
    ("check", "passed"),
    [
        ("replied", True),
        ("omar_got_it", True),
        ("two_in_omars_thread", True),
        ("not_to_laura", False),
        ("body_by_regex", True),
        ("regex_minds_case", False),
        ("subject_by_regex", True),
        ("starred", True),
        ("vendors_by_name", True),
        ("draft_kept", True),
        ("no_draft_sent_as_message", True),
        ("omar_draft", False),
        ("maya_drafted_in_the_invoice_thread", False),
        ("no_draft_in_the_invoice_thread", True),
        ("sent_once", True),
        ("a_record", True),
    ],
)
def test_each_check(results: dict[str, Any], check: str, passed: bool) -> None:
    assert results[check].passed is passed, results[check]


def failed_draft(results: dict[str, Any]) -> str:
    return str(results["world"].live.world[DRAFTS].one(results["world"].ref("omar_draft"))["message"])


def test_a_failure_names_the_closest_item(results: dict[str, Any]) -> None:
    failed = results["omar_draft"]
    assert failed.expected == 'at least one draft from omar@acme.test whose subject contains "dinner"'
    assert failed.actual == (
        f'none of 2 drafts matched; closest: the draft of message {failed_draft(results)} in omar@acme.test ("Lunch"),'
        ' but its subject is "Lunch"'
    )
    assert failed.evidence == []  # seeded: no call made it
