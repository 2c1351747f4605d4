"""What tests of reference counting share: the collector held off while a test drops what it made, then a
check that nothing of soundstage's was left in cycles (a server freezes what survives a collection, so a cycle
would stay)."""

from __future__ import annotations

import gc
import types
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager


def _module(found: object) -> str:
    """The module a piece of garbage comes from: a function's or frame's own, else its type's."""
    if isinstance(found, types.FunctionType):
        return found.__module__ or ""
    if isinstance(found, types.FrameType):
        return str(found.f_globals.get("__name__", ""))
    return type(found).__module__


@contextmanager
def no_cycles_left() -> Iterator[None]:
    """Runs the block with the collector off; after it, a full collection finds no garbage of soundstage's. Other
    garbage is left out: the test servers' threads of the same process (their event loops) make and drop their own
    meanwhile, which says nothing of the block."""
    gc.collect()
    gc.disable()
    try:
        yield
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = Counter(
            f"{_module(o)}.{type(o).__qualname__}" for o in gc.garbage if _module(o).startswith("soundstage")
        )
        assert not ours, f"left in cycles: {dict(ours)}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
