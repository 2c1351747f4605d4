"""Slack's request conventions: the `ops` registry, a method's arguments and the `Call` handlers receive.

Arguments come in the query string, form, multipart and JSON bodies alike, merged, then read with the
type each has in Slack (strings, `1`/`0`/`true`/`false` booleans, integers, JSON). Wire problems get
Slack's own codes: `missing_post_type`, `invalid_post_type`, `invalid_charset`, `invalid_form_data`,
`invalid_json`, `json_not_object`, `invalid_arg_name`, `invalid_array_arg`. Slack also warns
`missing_charset` about a JSON body without `charset=utf-8`, and `superfluous_charset` about a form body
with one. `Call` reads the arguments that name records (a conversation, a user, a message...) with the
error codes Slack gives for each, before a handler writes anything.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from email.parser import BytesParser
from email.policy import HTTP
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ...world import Record, World
from ..base import Operations, ServiceRequest, loads_json, parse_query
from . import channels, posting, store
from .errors import SlackError
from .names import EMOJI, channel_name_error
from .timestamps import ts_us

ops = Operations("slack")

_ARG_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,255}")
TS = re.compile(r"[1-9]\d*\.\d+")
_TRUE = {"1", "true"}
_FALSE = {"0", "false", ""}
_TYPES = {"public_channel", "private_channel", "mpim", "im"}
_MAX_TEXT = 40_000
_MAX_TOPIC = 250
_MAX_ATTACHMENTS = 100
_MAX_BLOCKS = 50


# -- a request's arguments ---------------------------------------------------------------------------


def _content_type(request: ServiceRequest) -> tuple[str, Mapping[str, str]]:
    return parse_content_type(request.headers.get("content-type", ""))


# A client sends the same few Content-Type headers call after call: each is read once.
@lru_cache(maxsize=256)
def parse_content_type(header: str) -> tuple[str, Mapping[str, str]]:
    """A Content-Type header's media type (lower case) and its parameters by lower-case name (shared: read
    them, never change them)."""
    kind, _, rest = header.partition(";")
    params = {}
    for part in rest.split(";"):
        name, _, value = part.partition("=")
        if name.strip():
            params[name.strip().lower()] = value.strip().strip('"')
    return kind.strip().lower(), MappingProxyType(params)


def _multipart(body: bytes, header: str, boundary: str) -> dict[str, Any]:
    if boundary and _nests_multipart(body, boundary.encode("latin-1")):
        # The email parser would recurse into each nested part (and take quadratic time): a form has none.
        raise SlackError("invalid_form_data", "a multipart part is itself multipart")
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + header.encode("latin-1") + b"\r\n\r\n" + body)
    if not message.is_multipart() or message.defects:
        raise SlackError("invalid_form_data", "the multipart body could not be parsed")
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not name or not isinstance(payload, bytes):
            raise SlackError("invalid_form_data", "a multipart part has no name or no content")
        value: Any = payload if part.get_filename() else payload.decode("utf-8", "replace")
        fields[name] = [fields[name], value] if name in fields else value
    return fields


def _nests_multipart(body: bytes, boundary: bytes) -> bool:
    """Whether a part's headers declare a multipart content type of its own."""
    for part in body.split(b"--" + boundary):
        head = re.split(rb"\r?\n\r?\n", part.lstrip(b"\r\n"), maxsplit=1)[0]
        if b"multipart/" in head.lower():
            return True
    return False


