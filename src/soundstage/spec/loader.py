"""Reading YAML files with the line of every key and item, and validating them with pydantic models.

A `Document` is the parsed data plus `lines`: the 1-based line of each path into it
(`("slack", "users", 2, "email")`), so any error, from pydantic or from later building, can name file,
line and field. Booleans, numbers and null are read by the YAML 1.2 core schema, not PyYAML's YAML 1.1
rules: only true/false are booleans (a key `on:` stays the string "on"), `010` is ten, `14:30` is not a
number, and times stay text for the models to parse.

Text is bounded before it can cost much: at most `MAX_CHARS` characters, at most `MAX_DEPTH` nested lists
and mappings, and at most `MAX_VALUES` values once every alias and merge key is expanded (an alias counts its
anchor's values again each time it is used), so a few hundred bytes of aliases cannot expand into gigabytes.
A file on disk is the user's own and may be a big world given as records: it has the wider `FILE_CHARS` and
`FILE_VALUES`.

Every value is text that can be written out again: a lone UTF-16 surrogate (half of a character, from a
`"\\ud800"` escape or from text that came as JSON) is an error at its line and field.
"""

from __future__ import annotations

import copy
import re
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from sys import intern
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError
from pydantic.dataclasses import is_pydantic_dataclass
from pydantic.fields import FieldInfo
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

if yaml.__with_libyaml__:
    from yaml._yaml import CParser

from ..errors import SpecError
from .broken import broken_path

PathKey = tuple[Any, ...]
M = TypeVar("M", bound=BaseModel)

_MERGE = "tag:yaml.org,2002:merge"
_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONE = "expected text, found a lone UTF-16 surrogate (half of a character), which no file or reply can hold"

# The bounds of text sent to a server (a scene's `scene_yaml`), far above any real scene (worlds/acme.yaml is
# 23,555 characters, 1,551 values and 6 levels deep). PyYAML composes some 15,000 values a second: these keep
# one request to seconds.
MAX_CHARS = 1_048_576
MAX_DEPTH = 100  # the nesting a request's JSON body may have too (services.base.MAX_JSON_DEPTH)
MAX_VALUES = 50_000
# The bounds of a file on disk: room for 100,000 messages given as records (some 14 MiB and 700,000 values),
# which a plain file reads at libyaml's speed; a file of aliases past them would be minutes of Python.
FILE_CHARS = 64 * 1_048_576
FILE_VALUES = 2_000_000


