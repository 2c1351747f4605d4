"""`soundstage check`: a finished trial, or every trial of a run, scored again from the saved files (a run's
re-scoring is written to the results store as a new evaluation of it), or a live world scored now."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import httpx
import typer
import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from ..checks import CheckResult, CheckSpecError, Evaluation, rescore
from ..checks.library import read_library_file
from ..errors import InfrastructureError, NotFound, SpecError, UsageError
from ..results import Run, SceneFigures, outcome, run_figures
from ..results.digests import changed_files
from ..results.files import RESULT_FILE, read_trial
from ..results.folders import interrupted, recorded_digests, trial_folders
from ..results.trust import files_unchanged, tampering_note
from ..spec.loader import SpecErrors
from .output import (
    JsonOption,
    checks_line,
    emit,
    finish,
    handles_errors,
    next_step,
    quote,
    say,
    scene_figures_line,
    scored,
)

if TYPE_CHECKING:  # SQLAlchemy and Alembic load when a command opens the store
    from ..store import Store

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="SOUNDSTAGE_DB",
        help="For a run folder: the results store its evaluation is written to "
        "[default: the run folder's parent's soundstage.db].",
        show_default=False,
    ),
]


@handles_errors("check")
def check(
    trial: Annotated[
        Path | None,
        typer.Argument(
            help="A trial folder (runs/<run>/<scene>/<trial>), or a run folder (runs/<run>) for all its trials.",
            show_default=False,
        ),
    ] = None,
    checks: Annotated[
        Path | None,
        typer.Option(
            "--checks", help="Score with these checks (a YAML or JSON list) instead of the scene's.", show_default=False
        ),
    ] = None,
    world: Annotated[
        str | None,
        typer.Option(
            "--world", help="A live world's control URL, http://HOST:PORT/v1/worlds/<id>.", show_default=False
        ),
    ] = None,
    db: DbOption = None,
    json_output: JsonOption = False,
) -> None:
    """Evaluate checks on a finished trial or every trial of a run (re-scoring the event logs), or on a live world."""
    extra = _ChecksFile(checks) if checks is not None else None
    if world is not None and trial is None:
        evaluation, after = _live(world, extra), f"curl -s {quote(world.rstrip('/') + '/trace')}"
    elif trial is not None and world is None:
        folders = trial_folders(trial) if trial.is_dir() else [trial]
        if folders != [trial]:
            _check_run(trial, folders, extra, db, json_output)
            return
        changed = _changed(trial, recorded_digests(trial)) if trial.is_dir() else None
        rescored = Evaluation.grade([files_unchanged(changed)]) if changed else _rescored(trial, extra)
        evaluation = rescored.model_dump(mode="json")
        evaluation["changed_since_graded"] = changed
        after = f"soundstage explain {quote(str(trial))}"
        # The run ended before this trial did (it was killed): scored on what was recorded until then.
        evaluation["interrupted"] = trial.is_dir() and interrupted(trial)
        evaluation["notes"] = rescored.notes  # what the trial's files lacked: a last line cut short
    else:
        raise UsageError("give either a trial folder, a run folder or --world URL")
    if extra is not None and extra.skipped:
        evaluation["skipped_checks"] = extra.skipped
    if json_output:
        emit(evaluation)
    else:
        if evaluation.get("interrupted"):
            say("the run ended before this trial did (no result.json): scored on what was recorded until then")
        if evaluation.get("changed_since_graded"):
            say(f"{trial}: {tampering_note(evaluation['changed_since_graded'])}; not scored")
        for note in evaluation.get("notes", []):
            say(note)
        _print(evaluation)
        _say_skipped(extra)
        next_step(after)
    finish(3 if evaluation["invalid"] else 0 if evaluation["passed"] else 1)


@dataclass(frozen=True)
class _Rescored:
    """A trial of a run scored again: where, its evaluation, and the files changed since it was graded (None:
    no digests were recorded), which leave it unscored."""

    scene: str
    trial: int
    folder: Path
    evaluation: Evaluation
    changed: list[str] | None

    @property
    def outcome(self) -> str:
        return outcome(self.evaluation.checks)

    @property
    def score(self) -> float | None:
        return self.evaluation.score  # None for an invalid trial, as its outcome says

    @property
    def checks(self) -> list[CheckResult]:
        return self.evaluation.checks


def _check_run(run: Path, folders: list[Path], checks: _ChecksFile | None, db: str | None, json_output: bool) -> None:
    """Every trial of a run scored again, each scene's figures, and the evaluation written to the store. A trial
    whose files changed since it was graded (by the digests the store, else `run.json`, recorded) is not
    scored: it is `invalid`, saying which files changed."""
    from ..store import open_store, store_url

    url = store_url(db, run.parent)
    store = open_store(url, create=False)
    try:
        stored = _stored_run(store, run)
        recorded = {(t.scene, t.trial): t.digests for t in stored.results} if stored is not None else {}
        scored = []
        for folder in folders:
            if not folder.name.isdigit():
                raise UsageError(f"{folder}: not a trial folder soundstage writes (<scene>/<trial number>)")
            digests = recorded.get((folder.parent.name, int(folder.name))) or recorded_digests(folder)
            changed = _changed(folder, digests)
            evaluation = Evaluation.grade([files_unchanged(changed)]) if changed else _rescored(folder, checks)
            scored.append(_Rescored(folder.parent.name, int(folder.name), folder, evaluation, changed))
        written = _store_evaluation(run, store, url, stored, checks, scored)
    finally:
        if store is not None:
            store.close()
    figures = run_figures(scored)
    document: dict[str, Any] = {
        "folder": str(run),
        "run_id": run.name,
        "checks_file": checks.file if checks is not None else None,
        "skipped_checks": checks.skipped if checks is not None else [],
        "passed": all(trial.evaluation.passed for trial in scored),
        "invalid": any(trial.evaluation.invalid for trial in scored),
        "figures": [scene.model_dump(mode="json") for scene in figures],
        "trials": [
            {
                "scene": trial.scene,
                "trial": trial.trial,
                "folder": str(trial.folder),
                "outcome": trial.outcome,
                "interrupted": interrupted(trial.folder),
                "changed_since_graded": trial.changed,
                "notes": trial.evaluation.notes,
                **trial.evaluation.model_dump(mode="json"),
            }
            for trial in scored
        ],
        **written,
    }
    if json_output:
        emit(document)
    else:
        _say_skipped(checks)
        _print_run(document, figures, db)
    finish(3 if document["invalid"] else 0 if document["passed"] else 1)


def _stored_run(store: Store | None, run: Path) -> Run | None:
    """The run folder's run as its store holds it: None when the store does not hold it, or holds another
    folder's run of the same id (run ids are wall times)."""
    stored = store.run(run.name) if store is not None else None
    return stored if stored is not None and Path(stored.folder).resolve() == run.resolve() else None


