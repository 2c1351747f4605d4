"""How a person understands a question put to them in other words than a fact's `ask` phrases.

A message is read once (`Reading`): its words stemmed, whether it is a question, which groups of the
synonym table (`synonyms.GROUPS`) it speaks of, whether it is vague (`synonyms.GENERAL`). A fact's or a
decision's `Asks` are its `ask` phrases as written (found literally, as always), their stems, and the
groups they belong to as a whole. A question put to someone asks for a fact when it contains one of the
phrases as written, or in another inflection (`stem`), or any phrase of a group one of them belongs to.
Everything here is plain string work, the same in every run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .phrases import Phrases
from .synonyms import GENERAL, GROUPS

WORD = re.compile(r"[a-z0-9]+(?:['.][a-z0-9]+)*")
# Words that open a question or a request, at the start of a clause: "Omar, why is...", "Need the id."
OPENERS = frozenset(
    [
        "what",
        "what's",
        "whats",
        "why",
        "how",
        "how's",
        "when",
        "where",
        "who",
        "who's",
        "which",
        "whose",
        "can",
        "could",
        "would",
        "will",
        "do",
        "does",
        "did",
        "is",
        "are",
        "was",
        "were",
        "any",
        "anyone",
        "anybody",
        "explain",
        "tell",
        "please",
        "let",
        "need",
    ]
)
CLAUSE = re.compile(r"[^.!?;,:\n]+")
# Suffixes stripped by `stem`, the first that fits, leaving at least three letters.
SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


def stem(word: str) -> str:
    """A word without its inflection, so that cause, causes, caused and causing are one: a possessive
    `'s`, then the first of -ies, -ied, -ing, -ed, -es, -s that leaves three letters (not the s of -ss,
    -us, -is), then a final e, then the second of a doubled final consonant."""
    w = word.lower().replace("\u2019", "'")
    w = w.removesuffix("'s")
    for suffix, instead in SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[: -len(suffix)] + instead
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


def stems(text: str) -> str:
    """The text's words, stemmed, each between spaces: a phrase occurs in it as ` a b `."""
    words = WORD.findall(text.lower().replace("\u2019", "'"))
    return " " + " ".join(stem(w) for w in words) + " "


def is_question(text: str) -> bool:
    """A question mark, or a clause opening with a question or request word ("Omar, why is it down",
    "Please send the id")."""
    if "?" in text:
        return True
    for clause in CLAUSE.findall(text.lower().replace("\u2019", "'")):
        words = WORD.findall(clause)
        if words and words[0] in OPENERS:
            return True
    return False


GROUP_STEMS = {group: tuple(stems(p) for p in phrases) for group, phrases in GROUPS.items()}
GENERAL_STEMS = tuple(stems(p) for p in GENERAL)


@dataclass(frozen=True)
class Reading:
    """A message as people read it, once for all who hear it."""

    text: str
    stems: str
    question: bool
    groups: frozenset[str]
    vague: bool  # a question in general terms: "any idea what's going on?"
    model: frozenset[str] = frozenset()  # the keys a model understood it to ask for (`understanding_model`)

    @classmethod
    def of(cls, text: str) -> Reading:
        said = stems(text)
        question = is_question(text)
        groups = frozenset(g for g, phrases in GROUP_STEMS.items() if any(p in said for p in phrases))
        vague = question and any(p in said for p in GENERAL_STEMS)
        return cls(text, said, question, groups, vague)


@dataclass(frozen=True)
class Asks(Phrases):
    """The `ask` phrases of a fact or a decision, with their stems and the synonym groups they belong to."""

    stems: tuple[str, ...] = field(default=(), repr=False, compare=False)
    groups: frozenset[str] = frozenset()

    @classmethod
    def of(cls, phrases: list[str] | tuple[str, ...]) -> Asks:
        literal = Phrases.of(phrases)
        stemmed = tuple(stems(p) for p in literal.phrases)
        groups = frozenset(g for g, known in GROUP_STEMS.items() for s in stemmed if s in known)
        return cls(literal.phrases, literal.patterns, tuple(s for s in stemmed if s.strip()), groups)

    def understood(self, reading: Reading) -> bool:
        """Whether a question asks for this in other words: a phrase in another inflection, or a phrase of
        a group one of the phrases belongs to."""
        if not reading.question:
            return False
        return any(s in reading.stems for s in self.stems) or bool(self.groups & reading.groups)
