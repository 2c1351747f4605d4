"""What keeps renders by the tokens of what they show (services/versions.py): bounded, emptied when full."""

from __future__ import annotations

from soundstage.services.versions import Kept


def test_kept_answers_what_it_kept_until_full() -> None:
    kept: Kept[str, int] = Kept(2)
    assert kept.get("a") is None
    assert kept.keep("a", 1) == 1
    assert kept.keep("b", 2) == 2
    assert (kept.get("a"), kept.get("b")) == (1, 2)
    assert kept.keep("c", 3) == 3  # full: emptied first
    assert kept.found == {"c": 3}
