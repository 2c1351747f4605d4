"""A cursor over a query's tokens, read one at a time by the services' query parsers (Gmail's `q`, Datadog's
log search)."""

from __future__ import annotations


class Tokens:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token
