"""Process checks (DESIGN 3.3): what passed between the agent and the people, read from the engine's events.

`revealed`, `knows`, `told`, `decided`, `message` and `never` say whether something happened; `before` and
`within` say when, through milestones: the first moment a call was made, facts were revealed to the agent,
a message was written, a decision was taken, a state predicate held (the `milestone` events a live world
emits while it watches, see `milestones.py`) or a fault was resolved. Everything is read from the events
alone, so a saved trial scores as its live world did. Evidence is the seqs of the events behind a result.

People are their Slack user ids in events and in resolved checks, and `$ref` in words; facts and
decisions are `<person ref>.<id>` (`laura.workspace`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, Iterable, Mapping, TypeVar, cast

from pydantic import BeforeValidator, Field, ValidationError, field_validator, model_validator

from ..clock import US, format_duration, parse_duration, parse_time
from ..events import (
    AskedEvent,
    DecidedEvent,
    Event,
    KnowsEvent,
    MessageEvent,
    MilestoneEvent,
    ReferredEvent,
    RevealedEvent,
    ToldEvent,
    WithheldEvent,
)
from .attempt import Attempt
from .parse import Check, _message
from .registry import STATE_CHECKS, Args, Kind, check_kind
from .results import Outcome
from .trace import Pattern, _miss
from .words import count, listing, show, some

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


Facts = Annotated[list[str], BeforeValidator(_facts)]


E = TypeVar("E", bound=Event)


def of(attempt: Attempt, model: type[E]) -> list[E]:
    """The attempt's events of one kind, as that kind's model."""
    return cast("list[E]", attempt.of_kind(model.model_fields["kind"].default))


# -- names --------------------------------------------------------------------------------------------


def who(attempt: Attempt, user: Any) -> str:
    """A person as the scene names them, `$laura`; an id no ref names stays as it is."""
    name = attempt.ref_names.get(user) if isinstance(user, str) else None
    return f"${name}" if name else str(user)


def agent_of(attempt: Attempt) -> str | None:
    """The agent's Slack user: from the scene, else the author of the agent's own messages."""
    if attempt.agent:
        return attempt.agent
    return next((e.user for e in of(attempt, MessageEvent) if e.from_agent), None)


def owner_of(attempt: Attempt, fact: str) -> str | None:
    """The user id of a fact's owner: the person whose ref comes before the dot."""
    return attempt.refs.get(fact.partition(".")[0])


def _knows(attempt: Attempt, person: str, fact: str) -> KnowsEvent | None:
    return next((e for e in of(attempt, KnowsEvent) if e.person == person and e.fact == fact), None)


def _source(attempt: Attempt, source: str) -> str:
    if source == "start":
        return "from the start"
    if source == "agent":
        return "from the agent"
    return f"from {who(attempt, source)}"


# -- messages -----------------------------------------------------------------------------------------

# What a condition says it wants, whether a message event meets it, and what the message has instead.
Test = tuple[str, Callable[[Any], bool], Callable[[Any], str]]


