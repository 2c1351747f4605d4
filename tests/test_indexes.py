"""Sorted group indexes (`indexes.GroupIndex` through `Collection.derived`): always what building them
afresh from the records gives, across writes, undo, copies of a world image and writes to the copied."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from soundstage.clock import Clock, parse_time
from soundstage.ids import IdSource
from soundstage.indexes import GroupIndex
from soundstage.world import Collection, Record, World

START = parse_time("2026-03-02T14:00:00Z")


class ByTeam(GroupIndex):
    """Ids by team and by each tag, sorted by (rank, id)."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        yield ("team", record["team"]), (record["rank"], record_id)
        for tag in record.get("tags", ()):
            yield ("tag", tag), (record["rank"], record_id)


def _fresh(collection: Collection) -> dict[Hashable, list[Any]]:
    return ByTeam.build({r["id"]: r for r in collection}).lists


def _image() -> Collection:
    records = {f"u{i}": {"id": f"u{i}", "team": f"t{i % 3}", "rank": i % 5, "tags": [f"g{i % 4}"]} for i in range(30)}
    return Collection("things", records)


def _world(image: Collection) -> World:
    copy = image.copy()
    return World("w", "scene", {"things": copy}, Clock(START), IdSource("s"), initial={"things": image._records})


def test_an_index_follows_adds_changes_and_removes() -> None:
    things = _image()
    index = things.derived(ByTeam)
    assert index.get(("team", "t1"))[:3] == [(0, "u10"), (0, "u25"), (1, "u1")]
    things.add("u99", {"id": "u99", "team": "t1", "rank": 0, "tags": ["new"]})
    things.change("u1", rank=4, tags=["g1", "g2"])
    things.change("u2", team="t1")
    things.remove("u10")
    assert index.lists == _fresh(things)
    things.remove("u99")
    assert ("tag", "new") not in index.lists  # an emptied group is gone


def test_undo_puts_the_index_back() -> None:
    world = _world(_image())
    things = world["things"]
    index = things.derived(ByTeam)
    before = {group: list(entries) for group, entries in index.lists.items()}
    at = world.begin_call()
    things.add("u99", {"id": "u99", "team": "t0", "rank": 2})
    things.change("u3", team="t2", rank=0)
    things.remove("u4")
    world.rollback()
    world.end_call(at, service="x", method="POST", path="/x", status=500)
    assert index.lists == before == _fresh(things)


def test_copies_share_the_image_index_and_follow_their_own_writes() -> None:
    image = _image()
    first, second = _world(image), _world(image)
    first["things"].change("u5", team="t0", rank=0)  # written before its index is built
    first["things"].remove("u6")
    built = first["things"].derived(ByTeam)
    assert built.lists == _fresh(first["things"])
    shared = second["things"].derived(ByTeam)
    assert shared.lists == _fresh(image)  # the other world does not see the first one's writes
    assert shared.lists[("team", "t1")] is image.copy()._origin.indexes[ByTeam].lists[("team", "t1")]  # type: ignore[union-attr]
    second["things"].add("u77", {"id": "u77", "team": "t1", "rank": 1})
    assert shared.lists == _fresh(second["things"])
    assert image.copy().derived(ByTeam).lists == _fresh(image)  # the image's own index is untouched
    assert first["things"].derived(ByTeam).lists == _fresh(first["things"])


def test_a_copy_whose_image_changed_builds_its_own() -> None:
    image = _image()
    copy = image.copy()
    image.change("u1", team="t2")  # images are not written once copied; if one is, copies stop sharing it
    assert copy.derived(ByTeam).lists == _fresh(copy)
    assert image.derived(ByTeam).lists == _fresh(image)
