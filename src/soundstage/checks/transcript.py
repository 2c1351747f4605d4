"""The attempt as a person grading it would read it: one line per thing that happened, in simulated time,
with Slack channels and users by name and what each call answered. Judge checks give it to their model.

The lines are deterministic (the same attempt always reads the same). A call's body is shown compactly and
its response in part: what matters in it (for a list, its items' ids and names; for an error, its code and
message), never whole. Messages come from the final Slack state, so a scene without people reads the same
way; those written before the attempt (the seed's) come first. Mail sent (the agent's and people's replies)
comes from its `message` events, marked as mail with its headers. Redacting credentials is the judge's work.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..clock import US, iso, parse_time
from ..events import (
    AfterFinishEvent,
    AnsweredEvent,
    AskedEvent,
    CallEvent,
    ClockEvent,
    DecidedEvent,
    Event,
    FaultResolvedEvent,
    FaultStartedEvent,
    FinishEvent,
    KnowsEvent,
    MessageEvent,
    MilestoneEvent,
    ReferredEvent,
    RevealedEvent,
    ScriptEvent,
    StartEvent,
    ToldEvent,
    WithheldEvent,
)
from ..grading.attempt import Attempt, Record
from ..grading.words import show
from ..services.slack import service as slack
from ..services.slack.store import CHANNELS, MESSAGES, USERS

BODY_LIMIT = 1000  # characters of a call's query or body
ANSWER_LIMIT = 600  # characters of what a call answered
TEXT_LIMIT = 2000  # characters of a message's text
ITEMS_SHOWN = 10  # items of a listed response named; the rest are counted

_IDS = ("number", "id", "key", "ts")  # what identifies an item of a response, first found first
_NAMES = ("name", "title", "real_name", "summary", "login", "subject")  # what names it
_STATES = ("state", "status", "overall_state")  # what it is in, shown after its name
_SCALARS = frozenset(_IDS + _NAMES + _STATES + ("channel", "user", "user_id", "has_more", "more", "total", "message"))
_QUIET = frozenset({"ok", "response_metadata", "warning"})  # response fields that say nothing to a reader


@dataclass(frozen=True)
class Entry:
    at: int  # simulated time, epoch microseconds
    seq: int  # order among entries at the same time: the log's seq, 0 for what was there before
    text: str
    exact: int = 0  # order among those with the same time and seq: a message's `ts`


class Names:
    """Slack ids by the names a reader knows them by, from the final state: `#support`, `Laura Diaz`, `DM of
    Stage Bot (the agent) and Laura Diaz`. The agent's own user is `Stage Bot (the agent)`."""

    def __init__(self, attempt: Attempt) -> None:
        agent = attempt.identities.get(slack.agent_user) or next(
            (c.actor for c in attempt.calls if c.service == slack.name and c.actor), None
        )
        self.users = {u["id"]: _person(u) for u in attempt.records(USERS) if "id" in u}
        if agent in self.users:
            self.users[agent] += " (the agent)"
        self.channels = {c["id"]: self._channel(c) for c in attempt.records(CHANNELS) if "id" in c}
        known = sorted({**self.users, **self.channels}, key=len, reverse=True)
        self._pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, known)) + r")\b") if known else None

    def user(self, user_id: Any) -> str:
        return self.users.get(user_id, str(user_id)) if isinstance(user_id, str) else str(user_id)

    def channel(self, channel_id: Any) -> str:
        return self.channels.get(channel_id, str(channel_id)) if isinstance(channel_id, str) else str(channel_id)

    def tag(self, value: str) -> str | None:
        """A known id with its name, `C0123 (#support)`; None for anything else."""
        name = self.users.get(value) or self.channels.get(value)
        return f"{value} ({name})" if name else None

    def annotate(self, text: str) -> str:
        """Every known id in `text` followed by its name."""
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self.tag(m.group(0)) or m.group(0), text)

    def _channel(self, conversation: Record) -> str:
        if not (conversation.get("is_im") or conversation.get("is_mpim")):
            return f"#{conversation.get('name', conversation['id'])}"
        kind = "DM" if conversation.get("is_im") else "group DM"
        return f"{kind} of " + _and([self.user(m) for m in conversation.get("members") or ()])


