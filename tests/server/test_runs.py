"""Runs over HTTP (docs/http.md, "Runs"): made, driven by the agent's own tokens, finished and read back."""

from __future__ import annotations

import httpx
import pytest

from soundstage.server import Server
from soundstage.store import open_store

from .test_control import SCENE

HELLO = {"id": "greeted", "trace": {"called": "POST /api/chat.postMessage", "times": {"exactly": 1}}}


def create(stage, **body):
    return stage.http.post("/v1/runs", json={"scene_yaml": SCENE, **body})


def say_hello(world, text="hello there"):
    client = world_client(world)
    general = client.conversations_list()["channels"][0]["id"]
    client.chat_postMessage(channel=general, text=text)


def world_client(world):
    from slack_sdk import WebClient

    return WebClient(token=world["env"]["SLACK_BOT_TOKEN"], base_url=world["env"]["SLACK_API_URL"])


def finish(stage, world, output="done"):
    return httpx.post(
        f"{world['env']['SOUNDSTAGE_URL']}/finish",
        json={"output": output},
        headers={"authorization": f"Bearer {world['env']['SOUNDSTAGE_TOKEN']}"},
    )


def test_a_run_with_custom_checks_driven_and_finished_by_the_agent(stage):
    response = create(stage, checks=[HELLO, {"output": {"contains": "done"}}], metadata={"prompt": "v2"})
    assert response.status_code == 201, response.text
    run = response.json()
    assert run["status"] == "running"
    [world] = run["worlds"]
    assert world["trial"] == 1
    assert world["urls"]["slack"] == f"{stage.url}/w/{world['id']}/slack"
    assert world["env"]["SOUNDSTAGE_URL"] == f"{stage.url}/v1/worlds/{world['id']}"

    running = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert running["status"] == "running"
    assert running["results"] == [
        {
            "scene": "control-test",
            "trial": 1,
            "world": world["id"],
            "outcome": None,
            "score": None,
            "finish_reason": None,
            "checks": None,
        }
    ]
    assert (running["figures"], running["scene_figures"], running["exit_code"]) == (None, [], None)

    say_hello(world)
    finished = finish(stage, world)
    assert finished.status_code == 200
    assert finished.json()["finished"] is True  # and no grades for the agent

    done = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert (done["id"], done["scene"], done["trials"], done["status"]) == (run["id"], "control-test", 1, "done")
    assert done["metadata"] == {"prompt": "v2"}
    [trial] = done["results"]
    assert (trial["outcome"], trial["score"], trial["finish_reason"]) == ("passed", 1.0, "finished")
    assert [(c["id"], c["passed"], c["source"], c["required"]) for c in trial["checks"]] == [
        ("said_hello", True, "scene", True),
        ("posted", True, "scene", True),
        ("greeted", True, "custom", True),
        ("custom_1", True, "custom", True),
    ]
    figures = done["figures"]
    assert (figures["scene"], figures["status"], figures["trials"], figures["passed"]) == (
        "control-test",
        "graded",
        1,
        1,
    )
    assert (figures["pass_at_1"], figures["pass_at_k"], figures["pass_hat_k"]) == (1.0, 1.0, 1.0)
    assert figures["checks"]["custom_1"] == {"required": True, "passed": 1, "trials": 1, "pass_rate": 1.0}
    assert (done["scene_figures"], done["exit_code"], done["source"], done["scenes"]) == (
        [figures],
        0,
        "http",
        ["control-test"],
    )

    detail = stage.http.get(f"/v1/runs/{run['id']}/trials/1").json()
    assert (detail["output"], detail["notes"]) == ("done", [])  # read from no file: nothing left out
    assert [c["id"] for c in detail["checks"]] == ["said_hello", "posted", "greeted", "custom_1"]
    assert [(c["method"], c["path"], c["status"]) for c in detail["trace"]] == [
        ("POST", "/api/conversations.list", 200),
        ("POST", "/api/chat.postMessage", 200),
    ]
    assert [e["kind"] for e in detail["events"]] == ["start", "call", "call", "write", "finish"]
    assert [m["text"] for m in detail["diff"]["slack.messages"]["added"]] == ["hello there"]
    general = detail["trace"][1]["body"]["channel"]
    assert (detail["trace"][1]["response"]["channel"], detail["trace"][1]["response"]["message"]["text"]) == (
        general,
        "hello there",
    )
    # Its records' names from its world; no stderr, as the caller ran the agent.
    assert (detail["names"][general], detail["names"][detail["trace"][1]["actor"]]) == (
        "#general",
        "@stagebot",
    )
    assert detail["stderr"] is None

    listed = {r["id"]: r for r in stage.http.get("/v1/runs").json()}[run["id"]]
    assert listed == {
        "id": run["id"],
        "scene": "control-test",
        "trials": 1,
        "status": "done",
        "metadata": {"prompt": "v2"},
        "created": done["created"],
        "finished": done["finished"],
        "source": "http",
        "agent": "http",
        "scenes": ["control-test"],
        "exit_code": 0,
        "scene_figures": [{key: value for key, value in figures.items() if key != "checks"}],
    }

    by_scene = [r["id"] for r in stage.http.get("/v1/runs", params={"scene": "control-test"}).json()]
    assert run["id"] in by_scene
    assert stage.http.get("/v1/runs", params={"scene": "other"}).json() == []
    assert stage.http.get("/v1/runs", params={"agent": "http", "since": done["created"][:10]}).json() == [listed]

    # The results outlive the world.
    assert stage.http.delete(f"/v1/worlds/{world['id']}").status_code == 200
    again = stage.http.get(f"/v1/runs/{run['id']}/trials/1").json()
    assert (again["outcome"], again["output"], len(again["trace"])) == ("passed", "done", 2)


