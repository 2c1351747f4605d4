"""Gmail's request conventions: operations registered as `"METHOD /gmail/v1/users/{userId}/..."` on `ops`, each
called with a `Call`; the mailbox a path's `userId` names (`me`, or the caller's own address), the message,
thread, draft or label a path's `id` names, and the readers of Gmail's parameters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...world import Record, World
from ..base import Operations
from ..google import accounts
from ..google.calls import GoogleCall
from ..google.errors import GoogleError
from . import messages, mime, uploads
from .errors import RAW_REQUIRED, invalid_argument, not_found
from .store import DRAFTS, MAILBOXES
from .views import FORMATS

ops = Operations("gmail")


UPLOAD = "/upload/"  # the paths of media uploads (`/upload/gmail/v1/...`)


@dataclass
class Call(GoogleCall):
    _uploaded: tuple[dict[str, Any], bytes] | None = field(default=None, init=False, repr=False)

    @property
    def uploading(self) -> bool:
        """A media upload: the message is the body (or its media part), not a field."""
        return self.request.path.startswith(UPLOAD)

    def upload(self) -> tuple[dict[str, Any], bytes]:
        if self._uploaded is None:
            content_type = self.request.headers.get("content-type", "")
            self._uploaded = uploads.read(self.text("uploadType"), content_type, self.request.body)
        return self._uploaded

    def metadata(self) -> dict[str, Any]:
        """The call's JSON fields: an upload's metadata part (none for `uploadType=media`), else the body's."""
        return self.upload()[0] if self.uploading else self.fields

    def raw_message(self, given: dict[str, Any]) -> bytes:
        """The message's RFC 2822 bytes: an upload's media, else the base64url `raw` of `given` (the body, or
        its `message`); Gmail's 400 when there is neither."""
        if self.uploading:
            return self.upload()[1]
        raw = self.string(given, "raw")
        if not raw:
            raise invalid_argument(RAW_REQUIRED)
        return mime.from_b64url(raw)

    def mailbox(self) -> Record:
        """The caller's mailbox, which `userId` names as `me` or by its address; another's is Gmail's 403."""
        given = self.params["userId"]
        if given != "me" and given.lower() != self.me:
            raise GoogleError(403, "forbidden", f"Delegation denied for {self.me}")
        return self.world[MAILBOXES].one(self.me)

    @property
    def name(self) -> str:
        """The account's display name, as its From header carries it."""
        return str(self.world.settings[accounts.SETTINGS]["accounts"][self.me]["name"])

    def message(self, given: str | None = None) -> Record:
        """The mailbox's message the path's `id` names: Gmail's 400 for an id that is no message id, its 404 for
        one the mailbox lacks."""
        self.mailbox()
        message_id = given if given is not None else self.params["id"]
        if not _hex(message_id):
            raise invalid_argument("Invalid id value")
        found = messages.in_mailbox(self.world, self.me, message_id)
        if found is None:
            raise not_found()
        return found

    def thread(self) -> list[Record]:
        """The mailbox's thread the path's `id` names, its messages oldest first."""
        self.mailbox()
        thread_id = self.params["id"]
        if not _hex(thread_id):
            raise invalid_argument("Invalid id value")
        found = messages.thread(self.world, self.me, thread_id)
        if not found:
            raise not_found()
        return found

    def owned(self, lookup: Callable[[World, str, str], Record | None]) -> Record:
        """The mailbox's record (a label, a filter) the path's `id` names, found by `lookup(world, address, id)`;
        Gmail's 404 when the mailbox has none."""
        self.mailbox()
        found = lookup(self.world, self.me, self.params["id"])
        if found is None:
            raise not_found()
        return found

    def draft(self) -> Record:
        self.mailbox()
        found = self.world[DRAFTS].get(self.params["id"])
        if found is None or found["mailbox"] != self.me:
            raise not_found()
        return found

    def format(self, formats: tuple[str, ...] = FORMATS) -> str:
        """The `format` asked for (`full` by default), one of `formats`."""
        given = self.text("format") or "full"
        if given not in formats:
            raise GoogleError(400, "invalid", f"Invalid value at 'format' ({given})", "format")
        return given

    def texts(self, name: str) -> list[str]:
        """A repeated query parameter (`labelIds`, `metadataHeaders`), every value given."""
        value = self.query.get(name)
        if value is None:
            return []
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]

    def list_of(self, name: str, fields: dict[str, Any] | None = None) -> list[str]:
        """A list of strings in the JSON body (`addLabelIds`), or in `fields`; Gmail's 400 for anything else."""
        value = (self.fields if fields is None else fields).get(name)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise invalid_argument(f"Invalid value at '{name}'")
        return value

    def string(self, body: dict[str, Any], name: str) -> str | None:
        value = body.get(name)
        if value is not None and not isinstance(value, str):
            raise invalid_argument(f"Invalid value at '{name}'")
        return value


def _hex(value: str) -> bool:
    return 0 < len(value) <= 16 and all(c in "0123456789abcdef" for c in value.lower())
