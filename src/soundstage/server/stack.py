"""What serves the ports: the HTTP parser and the event loop. httptools and uvloop where they are installed,
h11 and asyncio where they are not (a platform without wheels for them). On the same app httptools takes
about half the CPU of h11 per call, and uvloop a fifth less than asyncio again (docs/architecture.md).

`SOUNDSTAGE_HTTP` (`httptools`, `h11`) and `SOUNDSTAGE_LOOP` (`uvloop`, `asyncio`) choose one, `auto` or unset
the fastest installed; `soundstage serve --http/--loop` the same. Both stacks pass the whole test suite.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from .heads import HEAD_LIMIT, H11Heads

HTTP = ("httptools", "h11")  # fastest first
LOOPS = ("uvloop", "asyncio")


def _installed(name: str) -> bool:
    return name in ("h11", "asyncio") or importlib.util.find_spec(name) is not None


def _pick(kind: str, asked: str | None, names: tuple[str, ...]) -> str:
    if asked in (None, "", "auto"):
        return next(name for name in names if _installed(name))
    if asked not in names:
        raise UsageError(f"the {kind} must be auto, {', '.join(names)}, not {asked!r}")
    if not _installed(asked):
        raise UsageError(f"the {kind} {asked} is not installed here: pip install {asked}, or choose auto")
    return asked


@dataclass(frozen=True)
class Stack:
    http: str
    loop: str

    @classmethod
    def choose(cls, http: str | None = None, loop: str | None = None) -> Stack:
        """The one asked for, else the one the environment names, else the fastest installed."""
        return cls(
            _pick("HTTP parser", http or os.environ.get("SOUNDSTAGE_HTTP"), HTTP),
            _pick("event loop", loop or os.environ.get("SOUNDSTAGE_LOOP"), LOOPS),
        )

    def options(self) -> dict[str, Any]:
        """uvicorn's settings for this parser, its request heads bounded either way (heads.py)."""
        if self.http == "httptools":
            from .llhttp_heads import HttpToolsHeads

            return {"http": HttpToolsHeads}
        # h11 also holds a head that comes in pieces to the bound
        return {"http": H11Heads, "h11_max_incomplete_event_size": HEAD_LIMIT}

    def run(self, main: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Runs `main` to its end on a new loop of this stack's kind, in the calling thread."""
        factory = None
        if self.loop == "uvloop":
            import uvloop

            factory = uvloop.new_event_loop
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(main())

    def __str__(self) -> str:
        return f"{self.http} on {self.loop}"
