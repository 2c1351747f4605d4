"""Versions of a collection's contents, for caches of what is rendered from them: `version(records, name)`
answers a token that is replaced by every write (an undone one too), and is the same object in every world
copied from one image until that world writes the collection. A render kept by the tokens of what it reads
is current exactly while they are the ones answered: one lookup, however many records it read.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...world import Record, World
from .records import Records


class Version:
    """A derived index of a collection (`Collection.derived`) that holds only the token of its contents."""

    __slots__ = ("token",)

    def __init__(self, token: object | None = None) -> None:
        self.token = token if token is not None else object()

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Version:
        return cls()

    def copy(self) -> Version:
        return Version(self.token)  # the copy holds the same records until it writes

    def update(self, record_id: str, old: Record | None, new: Record | None) -> None:
        self.token = object()


def version(records: Records, name: str) -> object:
    """The token of collection `name`'s contents as they are now."""
    return records[name].derived(Version).token


def tokens(world: World, names: tuple[str, ...]) -> tuple[object, ...]:
    """The tokens of collections `names` of a live world as they are now, in that order."""
    return tuple([world[name].derived(Version).token for name in names])
