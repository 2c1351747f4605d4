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

from .agent_diff_checks import Unexpressed, translate
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


@dataclass
class Imported:
    world: Path
    scenes: list[Path] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

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
        }


def import_agent_diff(seed_path: Path, suite_path: Path, out: Path) -> Imported:
    """Writes the world, the scenes and `report.json` under `out`; raises SpecError naming the file and
    field of a malformed input."""
    seed, suite = InputFile.read(seed_path), InputFile.read(suite_path)
    world_name = _slug(f"agent-diff-{seed.name}")
    world = world_definition(seed, world_name)
    tests = suite.tests()
    reactions = seed.rows("message_reactions", ["message_id", "user_id", "reaction_type"])
    users = {u["user_id"] for u in seed.rows("users", ["user_id", "username"])}
    ignore = suite.data.get("ignore_fields") or {}
    if not isinstance(ignore, dict):
        raise suite.error("ignore_fields", "expected an object of field lists")
    (out / "worlds").mkdir(parents=True, exist_ok=True)
    (out / "seeds").mkdir(parents=True, exist_ok=True)
    imported = Imported(out / "worlds" / f"{world_name}.yaml")
    imported.world.write_text(_header([f"From {seed.path.name} of {SOURCE}."]) + _dump(world), encoding="utf-8")
    for n, test in enumerate(tests):
        agent = test["impersonate_user_id"]
        if agent not in users:
            raise suite.error(f"tests[{n}].impersonate_user_id", f"{agent!r} is not a user of {seed.path.name}")
        checks, notes = [], []
        for m, assertion in enumerate(test["assertions"]):
            check_id = f"a{m + 1}"
            ignored = [
                *(ignore.get("global") or []),
                *(ignore.get(assertion["entity"]) or []),
                *(assertion.get("ignore_fields", assertion.get("ignore")) or []),
            ]
            if isinstance(assertion.get("description"), str):
                notes.append(f"{check_id}: {assertion['description']}")
            try:
                translation = translate(assertion, reactions, ignored)
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
            "agent": {"slack_user": f"${agent}"},
            "checks": checks,
        }
        path = out / "seeds" / f"{_slug(test['id'])}.yaml"
        lines = [f"Test {test['id']} of {suite.path.name}, from {SOURCE}.", *notes]
        path.write_text(_header(lines) + _dump(scene), encoding="utf-8")
        imported.scenes.append(path)
    (out / "report.json").write_text(
        json.dumps(imported.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return imported


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "imported"


def _header(lines: list[str]) -> str:
    return "".join(f"# {line}\n" for text in lines for line in text.splitlines())


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
