"""What tests of reference counting share: the collector held off while a test drops what it made, then a
check that nothing was left in cycles (a server freezes what survives a collection, so a cycle would stay)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cycles_left() -> Iterator[None]:
    """Runs the block with the collector off; after it, a full collection finds no garbage at all."""
    gc.collect()
    gc.disable()
    try:
        yield
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
