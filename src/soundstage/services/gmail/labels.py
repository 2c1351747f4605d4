"""Labels: every mailbox's system labels, state changes and lookups, no HTTP."""

from __future__ import annotations

from typing import Any

from ...ids import IdSource
from ...world import Record, World
from .mailboxes import Collections
from .store import LABELS, MESSAGES

# Gmail's system labels in the order labels.list gives them, and those it hides from the label and message
# lists.
SYSTEM = (
    "CHAT",
    "SENT",
    "INBOX",
    "IMPORTANT",
    "TRASH",
    "DRAFT",
    "SPAM",
    "CATEGORY_FORUMS",
    "CATEGORY_UPDATES",
    "CATEGORY_PERSONAL",
    "CATEGORY_PROMOTIONS",
    "CATEGORY_SOCIAL",
    "STARRED",
    "UNREAD",
)
HIDDEN = frozenset({"CHAT", "IMPORTANT", "TRASH", "SPAM", "STARRED"})


def label_id(address: str, label: str) -> str:
    return f"{address}/{label}"


def system_label(address: str, label: str, order: int) -> Record:
    return {
        "id": label_id(address, label),
        "mailbox": address,  # ours: whose label it is
        "label": label,  # ours: its id in the API
        "order": order,  # ours: where labels.list gives it
        "name": label,
        "type": "system",
        "messageListVisibility": "hide" if label in HIDDEN else None,
        "labelListVisibility": "labelHide" if label in HIDDEN else None,
    }


def of(world: World, address: str) -> list[Record]:
    """A mailbox's labels, as labels.list orders them."""
    return sorted(world[LABELS].by("mailbox", address), key=lambda label: (label["order"], label["id"]))


def user_label(address: str, label: str, name: str, fields: dict[str, Any]) -> Record:
    return {
        "id": label_id(address, label),
        "mailbox": address,
        "label": label,
        "order": len(SYSTEM),  # after the system labels, in the order made (`of` sorts by id next)
        "name": name,
        "type": "user",
        "messageListVisibility": fields.get("messageListVisibility"),
        "labelListVisibility": fields.get("labelListVisibility"),
        "color": fields.get("color"),
    }


def new_label_id(ids: IdSource) -> str:
    """`Label_` and a number, as Gmail names user labels."""
    return f"Label_{ids.next('gmail:label')}"


def get(world: Collections, address: str, label: str) -> Record | None:
    return world[LABELS].get(label_id(address, label))


def named(world: Collections, address: str, name: str) -> Record | None:
    """The mailbox's label of that name (case aside, as Gmail compares them)."""
    wanted = name.strip().lower()
    return next((r for r in world[LABELS].by("mailbox", address) if r["name"].lower() == wanted), None)


def create(world: Collections, ids: IdSource, address: str, name: str, fields: dict[str, Any]) -> Record:
    record = user_label(address, new_label_id(ids), name, fields)
    return world[LABELS].add(record["id"], record)


def counts(world: Collections, address: str, label: str) -> dict[str, int]:
    """A label's message and thread counts, as labels.get gives them."""
    held = [m for m in world[MESSAGES].by("mailbox", address) if label in m["labelIds"]]
    unread = [m for m in held if "UNREAD" in m["labelIds"]]
    return {
        "messagesTotal": len(held),
        "messagesUnread": len(unread),
        "threadsTotal": len({m["threadId"] for m in held}),
        "threadsUnread": len({m["threadId"] for m in unread}),
    }
