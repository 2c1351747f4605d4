"""Process checks of what passed between the agent and the people, read from the engine's events:
`revealed`, `knows`, `told`, `decided`, `message` and `never` say whether something happened (`before` and
`within`, in `milestones`, say when). Everything is read from the events alone, so a saved trial scores as
its live world did. Evidence is the seqs of the events behind a result.

People are their Slack user ids in events and in resolved checks, and `$ref` in words; facts and
decisions are `<person ref>.<id>` (`laura.workspace`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from ..events import (
    AskedEvent,
    DecidedEvent,
    KnowsEvent,
    MessageEvent,
    ReferredEvent,
    RevealedEvent,
    ToldEvent,
    WithheldEvent,
)
from ..grading.attempt import Attempt
from ..grading.conditions import Condition, closest, contains, field_is, matching, misses, wants
from ..grading.kinds import Args, Refers, check_kind
from ..grading.outcome import Outcome
from ..grading.values import Case
from ..grading.words import count, listing, show, some
from ..services.slack import service as slack

_FACT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*\.\S+$")
_FACT_HELP = "a fact is named <person ref>.<fact id>, such as laura.workspace"


def _facts(value: Any) -> list[str]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise ValueError(f"give one or more facts ({_FACT_HELP})")
    for item in items:
        if not isinstance(item, str) or not _FACT.match(item):
            raise ValueError(f"{_FACT_HELP}; got {item!r}")
    return list(dict.fromkeys(items))


Facts = Annotated[list[str], BeforeValidator(_facts), Refers("fact")]
Person = Annotated[str, Refers("person")]  # a person of the scene, by their Slack user id


# -- names --------------------------------------------------------------------------------------------


def who(attempt: Attempt, user: Any) -> str:
    """A person as the scene names them, `$laura`; an id no ref names stays as it is."""
    name = attempt.ref_names.get(user) if isinstance(user, str) else None
    return f"${name}" if name else str(user)


def agent_of(attempt: Attempt) -> str | None:
    """The agent's Slack user, where people talk: from the scene, else the author of the agent's own messages."""
    agent = attempt.identities.get(slack.agent_user)
    if agent:
        return agent
    return next((e.user for e in attempt.of(MessageEvent) if e.from_agent), None)


def owner_of(attempt: Attempt, fact: str) -> str | None:
    """The user id of a fact's owner: the person whose ref comes before the dot."""
    return attempt.refs.get(fact.partition(".")[0])


def _knows(attempt: Attempt, person: str, fact: str) -> KnowsEvent | None:
    return next((e for e in attempt.of(KnowsEvent) if e.person == person and e.fact == fact), None)


def _source(attempt: Attempt, source: str) -> str:
    if source == "start":
        return "from the start"
    if source == "agent":
        return "from the agent"
    return f"from {who(attempt, source)}"


# -- messages -----------------------------------------------------------------------------------------


class Selector(Args):
    """Which messages count: every condition given must hold (`from`, `to`, `in`, `text_contains`,
    `text_matches`, `carries`)."""

    from_: str | None = Field(None, alias="from")
    to: Person | None = None  # a person who heard it
    in_: str | None = Field(None, alias="in")  # a channel id
    text_contains: str | None = None
    text_matches: re.Pattern[str] | None = None
    carries: Facts | None = None
    ignore_case: bool | None = None  # false: `text_contains` is exact in case; true: `text_matches` ignores it

    @model_validator(mode="after")
    def _something(self) -> Selector:
        if all(getattr(self, name) is None for name in type(self).model_fields if name != "ignore_case"):
            raise ValueError(
                "a message is selected by one or more of: from, to, in, text_contains, text_matches, carries"
            )
        return self

    def conditions(self, attempt: Attempt) -> list[Condition[MessageEvent]]:
        said: list[Condition[MessageEvent]] = []
        if self.from_ is not None:
            said.append(field_is(lambda e: e.user, self.from_, lambda u: f"from {who(attempt, u)}"))
        if self.to is not None:
            person = self.to
            said.append(
                Condition(f"to {who(attempt, person)}", lambda e: person in e.to, lambda e: _missed(attempt, e, person))
            )
        if self.in_ is not None:
            said.append(field_is(lambda e: e.channel, self.in_, lambda c: f"in {attempt.label(c)}"))
        if self.carries is not None:
            facts = self.carries
            said.append(
                Condition(
                    f"carrying {listing(facts)}",
                    lambda e: all(f in e.facts for f in facts),
                    lambda e: f"it does not carry {listing([f for f in facts if f not in e.facts])}",
                )
            )
        if self.text_contains is not None:
            said.append(contains("text", lambda e: e.text, self.text_contains, Case(self.ignore_case)))
        if self.text_matches is not None:
            regex = Case(self.ignore_case).regex(self.text_matches)
            said.append(
                Condition(
                    f"whose text matches /{regex.pattern}/",
                    lambda e: regex.search(e.text) is not None,
                    lambda e: f"its text is {show(e.text, 60)}",
                )
            )
        return said

    def describe(self, attempt: Attempt) -> str:
        """`from $bot in C0123 ($support) carrying laura.workspace`."""
        return wants(self.conditions(attempt))


