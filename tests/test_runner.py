"""The runner's Python API: trials of a real agent process, the trial folder, timeouts, finishing, determinism."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.disks import FullDisk
from tests.ports import free_port
from tests.processes import agent_processes, alive, kill_a_run, linux_only, wait_until
from tests.sandboxes import SANDBOX

from soundstage import runner
from soundstage.checks import rescore
from soundstage.checks.evaluate import saved_attempt
from soundstage.errors import NotFound, UsageError
from soundstage.results import Run
from soundstage.results.digests import folder_digests
from soundstage.results.files import run_document
from soundstage.results.folders import interrupted, latest_run, trial_folders
from soundstage.runner import how_the_agent_ended, run_cover, run_scenes
from soundstage.services.slack.store import MESSAGES
from soundstage.stage import image

STAGE = Path(__file__).parent / "cli" / "stage"  # the hello scene and the scripted agent, shared with tests/cli/
SCENE = STAGE / "hello.yaml"

TRIAL_FILES = [
    "agent.log",
    "checks.json",
    "diff.json",
    "events.jsonl",
    "output.txt",
    "result.json",
    "scene.json",
    "state.json",
    "trace.jsonl",
]

# What a trial counts of an agent that made no model call through the proxy.
NO_MODEL_CALLS = {"model_calls": 0, "model_tokens": 0, "model_refused": 0}


def agent(*args: str) -> str:
    """The scripted agent's command line; its first argument says how it behaves."""
    return shlex.join([sys.executable, str(STAGE / "agent.py"), *args])


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def only_trial(run: Run) -> Path:
    assert len(run.results) == 1
    return Path(run.results[0].folder)


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "runs"


@pytest.fixture
def hello(tmp_path: Path) -> str:
    """The agent that says hello; it writes the environment and stdin it got to seen.json."""
    return agent("hello")


# -- a passing trial ---------------------------------------------------------------------------------


def test_a_passing_trial_writes_the_whole_folder(out: Path, hello: str) -> None:
    run = run_scenes([str(SCENE)], hello, out=out)

    assert run.exit_code == 0
    assert re.fullmatch(r"\d{8}-\d{6}(-\d+)?", run.run_id)
    assert run.folder == str(out / run.run_id)
    trial = only_trial(run)
    assert trial == out / run.run_id / "hello" / "1"
    assert sorted(p.name for p in trial.iterdir()) == TRIAL_FILES

    result = read_json(trial / "result.json")
    events = read_lines(trial / "events.jsonl")
    assert isinstance(result.pop("wall_seconds"), float)
    assert re.fullmatch(r"w[0-9a-f]{32}", result.pop("world"))
    assert result == {
        "version": 2,
        "scene": "hello",
        "trial": 1,
        "outcome": "passed",
        "score": 1.0,
        "exit_code": 0,
        "killed": False,
        "timed_out": False,
        "finish_reason": "exited",
        "simulated_seconds": 10.0,
        "counts": {"calls": 2, "events": 5, "errors": 0, "unimplemented": 0, "after_finish": 0} | NO_MODEL_CALLS,
        "failed_checks": [],
        "folder": str(trial),
        "attempts": 1,
        "sandbox": SANDBOX,
        "infrastructure": None,
    }
    assert [(e["seq"], e["kind"]) for e in events] == [
        (1, "start"),
        (2, "call"),
        (3, "call"),
        (4, "write"),
        (5, "finish"),
    ]
    assert events[-1]["output"] == "said hello\n" and events[-1]["reason"] == "exited"

    trace = read_lines(trial / "trace.jsonl")
    assert trace == [e for e in events if e["kind"] == "call"]
    assert [(c["seq"], c["t"], c["service"], c["method"], c["path"], c["status"]) for c in trace] == [
        (2, "2026-03-02T14:00:00Z", "slack", "POST", "/api/conversations.list", 200),
        (3, "2026-03-02T14:00:05Z", "slack", "POST", "/api/chat.postMessage", 200),
    ]
    assert trace[1]["body"] == {"channel": trace[1]["response"]["channel"], "text": "hello from the agent"}
    assert trace[1]["response"]["ok"] is True
    assert all(set(c) >= {"query", "body", "response", "error", "unimplemented"} for c in trace)

    checks = read_json(trial / "checks.json")
    assert [(c["id"], c["passed"], c["required"], c["source"]) for c in checks] == [
        ("said_hello", True, True, "scene"),
        ("posted", True, True, "scene"),
    ]
    assert (trial / "output.txt").read_text() == "said hello\n"
    assert json.loads((trial / "agent.log").read_text())["stdin"] == "Say hello in #general."
    scene = read_json(trial / "scene.json")
    assert (scene["name"], scene["source"], scene["task"]) == ("hello", str(SCENE), "Say hello in #general.")
    messages = [m for m in read_json(trial / "state.json")[MESSAGES] if m.get("text") == "hello from the agent"]
    assert len(messages) == 1
    assert [m["text"] for m in read_json(trial / "diff.json")[MESSAGES]["added"]] == ["hello from the agent"]

    recorded = {**read_json(trial / "result.json"), "digests": folder_digests(trial)}
    assert sorted(recorded["digests"]) == TRIAL_FILES
    assert read_json(Path(run.folder) / "run.json") == {**run_document(run), "results": [recorded]}
    assert read_json(Path(run.folder) / "run.json")["scenes"] == [str(SCENE)]


