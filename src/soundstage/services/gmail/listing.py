"""The indexes a mailbox's listings and searches read: its messages newest first (`ByDate`), and by each word
they hold (`Words`), each kept in step with every write (`Collection.derived`)."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from typing import Any

from ...indexes import GroupIndex, Record

WORD = re.compile(r"\w+")


def entry(record: Record) -> tuple[int, str]:
    """Where a message sorts in its mailbox: newest first, then by id."""
    return (-int(record["internalDate"]), str(record["id"]))


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def spaced(text: str) -> str:
    """The words of `text`, lower case, each between spaces: a phrase is in it as its words spaced so."""
    return " " + " ".join(words(text)) + " "


def searchable(subject: str, text: str, people: list[str], filenames: list[str]) -> str:
    """What plain words of a search are looked for in (a message's `search`, made once): the subject, the text,
    the addresses, the file names, spaced."""
    return spaced(" ".join([subject, text, *people, *filenames]))


class ByDate(GroupIndex):
    """Each mailbox's messages, newest first."""

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return [(record["mailbox"], entry(record))]


class Words(GroupIndex):
    """Each mailbox's messages by every word they hold (`searchable`), newest first."""

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        at = entry(record)
        return [((record["mailbox"], word), at) for word in set(record["search"].split())]
