"""`soundstage check`: a saved trial scored again (with its scene's checks or others), or a live world."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.ports import free_port
from tests.processes import kill_a_run, linux_only

from soundstage.checks import KINDS, STATE_CHECKS
from soundstage.store import open_store

# The kinds a check may have and the state checks, as the registries list them.
KNOWN_KINDS = ", ".join(sorted([*KINDS, "state"]))
KNOWN_STATE_CHECKS = ", ".join(sorted(STATE_CHECKS))


@pytest.fixture
def trial(bench) -> Path:
    run = bench.run(bench.hello())
    return Path(run.results[0].folder)


def test_a_saved_trial_scores_as_it_did(bench, cli, trial: Path) -> None:
    result = cli("check", str(trial))

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("pass  said_hello (state:slack.message): Passed: expected ")
    assert lines[1].startswith("pass  posted (trace): Passed: expected ")
    assert lines[2:] == ["passed: 2 of 2 checks passed, score 1.00", f"next: soundstage explain {trial}"]


def test_a_trial_saved_before_scores_existed_is_scored_and_explained(bench, cli, trial: Path) -> None:
    # checks.json as version 1 wrote it: no score; and run.json as it was then: no digests of the trial's files.
    saved = json.loads((trial / "checks.json").read_text())
    old = [{**{k: v for k, v in r.items() if k != "score"}, "version": 1} for r in saved]
    (trial / "checks.json").write_text(json.dumps(old))
    bench.forget_digests(trial)

    checked = cli("check", str(trial), "--json")
    explained = cli("explain", str(trial), "--json")

    assert (checked.exit_code, explained.exit_code) == (0, 0)
    assert [(r["score"], r["version"]) for r in json.loads(checked.stdout)["checks"]] == [(1.0, 3), (1.0, 3)]
    assert json.loads(explained.stdout)["trials"][0]["outcome"] == "passed"


def test_json_is_the_same_evaluation_the_run_wrote(bench, cli, trial: Path) -> None:
    result = cli("check", str(trial), "--json")

    assert result.exit_code == 0
    evaluation = json.loads(result.stdout)
    assert (evaluation["passed"], evaluation["invalid"]) == (True, False)
    assert evaluation["checks"] == bench.json(trial / "checks.json")


@linux_only
def test_a_trial_whose_run_was_killed_is_scored_on_what_it_recorded(bench, cli) -> None:
    pids = bench.root / "pids.json"
    trial = kill_a_run(bench.scene, bench.agent("hello-hang", str(pids)), bench.out, pids.exists)
    assert not (trial / "result.json").exists()
    bench.write("said.yaml", "- id: said\n  output: {contains: hello}\n")

    human = cli("check", str(trial))
    data = json.loads(cli("check", str(trial), "--json").stdout)
    output = json.loads(cli("check", str(trial), "--checks", "said.yaml", "--json").stdout)

    assert human.exit_code == 0, human.output
    lines = human.stdout.splitlines()
    assert lines[0] == "the run ended before this trial did (no result.json): scored on what was recorded until then"
    assert lines[1].startswith("pass  said_hello (state:slack.message): Passed: expected ")
    assert lines[2].startswith("pass  posted (trace): Passed: expected ")
    assert lines[3:] == ["passed: 2 of 2 checks passed, score 1.00", f"next: soundstage explain {trial}"]
    assert (data["passed"], data["interrupted"]) == (True, True)
    assert [(c["id"], c["passed"], c["actual"]) for c in output["checks"]] == [
        ("said", None, "the agent has given no output yet")
    ]


def test_json_says_a_trial_that_ended_was_not_interrupted(bench, cli, trial: Path) -> None:
    assert json.loads(cli("check", str(trial), "--json").stdout)["interrupted"] is False


CUT_SHORT = "events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out"


def test_a_log_cut_short_is_scored_without_its_last_line_and_says_so(bench, cli, trial: Path) -> None:
    events = trial / "events.jsonl"
    whole = events.read_text()
    events.write_text(whole + whole.splitlines()[1][:30])  # what a run stopped while writing a line leaves
    bench.forget_digests(trial)

    human = cli("check", str(trial))
    data = json.loads(cli("check", str(trial), "--json").stdout)
    run = cli("check", str(trial.parent.parent))

    assert human.exit_code == 0, human.output
    lines = human.stdout.splitlines()
    assert lines[0] == CUT_SHORT
    assert lines[1].startswith("pass  said_hello (state:slack.message): Passed: expected ")
    assert lines[3:] == ["passed: 2 of 2 checks passed, score 1.00", f"next: soundstage explain {trial}"]
    assert (data["passed"], data["notes"]) == (True, [CUT_SHORT])
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[:2] == ["hello #1: passed", f"  {CUT_SHORT}"]


def test_a_line_of_the_log_that_is_no_json_is_an_error_naming_it(bench, cli, trial: Path) -> None:
    events = trial / "events.jsonl"
    lines = events.read_text().splitlines(keepends=True)
    events.write_text("".join([lines[0], '{"seq": 2, "kind": \n', *lines[2:]]))
    bench.forget_digests(trial)

    result = cli("check", str(trial))

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {events}:2: not JSON: Expecting value: line 2 column 1 (char 20)",
        "next: soundstage check --help",
    ]


def test_other_checks_from_a_file(bench, cli, trial: Path) -> None:
    checks = bench.write(
        "more.yaml",
        "- id: said_bye\n  state: {slack.message: {channel: $general, text_contains: bye}}\n"
        '- id: posted_once\n  trace: {called: "POST /api/chat.postMessage", times: {exactly: 1}}\n',
    )

    result = cli("check", str(trial), "--checks", str(checks), "--json")

    assert result.exit_code == 1
    evaluation = json.loads(result.stdout)
    assert [(c["id"], c["passed"], c["required"], c["source"]) for c in evaluation["checks"]] == [
        ("said_bye", False, True, "custom"),
        ("posted_once", True, True, "custom"),
    ]


def test_a_json_list_of_checks_works_too(bench, cli, trial: Path) -> None:
    checks = bench.write("more.json", json.dumps([{"id": "called_any", "trace": {"called": "*"}}]))

    result = cli("check", str(trial), "--checks", str(checks))

    assert result.exit_code == 0
    assert result.stdout.splitlines()[-2] == "passed: 1 of 1 checks passed, score 1.00"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "id: x\n",
            (
                "error: more.yaml:1: expected a list of checks, each a mapping with an id and one kind key, or a check "
                "library (a mapping with `checks`)"
            ),
        ),
        (
            "- id: x\n  colour: red\n",
            f"error: more.yaml:2: checks[0].colour: unknown check kind 'colour' (a check has one of: {KNOWN_KINDS})",
        ),
        ("- [unclosed\n", "error: more.yaml:2: invalid YAML: expected ',' or ']', but got '<stream end>'"),
    ],
)
def test_a_bad_checks_file_exits_2(bench, cli, trial: Path, text: str, error: str) -> None:
    bench.write("more.yaml", text)

    result = cli("check", str(trial), "--checks", "more.yaml")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [error, "next: soundstage check --help"]


def test_missing_or_confused_arguments_exit_2(bench, cli, trial: Path) -> None:
    assert cli("check").exit_code == 2
    assert cli("check", str(trial), "--world", "http://127.0.0.1:1/v1/worlds/w1").exit_code == 2
    missing = cli("check", "no/such/trial")
    assert missing.exit_code == 2
    assert missing.stderr.splitlines()[0] == "error: no trial folder at no/such/trial"


@pytest.fixture
def admin(stage, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --world` sends SOUNDSTAGE_ADMIN_TOKEN, as a user's shell would."""
    monkeypatch.setenv("SOUNDSTAGE_ADMIN_TOKEN", stage.server.admin_token)


