"""A search of several words and phrases, read from `bitmaps`: no message is read but the page's, and those
that hold every pair of adjacent words of a phrase the bits cannot count.

A term of word characters matches the messages holding the words of the world it starts, as many times as
they hold them all; a phrase of two words, the second a term of word characters, matches where the first word
is followed by exactly the characters between them in the phrase and a word its second term starts (the pairs
of `words.Postings`), as many times as the message holds such pairs, unless the first word is one of those
(in "a a a", "a a" is found once: the pairs overlap). The messages holding each such word or pair are in its
bits, split by that number, their score for it, into levels; the levels of a term starting several (up to
MOST_WORDS) are added up. Any other term (a phrase of three words or more, one whose pairs overlap, one with
characters around its words) is counted in the texts of the messages holding every pair of adjacent words of
it (and, for its last, every word its last term starts), among the matches of the other terms: only those are
read. Folding the terms' levels into one another, smallest term first, gives the matches by score, each
score's as bits. The page is read from those in rank order (that is `ts` order), and the total is how many
bits they have.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from itertools import islice
from typing import Any

from ...world import Collection, World
from . import search
from .bitmaps import DENSE, Bitmaps, of_ranks, ranks_of
from .store import MESSAGES
from .words import Postings

# Folding a term into the matches so far is one `&` of every score so far with each level of the term; past
# this many, a query of words held at many different counts is read the usual way.
MOST_FOLDS = 256
# A term starting more words of the world than this (`d`) is read the usual way: their bits would cost more
# than the messages holding them.
MOST_WORDS = 32
_SPLIT = re.compile(r"(\w+)")


def several(
    world: World, terms: list[str], conversations: Iterable[str], by_time: bool, ascending: bool, skip: int, count: int
) -> tuple[int, list[tuple[int, str]]] | None:
    """A search of `terms` (lower case) in `conversations` only: the total, and the (score, ts) of `count`
    matches after the first `skip`, in the answer's order (score, then ts; or ts). None when the terms cannot be
    read from bits (see the module's docstring)."""
    bitmaps = world[MESSAGES].derived(Bitmaps)
    if not bitmaps.ordered:
        return None
    postings = world[MESSAGES].derived(Postings)
    inside = list(conversations)
    levels_each = []
    counted = []  # the terms to count in texts, each with the bits of the messages that may hold it
    for term in terms:
        runs = _SPLIT.split(term)  # before, a word, between, a word, ..., after
        levels = _levels(postings, bitmaps, runs, inside)
        if levels is None:
            held = _holding(postings, bitmaps, runs, inside)
            if held is None:
                return None
            counted.append((held.bit_count(), term, held))
        else:
            levels_each.append(levels)
    if counted:
        within = None  # the messages holding every term so far: only those of a term's candidates are read
        for levels in levels_each:
            within = _any(levels) if within is None else within & _any(levels)
        for _, term, held in sorted(counted):
            levels = _counted(world[MESSAGES], bitmaps, term, held if within is None else held & within)
            levels_each.append(levels)
            within = _any(levels) if within is None else within & _any(levels)
    if len(levels_each) > 1:
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


def _levels(postings: Postings, bitmaps: Bitmaps, runs: list[str], conversations: list[str]) -> dict[int, int] | None:
    """The bits of the messages in `conversations` holding the term split into `runs`, by how many times they
    hold it; None when the bits cannot count it: not a word or a phrase of two words, starting more than
    MOST_WORDS words, a phrase whose pairs may overlap, or words whose sums take more than MOST_FOLDS values."""
    if runs[0] or runs[-1] or len(runs) > 5:
        return None
    known = list(islice(postings.words_starting(runs[-2]), MOST_WORDS + 1))
    if len(known) > MOST_WORDS:
        return None
    keys: list[Hashable] = list(known)
    if len(runs) == 5:
        first, between = runs[1], runs[2]
        if first in known:  # "a a" in "a a a" is found once: the pairs overlap
            return None
        keys = [(first, between, word) for word in known]
    if len(keys) == 1:
        return _key_levels(bitmaps, postings.groups(keys[0], conversations))
    each = []
    few: dict[int, int] = {}  # the sums of the keys few messages hold, by rank: their bits would cost more
    for key in keys:
        groups = list(postings.groups(key, conversations))
        if sum(len(entries) for _, entries in groups) * DENSE >= len(bitmaps.stamps):
            each.append(_key_levels(bitmaps, groups))
            continue
        for (_, _, n), entries in groups:
            for ts in entries:
                rank = bitmaps.ranks[ts]
                few[rank] = few.get(rank, 0) + n
    return _added([*each, _by_count(few)])


def _added(each: Iterable[dict[int, int]]) -> dict[int, int] | None:
    """Levels of keys added up, message by message: each message's sum is kept in binary, an int of bits for
    each digit, and each key's counts are added to it as an adder circuit would, a few `&`, `^` and `|` per
    digit whatever the counts; the sums are then split out digit by digit. None past MOST_FOLDS sums."""
    digits: list[int] = []  # the sums so far: a message's bit in digits[j] is the j-th binary digit of its sum
    for levels in each:
        adding: list[int] = []  # this key's counts, in binary the same way
        for n, bits in levels.items():
            for j in range(n.bit_length()):
                if n >> j & 1:
                    adding += [0] * (j + 1 - len(adding))
                    adding[j] |= bits
        carry = 0
        j = 0
        while j < len(adding) or carry:
            a = digits[j] if j < len(digits) else 0
            b = adding[j] if j < len(adding) else 0
            either = a ^ b
            if j < len(digits):
                digits[j] = either ^ carry
            else:
                digits.append(either ^ carry)
            carry = (a & b) | (either & carry)
            j += 1
    held = 0
    for bits in digits:
        held |= bits
    sums = {0: held} if held else {}
    for j, bits in enumerate(digits):
        split: dict[int, int] = {}
        for value, matched in sums.items():
            on = matched & bits
            if on:
                split[value | 1 << j] = on
            if on != matched:
                split[value] = matched ^ on
        if len(split) > MOST_FOLDS:
            return None
        sums = split
    return sums


def _key_levels(bitmaps: Bitmaps, groups: Iterable[tuple[tuple[Any, str, int], list[str]]]) -> dict[int, int]:
    """The bits of the messages of a key's `groups` of `Postings` (a word or a pair, in some conversations), by
    how many times they hold it: the rare groups' bits made at once, level by level (each conversation's would
    be as wide as the world)."""
    levels: dict[int, int] = {}
    rare: dict[int, list[int]] = {}
    for group, entries in groups:
        bits = bitmaps.kept(group, entries)
        if bits is None:
            rare.setdefault(group[2], []).extend(bitmaps.ranks[ts] for ts in entries)
        else:
            levels[group[2]] = levels.get(group[2], 0) | bits
    for n, ranks in rare.items():
        levels[n] = levels.get(n, 0) | of_ranks(ranks, max(ranks))
    return levels


def _holding(postings: Postings, bitmaps: Bitmaps, runs: list[str], conversations: list[str]) -> int | None:
    """The bits of the messages in `conversations` that may hold the term split into `runs`: those holding
    every pair of adjacent words of it, the last word any its last run starts (or, of one word, any such word);
    None when it has no word, or its last starts more than MOST_WORDS words."""
    words, between = runs[1::2], runs[2:-1:2]
    if not words:
        return None
    known = list(islice(postings.words_starting(words[-1]), MOST_WORDS + 1))
    if len(known) > MOST_WORDS:
        return None
    ends: list[Hashable] = list(known) if len(words) == 1 else [(words[-2], between[-1], word) for word in known]
    held = _present(postings, bitmaps, ends, conversations)
    for pair in zip(words[:-2], between[:-1], words[1:-1], strict=True):
        if not held:
            break
        held &= _present(postings, bitmaps, [pair], conversations)
    return held


def _present(postings: Postings, bitmaps: Bitmaps, keys: list[Hashable], conversations: list[str]) -> int:
    """The bits of the messages in `conversations` holding any of `keys`."""
    held = 0
    for key in keys:
        held |= _any(_key_levels(bitmaps, postings.groups(key, conversations)))
    return held


def _counted(messages: Collection, bitmaps: Bitmaps, term: str, held: int) -> dict[int, int]:
    """The bits of the messages of `held` holding `term`, by how many times, as their texts say."""
    counts = {}
    for rank in ranks_of(held):
        message = messages.get(bitmaps.stamps[rank])
        assert message is not None  # the lists follow every write
        n = search.occurrences(message, term)
        if n:
            counts[rank] = n
    return _by_count(counts)


def _by_count(counts: dict[int, int]) -> dict[int, int]:
    """The bits of the ranks of `counts` by their count."""
    by_count: dict[int, list[int]] = {}
    for rank, n in counts.items():
        by_count.setdefault(n, []).append(rank)
    return {n: of_ranks(ranks, max(ranks)) for n, ranks in by_count.items()}


def _any(levels: dict[int, int]) -> int:
    """The bits of the messages at any level."""
    bits = 0
    for level in levels.values():
        bits |= level
    return bits


def _ranks(bits: int, skip: int, count: int, descending: bool) -> list[int]:
    """`count` ranks of `bits` after the first `skip`, from the top or from the bottom."""
    found: list[int] = []
    if descending:
        # The least cut leaving `skip` bits at or above it: what is below is the rest, highest first. Each step
        # of the search counts the bits of the whole int: the first page needs none.
        if skip:
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
    low, high = 0, bits.bit_length() if skip else 0
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
