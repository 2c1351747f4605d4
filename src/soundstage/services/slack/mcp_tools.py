"""Slack's MCP tools (facts in `mcp_tools.yaml`), each the Web API method it stands for, posted as JSON."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..mcp import RestCall, Tools, bearer, picked

_CHANNEL_ID = re.compile(r"[CDG][A-Z0-9]+")
_USER_ID = re.compile(r"[UW][A-Z0-9]+")

tools = Tools("slack", Path(__file__).with_name("mcp_tools.yaml"), bearer("SLACK_BOT_TOKEN"))


def _method(name: str, body: dict[str, Any]) -> RestCall:
    return RestCall("POST", f"/api/{name}", body=body)


def _capped(arguments: dict[str, Any]) -> Any:
    """The page size asked for, at most 200, as the reference server sends it."""
    return min(arguments.get("limit", 100), 200)


@tools("slack_list_channels", "conversations.list")
def list_channels(arguments: dict[str, Any]) -> RestCall:
    # As the reference server asks: public channels only, archived ones left out.
    body = {"types": "public_channel", "exclude_archived": True, "limit": _capped(arguments)}
    return _method("conversations.list", {**body, **picked(arguments, {"cursor": "cursor"})})


@tools("slack_post_message", "chat.postMessage")
def post_message(arguments: dict[str, Any]) -> RestCall:
    return _method("chat.postMessage", picked(arguments, {"channel_id": "channel", "text": "text"}))


@tools("slack_reply_to_thread", "chat.postMessage")
def reply_to_thread(arguments: dict[str, Any]) -> RestCall:
    renames = {"channel_id": "channel", "thread_ts": "thread_ts", "text": "text"}
    return _method("chat.postMessage", picked(arguments, renames))


@tools("slack_add_reaction", "reactions.add")
def add_reaction(arguments: dict[str, Any]) -> RestCall:
    renames = {"channel_id": "channel", "timestamp": "timestamp", "reaction": "name"}
    return _method("reactions.add", picked(arguments, renames))


@tools("slack_get_channel_history", "conversations.history")
def channel_history(arguments: dict[str, Any]) -> RestCall:
    body = {"channel": arguments["channel_id"], "limit": arguments.get("limit", 10)}
    return _method("conversations.history", body)


@tools("slack_get_thread_replies", "conversations.replies")
def thread_replies(arguments: dict[str, Any]) -> RestCall:
    return _method("conversations.replies", picked(arguments, {"channel_id": "channel", "thread_ts": "ts"}))


@tools("slack_get_users", "users.list")
def users(arguments: dict[str, Any]) -> RestCall:
    body = {"limit": _capped(arguments), **picked(arguments, {"cursor": "cursor"})}
    return _method("users.list", body)


@tools("slack_get_user_profile", "users.profile.get")
def user_profile(arguments: dict[str, Any]) -> RestCall:
    return _method("users.profile.get", {"user": arguments["user_id"], "include_labels": True})


# Slack's search modifiers the server's date filters become.
_DATES = {
    "filter_date_before": "before",
    "filter_date_after": "after",
    "filter_date_on": "on",
    "filter_date_during": "during",
}


# Search reads as a person does: with the user token, on the endpoint that picks the credential.
@tools("conversations_search_messages", "search.messages", credential="SLACK_USER_TOKEN")
def search_messages(arguments: dict[str, Any]) -> RestCall:
    words = [str(arguments["search_query"])] if arguments.get("search_query") else []
    channel, author = arguments.get("filter_in_channel"), arguments.get("filter_users_from")
    if channel:  # an id as Slack's own mention of it; a name (`#general`) as written
        words.append(f"in:<#{channel}>" if _CHANNEL_ID.fullmatch(str(channel)) else f"in:{channel}")
    if author:
        words.append(f"from:<@{author}>" if _USER_ID.fullmatch(str(author)) else f"from:{author}")
    words += [f"{modifier}:{arguments[name]}" for name, modifier in _DATES.items() if arguments.get(name)]
    if arguments.get("filter_threads_only"):
        words.append("is:thread")
    return _method("search.messages", {"query": " ".join(words), "count": arguments.get("limit", 20)})
