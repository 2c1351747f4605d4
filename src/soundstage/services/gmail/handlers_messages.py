"""Messages (`users.messages.*`)."""

from __future__ import annotations

from typing import Any

from ..base import Reply
from ..google import paging
from . import drafts, labels, messages, mime, search, sending
from .calls import Call, ops
from .errors import invalid_argument
from .store import LABELS, MESSAGES
from .views import labelled, listed, message, message_ref

RAW_REQUIRED = "'raw' RFC822 payload message string or uploading message via /upload/* URL required"


def found(call: Call, everywhere: bool) -> list[Any]:
    """The mailbox's messages that the call's `q` and `labelIds` ask for, newest first."""
    mailbox = search.Mailbox(
        call.me,
        call.world[MESSAGES],
        {search.label_name(r["name"]): r["label"] for r in call.world[LABELS].by("mailbox", call.me)},
        call.now(),
    )
    return list(search.search(mailbox, call.text("q") or "", call.texts("labelIds"), everywhere))


@ops("GET /gmail/v1/users/{userId}/messages")
def messages_list(call: Call) -> Any:
    """users.messages.list: the messages matching `q` and `labelIds`, newest first, by pages."""
    call.mailbox()
    size = call.integer("maxResults", 100, 1, 500)
    matches = found(call, call.boolean("includeSpamTrash"))
    page, next_token = paging.page(matches, "messages", call.text("pageToken"), size)
    return listed("messages", [message_ref(record) for record in page], next_token, len(matches))


@ops("GET /gmail/v1/users/{userId}/messages/{id}")
def messages_get(call: Call) -> Any:
    """users.messages.get, in the format asked for (`full` by default)."""
    return message(call.message(), call.format(), call.texts("metadataHeaders"))


@ops("GET /gmail/v1/users/{userId}/messages/{messageId}/attachments/{id}")
def messages_attachments_get(call: Call) -> Any:
    """users.messages.attachments.get: an attached file's content, by the id its part carries."""
    record = call.message(call.params["messageId"])
    prefix, _, part_id = call.params["id"].rpartition("_")
    part = mime.part(mime.parse(mime.from_b64url(record["raw"])), part_id)
    if f"{prefix}_" != f"ANGjdJ{record['id']}_" or part is None or not part.get_filename():
        raise invalid_argument("Invalid attachment token")
    data = mime.body(part)
    return {"size": len(data), "data": mime.b64url(data)}


@ops("POST /gmail/v1/users/{userId}/messages/send")
def messages_send(call: Call) -> Any:
    """users.messages.send: the `raw` message sent from the account, delivered to the world's mailboxes."""
    call.mailbox()
    raw = call.string(call.fields, "raw")
    if not raw:
        raise invalid_argument(RAW_REQUIRED)
    thread_id = call.string(call.fields, "threadId")
    sent = sending.send(call.world, call.world.ids, call.me, call.name, mime.from_b64url(raw), thread_id, call.now())
    return labelled(sent)


def checked_labels(call: Call, given: list[str]) -> list[str]:
    """Label ids of the mailbox; Gmail's 400 for one it lacks, or for DRAFT, which only drafts carry."""
    for label in given:
        if label == "DRAFT" or labels.get(call.world, call.me, label) is None:
            raise invalid_argument(f"Invalid label: {label}")
    return given


@ops("POST /gmail/v1/users/{userId}/messages/{id}/modify")
def messages_modify(call: Call) -> Any:
    """users.messages.modify: labels added and removed."""
    record = call.message()
    adding = checked_labels(call, call.list_of("addLabelIds"))
    removing = checked_labels(call, call.list_of("removeLabelIds"))
    return labelled(messages.relabel(call.world, record, adding, removing))


@ops("POST /gmail/v1/users/{userId}/messages/{id}/trash")
def messages_trash(call: Call) -> Any:
    """users.messages.trash: the TRASH label added (its other labels kept, for untrash)."""
    return labelled(messages.relabel(call.world, call.message(), ["TRASH"], []))


@ops("POST /gmail/v1/users/{userId}/messages/{id}/untrash")
def messages_untrash(call: Call) -> Any:
    """users.messages.untrash: the TRASH label removed."""
    return labelled(messages.relabel(call.world, call.message(), [], ["TRASH"]))


@ops("DELETE /gmail/v1/users/{userId}/messages/{id}")
def messages_delete(call: Call) -> Any:
    """users.messages.delete: the message gone for good (a draft's message with its draft)."""
    record = call.message()
    drafts.forget(call.world, record["id"])
    messages.delete(call.world, record)
    return Reply(204, None)


BATCH = 1000  # ids in one batch request, at most, as Gmail's reference says


def batch(call: Call) -> list[Any]:
    """The messages a batch request's `ids` name, all checked before any changes (a refusal changes nothing)."""
    ids = call.list_of("ids")
    if not ids:
        raise invalid_argument("No message ids specified")
    if len(ids) > BATCH:
        raise invalid_argument(f"Too many ids: at most {BATCH} per request")
    return [call.message(message_id) for message_id in dict.fromkeys(ids)]


@ops("POST /gmail/v1/users/{userId}/messages/batchModify")
def messages_batch_modify(call: Call) -> Any:
    """users.messages.batchModify: labels added to and removed from every message named; 204."""
    records = batch(call)
    adding = checked_labels(call, call.list_of("addLabelIds"))
    removing = checked_labels(call, call.list_of("removeLabelIds"))
    for record in records:
        messages.relabel(call.world, record, adding, removing)
    return Reply(204, None)


@ops("POST /gmail/v1/users/{userId}/messages/batchDelete")
def messages_batch_delete(call: Call) -> Any:
    """users.messages.batchDelete: every message named gone for good (drafts' with their drafts); 204."""
    for record in batch(call):
        drafts.forget(call.world, record["id"])
        messages.delete(call.world, record)
    return Reply(204, None)
