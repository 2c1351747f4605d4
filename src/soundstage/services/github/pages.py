"""Whole answers of a list operation kept by everything they are made of, so that a page asked again of an
unchanged world is neither sorted, sliced, rendered nor linked again: one lookup.

A page is what its handler answers for the request's path and query (the `Link` header repeats both, under
the request's API root) over the collections it reads (`reads`): so it is kept by the root, the path, the
query in the order sent, and the tokens of those collections' contents (`versions`), which every write
replaces. The same tokens in two worlds copied from one image mean the same contents, so such worlds share
pages (under their own roots). Only 200 answers whose body is a list are kept; the list is shared
(`wire.share`), so its bytes and ETag are made once too. Bounded: emptied when full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Reply
from ..versions import Kept, tokens
from . import wire
from .calls import Call


class Pages:
    """The kept answers of one list operation, whose handler reads only the request's path and query and the
    collections `reads` (and checks, before asking here, what may refuse the call)."""

    __slots__ = ("kept", "reads")

    def __init__(self, reads: tuple[str, ...]) -> None:
        self.reads = reads
        self.kept: Kept[tuple[Any, ...], tuple[list[Any], dict[str, str]]] = Kept(1024)

    def answer(self, call: Call, render: Callable[[], Reply]) -> Reply:
        """The answer kept for this call, or `render()`'s, kept when it is a page."""
        request = call.request
        key = (request.base_url, request.path, tuple(request.query.items()), tokens(call.world, self.reads))
        try:
            found = self.kept.get(key)
        except TypeError:  # a parameter given several times (a list): rare, answered afresh
            return render()
        if found is not None:
            return Reply(200, found[0], headers=dict(found[1]))
        reply = render()
        if reply.status == 200 and type(reply.body) is list:
            self.kept.keep(key, (wire.share(reply.body), dict(reply.headers)))
        return reply
