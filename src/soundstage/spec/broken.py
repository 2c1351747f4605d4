"""The field a YAML syntax error is in: the path of the value the parser was reading when it gave up.

A syntax error stops the parse, so no `Document` has lines to name the field by. The text is parsed again,
event by event, up to the error, keeping the path of keys and items open at each event. Run only for a file
that does not parse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


@dataclass
class _Open:
    """A mapping or list being read: how many keys, values or items have started in it, its last key, and
    whether its last value or item is a mapping or list still open."""

    mapping: bool
    started: int = 0
    key: Any = None
    value_open: bool = False
    ended: int = -1  # the line its last scalar value or item ended on

    def at(self, line: int) -> Any:
        """The key or index of the value being read at `line` (a scalar that ended on it counts: the text after
        it on its line broke it); None between entries."""
        reading = self.value_open or self.ended == line
        if self.mapping:
            return self.key if self.started % 2 or reading else None
        return self.started - 1 if reading else None


def broken_path(text: str) -> tuple[Any, ...]:
    """The path (keys and list indexes) of the value being read where `text` stops parsing; () at the top."""
    open_: list[_Open] = []
    line = -1
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                open_.pop()
                if open_:
                    open_[-1].value_open = False
            elif isinstance(event, yaml.NodeEvent):
                _started(open_, event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line if mark is not None else -1
    except yaml.YAMLError:
        pass
    return tuple(at for at in (frame.at(line) for frame in open_) if at is not None)


def _started(open_: list[_Open], event: yaml.NodeEvent) -> None:
    """A key, a value or an item starts: a scalar or an alias is whole at once, a mapping or list opens."""
    collection = isinstance(event, yaml.CollectionStartEvent)
    if open_:
        here = open_[-1]
        if here.mapping and here.started % 2 == 0:  # a key (a mapping or list as a key is never a field)
            here.key = event.value if isinstance(event, yaml.ScalarEvent) else "?"
        here.started += 1
        here.value_open = collection
        if not collection and not (here.mapping and here.started % 2) and event.end_mark is not None:
            here.ended = event.end_mark.line  # a value or an item, whole
    if collection:
        open_.append(_Open(isinstance(event, yaml.MappingStartEvent)))
