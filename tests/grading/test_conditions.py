"""The items meeting conditions, and the closest item to a search that matched nothing (grading/conditions.py)."""

from __future__ import annotations

import random

from soundstage.grading.conditions import Condition, closest, field_is, matching, misses

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


def test_field_is_says_what_it_asks_and_what_an_item_has_instead() -> None:
    in_a = field_is(lambda i: i["c"], "a", lambda c: f"in #{c}")
    assert in_a.wants == "in #a"
    assert matching(ITEMS, [in_a]) == [{"n": 1, "c": "a"}, {"n": 3, "c": "a"}]
    assert misses({"n": 2, "c": "b"}, [in_a]) == ["it is in #b"]
    assert misses({"n": 1, "c": "a"}, [in_a]) == []
    two = field_is(lambda i: i.get("n"), 2, lambda n: f"number {n}", lambda n: f"its number is {n}")
    assert two.wants == "number 2"
    assert misses({"c": "a"}, [two]) == ["its number is None"]


def _reference_matching(items, conditions):
    return [item for item in items if all(c.holds(item) for c in conditions)]


def _reference_closest(items, conditions, rank=None, earliest=False):
    """Every item's conditions counted in full: the answer `closest` gives while testing fewer."""
    order = list(range(len(items)) if earliest else range(len(items) - 1, -1, -1))
    if rank is not None:
        top = max(rank(item) for item in items)
        order = [k for k in order if rank(items[k]) == top]
    held = {k: sum(c.holds(items[k]) for c in conditions) for k in order}
    return items[max(order, key=lambda k: (held[k], -order.index(k)))]


def test_matching_and_closest_agree_with_counting_every_condition() -> None:
    rng = random.Random(14)
    fields = "abcd"
    conditions = [Condition(f"{f} is 1", lambda i, f=f: i[f] == 1, lambda i, f=f: f"{f} is {i[f]}") for f in fields]
    for _ in range(300):
        items = [{f: rng.randint(0, 2) for f in fields} | {"n": n} for n in range(rng.randint(1, 12))]
        chosen = rng.sample(conditions, rng.randint(0, len(conditions)))
        assert matching(items, chosen) == _reference_matching(items, chosen)
        for earliest in (False, True):
            for rank in (None, lambda i: i["a"] + i["b"]):
                expected = _reference_closest(items, chosen, rank, earliest)
                assert closest(items, chosen, rank, earliest) is expected
