"""Failed checks put into words: each with what it expected, what it found, why, and the log entries behind
it, one entry a line. `soundstage explain` prints these lines for a saved trial, and the Python API's
`Result.explain()` answers them for a live world, so both read the same."""

from __future__ import annotations

import json
from typing import Any


def check_lines(check: dict[str, Any], entries: list[dict[str, Any]]) -> list[str]:
    """A check that did not pass (its result as `checks.json` holds it) and the events of its evidence, as
    lines: the check's own first, the rest indented under it by two spaces."""
    state = "undecided" if check["passed"] is None else "failed"
    required = "" if check["required"] else ", not required"
    return [
        f"{check['id']} ({check['kind']}): {state}{required}",
        f"  expected:    {check['expected']}",
        f"  actual:      {check['actual']}",
        f"  explanation: {check['explanation']}",
        *(f"  {entry_line(entry)}" for entry in entries),
    ]


def entry_line(event: dict[str, Any]) -> str:
    """One log entry in a line: a call as `#seq time service METHOD path status [error=code]`."""
    head = f"#{event.get('seq')} {event.get('t')}"
    if event.get("kind") == "call":
        line = f"{head} {event.get('service')} {event.get('method')} {event.get('path')} {event.get('status')}"
        response = event.get("response")
        if isinstance(response, dict) and response.get("ok") is False:  # Slack answers errors with 200
            line += f" error={response.get('error')}"
        return line
    if event.get("kind") == "write":
        fields = f" ({', '.join(event['fields'])})" if event.get("fields") else ""
        by = f", by #{event['by']}" if event.get("by") else ""
        return f"{head} {event.get('collection')} {event.get('id')} {event.get('op')}{fields}{by}"
    said = _PEOPLE_LINES.get(event.get("kind", ""))
    if said is not None:
        return f"{head} {event['kind']} " + said.format_map(_Blank({**event, "text": _short(event.get("text"))}))
    rest = {k: v for k, v in event.items() if k not in ("seq", "t", "kind")}
    details = json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
    return f"{head} {event.get('kind')} {details if len(details) <= 160 else details[:157] + '...'}"


# What passed between the agent and the people, one readable line per kind (ids as the log has them).
_PEOPLE_LINES = {
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


class _Blank(dict):  # type: ignore[type-arg]
    """Fields a line names but an event lacks read as nothing; lists read comma-joined."""

    def __missing__(self, key: str) -> str:
        return ""

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        if value is None:
            return ""
        return ", ".join(map(str, value)) if isinstance(value, list) else value


def _short(text: object, width: int = 80) -> str:
    words = json.dumps(text or "", ensure_ascii=False)
    return words if len(words) <= width else words[: width - 4] + '..."'
