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
            {"file": "hello.yaml", "ok": True, "errors": [], "warnings": []},
            {
                "file": "missing.yaml",
                "ok": False,
                "errors": [{"file": "missing.yaml", "line": None, "field": "", "message": "no such file"}],
                "warnings": [],
            },
        ],
    }


NARROW = (
    "name: narrow\ntask: t\nagent: {slack_user: $bot}\nseed:\n  slack:\n    users:\n"
    "      - {ref: bot, name: stagebot, is_bot: true}\n      - {ref: sam, name: sam}\n"
    "people:\n  - ref: sam\n    slack_user: $sam\n    facts:\n"
    '      - {id: value, text: "180k.", match: ["180k"], ask: ["contract value", "what they pay"]}\n'
)
NARROW_WARNING = (
    'narrow.yaml:13: people[0].facts[0].ask: warning: sam.value is asked only by these exact words ("contract '
    'value", "what they pay"): add a single word a question would use, or a phrase of the synonym table '
    '(docs/people.md, "Other words")'
)


def test_a_fact_only_exact_words_ask_for_is_warned_of_without_failing(bench, cli) -> None:
    bench.write("narrow.yaml", NARROW)

    result = cli("validate", "narrow.yaml")

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "narrow.yaml: ok",
        NARROW_WARNING,
        "next: soundstage run narrow.yaml --agent 'python agent.py'",
    ]
    files = json.loads(cli("validate", "narrow.yaml", "--json").stdout)["files"]
    assert files[0]["warnings"] == [
        {
            "file": "narrow.yaml",
            "line": 13,
            "field": "people[0].facts[0].ask",
            "message": NARROW_WARNING.partition("warning: ")[2],
        }
    ]
