"""The closest item to a search that matched nothing (grading/conditions.py)."""

from __future__ import annotations

from soundstage.grading.conditions import Condition, closest

ITEMS = [{"n": 1, "c": "a"}, {"n": 2, "c": "b"}, {"n": 3, "c": "a"}, {"n": 4, "c": "b"}]
IS_A = Condition("c is a", lambda i: i["c"] == "a", lambda i: f"c is {i['c']}")
BIG = Condition("n above 2", lambda i: i["n"] > 2, lambda i: f"n is {i['n']}")


def test_closest_meets_the_most_conditions_the_latest_among_equals() -> None:
    assert closest(ITEMS, [IS_A, BIG]) == {"n": 3, "c": "a"}
    assert closest(ITEMS, [IS_A]) == {"n": 3, "c": "a"}


def test_closest_earliest_among_equals_when_asked() -> None:
    assert closest(ITEMS, [IS_A], earliest=True) == {"n": 1, "c": "a"}
    assert closest(ITEMS, [BIG], earliest=True) == {"n": 3, "c": "a"}


def test_rank_comes_before_the_conditions() -> None:
    # Ranked by c == b first: among those, the one meeting the most conditions, then the latest.
    assert closest(ITEMS, [BIG], rank=lambda i: i["c"] == "b") == {"n": 4, "c": "b"}
    assert closest(ITEMS, [IS_A], rank=lambda i: i["c"] == "b") == {"n": 4, "c": "b"}
    assert closest(ITEMS, [IS_A], rank=lambda i: -i["n"]) == {"n": 1, "c": "a"}