def transcript(attempt: Attempt, scrub: Callable[[Any], Any]) -> list[str]:
    """The attempt, oldest first: each line starts with its simulated time (the time of day on the day the
    attempt started, else the date too). `scrub` is applied to each call's query, body and response first
    (the judge's removes credential-named fields)."""
    names = Names(attempt)
    entries = _messages(attempt, names)
    for event in attempt.events:
        if isinstance(event, CallEvent):
            event = event.model_copy(
                update={"query": scrub(event.query), "body": scrub(event.body), "response": scrub(event.response)}
            )
        text = _describe(event, names)
        if text is not None:
            entries.append(Entry(parse_time(event.t), event.seq, text))
    entries.sort(key=lambda e: (e.at, e.seq, e.exact))
    day = iso(parse_time(attempt.events[0].t))[:10] if attempt.events else ""
    return [f"{_when(e.at, day)} {e.text}" for e in entries]


def start_time(attempt: Attempt) -> str:
    """When the attempt started, as the transcript's header says it: `2026-03-02 14:00:00`."""
    return _when(parse_time(attempt.events[0].t), "") if attempt.events else "(unknown)"


def _when(at: int, day: str) -> str:
    stamp = iso(at)[:-1].replace("T", " ")
    return stamp[11:] if stamp.startswith(day + " ") else stamp


# -- messages --------------------------------------------------------------------------------------------


def _messages(attempt: Attempt, names: Names) -> list[Entry]:
    """The Slack messages of the final state, placed by their `ts` and right after the call that wrote them
    (a message's record id is its `ts`)."""
    heard = {e.ts: e for e in attempt.of(MessageEvent)}
    written = attempt.writes_by_record.get(MESSAGES, {})
    entries = []
    for message in attempt.records(MESSAGES):
        channel, ts = message.get("channel"), str(message.get("ts", ""))
        event = heard.get(ts)
        writes = written.get(ts, [])
        seq = writes[0].seq if writes else event.seq if event else 0
        author = message.get("user") or message.get("bot_id")
        where = names.channel(channel)
        thread = message.get("thread_ts")
        if thread and thread != ts:
            where += f", thread {thread}"
        said = names.annotate(show(message.get("text", ""), TEXT_LIMIT))  # mentions: `<@U0456 (Dana Ruiz)>`
        text = f"message from {names.user(author)} in {where}, ts {ts}: {said}"
        if event and event.facts:
            text += f" (carries {', '.join(event.facts)})"
        exact = _ts_us(ts)
        entries.append(Entry(exact - exact % US, seq, text, exact))  # in whole seconds, as written
    return entries


def _mail(message: MessageEvent, names: Names) -> str | None:
    """Mail sent, as its `message` event has it (Slack's messages are read from the state instead): From, To, Cc,
    Bcc, subject, thread and id, then the body; `message` events are logged only in a world with people."""
    mail = message.mail
    if mail is None:
        return None
    author = names.user(message.user)
    if message.from_agent and not author.endswith(" (the agent)"):  # its Google account's user, not Slack's
        author += " (the agent)"
    line = f"mail ({message.service}) from " + (f"{author} <{mail.sender}>" if author != mail.sender else author)
    line += " to " + (", ".join(mail.to) or "nobody")
    for header, addresses in (("cc", mail.cc), ("bcc", mail.bcc)):
        if addresses:
            line += f", {header} " + ", ".join(addresses)
    body = message.text.removeprefix(mail.subject).lstrip("\n") if mail.subject else message.text
    line += f", subject {show(mail.subject, 200)}, thread {message.channel}, id {message.ts}: {show(body, TEXT_LIMIT)}"
    return line + (f" (carries {', '.join(message.facts)})" if message.facts else "")