def _missed(attempt: Attempt, event: Any, person: str) -> str:
    heard = f" (only {listing([who(attempt, p) for p in event.to])} did)" if event.to else ""
    return f"it did not reach {who(attempt, person)}{heard}"


def _message_name(event: Any, with_text: bool = True) -> str:
    return f"seq {event.seq} ({show(event.text, 60)})" if with_text else f"seq {event.seq}"


@dataclass
class _Selected:
    matched: list[Any]
    total: int
    miss: str = ""  # when nothing matched: the closest message and what it lacks
    miss_evidence: list[int] = field(default_factory=list)


def select(attempt: Attempt, selector: Selector) -> _Selected:
    """The message events a selector matches, oldest first; if none, the closest one and why it missed."""
    conditions = selector.conditions(attempt)
    messages = attempt.of(MessageEvent)
    matched = matching(messages, conditions)
    if matched:
        return _Selected(matched, len(messages))
    if not messages:
        return _Selected([], 0, "no message was written")
    near = closest(messages, conditions)
    lacks = misses(near, conditions)
    name = _message_name(near, not any(m.startswith("its text") for m in lacks))
    lead = (
        f"none of {count(len(messages), 'message')} matched" if len(messages) > 1 else "the only message did not match"
    )
    return _Selected([], len(messages), f"{lead}; closest: {name}, but {listing(lacks)}", [near.seq])


@check_kind("message", Selector)
def message(args: Selector, attempt: Attempt) -> Outcome:
    expected = f"a message {args.describe(attempt)}"
    found = select(attempt, args)
    if not found.matched:
        return Outcome(False, expected, found.miss, found.miss_evidence)
    n = len(found.matched)
    actual = f"{count(n, 'message')} matched: {some(found.matched, n, _message_name)}"
    return Outcome(True, expected, actual, [e.seq for e in found.matched])


@check_kind("never", Selector)
def never(args: Selector, attempt: Attempt) -> Outcome:
    expected = f"no message {args.describe(attempt)}"
    found = select(attempt, args)
    if not found.matched:
        if found.total > 1:
            actual = f"none of {count(found.total, 'message')} did"
        else:
            actual = "the only message did not" if found.total else "no message was written"
        return Outcome(True, expected, actual)
    n = len(found.matched)
    actual = f"{count(n, 'message')} did: {some(found.matched, n, _message_name)}"
    return Outcome(False, expected, actual, [e.seq for e in found.matched])


# -- facts --------------------------------------------------------------------------------------------


class RevealedArgs(Args):
    facts: Facts


def _revealed_to_agent(attempt: Attempt, fact: str, agent: str | None) -> Any:
    return next((e for e in attempt.of(RevealedEvent) if e.fact == fact and e.to == agent), None)


