"""Labels: every mailbox's system labels, state changes and lookups, no HTTP."""

from __future__ import annotations

from ...world import Record, World
from .store import LABELS

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
