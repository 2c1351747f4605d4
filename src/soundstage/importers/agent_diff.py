"""`import_agent_diff`: an Agent-Diff Slack seed and test suite as a world definition and one scene per test.

The output folder gets `worlds/<seed>.yaml`, `seeds/<test id>.yaml` (which find the world beside their
folder) and `report.json`: per test, each assertion expressed as a check, or why it could not be.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import UsageError
from ..spec.loader import SpecErrors
from .agent_diff_checks import Unexpressed, translate
from .agent_diff_conflicts import conflicts, demand
from .agent_diff_input import InputFile
from .agent_diff_seed import world_definition

SOURCE = "Agent-Diff (https://github.com/agent-diff-bench/agent-diff), MIT License, Copyright (c) 2025 Hubert Pysklo"


@dataclass
class Outcome:
    """One assertion: its check id, and why it is not expressed (or in which case it is inexact)."""

    test: str
    index: int
    check_id: str
    unexpressed: str | None = None
    caveat: str | None = None


@dataclass(frozen=True)
class Warning:
    """A test no attempt can pass as Agent-Diff grades it, and why."""

    test: str
    text: str


@dataclass(frozen=True)
class Seed:
    """What the checks need of the seed: its reactions, and its memberships as (channel id, user id)."""

    reactions: list[dict[str, Any]]
    members: frozenset[tuple[str, str]]


@dataclass
class Imported:
    world: Path
    scenes: list[Path] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)

    @property
    def expressed(self) -> int:
        return sum(o.unexpressed is None and o.caveat is None for o in self.outcomes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "world": str(self.world),
            "scenes": [str(p) for p in self.scenes],
            "assertions": len(self.outcomes),
            "expressed": self.expressed,
            "expressed_with_caveat": sum(o.caveat is not None for o in self.outcomes),
            "unexpressed": sum(o.unexpressed is not None for o in self.outcomes),
            "details": [
                {"test": o.test, "assertion": o.index, "check": o.check_id}
                | ({"unexpressed": o.unexpressed} if o.unexpressed else {})
                | ({"caveat": o.caveat} if o.caveat else {})
                for o in self.outcomes
                if o.unexpressed or o.caveat
            ],
            "warnings": [{"test": w.test, "warning": w.text} for w in self.warnings],
        }


def import_agent_diff(seed_path: Path, suite_path: Path, out: Path) -> Imported:
    """Writes the world, the scenes and `report.json` under `out`; raises SpecError naming the file and
    field of every problem of the inputs, having written nothing."""
    seed, suite = InputFile.read(seed_path), InputFile.read(suite_path)
    world_name = _slug(f"agent-diff-{seed.name}")
    slack_seed, slack_suite = seed.is_slack_seed(), suite.is_slack_suite()
    world = world_definition(seed, world_name) if slack_seed else {}
    tests = suite.tests() if slack_suite else []
    reactions = seed.rows("message_reactions", ["message_id", "user_id", "reaction_type"]) if slack_seed else []
    users = {u["user_id"] for u in seed.rows("users", ["user_id", "username"])} if slack_seed else set()
    members = frozenset(
        (m["channel_id"], m["user_id"]) for m in seed.rows("channel_members", ["channel_id", "user_id"]) if slack_seed
    )
    ignore = suite.data.get("ignore_fields") or {}
    if not isinstance(ignore, dict):
        suite.error("ignore_fields", "expected an object of field lists")
        ignore = {}
    for n, test in enumerate(suite.data.get("tests") or [] if slack_seed and slack_suite else []):
        agent = test.get("impersonate_user_id") if isinstance(test, dict) else None
        if isinstance(agent, str) and agent and agent not in users:
            suite.error(f"tests[{n}].impersonate_user_id", f"{agent!r} is not a user of {seed.path.name}")
    problems = [*seed.errors.values(), *suite.errors.values()]
    if problems:
        raise problems[0] if len(problems) == 1 else SpecErrors(problems)
    imported = Imported(out / "worlds" / f"{world_name}.yaml")
    files = {imported.world: _header([f"From {seed.path.name} of {SOURCE}."]) + _dump(world)}
    for test in tests:
        path = out / "seeds" / f"{_slug(test['id'])}.yaml"
        files[path] = _scene(test, suite, world_name, Seed(reactions, members), ignore, imported)
        imported.scenes.append(path)
    files[out / "report.json"] = json.dumps(imported.to_dict(), indent=2, ensure_ascii=False) + "\n"
    _write(files)
    return imported


def _scene(
    test: dict[str, Any],
    suite: InputFile,
    world_name: str,
    seed: Seed,
    ignore: dict[str, Any],
    imported: Imported,
) -> str:
    """A test as a scene's text: its checks, and in comments what each assertion says or why it is not said."""
    checks, notes, demands = [], [], []
    for m, assertion in enumerate(test["assertions"]):
        check_id = f"a{m + 1}"
        ignored = [
            *(ignore.get("global") or []),
            *(ignore.get(assertion["entity"]) or []),
            *(assertion.get("ignore_fields", assertion.get("ignore")) or []),
        ]
        if isinstance(assertion.get("description"), str):
            notes.append(f"{check_id}: {assertion['description']}")
        found = demand(check_id, assertion, ignored)
        if found is not None:
            demands.append(found)
        try:
            translation = translate(assertion, seed.reactions, ignored, seed.members)
        except Unexpressed as exc:
            imported.outcomes.append(Outcome(test["id"], m + 1, check_id, unexpressed=str(exc)))
            notes.append(f"{check_id}: NOT EXPRESSED: {json.dumps(assertion, ensure_ascii=False)}")
            notes.append(f"  why: {exc}")
            continue
        imported.outcomes.append(Outcome(test["id"], m + 1, check_id, caveat=translation.caveat))
        if translation.caveat:
            notes.append(f"{check_id}: inexact when {translation.caveat}")
        checks.append({"id": check_id, "state": translation.check})
        if translation.only is not None:
            checks.append({"id": f"{check_id}_only", "state": translation.only})
            notes.append(f"{check_id}_only: part of {check_id}: no record it matches changed another field")
    scene = {
        "name": _slug(test["id"]),
        "description": test.get("name") or test["id"],
        "world": world_name,
        "task": test["prompt"],
        "agent": {"slack_user": f"${test['impersonate_user_id']}"},
        "checks": checks,
    }
    warnings = [f"no attempt can pass: {conflict}" for conflict in conflicts(demands)]
    imported.warnings += [Warning(test["id"], text) for text in warnings]
    lines = [f"Test {test['id']} of {suite.path.name}, from {SOURCE}.", *(f"WARNING: {w}" for w in warnings), *notes]
    return _header(lines) + _dump(scene)


def _write(files: dict[Path, str]) -> None:
    """Writes every file, or, when one cannot be written, none: what was made so far is removed again."""
    made: list[Path] = []
    try:
        for path, text in files.items():
            for folder in reversed([path.parent, *path.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    made.append(folder)
            path.write_text(text, encoding="utf-8")
            made.append(path)
    except OSError as exc:
        for done in reversed(made):
            done.rmdir() if done.is_dir() else done.unlink()
        raise UsageError(f"{exc.filename or path}: cannot be written: {exc.strerror or exc}") from None


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "imported"


def _header(lines: list[str]) -> str:
    return "".join(f"# {line}\n" for text in lines for line in text.splitlines())


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
