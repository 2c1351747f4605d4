"""GitHub's media types: `Accept: application/vnd.github[.v3][.<param>][+json]` asks for a body other
than the default JSON. `diff` and `patch` (pulls, commits, compare), `sha` (a commit) and `raw` (a file's
contents) are text; `raw`, `text`, `html` and `full` on issues, pulls, reviews and comments choose which of `body`,
`body_text` and `body_html` the JSON holds.

Markdown is not rendered: `body_html` is the body's paragraphs (split at blank lines, line breaks as
`<br>`), escaped, as GitHub renders plain text; `body_text` is the body.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ..base import Reply, ServiceRequest

_VND = re.compile(r"application/vnd\.github(?P<version>\.v3)?(?:\.(?P<param>[a-z0-9-]+))?(?P<json>\+json)?$")
BODIES = frozenset({"raw", "text", "html", "full"})

# The operations whose JSON answers take the body media types, as GitHub documents them.
BODY_OPERATIONS = frozenset(
    {
        "GET /repos/{owner}/{repo}/issues",
        "POST /repos/{owner}/{repo}/issues",
        "GET /repos/{owner}/{repo}/issues/{issue_number}",
        "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        "GET /repos/{owner}/{repo}/issues/comments/{comment_id}",
        "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
        "GET /repos/{owner}/{repo}/pulls",
        "POST /repos/{owner}/{repo}/pulls",
        "GET /repos/{owner}/{repo}/pulls/{pull_number}",
        "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments",
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
    }
)


# What each `Accept` asks for, read once (a client sends the same few over and over); bounded, emptied when full.
_READ_MAX = 256
_READ: dict[str, tuple[str, str] | None] = {}


def requested(request: ServiceRequest) -> tuple[str, str] | None:
    """The first GitHub media type `Accept` names with a parameter: (the type as sent, its parameter)."""
    accept = request.headers.get("accept", "")
    if accept in _READ:
        return _READ[accept]
    if len(_READ) >= _READ_MAX:
        _READ.clear()
    found = _READ[accept] = _requested(accept)
    return found


def _requested(accept: str) -> tuple[str, str] | None:
    for part in accept.split(","):
        kind = part.split(";")[0].strip().lower()
        found = _VND.match(kind)
        if found and found["param"]:
            return kind, found["param"]
    return None


def param(request: ServiceRequest) -> str | None:
    """The media type's parameter (`diff`, `raw`, `full`...), or None for plain JSON."""
    found = requested(request)
    return found[1] if found else None


def text_reply(request: ServiceRequest, text: str) -> Reply:
    """`text` answered in the media type asked for, as GitHub answers it: that type as the content type."""
    found = requested(request)
    assert found is not None
    kind, name = found
    headers = {"Content-Type": f"{kind}; charset=utf-8", "X-GitHub-Media-Type": f"github.v3; param={name}"}
    return Reply(200, text, headers=headers)


def media_header(request: ServiceRequest) -> str:
    """`X-GitHub-Media-Type` of a JSON answer."""
    name = param(request)
    return f"github.v3; param={name}; format=json" if name in BODIES else "github.v3; format=json"


def render(text: str) -> str:
    """Plain text as GitHub's HTML: a `<p dir="auto">` per paragraph, line breaks as `<br>`."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip("\n")) if p.strip()]
    return "\n".join(
        f'<p dir="auto">{html.escape(p, quote=False).replace(chr(10), "<br>" + chr(10))}</p>' for p in paragraphs
    )


def _with_bodies(name: str, item: Any) -> Any:
    if not isinstance(item, dict) or "body" not in item:
        return item
    body = item["body"]
    shown = {k: v for k, v in item.items() if k != "body" or name in ("raw", "full")}
    if name in ("text", "full"):
        shown["body_text"] = body
    if name in ("html", "full"):
        shown["body_html"] = None if body is None else render(body)
    return shown


def bodies(request: ServiceRequest, body: Any) -> Any:
    """A JSON answer's objects (or list of them) with the `body`, `body_text`, `body_html` asked for."""
    name = param(request)
    if name not in BODIES or name == "raw":
        return body
    if isinstance(body, list):
        return [_with_bodies(name, item) for item in body]
    return _with_bodies(name, body)