class Selector(Args):
    """Which messages count: every condition given must hold (`from`, `to`, `in`, `text_contains`, `carries`)."""

    from_: str | None = Field(None, alias="from")
    to: str | None = None  # a person who heard it
    in_: str | None = Field(None, alias="in")  # a channel id
    text_contains: str | None = None
    carries: Facts | None = None

    @model_validator(mode="after")
    def _something(self) -> Selector:
        if all(getattr(self, name) is None for name in type(self).model_fields):
            raise ValueError("a message is selected by one or more of: from, to, in, text_contains, carries")
        return self

    def tests(self, attempt: Attempt) -> list[Test]:
        said: list[Test] = []
        if self.from_ is not None:
            author = self.from_
            said.append(
                (
                    f"from {who(attempt, author)}",
                    lambda e: e.user == author,
                    lambda e: f"it is from {who(attempt, e.user)}",
                )
            )
        if self.to is not None:
            person = self.to
            said.append((f"to {who(attempt, person)}", lambda e: person in e.to, lambda e: _missed(attempt, e, person)))
        if self.in_ is not None:
            channel = self.in_
            said.append(
                (
                    f"in {attempt.label(channel)}",
                    lambda e: e.channel == channel,
                    lambda e: f"it is in {attempt.label(e.channel)}",
                )
            )
        if self.carries is not None:
            facts = self.carries
            said.append(
                (
                    f"carrying {listing(facts)}",
                    lambda e: all(f in e.facts for f in facts),
                    lambda e: f"it does not carry {listing([f for f in facts if f not in e.facts])}",
                )
            )
        if self.text_contains is not None:
            part = self.text_contains.casefold()
            said.append(
                (
                    f"whose text contains {show(self.text_contains)}",
                    lambda e: part in e.text.casefold(),
                    lambda e: f"its text is {show(e.text, 60)}",
                )
            )
        return said

    def describe(self, attempt: Attempt) -> str:
        """`from $bot in C0123 ($support) carrying laura.workspace`."""
        return " ".join(words for words, _, _ in self.tests(attempt))


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
    tests = selector.tests(attempt)
    messages = of(attempt, MessageEvent)
    matched = [e for e in messages if all(test(e) for _, test, _ in tests)]
    if matched:
        return _Selected(matched, len(messages))
    if not messages:
        return _Selected([], 0, "no message was written")
    # The message meeting the most conditions, the latest among equals.
    closest = max(reversed(messages), key=lambda e: sum(test(e) for _, test, _ in tests))
    misses = list(dict.fromkeys(instead(closest) for _, test, instead in tests if not test(closest)))
    name = _message_name(closest, not any(m.startswith("its text") for m in misses))
    lead = (
        f"none of {count(len(messages), 'message')} matched" if len(messages) > 1 else "the only message did not match"
    )
    miss = f"{lead}; closest: {name}, but {listing(misses)}"
    return _Selected([], len(messages), miss, [closest.seq])


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
    return next((e for e in of(attempt, RevealedEvent) if e.fact == fact and e.to == agent), None)


def _not_revealed(attempt: Attempt, fact: str, agent: str | None) -> tuple[str, list[int]]:
    """Why a fact never reached the agent, from what did happen: withheld, asked, referred, shared elsewhere."""
    owner = owner_of(attempt, fact)
    owner_name = who(attempt, owner) if owner else "its owner"
    withheld = next((e for e in of(attempt, WithheldEvent) if e.fact == fact and e.to == agent), None)
    if withheld is not None:
        return f"{who(attempt, withheld.person)} withheld it ({withheld.reason}) at seq {withheld.seq}", [withheld.seq]
    asked = [e for e in of(attempt, AskedEvent) if e.fact == fact and e.by == agent]
    of_owner = [e for e in asked if e.person == owner]
    if of_owner:
        return f"the agent asked {owner_name} for it at seq {of_owner[0].seq}, but it was never revealed", [
            of_owner[0].seq
        ]
    referred = next((e for e in of(attempt, ReferredEvent) if e.fact == fact and e.to == agent), None)
    if referred is not None:
        to = who(attempt, referred.owner)
        return (
            f"{who(attempt, referred.person)} referred the agent to {to} at seq {referred.seq}, but the agent never asked {to}",
            [referred.seq],
        )
    if asked:
        people = listing(list(dict.fromkeys(who(attempt, e.person) for e in asked)))
        return f"the agent asked only {people} for it (seq {listing([str(e.seq) for e in asked])}), not {owner_name}", [
            e.seq for e in asked
        ]
    elsewhere = next((e for e in of(attempt, RevealedEvent) if e.fact == fact), None)
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


def _reveals(attempt: Attempt, facts: list[str]) -> _Facts:
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
    return _reveals(attempt, args.facts).outcome(f"{listing(args.facts)} revealed to the agent")


class PersonFacts(Args):
    person: str
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
        carrier = next((e for e in of(attempt, MessageEvent) if fact in e.facts), None)
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
        event = next((e for e in of(attempt, ToldEvent) if e.person == args.person and e.fact == fact), None)
        if event is not None:
            found.held(f"the agent told {person} {fact} at seq {event.seq}", event)
            continue
        line = f"the agent never told {person} {fact}"
        said = next((e for e in of(attempt, MessageEvent) if e.from_agent and fact in e.facts), None)
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