def _ts_us(ts: str) -> int:
    """A Slack `ts` ("1772460000.000100") as epoch microseconds."""
    seconds, _, fraction = ts.partition(".")
    fraction = fraction.ljust(6, "0")[:6]
    return int(seconds) * 1_000_000 + int(fraction) if seconds.isdigit() and fraction.isdigit() else 0


# -- the log ---------------------------------------------------------------------------------------------


def _describe(event: Event, names: Names) -> str | None:
    """One log entry in words; None for what the transcript shows otherwise (writes: the diff and the
    messages) or not at all."""
    describe = _DESCRIBE.get(type(event))
    return describe(event, names) if describe else None


def _call(call: CallEvent, names: Names) -> str:
    line = f"seq {call.seq} {call.service} {call.method} {call.path}"
    if call.query:
        line += f" query={names.annotate(_compact(call.query))}"
    if call.body is not None:
        line += f" body={names.annotate(_compact(call.body))}"
    line += f" -> {call.status}"
    if call.unimplemented:
        return line + " (not implemented by the simulation)"
    answered = answer(call, names)
    return line + (f" {answered}" if answered else "")


def answer(call: CallEvent, names: Names) -> str:
    """What a call answered, in part: `error: channel_not_found`, `channels (8): C1 (#general); …`."""
    if call.error or call.status >= 400:
        return "error: " + (_error(call.response) or "(no message)")
    return _cut(_summary(call.response, names), ANSWER_LIMIT)


def _error(response: Any) -> str:
    """An error's code and message, as each service puts them: Slack `{"ok": false, "error"}`, GitHub
    `{"message", "errors"}`, Datadog `{"errors": [...]}`, PagerDuty `{"error": {"code", "message", "errors"}}`."""
    if isinstance(response, str):
        return show(response, 200)
    if not isinstance(response, dict):
        return ""
    parts: list[str] = []
    error = response.get("error")
    if isinstance(error, str):
        parts.append(error)
    elif isinstance(error, dict):
        parts += [str(error[k]) for k in ("code", "message") if error.get(k) not in (None, "")]
        parts += [e for e in error.get("errors") or () if isinstance(e, str)]
    if isinstance(response.get("needed"), str):
        parts.append(f"needed {response['needed']}")
    if isinstance(response.get("message"), str):
        parts.append(response["message"])
    errors = response.get("errors")
    for item in errors if isinstance(errors, list) else ():
        if isinstance(item, dict):
            item = " ".join(str(item[k]) for k in ("resource", "field", "code", "message") if k in item)
        parts.append(str(item))
    return _cut("; ".join(parts), 300)


def _summary(value: Any, names: Names) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return _items(value, names)
    if not isinstance(value, dict):
        return show(value, 200)
    parts = []
    for key, item in value.items():
        if key in _QUIET:
            continue
        if isinstance(item, list):
            parts.append(f"{key} {_items(item, names)}")
        elif isinstance(item, dict):
            label = _label(item, names)
            if label:
                parts.append(f"{key} {label}")
        elif key in _SCALARS and item not in (None, ""):
            parts.append(f"{key} {_scalar(item, names)}")
    return ", ".join(parts)


def _items(items: list[Any], names: Names) -> str:
    """`(3): a; b; c`, the first `ITEMS_SHOWN` named and the rest counted."""
    if not items:
        return "(none)"
    shown = "; ".join(_label(item, names) or show(item, 60) for item in items[:ITEMS_SHOWN])
    more = len(items) - ITEMS_SHOWN
    return f"({len(items)}): {shown}" + (f" and {more} more" if more > 0 else "")


