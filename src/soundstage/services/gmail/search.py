"""Gmail's search syntax (`q` of messages.list and threads.list), read into a tree and decided per message.

A query reads only the messages holding one of its words when it has any (the rarest word's, from
`listing.Words`), else every message of the mailbox (`listing.ByDate`): it costs a mailbox's messages at
most, never the world's. Dates are the world's simulated time; a date alone (`after:2026/03/01`) is
midnight Pacific time, as Gmail reads one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from ...clock import US
from ...world import Collection, Record
from ..tokens import Tokens
from .listing import ByDate, Words, words

PACIFIC = ZoneInfo("America/Los_Angeles")
DAY = 86_400 * US
PERIODS = {"d": DAY, "m": 30 * DAY, "y": 365 * DAY}
PLACES = {
    "inbox": "INBOX",
    "sent": "SENT",
    "draft": "DRAFT",
    "drafts": "DRAFT",
    "trash": "TRASH",
    "spam": "SPAM",
    "starred": "STARRED",
    "important": "IMPORTANT",
    "unread": "UNREAD",
}
STATES = {"unread": ("UNREAD", True), "read": ("UNREAD", False), "starred": ("STARRED", True)}
STATES |= {"important": ("IMPORTANT", True)}
OPERATORS = frozenset(
    ("from", "to", "cc", "bcc", "subject", "label", "in", "is", "has", "filename", "after", "before")
    + ("older", "newer", "older_than", "newer_than")
)
# A quoted phrase, a parenthesis or brace, or a run of anything else (an `op:"quoted value"` kept whole).
_TOKEN = re.compile(r'"[^"]*"?|[(){}]|[^\s(){}"]+(?:"[^"]*"?)?')
_DATE = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})$")
_AGE = re.compile(r"(\d+)([dmy])$")
_WORDS = re.compile(r"\W+")

Test = Callable[[Record], bool]
# What bounds a query's work: groups and negations nested at most DEPTH deep (deeper ones are read as words), and
# its first TOKENS terms, operators and brackets read (the rest left out), each distinct term tested once.
DEPTH = 20
TOKENS = 128


@dataclass
class Query:
    """A parsed query: `test` decides a message; `words` are words every match holds (to narrow by);
    `everywhere` says the query names trash or spam, so they are not left out."""

    test: Test
    words: list[str] = field(default_factory=list)
    everywhere: bool = False


@dataclass
class Mailbox:
    """What a query reads of one mailbox: its address, its messages, its labels' ids by name, and now."""

    address: str
    messages: Collection
    labels: dict[str, str]
    now: int

    def holding(self, word: str) -> set[str]:
        return {at[1] for at in self.messages.derived(Words).get((self.address, word))}


@dataclass
class Arriving(Mailbox):
    """A mailbox as a message arriving in it is tested against its filters: the message alone, not yet among
    its messages (`record`, whose words are its own)."""

    record: Record = field(default_factory=dict)
    words: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.words = frozenset(self.record["search"].split())  # once: every filter asks for its words

    def holding(self, word: str) -> set[str]:
        return {self.record["id"]} if word in self.words else set()


