"""What the seeds/customer-email-draft.yaml agents share: Northwind's latest email in Laura's mailbox,
a reply to it composed in its thread, and that reply left as a draft. Plain HTTP (httpx) to Gmail."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

import httpx

NORTHWIND = "ops@northwind.example"


def latest_from_northwind(gmail: httpx.Client) -> dict[str, Any]:
    """Northwind's newest email (the listing is newest first), its headers by name under `headers`."""
    found = gmail.get("gmail/v1/users/me/messages", params={"q": f"from:{NORTHWIND}"}).raise_for_status().json()
    message = (
        gmail.get(f"gmail/v1/users/me/messages/{found['messages'][0]['id']}", params={"format": "metadata"})
        .raise_for_status()
        .json()
    )
    message["headers"] = {h["name"]: h["value"] for h in message["payload"]["headers"]}
    return message


def reply_to(original: dict[str, Any], body: str) -> dict[str, Any]:
    """A reply to `original` in its thread: Gmail's message resource (`raw` and `threadId`)."""
    reply = EmailMessage()
    reply["To"] = NORTHWIND
    reply["Subject"] = original["headers"]["Subject"]
    reply["In-Reply-To"] = original["headers"]["Message-ID"]
    reply["References"] = original["headers"]["Message-ID"]
    reply.set_content(body)
    return {"raw": base64.urlsafe_b64encode(reply.as_bytes()).decode(), "threadId": original["threadId"]}


def draft(gmail: httpx.Client, message: dict[str, Any]) -> dict[str, Any]:
    """users.drafts.create: the message left in the mailbox, unsent."""
    return gmail.post("gmail/v1/users/me/drafts", json={"message": message}).raise_for_status().json()