def test_replacing_the_scene_checks_and_a_failing_trial(stage):
    run = create(stage, checks=[HELLO], replace_template_checks=True).json()
    [world] = run["worlds"]
    assert finish(stage, world).status_code == 200
    done = stage.http.get(f"/v1/runs/{run['id']}").json()
    [trial] = done["results"]
    assert trial["outcome"] == "failed"
    assert [(c["id"], c["passed"], c["source"]) for c in trial["checks"]] == [("greeted", False, "custom")]
    assert done["figures"]["pass_hat_k"] == 0.0


def test_several_trials_finish_one_by_one(stage):
    run = create(stage, trials=3).json()
    assert [w["trial"] for w in run["worlds"]] == [1, 2, 3]
    assert len({w["id"] for w in run["worlds"]}) == 3
    first, second, third = run["worlds"]
    say_hello(first)
    finish(stage, first)
    midway = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert midway["status"] == "running"
    assert [t["outcome"] for t in midway["results"]] == ["passed", None, None]
    # An admin's finish ends a run's trial as the agent's does, and answers the evaluation.
    by_admin = stage.http.post(f"/v1/worlds/{second['id']}/finish", json={"output": ""})
    assert by_admin.json()["passed"] is False
    assert stage.http.get(f"/v1/runs/{run['id']}").json()["status"] == "running"
    say_hello(third)
    finish(stage, third)
    done = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert done["status"] == "done"
    assert [(t["outcome"], t["score"]) for t in done["results"]] == [("passed", 1.0), ("failed", 0.0), ("passed", 1.0)]
    figures = done["figures"]
    assert figures["mean_score"] == 0.6667
    assert (figures["k"], figures["passed"], figures["pass_at_1"], figures["pass_at_k"], figures["pass_hat_k"]) == (
        3,
        2,
        0.6667,
        1.0,
        0.0,
    )


