"""The mailbox's history (`users.history.list`)."""

from __future__ import annotations

from typing import Any

from ..google import paging
from .calls import Call, ops
from .errors import invalid_argument, not_found
from .store import HISTORY, MESSAGES
from .views import history

KINDS = ("messageAdded", "messageDeleted", "labelAdded", "labelRemoved")


@ops("GET /gmail/v1/users/{userId}/history")
def history_list(call: Call) -> Any:
    """users.history.list: the mailbox's changes after `startHistoryId`, oldest first, one record per change;
    `historyTypes` and `labelId` narrow them. A start older than the mailbox's kept history is Gmail's 404."""
    mailbox = call.mailbox()
    start = call.text("startHistoryId")
    if not start:
        raise invalid_argument("Missing required parameter: startHistoryId")
    if not (start.isascii() and start.isdigit()):
        raise invalid_argument("Invalid startHistoryId")
    kinds = call.texts("historyTypes")
    for kind in kinds:
        if kind not in KINDS:
            raise invalid_argument(f"Invalid value at 'history_types' ({kind})")
    if int(start) < mailbox["floor"]:
        raise not_found()
    size = call.integer("maxResults", 100, 1, 500)
    label = call.text("labelId")
    newest = int(mailbox["historyId"])
    records = [call.world[HISTORY].get(f"{call.me}/{n}") for n in range(int(start) + 1, newest + 1)]
    listed = [
        r
        for r in records
        if r is not None and (not kinds or r["kind"] in kinds) and (label is None or label in _labels(call, r))
    ]
    page, next_token = paging.page(listed, "history", call.text("pageToken"), size)
    body: dict[str, Any] = {}
    if page:
        body["history"] = [history(r, _now(call, r["message"])) for r in page]
    if next_token:
        body["nextPageToken"] = next_token
    body["historyId"] = str(newest)
    return body


def _now(call: Call, message_id: str) -> list[str] | None:
    held = call.world[MESSAGES].get(message_id)
    return list(held["labelIds"]) if held is not None else None


def _labels(call: Call, record: Any) -> list[str]:
    """The labels a change counts as having for `labelId`: the message's now, or those it changed."""
    return _now(call, record["message"]) or record["labelIds"]
