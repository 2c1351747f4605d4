"""The synonym table: the phrases a colleague takes to ask the same thing (docs/people.md, "Other words").

Each group is one thing asked in several wordings. An `ask` phrase that is, as a whole, one of a group's
phrases (after stemming) is also asked by a question containing any other phrase of that group: a fact
asked as "root cause" is asked by "why is checkout failing?". Phrases are compared word by word after
`understanding.stem`, so "what caused" also covers "what causes" and "What's causing".

`GENERAL` is not a group an ask phrase joins: it is what makes a question vague ("any idea what's going
on?"), which a person answers with their `general_answer`, or by asking what exactly is needed.

The table is small on purpose: every phrase here widens what every scene's people answer.
"""

from __future__ import annotations

GROUPS: dict[str, tuple[str, ...]] = {
    "cause": (
        "cause",
        "root cause",
        "reason",
        "why",
        "how come",
        "what caused",
        "what happened",
        "what went wrong",
        "explain",
        "explanation",
    ),
    "problem": (
        "broken",
        "failing",
        "failure",
        "error",
        "erroring",
        "outage",
        "incident",
        "problem",
        "bug",
        "crash",
        "down",
        "not working",
    ),
    "when": ("when", "what time", "eta", "how soon", "by when", "timeline", "timing", "what date", "which day"),
    "duration": ("how long", "duration", "for how long", "how many minutes", "how many hours"),
    "impact": ("impact", "how bad", "how badly", "affected", "effect", "severity", "damage", "blast radius"),
    "owner": (
        "owner",
        "who owns",
        "who maintains",
        "maintainer",
        "responsible",
        "in charge",
        "point of contact",
        "who should i ask",
    ),
    "status": ("status", "progress", "how far", "where are we", "any update", "how is it going", "how's it going"),
    "workaround": ("workaround", "work around", "get around", "bypass", "mitigation", "mitigate", "temporary fix"),
    "approve": ("approve", "approval", "sign off", "ok to", "okay to", "go ahead", "green light", "authorize"),
}

GENERAL: tuple[str, ...] = (
    "what's going on",
    "what is going on",
    "what's happening",
    "what is happening",
    "what's up",
    "what's wrong",
    "what is wrong",
    "what went wrong",
    "what happened",
    "any idea",
    "any ideas",
    "any thoughts",
    "do you know",
    "what do you know",
    "know anything",
    "fill me in",
    "catch me up",
    "why",
    "explain",
)