def test_a_live_world(stage, cli, bench, admin) -> None:
    live = stage.world(scene_yaml=bench.scene.read_text())
    url = f"{stage.url}/v1/worlds/{live.id}"

    before = cli("check", "--world", url)
    general = live.world.refs["general"]
    live.slack().chat_postMessage(channel=general, text="hello there")
    after = cli("check", "--world", url, "--json")

    assert before.exit_code == 1
    assert before.stdout.splitlines()[-2:] == ["failed: 0 of 2 checks passed, score 0.00", f"next: curl -s {url}/trace"]
    assert after.exit_code == 0
    assert [(c["id"], c["passed"]) for c in json.loads(after.stdout)["checks"]] == [
        ("said_hello", True),
        ("posted", True),
    ]


def test_a_live_world_with_other_checks(stage, cli, bench, admin) -> None:
    live = stage.world(scene_yaml=bench.scene.read_text())
    checks = bench.write("quiet.yaml", "- id: quiet\n  trace: {no_calls: true}\n")

    result = cli("check", "--world", f"{stage.url}/v1/worlds/{live.id}", "--checks", str(checks), "--json")

    assert result.exit_code == 0
    assert [(c["id"], c["passed"], c["source"]) for c in json.loads(result.stdout)["checks"]] == [
        ("quiet", True, "custom")
    ]