def _decisions(attempt: Attempt, args: DecidedArgs) -> _Decisions:
    person, key = who(attempt, args.person), args.key(attempt)
    made = [e for e in of(attempt, DecidedEvent) if e.person == args.person and args.names(e.decision)]
    matched = [e for e in made if args.option is None or e.option == args.option]
    if matched:
        return _Decisions(matched)
    if made:
        said = some(made, len(made), lambda e: f"{show(e.option)} at seq {e.seq}")
        return _Decisions([], f"{person} decided {key}: {said}", [e.seq for e in made])
    asked = [e for e in of(attempt, AskedEvent) if e.person == args.person and args.names(e.decision)]
    if asked:
        return _Decisions([], f"{person} was asked at seq {asked[0].seq} but never decided", [asked[0].seq])
    return _Decisions([], f"nobody asked {person} to decide {key}")


@check_kind("decided", DecidedArgs)
def decided(args: DecidedArgs, attempt: Attempt) -> Outcome:
    person, key = who(attempt, args.person), args.key(attempt)
    expected = f"{person} to decide {key}" + (f": {show(args.option)}" if args.option is not None else "")
    found = _decisions(attempt, args)
    if not found.matched:
        return Outcome(False, expected, found.miss, found.miss_evidence)
    made = some(found.matched, len(found.matched), lambda e: f"{show(e.option)} at seq {e.seq}")
    return Outcome(True, expected, f"{person} decided {key}: {made}", [e.seq for e in found.matched])


# -- state predicates ---------------------------------------------------------------------------------


def predicate_key(predicate: Mapping[str, Any]) -> str:
    """A state predicate as canonical JSON: the `key` of the `milestone` event emitted when it first holds."""
    return json.dumps(predicate, sort_keys=True, separators=(",", ":"), default=str)


class StatePredicate:
    """A state check used as a milestone or a condition: `{"slack.message": {...}}`, refs resolved."""

    __slots__ = ("args", "key", "kind", "name", "spec")

    def __init__(self, name: str, kind: Kind, args: Args, spec: dict[str, Any]) -> None:
        self.name = name
        self.kind = kind
        self.args = args
        self.spec = spec  # the arguments as written, refs resolved
        self.key = predicate_key({name: spec})

    @property
    def predicate(self) -> dict[str, Any]:
        return {self.name: self.spec}

    def holds(self, attempt: Attempt) -> bool:
        return self.kind.run(self.args, attempt).passed is True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StatePredicate) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"StatePredicate({self.key})"


def parse_state_predicate(value: Any) -> StatePredicate:
    """`{"<state check>": {...}}` (refs resolved), validated as a state check; raises ValueError."""
    if isinstance(value, StatePredicate):
        return value
    known = ", ".join(sorted(STATE_CHECKS))
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ValueError(f"a state predicate names exactly one state check ({known})")
    name, spec = next(iter(value.items()))
    kind = STATE_CHECKS.get(name)
    if kind is None:
        raise ValueError(f"unknown state check {name!r} (known: {known})")
    spec = {} if spec is None else spec
    if not isinstance(spec, dict):
        raise ValueError(f"the arguments of state check {name} are a mapping, got {type(spec).__name__}")
    try:
        args = kind.args.model_validate(spec)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in problem["loc"])
        raise ValueError(f"{name}{where}: {_message(problem, kind.args)}") from None
    return StatePredicate(name, kind, args, spec)


# -- milestones ---------------------------------------------------------------------------------------


@dataclass
class Reached:
    """When a milestone happened: the event that completed it, and every event behind it."""

    seq: int | None = None  # None: it did not happen (or cannot be told)
    t: str | None = None
    evidence: list[int] = field(default_factory=list)
    why: str = ""  # why it did not happen
    unknown: bool = False  # it cannot be told from this attempt (a state predicate nobody watched)

    @classmethod
    def at(cls, event: Any, evidence: list[int] | None = None) -> Reached:
        return cls(event.seq, event.t, evidence if evidence is not None else [event.seq])


MILESTONES = ("called", "revealed", "message", "decided", "state", "fault_resolved")


