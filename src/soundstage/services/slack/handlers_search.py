"""Slack's search.messages and search.all: the messages a user may see that match a query (user tokens
only). A world has no files or posts, so search.all finds messages only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import matching, search, store, views, words
from .calls import Call, numbered_paging, ops
from .errors import SlackError


@ops("search.messages")
def search_messages(call: Call) -> dict[str, Any]:
    text, found = _messages(call)
    return {"query": text, "messages": found}


@ops("search.all")
def search_all(call: Call) -> dict[str, Any]:
    text, found = _messages(call)
    count, page = call.page_numbers()
    return {
        "query": text,
        "messages": found,
        "files": {**numbered_paging(0, count, page), "matches": []},
        "posts": {"total": 0, "matches": []},
    }


def _messages(call: Call) -> tuple[str, dict[str, Any]]:
    """The query and the `messages` part of the answer: matches, with their paging."""
    if call.bot:
        raise SlackError("not_allowed_token_type")
    text = (call.args.string("query") or "").strip()
    if not text:
        raise SlackError("no_query")
    count, page = call.page_numbers()
    by_time = (call.args.string("sort") or "score") == "timestamp"
    ascending = (call.args.string("sort_dir") or "desc") == "asc"
    world = call.world
    query = search.parse(world, call.user, text)
    visible = {c["id"]: c for c in world[store.CHANNELS] if store.can_see(c, call.me)}
    answer = _from_indexes(call, query, visible, by_time, ascending, count, page)
    if answer is not None:
        return text, answer
    held = words.candidates(world, query.include, query.channels, visible)
    scored = []
    for message in world[store.MESSAGES] if held is None else store.messages_at(world, held):
        conversation = visible.get(message["channel"])
        if conversation is None or not words.searchable(message):
            continue
        score = query.matches(message)
        if score:
            scored.append((score, message, conversation))
    # `ts` order first, so that the score sort keeps newest first among equal scores.
    scored.sort(key=lambda s: s[1]["ts"], reverse=not ascending)
    if not by_time:
        scored.sort(key=lambda s: s[0], reverse=not ascending)
    chosen = scored[(page - 1) * count : page * count]
    matches = [views.search_match(world, s, m, c, call.me) for s, m, c in chosen]
    return text, {**numbered_paging(len(scored), count, page), "matches": matches}


def _from_indexes(
    call: Call,
    query: search.Query,
    visible: dict[str, Any],
    by_time: bool,
    ascending: bool,
    count: int,
    page: int,
) -> dict[str, Any] | None:
    """The `messages` of a search of words and phrases (and `in:`) read from the indexes' lists
    (`words.one_word`) or bits (`matching.several`) without testing a message; None when they cannot tell."""
    if not query.include or query.exclude or query.other_modifiers:
        return None
    inside: Iterable[str] = visible
    if query.channels:  # several `in:` must all hold
        named = set(query.channels)
        inside = {c for c in named if c in visible} if len(named) == 1 else set()
    skip = (page - 1) * count
    word = query.word()
    read = None
    if word is not None:
        read = words.one_word(call.world, word, inside, by_time, ascending, skip, count)
    if read is None:
        read = matching.several(call.world, query.include, inside, by_time, ascending, skip, count)
    if read is None:
        return None
    total, chosen = read
    found = call.world[store.MESSAGES]
    matches = []
    for score, ts in chosen:
        message = found.get(ts)
        assert message is not None  # the lists follow every write
        matches.append(views.search_match(call.world, score, message, visible[message["channel"]], call.me))
    return {**numbered_paging(total, count, page), "matches": matches}