class _Parser(Tokens):
    def __init__(self, q: str, mailbox: Mailbox) -> None:
        super().__init__(_TOKEN.findall(q)[:TOKENS])
        self.mailbox = mailbox
        self.everywhere = False
        self.depth = 0  # groups and negations open around the current term
        self._holding: dict[str, set[str]] = {}
        self._terms: dict[str, Query] = {}  # a term given twice is one test

    def terms(self, closing: str | None = None) -> list[Query]:
        """Terms until `closing` (or the end)."""
        parts: list[Query] = []
        while (token := self.peek()) is not None and token != closing:
            if token in (")", "}") or token == "AND":  # a stray closing, or AND (implied anyway)
                self.take()
                continue
            parts.append(self.either())
        if closing is not None and self.peek() == closing:
            self.take()
        return parts

    def either(self) -> Query:
        parts = [self.one()]
        while self.peek() == "OR" and self.at + 1 < len(self.tokens):
            self.take()
            parts.append(self.one())
        return parts[0] if len(parts) == 1 else _any(parts)

    def one(self) -> Query:
        token = self.take()
        if token in ("(", "{", "-") and self.depth >= DEPTH:  # nested too deep: the rest is words
            return self.term(token)
        self.depth += 1
        try:
            return self.nested(token)
        finally:
            self.depth -= 1

    def nested(self, token: str) -> Query:
        if token == "(":
            return _all(self.terms(")"))
        if token == "{":  # braces: any of the terms
            return _any(self.terms("}"))
        if token.startswith("-"):
            negated = self.term(token[1:]) if len(token) > 1 else self.one() if self.peek() else None
            if negated is None:
                return Query(lambda record: True)
            test = negated.test
            return Query(lambda record: not test(record))
        return self.term(token)

    def term(self, token: str) -> Query:
        made = self._terms.get(token)
        if made is None:
            made = self._terms[token] = self.read(token)
        return made

    def read(self, token: str) -> Query:
        name, colon, value = token.partition(":")
        if colon and name.lower() in OPERATORS and value:
            return self.operator(name.lower(), value.strip('"').lower())
        return self.text(token.strip('"').lower())

    def holding(self, word: str) -> set[str]:
        found = self._holding.get(word)
        if found is None:
            found = self._holding[word] = self.mailbox.holding(word)
        return found

    def text(self, value: str) -> Query:
        """Plain words: each a whole word of the message; several (a phrase, `a-b`) next to one another."""
        found = words(value)
        if not found:
            return Query(lambda record: True)
        sets = [self.holding(word) for word in found]
        if len(found) == 1:
            return Query(lambda record: record["id"] in sets[0], found)
        phrase = " " + " ".join(found) + " "
        return Query(lambda record: all(record["id"] in s for s in sets) and phrase in record["search"], found)

    def operator(self, name: str, value: str) -> Query:
        me = self.mailbox.address
        if name in ("from", "to", "cc", "bcc"):
            matches = _Addresses(me if value == "me" else value)
            if name == "from":
                return Query(lambda record: matches(record["from"]))
            return Query(lambda record: any(matches(a) for a in record[name]))
        if name == "subject":
            found = words(value)
            phrase = " " + " ".join(found) + " "
            # A subject's words are the message's too: its rarest word's set is asked first.
            held = min((self.holding(word) for word in found), key=len, default=set())
            return Query(lambda record: record["id"] in held and phrase in record["subjectSearch"])
        if name in ("label", "in"):
            return self.label(name, value)
        if name == "is":
            label, present = STATES.get(value, ("", True))
            return Query(lambda record: (label in record["labelIds"]) == present if label else False)
        if name == "has":
            if value == "attachment":
                return Query(lambda record: bool(record["filenames"]))
            if value in ("userlabels", "nouserlabels"):
                user = value == "userlabels"
                return Query(lambda record: any(_user_label(i) for i in record["labelIds"]) == user)
            return Query(lambda record: False)
        if name == "filename":
            return Query(lambda record: any(value in f.lower() for f in record["filenames"]))
        return self.time(name, value)

    def label(self, name: str, value: str) -> Query:
        if name == "in" and value == "anywhere":
            self.everywhere = True
            return Query(lambda record: True)
        wanted = PLACES.get(value) or self.mailbox.labels.get(label_name(value), "" if name == "in" else None)
        if wanted is None:
            wanted = value.upper()
        if wanted in ("TRASH", "SPAM"):
            self.everywhere = True
        return Query(lambda record: wanted in record["labelIds"])

    def time(self, name: str, value: str) -> Query:
        if name in ("after", "before"):
            moment = _moment(value)
            if moment is None:
                return Query(lambda record: False)
            if name == "after":
                return Query(lambda record: record["internalDate"] >= moment)
            return Query(lambda record: record["internalDate"] < moment)
        age = _AGE.match(value)
        if age is None:
            return Query(lambda record: False)
        since = self.mailbox.now - int(age.group(1)) * PERIODS[age.group(2)]
        if name.startswith("older"):
            return Query(lambda record: record["internalDate"] < since)
        return Query(lambda record: record["internalDate"] > since)