class _Bounded(Composer):
    """PyYAML's composer, composing within the file's bounds: past `MAX_VALUES` or `MAX_DEPTH` it stops at
    once, naming the line and field, before the rest of the text costs anything. Aliases share their anchor's
    node, so each one is counted at the size of what it stands for."""

    peek_event: Callable[[], yaml.Event]  # the parser's, Python's or libyaml's

    def _bounds(self, file: str, max_values: int) -> None:
        self.file = file
        self.max_values = max_values
        self.depth = 0  # nodes being composed around the current one
        self.path: list[Any] = []  # where the current node is, as `dotted` writes it
        self.values = 0  # nodes composed so far, an alias counting its anchor's again
        self.sizes: dict[int, int] = {}  # by node id: the values composing it counted

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        # `index` is an item's position, a mapping value's key node, or None for a key.
        where = index if isinstance(index, int) else index.value if isinstance(index, ScalarNode) else None
        if where is not None:
            self.path.append(where)
        try:
            return self._compose(parent, index)
        finally:
            if where is not None:
                self.path.pop()

    def _compose(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            anchor = self.anchors.get(event.anchor)
            if anchor is not None:  # an alias of an anchor still being composed is the builder's error
                self.count(self.sizes.get(id(anchor), 1), event)
            return super().compose_node(parent, index)
        if self.depth >= MAX_DEPTH and isinstance(event, yaml.CollectionStartEvent):
            raise self.error(f"nested more than {MAX_DEPTH} levels deep", event)
        before = self.values
        self.count(1, event)
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        self.sizes[id(node)] = self.values - before
        return node

    def count(self, values: int, event: yaml.Event) -> None:
        self.values += values
        if self.values > self.max_values:
            message = (
                f"the file expands to more than {self.max_values:,} values "
                "(an alias counts the values of its anchor again each time it is used)"
            )
            raise self.error(message, event)

    def error(self, message: str, event: yaml.Event) -> SpecError:
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        return SpecError(message, file=self.file, line=line, field=dotted(self.path))


class _Schema(SafeConstructor, Resolver):
    """The YAML 1.2 core schema (below), for both loaders."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


class _Loader(_Bounded, Reader, Scanner, Parser, _Schema):
    """PyYAML's safe loader in Python, bounded, with the core schema: what words a syntax error."""

    def __init__(self, stream: str, file: str, max_values: int) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        _Schema.__init__(self)
        self._bounds(file, max_values)


if yaml.__with_libyaml__:

    class _FastLoader(_Bounded, CParser, _Schema):
        """The same, its text scanned and parsed by libyaml (nine times as fast: worlds/acme.yaml in 4 ms, not
        37). libyaml words its errors in its own way, so a file it refuses is read again by `_Loader`."""

        def __init__(self, stream: str, file: str, max_values: int) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            _Schema.__init__(self)
            self._bounds(file, max_values)

    LOADERS: tuple[type[_Bounded], ...] = (_FastLoader, _Loader)
else:
    LOADERS = (_Loader,)


_FLOAT = r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
for _tag, _pattern, _first in (
    ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("int", r"[-+]?[0-9]+", "-+0123456789"),
    ("float", _FLOAT, "-+.0123456789"),
    ("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("merge", r"<<", "<"),
):  # first match wins, so a plain 42 is an int, not a float
    _Schema.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(f"^(?:{_pattern})$"), list(_first))


# Decimal even with a leading zero (PyYAML would read 010 as octal 8).
def _decimal(loader: Any, node: ScalarNode) -> int:  # Any: the stubs know only PyYAML's own loaders
    return int(loader.construct_scalar(node))


_Schema.add_constructor("tag:yaml.org,2002:int", _decimal)


class Document:
    """A parsed YAML file: `data` (always a mapping), the line of each path into it, and the file name.

    A text read straight from libyaml's events (`_Plain`) keeps its text instead of its lines, and finds them
    again the first time they are asked for (an error to report, a check library's definitions): a big world's
    table of lines took more memory than its data, and few loads ever read it. The text is kept compressed
    (a fifth of its size, for a tenth of the time libyaml took to read it): a big world's is held all
    through the build of its image, alongside every record made."""

    def __init__(self, data: dict[str, Any], lines: dict[PathKey, int] | None, file: str, text: str = "") -> None:
        self.data = data
        self.file = file
        self._lines = lines
        self._text = zlib.compress(text.encode(), 1) if text else b""  # to read the lines from, while `_lines` is None

    @property
    def lines(self) -> dict[PathKey, int]:
        if self._lines is None:
            lines: dict[PathKey, int] = {}
            text = zlib.decompress(self._text).decode()
            _Plain(text, FILE_VALUES).read(lines)  # it read as plain once, within its bounds: it does again
            self._lines, self._text = lines, b""
        return self._lines

    def line(self, path: PathKey) -> int | None:
        """The line of `path`, or of its nearest ancestor that has one."""
        lines = self.lines
        while path not in lines and path:
            path = path[:-1]
        return lines.get(path)


class SpecErrors(SpecError):
    """Several errors of one file; reads as the first one (earliest line) plus how many more there are."""

    def __init__(self, errors: list[SpecError]) -> None:
        self.errors = errors
        first = errors[0]
        more = len(errors) - 1
        message = first.message + (f" (and {more} more error{'s' if more > 1 else ''})" if more else "")
        super().__init__(message, file=first.file, line=first.line, field=first.field)

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "errors": [error.to_dict() for error in self.errors]}


def dotted(path: Iterable[Any]) -> str:
    """A path as a user writes it: `slack.users[2].email`."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):  # a list index (a `true:` key is not one)
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def describe(value: Any) -> str:
    """A found value in an error message, in YAML's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else repr(value[:57]) + "..."
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    return repr(value)


def read_document(path: Path) -> Document:
    """Reads and parses a YAML file; a missing, unreadable or non-UTF-8 file is a SpecError."""
    file = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpecError("no such file", file=file) from None
    except IsADirectoryError:
        raise SpecError("is a directory; expected a YAML file", file=file) from None
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror}", file=file) from None
    if len(raw) > 4 * FILE_CHARS:  # no UTF-8 character takes more than 4 bytes: too long whatever it holds
        raise SpecError(_too_long(FILE_CHARS), file=file)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SpecError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", file=file, line=line) from None
    return load_yaml(text, file, max_chars=FILE_CHARS, max_values=FILE_VALUES)


