"""Runs of `soundstage run` over HTTP (docs/http.md, "Runs"): from run folders and from the results store,
listed with the server's own runs, read trial by trial, and compared."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
from tests.runs import write_run
from tests.sandboxes import SANDBOX

from soundstage.results import FolderRuns
from soundstage.runner import run_scenes
from soundstage.server import Server
from soundstage.store import open_store

from .test_control import SCENE
from .test_runs import finish, say_hello

STAGE = Path(__file__).parents[1] / "cli" / "stage"


NO_SANDBOX = "the agent ran without a sandbox: it could read and change files of this run"


def agent(mode: str, *args: str) -> str:
    return shlex.join([sys.executable, str(STAGE / "agent.py"), mode, *args])


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two runs of the hello scene, two trials each: one by an agent that greets, one by an agent that exits."""
    root = tmp_path_factory.mktemp("library")
    shutil.copy(STAGE / "hello.yaml", root / "hello.yaml")
    for mode in ("hello", "exit"):
        run_scenes([str(root / "hello.yaml")], agent(mode), trials=2, out=root / "runs")
    return root / "runs"


def runs_of(out: Path) -> tuple[str, str]:
    good, bad = sorted(folder.name for folder in out.iterdir() if folder.is_dir())
    return good, bad


def client(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {server.admin_token}"}, timeout=30)


@pytest.fixture
def served(out: Path) -> Iterator[httpx.Client]:
    with Server(tls_port=None, libraries=[FolderRuns(out)]) as server, client(server) as http:
        yield http


def test_runs_of_soundstage_run_are_listed(served: httpx.Client, out: Path) -> None:
    good, bad = runs_of(out)
    listed = {run["id"]: run for run in served.get("/v1/runs").json()}
    assert sorted(listed) == [good, bad]
    entry = listed[good]
    assert {key: entry[key] for key in ("scene", "scenes", "trials", "status", "source", "exit_code", "metadata")} == {
        "scene": "hello",
        "scenes": ["hello"],
        "trials": 2,
        "status": "done",
        "source": "cli",
        "exit_code": 0,
        "metadata": {},
    }
    assert entry["agent"] == agent("hello")
    assert [(f["scene"], f["passed"], f["pass_at_1"], f["pass_hat_k"]) for f in entry["scene_figures"]] == [
        ("hello", 2, 1.0, 1.0)
    ]
    assert [(f["passed"], f["pass_at_1"]) for f in listed[bad]["scene_figures"]] == [(0, 0.0)]
    assert listed[bad]["exit_code"] == 1


def test_a_run_and_its_trials_read_back(served: httpx.Client, out: Path) -> None:
    good, bad = runs_of(out)
    run = served.get(f"/v1/runs/{bad}").json()
    assert (run["id"], run["status"], run["folder"]) == (bad, "done", str(out / bad))
    assert [(t["scene"], t["trial"], t["outcome"], t["finish_reason"]) for t in run["results"]] == [
        ("hello", 1, "failed", "exited"),
        ("hello", 2, "failed", "exited"),
    ]
    assert [(c["id"], c["passed"]) for c in run["results"][0]["checks"]] == [("said_hello", False), ("posted", False)]
    assert run["figures"] == run["scene_figures"][0]
    assert run["figures"]["checks"]["said_hello"] == {"required": True, "passed": 0, "trials": 2, "pass_rate": 0.0}

    trial = served.get(f"/v1/runs/{good}/trials/2").json()
    assert (trial["scene"], trial["trial"], trial["outcome"]) == ("hello", 2, "passed")
    assert trial["folder"] == str(out / good / "hello" / "2")
    assert [call["path"] for call in trial["trace"]] == ["/api/conversations.list", "/api/chat.postMessage"]
    assert [event["kind"] for event in trial["events"]] == ["start", "call", "call", "write", "finish"]
    assert [m["text"] for m in trial["diff"]["slack.messages"]["added"]] == ["hello from the agent"]
    assert trial["output"] == "said hello\n"
    # The evidence of a check is the seq of entries of the trial's events.
    posted = next(c for c in trial["checks"] if c["id"] == "posted")
    assert [e["kind"] for e in trial["events"] if e["seq"] in posted["evidence"]] == ["call"]

    assert served.get(f"/v1/runs/{good}/trials/2?scene=hello").json() == trial
    for path in (f"/v1/runs/{good}/trials/3", f"/v1/runs/{good}/trials/1?scene=other", "/v1/runs/nope/trials/1"):
        response = served.get(path)
        assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found"), path


def test_a_trial_gives_each_calls_answer_its_agents_stderr_and_its_records_names(
    served: httpx.Client, out: Path
) -> None:
    good, _ = runs_of(out)
    trial = served.get(f"/v1/runs/{good}/trials/1").json()
    calls = [event for event in trial["events"] if event["kind"] == "call"]
    assert calls == trial["trace"]  # each call's answer as the trace recorded it
    listed, posted = calls
    assert (listed["status"], [c["name"] for c in listed["response"]["channels"]]) == (200, ["general"])
    assert (posted["status"], posted["response"]["ok"], posted["response"]["message"]["text"]) == (
        200,
        True,
        "hello from the agent",
    )
    # The hello agent writes its task to its stderr, which the run keeps in agent.log.
    assert json.loads(trial["stderr"])["stdin"] == "Say hello in #general."
    assert trial["names"][posted["body"]["channel"]] == "#general"
    assert trial["names"][posted["actor"]] == "@stagebot"
    assert sorted(trial["names"].values()) == ["#general", "@maya", "@slackbot", "@stagebot"]


def test_a_long_stderr_is_served_by_its_end_and_says_so(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "20261201-093000", {"greet": [{"said": True}]})
    (folder / "greet" / "1" / "agent.log").write_bytes(b"x" * 70_000 + b"Traceback: the end\n")
    with Server(tls_port=None, libraries=[FolderRuns(extra=[folder])]) as server, client(server) as http:
        trial = http.get("/v1/runs/20261201-093000/trials/1").json()
    assert len(trial["stderr"]) == 65_536
    assert trial["stderr"].endswith("xxTraceback: the end\n")
    assert trial["notes"] == ["agent.log: 70,019 bytes; only its last 65,536 are shown"]
    assert trial["names"] == {}  # no state.json


def test_the_runs_listed_by_scene_agent_and_day(served: httpx.Client, out: Path) -> None:
    good, bad = runs_of(out)

    def listed(**query: str) -> list[str]:
        response = served.get("/v1/runs", params=query)
        assert response.status_code == 200, response.text
        return [run["id"] for run in response.json()]

    day = served.get(f"/v1/runs/{good}").json()["created"][:10]
    before = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
    assert listed() == listed(scene="hello") == listed(since=day, until=day) == listed(since=before) == [good, bad]
    assert listed(agent=agent("hello")) == [good]
    assert listed(agent=agent("exit"), scene="hello", until=day) == [bad]
    assert listed(scene="other") == listed(until=before) == listed(agent="python") == []


@pytest.mark.parametrize(
    "query, message",
    [
        ("scene=hello&scene=other", "give scene once, not empty"),
        ("agent=", "give agent once, not empty"),
        ("since=2026-13-01", "since must be a day as YYYY-MM-DD, got '2026-13-01'"),
        ("until=20261201", "until must be a day as YYYY-MM-DD, got '20261201'"),
        ("scenes=hello", "unknown parameter 'scenes': the parameters are scene, agent, since, until"),
    ],
)
def test_a_list_of_runs_refuses_what_it_cannot_select_by(served: httpx.Client, query: str, message: str) -> None:
    response = served.get(f"/v1/runs?{query}")
    assert (response.status_code, response.json()["error"]) == (400, {"code": "invalid_request", "message": message})


def test_two_runs_compared(served: httpx.Client, out: Path) -> None:
    good, bad = runs_of(out)
    comparison = served.get(f"/v1/compare?a={good}&b={bad}").json()
    assert (comparison["a"], comparison["b"], comparison["regressed"]) == (good, bad, True)
    assert [(w["check"], w["a"], w["b"], w["trial_numbers"]) for w in comparison["worse"]] == [
        (None, 1.0, 0.0, [1, 2]),
        ("said_hello", 1.0, 0.0, [1, 2]),
        ("posted", 1.0, 0.0, [1, 2]),
    ]
    assert served.get(f"/v1/compare?a={bad}&b={good}").json()["regressed"] is False
    missing = served.get(f"/v1/compare?a={good}")
    assert (missing.status_code, missing.json()["error"]["code"]) == (400, "invalid_request")
    unknown = served.get(f"/v1/compare?a={good}&b=nope")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "not_found")


