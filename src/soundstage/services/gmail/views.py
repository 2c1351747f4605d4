"""Gmail records rendered as the API's resources (`Label`, `Message` in each format, `Thread`, `Draft`,
`History`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...world import Record
from . import mime

FORMATS = ("full", "metadata", "minimal", "raw")


def label(record: Record, counts: dict[str, int] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"id": record["label"], "name": record["name"]}
    for field in ("messageListVisibility", "labelListVisibility"):
        if record[field] is not None:
            body[field] = record[field]
    body["type"] = record["type"]
    if record.get("color"):
        body["color"] = record["color"]
    if counts is not None:
        body.update(counts)
    return body


def message_ref(record: Record) -> dict[str, str]:
    """A message as lists name one: its id and thread."""
    return {"id": record["id"], "threadId": record["threadId"]}


def labelled(record: Record) -> dict[str, Any]:
    """A message as send, modify and trash answer it: its id, thread and labels."""
    return {"id": record["id"], "threadId": record["threadId"], "labelIds": list(record["labelIds"])}


def message(record: Record, form: str = "full", headers: Sequence[str] = ()) -> dict[str, Any]:
    """A `Message` in format `form`; `headers`, for `metadata`, the only headers wanted (all when empty)."""
    body: dict[str, Any] = {"id": record["id"], "threadId": record["threadId"]}
    if record["labelIds"]:
        body["labelIds"] = list(record["labelIds"])
    body["snippet"] = record["snippet"]
    raw = mime.from_b64url(record["raw"])
    if form == "full":
        body["payload"] = mime.payload(mime.parse(raw), attachment_prefix(record))
    elif form == "metadata":
        parsed = mime.parse(raw)
        wanted = {name.lower() for name in headers}
        body["payload"] = {
            "mimeType": parsed.get_content_type(),
            "headers": [
                {"name": name, "value": str(value)}
                for name, value in parsed.items()
                if not wanted or name.lower() in wanted
            ],
        }
    body["sizeEstimate"] = record["sizeEstimate"]
    if form == "raw":
        body["raw"] = record["raw"]
    body["historyId"] = str(record["historyId"])
    body["internalDate"] = str(record["internalDate"] // 1000)
    return body


def attachment_prefix(record: Record) -> str:
    """What a message's attachment ids start with (the partId follows)."""
    return f"ANGjdJ{record['id']}_"


def thread(records: Sequence[Record], form: str = "full", headers: Sequence[str] = ()) -> dict[str, Any]:
    """A `Thread` of its messages, oldest first."""
    return {
        "id": records[0]["threadId"],
        "historyId": str(max(r["historyId"] for r in records)),
        "messages": [message(r, form, headers) for r in records],
    }


def thread_ref(records: Sequence[Record]) -> dict[str, str]:
    """A thread as threads.list names one: its newest message's snippet and its history id."""
    newest = max(records, key=lambda r: (r["internalDate"], r["id"]))
    return {
        "id": newest["threadId"],
        "snippet": newest["snippet"],
        "historyId": str(max(r["historyId"] for r in records)),
    }


def draft(record: Record, body: dict[str, Any]) -> dict[str, Any]:
    return {"id": record["id"], "message": body}


def history(record: Record, labels: list[str] | None) -> dict[str, Any]:
    """A `History` record of one change; `labels` the message's labels now (None once it is deleted)."""
    ref = {"id": record["message"], "threadId": record["threadId"]}
    body: dict[str, Any] = {"id": str(record["historyId"]), "messages": [ref]}
    current = {**ref, "labelIds": labels} if labels is not None else ref
    kind = record["kind"]
    if kind == "messageAdded":
        body["messagesAdded"] = [{"message": current}]
    elif kind == "messageDeleted":
        body["messagesDeleted"] = [{"message": ref}]
    else:
        body["labelsAdded" if kind == "labelAdded" else "labelsRemoved"] = [
            {"message": current, "labelIds": record["labelIds"]}
        ]
    return body


def filter_view(record: Record) -> dict[str, Any]:
    """A `Filter`: its id, criteria and action, each as set."""
    return {"id": record["filterId"], "criteria": dict(record["criteria"]), "action": dict(record["action"])}


def listed(key: str, items: list[dict[str, Any]], next_token: str | None, total: int) -> dict[str, Any]:
    """A list answer as Gmail gives one: the page's items under `key` (left out when none), `nextPageToken`
    (left out on the last page), `resultSizeEstimate`."""
    body: dict[str, Any] = {key: items} if items else {}
    if next_token:
        body["nextPageToken"] = next_token
    body["resultSizeEstimate"] = total
    return body
