"""Google's ids and etags, made from the world's seed: nothing random, nothing from the machine's clock."""

from __future__ import annotations

import base64

from ...ids import IdSource


def base32hex(ids: IdSource, namespace: str) -> str:
    """26 characters of lower-case base32hex (`0-9a-v`), as Google Calendar makes event ids."""
    return base64.b32hexencode(ids.digest(namespace)[:16]).decode().rstrip("=").lower()


def etag(us: int) -> str:
    """An etag as Google gives one, a quoted number that changes with every write (`"3181161784712000"`):
    the record's last change, in microseconds."""
    return f'"{us}"'
