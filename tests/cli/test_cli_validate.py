"""`soundstage validate`: ok per good file; each error as file:line: field: message; exit 2 if any."""

from __future__ import annotations

import json

import pytest

from soundstage.cli import main
from soundstage.grading import KINDS as CHECK_KINDS

KINDS = ", ".join(sorted([*CHECK_KINDS, "state"]))


def test_good_files_are_ok(bench, cli) -> None:
    result = cli("validate", "hello.yaml")

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "hello.yaml: ok (scene)",
        "next: soundstage run hello.yaml --agent 'python agent.py'",
    ]


def test_each_error_names_file_line_and_field(bench, cli) -> None:
    bench.write(
        "bad.yaml", "name: bad\ntask: 3\nseed:\n  slack:\n    channels:\n      - {name: x, members: [$ghost]}\n"
    )

    result = cli("validate", "hello.yaml", "bad.yaml")

    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "hello.yaml: ok (scene)",
        "bad.yaml:2: task: expected a string, found 3",
        "bad.yaml:6: seed.slack.channels[0].members[0]: unknown ref $ghost (known refs: none)",
        "next: soundstage validate bad.yaml",
    ]


def test_json_lists_every_file(bench, cli) -> None:
    result = cli("validate", "hello.yaml", "missing.yaml", "--json")

    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "ok": False,
        "files": [
            {"file": "hello.yaml", "kind": "scene", "ok": True, "errors": [], "warnings": []},
            {
                "file": "missing.yaml",
                "kind": None,
                "ok": False,
                "errors": [{"file": "missing.yaml", "line": None, "field": "", "message": "no such file"}],
                "warnings": [],
            },
        ],
    }


def test_each_kind_of_file_is_told_by_its_content(bench, cli) -> None:
    bench.write("world.yaml", "name: tiny\nslack:\n  users: [{ref: bot, name: stagebot}]\n")
    bench.write("suite.yaml", "name: greetings\ndescription: Saying hello.\nscenes: [hello.yaml]\n")
    bench.write("library.yaml", "description: Mine.\nchecks:\n  - {id: quiet, trace: {not_called: ['*']}}\n")
    bench.write("project.yaml", "run: {trials: 2}\nchecks:\n  - {id: calm, trace: {no_errors: true}}\n")

    result = cli("validate", "hello.yaml", "world.yaml", "suite.yaml", "library.yaml", "project.yaml")

    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines() == [
        "hello.yaml: ok (scene)",
        "world.yaml: ok (world)",
        "suite.yaml: ok (suite)",
        "library.yaml: ok (library)",
        "project.yaml: ok (project)",
        "next: soundstage run hello.yaml suite.yaml --agent 'python agent.py'",
    ]


def test_each_kind_reports_its_own_fields(bench, cli) -> None:
    bench.write("suite.yaml", "name: greetings\ntags: [nothing]\nscene: [hello.yaml]\n")
    bench.write("library.yaml", "checks:\n  - {id: quiet, trace: {not_called: ['*']}, also: 1}\n")
    bench.write("project.yaml", "store: 3\nchecks:\n  - {id: calm}\n")

    result = cli("validate", "suite.yaml", "library.yaml", "project.yaml")

    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "suite.yaml:2: tags: no scene has the tag 'nothing'",
        "suite.yaml:3: scene: unknown field 'scene'; expected one of: description, name, scenes, tags",
        f"library.yaml:2: checks[0]: a check definition has exactly one kind key ({KINDS}); found trace, also",
        "project.yaml:1: store: expected a string, found 3",
        f"project.yaml:3: checks[0]: a check definition has exactly one kind key ({KINDS}); found none",
        "next: soundstage validate suite.yaml library.yaml project.yaml",
    ]


def test_a_broken_suite_sends_run_to_a_validate_that_names_file_line_and_field(bench, cli) -> None:
    (bench.root / "suites").mkdir()
    bench.write("suites/safety.yaml", "name: safety\ndescription: Doing no harm: keeping data in.\ntags: [x]\n")

    ran = cli("run", "safety", "--agent", bench.hello())
    validated = cli("validate", "suites/safety.yaml")

    broken = ":2: description: invalid YAML: mapping values are not allowed here"
    found = bench.root / "suites" / "safety.yaml"  # by its name, where the run found it
    assert ran.exit_code == 2
    assert ran.stderr.splitlines() == [f"error: {found}{broken}", f"next: soundstage validate {found}"]
    assert validated.exit_code == 2
    assert validated.stdout.splitlines() == [
        f"suites/safety.yaml{broken}",
        "next: soundstage validate suites/safety.yaml",
    ]


