"""Files (`slack.files`, by `F…` id), uploaded the way Slack has apps upload them: files.getUploadURLExternal
makes the file and an upload URL, the client posts the bytes there, and files.completeUploadExternal
finishes it and shares it in conversations, each share a message carrying the file.

The upload URL is served by this service, under the world's own base (`/w/<world>/slack/upload/v1/<ticket>`).
Clients send no token there (slack_sdk does not), so the ticket itself is the credential: a world token
of type `upload` that speaks for the file (its `user` is the file id), good for that file only.

A record is Slack's file object and, *ours*: `state` (`pending`, `uploaded`, `complete`), `length` (the
size announced), `content` (the bytes as UTF-8 text, None when they are not text).
"""

from __future__ import annotations

import mimetypes
from pathlib import PurePosixPath
from typing import Any

from ...world import Principal, Record, World
from . import messages, store
from .store import CHANNELS, FILES
from .timestamps import now_seconds

UPLOAD_PATH = "/upload/v1/"
UPLOAD = "upload"  # the token type of an upload ticket

# Slack's `filetype` and `pretty_type` of common extensions; other files are `binary`.
_TYPES = {
    "txt": ("text", "Plain Text"),
    "md": ("markdown", "Markdown (raw)"),
    "csv": ("csv", "CSV"),
    "json": ("json", "JSON"),
    "py": ("python", "Python"),
    "log": ("text", "Plain Text"),
    "yaml": ("yaml", "YAML"),
    "yml": ("yaml", "YAML"),
    "html": ("html", "HTML"),
    "pdf": ("pdf", "PDF"),
    "png": ("png", "PNG"),
    "jpg": ("jpg", "JPEG"),
    "jpeg": ("jpg", "JPEG"),
    "gif": ("gif", "GIF"),
    "zip": ("zip", "Zip"),
}


def start(world: World, user_id: str, filename: str, length: int, alt_txt: str | None) -> tuple[Record, str]:
    """A new file waiting for its bytes, and the ticket of its upload URL."""
    file_id = world.ids.slack("F")
    team_id = store.team_id(world)
    extension = PurePosixPath(filename).suffix.lower().lstrip(".")
    filetype, pretty = _TYPES.get(extension, ("binary", "Binary"))
    created = now_seconds(world)
    record: dict[str, Any] = {
        "id": file_id,
        "created": created,
        "timestamp": created,
        "name": filename,
        "title": filename,
        "mimetype": mimetypes.guess_type(filename)[0] or "application/octet-stream",
        "filetype": filetype,
        "pretty_type": pretty,
        "user": user_id,
        "user_team": team_id,
        "editable": False,
        "size": 0,
        "mode": "hosted",
        "is_external": False,
        "external_type": "",
        "is_public": False,
        "public_url_shared": False,
        "display_as_bot": False,
        "username": "",
        "url_private": f"https://files.slack.com/files-pri/{team_id}-{file_id}/{filename}",
        "url_private_download": f"https://files.slack.com/files-pri/{team_id}-{file_id}/download/{filename}",
        "permalink": f"https://{store.domain(world)}.slack.com/files/{user_id}/{file_id}/{filename}",
        "permalink_public": f"https://slack-files.com/{team_id}-{file_id}-{world.ids.hex('slack:file_secret', 10)}",
        "comments_count": 0,
        "is_starred": False,
        "shares": {},
        "channels": [],
        "groups": [],
        "ims": [],
        "has_rich_preview": False,
        "file_access": "visible",
        "state": "pending",
        "length": length,
        "content": None,
    }
    if alt_txt:
        record["alt_txt"] = alt_txt
    ticket = world.ids.hex("slack:upload_ticket", 40)
    world.tokens[ticket] = Principal("slack", file_id, UPLOAD)
    return world[FILES].add(file_id, record), ticket


def receive(world: World, file_id: str, data: bytes) -> Record:
    """The bytes posted to a file's upload URL."""
    try:
        content: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        content = None
    return world[FILES].change(file_id, size=len(data), content=content, state="uploaded")


def complete(world: World, file: Record, title: str | None) -> Record:
    return world[FILES].change(file["id"], title=title or file["title"], state="complete")


def share(
    world: World, file: Record, conversation: Record, user_id: str, comment: str, thread_ts: str | None
) -> Record:
    """Shares a file in a conversation: a message carrying it (with the comment as its text)."""
    shared = world[FILES].change(file["id"], **_shared_in(file, conversation))
    posted = messages.post(
        world,
        conversation["id"],
        user_id,
        comment,
        thread_ts=thread_ts,
        extra={"files": [view(shared)], "upload": True, "display_as_bot": False},
        composed=False,
    )
    where = "private" if conversation.get("is_im") or conversation["is_private"] else "public"
    entry = {
        "reply_users": [],
        "reply_users_count": 0,
        "reply_count": 0,
        "ts": posted["ts"],
        "channel_name": conversation.get("name", ""),
        "team_id": store.team_id(world),
        "share_user_id": user_id,
        "source": "UNKNOWN",
    }
    if thread_ts:
        entry["thread_ts"] = thread_ts
    shares = {kind: dict(by_channel) for kind, by_channel in shared["shares"].items()}
    shares.setdefault(where, {}).setdefault(conversation["id"], []).append(entry)
    return world[FILES].change(file["id"], shares=shares)


def _shared_in(file: Record, conversation: Record) -> dict[str, Any]:
    """The `channels`/`groups`/`ims` lists and `is_public` once a file is also in `conversation`."""
    field = "ims" if conversation.get("is_im") else "groups" if conversation["is_private"] else "channels"
    listed = file[field] if conversation["id"] in file[field] else [*file[field], conversation["id"]]
    return {field: listed, "is_public": file["is_public"] or field == "channels"}


def view(record: Record) -> dict[str, Any]:
    """A file as Slack answers it: without our fields."""
    return {k: v for k, v in record.items() if k not in ("state", "length", "content")}


def can_see(world: World, file: Record, user_id: str) -> bool:
    """Whoever uploaded a file, or may see a conversation it was shared in."""
    if file["user"] == user_id:
        return True
    for channel_id in (*file["channels"], *file["groups"], *file["ims"]):
        conversation = world[CHANNELS].get(channel_id)
        if conversation is not None and store.can_see(conversation, user_id):
            return True
    return False
