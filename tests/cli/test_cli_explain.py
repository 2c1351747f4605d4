"""`soundstage explain`: failed checks with expected, actual, explanation and the log entries behind them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from tests.people.mail_trial import OUTSIDE, OUTSIDE_AGENT, mail_trial
from tests.processes import kill_a_run, linux_only


def test_explain_shows_each_failed_check_with_its_trace_entries(bench, cli) -> None:
    lost = bench.agent("lost")  # posts to a channel that does not exist: Slack answers ok: false
    run = bench.run(lost)

    result = cli("explain", str(run.folder))

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    check = bench.json(Path(run.folder) / "hello" / "1" / "checks.json")[0]
    assert check["id"] == "said_hello"
    assert lines[:5] == [  # the explanation joins expected and actual in a sentence: it adds no line of its own
        f"hello #1: failed  [{Path(run.folder) / 'hello' / '1'}]",
        "  said_hello (state:slack.message): failed",
        f"    expected:    {check['expected']}",
        f"    actual:      {check['actual']}",
        "",
    ]
    assert lines[-1] == f"next: soundstage run {shlex.quote(str(bench.scene))} --agent {shlex.quote(lost)}"


def test_evidence_lines_name_the_call_and_the_slack_error(bench, cli) -> None:
    trial = bench.run(bench.agent("lost")).results[0].folder
    bench.write("clean.yaml", "- id: clean\n  trace: {no_errors: true}\n")
    rescored = json.loads(cli("check", trial, "--checks", "clean.yaml", "--json").stdout)["checks"]
    bench.write(f"{trial}/checks.json", json.dumps(rescored))

    human = cli("explain", trial)
    data = json.loads(cli("explain", trial, "--json").stdout)

    assert human.stdout.splitlines()[1:5] == [
        "  clean (trace): failed",
        f"    expected:    {rescored[0]['expected']}",
        f"    actual:      {rescored[0]['actual']}",
        "    #2 2026-03-02T14:00:00Z slack POST /api/chat.postMessage 200 error=channel_not_found",
    ]
    [explained] = data["trials"]
    assert (explained["scene"], explained["trial"], explained["outcome"]) == ("hello", 1, "failed")
    assert [(c["id"], [e["seq"] for e in c["entries"]]) for c in explained["failed"]] == [("clean", [2])]


CUT_SHORT = "events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out"


def test_a_log_cut_short_is_explained_without_its_last_line_and_says_so(bench, cli) -> None:
    trial = bench.run(bench.agent("lost")).results[0].folder
    bench.write("clean.yaml", "- id: clean\n  trace: {no_errors: true}\n")  # its evidence: the failed call, #2
    rescored = json.loads(cli("check", trial, "--checks", "clean.yaml", "--json").stdout)["checks"]
    bench.write(f"{trial}/checks.json", json.dumps(rescored))
    events = Path(trial) / "events.jsonl"
    whole = events.read_text()
    events.write_text(whole + whole.splitlines()[1][:30])  # what a run stopped while writing a line leaves

    human = cli("explain", trial)
    data = json.loads(cli("explain", trial, "--json").stdout)

    assert human.exit_code == 0, human.output
    assert human.stdout.splitlines()[:3] == [
        f"hello #1: failed  [{trial}]",
        f"  {CUT_SHORT}",
        "  clean (trace): failed",
    ]
    [explained] = data["trials"]
    assert explained["notes"] == [CUT_SHORT]
    assert [(c["id"], [e["seq"] for e in c["entries"]]) for c in explained["failed"]] == [("clean", [2])]


def test_explain_defaults_to_the_latest_run_and_says_when_trials_passed(bench, cli) -> None:
    bench.run(bench.agent("exit", "0"))
    latest = bench.run(bench.hello())

    result = cli("explain")

    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == [
        f"hello #1: passed  [runs/{Path(latest.folder).name}/hello/1]",
        "  every required check passed",
    ]


def test_explain_says_how_the_agent_ended_when_it_crashed(bench, cli) -> None:
    run = bench.run(bench.agent("exit", "2"))
    trial = Path(run.folder) / "hello" / "1"

    human = cli("explain", str(run.folder))
    data = json.loads(cli("explain", str(run.folder), "--json").stdout)

    assert human.stdout.splitlines()[:2] == [
        f"hello #1: failed  [{trial}]",
        f"  the agent exited with code 2; its stderr: {trial / 'agent.log'}",
    ]
    [explained] = data["trials"]
    assert (explained["agent"], explained["agent_log"], explained["interrupted"]) == (
        "the agent exited with code 2",
        str(trial / "agent.log"),
        False,
    )


def test_explain_says_nothing_of_an_agent_that_soundstage_killed(bench, cli) -> None:
    run = bench.run(bench.agent("hang"), timeout=1)

    lines = cli("explain", str(run.folder)).stdout.splitlines()

    assert lines[0] == f"hello #1: failed (the agent timed out)  [{Path(run.folder) / 'hello' / '1'}]"
    assert lines[1].startswith("  said_hello (state:slack.message): failed")


@linux_only
def test_explain_says_a_trial_was_interrupted(bench, cli) -> None:
    pids = bench.root / "pids.json"
    trial = kill_a_run(bench.scene, bench.agent("hello-hang", str(pids)), bench.out, pids.exists)

    human = cli("explain")  # the latest run: the one stopped, though it has no run.json
    data = json.loads(cli("explain", str(trial), "--json").stdout)

    assert human.exit_code == 0, human.output
    found = trial.relative_to(bench.root)  # as the latest run is named: under ./runs
    assert human.stdout.splitlines() == [
        f"hello #1: interrupted  [{found}]",
        (
            "  the run ended before this trial did (no result.json, no finish event in events.jsonl);"
            " its checks were never run"
        ),
        f"  score what was recorded: soundstage check {found}",
        "",
        f"next: soundstage check {found}",
    ]
    assert data["trials"] == [
        {
            "folder": str(trial),
            "scene": "hello",
            "trial": 1,
            "outcome": "interrupted",
            "timed_out": False,
            "interrupted": True,
            "finished": False,
            "agent": None,
            "agent_log": str(trial / "agent.log"),
            "notes": [],
            "models": None,
            "failed": [],
        }
    ]


def test_explain_without_runs_or_with_a_wrong_folder_exits_2(bench, cli) -> None:
    none = cli("explain")
    wrong = cli("explain", str(bench.root))

    assert none.exit_code == 2
    assert none.stderr.splitlines()[0] == "error: no runs in runs/ (a run folder holds run.json, or trial folders)"
    assert wrong.exit_code == 2
    assert wrong.stderr.splitlines()[0] == (
        f"error: {bench.root}: neither a trial folder (with result.json or events.jsonl)"
        " nor a run folder (with <scene>/<trial>/)"
    )


def test_a_damaged_trial_folder_exits_2(bench, cli) -> None:
    trial = bench.run(bench.agent("exit", "0")).results[0].folder
    bench.write(f"{trial}/checks.json", '{"not": "a list"}')

    result = cli("explain", trial)

    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        f"error: {trial}/checks.json: not what soundstage writes there (Input should be a valid array)"
    )


def explained_mail(cli, trial) -> tuple[list[dict], str]:
    """A mail trial's events and the evidence line of its failed check, `priya_told_it`."""
    events = [json.loads(line) for line in (trial / "events.jsonl").read_text().splitlines()]
    result = cli("explain", str(trial))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1] == "  priya_told_it (message): failed"
    return events, lines[4]


