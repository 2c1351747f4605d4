"""Message text as Slack keeps it: `&`, `<` and `>` escaped except in Slack's own markup (mentions,
channel links, `<!here>`, `<url|label>`), and the `rich_text` block Slack makes of a text-only message.

Slack's "Formatting text for app surfaces" names `&`, `<` and `>` its control characters; what a client
sends outside markup comes back as `&amp;`, `&lt;` and `&gt;` (an entity already written stays as it is).
The rich_text block's elements hold the text as people read it, with mentions, channels, broadcasts,
user groups and links as elements of their own (as in recorded Slack history).
"""

from __future__ import annotations

import re
from typing import Any

from ...ids import IdSource

_MARKUP = re.compile(
    r"<(?:@[UWB][A-Z0-9]+(?:\|[^<>]*)?"
    r"|#[CG][A-Z0-9]+(?:\|[^<>]*)?"
    r"|![a-z]+(?:\^[^<>|]*)?(?:\|[^<>]*)?"
    r"|(?:https?://|mailto:)[^<>|\s]+(?:\|[^<>]*)?)>"
)
_LONE_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt);)")
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))
_BROADCASTS = {"here", "channel", "everyone"}
_BLOCK_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BLOCK_ID_LENGTH = 5
_BLOCK_ID_SPAN = len(_BLOCK_ID_ALPHABET) ** _BLOCK_ID_LENGTH
# Every two base-62 digits, lowest first, spelled: a block id is two of them and one digit more.
_PAIR_SPAN = len(_BLOCK_ID_ALPHABET) ** 2
_PAIRS = [low + high for high in _BLOCK_ID_ALPHABET for low in _BLOCK_ID_ALPHABET]


def _escape_plain(text: str) -> str:
    return _LONE_AMPERSAND.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def escape(text: str) -> str:
    """`text` as Slack stores it: control characters outside its markup turned into entities."""
    if "<" not in text and ">" not in text and "&" not in text:  # most text: nothing to escape
        return text
    parts, position = [], 0
    for found in _MARKUP.finditer(text):
        parts += [_escape_plain(text[position : found.start()]), found.group()]
        position = found.end()
    parts.append(_escape_plain(text[position:]))
    return "".join(parts)


def unescape(text: str) -> str:
    """Stored text as people read it (entities back to their characters; markup left as written)."""
    for entity, character in _ENTITIES:
        text = text.replace(entity, character)
    return text


def _element(markup: str) -> dict[str, Any]:
    """The rich_text element of one piece of markup (without its angle brackets)."""
    target, _, label = markup.partition("|")
    if target.startswith("@"):
        return {"type": "user", "user_id": target[1:]}
    if target.startswith("#"):
        return {"type": "channel", "channel_id": target[1:]}
    if target.startswith("!"):
        name, _, detail = target[1:].partition("^")
        if name == "subteam" and detail:
            return {"type": "usergroup", "usergroup_id": detail}
        if name in _BROADCASTS:
            return {"type": "broadcast", "range": name}
        return {"type": "text", "text": unescape(label or markup)}
    link: dict[str, Any] = {"type": "link", "url": unescape(target)}
    if label:
        link["text"] = unescape(label)
    return link


def elements(stored: str) -> list[dict[str, Any]]:
    """The elements of a rich_text section for stored (escaped) text."""
    if "<" not in stored and "&" not in stored:  # most text: no markup, no entity
        return [{"type": "text", "text": stored}] if stored else []
    found: list[dict[str, Any]] = []
    position = 0
    for match in _MARKUP.finditer(stored):
        if match.start() > position:
            found.append({"type": "text", "text": unescape(stored[position : match.start()])})
        found.append(_element(match.group()[1:-1]))
        position = match.end()
    if position < len(stored):
        found.append({"type": "text", "text": unescape(stored[position:])})
    return found


def block_id(ids: IdSource) -> str:
    """A block's `block_id` as Slack makes one when a block has none: a few letters and digits, from the seed."""
    # The lowest base-62 digits of the 256-bit number, lowest first: the rest of it need not be divided, and
    # the digits are spelled two at a time.
    number = int.from_bytes(ids.digest("slack:block_id"), "big") % _BLOCK_ID_SPAN
    rest, first = divmod(number, _PAIR_SPAN)
    last, second = divmod(rest, _PAIR_SPAN)
    return _PAIRS[first] + _PAIRS[second] + _BLOCK_ID_ALPHABET[last]


def rich_text(stored: str, ids: IdSource) -> dict[str, Any]:
    """The rich_text block Slack makes of a text-only message."""
    section = {"type": "rich_text_section", "elements": elements(stored)}
    return {"type": "rich_text", "block_id": block_id(ids), "elements": [section]}


def with_block_ids(blocks: list[dict[str, Any]], ids: IdSource) -> list[dict[str, Any]]:
    """Blocks an app sent, each with a `block_id` (Slack gives one to a block sent without)."""
    return [block if "block_id" in block else {**block, "block_id": block_id(ids)} for block in blocks]
