"""`soundstage check`: a finished trial scored again from its saved files, or a live world scored now."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from ..checks import CheckSpecError, rescore
from ..errors import InfrastructureError, NotFound, SpecError, UsageError
from ..runner import interrupted
from ..spec.loader import SpecErrors
from .output import JsonOption, emit, finish, handles_errors, next_step, quote, say


@handles_errors("check")
def check(
    trial: Annotated[
        Path | None, typer.Argument(help="A trial folder (runs/<run>/<scene>/<trial>).", show_default=False)
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
    json_output: JsonOption = False,
) -> None:
    """Evaluate checks on a finished trial (re-scoring its event log) or on a live world."""
    extra = _ChecksFile(checks) if checks is not None else None
    if world is not None and trial is None:
        evaluation, after = _live(world, extra), f"curl -s {quote(world.rstrip('/') + '/trace')}"
    elif trial is not None and world is None:
        evaluation, after = _saved(trial, extra), f"soundstage explain {quote(str(trial))}"
        # The run ended before this trial did (it was killed): scored on what was recorded until then.
        evaluation["interrupted"] = trial.is_dir() and interrupted(trial)
    else:
        raise UsageError("give either a trial folder or --world URL")
    if json_output:
        emit(evaluation)
    else:
        if evaluation.get("interrupted"):
            say("the run ended before this trial did (no result.json): scored on what was recorded until then")
        _print(evaluation)
        next_step(after)
    finish(3 if evaluation["invalid"] else 0 if evaluation["passed"] else 1)


def _saved(trial: Path, checks: _ChecksFile | None) -> dict[str, Any]:
    if checks is None:
        return rescore(trial).model_dump(mode="json")
    try:
        evaluation = rescore(trial, checks.raw)
    except CheckSpecError as exc:
        errors = getattr(exc, "errors", [exc])
        raise SpecErrors(
            [SpecError(e.message, file=checks.file, line=checks.line(e.path), field=e.field) for e in errors]
        ) from None
    return evaluation.model_dump(mode="json")


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
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    message = error.get("message", response.text[:200])
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
    """A `--checks` file: a YAML (or JSON) list of checks, and where each part of it is written."""

    def __init__(self, path: Path) -> None:
        self.file = str(path)
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
        if not isinstance(self.raw, list):
            raise SpecError(
                "expected a list of checks, each a mapping with an id and one kind key", file=self.file, line=1
            )

    def line(self, path: tuple[Any, ...]) -> int:
        """The line of `path` (list index, then keys), or of the deepest part of it that is written."""
        node: Node = self.node
        for part in path:
            if isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
                node = node.value[part]
            elif isinstance(node, MappingNode) and any(key.value == part for key, _ in node.value):
                node = next(value for key, value in node.value if key.value == part)
            else:
                break
        return node.start_mark.line + 1


def _print(evaluation: dict[str, Any]) -> None:
    for result in evaluation["checks"]:
        mark = {True: "pass", False: "FAIL", None: "n/a "}[result["passed"]]
        required = "" if result["required"] else " (not required)"
        say(f"{mark}  {result['id']} ({result['kind']}){required}: {result['explanation']}")
    if not evaluation["checks"]:
        say("ungraded: the scene has no checks")
        return
    verdict = "invalid" if evaluation["invalid"] else "passed" if evaluation["passed"] else "failed"
    say(
        f"{verdict}: {sum(r['passed'] is True for r in evaluation['checks'])} of {len(evaluation['checks'])} checks passed"
    )