def load_yaml(text: str, file: str, max_chars: int | None = None, max_values: int | None = None) -> Document:
    """Parses YAML text whose top level is a mapping; syntax errors and duplicate keys are SpecErrors. The
    bounds are a text's (`MAX_CHARS`, `MAX_VALUES`) unless given."""
    max_chars = MAX_CHARS if max_chars is None else max_chars
    max_values = MAX_VALUES if max_values is None else max_values
    if len(text) > max_chars:
        raise SpecError(_too_long(max_chars), file=file, line=text.count("\n", 0, max_chars) + 1)
    # PyYAML refuses them before parsing, where no line or field is known: read as U+FFFD, then reported.
    lone = [found.start() for found in _SURROGATE.finditer(text)]
    readable = _SURROGATE.sub("\ufffd", text) if lone else text
    try:
        data, lines = _parse(readable, file, lone, max_values)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise SpecError(_syntax_message(exc), file=file, line=line, field=dotted(broken_path(readable))) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise SpecError(f"invalid YAML: {exc.reason} (found #x{exc.character:04x})", file=file, line=line) from None
    except RecursionError:
        raise SpecError("invalid YAML: nested too deeply", file=file) from None
    document = Document(data, lines, file, text if lines is None else "")
    if not isinstance(data, dict):
        message = f"expected a mapping at the top level, found {describe(data)}"
        raise SpecError(message, file=file, line=document.lines[()])
    return document


def _parse(text: str, file: str, lone: list[int], max_values: int) -> tuple[Any, dict[PathKey, int] | None]:
    """The data of `text` and its lines; `lone` are where the original text had lone surrogates (U+FFFD in
    `text`). Read by libyaml when it is there, straight from its events when the text is plain (its lines left
    for `Document` to find when asked: None); a file it refuses is read again in Python, whose error is the one
    raised."""
    if yaml.__with_libyaml__ and not lone and not Reader.NON_PRINTABLE.search(text):
        try:
            return _Plain(text, max_values).read(None), None
        except (_NotPlain, yaml.YAMLError):
            pass
    for loader_class in LOADERS[:-1]:
        try:
            return _parse_with(loader_class, text, file, lone, max_values)
        except yaml.YAMLError:
            pass
    return _parse_with(LOADERS[-1], text, file, lone, max_values)


def _parse_with(
    loader_class: type[_Bounded], text: str, file: str, lone: list[int], max_values: int
) -> tuple[Any, dict[PathKey, int]]:
    lines: dict[PathKey, int] = {}
    loader: Any = loader_class(text, file, max_values)  # type: ignore[call-arg]  # each loader takes these
    try:
        node = loader.get_single_node()
        if node is None:
            raise SpecError("the file is empty; expected a mapping", file=file, line=1)
        data = _Builder(loader, file, lines, lone).build(node, ())
    finally:
        loader.dispose()
    if lone:  # outside every key and value: in a comment
        raise SpecError(_LONE, file=file, line=text.count("\n", 0, lone[0]) + 1)
    return data, lines


class _NotPlain(Exception):
    """The text needs reading node by node: anchors, aliases, merge keys, explicit tags, or a problem."""


