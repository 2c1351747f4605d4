"""Slack's state checks: `slack.message`, a message in the final world (starter messages count too), and
`slack.reaction`, a reaction on one: who reacted with what on which message, each a record of its own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, NamedTuple

from pydantic import BeforeValidator, Field, PositiveInt

from ...grading.attempt import Attempt
from ...grading.conditions import Condition, closest, field_is, matching, misses, wants
from ...grading.kinds import Args, Counted, state_check
from ...grading.match import value_matches
from ...grading.outcome import Outcome
from ...grading.values import Case
from ...grading.words import at_least, count, either, listing, show, some
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
            said.append(field_is(lambda m: m.get("channel"), self.channel, lambda c: f"in {label(c)}"))
        if self.from_ is not None:
            said.append(field_is(lambda m: m.get("user"), self.from_, lambda u: f"from {label(u)}"))
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
            regex = case.regex(self.text_matches)
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


# -- reactions ----------------------------------------------------------------------------------------


class Reaction(NamedTuple):
    """One user's reaction with one emoji on one message: what `slack.reaction` counts."""

    name: str
    user: str
    message: Any  # the message record it is on

    @property
    def where(self) -> tuple[Any, Any]:
        return self.message.get("channel"), self.message.get("ts")


def _emoji(value: Any) -> Any:
    return value.strip(":") if isinstance(value, str) else value


class SlackReactionArgs(Counted):
    name: Annotated[str, BeforeValidator(_emoji)] | None = None  # `eyes` or `:eyes:`
    by: str | None = None  # the user who reacted
    message: str | list[str] | None = None  # the `ts` of the message reacted to, or a list: any of them
    channel: str | None = None
    new: bool | None = None  # true: added during the attempt; false: there from the start

    def messages(self) -> list[str]:
        return [self.message] if isinstance(self.message, str) else list(self.message or [])

    def conditions(self, attempt: Attempt, before: dict[tuple[Any, Any], set[tuple[str, str]]]) -> list[Condition[Any]]:
        said: list[Condition[Reaction]] = []
        label = attempt.label
        if self.name is not None:
            said.append(field_is(lambda r: r.name, self.name, lambda n: f":{n}:"))
        if self.by is not None:
            said.append(field_is(lambda r: r.user, self.by, lambda u: f"by {label(u)}"))
        if self.message is not None:
            ts = self.messages()
            said.append(
                Condition(
                    f"on message {either([label(t) for t in ts])}",
                    lambda r: r.message.get("ts") in ts,
                    lambda r: f"it is on message {label(r.message.get('ts'))}",
                )
            )
        if self.channel is not None:
            said.append(field_is(lambda r: r.message.get("channel"), self.channel, lambda c: f"in {label(c)}"))
        if self.new is not None:
            new = self.new
            said.append(
                Condition(
                    "added during the attempt" if new else "there from the start",
                    lambda r: ((r.name, r.user) not in before.get(r.where, set())) == new,
                    lambda r: "it was added during the attempt" if not new else "it was there from the start",
                )
            )
        return said


@state_check("slack.reaction", SlackReactionArgs)
def slack_reaction(args: SlackReactionArgs, attempt: Attempt) -> Outcome:
    before = _reactions_before(attempt) if args.new is not None else {}
    conditions = args.conditions(attempt, before)
    expected = f"{args.how_many('Slack reaction')} {wants(conditions)}".strip()
    # A message or a channel narrows the search through an index; the other conditions test what is left.
    by_ts = attempt.index(MESSAGES, "ts")
    messages: Sequence[Any] = (
        [m for ts in args.messages() for m in by_ts.get(ts, [])]
        if args.message is not None
        else attempt.index(MESSAGES, "channel").get(args.channel, [])
        if args.channel is not None
        else attempt.records(MESSAGES)
    )
    matched = matching(_reactions(messages), conditions)
    passed = args.enough(len(matched))
    evidence = attempt.evidence(MESSAGES, list({id(r.message): r.message for r in matched}.values()))
    if matched or passed or not attempt.explains:
        actual = f"{count(len(matched), 'reaction')} matched" + (
            f": {some(matched, len(matched), lambda r: _reaction_name(r, attempt))}" if matched else ""
        )
        return Outcome(passed, expected, actual, evidence)
    every = _reactions(attempt.records(MESSAGES))
    if not every:
        return Outcome(passed, expected, "no message has a reaction", [])
    near = closest(every, conditions)
    actual = (
        f"none of {count(len(every), 'reaction')} matched; closest: {_reaction_name(near, attempt)}, "
        f"but {listing(misses(near, conditions))}"
    )
    return Outcome(passed, expected, actual, attempt.record_evidence(MESSAGES, near.message))


def _reactions(messages: Sequence[Any]) -> list[Reaction]:
    return [
        Reaction(r["name"], user, m)
        for m in messages
        for r in m.get("reactions") or []
        for user in r.get("users") or []
    ]


def _reactions_before(attempt: Attempt) -> dict[tuple[Any, Any], set[tuple[str, str]]]:
    """The reactions each message had at the start, as (emoji, user) pairs, by (channel, ts): a message the
    attempt did not change had the ones it has now, an added one had none."""
    section = attempt.diff.get(MESSAGES, {})
    added = {(m.get("channel"), m.get("ts")) for m in section.get("added", [])}
    changed = {(c["record"].get("channel"), c["record"].get("ts")): c["changes"] for c in section.get("changed", [])}
    before: dict[tuple[Any, Any], set[tuple[str, str]]] = {}
    for message in attempt.records(MESSAGES):
        where = (message.get("channel"), message.get("ts"))
        if where in added:
            continue
        reactions = message.get("reactions")
        if where in changed and "reactions" in changed[where]:
            reactions = changed[where]["reactions"].get("from")
        before[where] = {(r["name"], u) for r in reactions or [] for u in r.get("users") or []}
    return before


def _reaction_name(reaction: Reaction, attempt: Attempt) -> str:
    return f":{reaction.name}: by {attempt.label(reaction.user)} on message {attempt.label(reaction.message.get('ts'))}"