def body_values(request: ServiceRequest, warnings: list[str]) -> dict[str, Any]:
    """The arguments in the body, by its Content-Type; adds the charset warnings Slack would give."""
    if not request.body:
        return {}
    kind, params = _content_type(request)
    if not kind:
        raise SlackError("missing_post_type", "the request has a body but no Content-Type")
    charset = params.get("charset", "").lower()
    if charset and charset.replace("-", "") != "utf8":
        raise SlackError("invalid_charset", f"unsupported charset {charset!r}; send utf-8")
    if kind == "application/x-www-form-urlencoded":
        if charset:
            warnings.append("superfluous_charset")
        try:
            return parse_query(request.body.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise SlackError("invalid_form_data", "the form body is not UTF-8") from exc
    if kind == "application/json":
        if not charset:
            warnings.append("missing_charset")
        try:
            data = loads_json(request.body)
        except (UnicodeDecodeError, ValueError) as exc:
            raise SlackError("invalid_json", f"the body is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise SlackError("json_not_object", "the JSON body must be an object")
        return data
    if kind == "multipart/form-data":
        return _multipart(request.body, request.headers.get("content-type", ""), params.get("boundary", ""))
    raise SlackError("invalid_post_type", f"unsupported Content-Type {kind!r}")


def uploaded(request: ServiceRequest) -> bytes:
    """The file's bytes in a post to an upload URL: the body as sent (slack_sdk), or the one file of a
    multipart form (Slack's Node SDK and its documented `curl -F filename=@file`), or its one field."""
    kind, params = _content_type(request)
    if kind != "multipart/form-data":
        return request.body
    fields = _multipart(request.body, request.headers.get("content-type", ""), params.get("boundary", ""))
    values = [value for field in fields.values() for value in (field if isinstance(field, list) else [field])]
    files = [value for value in values if isinstance(value, bytes)]
    if len(files) == 1:
        return files[0]
    if not files and len(values) == 1:
        return str(values[0]).encode("utf-8")
    raise SlackError("invalid_form_data", "an upload holds exactly one file")


# Calls name the same few arguments again and again: each name is judged once.
@lru_cache(maxsize=1024)
def _arg_name_problem(name: str) -> tuple[str, str] | None:
    """Slack's error code and message for an argument name it refuses, or None."""
    if name.endswith("[]"):
        return "invalid_array_arg", f"{name} is an array; pass a comma-separated string"
    if not _ARG_NAME.fullmatch(name):
        return "invalid_arg_name", f"invalid argument name {name[:40]!r}"
    return None


class Args:
    """The merged arguments of one call (without `token`) and the warnings Slack would add."""

    __slots__ = ("values", "warnings")

    def __init__(self, values: dict[str, Any], warnings: list[str] | None = None) -> None:
        self.values = values
        self.warnings = warnings or []

    @classmethod
    def parse(cls, request: ServiceRequest) -> Args:
        warnings: list[str] = []
        values = body_values(request, warnings)  # a new dict, this call's own
        if request.query:  # shared by the calls with the same query string: read, never changed
            values = {**request.query, **values}
        values.pop("token", None)
        for name in values:
            problem = _arg_name_problem(name)
            if problem is not None:
                raise SlackError(*problem)
        return cls(values, warnings)

    def string(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, list):
            raise SlackError("invalid_array_arg", f"{name} was given more than once or as an array")
        raise SlackError("invalid_arguments", f"{name} must be a string")

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        text = self.string(name).strip().lower()  # type: ignore[union-attr]
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise SlackError("invalid_arguments", f"{name} must be a boolean (true, false, 1 or 0)")

    def integer(self, name: str, default: int, code: str = "invalid_arguments") -> int:
        value = self.values.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            raise SlackError(code, f"{name} must be an integer")
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int):
            return value
        text = self.string(name).strip()  # type: ignore[union-attr]
        if not re.fullmatch(r"-?\d{1,12}", text):
            raise SlackError(code, f"{name} must be an integer")
        return int(text)

    def limit(self, default: int, maximum: int = 1000) -> int:
        """Slack's `limit`: 0 or absent is the default, more than the maximum is the maximum."""
        value = self.integer("limit", default, "invalid_limit")
        if value < 0:
            raise SlackError("invalid_limit", "limit must not be negative")
        return min(value or default, maximum)

    def cursor(self, kind: str) -> str | None:
        """The position a `cursor` we issued for `kind` points at; None when absent."""
        raw = self.string("cursor")
        if not raw:
            return None
        try:
            decoded = base64.b64decode(raw, validate=True).decode()
        except ValueError as exc:  # not base64 (a character outside ASCII too), or not UTF-8 once decoded
            raise SlackError("invalid_cursor", "the cursor is not one this method issued") from exc
        prefix, _, position = decoded.partition(":")
        if prefix != kind or not position:
            raise SlackError("invalid_cursor", "the cursor is not one this method issued")
        return position

    def micros(self, name: str, code: str) -> int | None:
        """A time argument (`oldest`, `latest`: a ts or epoch seconds) in epoch microseconds."""
        text = self.string(name)
        if text is None or text.strip() == "":
            return None
        try:
            value = Decimal(text.strip())
        except InvalidOperation as exc:
            raise SlackError(code, f"{name} must be a timestamp such as 1772460000.000100") from exc
        if not value.is_finite() or value < 0:
            raise SlackError(code, f"{name} must be a timestamp such as 1772460000.000100")
        return int(value * 1_000_000)

    def json(self, name: str, code: str) -> list[Any] | None:
        """`blocks` / `attachments`: a JSON array, given as such or as a JSON string."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                value = loads_json(value)
            except ValueError as exc:
                raise SlackError(code, f"{name} must be a JSON array") from exc
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise SlackError(code, f"{name} must be a JSON array of objects")
        return value

    def ids(self, name: str) -> list[str]:
        """A comma-separated list (`users=U1,U2`), or a JSON array of strings."""
        value = self.values.get(name)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            items = value
        else:
            items = (self.string(name) or "").split(",")
        return [item.strip() for item in items if item.strip()]


# -- paging and replies ------------------------------------------------------------------------------


def cursor(kind: str, position: str) -> str:
    """The `next_cursor` that points at `position` in a listing of `kind` (read back by `Args.cursor`)."""
    return base64.b64encode(f"{kind}:{position}".encode()).decode()


def with_warnings(body: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """A reply body with the call's warnings, in `warning` and in `response_metadata.warnings`."""
    if warnings:
        body["warning"] = ",".join(warnings)
        body["response_metadata"] = {**body.get("response_metadata", {}), "warnings": warnings}
    return body


def numbered_paging(total: int, count: int, page: int) -> dict[str, Any]:
    """`total`, `pagination` and `paging` of a method paged by `count` and `page` (search.*)."""
    pages = -(-total // count)
    return {
        "total": total,
        "pagination": {
            "total_count": total,
            "page": page,
            "per_page": count,
            "page_count": pages,
            "first": (page - 1) * count + 1,
            "last": min(page * count, total),
        },
        "paging": {"count": count, "total": total, "page": page, "pages": pages},
    }


# -- the call ----------------------------------------------------------------------------------------


def channel_only(conversation: Record) -> None:
    """Methods that manage channels do not apply to DMs."""
    if conversation.get("is_im"):
        raise SlackError("method_not_supported_for_channel_type")


def not_archived(conversation: Record) -> None:
    if conversation.get("is_archived"):
        raise SlackError("is_archived")


@dataclass
class Call:
    """One call: the world, the caller's user record, the token type and the arguments, with the readers of
    the arguments that name records."""

    world: World
    user: Record
    bot: bool  # a bot token (xoxb-); otherwise a user token (xoxp-)
    args: Args
    world_base: str = ""  # the service's base URL under the world's own path (for URLs it hands out)

    @property
    def me(self) -> str:
        return self.user["id"]

    def conversation(self, name: str = "channel") -> Record:
        """The conversation an argument names, if the caller may see it (else Slack's `channel_not_found`)."""
        channel_id = self.args.string(name)
        record = self.world[store.CHANNELS].get(channel_id) if channel_id else None
        if record is None or not store.can_see(record, self.me):
            raise SlackError("channel_not_found")
        return record

    def require_readable(self, conversation: Record) -> None:
        # A bot reads only where it is a member; a person may read any public channel.
        if self.bot and not store.is_member(conversation, self.me):
            raise SlackError("not_in_channel")

    def require_member(self, conversation: Record) -> None:
        if not store.is_member(conversation, self.me):
            raise SlackError("not_in_channel")

    def existing_user(self, user_id: str | None, code: str = "user_not_found") -> Record:
        record = self.world[store.USERS].get(user_id) if user_id else None
        if record is None:
            raise SlackError(code)
        return record

    def message(
        self, conversation: Record, name: str, missing: str, malformed: str, unknown: str = "message_not_found"
    ) -> Record:
        """The message an argument names in `conversation`, with the codes for a missing, malformed or unknown ts."""
        ts = self.args.string(name)
        if not ts:
            raise SlackError(missing)
        if not TS.fullmatch(ts):
            raise SlackError(malformed, f"{ts} is not a valid message timestamp")
        record = self.world[store.MESSAGES].get(ts)
        if record is None or record["channel"] != conversation["id"]:
            raise SlackError(unknown)
        return record

    def item(self) -> tuple[Record, Record]:
        """The conversation and message of reactions.* and pins.* (`channel` + `timestamp`; there are no files)."""
        if self.args.string("file") or self.args.string("file_comment"):
            raise SlackError("file_not_found")
        if not self.args.string("channel") or not self.args.string("timestamp"):
            raise SlackError("no_item_specified")
        conversation = self.conversation()
        return conversation, self.message(conversation, "timestamp", "no_item_specified", "bad_timestamp")

    def destination(self, target: str | None = None) -> tuple[Record | None, Record | None]:
        """Where chat.postMessage goes (`channel`, or `target`): a conversation (by id or name), or a user
        (their DM, maybe new)."""
        target = target or self.args.string("channel")
        if not target:
            raise SlackError("channel_not_found")
        user = self.world[store.USERS].get(target)
        if user is not None:
            if user["deleted"]:
                raise SlackError("channel_not_found")
            return channels.dm_between(self.world, self.me, target), user
        conversation = self.world[store.CHANNELS].get(target) or channels.channel_named(self.world, target.lstrip("#"))
        if conversation is None or not store.can_see(conversation, self.me):
            raise SlackError("channel_not_found")
        return conversation, None

    def postable(self, target: str | None = None) -> tuple[Record | None, Record | None]:
        """Where a new message goes (`channel`, or `target`): a conversation the caller may post in, or a
        user whose DM is to be opened."""
        conversation, dm_user = self.destination(target)
        if conversation is not None:
            self.require_member(conversation)
            not_archived(conversation)
            reply = bool(self.args.string("thread_ts"))
            broadcast = reply and self.args.flag("reply_broadcast")
            posting.require_may_post(conversation, self.user, reply=reply, broadcast=broadcast)
        return conversation, dm_user

    def opened(self, conversation: Record | None, dm_user: Record | None) -> Record:
        """The conversation `postable` found, else the DM with the user it found (opened now)."""
        if conversation is not None:
            return conversation
        return channels.open_dm(self.world, self.me, dm_user["id"])[0]  # type: ignore[index]

    def types(self) -> set[str]:
        """`types` of conversations to list (default: public channels)."""
        given = self.args.ids("types") or ["public_channel"]
        unknown = [t for t in given if t not in _TYPES]
        if unknown:
            raise SlackError("invalid_types", f"unknown conversation type {unknown[0]!r}")
        return set(given)

    def bounds(self) -> tuple[int | None, int | None, bool]:
        """`oldest` and `latest` (epoch microseconds, None when absent) and `inclusive`."""
        oldest = self.args.micros("oldest", "invalid_ts_oldest")
        latest = self.args.micros("latest", "invalid_ts_latest")
        return oldest, latest, self.args.flag("inclusive")

    def window(self) -> Callable[[Record], bool]:
        """`oldest` / `latest` / `inclusive` as a test on a message."""
        oldest, latest, inclusive = self.bounds()

        def inside(message: Record) -> bool:
            at = ts_us(message["ts"])
            if oldest is not None and (at < oldest or (at == oldest and not inclusive)):
                return False
            return latest is None or at < latest or (at == latest and inclusive)

        return inside

    def page(
        self, items: list[Any], kind: str, key: Callable[[Any], str], default: int, maximum: int = 1000
    ) -> tuple[list[Any], str]:
        """Cursor pagination: the page and the cursor of the next one ("" on the last page). A cursor names the
        first item of its page, so pages stay put when items are added elsewhere."""
        limit = self.args.limit(default, maximum)
        position = self.args.cursor(kind)
        start = 0
        if position is not None:
            start = next((i for i, item in enumerate(items) if key(item) == position), -1)
            if start < 0:
                raise SlackError("invalid_cursor", "the cursor points at an item that no longer exists")
        end = start + limit
        return items[start:end], cursor(kind, key(items[end])) if end < len(items) else ""

    def page_numbers(self) -> tuple[int, int]:
        """`count` (results per page, 1 to 100, default 20) and `page` (1 to 100) of search.*."""
        count = min(max(self.args.integer("count", 20), 1), 100)
        page = min(max(self.args.integer("page", 1), 1), 100)
        return count, page

    def content(self) -> dict[str, Any]:
        """`text`, `blocks` and `attachments` of a message, checked as chat.* does."""
        text = self.args.string("text")
        blocks = self.args.json("blocks", "invalid_blocks")
        attachments = self.args.json("attachments", "invalid_attachments")
        if not (text or blocks or attachments):
            raise SlackError("no_text")
        if text is not None and len(text) > _MAX_TEXT:
            raise SlackError("msg_too_long")
        if blocks is not None and (
            len(blocks) > _MAX_BLOCKS or not all(isinstance(b.get("type"), str) for b in blocks)
        ):
            raise SlackError("invalid_blocks", "each block needs a type, and a message takes at most 50 blocks")
        if attachments is not None and len(attachments) > _MAX_ATTACHMENTS:
            raise SlackError("too_many_attachments")
        fields: dict[str, Any] = {}
        if text is not None:
            fields["text"] = text
        if blocks is not None:
            fields["blocks"] = blocks
        if attachments is not None:
            fields["attachments"] = [{"id": i, **a} for i, a in enumerate(attachments, 1)]
        return fields

    def metadata(self) -> dict[str, Any] | None:
        """A message's `metadata`: a JSON object (or JSON string of one) with an `event_type` and an
        `event_payload` object."""
        value = self.args.values.get("metadata")
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                value = loads_json(value)
            except ValueError:
                value = None
        if not (
            isinstance(value, dict)
            and isinstance(value.get("event_type"), str)
            and value["event_type"]
            and isinstance(value.get("event_payload", {}), dict)
        ):
            raise SlackError("invalid_metadata_format", "metadata needs an event_type and an event_payload object")
        return {"event_type": value["event_type"], "event_payload": value.get("event_payload", {})}

    def post_options(self) -> dict[str, Any]:
        """`username` and `icon_emoji` / `icon_url`, which only a bot may set on its message."""
        extra: dict[str, Any] = {}
        username = self.args.string("username")
        if username and self.bot:
            extra["username"] = username
        icon_emoji, icon_url = self.args.string("icon_emoji"), self.args.string("icon_url")
        if self.bot and (icon_emoji or icon_url):
            extra["icons"] = {"emoji": icon_emoji} if icon_emoji else {"image_64": icon_url}
        return extra

    def thread(self, conversation: Record | None) -> str | None:
        """The thread a reply goes to: the parent's ts (a reply's ts is moved up to its parent)."""
        thread_ts = self.args.string("thread_ts")
        if not thread_ts:
            return None
        if not TS.fullmatch(thread_ts):
            raise SlackError("invalid_thread_ts", f"{thread_ts} is not a valid thread_ts")
        target = self.world[store.MESSAGES].get(thread_ts)
        if target is not None and conversation is not None and target["channel"] == conversation["id"]:
            return target.get("thread_ts") or thread_ts
        # Like Slack, a well-formed ts that names no message still posts, into a thread nobody sees.
        return thread_ts

    def channel_name(self, exclude: str | None = None) -> str:
        """`name` of a channel to create or rename: valid, and not taken by another channel than `exclude`."""
        name = self.args.string("name")
        if not name:
            raise SlackError("invalid_name_required")
        problem = channel_name_error(name)
        if problem:
            raise SlackError(problem, f"{name!r} is not a valid channel name: lower case letters, digits, - and _")
        existing = channels.channel_named(self.world, name)
        if existing is not None and existing["id"] != exclude:
            raise SlackError("name_taken")
        return name

    def topic(self, field: str) -> str:
        """The new `topic` or `purpose` of a conversation."""
        value = self.args.string(field) or ""
        if len(value) > _MAX_TOPIC:
            raise SlackError("too_long", f"the {field} may be at most {_MAX_TOPIC} characters")
        return value

    def emoji(self) -> str:
        """`name` of a reaction's emoji, with or without colons."""
        name = (self.args.string("name") or "").strip(":")
        if not EMOJI.fullmatch(name):
            raise SlackError("invalid_name")
        return name
