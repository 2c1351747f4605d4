"""Block ids, spelled two base-62 digits at a time, as digit by digit."""

from __future__ import annotations

from soundstage.ids import IdSource
from soundstage.services.slack.mrkdwn import _BLOCK_ID_ALPHABET, block_id


def _digit_by_digit(ids: IdSource) -> str:
    """The block id spelled one base-62 digit at a time, lowest first, from the whole 256-bit number."""
    number = int.from_bytes(ids.digest("slack:block_id"), "big")
    chars = []
    for _ in range(5):
        number, rest = divmod(number, len(_BLOCK_ID_ALPHABET))
        chars.append(_BLOCK_ID_ALPHABET[rest])
    return "".join(chars)


def test_a_block_id_is_the_one_spelled_digit_by_digit():
    for seed in ("scene-a", "scene-b", ""):
        made, reference = IdSource(seed), IdSource(seed)
        assert [block_id(made) for _ in range(3000)] == [_digit_by_digit(reference) for _ in range(3000)]
