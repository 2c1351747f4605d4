"""Agent-Diff's assertions as soundstage checks, with their meaning kept.

An assertion counts the rows of one table (`entity`) that were inserted (`added`), deleted (`removed`) or
updated (`changed`) between the start and the end, among those matching `where`, against `expected_count`
(a number: exactly; `{min, max}`; left out: at least one). Its operators compare exactly: `eq` is equality,
`contains` a case-sensitive substring, `i_contains` one ignoring case, `regex` a search. A `changed`
assertion also needs each field of `expected_changes` to have changed (`from`, `to`), and no other field
of a matching row (but `ignore_fields`) to have changed.

Their tables are soundstage's records seen another way: `messages` are `slack.messages` someone wrote (not
the notices of joins and topic changes, which Agent-Diff does not log); `channels` are `slack.channels`;
`channel_members` are the elements of a channel's `members` (`diff` with `each: members`);
`message_reactions` are each user's reaction on a message (`slack.reaction`). Every check is exact in
case (`ignore_case: false`), as Agent-Diff is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..services.slack import mrkdwn
from .agent_diff_blocks import blocks_test


class Unexpressed(Exception):
    """An assertion (or part of one) soundstage's checks cannot say exactly; the message says why."""


@dataclass(frozen=True)
class Translation:
    """A check saying what an assertion says; `caveat`: the one case where it does not, if any."""

    check: dict[str, Any]
    caveat: str | None = None
    # Agent-Diff's strict mode over several records: no record matching `where` changed another field.
    only: dict[str, Any] | None = None


@dataclass(frozen=True)
class Field:
    path: str
    text: bool = False  # message text: compared as soundstage keeps it, with Slack's escaping


MESSAGE_FIELDS = {
    "message_id": Field("ts"),
    "channel_id": Field("channel"),
    "user_id": Field("user"),
    "message_text": Field("text", text=True),
    "type": Field("type"),
}
CHANNEL_FIELDS = {
    "channel_id": Field("id"),
    "channel_name": Field("name"),
    "topic_text": Field("topic.value"),
    "purpose_text": Field("purpose.value"),
    "is_archived": Field("is_archived"),
}
# A channel's fields that can change, as Agent-Diff's `channels` table has them.
CHANNEL_CHANGING = ["name", "topic.value", "purpose.value", "is_archived"]
# Fields that never change once a row exists, so a `changed` assertion's `where` (matched by Agent-Diff
# against the row before or after) may be matched against the new record alone.
FIXED = {"message_id", "channel_id", "user_id", "parent_id"}
BLOCKS = (
    "soundstage keeps, as Slack does, a rich_text block made from the text of a message sent without blocks, "
    "where Agent-Diff's blocks column is empty; no check of the record can tell blocks the agent sent from those"
)
# The notices Slack logs as messages (soundstage too), which Agent-Diff's messages table never holds.
NOTICES = [
    "channel_archive",
    "channel_join",
    "channel_leave",
    "channel_name",
    "channel_purpose",
    "channel_topic",
    "channel_unarchive",
]


