"""Drafts (`users.drafts.*`)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from ..google import paging
from . import drafts, mime, sending
from .calls import Call, ops
from .errors import invalid_argument, not_found
from .handlers_messages import found
from .store import DRAFTS, MESSAGES
from .views import draft, labelled, listed, message, message_ref


def composed(call: Call) -> Record:
    """The draft's message of the body's `message` (`raw`, or uploaded; `threadId`), in the caller's mailbox."""
    given = call.metadata().get("message")
    if given is None and call.uploading:  # an upload's metadata may leave the message out: its media is it
        given = {}
    if not isinstance(given, dict):
        raise invalid_argument("Missing draft message")
    raw, thread_id = call.raw_message(given), call.string(given, "threadId")
    return drafts.compose(call.world, call.world.ids, call.me, call.name, raw, thread_id, call.now())


def answer(record: Record, call: Call) -> dict[str, Any]:
    return draft(record, labelled(call.world[MESSAGES].one(record["message"])))


@ops("POST /gmail/v1/users/{userId}/drafts")
@ops("POST /upload/gmail/v1/users/{userId}/drafts")
def drafts_create(call: Call) -> Any:
    """users.drafts.create: a message with the DRAFT label, and its draft."""
    call.mailbox()
    return answer(drafts.create(call.world, call.world.ids, composed(call)), call)


@ops("GET /gmail/v1/users/{userId}/drafts/{id}")
def drafts_get(call: Call) -> Any:
    record = call.draft()
    return draft(record, message(call.world[MESSAGES].one(record["message"]), call.format()))


@ops("GET /gmail/v1/users/{userId}/drafts")
def drafts_list(call: Call) -> Any:
    """users.drafts.list: the drafts whose messages match `q`, newest first, by pages."""
    call.mailbox()
    size = call.integer("maxResults", 100, 1, 500)
    everywhere = call.boolean("includeSpamTrash")
    if call.text("q"):
        wanted = {record["id"] for record in found(call, everywhere)}
        found_drafts = [d for d in drafts.of(call.world, call.me) if d["message"] in wanted]
    else:
        found_drafts = drafts.of(call.world, call.me)
    page, next_token = paging.page(found_drafts, "drafts", call.text("pageToken"), size)
    items = [draft(d, message_ref(call.world[MESSAGES].one(d["message"]))) for d in page]
    return listed("drafts", items, next_token, len(found_drafts))


@ops("PUT /gmail/v1/users/{userId}/drafts/{id}")
@ops("PUT /upload/gmail/v1/users/{userId}/drafts/{id}")
def drafts_update(call: Call) -> Any:
    """users.drafts.update: the draft's message replaced (a new message id)."""
    record = call.draft()
    return answer(drafts.replace(call.world, record, composed(call)), call)


@ops("POST /gmail/v1/users/{userId}/drafts/send")
@ops("POST /upload/gmail/v1/users/{userId}/drafts/send")
def drafts_send(call: Call) -> Any:
    """users.drafts.send: the draft (as updated by the body's `message`, or by the uploaded one, when given)
    sent, and gone."""
    call.mailbox()
    fields = call.metadata()
    draft_id = call.string(fields, "id")
    if not draft_id:
        raise invalid_argument("Invalid draft")
    record = call.world[DRAFTS].get(draft_id)
    if record is None or record["mailbox"] != call.me:
        raise not_found()
    if fields.get("message") is not None or call.uploading:
        record = drafts.replace(call.world, record, composed(call))
    held = call.world[MESSAGES].one(record["message"])
    raw = mime.from_b64url(held["raw"])
    sending.recipients(mime.parse(raw))  # none: Gmail's 400, the draft kept
    drafts.delete(call.world, record)
    thread_id = held["threadId"] if held["threadId"] != held["id"] else None
    sent = sending.send(call.world, call.world.ids, call.me, call.name, raw, thread_id, call.now())
    return labelled(sent)


@ops("DELETE /gmail/v1/users/{userId}/drafts/{id}")
def drafts_delete(call: Call) -> Any:
    """users.drafts.delete: the draft and its message gone for good."""
    drafts.delete(call.world, call.draft())
    return Reply(204, None)