def test_a_live_world_needs_the_admin_token(stage, cli, bench) -> None:
    live = stage.world(scene_yaml=bench.scene.read_text())
    result = cli("check", "--world", f"{stage.url}/v1/worlds/{live.id}", env={"SOUNDSTAGE_ADMIN_TOKEN": ""})
    assert result.exit_code == 2
    assert "answered 401: this call needs the admin token" in result.stderr.splitlines()[0]


def test_an_unknown_or_unreachable_world(stage, cli, admin) -> None:
    unknown = cli("check", "--world", f"{stage.url}/v1/worlds/w999")
    nobody = f"http://127.0.0.1:{free_port()}/v1/worlds/w1"
    unreachable = cli("check", "--world", nobody)

    assert unknown.exit_code == 2
    assert unknown.stderr.splitlines()[0] == f"error: {stage.url}/v1/worlds/w999: no live world 'w999'"
    assert unreachable.exit_code == 3
    assert unreachable.stderr.startswith(f"error: cannot reach {nobody}:")


def stored_run(bench, cli, store_url: str, trials: str = "2") -> Path:
    """A run of the hello scene written to the store at `store_url`: its run folder."""
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--trials", trials, "--db", store_url).exit_code == 0
    [run] = [path for path in bench.out.iterdir() if path.is_dir()]
    return run.relative_to(bench.root)


def test_a_run_folder_is_scored_again_and_stored_as_a_new_evaluation(bench, cli, store_url: str) -> None:
    run = stored_run(bench, cli, store_url)
    bench.write(
        "bye.yaml",
        "- id: said_bye\n  state: {slack.message: {channel: $general, text_contains: bye}}\n"
        '- id: posted\n  trace: {called: "POST /api/chat.postMessage"}\n',
    )

    again = cli("check", str(run), "--db", store_url, "--json")
    other = cli("check", str(run), "--checks", "bye.yaml", "--db", store_url)

    assert again.exit_code == 0, again.output
    document = json.loads(again.stdout)
    assert (document["run_id"], document["checks_file"], document["evaluation"], document["note"]) == (
        run.name,
        None,
        1,
        None,
    )
    assert [(t["scene"], t["trial"], t["outcome"], t["interrupted"]) for t in document["trials"]] == [
        ("hello", 1, "passed", False),
        ("hello", 2, "passed", False),
    ]
    assert document["trials"][0]["checks"] == bench.json(run / "hello" / "1" / "checks.json")
    [figures] = document["figures"]
    assert (figures["passed"], figures["pass_at"], figures["pass_hat"]) == (
        2,
        {"1": 1.0, "2": 1.0},
        {"1": 1.0, "2": 1.0},
    )
    assert other.exit_code == 1
    assert other.stdout.splitlines() == [
        "hello #1: failed: said_bye",
        "hello #2: failed: said_bye",
        "hello: 0/2 passed, pass@1 0%, pass@2 0%, pass^2 0%, mean score 0.50",
        "hello checks passed: said_bye 0%, posted 100%",
        f"evaluation 2 of run {run.name}, written to {document['store']}",
        f"next: soundstage show {run.name} --evaluation 2 --db ...",
    ]


