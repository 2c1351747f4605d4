"""The Python checks of this example project (docs/checks.md, "Python checks").

soundstage imports this module when it loads a scene naming `csv_checks:...`, before the agent starts, and
calls a check with a read-only view of the attempt and the check's `args` as keyword arguments.
"""

from __future__ import annotations

import re

from soundstage import AttemptView, Verdict

# What a reply must repeat word for word: a menu path (`Reports > Exports`) and each figure (`50k`, `10 minutes`).
FACTS = re.compile(r"[A-Z]\w*(?:\s*>\s*[A-Z]\w*)+|\b\d+\w*(?:\s+(?:minutes?|hours?|days?|rows?))?")


def repeats_the_facts(attempt: AttemptView, source: str, question: str) -> Verdict:
    """The agent's reply in the thread of `question` repeats every fact of the message `source` (both Slack
    timestamps, as the scene's refs give them). Its score is the share of the facts it repeats."""
    messages = attempt.records("slack.messages")
    [said] = [unescape(m["text"]) for m in messages if m["ts"] == source]
    facts = list(dict.fromkeys(FACTS.findall(said)))
    me = attempt.identities["slack_user"]
    replies = [m for m in messages if m.get("thread_ts") == question and m["ts"] != question and m["user"] == me]
    if not replies:
        return Verdict(passed=False, score=0.0, explanation="the agent posted no reply in the question's thread")
    text = " ".join(unescape(m["text"]) for m in replies)
    missing = [fact for fact in facts if normal(fact) not in normal(text)]
    posts = [
        call.seq
        for call in attempt.trace
        if call.operation == "chat.postMessage"
        and isinstance(call.body, dict)
        and call.body.get("thread_ts") == question
    ]
    found = len(facts) - len(missing)
    why = f"the reply repeats {found} of the {len(facts)} facts of the PSA ({', '.join(facts)})"
    return Verdict(
        score=found / len(facts) if facts else 1.0,
        evidence=posts,
        explanation=why + (f"; it lacks {', '.join(missing)}" if missing else ""),
    )


def unescape(text: str) -> str:
    """Slack's message text escapes <, > and &."""
    return text.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")


def normal(text: str) -> str:
    return " ".join(text.lower().replace(">", " > ").split())