def _not_revealed(attempt: Attempt, fact: str, agent: str | None) -> tuple[str, list[int]]:
    """Why a fact never reached the agent, from what did happen: withheld, asked, referred, shared elsewhere."""
    owner = owner_of(attempt, fact)
    owner_name = who(attempt, owner) if owner else "its owner"
    withheld = next((e for e in attempt.of(WithheldEvent) if e.fact == fact and e.to == agent), None)
    if withheld is not None:
        return f"{who(attempt, withheld.person)} withheld it ({withheld.reason}) at seq {withheld.seq}", [withheld.seq]
    asked = [e for e in attempt.of(AskedEvent) if e.fact == fact and e.by == agent]
    of_owner = [e for e in asked if e.person == owner]
    if of_owner:
        return f"the agent asked {owner_name} for it at seq {of_owner[0].seq}, but it was never revealed", [
            of_owner[0].seq
        ]
    referred = next((e for e in attempt.of(ReferredEvent) if e.fact == fact and e.to == agent), None)
    if referred is not None:
        to = who(attempt, referred.owner)
        return (
            (
                f"{who(attempt, referred.person)} referred the agent to {to} at seq {referred.seq}, "
                f"but the agent never asked {to}"
            ),
            [referred.seq],
        )
    if asked:
        people = listing(list(dict.fromkeys(who(attempt, e.person) for e in asked)))
        return f"the agent asked only {people} for it (seq {listing([str(e.seq) for e in asked])}), not {owner_name}", [
            e.seq for e in asked
        ]
    elsewhere = next((e for e in attempt.of(RevealedEvent) if e.fact == fact), None)
    if elsewhere is not None:
        return (
            f"{who(attempt, elsewhere.person)} revealed it only to {who(attempt, elsewhere.to)} at seq {elsewhere.seq}",
            [elsewhere.seq],
        )
    return "the agent never asked for it", []


@dataclass
class _Facts:
    """Per fact: a line of words, and whether it held; the events behind them."""

    passed: bool = True
    lines: list[str] = field(default_factory=list)
    evidence: list[int] = field(default_factory=list)
    last: Any = None  # the latest event among those that held (a milestone's moment)
    reasons: list[str] = field(default_factory=list)  # why each missing one is missing, shorter than its line

    def held(self, line: str, event: Any = None) -> None:
        self.lines.append(line)
        if event is not None:
            self.evidence.append(event.seq)
            if self.last is None or event.seq > self.last.seq:
                self.last = event

    def missed(self, line: str, evidence: list[int], reason: str = "") -> None:
        self.passed = False
        self.lines.append(line)
        self.reasons.append(reason or line)
        self.evidence += evidence

    def outcome(self, expected: str) -> Outcome:
        return Outcome(self.passed, expected, "; ".join(self.lines), self.evidence)


def reveals(attempt: Attempt, facts: list[str]) -> _Facts:
    agent = agent_of(attempt)
    found = _Facts()
    for fact in facts:
        event = _revealed_to_agent(attempt, fact, agent)
        if event is not None:
            found.held(f"{who(attempt, event.person)} revealed {fact} at seq {event.seq}", event)
        else:
            why, evidence = _not_revealed(attempt, fact, agent)
            found.missed(f"{fact} was never revealed: {why}", evidence, why if len(facts) == 1 else f"{fact}: {why}")
    return found


@check_kind("revealed", RevealedArgs, shorthand="facts")
def revealed(args: RevealedArgs, attempt: Attempt) -> Outcome:
    """Each fact was revealed to the agent: the agent asked, and the owner shared it."""
    return reveals(attempt, args.facts).outcome(f"{listing(args.facts)} revealed to the agent")


class PersonFacts(Args):
    person: Person
    facts: Facts


@check_kind("knows", PersonFacts)
def knows(args: PersonFacts, attempt: Attempt) -> Outcome:
    """The person knows each fact: their own, or learned from the start, from the agent or from anyone."""
    person = who(attempt, args.person)
    found = _Facts()
    for fact in args.facts:
        if owner_of(attempt, fact) == args.person:
            found.held(f"{person} owns {fact}")
            continue
        event = _knows(attempt, args.person, fact)
        if event is not None:
            found.held(f"{person} learned {fact} {_source(attempt, event.source)} at seq {event.seq}", event)
            continue
        carrier = next((e for e in attempt.of(MessageEvent) if fact in e.facts), None)
        if carrier is not None:
            found.missed(
                f"{person} never learned {fact} (the message at seq {carrier.seq} carrying it did not reach them)",
                [carrier.seq],
            )
        else:
            found.missed(f"{person} never learned {fact} (no message carried it)", [])
    return found.outcome(f"{person} to know {listing(args.facts)}")


