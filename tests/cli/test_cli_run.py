"""`soundstage run`: the summary, the closing `next:` line, `--json`, and every exit code of docs/cli.md."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from tests.sandboxes import WARNING

from soundstage.cli.run import _progress


def run_folder(bench) -> Path:
    [folder] = [path for path in (bench.root / "runs").iterdir() if path.is_dir()]  # beside soundstage.db
    return folder


def test_a_passing_run_exits_0_with_a_summary(bench, cli) -> None:
    result = cli("run", "hello.yaml", "--agent", bench.hello())

    assert result.exit_code == 0, result.output
    folder = run_folder(bench)
    lines = result.stdout.splitlines()
    assert f"run {folder.name}" in lines[0]
    [row] = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if "│ hello" in line]
    assert row == ["hello", "1/1", "100%", "1.00"]  # the mean score last
    assert "┃ scene ┃ passed ┃ pass@1 ┃ score ┃" in lines  # with one trial, pass@k and pass^k are pass@1 again
    assert lines[-3:] == [
        "hello checks passed: said_hello 100%, posted 100%",
        f"run folder: runs/{folder.name}",
        f"next: soundstage run hello.yaml --agent {shlex.quote(bench.hello())} --trials 5",
    ]
    # The run folder first, so a trial can be followed; live progress only when stderr is a terminal.
    assert result.stderr.splitlines() == [*WARNING, f"run folder: runs/{folder.name}"]
    assert bench.json(folder / "hello" / "1" / "result.json")["outcome"] == "passed"


def test_a_failed_check_exits_1_and_names_it(bench, cli) -> None:
    result = cli("run", "hello.yaml", "--agent", bench.agent("exit", "0"), "--trials", "2")

    assert result.exit_code == 1
    folder = run_folder(bench)
    assert "hello #1: said_hello, posted" in result.stdout.splitlines()
    assert "hello #2: said_hello, posted" in result.stdout.splitlines()
    [row] = [
        [cell.strip() for cell in line.split("│")[1:-1]] for line in result.stdout.splitlines() if "│ hello" in line
    ]
    assert row == ["hello", "0/2", "0%", "0%", "0%", "0.00"]
    assert "┃ scene ┃ passed ┃ pass@1 ┃ pass@2 ┃ pass^2 ┃ score ┃" in result.stdout
    assert "hello checks passed: said_hello 0%, posted 0%" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1] == f"next: soundstage explain runs/{folder.name}"


def test_an_invalid_scene_exits_2_naming_file_line_and_field(bench, cli) -> None:
    bench.write("bad.yaml", "name: bad\ntask: Nothing.\nseed:\n  slack:\n    users:\n      - {name: x, colour: red}\n")

    result = cli("run", "bad.yaml", "--agent", bench.hello())

    assert result.exit_code == 2
    assert result.stdout == ""
    fields = (
        "custom_image, deleted, display_name, email, guest, id, is_admin, is_bot, name, pronouns, real_name, ref, "
        "start_date, status, title, tz"
    )
    assert result.stderr.splitlines() == [
        f"error: bad.yaml:6: seed.slack.users[0].colour: unknown field 'colour'; expected one of: {fields}",
        "next: soundstage validate bad.yaml",
    ]
    assert not (bench.root / "runs").exists()


def test_an_unknown_scene_exits_2(bench, cli) -> None:
    result = cli("run", "nowhere", "--agent", bench.hello())

    assert result.exit_code == 2
    assert result.stderr.startswith("error: no scene 'nowhere': no such file")


def test_an_agent_that_cannot_start_is_an_invalid_trial_saying_why_and_exits_3(bench, cli) -> None:
    why = "the agent command './no-such-agent' could not be started: No such file or directory"
    result = cli("run", "hello.yaml", "--agent", "./no-such-agent", "--trials", "2")
    folder = run_folder(bench)
    shown = cli("show", folder.name)
    stored = cli("show", folder.name, "--json")
    checked = cli("check", str(folder), "--json")  # scored again: still not the agent's doing

    assert result.exit_code == 3
    assert result.stderr.splitlines() == [*WARNING, f"run folder: runs/{folder.name}"]
    # Invalid trials are left out of every figure: no score either.
    [row] = [line for line in result.stdout.splitlines() if "│ hello" in line]
    assert row == "│ hello │ 0/0 (2 invalid) │ -      │ -      │ -      │ -     │"
    assert result.stdout.splitlines()[-5:] == [
        "└───────┴─────────────────┴────────┴────────┴────────┴───────┘",
        f"hello #1: invalid, not the agent's doing: {why}",
        f"hello #2: invalid, not the agent's doing: {why}",
        f"run folder: runs/{folder.name}",
        f"next: soundstage explain runs/{folder.name}",
    ]
    assert bench.json(folder / "hello" / "1" / "result.json")["infrastructure"] == why
    assert f"hello #1: invalid, not the agent's doing: {why}" in shown.stdout.splitlines()
    [scene] = json.loads(stored.stdout)["scenes"]
    assert [(t["outcome"], t["infrastructure"]) for t in scene["trials"]] == [("invalid", why)] * 2
    assert checked.exit_code == 3
    rescored = json.loads(checked.stdout)
    assert [(t["outcome"], [c["id"] for c in t["checks"]]) for t in rescored["trials"]] == [
        ("invalid", ["agent_started"])
    ] * 2


def test_an_agent_that_crashes_is_named_as_such_with_its_log(bench, cli) -> None:
    missing = shlex.join([sys.executable, str(bench.root / "no-such-agent.py")])  # python exits 2 for it
    exited = cli("run", "hello.yaml", "--agent", missing)
    folder = run_folder(bench)
    crashed = cli("run", "hello.yaml", "--agent", bench.agent("signal", "SIGSEGV"), "--out", "crashes")

    assert (exited.exit_code, crashed.exit_code) == (1, 1)  # the checks decide the exit code, as ever
    log = f"runs/{folder.name}/hello/1/agent.log"
    assert f"hello #1: the agent exited with code 2; its stderr: {log}" in exited.stdout.splitlines()
    assert "can't open file" in Path(log).read_text()
    [crash_folder] = [path for path in Path("crashes").iterdir() if path.is_dir()]
    log = f"crashes/{crash_folder.name}/hello/1/agent.log"
    assert f"hello #1: the agent was killed by SIGSEGV; its stderr: {log}" in crashed.stdout.splitlines()
    assert bench.json(crash_folder / "hello" / "1" / "result.json")["exit_code"] == -11


def test_strict_exits_4_when_an_unimplemented_endpoint_was_called(bench, cli) -> None:
    lenient = cli("run", "hello.yaml", "--agent", bench.agent("unknown"))
    strict = cli("run", "hello.yaml", "--agent", bench.agent("unknown"), "--strict")

    assert (lenient.exit_code, strict.exit_code) == (1, 4)
    assert "unimplemented endpoints called: 1 (--strict)" in strict.stdout
    assert strict.stdout.splitlines()[-1] == "next: soundstage list --operations"


def test_a_hung_agent_is_killed_at_the_timeout(bench, cli) -> None:
    result = cli("run", "hello.yaml", "--agent", bench.agent("hang"), "--timeout", "1")

    assert result.exit_code == 1
    assert "#1: said_hello, posted (timed out)" in result.stdout
    trial = bench.json(run_folder(bench) / "hello" / "1" / "result.json")
    assert (trial["timed_out"], trial["finish_reason"]) == (True, "timeout")


def test_json_prints_one_document_and_nothing_else(bench, cli) -> None:
    flag = cli("run", "hello.yaml", "--agent", bench.hello(), "--json", "--out", "elsewhere")
    env = cli(
        "run", "hello.yaml", "--agent", bench.agent("exit", "0"), "--out", "elsewhere", env={"SOUNDSTAGE_JSON": "1"}
    )

    assert (flag.exit_code, env.exit_code) == (0, 1)
    passed, failed = json.loads(flag.stdout), json.loads(env.stdout)
    assert passed["exit_code"] == 0 and failed["exit_code"] == 1
    assert (passed["agent"], passed["trials"], passed["strict"]) == (bench.hello(), 1, False)
    assert passed["folder"] == f"elsewhere/{passed['run_id']}"
    assert [(r["scene"], r["trial"], r["outcome"]) for r in passed["results"]] == [("hello", 1, "passed")]
    assert failed["results"][0]["failed_checks"] == ["said_hello", "posted"]
    assert passed == bench.json(Path(passed["folder"]) / "run.json")
    assert flag.stderr == env.stderr == ""  # nothing but the document, not even the run folder
    assert failed["figures"] == [
        {
            "scene": "hello",
            "status": "graded",
            "trials": 1,
            "invalid": 0,
            "passed": 0,
            "k": 1,
            "pass_at_1": 0.0,
            "pass_at_k": 0.0,
            "pass_hat_k": 0.0,
            "pass_at": {"1": 0.0},
            "pass_hat": {"1": 0.0},
            "mean_score": 0.0,
            "checks": {
                "said_hello": {"required": True, "passed": 0, "trials": 1, "pass_rate": 0.0},
                "posted": {"required": True, "passed": 0, "trials": 1, "pass_rate": 0.0},
            },
        }
    ]


def test_a_scene_without_checks_is_ungraded_and_exits_0(bench, cli) -> None:
    bench.write("plain.yaml", bench.scene.read_text().split("checks:")[0])

    result = cli("run", "plain.yaml", "--agent", bench.agent("exit", "0"), "--trials", "2")
    document = cli("run", "plain.yaml", "--agent", bench.agent("exit", "0"), "--json", "--out", "again")

    assert (result.exit_code, document.exit_code) == (0, 0)
    [row] = [
        [cell.strip() for cell in line.split("│")[1:6]] for line in result.stdout.splitlines() if "│ hello" in line
    ]
    assert row == ["hello", "ungraded (2 trials)", "-", "-", "-"]
    assert "checks passed" not in result.stdout
    run = json.loads(document.stdout)
    assert [r["outcome"] for r in run["results"]] == ["ungraded"]
    checked = cli("check", f"runs/{run_folder(bench).name}/hello/1").stdout.splitlines()
    assert checked == [
        "ungraded: the scene has no checks",
        f"next: soundstage explain runs/{run_folder(bench).name}/hello/1",
    ]
    explained = cli("explain").stdout.splitlines()
    assert explained[:2] == [
        f"hello #1: ungraded  [runs/{run_folder(bench).name}/hello/1]",
        "  the scene has no checks",
    ]
    assert run["figures"] == [
        {
            "scene": "hello",
            "status": "ungraded",
            "trials": 1,
            "invalid": 0,
            "passed": None,
            "k": 1,
            "pass_at_1": None,
            "pass_at_k": None,
            "pass_hat_k": None,
            "pass_at": None,
            "pass_hat": None,
            "mean_score": None,
            "checks": {},
        }
    ]


def test_json_errors_are_one_document_too(bench, cli) -> None:
    url = "postgresql://postgres@127.0.0.1:1/test"  # nobody listens there
    result = cli("run", "hello.yaml", "--agent", bench.hello(), "--db", url, "--json")

    assert result.exit_code == 3
    error = json.loads(result.stdout)["error"]
    assert (error["type"], error["exit_code"]) == ("InfrastructureError", 3)
    assert error["message"].startswith(f"cannot reach the results store {url}: ")
    assert result.stderr == ""


def test_bad_options_are_usage_errors(bench, cli) -> None:
    assert cli("run", "hello.yaml").exit_code == 2  # no --agent
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--trials", "0").exit_code == 2
    assert cli("run", "hello.yaml", "--agent", "python 'unclosed").exit_code == 2
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--ray-address", "auto").exit_code == 2  # no --ray
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--ray-shared-out").exit_code == 2


def test_help_says_how_to_run_on_a_ray_cluster(cli) -> None:
    shown = cli("run", "--help").stdout

    assert "--ray " in shown and "--ray-address ADDRESS" in shown and "--ray-shared-out" in shown
    assert "soundstage[ray]" in shown


def imported_by_a_run(bench, picked: str) -> str:
    """`soundstage run hello.yaml` in a fresh process: its exit code and the modules it imported that the
    expression `picked` (on a module's name `m`) picks, as the process printed them."""
    probe = (
        "import sys\n"
        "from soundstage.cli import main\n"
        f"try:\n    main(['run', 'hello.yaml', '--agent', {bench.hello()!r}])\nexcept SystemExit as exc:\n"
        f"    print(exc.code, sorted(m for m in sys.modules if {picked}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=bench.root)
    return done.stdout.splitlines()[-1]


def test_a_run_without_ray_never_imports_it(bench) -> None:
    assert imported_by_a_run(bench, "m.split('.')[0] == 'ray' or m.endswith('runner_ray')") == "0 []"


def test_a_run_writing_an_existing_sqlite_store_never_imports_sqlalchemy(bench) -> None:
    runs = [imported_by_a_run(bench, "m in ('sqlalchemy', 'alembic')") for _ in range(2)]

    # The first run makes the store (Alembic, on SQLAlchemy); the second writes it with the stdlib's sqlite3.
    assert runs == ["0 ['alembic', 'sqlalchemy']", "0 []"]


def test_a_run_of_a_world_that_generates_nothing_never_imports_faker(bench) -> None:
    # hello.yaml has no `generate:`: Faker is for the noise a world generates.
    assert imported_by_a_run(bench, "m.split('.')[0] == 'faker'") == "0 []"


def test_a_run_off_a_terminal_never_imports_rich_progress(bench) -> None:
    # The live progress line is drawn on a terminal only; the summary's table needs the rest of rich.
    assert imported_by_a_run(bench, "m == 'rich.progress'") == "0 []"


def test_progress_counts_trials_done_and_passing(bench, capsys) -> None:
    trials = bench.run(bench.hello(), trials=2).results + bench.run(bench.agent("exit", "2")).results
    with _progress(3, live=True) as progress:
        for trial in trials:
            progress.trial(trial)
        status = progress.status()

    assert status == "3/3 trials done, 2 passing"
    # The live line itself is drawn only on a terminal; the trial lines stay above it.
    assert [line for line in capsys.readouterr().err.splitlines() if line] == [
        "[1/3] hello #1: passed",
        "[2/3] hello #2: passed",
        "[3/3] hello #1: failed (the agent exited with code 2)",
    ]


def test_variables_for_the_agent_from_the_command_line(bench, cli, monkeypatch) -> None:
    monkeypatch.setenv("SOUNDSTAGE_TEST_MODEL_KEY", "sk-cli-0123456789")
    command = bench.agent("print-env", "SOUNDSTAGE_TEST_MODEL_KEY", "MODEL")
    result = cli(
        "run", "hello.yaml", "--agent", command, "--pass-env", "SOUNDSTAGE_TEST_MODEL_KEY", "--env", "MODEL=m=1"
    )
    [trial] = bench.out.glob("*/hello/1")
    assert (trial / "output.txt").read_text() == "SOUNDSTAGE_TEST_MODEL_KEY=[SOUNDSTAGE_TEST_MODEL_KEY]\nMODEL=m=1\n"
    assert result.exit_code == 1  # it said nothing in #general

    refused = cli("run", "hello.yaml", "--agent", command, "--env", "MODEL", "--json")
    assert refused.exit_code == 2
    assert json.loads(refused.stdout)["error"]["message"] == "--env takes NAME=VALUE, not 'MODEL'"


def test_intercept_lets_an_agent_left_at_slack_com_pass(bench, cli) -> None:
    code = (
        "import os; from slack_sdk import WebClient; client = WebClient(token=os.environ['SLACK_BOT_TOKEN']); "
        "general = next(c['id'] for c in client.conversations_list()['channels'] if c['name'] == 'general'); "
        "client.chat_postMessage(channel=general, text='hello from slack.com')"
    )
    agent = shlex.join([sys.executable, "-c", code])
    result = cli("run", "hello.yaml", "--agent", agent, "--intercept", "--json")
    assert result.exit_code == 0, result.stdout
    [trial] = json.loads(result.stdout)["results"]
    assert trial["counts"]["calls"] == 2
