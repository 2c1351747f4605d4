"""Python checks (docs/checks.md, "Python checks"): `python: module:function` or `python: {function, args,
timeout, threshold}` calls a function of the user's project with a read-only view of the attempt
(`AttemptView`) and the check's `args` as keyword arguments. It answers True or False, a score from 0 to 1, or
a `Verdict` (passed and/or score, evidence, explanation).

A function is named `module:function` (the module found on Python's path, then in the project's folder, the
scene folders and the folder holding the scene's `seeds/`), or by a name registered with `@python_check` or
by an installed distribution's `soundstage.checks` entry point. It is imported when the check is parsed, so
when a scene's image is built, before any agent starts: the grade runs the code as it was then, and the
SHA-256 of its module's file, taken then too, must still match when the check runs, else the check is
`invalid`. Anything but an answer of those shapes, an exception, or no answer within `timeout` seconds
makes the check `invalid`, never passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import importlib
import importlib.metadata
import inspect
import math
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

from pydantic import Field, PositiveFloat, PrivateAttr

from ..events import CallEvent, Event
from ..grading.attempt import Attempt
from ..grading.kinds import Args, ArgumentErrors, Kind, check_kind
from ..grading.outcome import Outcome
from ..grading.words import show
from ..spec.discovery import roots
from ..spec.project_file import find as find_project

ENTRY_POINTS = "soundstage.checks"  # the entry point group of installed checks: `name = "package.module:function"`
TIMEOUT = 30.0  # seconds a check may take by default
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

F = TypeVar("F", bound=Callable[..., Any])
_REGISTERED: dict[str, Callable[..., Any]] = {}
# The scene file whose checks are being parsed: its `seeds/` folder's parent is a place modules are found in.
_SCENE: ContextVar[Path | None] = ContextVar("python_check_scene", default=None)
# Each module file's digest when it was last imported: a module whose file changed since is imported again.
_IMPORTED: dict[str, str] = {}
_IMPORTING = threading.Lock()


@dataclass(frozen=True)
class Verdict:
    """What a Python check may answer: `passed`, a `score` from 0 to 1, or both (a score alone passes at the
    check's `threshold`); the seqs of the events it rests on; and an explanation in words."""

    passed: bool | None = None
    score: float | None = None
    evidence: Sequence[int] = ()
    explanation: str = ""

    def __post_init__(self) -> None:
        if self.passed is None and self.score is None:
            raise ValueError("a Verdict needs passed, a score, or both")
        if self.passed is not None and not isinstance(self.passed, bool):
            raise TypeError(f"Verdict.passed is True or False, got {self.passed!r}")
        if self.score is not None and not _is_score(self.score):
            raise ValueError(f"Verdict.score is a number from 0 to 1, got {self.score!r}")
        if not all(isinstance(seq, int) and not isinstance(seq, bool) for seq in self.evidence):
            raise TypeError(f"Verdict.evidence is event seqs (whole numbers), got {list(self.evidence)!r}")
        if not isinstance(self.explanation, str):
            raise TypeError(f"Verdict.explanation is text, got {self.explanation!r}")


def python_check(name: str) -> Callable[[F], F]:
    """Registers a function as the Python check `name` (`python: name` in a scene), for the Python API:
    `@python_check("reply_is_short")` on `def reply_is_short(attempt, limit=280): ...`."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"a Python check's name is letters, digits, _, . and -, not {name!r}")

    def register(function: F) -> F:
        known = _REGISTERED.get(name)
        if known is not None and known is not function:
            raise ValueError(f"the Python check {name!r} is registered twice ({_where(known)}, {_where(function)})")
        _REGISTERED[name] = function
        return function

    return register


class AttemptView:
    """What a Python check reads of an attempt: the task, the output, the final state, the diff since the start,
    the event log and the agent's calls (the trace), the scene's refs and the agent's identities. Each part is
    this check's own copy, made when first read, so what one check changes no other check sees."""

    def __init__(self, attempt: Attempt) -> None:
        self._attempt = attempt

    @property
    def task(self) -> str:
        return self._attempt.task

    @property
    def scene(self) -> str:
        return self._attempt.scene

    @property
    def output(self) -> str | None:
        """What the agent answered (`finish`, else its stdout); None when it gave nothing."""
        return self._attempt.output

    @cached_property
    def refs(self) -> dict[str, str]:
        """The scene's refs by name, without `$`: `refs["support"]` is the id `$support` stands for."""
        return dict(self._attempt.refs)

    @cached_property
    def identities(self) -> dict[str, Any]:
        """Who the agent is in each service, by the scene's `agent:` keys (`slack_user`...)."""
        return copy.deepcopy(self._attempt.identities)

    @cached_property
    def state(self) -> dict[str, list[dict[str, Any]]]:
        """The final state: each collection's records (`state["slack.messages"]`), as docs/checks.md names them."""
        return {
            name: [copy.deepcopy(dict(record)) for record in records] for name, records in self._attempt.state.items()
        }

    @cached_property
    def diff(self) -> dict[str, Any]:
        """What changed since the start, by collection: `added`, `changed` and `removed` records."""
        return copy.deepcopy(self._attempt.diff)

    @cached_property
    def events(self) -> tuple[Event, ...]:
        """The whole event log, oldest first: calls, writes, the people's events, milestones, the finish."""
        return tuple(event.model_copy(deep=True) for event in self._attempt.events)

    @cached_property
    def trace(self) -> tuple[CallEvent, ...]:
        """The agent's calls, oldest first (the events of kind `call`)."""
        return tuple(event for event in self.events if isinstance(event, CallEvent))

    def records(self, collection: str) -> list[dict[str, Any]]:
        """The final records of a collection (none when it has none)."""
        return self.state.get(collection, [])


@dataclass(frozen=True)
class Loaded:
    """A check's function as imported when the check was parsed, and the digest of its module's file then."""

    function: Callable[..., Any]
    source: Path | None
    digest: str | None

    def changed(self) -> str | None:
        """Why the module's file is no longer what was imported, or None."""
        if self.source is None or self.digest is None:
            return None
        try:
            now = _digest(self.source)
        except OSError as exc:
            return f"its module's file {self.source} can no longer be read ({exc.strerror or exc})"
        if now != self.digest:
            return f"its module's file {self.source} changed after the check was loaded, before the attempt began"
        return None


class PythonArgs(Args):
    function: str = Field(min_length=1)  # `module:function`, or a registered name
    args: dict[str, Any] = {}  # keyword arguments of the function
    timeout: PositiveFloat = TIMEOUT  # seconds
    threshold: float = Field(1.0, ge=0.0, le=1.0)  # the score at which a check answering a score alone passes
    _loaded: Loaded | None = PrivateAttr(None)

    @property
    def loaded(self) -> Loaded:
        if self._loaded is None:  # arguments made without `PythonKind.parse`: loaded when first run
            self._loaded = load_checked(self)
        return self._loaded


class PythonKind(Kind):
    """The `python` kind: its arguments are parsed, then its function is imported and its signature checked, so
    that a validator reports an unknown function or arguments it does not take at their line."""

    def parse(self, value: Any) -> Args:
        args = cast("PythonArgs", super().parse(value))
        args._loaded = load_checked(args)
        return args


def load_checked(args: PythonArgs) -> Loaded:
    """The function `args` names, found and able to take `(attempt, **args.args)`; raises ArgumentErrors."""
    try:
        loaded = load(args.function)
    except LookupError as exc:
        raise ArgumentErrors([(("function",), str(exc.args[0]))]) from None
    try:
        signature = inspect.signature(loaded.function)
    except (TypeError, ValueError) as exc:
        raise ArgumentErrors([(("function",), f"{args.function}: its signature cannot be read ({exc})")]) from None
    try:
        signature.bind(None, **args.args)
    except TypeError as exc:
        taken = f"{args.function}{signature}"
        message = f"{taken} cannot be called with the attempt and args {show(args.args, 200)}: {exc}"
        raise ArgumentErrors([(("args",) if args.args else ("function",), message)]) from None
    return loaded


def load(name: str) -> Loaded:
    """The function `name` stands for: `module:function` imported, or a registered name (by `@python_check`,
    then by entry point). Raises LookupError saying why there is none."""
    if ":" in name:
        module_name, _, attribute = name.partition(":")
        if not _DOTTED.fullmatch(module_name) or not _DOTTED.fullmatch(attribute):
            raise LookupError(f"expected module:function (dotted Python names), found {name!r}")
        module = _import(module_name)
        found: Any = module
        for part in attribute.split("."):
            found = getattr(found, part, None)
            if found is None:
                raise LookupError(f"the module {module_name} ({_file_of(module)}) has no {attribute!r}")
        return _loaded(found, name)
    registered = _REGISTERED.get(name)
    if registered is not None:
        return _loaded(registered, name)
    points = {point.name: point for point in importlib.metadata.entry_points(group=ENTRY_POINTS)}
    point = points.get(name)
    if point is None:
        known = ", ".join(sorted({*_REGISTERED, *points})) or "none"
        raise LookupError(
            f"no Python check named {name!r}: name one as module:function, or register it with @python_check or "
            f"a {ENTRY_POINTS!r} entry point (registered: {known})"
        )
    if ":" not in point.value:
        raise LookupError(f"the {ENTRY_POINTS!r} entry point {name!r} names {point.value!r}, not module:function")
    return load(point.value)


def places(scene_file: Path | None = None) -> list[Path]:
    """Where modules named `module:function` are looked for after Python's own path: the scene folders
    (SOUNDSTAGE_PATH, the current folder), the project file's folder, and the folder holding the scene's
    `seeds/` folder."""
    project = find_project(Path.cwd(), os.environ.get("SOUNDSTAGE_CONFIG"))
    scene = scene_file or _SCENE.get()
    found = [*roots(), *([project.parent] if project else []), *([scene.parent.parent] if scene else [])]
    return list(dict.fromkeys(path.absolute() for path in found))


@contextlib.contextmanager
def scene_places(scene_file: Path | None) -> Iterator[None]:
    """While checks of the scene in `scene_file` are parsed, its folder's parent is a place modules are found."""
    token = _SCENE.set(scene_file)
    try:
        yield
    finally:
        _SCENE.reset(token)


def sources(checks: Iterable[Any]) -> list[Path]:
    """The module files of the Python checks among `checks`: what the agent must not see, and what an image
    is built again for when it changes."""
    found = [
        check.args.loaded.source for check in checks if isinstance(check.args, PythonArgs) and check.args.loaded.source
    ]
    return list(dict.fromkeys(path for path in found if path is not None))


def _import(name: str) -> ModuleType:
    """The module, imported with the places on Python's path (after its own entries: a project's module never
    hides an installed one); imported again when its file changed since it was last imported here."""
    with _IMPORTING:
        for place in places():
            if str(place) not in sys.path:
                sys.path.append(str(place))
        importlib.invalidate_caches()
        try:
            module = sys.modules.get(name)
            if module is None:
                module = importlib.import_module(name)
            else:
                source = _source(module)
                known = _IMPORTED.get(str(source)) if source else None
                if source and known is not None and _digest(source) != known:
                    module = importlib.reload(module)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                where = ", ".join(map(str, places()))
                raise LookupError(f"no module named {name!r} on Python's path or in {where}") from None
            raise LookupError(f"the module {name} could not be imported: {_failure(exc)}") from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 (whatever the module's own code raised)
            raise LookupError(f"the module {name} could not be imported: {_failure(exc)}") from None
        source = _source(module)
        if source is not None:
            _IMPORTED[str(source)] = _digest(source)
        return module


def _loaded(function: Any, name: str) -> Loaded:
    if not callable(function):
        raise LookupError(f"{name} is a {type(function).__name__}, not a function")  # noqa: TRY004 (not found: a name)
    module = sys.modules.get(getattr(function, "__module__", "") or "")
    source = _source(module) if module is not None else None
    return Loaded(function, source, _digest(source) if source is not None else None)


def _source(module: ModuleType) -> Path | None:
    file = getattr(module, "__file__", None)
    path = Path(file) if file else None
    return path.resolve() if path is not None and path.suffix == ".py" and path.is_file() else None


def _file_of(module: ModuleType) -> str:
    return str(getattr(module, "__file__", None) or module.__name__)


def _where(function: Callable[..., Any]) -> str:
    code = getattr(function, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else repr(function)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _failure(exc: BaseException) -> str:
    """An exception in a user's words, with where its code raised it: `KeyError: 'x' (checks.py:12 in f)`."""
    if isinstance(exc, SyntaxError) and exc.filename:  # its own text names the file as a module's name
        return f"{type(exc).__name__}: {exc.msg} ({exc.filename}:{exc.lineno})"
    said = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    return f"{said} ({frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else said


@check_kind("python", PythonArgs, shorthand="function", kind=PythonKind)
def run_python(args: PythonArgs, attempt: Attempt) -> Outcome:
    expected = f"the Python check {args.function} to pass"
    loaded = args.loaded
    changed = loaded.changed()
    if changed is not None:
        return Outcome(None, expected, f"it was not run: {changed}", invalid=True)
    answer, failure = _call(loaded.function, AttemptView(attempt), args.args, args.timeout)
    if failure is not None:
        return Outcome(None, expected, failure, invalid=True)
    verdict = _verdict(answer)
    if verdict is None:
        shown = repr(answer) if len(repr(answer)) <= 200 else repr(answer)[:199] + "…"
        said = (
            f"it returned {shown}; a Python check answers True or False, a score from 0 to 1, or a soundstage.Verdict"
        )
        return Outcome(None, expected, said, invalid=True)
    passed = verdict.passed if verdict.passed is not None else verdict.score >= args.threshold  # type: ignore[operator]
    known = {event.seq for event in attempt.events}
    evidence = [seq for seq in verdict.evidence if seq in known]
    scored = f"a score of {verdict.score:g}" if verdict.score is not None else ("pass" if passed else "fail")
    actual = f"it answered {scored}" + (f": {verdict.explanation}" if verdict.explanation else "")
    return Outcome(passed, expected, actual, evidence, score=verdict.score)


def _verdict(answer: Any) -> Verdict | None:
    """The answer as a Verdict, or None when it is no answer a Python check may give."""
    if isinstance(answer, Verdict):
        return answer
    if isinstance(answer, bool):
        return Verdict(passed=answer)
    if isinstance(answer, (int, float)) and _is_score(answer):
        return Verdict(score=float(answer))
    return None


def _is_score(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 <= value <= 1


def _call(
    function: Callable[..., Any], view: AttemptView, kwargs: dict[str, Any], limit: float
) -> tuple[Any, str | None]:
    """The function's answer, in a thread of its own given `limit` seconds (an `async def` function's awaited
    there), and why there is none: it raised, or did not answer in time. A thread past its time is left to end
    on its own (Python cannot stop one); the check no longer waits for it."""
    box: dict[str, Any] = {}

    def call() -> None:
        try:
            answer = function(view, **copy.deepcopy(kwargs))
            box["answer"] = asyncio.run(answer) if inspect.iscoroutine(answer) else answer
        except BaseException as exc:  # noqa: BLE001 (SystemExit and the like too: the check is invalid, the run goes on)
            box["error"] = exc

    thread = threading.Thread(target=call, name="soundstage-python-check", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        return None, f"it did not answer within its timeout of {limit:g} seconds"
    if "error" in box:
        return None, f"it raised {_failure(box['error'])}"
    return box["answer"], None
