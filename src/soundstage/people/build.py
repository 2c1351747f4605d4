"""Resolving a scene's `people` into a `Cast`, once per world image.

Called by the image builder after every service record is built, with the context pointed at the
scene's `people` section, so each error names the file, the line and the field
(`people[0].facts[1].share_if.knows[0]`). Everything that names something is checked here: Slack users
and channels, facts (`<person ref>.<fact id>`), decisions (`{person, decision, option}`), people in
`referred_by`, and state predicates (parsed as state checks are). People outside Slack (`email`) are addresses of
the world before any record is built (`outside`), so that they have a mailbox and `$dana` names them in the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..clock import parse_duration
from ..errors import SpecError
from ..predicates.predicate import PredicateError, parse_state_predicate
from ..services.base import Address
from ..services.slack.store import CHANNELS, USERS
from ..spec.build import BuildContext
from ..spec.refs import RefError, resolve_refs
from . import cast as c
from . import models as m
from .names import Names
from .phrases import Phrases
from .understanding import Asks

Path = tuple[str | int, ...]
MAILBOX = "gmail.mailboxes"  # what `$dana` names, for a person outside Slack: their mailbox, whose id is the address


def outside(people: list[m.Person], ctx: BuildContext) -> list[Address]:
    """The people outside Slack (`email`) as addresses of the world, their refs defined to name them, before any
    record is built: so that the world's Google accounts include them and `$dana` names them in the seed's records.
    What is wrong with one is left for `build_people` to report, with the rest of that person."""
    found: list[Address] = []
    for person in people:
        email, name = person.email, (person.name or "").strip()
        if email is None:
            continue
        address = email.lower()
        if person.ref in ctx.refs or any(a.email == address for a in found):
            continue
        ctx.refs[person.ref] = address
        ctx.ref_kinds[person.ref] = MAILBOX
        found.append(Address(address, name))
    return found


def build_people(people: list[m.Person], ctx: BuildContext) -> tuple[c.Cast, list[SpecError]]:
    """The cast of a scene, and a SpecError (file, line, field) for each person who could not be cast: the
    first problem of each (the others may follow from it)."""
    return _Builder(ctx).build(people)


class _Builder:
    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx
        self.users: dict[str, str] = {}  # person ref -> user id
        self.fact_keys: set[str] = set()
        self.decisions: dict[str, m.Decision] = {}  # decision key -> its file model

    def build(self, people: list[m.Person]) -> tuple[c.Cast, list[SpecError]]:
        # First every person's identity, facts and decisions, so that any of them can be named anywhere.
        errors: list[SpecError] = []
        identified: list[tuple[int, m.Person]] = []
        for i, person in enumerate(people):
            try:
                self._identify(i, person)
            except SpecError as exc:
                errors.append(exc)
            else:
                identified.append((i, person))
        cast: list[c.Person] = []
        for i, person in identified:
            try:
                cast.append(self._person(i, person))
            except SpecError as exc:
                errors.append(exc)
        users = self.ctx.collections.get(USERS)
        # By name, only the people are called on (any user still by a mention): the names' pattern grows with
        # the names in it, and a world may have thousands of users, every message of which it would read.
        playing = {person.user for person in cast if person.in_slack}
        named: list[Mapping[str, Any]] = (
            [u for u in users if u["id"] in playing] if playing and users is not None else []
        )
        # People outside Slack by the name their mail is from, as a profile would give it.
        named += [
            {"id": p.user, "profile": {"real_name": p.name, "first_name": p.name.split()[0]}}
            for p in cast
            if not p.in_slack
        ]
        return c.Cast.of(cast, Names.of(named) if named else Names()), errors

    def error(self, message: str, *path: str | int) -> SpecError:
        return self.ctx.error(message, *path)

    # -- who is who --------------------------------------------------------------------------------

    def _identify(self, i: int, person: m.Person) -> None:
        user = self._slack_user(i, person) if person.slack_user is not None else self._address(i, person)
        if person.ref in self.users:
            raise self.error(f"person {person.ref!r} is declared twice", i, "ref")
        self.users[person.ref] = user
        seen: set[str] = set()
        for j, fact in enumerate(person.facts):
            if fact.id in seen:
                raise self.error(f"fact id {fact.id!r} is used twice by {person.ref}", i, "facts", j, "id")
            seen.add(fact.id)
            self.fact_keys.add(f"{person.ref}.{fact.id}")
        seen = set()
        for j, decision in enumerate(person.decisions):
            if decision.id in seen:
                raise self.error(f"decision id {decision.id!r} is used twice by {person.ref}", i, "decisions", j, "id")
            seen.add(decision.id)
            self.decisions[f"{person.ref}.{decision.id}"] = decision
        taken = [j for j, decision in enumerate(person.decisions) if decision.invitation]
        if len(taken) > 1:
            raise self.error(
                f"{person.ref} has a decision on invitations already", i, "decisions", taken[1], "invitation"
            )

    def _slack_user(self, i: int, person: m.Person) -> str:
        ctx = self.ctx
        user = ctx.resolve_kind(person.slack_user, USERS, i, "slack_user")
        if user not in ctx.collections.get(USERS, {}):
            raise self.error(f"{person.slack_user} is not a Slack user of this world", i, "slack_user")
        if ctx.refs.get(person.ref) != user:
            raise self.error(
                f"a person's ref is the ref of their Slack user ({person.slack_user}); "
                f"{person.ref!r} does not name that user",
                i,
                "ref",
            )
        return user

    def _address(self, i: int, person: m.Person) -> str:
        """A person outside Slack: their address, which `outside` gave their ref."""
        email = person.email or ""
        address = email.lower()
        same = next((ref for ref, user in self.users.items() if user == address), None)
        if same is not None:
            raise self.error(f"{email} is the address of ${same} already", i, "email")
        of_records = [rid for a in self.ctx.addresses() if a.email.lower() == address for rid in a.ids]
        if of_records:
            raise self.error(
                f"{email} is the address of {of_records[0]}, a record of this world: a person of the world is "
                "given by `slack_user`",
                i,
                "email",
            )
        if self.ctx.refs.get(person.ref) != address:
            raise self.error(
                f"ref {person.ref!r} is defined twice (first for {self.ctx.ref_kinds.get(person.ref)})", i, "ref"
            )
        return address

    def _person_user(self, value: Any, *path: str | int) -> str:
        """A person of this scene, named `$ref` (or by their user id): their user id."""
        if isinstance(value, str):
            ref = value[1:] if value.startswith("$") else None
            if ref is not None and ref in self.users:
                return self.users[ref]
            if value in self.users.values():
                return value
        known = ", ".join("$" + r for r in self.users) or "none"
        raise self.error(f"expected a person of this scene (people: {known}), found {value!r}", *path)

    # -- one person --------------------------------------------------------------------------------

    def _person(self, i: int, person: m.Person) -> c.Person:
        user = self.users[person.ref]
        watches = []
        for j, channel in enumerate(person.watches):
            watches.append(self._channel(channel, i, "watches", j))
        knows = [f"{person.ref}.{fact.id}" for fact in person.facts]
        for j, key in enumerate(person.knows):
            self._fact(key, i, "knows", j)
            if key not in knows:
                knows.append(key)
        facts = tuple(self._fact_of(i, j, person, user, fact) for j, fact in enumerate(person.facts))
        decisions = tuple(self._decision(i, j, person, user, d) for j, d in enumerate(person.decisions))
        script = tuple(
            c.Scripted(
                self._line(s, i, "script", j),
                parse_duration(s.at),
                f"at {s.at.strip()}",  # as written
            )
            for j, s in enumerate(person.script)
        )
        on = tuple(self._trigger(t, i, "on", j) for j, t in enumerate(person.on))
        general = person.general_answer
        if general is not None and general not in {fact.id for fact in person.facts}:
            own = ", ".join(fact.id for fact in person.facts) or "none"
            raise self.error(f"{person.ref} has no fact {general!r} (their facts: {own})", i, "general_answer")
        return c.Person(
            ref=person.ref,
            user=user,
            persona=person.persona,
            reply_after=parse_duration(person.reply_after),
            watches=frozenset(watches),
            knows=tuple(knows),
            facts=facts,
            decisions=decisions,
            script=script,
            on=on,
            general_answer=f"{person.ref}.{general}" if general is not None else None,
            working_hours=_hours(person.working_hours) if person.working_hours is not None else None,
            name=(person.name or "").strip() if person.email is not None else "",
            in_slack=person.email is None,
        )

    def _fact_of(self, i: int, j: int, person: m.Person, user: str, fact: m.Fact) -> c.Fact:
        here: Path = (i, "facts", j)
        referred_by = []
        for k, value in enumerate(fact.referred_by):
            other = self._person_user(value, *here, "referred_by", k)
            if other == user:
                raise self.error("the owner of a fact cannot refer askers to themselves", *here, "referred_by", k)
            referred_by.append(other)
        return c.Fact(
            key=f"{person.ref}.{fact.id}",
            id=fact.id,
            owner=user,
            text=fact.text,
            match=Phrases.of(fact.match),
            ask=Asks.of(fact.ask),
            confidential=fact.confidential,
            share_if=self._condition(fact.share_if, *here, "share_if") if fact.share_if is not None else None,
            referred_by=tuple(dict.fromkeys(referred_by)),
        )

    def _decision(self, i: int, j: int, person: m.Person, user: str, decision: m.Decision) -> c.Decision:
        here: Path = (i, "decisions", j)
        choose = tuple(
            c.Choice(
                choice.option,
                self._condition(choice.if_, *here, "choose", k, "if") if choice.if_ is not None else None,
            )
            for k, choice in enumerate(decision.choose)
        )
        return c.Decision(
            key=f"{person.ref}.{decision.id}",
            id=decision.id,
            owner=user,
            ask=Asks.of(decision.ask),
            options=tuple(decision.options),
            choose=choose,
            default=decision.default,
            invitation=decision.invitation,
        )

    # -- names -------------------------------------------------------------------------------------

    def _channel(self, value: str, *path: str | int) -> str:
        channel = self.ctx.resolve_kind(value, CHANNELS, *path)
        if channel not in self.ctx.collections.get(CHANNELS, {}):
            raise self.error(f"{value} is not a Slack channel of this world", *path)
        return channel

    def _user(self, value: str, *path: str | int) -> str:
        user = self.ctx.resolve_kind(value, USERS, *path)
        if user not in self.ctx.collections.get(USERS, {}):
            raise self.error(f"{value} is not a Slack user of this world", *path)
        return user

    def _fact(self, key: Any, *path: str | int) -> str:
        if not isinstance(key, str) or key not in self.fact_keys:
            known = ", ".join(sorted(self.fact_keys)) or "none"
            raise self.error(f"expected a fact as <person ref>.<fact id> (facts: {known}), found {key!r}", *path)
        return key

    def _decided(self, value: dict[str, Any], *path: str | int) -> c.DecidedRef:
        unknown = [k for k in value if k not in ("person", "decision", "option")]
        if unknown:
            raise self.error(f"unknown field {unknown[0]!r} (expected person, decision, option)", *path, unknown[0])
        for needed in ("person", "decision"):
            if needed not in value:
                raise self.error(f"missing required field {needed!r}", *path)
        user = self._person_user(value["person"], *path, "person")
        ref = next(r for r, u in self.users.items() if u == user)
        name = value["decision"]
        key = name if isinstance(name, str) and name.startswith(ref + ".") else f"{ref}.{name}"
        decision = self.decisions.get(key)
        if decision is None:
            known = ", ".join(k.partition(".")[2] for k in self.decisions if k.startswith(ref + ".")) or "none"
            raise self.error(f"{ref} has no decision {name!r} (their decisions: {known})", *path, "decision")
        option = value.get("option")
        if option is not None and option not in decision.options:
            raise self.error(
                f"{option!r} is not one of the options of {key}: {', '.join(decision.options)}", *path, "option"
            )
        return c.DecidedRef(user, key, option)

    def _condition(self, condition: m.Condition, *path: str | int) -> c.Condition:
        knows = tuple(self._fact(k, *path, "knows", n) for n, k in enumerate(condition.knows or []))
        told = tuple(self._fact(k, *path, "told", n) for n, k in enumerate(condition.told or []))
        decided = self._decided(condition.decided, *path, "decided") if condition.decided is not None else None
        state = self._state(condition.state, *path, "state") if condition.state is not None else None
        return c.Condition(knows=knows, told=told, decided=decided, state=state)

    def _state(self, predicate: dict[str, Any], *path: str | int) -> dict[str, Any]:
        """A state predicate (`{slack.message: {...}}`), validated and with refs resolved as checks do."""
        try:
            return parse_state_predicate(resolve_refs(predicate, self.ctx.refs)).predicate
        except RefError as exc:
            raise self.error(exc.message, *path, *exc.path) from None
        except PredicateError as exc:
            where, message = exc.problems[0]
            raise self.error(message, *path, *where) from None

    def _line(self, said: m.Say, *path: str | int) -> c.Line:
        if said.in_ is not None:
            return c.Line(said.say, self._channel(said.in_, *path, "in"), None)
        return c.Line(said.say, None, self._user(said.to or "", *path, "to"))

    def _trigger(self, trigger: m.Trigger, *path: str | int) -> c.Trigger:
        line = self._line(trigger, *path)
        if trigger.decided is not None:
            return c.Trigger(line, decided=self._decided(trigger.decided, *path, "decided"))
        return c.Trigger(line, fault=trigger.fault_resolved)


DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _hours(hours: m.WorkingHours) -> c.WorkingHours:
    def minutes(clock: str) -> int:
        return int(clock[:2]) * 60 + int(clock[3:])

    return c.WorkingHours(frozenset(DAYS.index(day) for day in hours.days), minutes(hours.from_), minutes(hours.to))
