"""Searches of several words and of phrases read from bits (`matching`) answer exactly what reading every
message answers: in a generated world of punctuation, repeated words, entities and markup, before and after
posts, edits and deletes made once the indexes exist, in that world and in another copied from the same image,
for many seeded random queries. The common ones never test a message."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from soundstage.server import Hub
from soundstage.services.slack import bitmaps, matching, messages, mrkdwn, search, words
from soundstage.services.slack.store import MESSAGES
from soundstage.world import Record, World

from .test_indexes import _call

SCENE = """
name: slack-matching
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $maya}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: maya, name: maya, email: maya@acme.test}
      - {ref: omar, name: omar, email: omar@acme.test}
    channels:
      - {ref: support, name: support, members: [$maya, $omar]}
      - {ref: ops, name: ops, members: [$maya, $omar]}
      - {ref: secret, name: secret, members: [$omar], is_private: true}
"""

# Each of these starts no other word of the world: a query of them (or of phrases of two of them) is read from bits.
WHOLE = ["cache", "latency", "review", "the", "x_y", "naïve", "a"]
# "deploy" starts "deploys", "roll" starts "rollout", "d" starts several: their counts are added up.
PREFIXED = ["deploy", "deploys", "roll", "rollout"]
BETWEEN = [" ", " ", " ", "  ", ", ", "-", " & ", ". ", " — ", "&amp;"]
_SPLIT = re.compile(r"(\w+)")
MARKUP = ["<@U0123|cache latency>", "<https://x.test|review the cache>", "&lt;latency&gt;", "<#C0123|x_y>"]


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 9)):
        if rng.random() < 0.08:
            parts.append(rng.choice(MARKUP))
        elif rng.random() < 0.08:
            parts.append(" ".join([rng.choice(WHOLE)] * rng.randint(2, 4)))  # "the the the": pairs overlap
        else:
            word = rng.choice(WHOLE + PREFIXED)
            parts.append(word.upper() if rng.random() < 0.1 else word)
        parts.append(rng.choice(BETWEEN))
    return "".join(parts[:-1])


def _query(rng: random.Random, common: bool, texts: list[str]) -> str:
    """A random query: of whole words, words' starts and phrases of them when `common`, with anything else
    besides otherwise. Phrases are of two words, or of three or four, as a message has them (the last one cut
    short at times) or as none has them."""
    terms = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        pool = WHOLE + PREFIXED + ["d", "lat", "x", "ro"] if common else WHOLE + PREFIXED + ["d", "lat", "x"]
        shape = rng.random()
        if shape < 0.3:
            terms.append(f'"{_phrase(rng, texts)}"')
        elif shape < 0.5:
            first, second = rng.sample(pool, 2)
            between = rng.choice([" ", " ", ", ", "-", " & "] if common else BETWEEN)
            terms.append(f'"{first}{between}{second}"')
        else:
            terms.append(rng.choice(pool))
    if not common and rng.random() < 0.2:
        terms.append(rng.choice(["-review", '"the the"', '"a a"', '"a cache latency"', "#tag", "before:2030-01-01"]))
    if rng.random() < 0.4:
        terms.append(rng.choice(["in:#support", "in:#ops", "in:#secret", "in:#nowhere"]))
    rng.shuffle(terms)
    return " ".join(terms)


def _phrase(rng: random.Random, texts: list[str]) -> str:
    """Three or four words: adjacent in one of `texts` (as search reads them), the last cut short at times; or
    whole words of the world that no text need have."""
    length = rng.choice([3, 3, 4])
    parts = _SPLIT.split(mrkdwn.unescape(rng.choice(texts)).lower())  # before, a word, between, ..., after
    if rng.random() < 0.2 or len(parts) < 2 * length + 1:
        return " ".join(rng.choice(WHOLE) for _ in range(length))
    start = 1 + 2 * rng.randrange((len(parts) - 1) // 2 - length + 1)
    phrase = parts[start : start + 2 * length - 1]
    if rng.random() < 0.3:
        phrase[-1] = phrase[-1][: rng.randint(1, len(phrase[-1]))]
    return "".join(phrase)


def _pairs(term: str) -> list[re.Pattern[str]]:
    """What a message holding the phrase `term` holds: each pair of adjacent words of it, the last word of the
    last pair a word it starts."""
    parts = _SPLIT.split(term)
    words, between = parts[1::2], parts[2:-1:2]
    pairs = [re.escape(f"{a}{b}{c}") for a, b, c in zip(words, between, words[1:], strict=False)]
    return [re.compile(rf"(?<!\w){pair}(?!\w)") for pair in pairs[:-1]] + [re.compile(rf"(?<!\w){pairs[-1]}")]


def _asks(rng: random.Random, query: str) -> list[dict[str, str]]:
    return [
        {
            "query": query,
            "count": str(rng.choice([1, 3, 7, 20])),
            "page": str(rng.choice([1, 1, 2, 3, 6])),
            "sort": rng.choice(["score", "timestamp"]),
            "sort_dir": rng.choice(["desc", "asc"]),
        }
        for _ in range(3)
    ]


def _scanned(world: World, ask: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    with monkeypatch.context() as scan:
        scan.setattr(words, "candidates", lambda *args: None)
        scan.setattr(words, "one_word", lambda *args: None)
        scan.setattr(matching, "several", lambda *args: None)
        return _call(world, "search.messages", **ask)


def _indexed(world: World, ask: dict[str, str], common: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The answer through the indexes; for a common query, with testing any message failing the test, and
    reading the text of one that does not hold every pair of words of the phrase counted in it too."""
    if not common:
        return _call(world, "search.messages", **ask)

    def tested(*args: Any) -> int:
        raise AssertionError(f"{ask['query']!r} tested a message")

    def counted(message: Record, term: str) -> int:
        text = mrkdwn.unescape(message["text"]).lower()
        assert all(pair.search(text) for pair in _pairs(term)), f"{ask['query']!r} read {text!r}"
        return occurrences(message, term)

    occurrences = search.occurrences
    with monkeypatch.context() as bits_only:
        bits_only.setattr(search.Query, "matches", tested)
        bits_only.setattr(search, "occurrences", counted)
        return _call(world, "search.messages", **ask)


