"""The check library from the command line: `soundstage checks` lists it with the scenes using each check,
`soundstage check --checks` re-scores with a library file, and the project file defines checks too."""

from __future__ import annotations

import json
from pathlib import Path

LIBRARY = """\
checks:
  - id: posted_in
    description: The agent posted in the channel.
    params: {channel: where}
    trace: {called: "POST /api/chat.postMessage", with: {body.channel: {equals: $channel}}}
  - id: kind_words
    judge: "The agent's message is kind."
  - id: no_errors
    trace: {no_errors: true}
"""

USES = """\
  - use: {check: posted_in, channel: $general}
  - use: no_errors
"""


def library(bench) -> None:
    (bench.root / "checks").mkdir()
    bench.write("checks/team.yaml", LIBRARY)
    (bench.root / "seeds").mkdir()
    hello = bench.scene.read_text()
    bench.write("seeds/hello.yaml", hello + USES)
    bench.write("seeds/plain.yaml", hello.replace("name: hello", "name: plain"))


def test_checks_lists_the_library_and_who_uses_each(bench, cli) -> None:
    library(bench)
    result = cli("checks", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["files"] == [str(bench.root / "checks" / "team.yaml")]
    assert [(c["id"], c["kind"], c["used_by"], c["defined_at"]) for c in shown["checks"]] == [
        ("posted_in", "trace", ["hello"], f"{bench.root / 'checks' / 'team.yaml'}:2"),
        ("kind_words", "judge", [], f"{bench.root / 'checks' / 'team.yaml'}:6"),
        ("no_errors", "trace", ["hello"], f"{bench.root / 'checks' / 'team.yaml'}:8"),
    ]
    assert shown["checks"][0]["params"] == [
        {"name": "channel", "description": "where", "required": True, "default": None}
    ]

    assert cli("checks").stdout.splitlines() == [
        "posted_in(channel) [trace]  used by 1 scene: hello",
        "    The agent posted in the channel. (checks/team.yaml:2)",
        "kind_words() [judge]  unused",
        "    (checks/team.yaml:6)",
        "no_errors() [trace]  used by 1 scene: hello",
        "    (checks/team.yaml:8)",
        "next: soundstage checks --unused",
    ]


def test_checks_filters(bench, cli) -> None:
    library(bench)

    def ids(*args: str) -> list[str]:
        return [c["id"] for c in json.loads(cli("checks", "--json", *args).stdout)["checks"]]

    assert ids("--unused") == ["kind_words"]
    assert ids("--in-scene", "hello") == ["posted_in", "no_errors"]
    assert ids("--in-scene", "plain") == []
    assert ids("--kind", "judge") == ["kind_words"]
    assert ids("--kind", "trace", "--unused") == []
    missing = cli("checks", "--in-scene", "nope")
    assert missing.exit_code != 0
    assert "no scene named 'nope' (scenes: hello, plain)" in missing.stderr


def test_a_scene_using_an_unknown_check_is_named(bench, cli) -> None:
    library(bench)
    bench.write(
        "seeds/plain.yaml", bench.scene.read_text().replace("name: hello", "name: plain") + "  - use: no_such\n"
    )
    shown = json.loads(cli("checks", "--json").stdout)
    assert shown["unknown"] == [{"scene": "plain", "check": "no_such"}]


def test_a_run_scores_library_checks_and_keeps_them(bench, cli) -> None:
    library(bench)
    result = cli("run", "seeds/hello.yaml", "--agent", bench.hello(), "--out", "runs", "--json")
    assert result.exit_code == 0, result.stdout
    trial = Path(json.loads(result.stdout)["results"][0]["folder"])
    assert [c["id"] for c in bench.json(trial / "checks.json")] == ["said_hello", "posted", "posted_in", "no_errors"]
    # The trial keeps the checks expanded: it scores the same once the library is gone.
    (bench.root / "checks" / "team.yaml").unlink()
    again = json.loads(cli("check", str(trial), "--json").stdout)
    assert [(c["id"], c["passed"]) for c in again["checks"]] == [
        ("said_hello", True),
        ("posted", True),
        ("posted_in", True),
        ("no_errors", True),
    ]


def test_check_with_a_library_file_scores_what_needs_no_argument(bench, cli) -> None:
    run = bench.run(bench.hello())
    trial = run.results[0].folder
    shared = bench.write("shared.yaml", LIBRARY)
    result = cli("check", trial, "--checks", str(shared), "--json")
    evaluation = json.loads(result.stdout)
    assert [(c["id"], c["passed"], c["source"]) for c in evaluation["checks"]] == [
        ("kind_words", None, "custom"),
        ("no_errors", True, "custom"),
    ]
    assert evaluation["skipped_checks"] == ["posted_in (needs channel)"]
    text = cli("check", trial, "--checks", str(shared)).stdout.splitlines()
    assert text[-2] == (
        "not scored, needing arguments (use them from a check list, `- use: {check: name, ...}`): "
        "posted_in (needs channel)"
    )


def test_a_check_list_uses_the_library(bench, cli) -> None:
    library(bench)
    run = bench.run(bench.hello())
    listed = bench.write(
        "more.yaml",
        "- use: {check: posted_in, channel: $general}\n- {id: x, use: {check: posted_in, channel: $genral}}\n",
    )
    result = cli("check", run.results[0].folder, "--checks", str(listed))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith(
        f"error: {listed}:2: checks[1].use.channel: unknown ref $genral (known refs: "
    )
    bench.write("more.yaml", "- use: {check: posted_in, channel: $general}\n")
    assert cli("check", run.results[0].folder, "--checks", str(listed)).exit_code == 0


def test_the_project_file_defines_checks(bench, cli) -> None:
    bench.write(
        "soundstage.yaml", "checks:\n  - id: said_it\n    params: {word: a word}\n    output: {contains: $word}\n"
    )
    bench.write("hello.yaml", bench.scene.read_text() + "  - use: {check: said_it, word: hello}\n")
    result = cli("run", "hello.yaml", "--agent", bench.hello(), "--json")
    assert result.exit_code in (0, 1), result.stdout
    trial = Path(json.loads(result.stdout)["results"][0]["folder"])
    assert [c["id"] for c in bench.json(trial / "checks.json")][-1] == "said_it"
    settings = {s["name"]: (s["value"], s["source"]) for s in json.loads(cli("config", "--json").stdout)["settings"]}
    assert settings["SOUNDSTAGE_CHECKS"] == (str(bench.root / "soundstage.yaml"), "file")
    # A problem in the project file's definitions is named at its line.
    bench.write(
        "soundstage.yaml", "checks:\n  - id: said_it\n    params: {word: a word}\n    output: {contains: hello}\n"
    )
    refused = cli("run", "hello.yaml", "--agent", bench.hello(), "--json")
    assert refused.exit_code == 2
    [error] = json.loads(refused.stdout)["error"]["errors"]
    assert (error["line"], error["field"]) == (3, "checks[0].params.word")