def test_runs_in_one_process_build_a_scene_once_until_its_file_changes(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = tmp_path / "hello.yaml"
    scene.write_text(SCENE.read_text())
    built: list[str] = []
    build = image.build_image
    monkeypatch.setattr(image, "build_image", lambda *given: built.append("built") or build(*given))

    first = run_scenes([str(scene)], agent("exit", "0"), out=out)
    second = run_scenes([str(scene)], agent("exit", "0"), out=out)
    scene.write_text(scene.read_text().replace("name: hello", "name: hello-again"))
    third = run_scenes([str(scene)], agent("exit", "0"), out=out)

    assert built == ["built", "built"]
    assert [r.results[0].scene for r in (first, second, third)] == ["hello", "hello", "hello-again"]


def test_the_agent_gets_the_task_and_exactly_the_documented_environment(
    out: Path, hello: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("SOUNDSTAGE_TEST_SECRET", "s3cret")
    monkeypatch.setenv("SOUNDSTAGE_TEST_PRIVATE", "not for the agent")
    monkeypatch.delenv("SOUNDSTAGE_TEST_UNSET", raising=False)

    run = run_scenes([str(SCENE)], hello, out=out)

    seen = json.loads((only_trial(run) / "agent.log").read_text())
    env = seen["env"]
    assert seen["stdin"] == "Say hello in #general."
    assert env["SOUNDSTAGE_TASK"] == "Say hello in #general."
    assert {k: env[k] for k in ("PATH", "HOME", "LANG", "SOUNDSTAGE_TEST_SECRET")} == {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "LANG": "C.UTF-8",
        "SOUNDSTAGE_TEST_SECRET": "s3cret",
    }
    base = re.fullmatch(r"(http://127\.0\.0\.1:\d+)/v1/worlds/(w[0-9a-f]{32})", env["SOUNDSTAGE_URL"])
    assert base is not None
    assert env["SLACK_API_URL"] == f"{base.group(1)}/w/{base.group(2)}/slack/api/"
    assert env["SOUNDSTAGE_TOKEN"].startswith("ss-")
    assert env["SLACK_BOT_TOKEN"].startswith("xoxb-")
    assert env["SLACK_USER_TOKEN"].startswith("xoxp-")
    bundle = Path(env["SSL_CERT_FILE"])
    assert env["REQUESTS_CA_BUNDLE"] == str(bundle) and bundle.name == "bundle.pem"
    assert "BEGIN CERTIFICATE" in bundle.read_text()
    assert env["CURL_CA_BUNDLE"] == env["GIT_SSL_CAINFO"] == str(bundle)
    assert env["NODE_EXTRA_CA_CERTS"] == str(bundle.with_name("ca.pem"))
    sandboxed = ["PWD"] if SANDBOX == "bwrap" else []  # the sandbox's fresh working folder, as a shell sets it
    assert sorted(env) == [
        "CURL_CA_BUNDLE",
        "DATADOG_API_URL",
        "GITHUB_API_URL",
        "GIT_SSL_CAINFO",
        "GMAIL_API_URL",
        "GOOGLE_CALENDAR_API_URL",
        "HOME",
        "HTTPLIB2_CA_CERTS",
        "LANG",
        "NODE_EXTRA_CA_CERTS",
        "PAGERDUTY_API_URL",
        "PATH",
        *sandboxed,
        "REQUESTS_CA_BUNDLE",
        "SLACK_API_URL",
        "SLACK_BOT_TOKEN",
        "SLACK_MCP_URL",
        "SLACK_USER_TOKEN",
        "SOUNDSTAGE_MCP_URL",
        "SOUNDSTAGE_TASK",
        "SOUNDSTAGE_TEST_SECRET",
        "SOUNDSTAGE_TOKEN",
        "SOUNDSTAGE_URL",
        "SSL_CERT_FILE",
    ]


def test_variables_passed_on_or_given_reach_the_agent_and_their_values_are_kept_out_of_what_it_prints(
    out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOUNDSTAGE_TEST_MODEL_KEY", "sk-test-0123456789")
    monkeypatch.setenv("SOUNDSTAGE_TEST_PRIVATE", "not for the agent")
    names = [
        "SOUNDSTAGE_TEST_MODEL_KEY",
        "MODEL",
        "OPENAI_BASE_URL",
        "SHORT",
        "SOUNDSTAGE_TEST_PRIVATE",
        "SLACK_API_URL",
    ]
    run = run_scenes(
        [str(SCENE)],
        agent("print-env", *names),
        out=out,
        pass_env=["SOUNDSTAGE_TEST_MODEL_KEY"],
        env={
            "MODEL": "gpt-test-model",
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
            "SHORT": "abc",
            "SLACK_API_URL": "x",
        },
    )
    trial = only_trial(run)
    printed = (trial / "output.txt").read_text().splitlines()
    assert printed[:5] == [
        "SOUNDSTAGE_TEST_MODEL_KEY=[SOUNDSTAGE_TEST_MODEL_KEY]",
        "MODEL=[MODEL]",
        "OPENAI_BASE_URL=[OPENAI_BASE_URL]",
        "SHORT=abc",  # too short to be a secret
        "SOUNDSTAGE_TEST_PRIVATE=None",
    ]
    assert printed[5].startswith("SLACK_API_URL=http://127.0.0.1:")  # the world's variables win
    log = (trial / "agent.log").read_text()
    assert "debug: SOUNDSTAGE_TEST_MODEL_KEY is [SOUNDSTAGE_TEST_MODEL_KEY]" in log
    assert "sk-test-0123456789" not in log and "gpt-test-model" not in log
    for path in Path(run.folder).rglob("*"):
        if path.is_file():
            assert "sk-test-0123456789" not in path.read_text(errors="replace"), path


@pytest.mark.parametrize(
    ("pass_env", "env", "message"),
    [
        (["SOUNDSTAGE_ADMIN_TOKEN"], {}, "the admin token is never the agent's"),
        ([], {"SOUNDSTAGE_ADMIN_TOKEN": "x"}, "the admin token is never the agent's"),
        (["2FA"], {}, "expected an environment variable name"),
        ([], {"A-B": "x"}, "expected an environment variable name"),
    ],
)
def test_what_cannot_be_given_to_the_agent(out: Path, pass_env: list[str], env: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        run_scenes([str(SCENE)], agent("exit", "0"), out=out, pass_env=pass_env, env=env)
    assert not out.exists()


# -- how an attempt ends -----------------------------------------------------------------------------


def test_a_hung_agent_is_killed_at_the_timeout(out: Path) -> None:
    # Time enough for the agent to start and say "waiting" on a busy machine, and no more.
    run = run_scenes([str(SCENE)], agent("hang"), out=out, timeout=1)

    result = read_json(only_trial(run) / "result.json")
    assert (result["timed_out"], result["finish_reason"], result["exit_code"], result["killed"], result["outcome"]) == (
        True,
        "timeout",
        -9,
        True,
        "failed",
    )
    assert result["failed_checks"] == ["said_hello", "posted"]
    assert (only_trial(run) / "output.txt").read_text() == "waiting\n"
    assert run.exit_code == 1


def test_an_agent_may_finish_through_the_control_api(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "FINISH_GRACE", 0.1)  # how long is not what this test is about
    run = run_scenes([str(SCENE)], agent("finish"), out=out, timeout=60)

    trial = only_trial(run)
    result = read_json(trial / "result.json")
    # It kept running after finishing, so it was killed after the grace period; that is not a timeout.
    assert (result["timed_out"], result["finish_reason"], result["exit_code"], result["killed"]) == (
        False,
        "finished",
        -9,
        True,
    )
    assert (trial / "output.txt").read_text() == "done through finish"
    finish = read_lines(trial / "events.jsonl")[-1]
    assert (finish["kind"], finish["output"], finish["reason"]) == ("finish", "done through finish", "finished")


def test_calls_after_finish_are_refused_and_count_for_nothing(out: Path) -> None:
    """The probe: calls made after `finish` were logged, counted in result.json, and one made a check pass."""
    run = run_scenes([str(SCENE)], agent("late"), out=out, timeout=60)

    trial = only_trial(run)
    result = read_json(trial / "result.json")
    assert (result["outcome"], result["finish_reason"]) == ("failed", "finished")
    counted = {"calls": 0, "events": 4, "errors": 0, "unimplemented": 0, "after_finish": 2}
    assert result["counts"] == counted | NO_MODEL_CALLS
    refused = [json.loads(line) for line in (trial / "events.jsonl").read_text().splitlines()][-2:]
    assert [(e["kind"], e["path"]) for e in refused] == [
        ("after_finish", "/api/conversations.list"),
        ("after_finish", "/api/chat.postMessage"),
    ]
    assert (trial / "trace.jsonl").read_text() == ""
    assert (trial / "output.txt").read_text() == "finished first"


def test_the_agents_exit_code_and_stderr_are_recorded(out: Path) -> None:
    run = run_scenes([str(SCENE)], agent("exit", "7"), out=out)

    trial = only_trial(run)
    result = read_json(trial / "result.json")
    assert (result["exit_code"], result["killed"], result["outcome"], result["finish_reason"]) == (
        7,
        False,
        "failed",
        "exited",
    )
    counted = {"calls": 0, "events": 2, "errors": 0, "unimplemented": 0, "after_finish": 0}
    assert result["counts"] == counted | NO_MODEL_CALLS
    assert (trial / "agent.log").read_text() == "no idea\n"
    assert (trial / "output.txt").read_text() == "giving up\n"
    assert run.exit_code == 1


def test_the_supervisor_starts_on_the_few_modules_it_needs() -> None:
    # One starts for every trial: typing, which it needs for annotations only, was a tenth of its start.
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import supervisor; print('typing' in sys.modules)"
    folder = str(runner.SUPERVISOR.parent)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", probe, folder], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"


@pytest.mark.parametrize(
    ("exit_code", "killed", "said"),
    [
        (0, False, None),
        (2, False, "the agent exited with code 2"),
        (-11, False, "the agent was killed by SIGSEGV"),
        (-9, True, None),  # soundstage killed it: at the timeout, or after it finished
        (-200, False, "the agent was killed by signal 200"),
    ],
)
def test_how_the_agent_ended_in_words(exit_code: int, killed: bool, said: str | None) -> None:
    assert how_the_agent_ended(exit_code, killed) == said


def test_an_agent_killed_by_a_signal_is_recorded_as_such(out: Path) -> None:
    run = run_scenes([str(SCENE)], agent("signal", "SIGSEGV"), out=out)

    trial = only_trial(run)
    result = read_json(trial / "result.json")
    assert (result["exit_code"], result["killed"], result["timed_out"], result["finish_reason"]) == (
        -11,
        False,
        False,
        "exited",
    )
    assert (trial / "agent.log").read_text() == "about to crash\n"


# -- the agent's whole tree --------------------------------------------------------------------------


@linux_only
def test_what_the_agent_leaves_running_ends_with_its_trial_even_in_a_session_of_its_own(
    out: Path, tmp_path: Path
) -> None:
    pids = tmp_path / "pids.json"
    # The agent exits at once; the daemon it started in a new session holds its stdout open.
    run = run_scenes([str(SCENE)], agent("daemon", str(pids)), out=out, timeout=600, sandbox="none")

    agent_process, daemon = agent_processes(pids)
    assert not alive(agent_process) and not alive(daemon)
    assert not Path(f"{pids}.survived").exists()
    trial = only_trial(run)
    result = read_json(trial / "result.json")
    assert (result["exit_code"], result["killed"], result["timed_out"], result["finish_reason"]) == (
        0,
        False,
        False,
        "exited",
    )
    assert (trial / "output.txt").read_text() == "left a daemon\n"


@linux_only
def test_at_the_timeout_the_whole_tree_is_killed_and_the_trial_ends(out: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids.json"
    run = run_scenes([str(SCENE)], agent("daemon-hang", str(pids)), out=out, timeout=3, sandbox="none")

    assert [alive(process) for process in agent_processes(pids)] == [False, False]
    assert not Path(f"{pids}.survived").exists()
    trial = only_trial(run)
    result = read_json(trial / "result.json")
    assert (result["timed_out"], result["finish_reason"], result["exit_code"], result["killed"]) == (
        True,
        "timeout",
        -9,
        True,
    )
    assert (trial / "output.txt").read_text() == "waiting\n"


@linux_only
def test_a_killed_run_takes_the_agent_and_what_it_started_with_it(out: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids.json"
    trial = kill_a_run(SCENE, agent("hello-hang", str(pids)), out, pids.exists)

    processes = agent_processes(pids)
    assert len(processes) == 2
    assert wait_until(lambda: not any(alive(process) for process in processes), 30)
    assert not Path(f"{pids}.survived").exists()
    # What was recorded until then is there, and the trial is found as an interrupted one.
    assert sorted(p.name for p in trial.iterdir()) == [
        "agent.log",
        "events.jsonl",
        "initial.json",
        "scene.json",
        "trace.jsonl",
        "writes.jsonl",
    ]
    run_folder = trial.parent.parent
    assert trial_folders(run_folder) == [trial]
    assert trial_folders(trial) == [trial]
    assert interrupted(trial)
    assert latest_run(out) == run_folder
    evaluation = rescore(trial)
    assert [(c.id, c.passed) for c in evaluation.checks] == [("said_hello", True), ("posted", True)]


# -- a trial scored again ----------------------------------------------------------------------------


def test_an_interrupted_trial_is_scored_on_the_state_it_had(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A finished trial, its journal kept, stripped of what a trial gets only once it has ended.
    monkeypatch.setattr(runner._Journal, "remove", lambda journal: None)
    trial = only_trial(run_scenes([str(SCENE)], agent("busy"), out=out))
    state, diff, checks = (read_json(trial / name) for name in ("state.json", "diff.json", "checks.json"))
    for name in ("result.json", "state.json", "diff.json", "checks.json", "output.txt"):
        (trial / name).unlink()

    attempt, _ = saved_attempt(trial)

    # Collections that were only read during the attempt are empty in state.json, and not rebuilt.
    assert {name: records for name, records in attempt.state.items() if records} == {
        name: records for name, records in state.items() if records
    }
    assert attempt.diff == diff
    assert [m["text"] for m in diff[MESSAGES]["added"]] == ["hello again from the agent"]  # the other was deleted
    assert attempt.output == "busy\n"  # as its finish event has it
    assert [c.model_dump(mode="json") for c in rescore(trial).checks] == checks
    assert interrupted(trial) and trial_folders(trial) == [trial]


def test_a_trial_that_ended_keeps_no_journal(out: Path, hello: str) -> None:
    trial = only_trial(run_scenes([str(SCENE)], hello, out=out))
    assert not (trial / "initial.json").exists() and not (trial / "writes.jsonl").exists()
    assert not interrupted(trial)


def test_unimplemented_calls_are_counted_and_strict_makes_them_exit_4(out: Path) -> None:
    lenient = run_scenes([str(SCENE)], agent("unknown"), out=out)
    strict = run_scenes([str(SCENE)], agent("unknown"), out=out, strict=True)

    counts = read_json(only_trial(strict) / "result.json")["counts"]
    assert (counts["calls"], counts["unimplemented"]) == (2, 1)
    assert lenient.exit_code == 1  # the checks failed too, but only --strict makes that 4
    assert strict.exit_code == 4
    unknown = read_lines(only_trial(strict) / "trace.jsonl")[1]
    assert (unknown["path"], unknown["unimplemented"], unknown["error"]) == ("/api/foo.bar", True, True)


def test_a_trial_whose_checks_could_not_run_is_invalid_and_the_run_exits_3(
    out: Path, hello: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_URL", f"http://127.0.0.1:{free_port()}/v1")  # nobody listens there
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_MODEL", "judge-model")
    judged = tmp_path / "judged.yaml"
    judged.write_text(SCENE.read_text() + "  - id: polite\n    judge: The agent is polite.\n")

    run = run_scenes([str(judged)], hello, out=out)

    assert (run.results[0].outcome, run.results[0].failed_checks, run.exit_code) == ("invalid", ["polite"], 3)


# -- runs --------------------------------------------------------------------------------------------


def test_two_runs_of_the_same_agent_give_the_same_trace_ids_and_times(out: Path, hello: str) -> None:
    first = only_trial(run_scenes([str(SCENE)], hello, out=out))
    second = only_trial(run_scenes([str(SCENE)], hello, out=out))

    assert first != second
    for name in ("trace.jsonl", "events.jsonl", "state.json", "diff.json", "checks.json", "output.txt"):
        assert (first / name).read_text() == (second / name).read_text(), name
    posted = read_lines(first / "trace.jsonl")[1]["response"]
    assert re.fullmatch(r"C[0-9A-Z]+", posted["channel"]) and re.fullmatch(r"\d+\.\d{6}", posted["ts"])


def test_trials_run_in_parallel_and_come_back_in_order(out: Path, hello: str) -> None:
    run = run_scenes([str(SCENE)], hello, trials=3, parallel=3, out=out)

    assert [(r.scene, r.trial, r.outcome) for r in run.results] == [("hello", n, "passed") for n in (1, 2, 3)]
    assert len({r.world for r in run.results}) == 3
    assert trial_folders(Path(run.folder)) == [Path(run.folder) / "hello" / str(n) for n in (1, 2, 3)]
    traces = {(Path(run.folder) / "hello" / str(n) / "trace.jsonl").read_text() for n in (1, 2, 3)}
    assert len(traces) == 1


def test_several_scenes_in_one_run(out: Path, hello: str, tmp_path: Path) -> None:
    other = tmp_path / "bye.yaml"
    other.write_text(SCENE.read_text().replace("name: hello", "name: bye"))
    run = run_scenes([str(SCENE), str(other)], hello, trials=2, out=out)

    assert [(r.scene, r.trial) for r in run.results] == [("hello", 1), ("hello", 2), ("bye", 1), ("bye", 2)]
    assert [t.relative_to(run.folder).as_posix() for t in trial_folders(Path(run.folder))] == [
        "bye/1",
        "bye/2",
        "hello/1",
        "hello/2",
    ]


def test_latest_run_is_the_last_run_written(out: Path) -> None:
    with pytest.raises(NotFound, match="no runs in"):
        latest_run(out)
    run_scenes([str(SCENE)], agent("exit", "0"), out=out)
    second = run_scenes([str(SCENE)], agent("exit", "0"), out=out)
    assert latest_run(out) == Path(second.folder)


def test_progress_is_reported_per_finished_trial(out: Path) -> None:
    seen: list[tuple[str, int]] = []
    run_scenes(
        [str(SCENE)], agent("exit", "0"), trials=2, out=out, on_progress=lambda r: seen.append((r.scene, r.trial))
    )
    assert sorted(seen) == [("hello", 1), ("hello", 2)]


# -- runs that cannot be carried out -----------------------------------------------------------------


def _unstarted(run: Run, reason: str) -> None:
    """Every trial of `run` is invalid for `reason`, not the agent's doing, in the run, result.json and
    checks.json, and left out of the figures."""
    assert run.exit_code == 3 and run.results
    for trial in run.results:
        folder = Path(trial.folder)
        assert (trial.outcome, trial.infrastructure, trial.finish_reason) == ("invalid", reason, "not_run")
        assert [(c.id, c.source, c.passed, c.invalid, c.actual) for c in trial.checks] == [
            ("agent_started", "soundstage", None, True, reason)
        ]
        saved = read_json(folder / "result.json")
        assert (saved["outcome"], saved["infrastructure"]) == ("invalid", reason)
        assert [c["id"] for c in read_json(folder / "checks.json")] == ["agent_started"]
        assert sorted(trial.digests or {}) == [
            "checks.json",
            "events.jsonl",
            "result.json",
            "scene.json",
            "trace.jsonl",
        ]
    assert run.figures is not None and [(f.status, f.invalid, f.k, f.pass_at_1) for f in run.figures] == [
        ("graded", len(run.results), 0, None)
    ]


def test_an_agent_that_cannot_be_started_makes_each_trial_invalid_naming_the_command(out: Path) -> None:
    run = run_scenes([str(SCENE)], "soundstage-no-such-agent --flag", trials=2, out=out)

    _unstarted(
        run, "the agent command 'soundstage-no-such-agent --flag' could not be started: No such file or directory"
    )


def test_an_agent_that_is_not_executable_is_invalid_too(out: Path, tmp_path: Path) -> None:
    script = tmp_path / "agent.sh"
    script.write_text("#!/bin/sh\necho hi\n")  # not marked executable

    run = run_scenes([str(SCENE)], str(script), out=out)

    _unstarted(run, f"the agent command {str(script)!r} could not be started: Permission denied")


def test_a_script_whose_interpreter_is_missing_could_not_be_started_in_the_sandbox_or_not(
    out: Path, tmp_path: Path
) -> None:
    script = tmp_path / "agent.py"
    script.write_text("#!/usr/bin/env soundstage-no-such-python\nprint('hi')\n")
    script.chmod(0o755)
    why = (
        f"the agent command {str(script)!r} could not be started: No such file or directory: its interpreter "
        "'soundstage-no-such-python' (its #! line)"
    )

    for sandbox in ("none", "auto"):  # in bubblewrap, where there is one: it would exit 1, saying so in agent.log
        _unstarted(run_scenes([str(SCENE)], str(script), out=out, sandbox=sandbox), why)


def test_an_agent_that_starts_and_fails_at_once_is_its_own_failure(out: Path) -> None:
    run = run_scenes([str(SCENE)], shlex.join([sys.executable, "-c", "import no_such_module"]), out=out)

    [trial] = run.results
    assert (trial.outcome, trial.exit_code, trial.infrastructure, run.exit_code) == ("failed", 1, None, 1)
    assert "ModuleNotFoundError" in (Path(trial.folder) / "agent.log").read_text()


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        ("", {}, "the agent command is empty"),
        ("python 'unclosed", {}, "cannot read the agent command"),
        ("python agent.py", {"trials": 0}, "--trials and --parallel must be at least 1"),
    ],
)
def test_bad_arguments_are_usage_errors(out: Path, command: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        run_scenes([str(SCENE)], command, out=out, **options)
    assert not out.exists()


def test_two_scenes_with_one_name_are_a_usage_error(out: Path, hello: str, tmp_path: Path) -> None:
    twin = tmp_path / "twin.yaml"
    twin.write_text(SCENE.read_text())
    with pytest.raises(UsageError, match="two of the scenes given are named 'hello'"):
        run_scenes([str(SCENE), str(twin)], hello, out=out)


# -- figures, ungraded scenes, the run folder at the start ------------------------------------------------


def test_run_json_holds_each_scenes_figures_and_the_folder_is_given_first(out: Path, hello: str) -> None:
    started: list[Path] = []
    run = run_scenes([str(SCENE)], hello, trials=2, out=out, on_start=started.append)

    assert started == [Path(run.folder)]
    assert read_json(Path(run.folder) / "run.json")["figures"] == [
        {
            "scene": "hello",
            "status": "graded",
            "trials": 2,
            "invalid": 0,
            "passed": 2,
            "k": 2,
            "pass_at_1": 1.0,
            "pass_at_k": 1.0,
            "pass_hat_k": 1.0,
            "pass_at": {"1": 1.0, "2": 1.0},
            "pass_hat": {"1": 1.0, "2": 1.0},
            "mean_score": 1.0,
            "checks": {
                "said_hello": {"required": True, "passed": 2, "trials": 2, "pass_rate": 1.0},
                "posted": {"required": True, "passed": 2, "trials": 2, "pass_rate": 1.0},
            },
        }
    ]
    # result.json stays as it was: the check results are in checks.json.
    assert "checks" not in read_json(Path(run.folder) / "hello" / "1" / "result.json")
    assert [c["score"] for c in read_json(Path(run.folder) / "hello" / "1" / "checks.json")] == [1.0, 1.0]


def test_a_scene_without_checks_is_ungraded_and_does_not_fail_the_run(out: Path, tmp_path: Path, hello: str) -> None:
    plain = tmp_path / "plain.yaml"
    plain.write_text(SCENE.read_text().split("checks:")[0].replace("name: hello", "name: plain"))

    ungraded = run_scenes([str(plain)], agent("exit", "0"), out=out)
    mixed = run_scenes([str(plain), str(SCENE)], hello, out=out)

    assert [(r.scene, r.outcome, r.failed_checks) for r in ungraded.results] == [("plain", "ungraded", [])]
    assert ungraded.exit_code == 0
    assert read_json(Path(ungraded.results[0].folder) / "checks.json") == []
    assert [(f.scene, f.status, f.pass_at_1) for f in mixed.figures or []] == [
        ("plain", "ungraded", None),
        ("hello", "graded", 1.0),
    ]
    assert mixed.exit_code == 0


# -- failures of soundstage's own --------------------------------------------------------------------


def test_a_trial_folder_that_cannot_be_written_makes_that_trial_invalid_and_the_run_goes_on(
    out: Path, hello: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = runner.write
    failed: list[Path] = []

    def full_disk_once(path: Path, data: bytes) -> str:
        if path.name == "checks.json" and not failed:
            failed.append(path)
            raise OSError(errno.ENOSPC, "No space left on device")
        return written(path, data)

    monkeypatch.setattr(runner, "write", full_disk_once)
    run = run_scenes([str(SCENE)], hello, trials=2, out=out)

    first, second = run.results
    assert (first.outcome, first.infrastructure) == (
        "invalid",
        f"the trial folder {failed[0].parent} could not be written: No space left on device",
    )
    assert first.failed_checks == []  # its checks passed: the agent did nothing wrong
    # ...but its grade cannot be trusted: no score rather than the one its checks would give.
    saved = read_json(Path(first.folder) / "result.json")
    assert (saved["outcome"], saved["score"], first.score) == ("invalid", None, None)
    assert (second.outcome, second.infrastructure, second.score) == ("passed", None, 1.0)
    assert run.exit_code == 3
    [figures] = read_json(Path(run.folder) / "run.json")["figures"]
    assert (figures["trials"], figures["invalid"], figures["k"], figures["passed"], figures["pass_at_1"]) == (
        2,
        1,
        1,
        1,
        1.0,
    )
    assert figures["mean_score"] == 1.0  # of the trial counted


def test_a_log_that_cannot_be_written_makes_that_trial_invalid_and_the_run_says_why(
    out: Path, hello: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    FullDisk(monkeypatch, Path("hello", "1", "events.jsonl"), room=400)  # the start event, and not much more

    run = run_scenes([str(SCENE)], hello, trials=2, out=out)

    first, second = run.results
    folder = Path(first.folder)
    assert (first.outcome, first.infrastructure) == (
        "invalid",
        f"events.jsonl could not be written: No space left on device (in {folder})",
    )
    assert (second.outcome, second.infrastructure) == ("passed", None)
    assert run.exit_code == 3
    written = (folder / "events.jsonl").read_text()
    assert written.endswith("\n") and [json.loads(line)["seq"] for line in written.splitlines()] == [1]
    # The call the log broke on was answered; the one after it got Slack's 503, and changed nothing.
    calls = read_lines(folder / "trace.jsonl")
    assert [(c["path"], c["status"]) for c in calls] == [
        ("/api/conversations.list", 200),
        ("/api/chat.postMessage", 503),
    ]
    assert calls[1]["response"] == {"ok": False, "error": "service_unavailable"}
    assert [m for m in read_json(folder / "state.json")[MESSAGES] if m.get("text") == "hello from the agent"] == []
    assert first.digests["events.jsonl"] == folder_digests(folder)["events.jsonl"]


@linux_only
def test_the_run_process_is_not_dumpable_once_it_has_run_an_agent(out: Path) -> None:
    code = (
        "import ctypes, sys\n"
        "from soundstage.runner import run_scenes\n"
        f"run_scenes([{str(SCENE)!r}], {agent('exit', '0')!r}, out=__import__('pathlib').Path({str(out)!r}))\n"
        "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))\n"  # PR_GET_DUMPABLE
    )
    answered = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert answered.stdout.splitlines()[-1] == "0"  # no process of the user's reads its memory or environment


def test_the_runs_cover_hides_soundstages_home_and_the_people_understanding_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SOUNDSTAGE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE", raising=False)
    hidden = run_cover(tmp_path / "runs", tmp_path / "runs" / "r", None, [], []).hidden
    assert hidden[2:4] == (tmp_path / "home", tmp_path / "home" / "people" / "understanding.jsonl")
    monkeypatch.setenv("SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE", str(tmp_path / "elsewhere.jsonl"))
    assert tmp_path / "elsewhere.jsonl" in run_cover(tmp_path / "runs", tmp_path / "runs" / "r", None, [], []).hidden
