"""`soundstage validate`: ok per good file; each error as file:line: field: message; exit 2 if any."""

from __future__ import annotations

import json


def test_good_files_are_ok(bench, cli) -> None:
    result = cli("validate", "hello.yaml")

    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["hello.yaml: ok", "next: soundstage run hello.yaml --agent 'python agent.py'"]


def test_each_error_names_file_line_and_field(bench, cli) -> None:
    bench.write(
        "bad.yaml", "name: bad\ntask: 3\nseed:\n  slack:\n    channels:\n      - {name: x, members: [$ghost]}\n"
    )

    result = cli("validate", "hello.yaml", "bad.yaml")

    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "hello.yaml: ok",
        "bad.yaml:2: task: expected a string, found 3",
        "next: soundstage validate bad.yaml",
    ]


def test_json_lists_every_file(bench, cli) -> None:
    result = cli("validate", "hello.yaml", "missing.yaml", "--json")

    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "ok": False,
        "files": [
            {"file": "hello.yaml", "ok": True, "errors": []},
            {
                "file": "missing.yaml",
                "ok": False,
                "errors": [{"file": "missing.yaml", "line": None, "field": "", "message": "no such file"}],
            },
        ],
    }