_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
_SCALAR_TAGS = {_STR, _INT, "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}


if yaml.__with_libyaml__:

    class _Plain(CParser, _Schema):  # type: ignore[misc]
        """Reads a plain text (no anchors, aliases, merge keys or explicit tags, within the bounds, without a
        problem to report) straight from libyaml's events into data and lines: what `_FastLoader` and
        `_Builder` make of it, without a node per value. Anything else raises `_NotPlain` and is read node by
        node, whose errors are the ones users read."""

        def __init__(self, text: str, max_values: int) -> None:
            CParser.__init__(self, text)
            _Schema.__init__(self)
            self.max_values = max_values

        def read(self, lines: dict[PathKey, int] | None) -> Any:
            """The text's data; with `lines`, the line of each path into it recorded there."""
            try:
                return self._read(lines)
            finally:
                self.dispose()

        def _read(self, lines: dict[PathKey, int] | None) -> Any:
            get = self.get_event
            get()  # the stream's start
            if not self.check_event(yaml.DocumentStartEvent):
                raise _NotPlain  # an empty file
            get()
            root: list[Any] = []
            # The lists and mappings open around the next value: [the value, its path (with `lines` only), for a
            # mapping the key read and waiting for its value (`_KEY` while the next event is a key)]; the root's
            # holder at the bottom.
            stack: list[list[Any]] = [[root, (), None]]
            values = 0
            here: PathKey | None = None
            scalar = self._scalar
            while True:
                event: Any = get()
                kind = type(event)
                if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                    stack.pop()
                    if len(stack) == 1:
                        break
                    continue
                if kind is yaml.AliasEvent or event.anchor is not None or event.tag not in (None, "!"):
                    raise _NotPlain
                values += 1  # as `_Loader` counts: every key, item and value
                if values > self.max_values:
                    raise _NotPlain
                top = stack[-1]
                into, path, key = top
                if key is _KEY:
                    if kind is not yaml.ScalarEvent:
                        raise _NotPlain
                    key = scalar(event)
                    if type(key) is str:  # the same keys over and over in a list of records: one string each
                        key = intern(key)
                    top[2] = key
                    if key in into:
                        raise _NotPlain
                    if lines is not None:
                        lines[path + (key,)] = event.start_mark.line + 1
                    continue
                if lines is not None:
                    here = () if len(stack) == 1 else path + ((len(into),) if key is None else (key,))
                    lines.setdefault(here, event.start_mark.line + 1)
                if kind is yaml.ScalarEvent:
                    value: Any = scalar(event)
                elif len(stack) > MAX_DEPTH:
                    raise _NotPlain
                else:
                    value = [] if kind is yaml.SequenceStartEvent else {}
                if key is None:
                    into.append(value)
                else:
                    into[key] = value
                    top[2] = _KEY
                if kind is not yaml.ScalarEvent:
                    stack.append([value, here, None if kind is yaml.SequenceStartEvent else _KEY])
                elif len(stack) == 1:
                    break
            get()  # the document's end
            if not self.check_event(yaml.StreamEndEvent):
                raise _NotPlain  # more than one document
            return root[0]

        def _scalar(self, event: Any) -> Any:
            """A scalar's value, its tag resolved as `_Schema.resolve` does (inlined: it runs once per value)."""
            value = event.value
            tag = _STR
            if event.implicit[0]:
                for candidate, pattern in _Schema.yaml_implicit_resolvers.get(value[:1], ()):
                    if pattern.match(value):
                        tag = candidate
                        break
            if tag == _STR:
                if event.style == '"' and _SURROGATE.search(value):  # only an escape can make one here
                    raise _NotPlain
                # A ref (`$maya`) is written over and over in a big world's records: one string each.
                return intern(value) if value[:1] == "$" else value
            if tag == _INT:
                return int(value)
            if tag not in _SCALAR_TAGS:
                raise _NotPlain
            return self.construct_object(ScalarNode(tag, value, event.start_mark, event.end_mark, event.style))


_KEY = object()  # a mapping waiting for its next key


def _too_long(max_chars: int) -> str:
    return f"the file is longer than {max_chars:,} characters; split it, or use generate: for bulk records"


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    message = f"invalid YAML: {exc.problem or exc.context}"
    if exc.problem and exc.context and exc.context_mark:
        message += f" ({exc.context} on line {exc.context_mark.line + 1})"
    return message


class _Builder:
    """Turns a composed node tree into plain data, recording the line of every key and item."""

    def __init__(self, loader: _Schema, file: str, lines: dict[PathKey, int], lone: list[int]) -> None:
        self.loader = loader
        self.file = file
        self.lines = lines
        self.lone = lone
        self.built: dict[int, Any] = {}  # by node id: an alias reuses what its anchor built
        self.building: set[int] = set()

    def build(self, node: Node, path: PathKey) -> Any:
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.built:
            return self.built[id(node)]
        if id(node) in self.building:
            raise self.error("invalid YAML: an alias refers to a value that contains it", node, path)
        if node.tag not in _COLLECTION_TAGS:
            raise self.error(f"invalid YAML: unsupported tag {node.tag}", node, path)
        self.building.add(id(node))
        if isinstance(node, SequenceNode):
            value: Any = [self.build(item, path + (index,)) for index, item in enumerate(node.value)]
        else:
            assert isinstance(node, MappingNode)  # the collection tags are a sequence's and a mapping's
            value = self.mapping(node, path)
        self.building.discard(id(node))
        self.built[id(node)] = value
        return value

    def mapping(self, node: MappingNode, path: PathKey) -> dict[Any, Any]:
        own = sum(1 for key_node, _ in node.value if key_node.tag != _MERGE)
        self.loader.flatten_mapping(node)  # `<<: *defaults` entries now come first; keys written here win
        merged = len(node.value) - own
        keys = [self.key(key_node, path) for key_node, _ in node.value]
        first_line: dict[Any, int] = {}
        for key, (key_node, _) in zip(keys[merged:], node.value[merged:]):
            if key in first_line:
                message = f"duplicate key {key!r} (first given on line {first_line[key]})"
                raise self.error(message, key_node, path + (key,))
            first_line[key] = key_node.start_mark.line + 1
        last = {key: index for index, key in enumerate(keys)}
        result: dict[Any, Any] = {}
        for index, (key, (key_node, value_node)) in enumerate(zip(keys, node.value)):
            if last[key] == index:
                self.lines[path + (key,)] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, path + (key,))
        return result

    def key(self, node: Node, path: PathKey) -> Any:
        if not isinstance(node, ScalarNode):
            raise self.error("invalid YAML: a key must be a plain value, not a list or mapping", node, path)
        return self.scalar(node, path)

    def scalar(self, node: ScalarNode, path: PathKey) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:  # an unknown tag such as !python/name
            raise self.error(f"invalid YAML: {exc.problem}", node, path) from None
        if isinstance(value, str) and _SURROGATE.search(value):
            # YAML escapes each half of a pair (`"\\ud83d\\ude00"`) on its own: put pairs together, as JSON does
            value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
            if _SURROGATE.search(value):
                raise self.error(_LONE, node, path)
        if any(node.start_mark.index <= at < node.end_mark.index for at in self.lone):
            raise self.error(_LONE, node, path)
        return value

    def error(self, message: str, node: Node, path: PathKey) -> SpecError:
        return SpecError(message, file=self.file, line=node.start_mark.line + 1, field=dotted(path))


