"""Slack's state checks: `slack.message`, a message in the final world (starter messages count too)."""

from __future__ import annotations

import re
from typing import Any, Sequence

from pydantic import Field, PositiveInt

from ...grading.attempt import Attempt
from ...grading.conditions import Condition, closest, matching, misses, wants
from ...grading.kinds import Args, state_check
from ...grading.match import value_matches
from ...grading.outcome import Outcome
from ...grading.values import Case
from ...grading.words import at_least, count, listing, show, some
from . import mrkdwn
from .store import MESSAGES, WRITTEN


class SlackMessageArgs(Args):
    channel: str | None = None
    from_: str | None = Field(None, alias="from")
    in_thread_of: str | None = None  # the thread's first message's ts
    text_contains: str | None = None
    text_matches: re.Pattern[str] | None = None
    count_gte: PositiveInt = 1
    ignore_case: bool | None = None  # None: `text_contains` ignores case, `text_matches` does not

    def conditions(self, attempt: Attempt) -> list[Condition[Any]]:
        said: list[Condition[Any]] = []
        label = attempt.label
        if self.channel is not None:
            channel = self.channel
            said.append(
                Condition(
                    f"in {label(channel)}",
                    lambda m: m.get("channel") == channel,
                    lambda m: f"it is in {label(m.get('channel'))}",
                )
            )
        if self.from_ is not None:
            user = self.from_
            said.append(
                Condition(
                    f"from {label(user)}",
                    lambda m: m.get("user") == user,
                    lambda m: f"it is from {label(m.get('user'))}",
                )
            )
        if self.in_thread_of is not None:
            root = self.in_thread_of
            said.append(
                Condition(
                    f"in the thread of {label(root)}",
                    lambda m: m.get("thread_ts") == root and m.get("ts") != root,
                    _thread,
                )
            )
        case = Case(self.ignore_case)
        if self.text_contains is not None:
            part = self.text_contains
            said.append(
                Condition(
                    f"whose text contains {show(self.text_contains)}",
                    lambda m: value_matches(_read(m), part, case.fold),
                    _text,
                )
            )
        if self.text_matches is not None:
            regex = self.text_matches
            if case.fold_regex:
                regex = re.compile(regex.pattern, regex.flags | re.IGNORECASE)
            said.append(
                Condition(
                    f"whose text matches /{regex.pattern}/",
                    lambda m: regex.search(_read(m)) is not None,
                    _text,
                )
            )
        return said


@state_check("slack.message", SlackMessageArgs)
def slack_message(args: SlackMessageArgs, attempt: Attempt) -> Outcome:
    conditions = args.conditions(attempt)
    expected = " ".join([at_least(args.count_gte, "Slack message"), wants(conditions)]).strip()
    expected += Case(args.ignore_case).note()
    # A channel narrows the search through an index; the other conditions test what is left.
    pool: Sequence[Any] = (
        attempt.index(MESSAGES, "channel").get(args.channel, [])
        if args.channel is not None
        else attempt.records(MESSAGES)
    )
    matched = matching([m for m in pool if m.get("subtype") in WRITTEN], conditions)
    if matched:
        found = f"{count(len(matched), 'message')} matched: {some(matched, len(matched), _name)}"
        enough = len(matched) >= args.count_gte
        return Outcome(enough, expected, found if enough else f"only {found}", attempt.evidence(MESSAGES, matched))
    if not attempt.explains:  # deciding only (a live world's view): no closest message to name
        return Outcome(False, expected, "none matched")
    messages = [m for m in attempt.records(MESSAGES) if m.get("subtype") in WRITTEN]
    if not messages:
        return Outcome(False, expected, "there are no Slack messages")
    near = closest(messages, conditions)
    lacks = misses(near, conditions)
    name = f"message {near.get('ts')}" if any(m.startswith("its text") for m in lacks) else _name(near)
    actual = f"none of {count(len(messages), 'message')} matched; closest: {name}, but {listing(lacks)}"
    return Outcome(False, expected, actual, attempt.record_evidence(MESSAGES, near))


def _name(message: Any) -> str:
    return f"message {message.get('ts')} ({show(_read(message), 60)})"


def _thread(message: Any) -> str:
    thread = message.get("thread_ts")
    if thread is None:
        return "it is not in a thread"
    if thread == message.get("ts"):
        return "it starts its own thread"
    return f"it is in the thread of {thread}"


def _text(message: Any) -> str:
    return f"its text is {show(_read(message), 60)}"


def _read(message: Any) -> str:
    """The text as people read it: Slack keeps `&`, `<` and `>` escaped, a check names them as written."""
    return mrkdwn.unescape(str(message.get("text", "")))
