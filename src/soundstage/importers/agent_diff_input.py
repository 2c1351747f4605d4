"""Reading Agent-Diff's JSON files, every problem named by file and field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SpecError


@dataclass(frozen=True)
class InputFile:
    """One JSON file whose top level is an object."""

    path: Path
    data: dict[str, Any]

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

    def error(self, field: str, message: str) -> SpecError:
        return SpecError(message, str(self.path), field=field)

    def rows(self, table: str, required: list[str]) -> list[dict[str, Any]]:
        """A seed table: a list of objects, each with the `required` fields."""
        rows = self.data.get(table, [])
        if not isinstance(rows, list):
            raise self.error(table, f"expected a list of rows, found {type(rows).__name__}")
        for n, row in enumerate(rows):
            if not isinstance(row, dict):
                raise self.error(f"{table}[{n}]", f"expected an object, found {type(row).__name__}")
            for key in required:
                if not isinstance(row.get(key), str) or not row[key]:
                    raise self.error(f"{table}[{n}].{key}", "required text field is missing or empty")
        return rows

    def tests(self) -> list[dict[str, Any]]:
        tests = self.data.get("tests")
        if not isinstance(tests, list):
            raise self.error("tests", "expected a list of tests")
        for n, test in enumerate(tests):
            where = f"tests[{n}]"
            if not isinstance(test, dict):
                raise self.error(where, "expected an object")
            for key in ("id", "prompt", "impersonate_user_id"):
                if not isinstance(test.get(key), str) or not test[key]:
                    raise self.error(f"{where}.{key}", "required text field is missing or empty")
            if not isinstance(test.get("assertions"), list):
                raise self.error(f"{where}.assertions", "expected a list of assertions")
            for m, assertion in enumerate(test["assertions"]):
                if not isinstance(assertion, dict):
                    raise self.error(f"{where}.assertions[{m}]", "expected an object")
                for key in ("diff_type", "entity"):
                    if not isinstance(assertion.get(key), str):
                        raise self.error(f"{where}.assertions[{m}].{key}", "required text field is missing")
        return tests
