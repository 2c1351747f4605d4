"""The people engine of a live world: who hears a message, what they learn, what they answer and when.

`attach(world, cast)` is called once for every new live world. It records what each person knows from
the start, schedules their scripted messages and watches the world: after every change it reads the new
entries of the event log, in order, and

- for each message someone wrote in Slack (a `write` of `slack.messages`, op `added`, of a WRITTEN
  subtype): works out who heard it and to whom it was put (`hearing`), logs a `message` event, lets each
  hearer learn the facts it carries (`knows`, and `told` when it came from the agent) and, when the agent
  wrote it, works out what it asks each hearer (`understanding`, and the optional model's) and their
  answer (`asked` events now; the reply posted `reply_after` later, with its `revealed` / `withheld` /
  `referred` / `decided` events);
- for each piece of mail sent (a record a service's `mail` says is mail as sent: Gmail's messages): works out who
  received it (To: as a DM is, or a group DM when it names several people; Cc and Bcc: heard, as a watched channel
  is), and the same as for a Slack message, but that a reply is mail in its thread, sent to the sender
  (`Mail.answer`);
- for each `decided` or `fault_resolved` event: posts what people say `on` it (`script` events);
- for each write of the agent's to a collection whose records invite people (a service's `invitations`:
  Calendar's events): has each person it invites answer that revision of it `reply_after` later, by their
  decision on invitations, else by their calendar (`answered` events; `decided` too when a decision chose).

Everything is decided here, by rules, in log order; nothing reads the machine's clock or an unseeded
random source, so identical calls give identical words and events. Per-world state (who knows what, who
was told what, what was decided, how many replies each person gave) is the world's `State` part.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..clock import iso, parse_time
from ..events import (
    AnsweredEvent,
    AskedEvent,
    DecidedEvent,
    Event,
    KnowsEvent,
    MessageEvent,
    ReferredEvent,
    RevealedEvent,
    ScriptEvent,
    ToldEvent,
    WithheldEvent,
    WriteEvent,
)
from ..predicates.live import state_holds
from ..services import SERVICES
from ..services.invitations import Invitation, Invitations
from ..services.mail import Letter, Mail
from ..services.slack import channels, messages
from ..services.slack import service as slack
from ..services.slack.mrkdwn import unescape
from ..services.slack.store import CHANNELS, MESSAGES, USERS, WRITTEN
from ..world import World, shared_by_forks
from .cast import Cast, Condition, Decision, Fact, Line, Person
from .hearing import Hearer, hearers, in_conversation
from .hours import outside
from .replies import Part, compose
from .understanding import Reading
from .understanding_model import ModelUnderstanding
from .wording import Wording

MENTIONED = re.compile(r"<@([^<>\s]+)>")  # a mention as replies' templates write one: a user id, or an address


@dataclass
class State:
    """What the engine keeps per live world (a world part, see `World.part`)."""

    cursor: int = 0  # the seq of the last log entry read
    knows: dict[str, set[str]] = field(default_factory=dict)  # user id -> fact keys
    told: dict[str, set[str]] = field(default_factory=dict)  # user id -> fact keys the agent told them
    decided: list[tuple[str, str, str]] = field(default_factory=list)  # (person, decision key, option)
    replies: dict[str, int] = field(default_factory=dict)  # person ref -> replies given
    invitations: set[Invitation] = field(default_factory=set)  # answered, or to be: never twice
    wording: Wording | None = None
    understanding: ModelUnderstanding | None = None
    reading: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """A fork's copy, made by hand as forks are frequent: new sets, lists and counts of the same strings
        (the fact keys, ids and decisions are immutable), the model clients copied as any part is."""
        return State(
            cursor=self.cursor,
            knows={user: set(keys) for user, keys in self.knows.items()},
            told={user: set(keys) for user, keys in self.told.items()},
            decided=list(self.decided),
            replies=dict(self.replies),
            invitations=set(self.invitations),
            wording=copy.deepcopy(self.wording, memo),
            understanding=copy.deepcopy(self.understanding, memo),
            reading=self.reading,
        )


@dataclass(frozen=True)
class Answer:
    """One question a reply answers: the part it says and the event that records it when posted."""

    part: Part
    event: str | None = None  # revealed | withheld | referred | decided
    fact: str | None = None
    decision: str | None = None
    reason: str | None = None  # withheld: confidential | share_if


@shared_by_forks
@dataclass(frozen=True)
class Reply:
    """A reply decided when a message was heard, posted `reply_after` later."""

    person: Person
    asker: str  # user id
    channel: str
    thread_ts: str | None
    question: str  # the text answered (for model wording)
    answers: tuple[Answer, ...]
    mail: Letter | None = None  # mail answered (a reply by mail, in its thread; `channel` and `thread_ts` unused)
    via: str = ""  # the collection of the mail's service


def attach(world: World, cast: Cast) -> None:
    """Brings a scene's people to life in a new live world (a world without people is left alone)."""
    if not cast:
        return
    state = world.part(State)
    state.wording = Wording.from_env(os.environ)
    state.understanding = ModelUnderstanding.from_env(os.environ)
    engine = Engine(cast, world)
    t = iso(world.now())
    for person in cast.people:
        known = state.knows.setdefault(person.user, set())
        state.told.setdefault(person.user, set())
        for key in person.knows:
            known.add(key)
            world.log.emit(KnowsEvent, t=t, person=person.user, fact=key, source="start")
    state.cursor = world.log.last_seq
    for person in cast.people:
        for scripted in person.script:
            world.schedule(world.clock.start + scripted.at, engine.scripted(person, scripted.line, scripted.trigger))
    world.watch(engine.read)