def test_a_trial_while_running_and_a_world_deleted_before_it_finished(stage):
    run = create(stage, trials=2).json()
    first, second = run["worlds"]
    say_hello(first)
    live = stage.http.get(f"/v1/runs/{run['id']}/trials/1").json()
    assert (live["outcome"], live["checks"], live["output"]) == (None, None, None)
    assert [c["path"] for c in live["trace"]] == ["/api/conversations.list", "/api/chat.postMessage"]
    finish(stage, first)
    stage.http.delete(f"/v1/worlds/{second['id']}")
    done = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert done["status"] == "done"
    assert done["results"][1] == {
        "scene": "control-test",
        "trial": 2,
        "world": second["id"],
        "outcome": "invalid",
        "score": None,
        "finish_reason": "dropped",
        "checks": None,
    }
    dropped = stage.http.get(f"/v1/runs/{run['id']}/trials/2").json()
    assert (dropped["trace"], dropped["events"], dropped["diff"], dropped["output"]) == (None, None, None, None)


def test_a_judge_check_without_a_model_is_null_and_the_run_ends(stage, monkeypatch):
    for name in ("OPENROUTER_API_KEY", "SOUNDSTAGE_JUDGE_URL", "SOUNDSTAGE_JUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    run = create(stage, checks=[{"id": "polite", "judge": "the agent was polite"}]).json()
    [world] = run["worlds"]
    say_hello(world)
    finish(stage, world)
    done = stage.http.get(f"/v1/runs/{run['id']}").json()
    assert done["status"] == "done"
    checks = {c["id"]: c["passed"] for c in done["results"][0]["checks"]}
    assert checks == {"said_hello": True, "posted": True, "polite": None}


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"scene": "csv-export", "worlds": 2}, 400, "invalid_request"),
        ({"scene_yaml": SCENE, "trials": 0}, 400, "invalid_request"),
        ({"scene_yaml": SCENE, "trials": True}, 400, "invalid_request"),
        ({"scene_yaml": SCENE, "trials": 1_000_000}, 400, "invalid_request"),
        ({"scene_yaml": SCENE, "replace_template_checks": "yes"}, 400, "invalid_request"),
        ({"scene_yaml": SCENE, "metadata": [1]}, 400, "invalid_request"),
        ({"scene": "../scenes/x.yaml"}, 400, "invalid_request"),
        ({"scene": "no-such-scene"}, 404, "not_found"),
        ({"scene_yaml": "name: x\n"}, 422, "invalid_scene"),
    ],
)
def test_create_run_errors(stage, body, status, code):
    before = len(stage.server.hub.worlds)
    response = stage.http.post("/v1/runs", json=body)
    assert (response.status_code, response.json()["error"]["code"]) == (status, code)
    assert len(stage.server.hub.worlds) == before


@pytest.mark.parametrize(
    "checks, path",
    [
        ([HELLO, {"trace": {"caled": "x"}}], [1, "trace", "caled"]),
        ([{"id": "posted", "output": {"contains": "x"}}], [0, "id"]),
        ("not a list", []),
    ],
)
def test_invalid_checks_are_422_before_any_world(stage, checks, path):
    before = len(stage.server.hub.worlds)
    response = create(stage, checks=checks)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_checks"
    assert response.json()["error"]["path"] == path
    assert len(stage.server.hub.worlds) == before


def test_runs_need_the_admin_token(stage):
    run = create(stage).json()
    [world] = run["worlds"]
    agent = {"authorization": f"Bearer {world['env']['SOUNDSTAGE_TOKEN']}"}
    for method, path in [
        ("POST", "/v1/runs"),
        ("GET", "/v1/runs"),
        ("GET", f"/v1/runs/{run['id']}"),
        ("GET", f"/v1/runs/{run['id']}/trials/1"),
    ]:
        body = {"scene_yaml": SCENE} if method == "POST" else None
        with httpx.Client(base_url=stage.url) as bare:
            assert bare.request(method, path, json=body).status_code == 401
            forbidden = bare.request(method, path, json=body, headers=agent)
            assert (forbidden.status_code, forbidden.json()["error"]["code"]) == (403, "forbidden")


