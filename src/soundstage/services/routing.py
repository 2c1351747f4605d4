"""Routing `METHOD /path` to an operation registered as `"METHOD /repos/{owner}/{repo}/..."`.

Templates are bucketed by method and segment count, so a lookup compares a path only with the few
templates of its own shape, literal segments first. A template ending in one of the router's tail
parameters (GitHub's `{path}` of contents, `{ref}` of git refs) also matches paths with more segments:
that parameter then spans the rest, slashes included (`contents/src/app.py`, `git/ref/heads/feature/x`).
Exact-length templates win, so `commits/{ref}/check-runs` is not swallowed by `commits/{ref}`. A tail
named `path` may also be empty (a repository's root).

An agent calls the same few paths again and again: the last `CACHED` distinct lookups are kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote

Template = tuple[str, tuple[str | None, ...], tuple[str, ...]]  # name, literal or None per segment, params
Found = tuple[str, dict[str, str]]
CACHED = 4096


def _segments(path: str) -> list[str]:
    return [unquote(s) for s in path.strip("/").split("/")] if path.strip("/") else []


def _parse(name: str) -> Template:
    _, _, path = name.partition(" ")
    parts = path.strip("/").split("/")
    literals = tuple(None if p.startswith("{") else p for p in parts)
    params = tuple(p[1:-1] for p in parts if p.startswith("{"))
    return name, literals, params


def _specificity(template: Template) -> tuple[bool, ...]:
    return tuple(literal is None for literal in template[1])


class Router:
    def __init__(self, names: Iterable[str], tails: Iterable[str] = ()) -> None:
        tails = frozenset(tails)
        self._exact: dict[tuple[str, int], list[Template]] = {}
        self._tails: dict[str, list[Template]] = {}
        for name in names:
            method = name.partition(" ")[0]
            template = _parse(name)
            self._exact.setdefault((method, len(template[1])), []).append(template)
            if template[1][-1] is None and template[2][-1] in tails:
                self._tails.setdefault(method, []).append(template)
        for bucket in [*self._exact.values(), *self._tails.values()]:
            bucket.sort(key=_specificity)
        self._found: dict[tuple[str, str], Found | None] = {}

    def match(self, method: str, path: str) -> Found | None:
        """The operation name and its parameters for a request (a dict of the caller's own), or None."""
        key = (method, path)
        try:
            found = self._found[key]
        except KeyError:
            if len(self._found) >= CACHED:
                self._found.clear()
            found = self._found[key] = self._match(method, path)
        return None if found is None else (found[0], dict(found[1]))

    def _match(self, method: str, path: str) -> Found | None:
        segments = _segments(path)
        for template in self._exact.get((method, len(segments)), ()):
            params = _bind(template, segments)
            if params is not None:
                return template[0], params
        for template in self._tails.get(method, ()):
            head = len(template[1]) - 1
            least = head if template[2][-1] == "path" else head + 1
            if len(segments) < least:
                continue
            params = _bind(template, [*segments[:head], "/".join(segments[head:])])
            if params is not None:
                return template[0], params
        return None


def _bind(template: Template, segments: list[str]) -> dict[str, str] | None:
    params: dict[str, str] = {}
    names = iter(template[2])
    for literal, segment in zip(template[1], segments):
        if literal is None:
            params[next(names)] = segment
        elif literal != segment:
            return None
    return params
