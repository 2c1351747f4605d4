"""A search of several words, or of phrases of two, read from `bitmaps`: no message is read but the page's.

A term of word characters matches the messages holding the one word of the world it starts (`words.one_word`
has why a term starting several is read otherwise); a phrase of two words, the second a term of word
characters, matches where the first word is followed by exactly the characters between them in the phrase and
the word its second term starts (a pair of `words.Postings`). A message holds each a number of times, its
score for it: a term's messages are split by that number into levels, and folding the terms' levels into one
another, smallest term first, gives the matches by score, each score's as bits. The page is read from those in
rank order (that is `ts` order), and the total is how many bits they have.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from itertools import islice

from ...world import World
from .bitmaps import Bitmaps
from .store import MESSAGES
from .words import Postings

# Folding a term into the matches so far is one `&` of every score so far with each level of the term; past
# this many, a query of words held at many different counts is read the usual way.
MOST_FOLDS = 256
_TERM = re.compile(r"(\w+)(?:(\W+)(\w+))?")


def several(
    world: World, terms: list[str], conversations: Iterable[str], by_time: bool, ascending: bool, skip: int, count: int
) -> tuple[int, list[tuple[int, str]]] | None:
    """A search of `terms` (lower case, each a word or a phrase of two) in `conversations` only: the total, and
    the (score, ts) of `count` matches after the first `skip`, in the answer's order (score, then ts; or ts).
    None when the terms cannot be read from bits (see the module's docstring)."""
    bitmaps = world[MESSAGES].derived(Bitmaps)
    if not bitmaps.ordered:
        return None
    inside = list(conversations)
    levels_each = []
    for term in terms:
        levels = _levels(world, bitmaps, term, inside)
        if levels is None:
            return None
        levels_each.append(levels)
    levels_each.sort(key=lambda levels: sum(bits.bit_count() for bits in levels.values()))
    scores: dict[int, int] = {0: -1}  # the matches so far by their score less one: all bits set, at first
    for levels in levels_each:
        if len(scores) * len(levels) > MOST_FOLDS:
            return None
        folded: dict[int, int] = {}
        for so_far, matched in scores.items():
            for n, bits in levels.items():
                both = matched & bits
                if both:
                    folded[so_far + n] = folded.get(so_far + n, 0) | both
        scores = folded
        if not scores:
            break
    total = sum(bits.bit_count() for bits in scores.values())
    if by_time:
        found = 0
        for bits in scores.values():
            found |= bits
        picked = _ranks(found, skip, count, not ascending)
        by_score = [(next(1 + s for s, bits in scores.items() if bits >> rank & 1), rank) for rank in picked]
    else:
        by_score = []
        for score in sorted(scores, reverse=not ascending):
            size = scores[score].bit_count()
            if skip >= size:
                skip -= size
                continue
            ranks = _ranks(scores[score], skip, count - len(by_score), not ascending)
            by_score += ((1 + score, rank) for rank in ranks)
            skip = 0
            if len(by_score) == count:
                break
    return total, [(score, bitmaps.stamps[rank]) for score, rank in by_score]


def _levels(world: World, bitmaps: Bitmaps, term: str, conversations: list[str]) -> dict[int, int] | None:
    """The bits of the messages in `conversations` holding `term`, by how many times they hold it; None when
    the term is not a word or a phrase of two words, or starts more than one word of the world."""
    parts = _TERM.fullmatch(term)
    if parts is None:
        return None
    first, between, last = parts.groups()
    postings = world[MESSAGES].derived(Postings)
    known = list(islice(postings.words_starting(last or first), 2))
    if len(known) > 1:
        return None
    if not known:
        return {}
    key: Hashable = known[0]
    if last is not None:
        if first == known[0]:  # "a a" in "a a a" is found once: the pairs overlap
            return None
        key = (first, between, known[0])
    levels: dict[int, int] = {}
    for group, entries in postings.groups(key, conversations):
        levels[group[2]] = levels.get(group[2], 0) | bitmaps.bits(group, entries)
    return levels


def _ranks(bits: int, skip: int, count: int, descending: bool) -> list[int]:
    """`count` ranks of `bits` after the first `skip`, from the top or from the bottom."""
    found: list[int] = []
    if descending:
        # The least cut leaving `skip` bits at or above it: what is below is the rest, highest first.
        low, high = 0, bits.bit_length()
        while low < high:
            middle = (low + high) // 2
            if (bits >> middle).bit_count() <= skip:
                high = middle
            else:
                low = middle + 1
        bits &= (1 << low) - 1
        while bits and len(found) < count:
            top = bits.bit_length() - 1
            found.append(top)
            bits ^= 1 << top
        return found
    # The least cut with more than `skip` bits below it: the bit just below it is the first of the rest.
    low, high = 0, bits.bit_length()
    while low < high:
        middle = (low + high + 1) // 2
        if (bits & ((1 << middle) - 1)).bit_count() <= skip:
            low = middle
        else:
            high = middle - 1
    base = low
    bits >>= low
    while bits and len(found) < count:
        step = (bits & -bits).bit_length()
        base += step
        found.append(base - 1)
        bits >>= step
    return found
