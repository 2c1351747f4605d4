"""Drafts: each names a message of its mailbox carrying the DRAFT label; state changes, no HTTP."""

from __future__ import annotations

from ...ids import IdSource
from ...world import Record
from . import messages, mime, sending
from .mailboxes import Collections
from .store import DRAFTS, MESSAGES


def new_id(ids: IdSource) -> str:
    """`r` and 19 digits, as Gmail's draft ids are."""
    return "r" + str(int.from_bytes(ids.digest("gmail:draft")[:8], "big") % 10**19).rjust(19, "0")


def compose(
    world: Collections, ids: IdSource, address: str, name: str, raw: bytes, thread_id: str | None, at: int
) -> Record:
    """The draft's message as Gmail keeps it: From the account, in the thread asked for where it may join it."""
    message = sending.prepare(raw, address, name, at, ids)
    subject = str(message.get("Subject", ""))
    joined = sending.own_thread(world, address, thread_id, subject)
    return messages.add(world, ids, address, mime.serialize(message), at, ["DRAFT"], joined)


def create(world: Collections, ids: IdSource, message: Record) -> Record:
    draft_id = new_id(ids)
    return world[DRAFTS].add(draft_id, {"id": draft_id, "mailbox": message["mailbox"], "message": message["id"]})


def replace(world: Collections, draft: Record, message: Record) -> Record:
    """The draft with a new message in place of its old one (which is deleted)."""
    old = world[MESSAGES].one(draft["message"])
    updated = world[DRAFTS].change(draft["id"], message=message["id"])
    messages.delete(world, old)
    return updated


def delete(world: Collections, draft: Record) -> None:
    """The draft and its message deleted."""
    world[DRAFTS].remove(draft["id"])
    messages.delete(world, world[MESSAGES].one(draft["message"]))


def forget(world: Collections, message_id: str) -> None:
    """The drafts of a message being deleted, deleted with it."""
    for draft in world[DRAFTS].by("message", message_id):
        world[DRAFTS].remove(draft["id"])


def of(world: Collections, address: str) -> list[Record]:
    """A mailbox's drafts, newest message first."""
    found = world[DRAFTS].by("mailbox", address)
    dated = [(world[MESSAGES].one(d["message"]), d) for d in found]
    return [d for m, d in sorted(dated, key=lambda pair: (-pair[0]["internalDate"], pair[0]["id"]))]
