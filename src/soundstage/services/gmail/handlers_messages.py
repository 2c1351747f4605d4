"""Messages (`users.messages.*`)."""

from __future__ import annotations

from typing import Any

from ..base import Reply
from ..google import paging
from ..google.errors import GoogleError
from . import drafts, inserting, labels, messages, mime, search, sending
from .calls import Call, ops
from .errors import invalid_argument
from .store import LABELS, MESSAGES
from .views import labelled, listed, message, message_ref


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
@ops("POST /upload/gmail/v1/users/{userId}/messages/send")
def messages_send(call: Call) -> Any:
    """users.messages.send: the message (`raw`, or uploaded) sent from the account, delivered to the world's
    mailboxes."""
    call.mailbox()
    fields = call.metadata()
    raw, thread_id = call.raw_message(fields), call.string(fields, "threadId")
    return labelled(sending.send(call.world, call.world.ids, call.me, call.name, raw, thread_id, call.now()))


DATE_SOURCES = ("receivedTime", "dateHeader")


def placed(call: Call, date_source: str) -> Any:
    """A message (`raw`, or uploaded) put straight into the caller's mailbox with `labelIds`, in `threadId`, dated
    as `internalDateSource` says (`date_source` by default); with `deleted`, kept only where Gmail keeps it then
    (for an administrator's Vault), so nowhere the mailbox shows."""
    call.mailbox()
    source = call.text("internalDateSource") or date_source
    if source not in DATE_SOURCES:
        raise GoogleError(400, "invalid", f"Invalid value at 'internal_date_source' ({source})", "internalDateSource")
    deleted = call.boolean("deleted")
    fields = call.metadata()
    raw = call.raw_message(fields)
    label_ids = checked_labels(call, call.list_of("labelIds", fields))
    thread_id = call.string(fields, "threadId")
    message = mime.read(raw)
    at = (inserting.date_of(message) if source == "dateHeader" else None) or call.now()
    if deleted:
        kept = messages.new_id(call.world.ids)
        return {"id": kept, "threadId": kept, "labelIds": label_ids}
    return labelled(inserting.place(call.world, call.world.ids, call.me, message, label_ids, thread_id, at))


@ops("POST /gmail/v1/users/{userId}/messages")
@ops("POST /upload/gmail/v1/users/{userId}/messages")
def messages_insert(call: Call) -> Any:
    """users.messages.insert: the message put into the mailbox as given, as IMAP's APPEND does; not sent."""
    return placed(call, "receivedTime")


@ops("POST /gmail/v1/users/{userId}/messages/import")
@ops("POST /upload/gmail/v1/users/{userId}/messages/import")
def messages_import(call: Call) -> Any:
    """users.messages.import: the message put into the mailbox as received mail is (`neverMarkSpam` and
    `processForCalendar` read: nothing is spam here, and mail makes no calendar events); not sent."""
    call.boolean("neverMarkSpam")
    call.boolean("processForCalendar")
    return placed(call, "dateHeader")


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