NARROW = (
    "name: narrow\ntask: t\nagent: {slack_user: $bot}\nseed:\n  slack:\n    users:\n"
    "      - {ref: bot, name: stagebot, is_bot: true}\n      - {ref: sam, name: sam}\n"
    "people:\n  - ref: sam\n    slack_user: $sam\n    facts:\n"
    '      - {id: value, text: "180k.", match: ["180k"], ask: ["contract value", "what they pay"]}\n'
)
NARROW_WARNING = (
    'warning: narrow.yaml:13: people[0].facts[0].ask: sam.value is asked only by these exact words ("contract '
    'value", "what they pay"): add a single word a question would use, or a phrase of the synonym table '
    '(docs/people.md, "Other words")'
)


def test_a_fact_only_exact_words_ask_for_is_warned_of_without_failing(bench, cli) -> None:
    bench.write("narrow.yaml", NARROW)

    result = cli("validate", "narrow.yaml")

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "narrow.yaml: ok (scene)",
        NARROW_WARNING,
        "next: soundstage run narrow.yaml --agent 'python agent.py'",
    ]
    files = json.loads(cli("validate", "narrow.yaml", "--json").stdout)["files"]
    assert files[0]["warnings"] == [
        {
            "file": "narrow.yaml",
            "line": 13,
            "field": "people[0].facts[0].ask",
            "message": NARROW_WARNING.partition("ask: ")[2],
        }
    ]


# A project file with every kind of problem: an unknown field, a bad value, a bad check definition.
BROKEN_PROJECT = "run:\n  agnt: python agent.py\n  trials: 0\nchecks:\n  - id: quiet\n    kind: nonsense\n"
BROKEN_LINES = [
    (
        "soundstage.yaml:2: run.agnt: unknown field 'agnt'; expected one of: agent, env, intercept, out, parallel, "
        "pass_env, strict, timeout, tls, trials"
    ),
    "soundstage.yaml:3: run.trials: expected a number of at least 1, found 0",
    (
        "soundstage.yaml:5: checks[0]: a check definition has exactly one kind key (before, decided, judge, knows, "
        "message, never, output, python, revealed, state, told, trace, within); found kind"
    ),
]


def test_a_broken_project_file_is_validated_with_every_problem(bench, cli) -> None:
    bench.write("soundstage.yaml", BROKEN_PROJECT)

    result = cli("validate", "soundstage.yaml")

    expected = [*BROKEN_LINES, "next: soundstage validate soundstage.yaml"]
    assert (result.exit_code, result.stdout.splitlines()) == (2, expected)


def test_a_project_file_that_is_not_yaml_is_validated(bench, cli) -> None:
    bench.write("soundstage.yaml", "run: [\n")

    result = cli("validate", "soundstage.yaml", "--json")

    assert result.exit_code == 2
    assert json.loads(result.stdout)["files"] == [
        {
            "file": "soundstage.yaml",
            "kind": "project",
            "ok": False,
            "errors": [
                {
                    "file": "soundstage.yaml",
                    "line": 2,
                    "field": "run",
                    "message": (
                        "invalid YAML: expected the node content, but found '<stream end>' "
                        "(while parsing a flow node on line 2)"
                    ),
                }
            ],
            "warnings": [],
        }
    ]


def test_any_file_is_validated_despite_a_broken_project_file_whose_problems_come_too(bench, cli) -> None:
    bench.write("soundstage.yaml", BROKEN_PROJECT)

    result = cli("validate", "hello.yaml")

    assert result.exit_code == 2
    where = str(bench.root / "soundstage.yaml")
    assert result.stdout.splitlines() == [
        "hello.yaml: ok (scene)",
        *(line.replace("soundstage.yaml", where, 1) for line in BROKEN_LINES),
        f"next: soundstage validate {where}",
    ]


def test_other_commands_refused_by_a_broken_project_file_point_to_validating_it(bench, cli) -> None:
    bench.write("soundstage.yaml", BROKEN_PROJECT)
    where = str(bench.root / "soundstage.yaml")

    for command in (["list"], ["runs"], ["run", "hello.yaml", "--agent", bench.hello()]):
        result = cli(*command)
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == f"next: soundstage validate {where}"


def test_a_command_missing_what_the_broken_project_file_was_to_give_points_to_validating_it(bench, capsys) -> None:
    bench.write("soundstage.yaml", "run: [\n")

    with pytest.raises(SystemExit) as exited:
        main(["run", "hello.yaml"])  # no --agent: the project file was to give it

    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        (
            f"error: {bench.root / 'soundstage.yaml'}:2: run: invalid YAML: expected the node content, but found "
            "'<stream end>' (while parsing a flow node on line 2)"
        ),
        f"next: soundstage validate {bench.root / 'soundstage.yaml'}",
    ]


def test_a_bad_check_definition_of_the_project_file_sends_checks_to_validate(bench, cli) -> None:
    bench.write("soundstage.yaml", "checks:\n  - id: quiet\n    kind: nonsense\n")

    result = cli("checks")

    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"next: soundstage validate {bench.root / 'soundstage.yaml'}"