def _label(item: Any, names: Names) -> str:
    """An item by its id, name and state: `number 7 "Export times out" (open)`, `C0123 (#support)`; a Slack
    message by its ts, author and text."""
    if not isinstance(item, dict):
        return _scalar(item, names)
    fields = {**item["attributes"], **item} if isinstance(item.get("attributes"), dict) else item
    if "text" in fields and ("user" in fields or "bot_id" in fields):
        author = names.user(fields.get("user") or fields.get("bot_id"))
        ts = f"{fields['ts']} " if fields.get("ts") else ""
        return f"{ts}{author}: {names.annotate(show(fields['text'], 100))}"
    key = next((k for k in _IDS if fields.get(k) not in (None, "")), None)
    tagged = names.tag(fields[key]) if key and isinstance(fields[key], str) else None
    if tagged:
        return tagged
    parts = [f"{key} {fields[key]}"] if key else []
    name = next((fields[k] for k in _NAMES if isinstance(fields.get(k), str) and fields[k]), None)
    if name is not None:
        parts.append(show(name, 80))
    state = next((fields[k] for k in _STATES if isinstance(fields.get(k), str) and fields[k]), None)
    if state is not None:
        parts.append(f"({state})")
    return " ".join(parts)


def _scalar(value: Any, names: Names) -> str:
    """A known id with its name, a word as it is (`open`, a ts), anything else as JSON."""
    if isinstance(value, str) and value and not any(c.isspace() or c == '"' for c in value):
        return names.tag(value) or _cut(value, 100)
    return show(value, 100)


def _compact(value: Any) -> str:
    return _cut(json.dumps(value, ensure_ascii=False, default=str), BODY_LIMIT)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _person(user: Record) -> str:
    profile = user["profile"] if isinstance(user.get("profile"), dict) else {}
    return str(user.get("real_name") or profile.get("real_name") or user.get("name") or user["id"])


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else "nobody"


_WHY_WITHHELD = {"confidential": "it is confidential", "share_if": "the condition for sharing it did not hold"}

_DESCRIBE: dict[type[Any], Callable[[Any, Names], str | None]] = {
    StartEvent: lambda e, n: f"the attempt started (scene {e.scene}{f', world {e.world}' if e.world else ''})",
    CallEvent: _call,
    AfterFinishEvent: lambda e, n: f"after the end, a call was refused: {e.service} {e.method} {e.path} -> {e.status}",
    ClockEvent: lambda e, n: f"the clock was moved on by {e.advanced}",
    FinishEvent: lambda e, n: f"the attempt ended ({e.reason})",
    AskedEvent: lambda e, n: (
        f"{n.user(e.by)} asked {n.user(e.person)} " + (f"for {e.fact}" if e.fact else f"to decide {e.decision}")
    ),
    RevealedEvent: lambda e, n: f"{n.user(e.person)} revealed {e.fact} to {n.user(e.to)}",
    WithheldEvent: lambda e, n: (
        f"{n.user(e.person)} withheld {e.fact} from {n.user(e.to)}: " + _WHY_WITHHELD.get(e.reason, e.reason)
    ),
    ReferredEvent: lambda e, n: (
        f"{n.user(e.person)}, asked for {e.fact}, referred {n.user(e.to)} to its owner " + n.user(e.owner)
    ),
    ToldEvent: lambda e, n: f"the agent told {n.user(e.person)} {e.fact}",
    KnowsEvent: lambda e, n: (
        f"{n.user(e.person)} knows {e.fact}, "
        + {"start": "from the start", "agent": "told by the agent"}.get(e.source, f"told by {n.user(e.source)}")
    ),
    DecidedEvent: lambda e, n: f"{n.user(e.person)} decided {e.decision}: {e.option} (asked by {n.user(e.by)})",
    AnsweredEvent: lambda e, n: (
        f"{n.user(e.person)} answered the invitation to event {e.event}: {e.response} ("
        + {"free": "free then", "busy": f"busy with event {e.conflict}"}.get(e.reason, f"by {e.decision}")
        + ")"
    ),
    ScriptEvent: lambda e, n: f"{n.user(e.person)} wrote in {n.channel(e.channel)} on their own ({e.trigger})",
    MessageEvent: _mail,
    MilestoneEvent: lambda e, n: f"milestone reached: {n.annotate(e.key)}",
    FaultStartedEvent: lambda e, n: f"fault {e.fault} started",
    FaultResolvedEvent: lambda e, n: f"fault {e.fault} resolved",
}
