"""Outcomes joined by `combine`: the verdict, and the score of the whole."""

from __future__ import annotations

from soundstage.grading.outcome import Outcome, combine, scored


def test_the_score_of_several_conditions_is_the_lowest_decided() -> None:
    undecided, failed, close = Outcome(None, "a", "b"), Outcome(False, "c", "d"), Outcome(True, "e", "f", score=0.7)
    assert [scored(o) for o in (undecided, failed, close, Outcome(True, "g", "h"))] == [None, 0.0, 0.7, 1.0]
    assert (combine([close, Outcome(True, "g", "h")]).passed, combine([close, Outcome(True, "g", "h")]).score) == (
        True,
        0.7,
    )
    # A failed condition decides the whole, even beside one not decided.
    assert (combine([undecided, failed]).passed, combine([undecided, failed]).score) == (False, 0.0)
    assert (combine([undecided, close]).passed, combine([undecided, close]).score) == (None, None)