def validate_model(model_cls: type[M], document: Document) -> M:
    """`document.data` as a `model_cls`; raises SpecErrors with one SpecError per problem, by line."""
    try:
        return model_cls.model_validate(document.data)
    except ValidationError as exc:
        raise SpecErrors(_spec_errors(model_cls, document, exc)) from None


def validate_partly(
    model_cls: type[M], document: Document, stand_ins: Mapping[str, Any] | None = None
) -> tuple[M | None, list[SpecError], list[PathKey]]:
    """`document.data` as a `model_cls` with the parts that do not validate left out, every problem of it (as
    `validate_model` names them) and the paths left out: so that what reads the model next (refs, people,
    checks) can look at the rest, and one problem does not hide the others. A part is a mapping's key (never
    a list's item, so that every later problem keeps its index); a required top-level field missing or left
    out takes its value from `stand_ins`. None when the whole does not validate (a problem of the top level)."""
    try:
        return model_cls.model_validate(document.data), [], []
    except ValidationError as exc:
        errors = _spec_errors(model_cls, document, exc)
        details = exc.errors(include_url=False)
    data = copy.deepcopy(document.data)
    left_out: list[PathKey] = []
    stand_ins = stand_ins or {}
    for _ in range(len(details) + 8):  # each round leaves out at least one more part, or stops
        changed = False
        for detail in details:
            path = _data_path(data, detail["loc"], keep_last=detail["type"] == "missing")
            if detail["type"] == "missing" and len(path) == 1 and path[0] in stand_ins:
                changed |= data.get(path[0]) != stand_ins[path[0]]
                data[path[0]] = stand_ins[path[0]]
                continue
            path = path[:-1] if detail["type"] == "missing" else path
            while path and isinstance(path[-1], int):
                path = path[:-1]
            parent = _at(data, path[:-1])
            if isinstance(parent, dict) and path and path[-1] in parent:
                del parent[path[-1]]
                left_out.append(path)
                changed = True
        if not changed:
            return None, errors, left_out
        try:
            return model_cls.model_validate(data), errors, left_out
        except ValidationError as exc:
            details = exc.errors(include_url=False)
    return None, errors, left_out


