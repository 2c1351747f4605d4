"""Failed checks put into words: each with what it expected, what it found, why, and the log entries behind
it, one entry a line. `soundstage explain` prints these lines for a saved trial, and the Python API's
`Result.explain()` answers them for a live world, so both read the same."""

from __future__ import annotations

import json
from typing import Any

from ..grading.outcome import explain
from ..grading.words import show


def check_lines(check: dict[str, Any], entries: list[dict[str, Any]]) -> list[str]:
    """A check that did not pass (its result as `checks.json` holds it) and the events of its evidence, as
    lines: the check's own first, the rest indented under it by two spaces."""
    state = "undecided" if check["passed"] is None else "failed"
    required = "" if check["required"] else ", not required"
    adds = _beyond(check)
    return [
        f"{check['id']} ({check['kind']}): {state}{required}",
        f"  expected:    {check['expected']}",
        f"  actual:      {check['actual']}",
        *([f"  explanation: {adds}"] if adds else []),
        *(f"  {entry_line(entry)}" for entry in entries),
    ]


def _beyond(check: dict[str, Any]) -> str | None:
    """What a check's explanation says that its `expected` and `actual` lines do not, or None. Most explanations
    join the two in a sentence (`Failed: expected X, but Y.`), which adds nothing under them. A check of several
    conditions (`expected` and `actual` each joined by `; `) names in it those that were not met, which is
    worth a line when some were; any other explanation (a stored grade not scored) is shown as it is."""
    passed, expected, actual, text = check["passed"], check["expected"], check["actual"], check["explanation"]
    if text == explain(passed, [(expected, actual)]):
        return None
    expectations, findings = expected.split("; "), actual.split("; ")
    if len(expectations) > 1 and len(expectations) == len(findings):
        unmet = [(e, a) for e, a in zip(expectations, findings, strict=True) if f"expected {e}, but {a}" in text]
        if text == explain(passed, unmet):
            return None if len(unmet) == len(expectations) else "not met: " + "; ".join(e for e, _ in unmet)
    return str(text)


def entry_line(event: dict[str, Any]) -> str:
    """One log entry in a line: a call as `#seq time service METHOD path status [via mcp:service/tool] [error=code]`."""
    head = f"#{event.get('seq')} {event.get('t')}"
    if event.get("kind") == "call":
        line = f"{head} {event.get('service')} {event.get('method')} {event.get('path')} {event.get('status')}"
        mcp = event.get("mcp")
        if isinstance(mcp, dict):  # the MCP tool the call came through
            line += f" via mcp:{event.get('service')}/{mcp.get('tool')}"
        response = event.get("response")
        if isinstance(response, dict) and response.get("ok") is False:  # Slack answers errors with 200
            line += f" error={response.get('error')}"
        return line
    if event.get("kind") == "write":
        fields = f" ({', '.join(event['fields'])})" if event.get("fields") else ""
        by = f", by #{event['by']}" if event.get("by") else ""
        return f"{head} {event.get('collection')} {event.get('id')} {event.get('op')}{fields}{by}"
    if event.get("kind") == "milestone":  # the state predicate as a check file writes it, not JSON in JSON
        return f"{head} milestone state {show(_predicate(event.get('key')), 160)} held"
    if event.get("kind") == "answered":  # why: busy with which event, or by which decision
        why = " ".join(str(event[k]) for k in ("reason", "conflict", "decision") if event.get(k))
        return (
            f"{head} answered {event.get('person')} the {event.get('service')} event {event.get('event')}"
            f" (revision {event.get('revision')}): {event.get('response')} ({why})"
        )
    if event.get("kind") == "message" and isinstance(event.get("mail"), dict):
        return f"{head} {_mail(event, event['mail'])}"
    said = _LINES.get(event.get("kind", ""))
    if said is not None:
        shown = {**event, "text": _short(event.get("text")), "output": _short(event.get("output"))}
        return f"{head} {event['kind']} " + said.format_map(_Blank(shown))
    rest = {k: v for k, v in event.items() if k not in ("seq", "t", "kind")}
    details = json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
    return f"{head} {event.get('kind')} {details if len(details) <= 160 else details[:157] + '...'}"


# What passed between the agent and the people, and what else the log holds, one readable line per kind (ids as
# the log has them).
_LINES = {
    "start": "world {world} of {scene}",
    "clock": "moved on {advanced}",
    "finish": "the attempt ended ({reason}), output {output}",
    "after_finish": "{service} {method} {path} {status}, after the attempt ended",
    "fault_started": "{fault} started",
    "fault_resolved": "{fault} resolved",
    "message": "{user} in {channel} to [{to}] carrying [{facts}]: {text}",
    "asked": "{by} asked {person} for {fact}{decision}",
    "revealed": "{person} shared {fact} with {to}",
    "withheld": "{person} withheld {fact} from {to} ({reason})",
    "referred": "{person} sent {to} to {owner} for {fact}",
    "told": "{person} was told {fact} by the agent",
    "knows": "{person} knows {fact} (from {source})",
    "decided": "{person} decided {decision}: {option}",
    "script": "{person} in {channel}: {text}",
}


def _mail(event: dict[str, Any], mail: dict[str, Any]) -> str:
    """A `message` event of mail: marked as mail by its service, with its own headers beside the people who
    heard it (`to`), and the body without the subject its `text` starts with."""
    headers = [f"to [{', '.join(map(str, mail.get('to') or ()))}]"]
    headers += [f"{h} [{', '.join(map(str, mail[h]))}]" for h in ("cc", "bcc") if mail.get(h)]
    subject = str(mail.get("subject") or "")
    text = str(event.get("text") or "")
    body = text.removeprefix(subject).lstrip("\n") if subject else text
    # Someone outside Slack is their address in events: named once.
    sender = (
        event.get("user") if event.get("user") == mail.get("sender") else f"{event.get('user')} <{mail.get('sender')}>"
    )
    return (
        f"message: mail ({event.get('service')}) from {sender} {' '.join(headers)}"
        f" subject {_short(subject)} in thread {event.get('channel')}, id {event.get('ts')}, heard by"
        f" [{', '.join(map(str, event.get('to') or ()))}] carrying [{', '.join(map(str, event.get('facts') or ()))}]:"
        f" {_short(body)}"
    )


class _Blank(dict):  # type: ignore[type-arg]
    """Fields a line names but an event lacks read as nothing; lists read comma-joined."""

    def __missing__(self, key: str) -> str:
        return ""

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        if value is None:
            return ""
        return ", ".join(map(str, value)) if isinstance(value, list) else value


def _predicate(key: object) -> object:
    """A milestone's key, the predicate as canonical JSON, read back (as it is when it is not JSON)."""
    try:
        return json.loads(key) if isinstance(key, str) else key
    except ValueError:
        return key


def _short(text: object, width: int = 80) -> str:
    words = json.dumps(text or "", ensure_ascii=False)
    return words if len(words) <= width else words[: width - 4] + '..."'
