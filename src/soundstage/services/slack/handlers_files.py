"""Slack's files.* methods: the external upload flow (files.getUploadURLExternal, the upload URL,
files.completeUploadExternal), files.info and files.list."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from ..base import loads_json
from . import files
from .calls import Call, numbered_paging, ops
from .errors import SlackError
from .store import FILES

_MAX_FILES = 10  # files.completeUploadExternal takes at most this many at once


@ops("files.getUploadURLExternal")
def files_get_upload_url_external(call: Call) -> dict[str, Any]:
    filename = call.args.string("filename")
    if not filename:
        raise SlackError("invalid_arguments", "missing required field: filename")
    if call.args.values.get("length") in (None, ""):
        raise SlackError("invalid_arguments", "missing required field: length")
    length = call.args.integer("length", 0)
    if length < 1:
        raise SlackError("invalid_arguments", "length must be a positive integer")
    record, ticket = files.start(call.world, call.me, filename, length, call.args.string("alt_txt"))
    return {"upload_url": f"{call.world_base}{files.UPLOAD_PATH}{ticket}", "file_id": record["id"]}


def _files_argument(call: Call) -> list[dict[str, Any]]:
    """`files`: a JSON array of `{id, title}`."""
    value = call.args.values.get("files")
    if isinstance(value, str):
        try:
            value = loads_json(value)
        except ValueError:
            value = None
    if not isinstance(value, list) or not value or not all(isinstance(f, dict) and f.get("id") for f in value):
        raise SlackError("invalid_arguments", "files must be a JSON array of objects with an id")
    if len(value) > _MAX_FILES:
        raise SlackError("invalid_arguments", f"at most {_MAX_FILES} files at once")
    return value


def _destinations(call: Call) -> list[Record]:
    """Where to share: `channel_id`, else the comma-separated `channels` (channel or user ids)."""
    named = call.args.string("channel_id")
    targets = [named] if named else call.args.ids("channels")
    return [call.opened(*call.postable(target)) for target in targets]


@ops("files.completeUploadExternal")
def files_complete_upload_external(call: Call) -> dict[str, Any]:
    wanted = _files_argument(call)
    uploads = []
    for item in wanted:
        record = call.world[FILES].get(str(item["id"]))
        if record is None or record["user"] != call.me or record["state"] != "uploaded":
            raise SlackError("file_not_found", f"{item['id']} has not been uploaded")
        uploads.append((record, item.get("title")))
    conversations = _destinations(call)
    if len(conversations) > 1 and call.args.string("thread_ts"):
        raise SlackError("invalid_arguments", "thread_ts takes one channel")
    thread_ts = call.thread(conversations[0]) if conversations else None
    comment = call.args.string("initial_comment") or ""
    answered = []
    for record, title in uploads:
        done = files.complete(call.world, record, title if isinstance(title, str) else None)
        for conversation in conversations:
            done = files.share(call.world, done, conversation, call.me, comment, thread_ts)
        answered.append({"id": done["id"], "title": done["title"]})
    return {"files": answered}


def _visible(call: Call, record: Record | None) -> Record:
    if record is None or record["state"] != "complete" or not files.can_see(call.world, record, call.me):
        raise SlackError("file_not_found")
    return record


@ops("files.info")
def files_info(call: Call) -> dict[str, Any]:
    record = _visible(call, call.world[FILES].get(call.args.string("file") or ""))
    body: dict[str, Any] = {"file": files.view(record), "comments": []}
    if record["content"] is not None:
        body["content"] = record["content"]
    body["response_metadata"] = {"next_cursor": ""}
    return body


@ops("files.list")
def files_list(call: Call) -> dict[str, Any]:
    """Files the caller may see, newest first, by `user`, `channel`, `ts_from`/`ts_to` and `types`."""
    user_id = call.args.string("user")
    if user_id:
        call.existing_user(user_id)
    channel_id = call.args.string("channel")
    oldest = call.args.micros("ts_from", "invalid_arguments")
    latest = call.args.micros("ts_to", "invalid_arguments")
    types = set(call.args.ids("types")) - {"all"}
    unknown = types - {"spaces", "snippets", "images", "gdocs", "zips", "pdfs"}
    if unknown:
        raise SlackError("unknown_type")
    found = [
        files.view(f)
        for f in reversed(list(call.world[FILES]))
        if f["state"] == "complete"
        and files.can_see(call.world, f, call.me)
        and (not user_id or f["user"] == user_id)
        and (not channel_id or channel_id in (*f["channels"], *f["groups"], *f["ims"]))
        and (oldest is None or f["created"] * US >= oldest)
        and (latest is None or f["created"] * US <= latest)
        and (not types or _kind(f) in types)
    ]
    count = min(max(call.args.integer("count", 100), 1), 1000)
    page = max(call.args.integer("page", 1), 1)
    chosen = found[(page - 1) * count : page * count]
    return {"files": chosen, "paging": numbered_paging(len(found), count, page)["paging"]}


def _kind(record: Record) -> str:
    """The `types` value of files.list a file falls under."""
    if record["mimetype"].startswith("image/"):
        return "images"
    if record["filetype"] == "pdf":
        return "pdfs"
    if record["filetype"] == "zip":
        return "zips"
    return "snippets" if record["content"] is not None else ""