def _all(parts: list[Query]) -> Query:
    if not parts:
        return Query(lambda record: True)
    if len(parts) == 1:
        return parts[0]
    tests = list(dict.fromkeys(p.test for p in parts))

    def every(record: Record) -> bool:
        for test in tests:
            if not test(record):
                return False
        return True

    return Query(every, [w for p in parts for w in p.words])


def _any(parts: list[Query]) -> Query:
    if not parts:
        return Query(lambda record: True)
    tests = list(dict.fromkeys(p.test for p in parts))

    def some(record: Record) -> bool:
        for test in tests:
            if test(record):
                return True
        return False

    return Query(some)


class _Addresses(dict[str, bool]):
    """Whether an address matches `wanted`: the whole address, its name or domain, or any of their words
    (`maya`, `acme.test`, `acme`); each address decided once per query (a mailbox's addresses repeat)."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted

    def __missing__(self, address: str) -> bool:
        name, _, domain = address.partition("@")
        found = self[address] = self.wanted in (address, name, domain) or self.wanted in _WORDS.split(address)
        return found

    def __call__(self, address: str) -> bool:
        return self[address]


def _user_label(label_id: str) -> bool:
    return label_id.startswith("Label_")


def label_name(name: str) -> str:
    """A label's name as search spells it: lower case, spaces and slashes as dashes."""
    return re.sub(r"[\s/]+", "-", name.strip().lower())


def _moment(value: str) -> int | None:
    """A date as Gmail reads one: seconds since the epoch, or a day (`2026/03/01`) from midnight Pacific."""
    if value.isdigit():
        return int(value) * US
    day = _DATE.match(value)
    if day is None:
        return None
    try:
        moment = datetime(int(day.group(1)), int(day.group(2)), int(day.group(3)), tzinfo=PACIFIC)
    except ValueError:
        return None
    return int(moment.timestamp()) * US


def bounded(q: str) -> str:
    """`q` cut to what a search reads of it (its first TOKENS terms, operators and brackets), read the same: what a
    filter keeps, so that each message it tests reads no more than that."""
    return " ".join(_TOKEN.findall(q)[:TOKENS])


def matcher(mailbox: Mailbox, q: str) -> Test:
    """What `q` asks of a message, as messages.list reads it."""
    return _all(_Parser(q, mailbox).terms()).test


def operator(mailbox: Mailbox, name: str, value: str) -> Test:
    """One operator's test (`from`, `to`, `cc`, `bcc`, `subject`...) of a value taken whole, as a filter's own
    fields are: `operator(m, "subject", "weekly report")` is `subject:"weekly report"`."""
    return _Parser("", mailbox).operator(name, value.strip().lower()).test


def search(mailbox: Mailbox, q: str, labels: list[str], everywhere: bool) -> Iterator[Record]:
    """The mailbox's messages matching `q` and carrying every label of `labels`, newest first; those in trash
    or spam only with `everywhere` or where the query names them."""
    parser = _Parser(q, mailbox)
    query = _all(parser.terms())
    everywhere = everywhere or parser.everywhere or any(label in ("TRASH", "SPAM") for label in labels)
    if query.words:
        rarest = min(query.words, key=lambda word: len(parser.holding(word)))
        entries = mailbox.messages.derived(Words).get((mailbox.address, rarest))
    else:
        entries = mailbox.messages.derived(ByDate).get(mailbox.address)
    one, test, wanted = mailbox.messages.one, query.test, set(labels)
    for _, message_id in entries:
        record = one(message_id)
        held = record["labelIds"]
        if not everywhere and ("TRASH" in held or "SPAM" in held):
            continue
        if (not wanted or wanted.issubset(held)) and test(record):
            yield record
