"""An Agent-Diff test of a message's `blocks` as a path check, where one can say it.

Agent-Diff keeps the blocks an app sent as JSON and tests them as compact JSON text (`contains
"\"bold\":true"`); a message sent as text has none. soundstage, as Slack does, gives such a message the
rich_text block made of its text, so a test is said only for what that block never holds: a key with a
value it never has (`"style":"bullet"`, `"type":"table"`), or a Block Kit type it never uses
(`rich_text_list`).
"""

from __future__ import annotations

import json
import re
from typing import Any

# What the rich_text block of a text-only message holds (services/slack/mrkdwn.py): these types, and these
# keys whose values come from the text (its words, mentions, channels, user groups, links) or are random.
MADE_TYPES = frozenset({"rich_text", "rich_text_section", "text", "user", "channel", "broadcast", "usergroup", "link"})
MADE_FREE_KEYS = frozenset({"text", "user_id", "channel_id", "usergroup_id", "url", "block_id", "range"})
# Block Kit's type names (blocks, rich text elements and their parts, text objects).
BLOCK_KIT_TYPES = MADE_TYPES | {
    "actions",
    "context",
    "divider",
    "file",
    "header",
    "image",
    "input",
    "markdown",
    "section",
    "table",
    "video",
    "rich_text_list",
    "rich_text_preformatted",
    "rich_text_quote",
    "emoji",
    "date",
    "color",
    "plain_text",
    "mrkdwn",
}
MADE = (
    "the rich_text blocks soundstage makes, as Slack does, of messages sent as text, where Agent-Diff keeps no "
    "blocks; no check can tell blocks the agent sent from those"
)
# `"key":value` in compact JSON, the value a string, true, false or null (a number could be a prefix).
_PAIR = re.compile(r'^"(?P<key>[A-Za-z_][A-Za-z0-9_]*)":(?P<value>"[^"\\]*"|true|false|null)$')


def blocks_test(pred: Any) -> tuple[str, dict[str, Any], str | None]:
    """The path, value test and caveat (None: exact) saying Agent-Diff's test of `blocks`; ValueError saying
    why there is none."""
    ops = pred if isinstance(pred, dict) else {"eq": pred}
    if set(ops) != {"contains"} or not isinstance(ops["contains"], str):
        raise ValueError(f"blocks tested with {', '.join(sorted(ops))}, not contains, and {MADE}")
    needle = ops["contains"]
    pair = _PAIR.match(needle)
    if pair:
        key, value = pair["key"], json.loads(pair["value"])
        if key in MADE_FREE_KEYS or (key == "type" and value in MADE_TYPES):
            raise ValueError(f"{needle} can be in {MADE}")
        # Quotes inside JSON strings are escaped, so the text is this key with this value, at any depth.
        return f"blocks.**.{key}", {"equals": value}, None
    if needle in BLOCK_KIT_TYPES and needle not in MADE_TYPES:
        caveat = (
            f"the blocks the agent sent have {needle!r} in a text rather than as a type: Agent-Diff counts it "
            "anywhere in their JSON, this check as the type of a block or element"
        )
        return "blocks.**.type", {"equals": needle}, caveat
    if needle in MADE_TYPES:
        raise ValueError(f"{needle} is in every one of {MADE}")
    raise ValueError(f"{needle!r} can be in the text of a message, and so in {MADE}")