def test_mail_in_the_evidence_reads_as_mail(cli, tmp_path) -> None:
    events, line = explained_mail(cli, mail_trial(tmp_path))
    said = [e for e in events if e["kind"] == "message"]
    priya = next(e["person"] for e in events if e["kind"] == "referred")
    assert line == (
        f"    #{said[2]['seq']} 2026-03-02T15:00:00Z message: mail (gmail) from {priya} <priya@acme.test> "
        f'to [maya@acme.test] subject "Re: Northwind" in thread {said[0]["channel"]}, id {said[2]["ts"]}, '
        'heard by [] carrying []: "I don\'t know, ask Omar Haddad (omar@acme.test)."'
    )


def test_mail_of_a_person_outside_slack_names_them_by_their_address_once(cli, tmp_path) -> None:
    events, line = explained_mail(cli, mail_trial(tmp_path, OUTSIDE, OUTSIDE_AGENT))
    said = [e for e in events if e["kind"] == "message"]
    assert line == (
        f"    #{said[1]['seq']} 2026-03-02T16:00:00Z message: mail (gmail) from events@harborhall.example "
        f'to [maya@acme.test] subject "Re: Northwind" in thread {said[0]["channel"]}, id {said[1]["ts"]}, '
        'heard by [] carrying [dana.deposit]: "Yes, I can help with that. A 30% deposit holds the date."'
    )