def _changed(trial: Path, digests: dict[str, str] | None) -> list[str] | None:
    """The trial's files that changed since it was graded; None when no digests were recorded for it."""
    return changed_files(trial, digests) if digests else None


def _store_evaluation(
    run: Path,
    store: Store | None,
    url: str,
    stored: Run | None,
    checks: _ChecksFile | None,
    scored: list[_Rescored],
) -> dict[str, Any]:
    """Writes the run's new evaluation to its store (`--db`, else the run folder's parent's soundstage.db),
    which holds the run as `stored`. A run the store does not hold (or no store at all) is no error: the note
    says the evaluation is not stored."""
    if store is None:
        return {"store": url, "evaluation": None, "note": f"no results store at {url}: this evaluation is not stored"}
    if stored is None:
        again = store.run(run.name)
        if again is not None:  # run ids are wall times: another folder's run
            other = f"the run {run.name} of the results store {store.shown} is the one in {again.folder}: "
            return {"store": store.shown, "evaluation": None, "note": other + "this evaluation is not stored"}
        missing = f"the results store {store.shown} has no run {run.name}: this evaluation is not stored"
        return {"store": store.shown, "evaluation": None, "note": missing}
    held = {(trial.scene, trial.trial) for trial in stored.results}
    written = {(trial.scene, trial.trial): trial.checks for trial in scored if (trial.scene, trial.trial) in held}
    if not written:
        missing = f"the results store {store.shown} holds none of these trials (the run ended before they did): "
        return {"store": store.shown, "evaluation": None, "note": missing + "this evaluation is not stored"}
    number = store.add_evaluation(
        run.name,
        written,
        "file" if checks is not None else "scene",
        checks.file if checks is not None else None,
        datetime.now(UTC),
    )
    left = len(scored) - len(written)
    note = f"{left} trial(s) the store does not hold (the run ended before they did) are not in it" if left else None
    return {"store": store.shown, "evaluation": number, "note": note}