def test_the_default_store_of_a_run_folder_is_its_parents_soundstage_db(bench, cli, monkeypatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_DB", raising=False)
    run = stored_run(bench, cli, "sqlite:///runs/soundstage.db", trials="1")

    result = cli("check", str(run), "--json")

    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert (document["store"], document["evaluation"]) == ("sqlite:///runs/soundstage.db", 1)


def test_a_run_the_store_does_not_hold_is_scored_and_says_so(bench, cli, monkeypatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_DB", raising=False)
    run = Path(bench.run(bench.agent("exit", "0")).folder).relative_to(bench.root)  # written without a store
    other = f"sqlite:///{bench.root / 'other.db'}"
    open_store(other).close()  # a store without runs

    result = cli("check", str(run))
    elsewhere = json.loads(cli("check", str(run), "--db", other, "--json").stdout)

    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "hello #1: failed: said_hello, posted",
        "hello: 0/1 passed, pass@1 0%, mean score 0.00",
        "hello checks passed: said_hello 0%, posted 0%",
        "no results store at sqlite:///runs/soundstage.db: this evaluation is not stored",
        f"next: soundstage explain {run}",
    ]
    assert not (bench.out / "soundstage.db").exists()
    assert (elsewhere["evaluation"], elsewhere["note"]) == (
        None,
        f"the results store {other} has no run {run.name}: this evaluation is not stored",
    )


def test_a_run_folder_is_stored_only_as_the_run_the_store_has_from_it(bench, cli, store_url: str) -> None:
    run = stored_run(bench, cli, store_url, trials="1")
    copy = bench.root / "elsewhere" / run.name  # the same run id, in another folder
    shutil.copytree(run, copy)

    result = json.loads(cli("check", str(copy), "--db", store_url, "--json").stdout)

    assert (result["evaluation"], result["note"]) == (
        None,
        f"the run {run.name} of the results store {result['store']} is the one in {run}: this evaluation is not stored",
    )


def test_a_bad_checks_file_for_a_run_folder_names_its_line(bench, cli) -> None:
    run = Path(bench.run(bench.hello()).folder)
    bench.write("more.yaml", "- id: x\n  colour: red\n")

    result = cli("check", str(run), "--checks", "more.yaml", "--json")

    assert result.exit_code == 2
    [error] = json.loads(result.stdout)["error"]["errors"]
    assert (error["file"], error["line"], error["field"]) == ("more.yaml", 2, "checks[0].colour")


@linux_only
def test_a_run_whose_trials_the_store_does_not_hold_is_scored_but_not_stored(bench, cli, monkeypatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_DB", raising=False)
    pids = bench.root / "pids.json"
    trial = kill_a_run(bench.scene, bench.agent("hello-hang", str(pids)), bench.out, pids.exists)
    run = trial.parent.parent

    result = cli("check", str(run))

    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "hello #1: passed (the run ended before this trial did: scored on what was recorded)",
        "hello: 1/1 passed, pass@1 100%, mean score 1.00",
        "hello checks passed: said_hello 100%, posted 100%",
        (
            f"the results store sqlite:///{bench.out}/soundstage.db holds none of these trials "
            "(the run ended before they did): this evaluation is not stored"
        ),
        f"next: soundstage explain {run}",
    ]
