"""The results store from the command line: `run` writes it (`--db`, SOUNDSTAGE_DB, or OUT/soundstage.db),
`runs` lists it, `show` summarises a run, and a store that cannot be reached stops `run` before any agent."""

from __future__ import annotations

import json


def run_ids(bench) -> list[str]:
    return sorted(path.name for path in (bench.root / "runs").iterdir() if path.is_dir())


def test_runs_and_show_read_what_run_wrote(bench, cli, store_url: str) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--trials", "2", "--db", store_url).exit_code == 0
    assert cli("run", "hello.yaml", "--agent", bench.agent("exit", "0"), "--db", store_url).exit_code == 1
    first, second = run_ids(bench)

    listed = cli("runs", "--db", store_url, "--json")
    shown = cli("show", second, "--db", store_url, "--json")

    assert listed.exit_code == 0 and shown.exit_code == 0
    runs = json.loads(listed.stdout)["runs"]
    assert [(r["run_id"], r["trials_written"], r["trials_passed"], r["exit_code"]) for r in runs] == [
        (second, 1, 0, 1),
        (first, 2, 2, 0),
    ]
    assert runs[1]["folder"] == f"runs/{first}" and runs[1]["scenes"] == ["hello.yaml"]
    summary = json.loads(shown.stdout)
    assert summary["run"]["run_id"] == second and summary["run"]["agent"] == bench.agent("exit", "0")
    [scene] = summary["scenes"]
    assert (scene["scene"], scene["passed"], [t["outcome"] for t in scene["trials"]]) == ("hello", 0, ["failed"])
    assert [(c["trial"], c["id"], c["passed"]) for c in scene["failing_checks"]] == [
        (1, "said_hello", False),
        (1, "posted", False),
    ]


def test_human_output_ends_with_a_next_line(bench, cli, store_url: str) -> None:
    cli("run", "hello.yaml", "--agent", bench.agent("exit", "0"), "--db", store_url)
    [run_id] = run_ids(bench)

    listed = cli("runs", "--db", store_url)
    shown = cli("show", run_id, "--db", store_url)

    assert listed.exit_code == 0, listed.output
    assert run_id in listed.stdout and " 0/1 " in listed.stdout
    assert listed.stdout.splitlines()[-2] == f"{run_id}: hello pass@1 0%, pass^1 0%, mean score 0.00"
    assert listed.stdout.splitlines()[-1] == f"next: soundstage show {run_id} --db ..."
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert any(line.split("│")[1:3] == [" hello ", " 0/1    "] for line in lines if "│" in line)
    assert any(line.startswith("hello #1: said_hello (") and " failed: " in line for line in lines)
    assert lines[-2:] == [f"run folder: runs/{run_id}", f"next: soundstage explain runs/{run_id}"]