def translate(
    assertion: dict[str, Any],
    seed_reactions: list[dict[str, Any]],
    ignored: list[str],
    seed_members: frozenset[tuple[str, str]] = frozenset(),
) -> Translation:
    """The state check (`{"diff": ...}` or `{"slack.reaction": ...}`) saying what the assertion says;
    `seed_members`: the seed's memberships, (channel id, user id)."""
    kind, entity = assertion["diff_type"], assertion["entity"]
    where = assertion.get("where") or {}
    if not isinstance(where, dict):
        raise Unexpressed("where is not an object")
    if kind not in ("added", "removed", "changed"):
        raise Unexpressed(f"diff_type {kind!r} is not one of added, removed, changed")
    if entity == "message_reactions":
        return Translation(_reactions(kind, where, assertion, seed_reactions))
    if kind != "changed" and assertion.get("expected_changes"):
        raise Unexpressed(f"expected_changes on a {kind} assertion")
    if entity == "channel_members":
        return Translation(_members(kind, where, assertion, seed_members, ignored))
    if entity == "messages":
        said, caveat = _messages_where(where)
        check = {"collection": "slack.messages", "change": kind, "where": said}
        check["where"]["subtype"] = {"not": {"in": list(NOTICES)}}
        changing = ["text"]
        fields = MESSAGE_FIELDS
    elif entity == "channels":
        check = {"collection": "slack.channels", "change": kind, "where": _channels_where(where)}
        changing = CHANNEL_CHANGING
        fields = CHANNEL_FIELDS
        caveat = None
    else:
        raise Unexpressed(f"entity {entity!r} has no soundstage counterpart here")
    only = None
    if entity == "messages" and _escaped_regex(where, assertion.get("expected_changes")):
        caveat = _and(caveat) + (
            "a regex written with &, < or >: soundstage keeps a message's text as Slack does, with those "
            "escaped (&amp;, &lt;, &gt;), and a regex cannot be escaped as a literal text is"
        )
    if kind == "changed":
        moving = sorted(set(where) - FIXED)
        if moving:
            raise Unexpressed(
                f"where tests {', '.join(moving)}, which a change can move: Agent-Diff matches either version"
            )
        skipped = {fields[name].path for name in ignored if name in fields}
        seen = [path for path in changing if path not in skipped]
        _changes(check, assertion, fields, seen, entity)
        others = [path for path in seen if path not in check["changes"]]
        key = "message_id" if entity == "messages" else "channel_id"
        if others and not _pinned(where.get(key)):
            # Agent-Diff fails the assertion when any matching row changed another field, even if other rows
            # meet it; `strict` only leaves such a record uncounted, so that is a check of its own.
            only = {"diff": {**check, "fields": others, "count": 0}}
            for extra in ("changes", "strict"):
                only["diff"].pop(extra)
            only["diff"]["ignore_case"] = False
        if entity == "messages" and "blocks" not in ignored:
            caveat = (
                _and(caveat) + f"Agent-Diff also fails it when the agent's edit sends blocks (strict), and {BLOCKS}"
            )
    check.update(_count(assertion))
    check["ignore_case"] = False
    return Translation({"diff": check}, caveat, only)


def _pinned(pred: Any) -> bool:
    """Whether a where predicate names one record (`eq`): then strict's one record is the assertion's."""
    if isinstance(pred, dict):
        return set(pred) == {"eq"}
    return pred is not None


def _escaped_regex(where: dict[str, Any], changes: Any) -> bool:
    """Whether a regex tests message_text with a character Slack escapes."""
    preds = [where.get("message_text")]
    if isinstance(changes, dict) and isinstance(changes.get("message_text"), dict):
        preds += [changes["message_text"].get(side) for side in ("from", "to")]
    return any(isinstance(p, dict) and any(c in str(p.get("regex", "")) for c in "&<>") for p in preds)


def _changes(
    check: dict[str, Any], assertion: dict[str, Any], fields: dict[str, Field], changing: list[str], entity: str
) -> None:
    expected = assertion.get("expected_changes") or {}
    if not isinstance(expected, dict):
        raise Unexpressed("expected_changes is not an object")
    changes: dict[str, Any] = {}
    for name, spec in expected.items():
        if name == "blocks" or name not in fields:
            raise Unexpressed(BLOCKS if name == "blocks" else f"{entity}.{name} has no soundstage counterpart here")
        field = fields[name]
        sides = spec if isinstance(spec, dict) and set(spec) <= {"from", "to"} else {"to": spec}
        changes[field.path] = {side: _test(pred, field) for side, pred in sides.items() if pred is not None}
    check["changes"] = changes
    # Agent-Diff's strict mode: a matching row may change no field but the expected (and ignored) ones.
    check["fields"] = sorted(set(changing) | set(changes))
    check["strict"] = True


def _and(caveat: str | None) -> str:
    """The start of a caveat's next case."""
    return f"{caveat}; and when " if caveat else ""


