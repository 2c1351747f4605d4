"""Gmail test worlds: live worlds on the shared test server, reached the way an agent reaches them."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

import pytest
from tests.services.google_world import SCENE, GoogleWorld

# Maya's mailbox holds a thread with Omar (his invoice and her answer), a note from outside the world with an
# attachment, and a labelled, read message; Omar has a draft.
MAIL = (
    SCENE
    + """
  gmail:
    labels:
      - {ref: vendors, mailbox: $maya, name: Vendors}
    messages:
      - ref: invoice
        from: $omar
        to: [$maya]
        subject: Invoice 1142
        body: "Please pay invoice 1142 by Friday. It's overdue."
        ago: 3h
      - {ref: paid, from: $maya, to: [$omar], reply_to: $invoice, body: Paid it this morning., ago: 2h, mailbox: $maya}
      - ref: report
        from: alerts@vendor.example
        to: [$maya]
        subject: Weekly report
        body: Latency report attached.
        ago: 26h
        attachments: [{filename: report.txt, mime_type: text/plain, content: "p99 820ms"}]
      - {ref: contract, from: $omar, to: [$maya], subject: Vendor contract, body: Signed copy., ago: 50h,
         labels: [$vendors], read: true}
    drafts:
      - {ref: omar_draft, mailbox: $omar, to: [$maya], subject: Lunch, body: Lunch on Friday?}
"""
)


def gmail_world(live: Any) -> GoogleWorld:
    return GoogleWorld(live, "gmail", "v1", "GMAIL_API_URL")


@pytest.fixture(scope="module")
def gmail_read(stage: Any) -> GoogleWorld:
    """One world shared by a module's read-only tests."""
    return gmail_world(stage.world(SCENE))


@pytest.fixture(scope="module")
def mail_read(stage: Any) -> GoogleWorld:
    """One world with mail in it, shared by a module's read-only tests."""
    return gmail_world(stage.world(MAIL))


@pytest.fixture
def mail(stage: Any) -> GoogleWorld:
    """A fresh world with mail in it, for tests that write."""
    return gmail_world(stage.world(MAIL))


def raw(to: str, subject: str, body: str, **headers: str) -> str:
    """A message as a client sends it: RFC 2822 bytes, base64url."""
    message = EmailMessage()
    message["To"] = to
    message["Subject"] = subject
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return base64.urlsafe_b64encode(message.as_bytes()).decode()