def test_the_default_store_is_soundstage_db_beside_the_run_folders(bench, cli, monkeypatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_DB", raising=False)
    assert cli("runs").stdout.splitlines() == [
        "no runs in the store sqlite:///runs/soundstage.db",
        "next: soundstage run seeds/<name>.yaml --agent 'python agent.py' --out runs",
    ]
    assert not (bench.root / "runs").exists()  # reading makes no store

    cli("run", "hello.yaml", "--agent", bench.hello())
    [run_id] = run_ids(bench)

    assert (bench.root / "runs" / "soundstage.db").is_file()
    listed = cli("runs")
    assert listed.stdout.splitlines()[-1] == f"next: soundstage show {run_id}"
    assert cli("show", run_id).stdout.splitlines()[-1] == "next: soundstage runs"


def test_soundstage_db_names_the_store(bench, cli, store_url: str) -> None:
    cli("run", "hello.yaml", "--agent", bench.hello(), env={"SOUNDSTAGE_DB": store_url})
    [run_id] = run_ids(bench)

    listed = cli("runs", "--json", env={"SOUNDSTAGE_DB": store_url})

    assert [r["run_id"] for r in json.loads(listed.stdout)["runs"]] == [run_id]
    assert not (bench.root / "runs" / "soundstage.db").exists()


def test_an_unknown_run_exits_2_naming_the_known_ones(bench, cli, store_url: str) -> None:
    cli("run", "hello.yaml", "--agent", bench.hello(), "--db", store_url)
    [run_id] = run_ids(bench)

    shown = cli("show", "nope", "--db", store_url)
    as_json = cli("show", "nope", "--db", store_url, "--json")

    assert shown.exit_code == 2
    assert shown.stderr.splitlines() == [
        f"error: no run 'nope' in the results store; known runs, newest first: {run_id}",
        "next: soundstage show --help",
    ]
    assert as_json.exit_code == 2
    assert json.loads(as_json.stdout)["error"]["type"] == "NotFound"


def test_an_unreachable_store_exits_3_before_any_agent_starts(bench, cli) -> None:
    url = "postgresql://postgres@127.0.0.1:1/test"

    ran = cli("run", "hello.yaml", "--agent", bench.hello(), "--db", url)
    listed = cli("runs", "--db", url)
    shown = cli("show", "x", "--db", url, "--json")

    assert ran.exit_code == 3
    assert ran.stderr.startswith(f"error: cannot reach the results store {url}: ")
    assert not (bench.root / "seen.json").exists() and not (bench.root / "runs").exists()
    assert listed.exit_code == 3 and shown.exit_code == 3
    assert json.loads(shown.stdout)["error"]["message"].startswith(f"cannot reach the results store {url}")


def test_show_gives_each_evaluation_and_the_newest_by_default(bench, cli, store_url: str) -> None:
    cli("run", "hello.yaml", "--agent", bench.hello(), "--trials", "3", "--db", store_url)
    [run_id] = run_ids(bench)
    bench.write("bye.yaml", "- id: said_bye\n  state: {slack.message: {channel: $general, text_contains: bye}}\n")
    assert cli("check", f"runs/{run_id}", "--checks", "bye.yaml", "--db", store_url).exit_code == 1

    newest = cli("show", run_id, "--db", store_url)
    own = json.loads(cli("show", run_id, "--db", store_url, "--evaluation", "0", "--json").stdout)
    unknown = cli("show", run_id, "--db", store_url, "--evaluation", "5")
    human = cli("runs", "--db", store_url).stdout.splitlines()
    listed = json.loads(cli("runs", "--db", store_url, "--json").stdout)["runs"]

    assert newest.exit_code == 0, newest.output
    lines = newest.stdout.splitlines()
    assert lines[1].startswith("evaluation 0: the run's own grading, ")
    assert lines[2].startswith("evaluation 1: the checks of bye.yaml, ")
    assert lines[3] == "shown: evaluation 1 (the newest)"
    outcomes = " #1 failed (score 0.00) #2 failed (score 0.00) #3 failed (score 0.00) "
    assert any(line.split("│")[1:4] == [" hello ", " 0/3    ", outcomes] for line in lines)
    assert (
        "hello: 0/3 passed, pass@1 0%, pass@3 0%, pass^3 0%, mean score 0.00; k=1..3: pass@k 0% 0% 0%, pass^k 0% 0% 0%"
        in lines
    )
    assert "hello checks passed: said_bye 0%" in lines
    assert (own["run"]["evaluation"], [e["number"] for e in own["run"]["evaluations"]]) == (0, [0, 1])
    [figures] = own["run"]["figures"]
    assert (figures["scene"], figures["passed"], figures["pass_at"], figures["pass_hat"]) == (
        "hello",
        3,
        {"1": 1.0, "2": 1.0, "3": 1.0},
        {"1": 1.0, "2": 1.0, "3": 1.0},
    )
    assert [t["outcome"] for t in own["scenes"][0]["trials"]] == ["passed", "passed", "passed"]
    assert unknown.exit_code == 2
    assert unknown.stderr.splitlines()[0] == f"error: run {run_id} has no evaluation 5; its evaluations: 0, 1"
    assert (
        human[-2] == f"{run_id}: hello pass@1 100%, pass^3 100%, mean score 1.00 (1 later evaluation: soundstage show)"
    )
    [run] = listed
    assert (run["evaluation_count"], run["figures"]) == (
        2,
        [
            {
                "scene": "hello",
                "status": "graded",
                "trials": 3,
                "invalid": 0,
                "passed": 3,
                "pass_at_1": 1.0,
                "pass_at_k": 1.0,
                "pass_hat_k": 1.0,
                "mean_score": 1.0,
            }
        ],
    )