def _rescored(trial: Path, checks: _ChecksFile | None) -> Evaluation:
    unstarted = _not_started(trial)
    if unstarted is not None:  # its agent never ran: nothing of the world is its doing, any checks would fail
        return Evaluation.grade([unstarted])
    if checks is None:
        return rescore(trial)
    try:
        return rescore(trial, checks.raw)
    except CheckSpecError as exc:
        errors = getattr(exc, "errors", [exc])
        raise SpecErrors(
            [SpecError(e.message, file=checks.file, line=checks.line(e.path), field=e.field) for e in errors]
        ) from None


def _not_started(trial: Path) -> CheckResult | None:
    """The result a trial whose agent could not be started was graded by (results.trial.not_started), as its
    folder holds it; None for any other trial."""
    if not (trial / RESULT_FILE).is_file():
        return None
    saved = read_trial(trial)
    if saved.finish_reason != "not_run":
        return None
    return next((check for check in saved.checks if check.source == "soundstage" and check.id == "agent_started"), None)


def _live(url: str, checks: _ChecksFile | None) -> dict[str, Any]:
    """GET <world>/checks, or POST the file's checks there (the server parses them)."""
    token = os.environ.get("SOUNDSTAGE_ADMIN_TOKEN")
    headers = {"authorization": f"Bearer {token}"} if token else {}
    target = url.rstrip("/") + "/checks"
    try:
        if checks is None:
            response = httpx.get(target, headers=headers, timeout=60)
        else:
            response = httpx.post(target, json={"checks": checks.raw}, headers=headers, timeout=60)
    except httpx.HTTPError as exc:
        raise InfrastructureError(f"cannot reach {url}: {exc}") from None
    body = _json_body(response)
    error = body.get("error")
    message = error.get("message", response.text[:200]) if isinstance(error, dict) else response.text[:200]
    if response.status_code == 404:
        raise NotFound(f"{url}: {message}")
    if response.status_code != 200 or "passed" not in body:
        raise UsageError(f"{target} answered {response.status_code}: {message}")
    return body