def _compare(world: World, rng: random.Random, monkeypatch: pytest.MonkeyPatch) -> int:
    """Compares many random queries' answers both ways; how many found something."""
    found = 0
    seen = {world.refs["support"], world.refs["ops"]}  # maya's: phrases of these are found
    texts = [m["text"] for m in world[MESSAGES] if m["channel"] in seen and words.searchable(m)]
    for round_ in range(60):
        common = round_ % 2 == 0
        query = _query(rng, common, texts)
        for ask in _asks(rng, query):
            indexed = _indexed(world, ask, common, monkeypatch)
            assert indexed == _scanned(world, ask, monkeypatch), ask
            found += indexed["messages"]["total"] > 0
    return found


def _write(world: World, rng: random.Random) -> None:
    """Posts, edits and deletes through the API, once the indexes exist."""
    channels = [world.refs[name] for name in ("support", "ops")]
    for _ in range(40):
        _call(world, "chat.postMessage", channel=rng.choice(channels), text=_text(rng))
    mine = [
        m
        for m in world[MESSAGES]
        if m["user"] == world.agent["slack_user"] and m["channel"] in channels and words.searchable(m)
    ]
    for message in rng.sample(mine, 25):
        _call(world, "chat.update", channel=message["channel"], ts=message["ts"], text=_text(rng))
    for message in rng.sample(mine, 10):
        if message["ts"] in world[MESSAGES]:
            _call(world, "chat.delete", channel=message["channel"], ts=message["ts"])


# The test's worlds are small: at a lower density, lists are rare enough to be read rather than kept as bits.
@pytest.mark.parametrize("dense", [bitmaps.DENSE, 4])
def test_several_words_and_phrases_answer_as_reading_every_message(dense: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bitmaps, "DENSE", dense)
    monkeypatch.setattr(matching, "DENSE", dense)
    rng = random.Random(31)
    hub = Hub()
    image = hub.images.load(scene_yaml=SCENE)
    first = hub.add(image)
    people = [first.refs["maya"], first.refs["omar"]]
    for _ in range(400):
        channel = first.refs[rng.choice(["support", "ops", "secret"])]
        messages.post(first, channel, rng.choice(people), _text(rng))
    assert _compare(first, rng, monkeypatch) > 40
    _write(first, rng)
    assert _compare(first, rng, monkeypatch) > 40
    other = hub.add(image)  # shares the image's bits: its own writes must not see the first world's
    _write(other, rng)
    assert _compare(other, rng, monkeypatch) > 0


def test_a_world_whose_messages_came_out_of_ts_order_is_read_the_usual_way(monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub()
    world = hub.add(hub.images.load(scene_yaml=SCENE))
    support, maya = world.refs["support"], world.refs["maya"]
    messages.post(world, support, maya, "cache latency review")
    ask = {"query": "cache latency"}
    assert _call(world, "search.messages", **ask)["messages"]["total"] == 1
    messages.post(world, support, maya, "latency cache", ts="1000000000.000100")  # before every other
    assert _indexed(world, ask, False, monkeypatch) == _scanned(world, ask, monkeypatch)
    assert _call(world, "search.messages", **ask)["messages"]["total"] == 2