class Milestone(Args):
    """The first moment something happened; exactly one key."""

    called: Pattern | None = None
    revealed: Facts | None = None
    message: Selector | None = None
    decided: DecidedArgs | None = None
    state: Annotated[StatePredicate, BeforeValidator(parse_state_predicate)] | None = None
    fault_resolved: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _one(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"a milestone is a mapping with one of: {', '.join(MILESTONES)}")
        unknown = [k for k in data if k not in MILESTONES]
        if unknown:
            raise ValueError(f"unknown milestone {unknown[0]!r} (a milestone is one of: {', '.join(MILESTONES)})")
        if len(data) != 1:
            found = ", ".join(data) or "none"
            raise ValueError(f"a milestone has exactly one of: {', '.join(MILESTONES)}; found {found}")
        return data

    def describe(self, attempt: Attempt) -> str:
        if self.called is not None:
            return f"a call matching {self.called}"
        if self.revealed is not None:
            return f"{listing(self.revealed)} revealed to the agent"
        if self.message is not None:
            return f"a message {self.message.describe(attempt)}"
        if self.decided is not None:
            return self.decided.describe(attempt)
        if self.state is not None:
            return f"state {show(self.state.predicate, 100)}"
        return f"fault {self.fault_resolved} resolved"

    def reach(self, attempt: Attempt) -> Reached:
        if self.called is not None:
            calls = attempt.calls_matching(self.called)
            if calls:
                return Reached.at(calls[0])
            why, evidence = _miss(attempt, self.called)
            return Reached(why=why, evidence=evidence)
        if self.revealed is not None:
            found = _reveals(attempt, self.revealed)
            if found.passed:
                return Reached(found.last.seq, found.last.t, found.evidence)
            return Reached(why="; ".join(found.reasons), evidence=found.evidence)
        if self.message is not None:
            selected = select(attempt, self.message)
            if selected.matched:
                return Reached.at(selected.matched[0])
            return Reached(why=selected.miss, evidence=selected.miss_evidence)
        if self.decided is not None:
            decisions = _decisions(attempt, self.decided)
            if decisions.matched:
                return Reached.at(decisions.matched[0])
            return Reached(why=decisions.miss, evidence=decisions.miss_evidence)
        if self.state is not None:
            key = self.state.key
            milestone = next((e for e in of(attempt, MilestoneEvent) if e.key == key), None)
            if milestone is not None:
                return Reached.at(milestone)
            watched = attempt.watched
            if watched is not None and key not in watched:
                why = "it was not watched while the world ran (only the scene's own checks' state milestones are)"
                return Reached(why=why, unknown=True)
            return Reached(why="it never held")
        fault = self.fault_resolved
        event = next((e for e in attempt.of_kind("fault_resolved") if getattr(e, "fault", None) == fault), None)
        return Reached.at(event) if event is not None else Reached(why="it was never resolved")


def _milestones(value: Any) -> Any:
    if value == [] or value is None:
        raise ValueError("give one or more milestones")
    return value


class BeforeArgs(Args):
    milestones: Annotated[list[Milestone], BeforeValidator(_milestones)]


def _not_reached(name: str, reached: Reached) -> str:
    return f"{name} {'cannot be placed' if reached.unknown else 'never happened'}: {reached.why}"


def _undecided(reached: list[Reached]) -> bool | None:
    """False when a milestone never happened; None when none failed but one cannot be told."""
    return False if any(r.seq is None and not r.unknown for r in reached) else None


@check_kind("before", BeforeArgs, shorthand="milestones")
def before(args: BeforeArgs, attempt: Attempt) -> Outcome:
    """Each milestone happened, in this order: the first occurrences' seqs strictly increase."""
    names = [m.describe(attempt) for m in args.milestones]
    if len(names) == 1:
        expected = f"{names[0]}, at some point"
    else:
        expected = ", then ".join(names) + ", in that order"
    reached = [m.reach(attempt) for m in args.milestones]
    evidence = [seq for r in reached for seq in r.evidence]
    if any(r.seq is None for r in reached):
        parts = [f"{n} at seq {r.seq}" if r.seq is not None else _not_reached(n, r) for n, r in zip(names, reached)]
        return Outcome(_undecided(reached), expected, "; ".join(parts), evidence)
    for i in range(len(reached) - 1):
        first, then = reached[i].seq or 0, reached[i + 1].seq or 0
        if then == first:
            actual = f"{names[i]} and {names[i + 1]} came at the same moment (seq {first})"
            return Outcome(False, expected, actual, evidence)
        if then < first:
            actual = f"{names[i + 1]} came at seq {then}, before {names[i]} at seq {first}"
            return Outcome(False, expected, actual, evidence)
    actual = ", then ".join(f"{n} at seq {r.seq}" for n, r in zip(names, reached))
    return Outcome(True, expected, actual, evidence)


