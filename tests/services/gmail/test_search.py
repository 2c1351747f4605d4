"""The `q` search syntax of messages.list and threads.list."""

from __future__ import annotations

import pytest
from tests.services.google_world import GoogleWorld

# Maya's mailbox: invoice (from Omar, unread, 3h ago), paid (hers to Omar, sent, 2h ago), report (from outside,
# unread, attachment, 26h ago), contract (from Omar, read, Vendors, 50h ago). The clock is 2026-03-02 14:00 UTC.
CASES = [
    ("invoice", ["paid", "invoice"]),
    ("INVOICE 1142", ["paid", "invoice"]),
    ('"pay invoice"', ["invoice"]),
    ('"invoice pay"', []),
    ("from:omar", ["invoice", "contract"]),
    ("from:omar@acme.test", ["invoice", "contract"]),
    ("from:me", ["paid"]),
    ("to:omar", ["paid"]),
    ("subject:report", ["report"]),
    ('subject:"vendor contract"', ["contract"]),
    ("label:vendors", ["contract"]),
    ("in:inbox", ["invoice", "report", "contract"]),
    ("in:sent", ["paid"]),
    ("is:unread", ["invoice", "report"]),
    ("is:read", ["paid", "contract"]),
    ("has:attachment", ["report"]),
    ("filename:report.txt", ["report"]),
    ("newer_than:1d", ["paid", "invoice"]),
    ("older_than:2d", ["contract"]),
    ("after:2026/03/01", ["paid", "invoice", "report"]),
    ("before:2026/02/28", []),  # contract: 04:00 Pacific on the 28th
    ("before:2026/03/01", ["contract"]),
    ("after:2026/02/28 before:2026/03/01", ["contract"]),
    ("after:1772323200", ["paid", "invoice", "report"]),
    ("from:omar OR has:attachment", ["invoice", "report", "contract"]),
    ("{from:omar has:attachment}", ["invoice", "report", "contract"]),
    ("-from:omar", ["paid", "report"]),
    ("-invoice in:inbox", ["report", "contract"]),
    ("(from:omar OR from:alerts) is:unread", ["invoice", "report"]),
    ("-(from:omar is:unread)", ["paid", "report", "contract"]),
    ("has:userlabels", ["contract"]),
    ("label:category_social", []),
    ("is:muted", []),
    ("in:trash", []),
    ("foo:bar", []),
]


@pytest.mark.parametrize(("q", "expected"), CASES)
def test_a_query_finds_its_messages(mail_read: GoogleWorld, q: str, expected: list[str]) -> None:
    listed = mail_read.client().users().messages().list(userId="me", q=q).execute()
    assert [m["id"] for m in listed.get("messages", [])] == [mail_read.ref(name) for name in expected]
    assert listed["resultSizeEstimate"] == len(expected)


def test_threads_match_by_any_of_their_messages(mail_read: GoogleWorld) -> None:
    listed = mail_read.client().users().threads().list(userId="me", q="in:sent").execute()
    assert [t["id"] for t in listed["threads"]] == [mail_read.ref("invoice")]


def test_a_trashed_message_is_found_where_the_query_names_trash(mail: GoogleWorld) -> None:
    gmail = mail.client()
    gmail.users().messages().trash(userId="me", id=mail.ref("report")).execute()
    assert gmail.users().messages().list(userId="me", q="report").execute() == {"resultSizeEstimate": 0}
    found = gmail.users().messages().list(userId="me", q="in:trash").execute()
    assert [m["id"] for m in found["messages"]] == [mail.ref("report")]
    anywhere = gmail.users().messages().list(userId="me", q="report in:anywhere").execute()
    assert [m["id"] for m in anywhere["messages"]] == [mail.ref("report")]


@pytest.mark.parametrize("q", ["(" * 5000 + "invoice", "- " * 5000 + "invoice", "-(" * 3000, "{(" * 3000 + "x"])
def test_a_query_nested_deep_is_answered_not_a_failure(mail_read: GoogleWorld, q: str) -> None:
    response = mail_read.raw("GET", "gmail/v1/users/me/messages", params={"q": q})
    assert response.status_code == 200, response.text
    assert isinstance(response.json()["resultSizeEstimate"], int)


def test_a_thread_has_no_raw_format(mail_read: GoogleWorld) -> None:
    response = mail_read.raw("GET", f"gmail/v1/users/me/threads/{mail_read.ref('invoice')}?format=raw")
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0]["reason"] == "invalid"


def test_a_long_query_reads_its_first_terms(mail_read: GoogleWorld) -> None:
    """At most 128 terms, operators and brackets are read: a word after them is left out."""
    gmail = mail_read.client()
    repeated = gmail.users().messages().list(userId="me", q="invoice " * 200 + "nothingmatches").execute()
    assert [m["id"] for m in repeated["messages"]] == [mail_read.ref("paid"), mail_read.ref("invoice")]
    within = gmail.users().messages().list(userId="me", q="invoice " * 100 + "nothingmatches").execute()
    assert within == {"resultSizeEstimate": 0}