def _messages_where(where: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """`where` of a messages assertion, and the caveat of its test of blocks, if inexact."""
    out: dict[str, dict[str, Any]] = {}
    caveat = None
    for name, pred in where.items():
        if name == "blocks":
            try:
                path, test, caveat = blocks_test(pred)
            except ValueError as exc:
                raise Unexpressed(str(exc)) from None
            _merge(out, path, test)
            continue
        if name == "parent_id":
            parent = _eq_only(name, pred)
            # A reply's thread_ts is its parent's ts; the parent's own thread_ts is its ts too, and
            # Agent-Diff's parent row has no parent_id.
            _merge(out, "thread_ts", {"equals": parent})
            _merge(out, "ts", {"not": {"equals": parent}})
            continue
        if name not in MESSAGE_FIELDS:
            raise Unexpressed(f"messages.{name} has no soundstage counterpart here")
        field = MESSAGE_FIELDS[name]
        _merge(out, field.path, _test(pred, field))
    return out, caveat


def _channels_where(where: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, dict[str, Any]] = {}
    flags = {"is_dm": "is_im", "is_gc": "is_mpim"}
    for name, pred in where.items():
        if name in flags:
            # Slack's conversation objects carry is_im (and is_mpim) only where they are true.
            value = _eq_only(name, pred)
            _merge(out, flags[name], {"equals": True} if value else {"not": {"equals": True}})
        elif name == "is_private":
            # Private in Agent-Diff: private channels, DMs and group DMs, all of which Slack marks not
            # is_channel (a DM has no is_channel at all).
            value = _eq_only(name, pred)
            _merge(out, "is_channel", {"not": {"equals": True}} if value else {"equals": True})
        elif name in CHANNEL_FIELDS:
            field = CHANNEL_FIELDS[name]
            _merge(out, field.path, _test(pred, field))
        else:
            raise Unexpressed(f"channels.{name} has no soundstage counterpart here")
    return out


def _members(
    kind: str, where: dict[str, Any], assertion: dict[str, Any], seed: frozenset[tuple[str, str]], ignored: list[str]
) -> dict[str, Any]:
    if kind == "changed":
        return _rejoined(where, assertion, seed, ignored)
    out: dict[str, dict[str, Any]] = {}
    for name, pred in where.items():
        if name == "channel_id":
            _merge(out, "id", _test(pred, Field("id")))
        elif name == "user_id":
            _merge(out, "members", _test(pred, Field("members")))
        else:
            raise Unexpressed(f"channel_members.{name} has no soundstage counterpart here")
    check: dict[str, Any] = {"collection": "slack.channels", "each": "members", "change": kind, "where": out}
    check.update(_count(assertion))
    check["ignore_case"] = False
    return {"diff": check}


def _rejoined(
    where: dict[str, Any], assertion: dict[str, Any], seed: frozenset[tuple[str, str]], ignored: list[str]
) -> dict[str, Any]:
    """A changed membership: Agent-Diff's row (channel, user) is kept by its key, so a member who left or was
    removed and came back is that row with a new `joined_at`; soundstage keeps the join in the channel's
    `joined` (the members who joined since the start), which such a member has and a starting one has not."""
    if set(where) != {"channel_id", "user_id"}:
        raise Unexpressed("a changed membership is said for one channel_id and one user_id, each by eq")
    channel, user = _eq_only("channel_id", where["channel_id"]), _eq_only("user_id", where["user_id"])
    if assertion.get("expected_changes") or "joined_at" in ignored:
        raise Unexpressed("a membership changes only its joined_at here, not as expected_changes or ignore_fields say")
    if (channel, user) not in seed:
        raise Unexpressed(
            f"{user} is not a member of {channel} at the start, so Agent-Diff counts any membership of theirs as "
            "added, never as changed"
        )
    check = {
        "collection": "slack.channels",
        "change": "changed",
        "where": {"id": {"equals": channel}, "members": {"has": [user]}},
        "fields": [f"joined.{user}"],
        **_count(assertion),
        "ignore_case": False,
    }
    return {"diff": check}


def _reactions(
    kind: str, where: dict[str, Any], assertion: dict[str, Any], seed: list[dict[str, Any]]
) -> dict[str, Any]:
    args: dict[str, Any] = {}
    names = {"message_id": "message", "user_id": "by", "reaction_type": "name"}
    allowed: dict[str, list[Any]] = {}
    for name, pred in where.items():
        if name not in names:
            raise Unexpressed(f"message_reactions.{name} has no soundstage counterpart here")
        ops = pred if isinstance(pred, dict) else {"eq": pred}
        if set(ops) == {"eq"}:
            args[names[name]], allowed[name] = ops["eq"], [ops["eq"]]
        elif set(ops) == {"in"} and name == "message_id" and isinstance(ops["in"], list):
            args["message"], allowed[name] = list(ops["in"]), list(ops["in"])
        else:
            raise Unexpressed(
                f"slack.reaction compares {names[name]} by equality only (or a list of messages), not {sorted(ops)}"
            )
    expected = assertion.get("expected_count")
    if kind == "changed":
        # A reaction row is its key (message, user, emoji) and when it was made: none ever changes, as no
        # element of a list field does, so the count is of nothing in both.
        return {"diff": {"collection": "slack.messages", "each": "reactions", "change": "changed", **_count(assertion)}}
    if kind == "added":
        args["new"] = True
        args.update(_reaction_count(expected))
        return {"slack.reaction": args}
    # Removed: of the reactions matching at the start (the seed's), how many are gone at the end.
    there = sum(all(r.get(k) in v for k, v in allowed.items()) for r in seed)
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise Unexpressed("a removed reaction count other than a number cannot be said as reactions remaining")
    if expected > there:
        raise Unexpressed(f"{expected} removed, but only {there} such reactions are there at the start: it never holds")
    args["new"] = False
    args["count"] = there - expected
    return {"slack.reaction": args}


def _reaction_count(expected: Any) -> dict[str, Any]:
    if expected is None:
        return {"count_gte": 1}
    if isinstance(expected, int) and not isinstance(expected, bool):
        return {"count": expected}
    if isinstance(expected, dict) and set(expected) == {"min"}:
        return {"count_gte": expected["min"]}
    raise Unexpressed(f"slack.reaction counts exactly or at least, not {expected}")


def _count(assertion: dict[str, Any]) -> dict[str, Any]:
    expected = assertion.get("expected_count")
    if expected is None:
        return {"count_gte": 1}
    if isinstance(expected, int) and not isinstance(expected, bool):
        return {"count": expected}
    if isinstance(expected, dict) and expected and set(expected) <= {"min", "max"}:
        out = {}
        if expected.get("min") is not None:
            out["count_gte"] = expected["min"]
        if expected.get("max") is not None:
            out["count_lte"] = expected["max"]
        return out
    raise Unexpressed(f"expected_count {expected!r} is neither a number nor {{min, max}}")


def _eq_only(name: str, pred: Any) -> Any:
    ops = pred if isinstance(pred, dict) else {"eq": pred}
    if set(ops) != {"eq"}:
        raise Unexpressed(f"{name} is compared here by eq only, not {sorted(ops)}")
    return ops["eq"]


def _merge(where: dict[str, dict[str, Any]], path: str, test: dict[str, Any]) -> None:
    current = where.setdefault(path, {})
    clash = set(current) & set(test)
    if clash:
        raise Unexpressed(f"two tests of {path} need the same soundstage test ({', '.join(sorted(clash))})")
    current.update(test)


def _test(pred: Any, field: Field) -> dict[str, Any]:
    """One Agent-Diff predicate (`{op: value, ...}`, or a plain value for eq) as a soundstage value test."""
    ops = pred if isinstance(pred, dict) else {"eq": pred}
    test: dict[str, Any] = {}
    for op, value in ops.items():
        for key, arg in _operator(op, value, field).items():
            if key in test:
                raise Unexpressed(f"{field.path}: two operators need the same soundstage test ({key})")
            test[key] = arg
    return test


def _operator(op: str, value: Any, field: Field) -> dict[str, Any]:
    text = (lambda v: mrkdwn.escape(v)) if field.text else (lambda v: v)
    if op in ("eq", "ne", "not_eq"):
        same = {"equals": text(value) if isinstance(value, str) else value}
        return same if op == "eq" else {"not": same}
    if op in ("in", "not_in"):
        if not isinstance(value, list):
            raise Unexpressed(f"{op} takes a list")
        among = {"in": [text(v) if isinstance(v, str) else v for v in value]}
        return among if op == "in" else {"not": among}
    if not isinstance(value, str):
        raise Unexpressed(f"{op} takes text")
    literal = re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text(value))
    if op == "regex":
        try:
            re.compile(value)
        except re.error as exc:
            raise Unexpressed(f"regex {value!r} does not compile ({exc}): it matches nothing in Agent-Diff") from None
        return {"matches": value}
    patterns = {
        "contains": literal,
        "i_contains": f"(?i){literal}",
        "starts_with": f"\\A{literal}",
        "i_starts_with": f"(?i)\\A{literal}",
        "ends_with": f"{literal}\\Z",
        "i_ends_with": f"(?i){literal}\\Z",
    }
    if op not in patterns:
        raise Unexpressed(f"operator {op!r} has no soundstage value test")
    return {"matches": patterns[op]}
