"""What Slack accepts as a channel or emoji name, and the accent-free `*_normalized` form of names."""

from __future__ import annotations

import re
import unicodedata

EMOJI = re.compile(r"[a-z0-9_+'\-]+(::skin-tone-[2-6])?")
_CHANNEL_NAME = re.compile(r"[\w\-]+")


def channel_name_error(name: str) -> str | None:
    """Slack's error code for an invalid channel name, or None when the name is valid."""
    if len(name) > 80:
        return "invalid_name_maxlength"
    if not _CHANNEL_NAME.fullmatch(name) or name != name.lower():
        return "invalid_name_specials"
    if not re.search(r"[^\W_]", name):
        return "invalid_name_punctuation"
    return None


def normalized(text: str) -> str:
    """Slack's `*_normalized` names: accents dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))
