"""Google's paging: `maxResults` and `pageToken` in, `nextPageToken` out. A token is opaque to the caller:
here the offset of the next page and the listing it belongs to, so a token of another listing, or one
tampered with, is Google's 400 rather than another page."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import TypeVar

from .errors import GoogleError

T = TypeVar("T")


def token(listing: str, offset: int) -> str:
    return base64.urlsafe_b64encode(f"{listing}:{offset}".encode()).decode().rstrip("=")


def offset(listing: str, given: str | None) -> int:
    """The offset a page token stands for (0 without one); Google's 400 for one it never gave."""
    if not given:
        return 0
    try:
        raw = base64.urlsafe_b64decode(given + "=" * (-len(given) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raw = ""
    name, _, number = raw.rpartition(":")
    if name != listing or not number.isascii() or not number.isdigit():
        raise GoogleError(400, "invalid", "Invalid Value", "pageToken")
    return int(number)


def page(items: Sequence[T], listing: str, given: str | None, size: int) -> tuple[Sequence[T], str | None]:
    """The page of `items` that `given` (a page token, or None for the first) starts, of at most `size`, and
    the token of the next page (None on the last)."""
    start = offset(listing, given)
    end = start + size
    return items[start:end], token(listing, end) if end < len(items) else None


def next_token(page_token: str | None, listing: str, now: int) -> dict[str, str]:
    """How a synced listing's page ends: the next page's token, or on the last page the sync token of `listing` at
    `now` (what `synced` reads back)."""
    return {"nextPageToken": page_token} if page_token is not None else {"nextSyncToken": token(listing, now)}


def synced(listing: str, given: str) -> int:
    """The moment a sync token of `listing` stands for (a `nextSyncToken` is one: `token(listing, now)`); Google's
    410 `fullSyncRequired` for one it never gave."""
    try:
        return offset(listing, given)
    except GoogleError:
        raise GoogleError(410, "fullSyncRequired", "Sync token is no longer valid, a full sync is required.") from None
