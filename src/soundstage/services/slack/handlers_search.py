"""Slack's search.messages and search.all: the messages a user may see that match a query (user tokens
only). A world has no files or posts, so search.all finds messages only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import search, store, views, words
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
    word = query.word()
    if word is not None:
        answer = _one_word(call, word, query.channels, visible, by_time, ascending, count, page)
        if answer is not None:
            return text, answer
    held = words.candidates(world, query.include, query.channels)
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


def _one_word(
    call: Call,
    word: str,
    named: list[str | None],
    visible: dict[str, Any],
    by_time: bool,
    ascending: bool,
    count: int,
    page: int,
) -> dict[str, Any] | None:
    """The `messages` of a search of one word (and `in:`), read from the word's lists without testing a
    message; None when they cannot tell (`words.one_word`)."""
    inside: Iterable[str] = visible
    if named:  # several `in:` must all hold
        inside = {c for c in named if c in visible} if len(set(named)) == 1 else set()
    read = words.one_word(call.world, word, inside, by_time, ascending, (page - 1) * count, count)
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
