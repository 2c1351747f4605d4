"""`soundstage compare RUN_A RUN_B`: what got better and worse, the trials behind it, and the exit code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runs import write_run


def test_a_regression_exits_1_naming_the_trials(bench, cli) -> None:
    write_run(Path("runs/a"), {"hello": [{"posted": True}, {"posted": True}], "bye": [{"left": False}]})
    write_run(Path("runs/b"), {"hello": [{"posted": True}, {"posted": False}], "bye": [{"left": True}]})

    result = cli("compare", "runs/a", "runs/b")

    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "A: runs/a",
        "B: runs/b",
        "bye: A 0/1 passed (pass@1 0%, mean score 0.00); B 1/1 passed (pass@1 100%, mean score 1.00)",
        "  left: 0% -> 100%",
        "hello: A 2/2 passed (pass@1 100%, mean score 1.00); B 1/2 passed (pass@1 50%, mean score 0.50)",
        "  posted: 100% -> 50%",
        "worse: 2",
        "  hello: 100% -> 50%; every trial passed in A; these trials of B did not:",
        "    runs/b/hello/2",
        "  hello / posted: 100% -> 50%; these trials of B did not pass it:",
        "    runs/b/hello/2",
        "better: 1",
        "  bye / left: 0% -> 100%; these trials of A did not pass it:",
        "    runs/a/bye/1",
        "scores: 2",
        "  bye: mean score 0.00 -> 1.00 (+1.00); these trials of A scored below B's mean:",
        "    runs/a/bye/1",
        "  hello: mean score 1.00 -> 0.50 (-0.50); these trials of B scored below A's mean:",
        "    runs/b/hello/2",
        "regressed: yes",
        "next: soundstage explain runs/b",
    ]


def test_no_regression_exits_0_and_json_is_one_document(bench, cli) -> None:
    write_run(Path("runs/a"), {"hello": [{"posted": False, "tidy": True}]}, optional=("tidy",))
    write_run(Path("runs/b"), {"hello": [{"posted": True, "tidy": False}]}, optional=("tidy",))

    human = cli("compare", "runs/a", "runs/b")
    document = cli("compare", "runs/a", "runs/b", "--json")

    assert (human.exit_code, document.exit_code) == (0, 0)
    assert "  tidy (not required): 100% -> 0%" in human.stdout.splitlines()
    assert human.stdout.splitlines()[-2:] == ["regressed: no", "next: soundstage explain runs/b"]
    comparison = json.loads(document.stdout)
    assert (comparison["a"], comparison["b"], comparison["regressed"]) == ("runs/a", "runs/b", False)
    assert [(c["check"], c["regression"]) for c in comparison["worse"]] == [("tidy", False)]
    assert [c["check"] for c in comparison["better"]] == ["posted"]
    assert document.stderr == ""


def test_a_folder_that_is_no_run_exits_2(bench, cli) -> None:
    write_run(Path("runs/a"), {"hello": [{"posted": True}]})

    result = cli("compare", "runs/a", "runs/none")
    document = cli("compare", "runs/a", "runs/none", "--json")

    assert result.exit_code == document.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: runs/none: no such run folder",
        "next: soundstage compare --help",
    ]
    assert json.loads(document.stdout)["error"]["type"] == "NotFound"


def test_two_real_runs(bench, cli) -> None:
    good = bench.run(bench.hello(), trials=2)
    bad = bench.run(bench.agent("exit", "0"), trials=2)

    worse = cli("compare", str(good.folder), str(bad.folder), "--json")
    better = cli("compare", str(bad.folder), str(good.folder), "--json")

    assert (worse.exit_code, better.exit_code) == (1, 0)
    assert [(c["check"], c["a"], c["b"]) for c in json.loads(worse.stdout)["worse"]] == [
        (None, 1.0, 0.0),
        ("said_hello", 1.0, 0.0),
        ("posted", 1.0, 0.0),
    ]
    assert json.loads(better.stdout)["better"][0]["trials"] == [
        str(Path(bad.folder) / "hello" / "1"),
        str(Path(bad.folder) / "hello" / "2"),
    ]
