"""Versions of a collection's contents, for caches of what is rendered from them: `Version` is a derived
index (`Collection.derived`) holding a token that every write replaces (an undone one too), and that is the
same object in every world copied from one image until that world writes the collection. A render kept by
the tokens of what it reads is current exactly while they are the ones answered: one lookup, however many
records it read. `tokens` finds a world's `Version` objects once (`Versions`); `Kept` holds such renders.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Generic, TypeVar

from ..world import Record, World, found_again_by_forks

K = TypeVar("K")
V = TypeVar("V")


class Version:
    """The token of one collection's contents."""

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


@found_again_by_forks
class Versions:
    """The `Version` of each set of collections read through `tokens`, found once (a world part): a live world
    keeps its collections, and each its `Version`, for its whole life. It holds nothing of the world; a fork
    finds its own collections' versions."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found: dict[tuple[str, ...], tuple[Version, ...]] = {}


_token = operator.attrgetter("token")


def tokens(world: World, names: tuple[str, ...]) -> tuple[object, ...]:
    """The tokens of collections `names` of a live world as they are now, in that order."""
    found = world.part(Versions).found
    versions = found.get(names)
    if versions is None:
        versions = found[names] = tuple([world[name].derived(Version) for name in names])
    return tuple(map(_token, versions))


class Kept(Generic[K, V]):
    """Renders kept by keys that hold the tokens of what they were rendered from (a write makes its keys stale
    rather than changing what they answer). Bounded: emptied when full, so no order of use is kept."""

    __slots__ = ("found", "most")

    def __init__(self, most: int) -> None:
        self.most = most
        self.found: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self.found.get(key)

    def keep(self, key: K, value: V) -> V:
        if len(self.found) >= self.most:
            self.found.clear()
        self.found[key] = value
        return value
