"""`soundstage import agent-diff`: what it prints, `--json`, and exit 2 naming the file and field of bad input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from soundstage.cli import app

DATA = Path(__file__).resolve().parent / "agent_diff"


def invoke(*args: str):
    return CliRunner().invoke(app, ["import", "agent-diff", *args], env={"SOUNDSTAGE_JSON": ""})


def test_it_prints_the_figures_and_every_assertion_left_out(tmp_path: Path) -> None:
    result = invoke(str(DATA / "seed.json"), str(DATA / "suite.json"), str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        f"{tmp_path}/worlds/agent-diff-seed.yaml: world",
        f"16 scenes in {tmp_path}/seeds",
        "41 assertions: 38 expressed exactly, 1 with a caveat, 2 not expressed",
    ]
    assert [line.split(":")[0] for line in lines[3:6]] == ["  test_14 a1", "  test_23 a1", "  test_27 a2"]
    assert lines[4].startswith("  test_23 a1: not expressed: rich_text_section is in every one of the rich_text")
    assert lines[6:8] == [
        "1 warning:",
        (
            "  test_50: no attempt can pass: a2 and a3 cannot both hold (the channels row C_OLD_PROJECT): a2 needs"
            " channel_name, is_archived changed, and a3 lets it change only topic_text; and a3 needs topic_text"
            " changed, and a2 lets it change only channel_name, is_archived"
        ),
    ]
    assert lines[-1] == f"next: soundstage validate {tmp_path}/worlds/agent-diff-seed.yaml {tmp_path}/seeds/test_1.yaml"


def test_json_is_the_report(tmp_path: Path) -> None:
    result = invoke(str(DATA / "seed.json"), str(DATA / "suite.json"), str(tmp_path), "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report == json.loads((tmp_path / "report.json").read_text())
    assert (report["assertions"], report["unexpressed"]) == (41, 2)


def test_bad_input_exits_2_naming_the_file_and_field(tmp_path: Path) -> None:
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps({"tests": [{"id": "t", "prompt": "p", "assertions": []}]}))
    result = invoke(str(DATA / "seed.json"), str(suite), str(tmp_path / "out"))
    assert result.exit_code == 2
    assert (
        result.stderr.splitlines()[0]
        == f"error: {suite}: tests[0].impersonate_user_id: required text field is missing or empty"
    )
    result = invoke(str(tmp_path / "nope.json"), str(suite), str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == f"error: {tmp_path}/nope.json: cannot be read: No such file or directory"


def test_a_suite_of_another_service_exits_2_with_one_error_and_writes_nothing(tmp_path: Path) -> None:
    suite = tmp_path / "box_bench.json"
    tests = [{"id": f"t{n}", "prompt": "p", "impersonate_user_id": "27512847635", "assertions": []} for n in range(3)]
    suite.write_text(json.dumps({"service": "box", "tests": tests}))
    result = invoke(str(DATA / "seed.json"), str(suite), str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {suite}: service: a suite for 'box', not Slack: only Slack is supported (Agent-Diff's Slack bench)",
        "next: soundstage import agent-diff --help",
    ]
    assert not (tmp_path / "out").exists()
