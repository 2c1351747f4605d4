"""A mailbox's filters: made, deleted, and applied to each message as it is delivered to the mailbox, before it
lands there (so it arrives with the filter's labels: one `messageAdded` history record), as Gmail applies them.
Mail already in the mailbox is never filtered again, as Gmail's API does not. A filter's `query` and
`negatedQuery` are read as messages.list reads `q` (`search.py`), and its `from`, `to` and `subject` as those
operators with the whole value. State changes and lookups, no HTTP."""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Any

from ...ids import IdSource
from ...world import Record
from . import labels, search
from .mailboxes import Collections
from .store import FILTERS, LABELS, MESSAGES

LIMIT = 1000  # filters a mailbox may have, as Gmail's reference says
CRITERIA = ("from", "to", "subject", "query", "negatedQuery", "hasAttachment", "excludeChats", "size", "sizeComparison")
SIZE_COMPARISONS = ("unspecified", "smaller", "larger")


def new_id(ids: IdSource) -> str:
    """An id shaped as Gmail's filter ids are (`ANe1Bmj` and url-safe base64)."""
    return "ANe1Bmj" + base64.urlsafe_b64encode(ids.digest("gmail:filter")[:24]).decode().rstrip("=")


def of(world: Collections, address: str) -> list[Record]:
    """The mailbox's filters, in the order they were made."""
    return sorted(world[FILTERS].by("mailbox", address), key=lambda f: f["order"])


def get(world: Collections, address: str, filter_id: str) -> Record | None:
    return world[FILTERS].get(f"{address}/{filter_id}")


def has_criteria(criteria: dict[str, Any]) -> bool:
    """Whether a filter's criteria select anything: a text given, an attachment asked for, or a size compared
    (`excludeChats` alone selects nothing: there are no chats)."""
    texts = any(criteria.get(name) for name in ("from", "to", "subject", "query", "negatedQuery"))
    sized = criteria.get("size") is not None and criteria.get("sizeComparison") in ("smaller", "larger")
    return texts or bool(criteria.get("hasAttachment")) or sized


def has_action(action: dict[str, Any]) -> bool:
    return bool(action.get("addLabelIds") or action.get("removeLabelIds") or action.get("forward"))


def same(record: Record, criteria: dict[str, Any], action: dict[str, Any]) -> bool:
    return bool(record["criteria"] == criteria and record["action"] == action)


def create(world: Collections, ids: IdSource, address: str, criteria: dict[str, Any], action: dict[str, Any]) -> Record:
    """A filter of the mailbox, its criteria and action already checked."""
    filter_id = new_id(ids)
    record: Record = {
        "id": f"{address}/{filter_id}",
        "mailbox": address,
        "filterId": filter_id,
        "order": ids.next("gmail:filter-order"),  # ours: the order they were made, which list keeps
        "criteria": criteria,
        "action": action,
        # ours: its queries as a search reads them, cut once here rather than at every message it tests
        "queries": {name: search.bounded(criteria[name]) for name in ("query", "negatedQuery") if name in criteria},
    }
    return world[FILTERS].add(record["id"], record)


def forget_label(world: Collections, address: str, label: str) -> None:
    """A deleted label taken out of the mailbox's filters' actions (a filter left without actions stays, as
    Gmail keeps one)."""
    for record in of(world, address):
        action = record["action"]
        if label in action.get("addLabelIds", ()) or label in action.get("removeLabelIds", ()):
            kept = {
                key: [i for i in value if i != label] if key in ("addLabelIds", "removeLabelIds") else value
                for key, value in action.items()
            }
            world[FILTERS].change(record["id"], action={k: v for k, v in kept.items() if v != []})


def _address_value(value: str) -> str:
    """An address criterion as Gmail reads one: `omar@` is the local part `omar`."""
    return value.strip().rstrip("@") or value


def matches(record: Record, criteria: dict[str, Any], queries: dict[str, str], mailbox: search.Mailbox) -> bool:
    """Whether an arriving message (`record`, as made) meets every criterion given (`queries`: its `query` and
    `negatedQuery` as `search.bounded` cut them)."""
    size, comparison = criteria.get("size"), criteria.get("sizeComparison")
    if size is not None and comparison == "larger" and not record["sizeEstimate"] > size:
        return False
    if size is not None and comparison == "smaller" and not record["sizeEstimate"] < size:
        return False
    if criteria.get("hasAttachment") and not record["filenames"]:
        return False
    if criteria.get("from") and not search.operator(mailbox, "from", _address_value(criteria["from"]))(record):
        return False
    if criteria.get("to"):
        wanted = _address_value(criteria["to"])
        if not any(search.operator(mailbox, header, wanted)(record) for header in ("to", "cc", "bcc")):
            return False
    if criteria.get("subject") and not search.operator(mailbox, "subject", criteria["subject"])(record):
        return False
    if queries.get("query") and not search.matcher(mailbox, queries["query"])(record):
        return False
    return not (queries.get("negatedQuery") and search.matcher(mailbox, queries["negatedQuery"])(record))


def arrival(world: Collections, address: str, at: int) -> Callable[[Record], Sequence[str]] | None:
    """What decides the labels a message arrives in `address`'s mailbox with: every filter it matches applied in
    the order they were made (each takes its labels off, then puts its own on); None when the mailbox has no
    filters."""
    found = of(world, address)
    if not found:
        return None
    names = {search.label_name(r["name"]): r["label"] for r in world[LABELS].by("mailbox", address)}

    def labelled(record: Record) -> Sequence[str]:
        mailbox = search.Arriving(address, world[MESSAGES], names, at, record)
        held = list(record["labelIds"])
        for one in found:
            if not matches(record, one["criteria"], one["queries"], mailbox):
                continue
            action = one["action"]
            removing = set(action.get("removeLabelIds", ()))
            held = [label for label in held if label not in removing]
            held += [
                label
                for label in action.get("addLabelIds", ())
                if label not in held and labels.get(world, address, label) is not None
            ]
        return held

    return labelled