def _json_body(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


class _ChecksFile:
    """A `--checks` file and where each part of it is written: a YAML (or JSON) list of checks (`use`
    entries name library checks), or a library file (`checks:` definitions), whose checks that need no
    argument are the ones scored."""

    def __init__(self, path: Path) -> None:
        self.file = str(path)
        self.at: tuple[Any, ...] = ()  # where the list is in the file
        self.skipped: list[str] = []  # a library's checks that need arguments
        self.positions: list[int] = []  # a library's: where each scored check is in its `checks`
        try:
            loader = yaml.SafeLoader(path.read_text(encoding="utf-8"))
            try:
                self.node = loader.get_single_node()
                self.raw = loader.construct_document(self.node) if self.node is not None else None
            finally:
                loader.dispose()
        except FileNotFoundError:
            raise SpecError("no such file", file=self.file) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(f"cannot read the file: {exc}", file=self.file) from None
        except yaml.MarkedYAMLError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark else None
            raise SpecError(f"invalid YAML: {exc.problem}", file=self.file, line=line) from None
        if isinstance(self.raw, dict) and "checks" in self.raw:
            self.raw = self._library(path)
        elif not isinstance(self.raw, list):
            raise SpecError(
                "expected a list of checks, each a mapping with an id and one kind key, or a check library "
                "(a mapping with `checks`)",
                file=self.file,
                line=1,
            )

    def _library(self, path: Path) -> list[dict[str, Any]]:
        """The library's checks that need no argument, expanded (with their parameters' defaults)."""
        self.at = ("checks",)
        raw: list[dict[str, Any]] = []
        for i, definition in enumerate(read_library_file(path)):
            needed = [name for name, param in definition.params.items() if param.required]
            if needed:
                self.skipped.append(f"{definition.name} (needs {', '.join(needed)})")
                continue
            body, _ = definition.expand({}, len(raw))
            raw.append({"id": definition.name, **body})
            self.positions.append(i)
        return raw

    def line(self, path: tuple[Any, ...]) -> int:
        """The line of `path` (list index, then keys), or of the deepest part of it that is written."""
        node: Node | None = self.node
        if self.positions and path and isinstance(path[0], int):
            path = (self.positions[path[0]], *path[1:])
        for part in self.at + tuple(path):
            if isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
                node = node.value[part]
            elif isinstance(node, MappingNode) and any(key.value == part for key, _ in node.value):
                node = next(value for key, value in node.value if key.value == part)
            else:
                break
        return node.start_mark.line + 1 if node is not None else 1  # an empty file: its first line


def _say_skipped(checks: _ChecksFile | None) -> None:
    if checks is not None and checks.skipped:
        say(
            "not scored, needing arguments (use them from a check list, `- use: {check: name, ...}`): "
            + ", ".join(checks.skipped)
        )


def _print(evaluation: dict[str, Any]) -> None:
    for result in evaluation["checks"]:
        mark = {True: "pass", False: "FAIL", None: "n/a "}[result["passed"]]
        required = "" if result["required"] else " (not required)"
        say(f"{mark}  {result['id']} ({result['kind']}){required}: {result['explanation']}")
    if not evaluation["checks"]:
        say("ungraded: the scene has no checks")
        return
    verdict = "invalid" if evaluation["invalid"] else "passed" if evaluation["passed"] else "failed"
    # A live world's server of an earlier version answers no score.
    score = f", score {scored(evaluation['score'])}" if evaluation.get("score") is not None else ""
    say(
        f"{verdict}: {sum(r['passed'] is True for r in evaluation['checks'])} of {len(evaluation['checks'])} "
        f"checks passed{score}"
    )


def _print_run(document: dict[str, Any], figures: list[SceneFigures], db: str | None) -> None:
    """A line per trial (its outcome, and the required checks that did not pass), then each scene's `figures`
    and its checks' pass rates, and where the evaluation was written."""
    for trial in document["trials"]:
        failing = [c["id"] for c in trial["checks"] if c["required"] and c["passed"] is not True]
        why = f": {', '.join(failing)}" if trial["outcome"] in ("failed", "invalid") and failing else ""
        note = " (the run ended before this trial did: scored on what was recorded)" if trial["interrupted"] else ""
        if trial["changed_since_graded"]:
            note = f" ({tampering_note(trial['changed_since_graded'])}: not scored)"
        say(f"{trial['scene']} #{trial['trial']}: {trial['outcome']}{why}{note}")
        for line in trial["notes"]:
            say(f"  {line}")
    for scene in figures:
        say(scene_figures_line(scene))
        rates = checks_line(scene)
        if rates:
            say(rates)
    if document["evaluation"] is not None:
        say(f"evaluation {document['evaluation']} of run {document['run_id']}, written to {document['store']}")
    if document["note"]:
        say(document["note"])
    if document["evaluation"] is not None:
        words = " --db ..." if db else ""
        next_step(f"soundstage show {quote(document['run_id'])} --evaluation {document['evaluation']}{words}")
    else:
        next_step(f"soundstage explain {quote(document['folder'])}")