def test_unknown_runs_and_trials(stage):
    run = create(stage).json()
    assert stage.http.get("/v1/runs/run_nope").status_code == 404
    for trial in ("0", "2", "x"):
        response = stage.http.get(f"/v1/runs/{run['id']}/trials/{trial}")
        assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_finished_trials_are_written_to_the_store(store_url):
    store = open_store(store_url)
    assert store is not None
    with Server(results=store) as server, httpx.Client(base_url=server.url) as http:
        admin = {"authorization": f"Bearer {server.admin_token}"}
        run = http.post("/v1/runs", json={"scene_yaml": SCENE, "trials": 2, "checks": [HELLO]}, headers=admin).json()
        first, second = run["worlds"]
        say_hello(first)
        finish(None, first)
        written = store.run(run["id"])
        assert written is not None
        assert (written.agent, written.scenes, written.trials, written.exit_code) == ("http", ["<scene_yaml>"], 2, None)
        assert [(t.trial, t.outcome, t.counts.calls) for t in written.results] == [(1, "passed", 2)]
        finish(None, second)
        done = http.get(f"/v1/runs/{run['id']}", headers=admin).json()
    written = store.run(run["id"])
    store.close()
    assert written is not None
    assert written.exit_code == 1
    # The store computes the finished run's figures from what was written: the server's own.
    assert [figures.model_dump(mode="json") for figures in written.figures or []] == [done["figures"]]
    assert done["figures"]["pass_hat"] == {"1": 0.5, "2": 0.0}
    assert [(t.trial, t.outcome, t.world) for t in written.results] == [
        (1, "passed", first["id"]),
        (2, "failed", second["id"]),
    ]
    assert [(c.id, c.passed, c.source) for c in written.results[1].checks] == [
        ("said_hello", False, "scene"),
        ("posted", False, "scene"),
        ("greeted", False, "custom"),
    ]


def test_a_server_keeps_a_bounded_number_of_finished_runs(stage, monkeypatch):
    monkeypatch.setattr(stage.server.app.state.runs, "max_done", 1)
    older, newer = create(stage).json(), create(stage).json()
    for run in (older, newer):
        finish(stage, run["worlds"][0])
    running = create(stage).json()  # making a run drops the finished ones past the bound, oldest first
    assert stage.http.get(f"/v1/runs/{older['id']}").status_code == 404
    assert stage.http.get(f"/v1/runs/{newer['id']}").json()["status"] == "done"
    assert stage.http.get(f"/v1/runs/{running['id']}").json()["status"] == "running"


def test_custom_checks_may_use_the_check_library(stage, tmp_path, monkeypatch):
    (tmp_path / "team.yaml").write_text(
        "checks:\n  - id: posted_in\n    params: {channel: where}\n"
        "    trace: {called: 'POST /api/chat.postMessage', with: {body.channel: {equals: $channel}}}\n"
    )
    monkeypatch.setenv("SOUNDSTAGE_CHECKS", str(tmp_path / "team.yaml"))
    refused = create(stage, checks=[{"use": {"check": "posted_in", "channel": "$genral"}}, {"use": "nope"}])
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert (error["code"], error["path"]) == ("invalid_checks", [0, "use", "channel"])
    assert error["message"].startswith("<input>: checks[0].use.channel: unknown ref $genral (known refs: ")
    assert error["message"].endswith(" (and 1 more error)")
    run = create(stage, checks=[{"use": {"check": "posted_in", "channel": "$general"}}]).json()
    [world] = run["worlds"]
    say_hello(world)
    finish(stage, world)
    [trial] = stage.http.get(f"/v1/runs/{run['id']}").json()["results"]
    assert [(c["id"], c["passed"], c["source"]) for c in trial["checks"]][-1] == ("posted_in", True, "custom")
