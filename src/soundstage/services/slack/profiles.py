"""The parts of a user's profile a person sets: a photo of their own (else Slack's default avatar) and a
custom status, which Slack clears once it expires."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from .emoji_data import CODE_POINTS

_AVATAR_SIZES = (24, 32, 48, 72, 192, 512)
_PHOTO_SIZES = (*_AVATAR_SIZES, 1024)  # an uploaded photo is also served at 1024 pixels
_STANDARD_EMOJI = "https://a.slack-edge.com/production-standard-emoji-assets/14.0/apple-large/{}.png"


def default_avatar(digest: str) -> dict[str, Any]:
    """Slack's default avatar (a gravatar of the email): its hash starts with `g`, and there is no 1024 size."""
    images = {f"image_{n}": f"https://secure.gravatar.com/avatar/{digest[:32]}.jpg?s={n}&d=mm" for n in _AVATAR_SIZES}
    return {"avatar_hash": "g" + digest[:11], **images}


def photo(digest: str, uploaded: int) -> dict[str, Any]:
    """A photo the person uploaded on the day `uploaded` (seconds), as avatars.slack-edge.com serves it."""
    day = datetime.fromtimestamp(uploaded, UTC).strftime("%Y-%m-%d")
    stem = f"https://avatars.slack-edge.com/{day}/{int(digest[:12], 16) % 10**12:012d}_{digest[12:32]}"
    return {
        "avatar_hash": digest[32:44],
        "image_original": f"{stem}_original.jpg",
        "is_custom_image": True,
        **{f"image_{n}": f"{stem}_{n}.jpg" for n in _PHOTO_SIZES},
    }


def emoji_error(emoji: str) -> str | None:
    """Why `emoji` cannot be a status emoji (`:name:`, one of Slack's standard emoji), or None."""
    if not (len(emoji) > 2 and emoji[0] == emoji[-1] == ":"):
        return f"a status emoji is written :name:, not {emoji!r}"
    if emoji[1:-1] not in CODE_POINTS:
        return f"{emoji} is not one of Slack's standard emoji (a world has no custom emoji)"
    return None


def status(text: str, emoji: str, expiration: int) -> dict[str, Any]:
    """A custom status; `expiration` in seconds, 0 for one that does not expire."""
    info = []
    if emoji:
        code = CODE_POINTS[emoji[1:-1]]
        info.append({"emoji_name": emoji[1:-1], "display_url": _STANDARD_EMOJI.format(code), "unicode": code})
    return {
        "status_text": text,
        "status_emoji": emoji,
        "status_emoji_display_info": info,
        "status_expiration": expiration,
    }


def no_status() -> dict[str, Any]:
    return {"status_text": "", "status_emoji": "", "status_emoji_display_info": [], "status_expiration": 0}


def as_of(profile: Mapping[str, Any], now: int) -> dict[str, Any]:
    """The profile at `now` (seconds): a status past its expiration is gone, as Slack clears it."""
    view = dict(profile)
    if 0 < view["status_expiration"] <= now:
        view.update(no_status())
    return view