def test_a_run_of_several_scenes_needs_the_scene_of_a_trial(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "20261201-093000", {"deploy": [{"posted": True}], "greet": [{"said": False}]})
    with Server(tls_port=None, libraries=[FolderRuns(extra=[folder])]) as server, client(server) as http:
        [listed] = http.get("/v1/runs").json()
        assert (listed["id"], listed["scene"], listed["scenes"], listed["status"]) == (
            "20261201-093000",
            None,
            ["deploy", "greet"],
            "running",  # no run.json: the run was stopped before it ended
        )
        assert listed["created"] == "2026-12-01T09:30:00Z"
        response = http.get("/v1/runs/20261201-093000/trials/1")
        assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
        assert "one of deploy, greet" in response.json()["error"]["message"]
        trial = http.get("/v1/runs/20261201-093000/trials/1?scene=greet").json()
        assert (trial["outcome"], trial["trace"], trial["events"], trial["output"]) == ("failed", [], [], "")


def test_a_trial_whose_files_were_cut_short_is_served_without_their_last_lines_and_says_so(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "20261201-093000", {"greet": [{"said": True}]})
    (folder / "greet" / "1" / "events.jsonl").write_text('{"seq": 1, "kind": "start"}\n{"seq": 2, "kind": "ca')
    (folder / "greet" / "1" / "trace.jsonl").write_text('{"seq": 2, "kind": "ca')
    with Server(tls_port=None, libraries=[FolderRuns(extra=[folder])]) as server, client(server) as http:
        trial = http.get("/v1/runs/20261201-093000/trials/1").json()
    cut = "its last line is cut short (the run was stopped while writing it) and is left out"
    assert (trial["events"], trial["trace"], trial["notes"]) == (
        [{"seq": 1, "kind": "start"}],
        [],
        [f"trace.jsonl: {cut}", f"events.jsonl: {cut}"],
    )