class WithinArgs(Args):
    milestone: Milestone
    limit: str | float
    after: Milestone | None = None

    @field_validator("limit")
    @classmethod
    def _duration(cls, value: str | float) -> str | float:
        parse_duration(value)  # a ValueError says what a duration looks like
        return value

    @property
    def limit_us(self) -> int:
        return parse_duration(self.limit)

    @property
    def limit_text(self) -> str:
        return self.limit if isinstance(self.limit, str) else format_duration(self.limit_us)


def span(us: int) -> str:
    """A simulated duration in words: `45s`, `3m20s`, `1h5m`, `2.5s`."""
    if us < 0:
        return "-" + span(-us)
    if us % US:
        return f"{us / US:g}s"
    hours, rest = divmod(us // US, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (seconds, "s")) if n]
    return "".join(parts) or "0s"


@check_kind("within", WithinArgs)
def within(args: WithinArgs, attempt: Attempt) -> Outcome:
    """The milestone happened within `limit` simulated time of the start, or of the milestone `after`."""
    name = args.milestone.describe(attempt)
    if args.after is not None:
        base = args.after.describe(attempt)
        expected = f"{name} within {args.limit_text} after {base}"
    else:
        base = "the start"
        expected = f"{name} within {args.limit_text} of the start"
    reached = args.milestone.reach(attempt)
    evidence = list(reached.evidence)
    if args.after is not None:
        since = args.after.reach(attempt)
        evidence += since.evidence
    else:
        start = next(iter(attempt.of_kind("start")), None) or next(iter(attempt.events), None)
        since = Reached.at(start, []) if start is not None else Reached(why="the log is empty")
    pending = [(n, r) for n, r in ((name, reached), (base, since)) if r.seq is None]
    if pending:
        actual = "; ".join(_not_reached(n, r) for n, r in pending)
        return Outcome(_undecided([r for _, r in pending]), expected, actual, evidence)
    assert reached.seq is not None and since.seq is not None and reached.t and since.t
    if reached.seq < since.seq:
        actual = f"it came at seq {reached.seq}, before {base} at seq {since.seq}"
        return Outcome(False, expected, actual, evidence)
    elapsed = parse_time(reached.t) - parse_time(since.t)
    at = f" (seq {since.seq})" if args.after is not None else ""
    actual = f"it came at seq {reached.seq}, {span(elapsed)} after {base}{at}"
    return Outcome(elapsed <= args.limit_us, expected, actual, evidence)


# -- for the engine -----------------------------------------------------------------------------------


def state_predicates(checks: Iterable[Check]) -> list[StatePredicate]:
    """Every state predicate used as a milestone (in `before` and `within`), each once, in order."""
    found: dict[str, StatePredicate] = {}
    for check in checks:
        for milestone in _milestones_of(check):
            if milestone.state is not None:
                found.setdefault(milestone.state.key, milestone.state)
    return list(found.values())


def _milestones_of(check: Check) -> list[Milestone]:
    """The milestones of a `before` or `within` check (none for other kinds)."""
    args = check.args
    if isinstance(args, BeforeArgs):
        return list(args.milestones)
    if isinstance(args, WithinArgs):
        return [m for m in (args.milestone, args.after) if m is not None]
    return []


def fault_references(check: Check) -> list[str]:
    """The fault ids a check names: a `fault_resolved` state check, and `fault_resolved` milestones (also
    as state milestones) of `before` and `within`."""
    found = [check.args.fault] if check.kind.name == "state:fault_resolved" else []  # type: ignore[attr-defined]
    for milestone in _milestones_of(check):
        if milestone.fault_resolved is not None:
            found.append(milestone.fault_resolved)
        elif milestone.state is not None and milestone.state.name == "fault_resolved":
            found.append(milestone.state.spec["fault"])
    return found
