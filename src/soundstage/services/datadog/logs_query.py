"""Datadog's log (and event) search syntax: a query compiled into a predicate over documents.

A query is terms joined by `AND` (or a space), `OR` and `NOT`/`-`, grouped with parentheses:
`service:orders status:error host:web-1 "free text" @http.status_code:>=500 -excluded`. A term is
- free text (a word, or a "quoted phrase"), matched against the message as whole words, any case;
- `service:`, `host:`, `status:`, `source:` a reserved attribute (from the tags when the document has none);
- `@path.to.attr:` a custom attribute (dotted path; a list attribute matches if any item does);
- any other `key:value`, a tag (`env:prod`).
Values may use `*` and `?` wildcards, `(a OR b)`, comparisons `>N` `>=N` `<N` `<=N` and ranges `[a TO b]`.
Matching is case-insensitive. A document is a `Doc`: the message, the reserved attributes, the tags and
the custom attributes of one log or event.

A query costs what its text and the documents are, never more: wildcards match in linear time (no
backtracking across `*`, whatever their number), and groups and `NOT`s nest at most `MAX_NESTING` deep.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..tokens import Tokens
from .errors import bad_request

RESERVED = frozenset({"service", "host", "status", "source"})
MAX_NESTING = 100  # parentheses and NOTs around a term (the parser and the matcher recurse once a level)


@dataclass
class Doc:
    message: str
    reserved: dict[str, Any]
    tags: list[str] = field(default_factory=list)
    attributes: Mapping[str, Any] = field(default_factory=dict)


Matcher = Callable[[Doc], bool]


class QueryError(ValueError):
    pass


# -- parsing -------------------------------------------------------------------------------------------


def compile_query(text: Any) -> Matcher:
    """The query as a predicate over documents; a malformed query is a 400."""
    if text is None:
        text = "*"
    if not isinstance(text, str):
        raise bad_request(f"Invalid 'query': expected a string, found {text!r}")
    try:
        parser = _Parser(_tokens(text))
        matcher = parser.expression()
        if parser.peek() is not None:
            raise QueryError(f"unexpected {parser.peek()!r}")
    except QueryError as exc:
        raise bad_request(f"Invalid query {text!r}: {exc}") from None
    return matcher


def _tokens(text: str) -> list[str]:
    """Words, quoted phrases (kept with their quotes) and parentheses; `key:` sticks to what follows."""
    tokens: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif char in "()":
            tokens.append(char)
            i += 1
        else:
            start = i
            while i < len(text) and not text[i].isspace() and text[i] not in "()":
                if text[i] == "\\" and i + 1 < len(text):
                    i += 2
                    continue
                if text[i] == '"':
                    end = text.find('"', i + 1)
                    if end < 0:
                        raise QueryError("unterminated quote")
                    i = end + 1
                    continue
                if text[i] == "[":
                    end = text.find("]", i + 1)
                    if end < 0:
                        raise QueryError("unterminated range")
                    i = end + 1
                    continue
                i += 1
            word = text[start:i]
            # `service:(a OR b)`: the group belongs to the key.
            if word.endswith(":") and i < len(text) and text[i] == "(":
                depth, j = 0, i
                while j < len(text):
                    depth += {"(": 1, ")": -1}.get(text[j], 0)
                    j += 1
                    if depth == 0:
                        break
                if depth:
                    raise QueryError("unbalanced parentheses")
                word, i = text[start:j], j
            tokens.append(word)
    return tokens


class _Parser(Tokens):
    def __init__(self, tokens: list[str]) -> None:
        super().__init__(tokens)
        self.depth = 0  # groups and NOTs open around the current term

    def expression(self) -> Matcher:
        options = [self.conjunction()]
        while self.peek() == "OR":
            self.take()
            options.append(self.conjunction())
        return options[0] if len(options) == 1 else lambda doc: any(m(doc) for m in options)

    def conjunction(self) -> Matcher:
        parts = [self.unary()]
        while self.peek() not in (None, ")", "OR"):
            if self.peek() == "AND":
                self.take()
            parts.append(self.unary())
        return parts[0] if len(parts) == 1 else lambda doc: all(m(doc) for m in parts)

    def unary(self) -> Matcher:
        token = self.peek()
        if token is None or token in (")", "OR", "AND"):
            raise QueryError("a term is missing" if token is None else f"unexpected {token!r}")
        if token in ("NOT", "-", "("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise QueryError(f"parentheses and NOTs nest more than {MAX_NESTING} deep")
            inner = self.negated() if token != "(" else self.group()
            self.depth -= 1
            return inner
        self.take()
        if token.startswith("-") and len(token) > 1:
            term = _term(token[1:])
            return lambda doc: not term(doc)
        return _term(token)

    def negated(self) -> Matcher:
        self.take()
        inner = self.unary()
        return lambda doc: not inner(doc)

    def group(self) -> Matcher:
        self.take()
        inner = self.expression()
        if self.peek() != ")":
            raise QueryError("unbalanced parentheses")
        self.take()
        return inner


# -- terms ---------------------------------------------------------------------------------------------


def _split_key(token: str) -> tuple[str | None, str]:
    """`key:value` (the first colon not escaped and outside quotes), or (None, text)."""
    i = 0
    while i < len(token):
        if token[i] == "\\":
            i += 2
            continue
        if token[i] == '"':
            return None, token
        if token[i] == ":" and i > 0:
            return token[:i], token[i + 1 :]
        i += 1
    return None, token


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _term(token: str) -> Matcher:
    key, value = _split_key(token)
    if key is None:
        return _free_text(token)
    if value == "":
        raise QueryError(f"{key}: needs a value")
    test = _value_test(value)
    key = _unescape(key)
    if key.startswith("@"):
        path = key[1:].split(".")
        return lambda doc: any(test(v) for v in _lookup(doc.attributes, path))
    name = key.lower()
    prefix = name + ":"

    def tagged(doc: Doc) -> bool:
        return any(t.lower().startswith(prefix) and test(t[len(prefix) :]) for t in doc.tags)

    if name in RESERVED:
        # A reserved attribute the document lacks is read from its tags (`source:python`).
        return lambda doc: test(doc.reserved[name]) if doc.reserved.get(name) is not None else tagged(doc)
    return tagged


def _lookup(attributes: Any, path: list[str]) -> list[Any]:
    value = attributes
    for part in path:
        if not isinstance(value, Mapping) or part not in value:
            return []
        value = value[part]
    return value if isinstance(value, list) else [value]


def _free_text(token: str) -> Matcher:
    if token == "*":
        return lambda doc: True
    if token.startswith('"'):
        if len(token) < 2 or not token.endswith('"'):
            raise QueryError("unterminated quote")
        phrase = re.compile(re.escape(token[1:-1]), re.IGNORECASE)
        return lambda doc: bool(phrase.search(doc.message))
    chunks = _chunks(_unescape(token))
    if len(chunks) == 1:  # no `*`: nothing to backtrack over
        word = re.compile(r"(?<!\w)" + chunks[0] + r"(?!\w)", re.IGNORECASE)
        return lambda doc: bool(word.search(doc.message))
    # A whole word `first*...*last`. Where `first` first starts a word, the rest matches if it does from
    # any later start: so that one start is tried, its middle parts each at their first place (atomic, never
    # revisited), and `.` not crossing a line, each line on its own.
    first = re.compile(r"(?<!\w)" + chunks[0], re.IGNORECASE)
    rest = re.compile("".join(f"(?>.*?{c})" for c in chunks[1:-1]) + ".*?" + chunks[-1] + r"(?!\w)", re.IGNORECASE)
    per_line = not any("\n" in c for c in chunks)

    def matches(doc: Doc) -> bool:
        for line in doc.message.split("\n") if per_line else [doc.message]:
            start = first.search(line)
            if start is not None and rest.match(line, start.end()):
                return True
        return False

    return matches


def _chunks(text: str) -> list[str]:
    """A wildcard pattern cut at each `*`, the pieces as regular expressions (`?` any one character)."""
    return ["".join("." if c == "?" else re.escape(c) for c in piece) for piece in text.split("*")]


def _glob_match(text: str) -> re.Pattern[str]:
    """A whole-value wildcard pattern, compiled to match in linear time: the parts between stars each taken
    at their first place (atomic groups), the last one anchored at the end."""
    chunks = _chunks(text)
    if len(chunks) == 1:
        return re.compile(chunks[0] + r"\Z", re.IGNORECASE)
    middle = "".join(f"(?>.*?{c})" for c in chunks[1:-1])
    return re.compile(chunks[0] + middle + ".*" + chunks[-1] + r"\Z", re.IGNORECASE)


def _value_test(value: str) -> Callable[[Any], bool]:
    if value.startswith("(") and value.endswith(")"):
        inner = _tokens(value[1:-1])
        options = [_value_test(t) for t in inner if t not in ("OR",)]
        if not options or any(t in ("AND", "NOT", "(", ")") for t in inner):
            raise QueryError(f"expected values joined by OR in {value}")
        return lambda actual: any(test(actual) for test in options)
    if value.startswith("[") and value.endswith("]"):
        low, sep, high = value[1:-1].partition(" TO ")
        if not sep:
            raise QueryError(f"expected a range like [100 TO 200], found {value}")
        return _between(low.strip(), high.strip())
    for operator in (">=", "<=", ">", "<"):
        if value.startswith(operator):
            bound = _number(value[len(operator) :])
            compare = {">=": float.__ge__, "<=": float.__le__, ">": float.__gt__, "<": float.__lt__}[operator]
            return lambda actual: _is_number(actual) and compare(float(actual), bound)
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        exact = value[1:-1].lower()
        return lambda actual: _text(actual) == exact
    pattern = _glob_match(_unescape(value))
    return lambda actual: bool(pattern.match(_text(actual)))


def _between(low: str, high: str) -> Callable[[Any], bool]:
    lo = None if low == "*" else _number(low)
    hi = None if high == "*" else _number(high)
    return lambda actual: (
        _is_number(actual) and (lo is None or float(actual) >= lo) and (hi is None or float(actual) <= hi)
    )


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise QueryError(f"expected a number, found {text!r}") from None


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).lower()