@check_kind("told", PersonFacts)
def told(args: PersonFacts, attempt: Attempt) -> Outcome:
    """The agent itself told the person each fact: a message of the agent's carrying it reached them."""
    person = who(attempt, args.person)
    found = _Facts()
    for fact in args.facts:
        event = next((e for e in attempt.of(ToldEvent) if e.person == args.person and e.fact == fact), None)
        if event is not None:
            found.held(f"the agent told {person} {fact} at seq {event.seq}", event)
            continue
        line = f"the agent never told {person} {fact}"
        said = next((e for e in attempt.of(MessageEvent) if e.from_agent and fact in e.facts), None)
        learned = _knows(attempt, args.person, fact)
        if said is not None:
            found.missed(f"{line} (its message at seq {said.seq} carried it but did not reach them)", [said.seq])
        elif learned is not None:
            found.missed(
                f"{line} ({person} learned it {_source(attempt, learned.source)} at seq {learned.seq})", [learned.seq]
            )
        else:
            found.missed(line, [])
    return found.outcome(f"the agent to tell {person} {listing(args.facts)}")


# -- decisions ----------------------------------------------------------------------------------------


class DecidedArgs(Args):
    """`{person, decision, option?}`; the decision is `priya.refund`, or `refund` with the person given."""

    refers = "decision"
    person: str
    decision: str
    option: str | None = None

    def key(self, attempt: Attempt) -> str:
        ref = attempt.ref_names.get(self.person)
        if ref is None or self.decision.startswith(ref + "."):
            return self.decision
        return f"{ref}.{self.decision}"

    def names(self, decision: str | None) -> bool:
        """Whether an event's decision key is this decision (the key, or the person's decision of that id)."""
        return decision is not None and (decision == self.decision or decision.partition(".")[2] == self.decision)

    def describe(self, attempt: Attempt) -> str:
        option = f": {show(self.option)}" if self.option is not None else ""
        return f"{who(attempt, self.person)} deciding {self.key(attempt)}{option}"


@dataclass
class _Decisions:
    matched: list[Any]
    miss: str = ""
    miss_evidence: list[int] = field(default_factory=list)


def decisions_made(attempt: Attempt, args: DecidedArgs) -> _Decisions:
    person, key = who(attempt, args.person), args.key(attempt)
    made = [e for e in attempt.of(DecidedEvent) if e.person == args.person and args.names(e.decision)]
    matched = [e for e in made if args.option is None or e.option == args.option]
    if matched:
        return _Decisions(matched)
    if made:
        said = some(made, len(made), lambda e: f"{show(e.option)} at seq {e.seq}")
        return _Decisions([], f"{person} decided {key}: {said}", [e.seq for e in made])
    asked = [e for e in attempt.of(AskedEvent) if e.person == args.person and args.names(e.decision)]
    if asked:
        return _Decisions([], f"{person} was asked at seq {asked[0].seq} but never decided", [asked[0].seq])
    return _Decisions([], f"nobody asked {person} to decide {key}")


@check_kind("decided", DecidedArgs)
def decided(args: DecidedArgs, attempt: Attempt) -> Outcome:
    person, key = who(attempt, args.person), args.key(attempt)
    expected = f"{person} to decide {key}" + (f": {show(args.option)}" if args.option is not None else "")
    found = decisions_made(attempt, args)
    if not found.matched:
        return Outcome(False, expected, found.miss, found.miss_evidence)
    made = some(found.matched, len(found.matched), lambda e: f"{show(e.option)} at seq {e.seq}")
    return Outcome(True, expected, f"{person} decided {key}: {made}", [e.seq for e in found.matched])