@shared_by_forks
class Engine:
    """The rules, over one cast; the state is the world's (so forks share it)."""

    def __init__(self, cast: Cast, world: World) -> None:
        self.cast = cast
        self.triggers = [(person, trigger) for person in cast.people for trigger in person.on]
        # The services whose records invite people, by collection, each with the cast by their address there.
        self.inviting: dict[str, tuple[Invitations, dict[str, Person]]] = {}
        for service in SERVICES.values():
            invitations: Invitations | None = getattr(service, "invitations", None)
            if invitations is not None:
                addressed = ((invitations.address(world, p.user), p) for p in cast.people)
                self.inviting[invitations.collection] = (invitations, {a: p for a, p in addressed if a is not None})
        # The services that carry mail, by collection, each with the cast's addresses there by their user ids.
        self.mailing: dict[str, tuple[Mail, dict[str, str]]] = {}
        for service in SERVICES.values():
            mail: Mail | None = getattr(service, "mail", None)
            if mail is not None:
                boxes = ((p.user, mail.address(world, p.user)) for p in cast.people)
                self.mailing[mail.collection] = (mail, {user: a for user, a in boxes if a is not None})

    # -- reading the log ---------------------------------------------------------------------------

    def read(self, world: World) -> None:
        """Handles every log entry since the last one read, including those its own handling adds."""
        state = world.part(State)
        if state.reading:
            return
        state.reading = True
        try:
            events = world.log.events
            while state.cursor < len(events):
                event = events[state.cursor]
                state.cursor += 1
                if isinstance(event, WriteEvent):
                    if event.collection == MESSAGES and event.op == "added":
                        self.heard(world, state, event)
                    elif event.collection in self.mailing and event.op == "added":
                        self.mailed(world, state, event)
                    elif event.collection in self.inviting and event.by is not None and event.op != "removed":
                        self.invited(world, state, event)
                elif event.kind in ("decided", "fault_resolved"):
                    self.triggered(world, event)
        finally:
            state.reading = False

    # -- hearing -----------------------------------------------------------------------------------

    def heard(self, world: World, state: State, write: WriteEvent) -> None:
        message = world[MESSAGES].get(write.id)
        if message is None or message.get("subtype") not in WRITTEN:
            return
        author = message.get("user") or message.get("bot_id") or ""
        text = unescape(message.get("text") or "")  # as people read it: `P&L`, not Slack's stored `P&amp;L`
        agent = world.agent.get(slack.agent_user)
        from_agent = agent is not None and author == agent
        reading = Reading.of(text)
        heard = hearers(world, self.cast, message, author, reading)
        facts = self.cast.carried(text)
        world.log.emit(
            MessageEvent,
            t=write.t,
            ts=message["ts"],
            channel=message["channel"],
            user=author,
            text=text,
            thread_ts=message.get("thread_ts"),
            to=[hearer.person.user for hearer in heard],
            facts=facts,
            from_agent=from_agent,
        )
        self.learn(world, state, write.t, message["ts"], heard, facts, author, from_agent)
        if not from_agent:
            return  # people learn from every message they hear, but answer only the agent's
        reading = self.understood(state, reading, heard)
        conversation = world[CHANNELS].get(message["channel"]) or {}
        ts, thread_ts = message["ts"], message.get("thread_ts")
        if conversation.get("is_im") or conversation.get("is_mpim"):
            thread_ts = thread_ts if thread_ts != ts else None  # in the DM itself, or the thread it is in
        else:
            thread_ts = thread_ts or ts  # in a channel, always in the message's thread
        at = parse_time(write.t)
        for hearer in heard:
            answers = self.answer(world, state, write.t, ts, hearer, reading, author)
            if answers:
                reply = Reply(hearer.person, author, message["channel"], thread_ts, text, answers)
                world.schedule(at + hearer.person.reply_after, self.replier(reply))

    def mailed(self, world: World, state: State, write: WriteEvent) -> None:
        """Mail as sent: heard by the people it reached (To: as a DM or a group DM; Cc, Bcc: heard only), answered,
        when the agent sent it, as a Slack message is, by mail in its thread."""
        mail, addresses = self.mailing[write.collection]
        letter = mail.sent(world, write.id)
        if letter is None:
            return
        agent = mail.agent(world)
        from_agent = agent is not None and letter.sender == agent
        # The agent as events name it: its Slack user, where people talk, when the scene gives one.
        author = (world.agent.get(slack.agent_user) or letter.author) if from_agent else letter.author
        reached = [
            p for p in self.cast.people if p.user != author and addresses.get(p.user) not in (None, letter.sender)
        ]
        to = {p.user for p in reached if addresses[p.user] in letter.to}
        # To one person: a DM with them; to several: a group DM, put to those it calls on, if it calls on any.
        called = self.cast.names.addressees(letter.text)
        put = {h.person.user: h for h in in_conversation(self.cast, to, author, called, len(to) > 1)}
        heard = [
            put.get(p.user) or Hearer(p, False, False)  # Cc, Bcc: as a channel they watch
            for p in reached
            if p.user in put or addresses[p.user] in letter.cc
        ]
        reading = Reading.of(letter.text)
        facts = self.cast.carried(letter.text)
        world.log.emit(
            MessageEvent,
            t=write.t,
            ts=letter.ref,
            channel=letter.thread,
            user=author,
            text=letter.text,
            to=[hearer.person.user for hearer in heard],
            facts=facts,
            from_agent=from_agent,
            service=mail.service,
            mail=letter.headers,
        )
        self.learn(world, state, write.t, letter.ref, heard, facts, author, from_agent)
        if not from_agent or letter.automatic:  # mail no one wrote (an automatic reply) is never answered
            return
        reading = self.understood(state, reading, heard)
        at = parse_time(write.t)
        for hearer in heard:
            answers = self.answer(world, state, write.t, letter.ref, hearer, reading, author)
            if answers:
                reply = Reply(
                    hearer.person, author, letter.thread, None, letter.text, answers, letter, write.collection
                )
                world.schedule(at + hearer.person.reply_after, self.replier(reply))

    def learn(
        self,
        world: World,
        state: State,
        t: str,
        ts: str,
        heard: list[Hearer],
        facts: list[str],
        author: str,
        from_agent: bool,
    ) -> None:
        """A message's facts reach everyone who heard it before anyone answers it."""
        for hearer in heard:
            person = hearer.person
            known = state.knows.setdefault(person.user, set())
            for key in facts:
                if key not in known:
                    known.add(key)
                    source = "agent" if from_agent else author
                    world.log.emit(KnowsEvent, t=t, person=person.user, fact=key, source=source, ts=ts)
                if from_agent:
                    state.told.setdefault(person.user, set()).add(key)
                    world.log.emit(ToldEvent, t=t, person=person.user, fact=key, ts=ts)

    def understood(self, state: State, reading: Reading, heard: list[Hearer]) -> Reading:
        """The reading of the agent's message, with what the optional model understood it to ask when it was put
        to someone."""
        if state.understanding is not None and any(hearer.addressed for hearer in heard):
            return replace(reading, model=state.understanding.asked(reading.text, self.cast))
        return reading

    # -- answering ---------------------------------------------------------------------------------

    def asked(self, reading: Reading, hearer: Hearer) -> tuple[list[Fact], list[Decision]]:
        """What a message asks a hearer for: what its `ask` phrases name as written, and, when it was put
        to them, what it asks in other words (or a model understood); a vague question put to them asks
        for their `general_answer`."""

        def asks(key: str, item: Fact | Decision) -> bool:
            if item.ask.found(reading.text):
                return True
            return hearer.addressed and (item.ask.understood(reading) or key in reading.model)

        facts = [fact for key, fact in self.cast.facts.items() if asks(key, fact)]
        decisions = [d for key, d in self.cast.decisions.items() if not d.invitation and asks(key, d)]
        general = hearer.person.general_answer
        if hearer.addressed and reading.vague and not facts and not decisions and general is not None:
            facts = [self.cast.facts[general]]
        return facts, decisions

    def answer(
        self, world: World, state: State, t: str, ts: str, hearer: Hearer, reading: Reading, asker: str
    ) -> tuple[Answer, ...]:
        """Logs what the agent's message (`ts`) asks a hearer and decides their reply (none: they stay silent)."""
        person, addressed = hearer.person, hearer.addressed
        answers: list[Answer] = []
        facts, decisions = self.asked(reading, hearer)
        for fact in facts:
            world.log.emit(AskedEvent, t=t, person=person.user, by=asker, fact=fact.key, ts=ts)
            if fact.owner == person.user:
                answers.append(self.share(world, state, fact, owner=True))
            elif person.user in fact.referred_by:
                answers.append(Answer(Part("refer", fact.key, owner=fact.owner), "referred", fact=fact.key))
            elif not addressed:
                continue  # only owners and referrers speak up when the question was not put to them
            elif fact.key in state.knows.get(person.user, ()):
                answers.append(self.share(world, state, fact, owner=False))
            else:
                answers.append(Answer(Part("unknown", fact.key)))
        for decision in decisions:
            world.log.emit(AskedEvent, t=t, person=person.user, by=asker, decision=decision.key, ts=ts)
            if decision.owner == person.user:
                option = self.choose(world, state, person, decision)
                answers.append(Answer(Part("decide", decision.key, option=option), "decided", decision=decision.key))
            elif addressed:
                answers.append(Answer(Part("unknown", decision.key)))
        if not facts and not decisions:
            if addressed and reading.vague:
                # Asked in general terms, someone who knows anything asks what exactly is wanted.
                answers.append(Answer(Part("clarify" if state.knows.get(person.user) else "unknown")))
            elif hearer.direct:
                answers.append(Answer(Part("ack")))
        return tuple(answers)

    def share(self, world: World, state: State, fact: Fact, owner: bool) -> Answer:
        """Whether a fact is shared now: never when confidential, only once its `share_if` holds for its
        owner. The owner reveals it (`revealed`); someone else who knows it passes it on (no event but the
        reply's `message`, which carries it)."""
        if fact.confidential:
            return Answer(Part("refuse", fact.key), "withheld", fact=fact.key, reason="confidential")
        if fact.share_if is not None and not self.holds(world, state, self.cast.by_user[fact.owner], fact.share_if):
            return Answer(Part("refuse", fact.key), "withheld", fact=fact.key, reason="share_if")
        if owner:
            return Answer(Part("reveal", fact.key, text=fact.text), "revealed", fact=fact.key)
        return Answer(Part("pass", fact.key, text=fact.text, owner=fact.owner))

    def choose(self, world: World, state: State, person: Person, decision: Decision) -> str:
        chosen = self.chosen(world, state, person, decision)
        return chosen if chosen is not None else decision.options[0]

    def holds(self, world: World, state: State, person: Person, condition: Condition) -> bool:
        known = state.knows.get(person.user, set())
        if any(key not in known for key in condition.knows):
            return False
        told = state.told.get(person.user, set())
        if any(key not in told for key in condition.told):
            return False
        if condition.decided is not None and not any(condition.decided.matches(*d) for d in state.decided):
            return False
        return condition.state is None or state_holds(world, dict(condition.state))

    def replier(self, reply: Reply) -> Callable[[World], None]:
        return lambda world: self.reply(world, reply)

    def reply(self, world: World, reply: Reply) -> None:
        """Posts a reply decided earlier, logs what it revealed, withheld, referred or decided, then reads on."""
        state = world.part(State)
        person = reply.person
        n = state.replies.get(person.ref, 0)
        state.replies[person.ref] = n + 1
        parts = [a.part for a in reply.answers]
        text = compose(parts, person.ref, n)
        if state.wording is not None:
            user = world[USERS].get(person.user) or {}
            name = person.name or (user.get("profile") or {}).get("real_name") or user.get("name") or person.ref
            text = state.wording.phrase(name, person.persona, reply.question, parts, text, self.cast)
        if reply.mail is not None:
            mail, addresses = self.mailing[reply.via]
            # Mail has no mentions: a referral names the owner and their address.
            text = MENTIONED.sub(lambda m: self.named(world, m.group(1), addresses), text)
            ts = mail.answer(world, reply.mail, addresses[person.user], text).ref
        else:
            # Nor can Slack mention a person outside it: they are named with their address, as mail names them.
            users = world[USERS]
            text = MENTIONED.sub(
                lambda m: m.group(0) if users.get(m.group(1)) is not None else self.named(world, m.group(1), {}), text
            )
            ts = messages.post(world, reply.channel, person.user, text, thread_ts=reply.thread_ts)["ts"]
        t = iso(world.now())
        for answer in reply.answers:
            if answer.event == "revealed":
                world.log.emit(RevealedEvent, t=t, person=person.user, fact=answer.fact, to=reply.asker, ts=ts)
            elif answer.event == "withheld":
                world.log.emit(
                    WithheldEvent,
                    t=t,
                    person=person.user,
                    fact=answer.fact,
                    to=reply.asker,
                    reason=answer.reason,
                    ts=ts,
                )
            elif answer.event == "referred":
                world.log.emit(
                    ReferredEvent,
                    t=t,
                    person=person.user,
                    fact=answer.fact,
                    owner=answer.part.owner,
                    to=reply.asker,
                    ts=ts,
                )
            elif answer.event == "decided":
                option = answer.part.option
                state.decided.append((person.user, answer.decision or "", option))
                world.log.emit(
                    DecidedEvent,
                    t=t,
                    person=person.user,
                    decision=answer.decision,
                    option=option,
                    by=reply.asker,
                    ts=ts,
                )
        self.read(world)

    def named(self, world: World, user: str, addresses: dict[str, str]) -> str:
        """A person as mail names them: `Omar Haddad (omar@acme.test)`; one outside Slack is their address."""
        person = self.cast.by_user.get(user)
        if person is not None and not person.in_slack:
            return f"{person.name} ({person.user})"
        record = world[USERS].get(user) or {}
        name = (record.get("profile") or {}).get("real_name") or record.get("real_name") or record.get("name") or user
        address = addresses.get(user)
        return f"{name} ({address})" if address else str(name)

    # -- invitations -------------------------------------------------------------------------------

    def invited(self, world: World, state: State, write: WriteEvent) -> None:
        """Has each person of the cast whom a write of the agent's invites answer it `reply_after` later, once
        per revision."""
        invitations, addressed = self.inviting[write.collection]
        at = parse_time(write.t)
        for invitation in invitations.invited(world, write.id):
            person = addressed.get(invitation.address)
            if person is not None and invitation not in state.invitations:
                state.invitations.add(invitation)
                world.schedule(at + person.reply_after, self.responder(invitations, person, invitation))

    def responder(self, invitations: Invitations, person: Person, invitation: Invitation) -> Callable[[World], None]:
        return lambda world: self.respond(world, invitations, person, invitation)

    def respond(self, world: World, invitations: Invitations, person: Person, invitation: Invitation) -> None:
        """Answers an invitation that still stands: by the person's decision on invitations when a choice of it
        holds (or it has a default), else `declined` when they are busy then or it is outside their working hours,
        else `accepted`."""
        if not invitations.stands(world, invitation):
            return  # cancelled, moved (its new revision is answered apart) or no longer inviting them
        state = world.part(State)
        decision = person.on_invitation
        option = self.chosen(world, state, person, decision) if decision is not None else None
        conflict = None
        if option is not None:
            response, reason = option, "decision"
        else:
            conflict = invitations.conflict(world, invitation)
            response, reason = ("declined", "busy") if conflict is not None else ("accepted", "free")
            hours = person.working_hours
            when = invitations.when(world, invitation) if conflict is None and hours is not None else None
            if hours is not None and when is not None and outside(hours, *when):
                response, reason = "declined", "hours"
        invitations.answer(world, invitation, response)
        t = iso(world.now())
        world.log.emit(
            AnsweredEvent,
            t=t,
            person=person.user,
            service=invitations.service,
            event=invitation.event,
            revision=invitation.revision,
            response=response,
            reason=reason,
            conflict=conflict,
            decision=decision.key if option is not None and decision is not None else None,
            by=invitation.by,
        )
        if option is not None and decision is not None:
            state.decided.append((person.user, decision.key, option))
            world.log.emit(
                DecidedEvent, t=t, person=person.user, decision=decision.key, option=option, by=invitation.by
            )
        self.read(world)

    def chosen(self, world: World, state: State, person: Person, decision: Decision) -> str | None:
        """A decision on invitations' option: its first choice that holds, else its default, else None."""
        for choice in decision.choose:
            if choice.when is None or self.holds(world, state, person, choice.when):
                return choice.option
        return decision.default

    # -- acting on their own -----------------------------------------------------------------------

    def scripted(self, person: Person, line: Line, trigger: str) -> Callable[[World], None]:
        def act(world: World) -> None:
            self.say(world, person, line, trigger)
            self.read(world)

        return act

    def triggered(self, world: World, event: Event) -> None:
        for person, trigger in self.triggers:
            if trigger.fault is not None:
                fires = event.kind == "fault_resolved" and getattr(event, "fault", None) == trigger.fault
            else:
                fires = (
                    event.kind == "decided"
                    and trigger.decided is not None
                    and trigger.decided.matches(
                        getattr(event, "person", ""), getattr(event, "decision", ""), getattr(event, "option", "")
                    )
                )
            if fires:
                self.say(world, person, trigger.line, trigger.name)

    def say(self, world: World, person: Person, line: Line, trigger: str) -> None:
        channel = line.channel
        if channel is None:
            channel = channels.open_dm(world, person.user, line.to or person.user)[0]["id"]
        posted = messages.post(world, channel, person.user, line.say)
        world.log.emit(
            ScriptEvent,
            t=iso(world.now()),
            person=person.user,
            ts=posted["ts"],
            channel=channel,
            text=line.say,
            trigger=trigger,
        )