def test_runs_from_the_store_and_a_trial_whose_folder_is_gone(store_url: str, tmp_path: Path) -> None:
    shutil.copy(STAGE / "hello.yaml", tmp_path / "hello.yaml")
    store = open_store(store_url)
    assert store is not None
    made = run_scenes(
        [str(tmp_path / "hello.yaml")], agent("hello"), out=tmp_path / "runs", store=lambda: open_store(store_url)
    )
    with Server(tls_port=None, libraries=[store]) as server, client(server) as http:
        [listed] = http.get("/v1/runs").json()
        assert (listed["id"], listed["source"], listed["exit_code"], listed["scenes"]) == (
            made.run_id,
            "cli",
            0,
            ["hello"],
        )
        assert [(f["scene"], f["passed"], f["pass_at_1"]) for f in listed["scene_figures"]] == [("hello", 1, 1.0)]
        described = http.get(f"/v1/runs/{made.run_id}").json()
        assert [e["number"] for e in described["evaluations"]] == [0]
        trial = http.get(f"/v1/runs/{made.run_id}/trials/1").json()
        assert len(trial["trace"]) == 2
        shutil.rmtree(made.folder)  # a shared store: the folders are on another machine
        trial = http.get(f"/v1/runs/{made.run_id}/trials/1").json()
        log = ("trace", "events", "diff", "output", "stderr", "names")
        assert (trial["outcome"], *(trial[key] for key in log)) == ("passed", None, None, None, None, None, None)
        # Nothing to say of a trial whose files cannot be read here but what the store has: its sandbox.
        assert (trial["changed_since_graded"], trial["notes"]) == (None, [] if SANDBOX == "bwrap" else [NO_SANDBOX])
        assert [c["id"] for c in trial["checks"]] == ["said_hello", "posted"]
    store.close()


def test_a_run_over_http_written_to_the_store_is_listed_once(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'soundstage.db'}")
    assert store is not None
    with Server(tls_port=None, results=store, libraries=[store]) as server, client(server) as http:
        run = http.post("/v1/runs", json={"scene_yaml": SCENE}).json()
        [world] = run["worlds"]
        say_hello(world)
        finish(None, world)
        listed = http.get("/v1/runs").json()
        assert [(r["id"], r["source"], r["status"]) for r in listed] == [(run["id"], "http", "done")]
    store.close()


def test_what_a_reader_should_know_of_a_trial_is_in_the_run_and_the_trial(tmp_path: Path) -> None:
    shutil.copy(STAGE / "hello.yaml", tmp_path / "hello.yaml")
    made = run_scenes([str(tmp_path / "hello.yaml")], agent("hello"), trials=2, out=tmp_path / "runs", sandbox="none")
    changed = Path(made.folder) / "hello" / "2" / "events.jsonl"
    changed.write_text(changed.read_text() + '{"seq": 99, "kind": "finish", "t": "2026-03-02T14:00:00Z"}\n')

    with Server(tls_port=None, libraries=[FolderRuns(tmp_path / "runs")]) as server, client(server) as http:
        run = http.get(f"/v1/runs/{made.run_id}").json()
        trial = http.get(f"/v1/runs/{made.run_id}/trials/2").json()

    no_sandbox = NO_SANDBOX
    assert [(t["sandbox"], t["infrastructure"], t["changed_since_graded"], t["notes"]) for t in run["results"]] == [
        ("none", None, [], [no_sandbox]),
        ("none", None, ["events.jsonl"], [no_sandbox, "changed since it was graded: events.jsonl"]),
    ]
    assert (trial["sandbox"], trial["changed_since_graded"]) == ("none", ["events.jsonl"])
    assert trial["notes"] == [no_sandbox, "changed since it was graded: events.jsonl"]
