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


def searchable(record: Record) -> str:
    """What plain words of a search are looked for in: the subject, the text, the addresses, the file names."""
    people = " ".join([record["from"], *record["to"], *record["cc"]])
    return " ".join([record["subject"], record["text"], people, *record["filenames"]]).lower()


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


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
        return [((record["mailbox"], word), at) for word in set(words(searchable(record)))]
