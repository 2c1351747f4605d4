"""The words of people's replies: templates the engine picks from, the same way in every run.

A reply is made of parts, one per thing the person has to say, in the order they were asked:

| part | says | template fills in |
| --- | --- | --- |
| `reveal` | a fact they own and may share | the fact's `text`, verbatim |
| `pass` | a fact someone else owns that they know and may repeat | the fact's `text`, verbatim |
| `decide` | a decision they were asked for | the option, verbatim |
| `refer` | they do not know; the asker should ask the owner | `<@owner>` |
| `refuse` | they will not share (confidential, or `share_if` does not hold) | nothing: no part of the fact |
| `unknown` | they do not know | nothing |
| `clarify` | a vague question ("what's going on?"), and no `general_answer` | nothing: asks what is needed |
| `ack` | the message asked nothing of them | nothing |

Refusals and "I don't know" are said once per reply however many facts they cover, and a referral once
per owner. Which template of a kind is used comes from a hash of the person, the part and how many
replies the person has given before, so conversations vary yet identical runs give identical words.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

TEMPLATES: dict[str, tuple[str, ...]] = {
    "reveal": (
        "{text}",
        "Sure. {text}",
        "Yes, I can help with that. {text}",
        "Good question. {text}",
    ),
    "pass": (
        "As far as I know: {text}",
        "From what I heard: {text}",
        "I'm not the owner, but as I understand it: {text}",
    ),
    "decide": (
        "Let's go with {option}.",
        "My call: {option}.",
        "Go with {option}.",
        "I've decided: {option}.",
    ),
    "refer": (
        "I don't know, ask <@{owner}>.",
        "Not sure, you'd better ask <@{owner}>.",
        "No idea, sorry. Ask <@{owner}>, they'll know.",
    ),
    "refuse": (
        "Sorry, I can't share that.",
        "That's not something I can share, I'm afraid.",
        "I'm not able to give that out, sorry.",
    ),
    "unknown": (
        "Sorry, I don't know.",
        "No idea, I'm afraid.",
        "Hmm, I don't know that one.",
    ),
    "clarify": (
        "Happy to help. What exactly do you need to know?",
        "Sure, what do you need to know, specifically?",
        "Can you be more specific? What do you need from me?",
    ),
    "ack": (
        "Thanks, noted.",
        "Got it, thanks!",
        "OK, thanks for letting me know.",
    ),
}


@dataclass(frozen=True)
class Part:
    """One thing a reply says. `key` is the fact or decision it is about (for `refer`, the owner)."""

    kind: str  # reveal | pass | decide | refer | refuse | unknown | clarify | ack
    key: str = ""
    text: str = ""  # reveal: the fact's text
    option: str = ""  # decide: the option
    owner: str = ""  # refer: the owner's user id


def pick(kind: str, person: str, key: str, n: int) -> str:
    """The template of `kind` for `person` (their ref) saying something about `key` in their n-th reply."""
    options = TEMPLATES[kind]
    digest = hashlib.sha256(f"{person}\x00{kind}\x00{key}\x00{n}".encode()).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


def merge(parts: list[Part]) -> list[Part]:
    """Parts as said: refusals and "don't know" once each, a referral once per owner, in first-asked order."""
    said: list[Part] = []
    seen: set[tuple[str, str]] = set()
    for part in parts:
        if part.kind in ("refuse", "unknown", "clarify", "ack"):
            group = (part.kind, "")
        elif part.kind == "refer":
            group = (part.kind, part.owner)
        else:
            group = (part.kind, part.key)
        if group not in seen:
            seen.add(group)
            said.append(part)
    return said


def compose(parts: list[Part], person: str, n: int) -> str:
    """The reply's text from its parts, each worded by its picked template, joined by spaces."""
    words = []
    for part in merge(parts):
        template = pick(part.kind, person, part.key or part.owner, n)
        words.append(template.format(text=part.text, option=part.option, owner=part.owner))
    return " ".join(words)
