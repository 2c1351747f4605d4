"""Running checks on an attempt, then scoring the results. A check that raises never stops the others.

evaluate(checks, attempt, pass_ids)    # any attempt
score(world)                           # a live world, by its scene's checks
rescore(trial_dir)                     # a saved trial, from its files
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from .. import collector
from ..errors import NotFound, SpecError, UsageError
from ..events import FinishEvent
from ..grading.attempt import Attempt, SceneFile, read_log
from ..grading.outcome import EVIDENCE_LIMIT, Outcome, explain, scored
from ..world import Snapshot, World, diff_snapshots
from .library import parse_checks_with_library
from .milestones import state_predicates
from .parse import Check, check_pass_list, parse_checks
from .python import scene_places
from .results import CheckResult, Evaluation


def evaluate(checks: list[Check], attempt: Attempt, pass_ids: list[str] | None = None) -> Evaluation:
    """Every check's result; the attempt passes when every check in `pass_ids` (default: all) passed."""
    check_pass_list(pass_ids, checks)
    with collector.held():  # the log and the state are not garbage: no collection walks them meanwhile
        return Evaluation.grade([run_check(c, attempt) for c in checks], pass_ids)


def run_check(check: Check, attempt: Attempt) -> CheckResult:
    try:
        outcome = check.run(attempt)
    except Exception as exc:  # noqa: BLE001 (a bug in one check must not lose the others' results)
        outcome = Outcome(None, f"the {check.kind.name} check to run", f"it raised {type(exc).__name__}: {exc}")
    return CheckResult(
        id=check.id,
        kind=check.kind.name,
        required=True,
        passed=outcome.passed,
        score=scored(outcome),
        expected=outcome.expected,
        actual=outcome.actual,
        explanation=outcome.explanation or explain(outcome.passed, [(outcome.expected, outcome.actual)]),
        evidence=sorted(set(outcome.evidence))[:EVIDENCE_LIMIT],
        source=check.source,
        args=check.spec,
        invalid=outcome.invalid,
        weight=check.weight,
    )


def score(world: World) -> Evaluation:
    """The scene's checks over the live world as it is now."""
    return evaluate(world.checks, Attempt.from_world(world), world.pass_ids)


def score_custom(world: World, raw_checks: list[dict[str, Any]]) -> Evaluation:
    """Extra checks (`source: custom`, `use` entries from the library), `$refs` resolved against the world;
    raises CheckSpecError."""
    checks = parse_checks_with_library(raw_checks, world.refs)
    return evaluate(checks, Attempt.from_world(world))


# What the runner writes while a trial runs, so that a trial whose run was killed can still be scored: the
# state at the start, by collection and record id, and one line per write with the record as the write left
# it (null: removed). A trial that ended has its final state in state.json instead.
INITIAL_FILE = "initial.json"
WRITES_FILE = "writes.jsonl"

T = TypeVar("T")
# Readers of a trial folder, built when first used: a run scores its live worlds and reads no trial folder.
_SNAPSHOT: TypeAdapter[Snapshot] = TypeAdapter(Snapshot, config=ConfigDict(defer_build=True))


class _Written(BaseModel):
    """A line of writes.jsonl."""

    model_config = ConfigDict(defer_build=True)

    collection: str
    op: str
    id: str
    record: dict[str, Any] | None


def saved_attempt(trial_dir: Path) -> tuple[Attempt, list[Check] | None]:
    """A saved trial and its scene's checks (None when they no longer parse). The trial's world watched the
    state milestones of those checks, so the attempt knows which were watched. A trial whose run was killed
    before it ended (no state.json) is scored as far as it got: its log, and its state rebuilt from the
    start state and the writes recorded."""
    folder = Path(trial_dir)
    interrupted = folder.is_dir() and not (folder / "state.json").exists() and (folder / INITIAL_FILE).exists()
    attempt = _interrupted_attempt(folder) if interrupted else Attempt.load(folder)
    try:
        checks = _parse_saved(attempt, folder)
    except SpecError:
        return attempt, None
    attempt.watched = frozenset(p.key for p in state_predicates(checks))
    return attempt, checks


def rescore(trial_dir: Path, raw_checks: list[dict[str, Any]] | None = None) -> Evaluation:
    """A saved trial scored again: by its scene's checks, or by `raw_checks` (`source: custom`). Its `notes`
    say what the trial's files lacked (a last line cut short)."""
    attempt, checks = saved_attempt(trial_dir)
    if raw_checks is not None:
        scene_file = _scene_file(trial_dir)
        evaluation = evaluate(parse_checks_with_library(raw_checks, attempt.refs, scene_file=scene_file), attempt)
    else:
        parsed = checks if checks is not None else _parse_saved(attempt, Path(trial_dir))
        evaluation = evaluate(parsed, attempt, attempt.pass_ids)
    evaluation.notes = attempt.notes
    return evaluation


def _parse_saved(attempt: Attempt, trial_dir: Path) -> list[Check]:
    """A saved trial's scene checks, its Python checks' modules found beside the scene's folder too."""
    with scene_places(_scene_file(trial_dir)):
        return parse_checks(attempt.checks, attempt.refs)


def _scene_file(trial_dir: Path) -> Path | None:
    """The scene file a trial ran, if it is still there (its library is found beside it)."""
    try:
        source = json.loads((Path(trial_dir) / "scene.json").read_text(encoding="utf-8")).get("source")
    except (OSError, ValueError, AttributeError):
        return None
    return Path(source) if isinstance(source, str) and not source.startswith("<") and Path(source).is_file() else None


def _interrupted_attempt(folder: Path) -> Attempt:
    """The attempt of a trial folder without state.json. Its output is the one the agent gave `finish`, if it
    did before the run ended; an agent's stdout is known only once it has exited."""
    initial = _read(folder / INITIAL_FILE, _SNAPSHOT.validate_json)
    state: Snapshot = {name: dict(records) for name, records in initial.items()}
    path = folder / WRITES_FILE
    if path.exists():
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.endswith("\n"):  # cut short by the kill: that write's call never answered
                    break
                written = _read(path, _Written.model_validate_json, line, number)
                records = state.setdefault(written.collection, {})
                if written.op == "added" or written.record is None:
                    records.pop(written.id, None)  # an added record goes last, as a collection keeps them
                if written.record is not None:
                    records[written.id] = written.record
    events_file = folder / "events.jsonl"
    if not events_file.exists():
        raise NotFound(f"the trial folder {folder} has no events.jsonl")
    log = read_log(events_file)
    scene = _read(folder / "scene.json", TypeAdapter(SceneFile).validate_json)
    finish = next((event for event in reversed(log.events) if isinstance(event, FinishEvent)), None)
    names = sorted(state)
    return Attempt(
        log.events,
        state={name: list(state[name].values()) for name in names},
        diff=diff_snapshots(initial, state),
        output=finish.output if finish is not None else None,
        refs=scene.refs,
        task=scene.task,
        scene=scene.name,
        checks=scene.checks,
        pass_ids=scene.pass_ids,
        keys={name: list(state[name]) for name in names},
        identities=scene.agent,
        notes=[log.cut_short] if log.cut_short else [],
    )


def _read(path: Path, parse: Callable[[str], T], text: str | None = None, line: int | None = None) -> T:
    """`parse(text)`, the file's whole text by default; a file that is not what the runner writes is a
    usage error naming it (and the line)."""
    try:
        return parse(text if text is not None else path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotFound(f"the trial folder {path.parent} has no {path.name}") from None
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise UsageError(
            f"{path}{f':{line}' if line else ''}: {where + ': ' if where else ''}{problem['msg']}"
        ) from None
