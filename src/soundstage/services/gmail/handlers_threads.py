"""Threads (`users.threads.*`): a thread is its messages in the mailbox, by their `threadId`."""

from __future__ import annotations

from typing import Any

from ..base import Reply
from ..google import paging
from . import drafts, messages
from .calls import Call, ops
from .handlers_messages import checked_labels, found
from .views import listed, thread, thread_ref

THREAD_FORMATS = ("full", "metadata", "minimal")  # a thread has no raw format


@ops("GET /gmail/v1/users/{userId}/threads")
def threads_list(call: Call) -> Any:
    """users.threads.list: the threads with a message matching `q` and `labelIds`, newest message first."""
    call.mailbox()
    size = call.integer("maxResults", 100, 1, 500)
    ids = list(dict.fromkeys(record["threadId"] for record in found(call, call.boolean("includeSpamTrash"))))
    page, next_token = paging.page(ids, "threads", call.text("pageToken"), size)
    threads = [thread_ref(messages.thread(call.world, call.me, thread_id)) for thread_id in page]
    return listed("threads", threads, next_token, len(ids))


@ops("GET /gmail/v1/users/{userId}/threads/{id}")
def threads_get(call: Call) -> Any:
    """users.threads.get: the thread's messages, oldest first, in the format asked for."""
    records = call.thread()
    return thread(records, call.format(THREAD_FORMATS), call.texts("metadataHeaders"))


def relabelled(call: Call, adding: list[str], removing: list[str]) -> Any:
    records = [messages.relabel(call.world, record, adding, removing) for record in call.thread()]
    return thread(records, "minimal")


@ops("POST /gmail/v1/users/{userId}/threads/{id}/modify")
def threads_modify(call: Call) -> Any:
    """users.threads.modify: labels added to and removed from every message of the thread."""
    adding = checked_labels(call, call.list_of("addLabelIds"))
    removing = checked_labels(call, call.list_of("removeLabelIds"))
    return relabelled(call, adding, removing)


@ops("POST /gmail/v1/users/{userId}/threads/{id}/trash")
def threads_trash(call: Call) -> Any:
    return relabelled(call, ["TRASH"], [])


@ops("POST /gmail/v1/users/{userId}/threads/{id}/untrash")
def threads_untrash(call: Call) -> Any:
    return relabelled(call, [], ["TRASH"])


@ops("DELETE /gmail/v1/users/{userId}/threads/{id}")
def threads_delete(call: Call) -> Any:
    """users.threads.delete: every message of the thread gone for good."""
    for record in call.thread():
        drafts.forget(call.world, record["id"])
        messages.delete(call.world, record)
    return Reply(204, None)