def _at(data: Any, path: PathKey) -> Any:
    """The value at `path`; None where an earlier part was left out already."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _spec_errors(model_cls: type[BaseModel], document: Document, exc: ValidationError) -> list[SpecError]:
    """Each problem pydantic found, once, by line."""
    errors: list[SpecError] = []
    for detail in exc.errors(include_url=False):
        error = _spec_error(model_cls, document, detail)
        if all(error.to_dict() != seen.to_dict() for seen in errors):
            errors.append(error)
    errors.sort(key=lambda error: error.line or 0)
    return errors


# What each pydantic error type expected, in plain words; the found value is added after.
_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "dataclass_type": "a mapping",
    "model_attributes_type": "a mapping",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
}
_EXPECTED_WITH = {
    "greater_than": "a number greater than {gt}",
    "greater_than_equal": "a number of at least {ge}",
    "less_than": "a number less than {lt}",
    "less_than_equal": "a number of at most {le}",
    "literal_error": "{expected}",
    "enum": "{expected}",
    "string_too_short": "a string of at least {min_length} characters",
    "string_too_long": "a string of at most {max_length} characters",
    "too_short": "at least {min_length} items",
    "too_long": "at most {max_length} items",
    "string_pattern_mismatch": "a string matching {pattern}",
}


def _spec_error(model_cls: type[BaseModel], document: Document, detail: Any) -> SpecError:
    kind = detail["type"]
    path = _data_path(document.data, detail["loc"], keep_last=kind == "missing")
    if kind == "missing":
        message = "required field is missing"
    elif kind in ("extra_forbidden", "unexpected_keyword_argument"):  # the latter from a dataclass
        message = f"unknown field {path[-1]!r}"
        allowed = _fields_at(model_cls, path[:-1])
        if allowed:
            message += f"; expected one of: {', '.join(allowed)}"
    elif kind in ("value_error", "assertion_error"):
        message = str(detail["ctx"]["error"])
    else:
        message = expected_found(detail)
    return SpecError(message, file=document.file, line=document.line(path), field=dotted(path))


def expected_found(detail: Any) -> str:
    """A pydantic problem of a value's type or range, in YAML's words: `expected a whole number, found 'two'`."""
    return f"expected {_expected(detail['type'], detail)}, found {describe(detail['input'])}"


def _expected(kind: str, detail: Any) -> str:
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind in _EXPECTED_WITH:
        # pydantic gives `gt=0` on a float field as 0.0; a user wrote 0
        ctx = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in detail.get("ctx", {}).items()}
        return _EXPECTED_WITH[kind].format(**ctx)
    message: str = detail["msg"]
    return message.removeprefix("Input should be ").removeprefix("expected ")


def _data_path(data: Any, loc: Sequence[Any], keep_last: bool) -> PathKey:
    """The part of a pydantic `loc` that walks the data: drops union member names and `[key]` markers."""
    path: list[Any] = []
    here = data
    for index, part in enumerate(loc):
        if (
            isinstance(here, dict)
            and part in here
            or isinstance(here, list)
            and isinstance(part, int)
            and 0 <= part < len(here)
        ):
            here = here[part]
        elif not (keep_last and index == len(loc) - 1):
            continue
        path.append(part)
    return tuple(path)


def _fields_at(model_cls: type[BaseModel], path: PathKey) -> list[str]:
    """The field names (aliases) of the model found at `path` inside `model_cls`, sorted; [] if none."""
    kinds: list[Any] = [model_cls]
    for part in path:
        kinds = [inner for kind in kinds for inner in _inner(kind, part)]
    for kind in kinds:
        for option in _options(kind):
            fields = _fields_of(option)
            if fields is not None:
                return sorted(field.alias or name for name, field in fields.items())
    return []


def _fields_of(kind: Any) -> dict[str, FieldInfo] | None:
    """The fields of a model or of a pydantic dataclass (as `slack.messages` are); None for another type."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_fields
    if is_pydantic_dataclass(kind):
        return kind.__pydantic_fields__
    return None


def _inner(kind: Any, part: Any) -> list[Any]:
    """The types a value at `part` inside a value of type `kind` may have."""
    found = []
    for option in _options(kind):
        origin = get_origin(option)
        fields = _fields_of(option)
        if fields is not None:
            found += [f.annotation for name, f in fields.items() if part in (name, f.alias)]
        elif origin in (list, tuple, set, Sequence) and isinstance(part, int):
            found.append(get_args(option)[0])
        elif origin in (dict, Mapping):
            found.append(get_args(option)[1])
    return found


def _options(kind: Any) -> list[Any]:
    """`kind` without `Annotated` and `Optional`, a union split into its members."""
    origin = get_origin(kind)
    if origin is Annotated:
        return _options(get_args(kind)[0])
    if origin in (Union, UnionType):
        return [o for arg in get_args(kind) for o in _options(arg)]
    return [kind]
