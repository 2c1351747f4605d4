"""Junk input for the robustness sweeps: values of every wrong JSON type, whole bodies that are no object, the
mutants of a valid body (each field, at any depth, replaced by each junk value, or left out), and `Sweep`,
which sends them and checks the replies."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from soundstage.world import World


def deep(depth: int) -> Any:
    """An object nested `depth` levels deep."""
    value: Any = None
    for _ in range(depth):
        value = {"a": value}
    return value


# What any field may be replaced with.
JUNK: list[Any] = [
    5,
    -1,
    0,
    "",
    "x",
    None,
    True,
    [],
    {},
    [None],
    {"a": None},
    1e308,
    -1e308,
    2**70,
    -(2**70),
    2**63 - 1,
    ["x", 1],
    deep(60),
    "2026-13-45T99:99:99Z",
]
# Whole bodies that are no object at all (or one nested deeper than anything reads).
WHOLE: list[Any] = [[1, 2], "text", 3, None, 1e308, [{"data": None}], deep(200)]
# Path parameters naming nothing.
JUNK_IDS = ["0", "-1", "abc", "%00", "x" * 500, "²", "١٢", str(2**70)]


def fill(value: Any, params: dict[str, str]) -> Any:
    """`value` with every `{name}` in its strings replaced by `params[name]`."""
    if isinstance(value, dict):
        return {k: fill(v, params) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, params) for v in value]
    if isinstance(value, str):
        return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], value)
    return value


def mutants(template: Any) -> Iterator[Any]:
    """The template with each field (at any depth) replaced by each junk value, and removed."""
    if isinstance(template, dict):
        for key, value in template.items():
            for junk in JUNK:
                yield {**template, key: junk}
            yield {k: v for k, v in template.items() if k != key}
            for inner in mutants(value):
                yield {**template, key: inner}
    elif isinstance(template, list):
        for index, value in enumerate(template):
            for junk in JUNK:
                yield [*template[:index], junk, *template[index + 1 :]]
            for inner in mutants(value):
                yield [*template[:index], inner, *template[index + 1 :]]


def bodies(template: Any) -> Iterator[Any]:
    """Every junk body for an operation whose valid body is `template`."""
    yield from WHOLE
    yield from mutants(template)


# Raw bodies: (content, content type).
RAW: list[tuple[bytes, str]] = [
    (b'{"name": ', "application/json"),
    (b"\xff\xfe", "application/json"),
    (b'{"data": {}}', "text/plain"),
    (b"name=1&name=2&type=x&data=y&incident=z", "application/x-www-form-urlencoded"),
]


class Sweep:
    """Sends calls through `http` to paths under `base` with `headers`, and checks each reply: below 500, the
    vendor's `envelope` on an error, and no record of `world` changed by a call that failed."""

    def __init__(
        self, http: httpx.Client, base: str, headers: dict[str, str], world: World, envelope: Callable[[Any], bool]
    ) -> None:
        self.http = http
        self.base = base
        self.headers = headers
        self.world = world
        self.envelope = envelope

    def records(self, settle: bool = False) -> dict[str, Any]:
        """The world's records; with `settle`, once what is already due has happened (so that timers firing
        at the start of the next call do not count as its writes)."""
        with self.world.lock:
            if settle:
                self.world.run_due()
            return {name: found for name, found in self.world.snapshot().items() if found}

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        before = self.records(settle=True)
        headers = {**self.headers, **kwargs.pop("headers", {})}
        response = self.http.request(method, self.base + path, headers=headers, **kwargs)
        what = (method, path, kwargs)
        assert response.status_code < 500, (*what, response.text)
        if response.status_code >= 400:
            assert self.envelope(response.json()), (*what, response.text)
            assert self.records() == before, what
        return response

    def operation(
        self, operation: str, params: dict[str, str], template: Any, queries: list[dict[str, Any]], every: bool = True
    ) -> None:
        """Every junk body (made from the valid `template`; without `every`, only the valid one and those that
        are no object) and every junk query (with the valid body) to `operation`, its path parameters filled
        from `params`."""
        method, path = operation.split(" ", 1)
        path, valid = fill(path, params), fill(template, params)
        for body in bodies(valid) if every else [valid, *WHOLE]:
            self.send(method, path, json=body)
        for content, kind in RAW:
            self.send(method, path, content=content, headers={"Content-Type": kind})
        for query in queries:
            self.send(method, path, params=query, json=valid)

    def junk_ids(self, operation: str, valid: dict[str, str], template: Any, queries: list[dict[str, Any]]) -> None:
        """Each junk id in every path parameter of `operation` (any other from `valid`). The first gets every junk
        body; the others the bodies a handler must refuse whatever its path names: every mutant already reaches
        the handler once here and again, past the lookup, in the body sweep with real ids."""
        names = re.findall(r"\{(\w+)\}", operation)
        for index, junk in enumerate(JUNK_IDS):
            self.operation(operation, {**valid, **dict.fromkeys(names, junk)}, template, queries, every=index == 0)

    def readable(self, operations: list[str], params: dict[str, str]) -> None:
        """Every read still answers below 500 (no junk was stored that breaks a view)."""
        for operation in operations:
            method, path = operation.split(" ", 1)
            if method == "GET":
                self.send(method, fill(path, params))
