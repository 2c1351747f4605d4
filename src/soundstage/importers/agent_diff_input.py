"""Reading Agent-Diff's JSON files, every problem named by file and field, all of them at once.

Agent-Diff has benches for Slack, Box, Google Calendar and Linear; soundstage imports the Slack one, so a
suite of another service, or a seed without Slack's tables, is refused once, saying so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SpecError

ONLY_SLACK = "only Slack is supported (Agent-Diff's Slack bench)"
# The tables every Agent-Diff Slack seed has; a Box, Calendar or Linear seed has none of the first two.
SLACK_TABLES = ("channels", "channel_members")


@dataclass
class InputFile:
    """One JSON file whose top level is an object, and the problems found in it so far."""

    path: Path
    data: dict[str, Any]
    errors: dict[str, SpecError] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path.stem

    @classmethod
    def read(cls, path: Path) -> InputFile:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise SpecError(f"cannot be read: {exc.strerror or exc}", str(path)) from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SpecError(f"is not JSON: {exc}", str(path)) from None
        if not isinstance(data, dict):
            raise SpecError(f"expected a JSON object at the top, found {type(data).__name__}", str(path))
        return cls(path, data)

    def error(self, field: str, message: str) -> None:
        """Notes a problem (once, however often it is met)."""
        problem = SpecError(message, str(self.path), field=field)
        self.errors.setdefault(str(problem), problem)

    def is_slack_seed(self) -> bool:
        """Whether the seed has Slack's tables; if not, the one problem of the file says what it is."""
        if all(table in self.data for table in SLACK_TABLES):
            return True
        missing = " or ".join(table for table in SLACK_TABLES if table not in self.data)
        tables = ", ".join(self.data) or "none"
        self.error(
            missing.split(" ")[0],
            f"not an Agent-Diff Slack seed, having no {missing} table (its tables: {tables}): {ONLY_SLACK}",
        )
        return False

    def is_slack_suite(self) -> bool:
        """Whether the suite is for Slack (`service`, when it says); if not, its one problem says so."""
        service = self.data.get("service", "slack")
        if service == "slack":
            return True
        self.error("service", f"a suite for {service!r}, not Slack: {ONLY_SLACK}")
        return False

    def rows(self, table: str, required: list[str]) -> list[dict[str, Any]]:
        """A seed table: its objects with the `required` text fields; every other row is a problem."""
        rows = self.data.get(table, [])
        if not isinstance(rows, list):
            self.error(table, f"expected a list of rows, found {type(rows).__name__}")
            return []
        kept = []
        for n, row in enumerate(rows):
            if not isinstance(row, dict):
                self.error(f"{table}[{n}]", f"expected an object, found {type(row).__name__}")
                continue
            missing = [key for key in required if not isinstance(row.get(key), str) or not row[key]]
            for key in missing:
                self.error(f"{table}[{n}].{key}", "required text field is missing or empty")
            if not missing:
                kept.append(row)
        return kept

    def tests(self) -> list[dict[str, Any]]:
        """The suite's tests with the fields an import needs; every other test is a problem."""
        tests = self.data.get("tests")
        if not isinstance(tests, list):
            self.error("tests", "expected a list of tests")
            return []
        kept = []
        for n, test in enumerate(tests):
            if self._test_problems(f"tests[{n}]", test) == 0:
                kept.append(test)
        return kept

    def _test_problems(self, where: str, test: Any) -> int:
        if not isinstance(test, dict):
            self.error(where, "expected an object")
            return 1
        before = len(self.errors)
        for key in ("id", "prompt", "impersonate_user_id"):
            if not isinstance(test.get(key), str) or not test[key]:
                self.error(f"{where}.{key}", "required text field is missing or empty")
        assertions = test.get("assertions")
        if not isinstance(assertions, list):
            self.error(f"{where}.assertions", "expected a list of assertions")
            return 1
        for m, assertion in enumerate(assertions):
            if not isinstance(assertion, dict):
                self.error(f"{where}.assertions[{m}]", "expected an object")
                continue
            for key in ("diff_type", "entity"):
                if not isinstance(assertion.get(key), str):
                    self.error(f"{where}.assertions[{m}].{key}", "required text field is missing")
        return len(self.errors) - before
