"""Saving a live world to a file and loading it again (server/snapshot.py): the loaded world is the saved one,
people's pending replies and faults' progress included, and goes on as it would; what cannot be replayed exactly
is refused at save, and a file that does not make its world is refused at load, leaving no world behind."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.test_world_fork import SCENE, everything

from soundstage import Stage
from soundstage.errors import UsageError
from soundstage.rehearsal import LiveWorld
from soundstage.server import snapshot


@pytest.fixture(scope="module")
def stage() -> Any:
    with Stage() as stage:
        yield stage


def slack(world: LiveWorld, operation: str, in_body: bool = False, **params: str) -> dict[str, Any]:
    """A call of the agent's bot over HTTP, its token in the header, or in the form (`in_body`) as some clients do."""
    token = world.env["SLACK_BOT_TOKEN"]
    headers = {} if in_body else {"Authorization": f"Bearer {token}"}
    data = {**params, "token": token} if in_body else params
    answer: dict[str, Any] = httpx.post(f"{world.urls['slack']}/api/{operation}", data=data, headers=headers).json()
    return answer


def ask(world: LiveWorld) -> dict[str, Any]:
    refs = world.world.refs
    return slack(world, "chat.postMessage", channel=refs["support"], text=f"<@{refs['maya']}> what is the root cause?")


def mid_recovery(stage: Stage) -> LiveWorld:
    """A world with a reply of Maya's to come and its outage ended but not yet recovered."""
    world = stage.world(scene_yaml=SCENE)
    ask(world)
    slack(world, "conversations.rename", in_body=True, channel=world.world.refs["room"], name="resolved")
    world.advance("30s")
    return world


def test_a_loaded_world_is_the_saved_one_and_goes_on_alike(stage: Stage, tmp_path: Path) -> None:
    original = mid_recovery(stage)
    path = tmp_path / "w.json"
    original.save(path)
    text = path.read_bytes()
    for token in original.env.values():
        if token.startswith(("xox", "ss-")):
            assert token.encode() not in text  # header and form tokens alike
    original.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == text  # the same bytes for the same world
    loaded = stage.load(path)
    assert loaded.id != original.id and loaded.env["SLACK_BOT_TOKEN"] != original.env["SLACK_BOT_TOKEN"]
    assert everything(loaded.world) == everything(original.world)
    assert len(original.world._due) == len(loaded.world._due) > 0
    # The same further calls give the same ids, times and log: Maya's reply and the recovery come in both.
    posted = []
    for world in (original, loaded):
        world.advance("2m")
        posted.append(ask(world)["ts"])
        world.finish()
    assert posted[0] == posted[1]
    assert everything(loaded.world) == everything(original.world)
    said = [m["text"] for m in loaded.state()["slack.messages"]]
    assert "Latency is back to normal." in said and any("cache key" in text for text in said)


def test_a_fork_saved_and_loaded(stage: Stage, tmp_path: Path) -> None:
    parent = mid_recovery(stage)
    fork = parent.fork()
    ask(fork)  # with the fork's own token; the parent's calls were made with the parent's
    fork.save(tmp_path / "fork.json")
    loaded = stage.load(tmp_path / "fork.json")
    assert everything(loaded.world) == everything(fork.world)
    for world in (fork, loaded):
        world.advance("5m")
    assert everything(loaded.world) == everything(fork.world)


def test_a_tampered_snapshot_is_refused_and_leaves_no_world(stage: Stage, tmp_path: Path) -> None:
    original = mid_recovery(stage)
    data = snapshot.save(stage.hub, original.world)
    held = set(stage.hub.worlds)
    call = next(entry for entry in data["inputs"] if entry["kind"] == "call")
    call["body"] = call["body"].replace("root+cause", "weather")
    (tmp_path / "t.json").write_bytes(snapshot.dumps(data))
    with pytest.raises(UsageError, match="does not make the world it was saved from: replaying it gave last seq"):
        stage.load(tmp_path / "t.json")
    assert set(stage.hub.worlds) == held


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=0), "a snapshot of version 0: this soundstage .* loads version 1"),
        (lambda d: d.update(format="x"), 'not a snapshot: its "format" must be "soundstage-snapshot"'),
        (lambda d: d.pop("inputs"), 'a snapshot needs "scene"'),
        (lambda d: d["scene"].update(yaml=None, name="no-such-scene"), "scene 'no-such-scene' cannot be built here"),
        (lambda d: d["scene"].update(yaml=d["scene"]["yaml"] + "\n"), "is not the one the snapshot was saved from"),
        (lambda d: d["inputs"].append({"kind": "nap"}), "input 4 cannot be replayed: ValueError no input of kind"),
    ],
)
def test_bad_snapshots_are_refused(stage: Stage, tmp_path: Path, change: Any, message: str) -> None:
    data = snapshot.save(stage.hub, mid_recovery(stage).world)
    change(data)
    (tmp_path / "bad.json").write_text(json.dumps(data))
    held = set(stage.hub.worlds)
    with pytest.raises(UsageError, match=message):
        stage.load(tmp_path / "bad.json")
    assert set(stage.hub.worlds) == held


def test_what_cannot_be_replayed_is_refused_at_save(stage: Stage, tmp_path: Path) -> None:
    now = stage.world(scene_yaml=SCENE.replace('start: "2026-03-02T14:00:00Z"', "start: now"))
    with pytest.raises(UsageError, match="its clock starts `now`"):
        now.save(tmp_path / "now.json")
    told = stage.world(scene_yaml=SCENE)
    slack(told, "chat.postMessage", channel=told.world.refs["support"], text=told.env["SLACK_BOT_TOKEN"])
    with pytest.raises(UsageError, match="the agent's credential is in its records or log"):
        told.save(tmp_path / "told.json")
    assert not (tmp_path / "told.json").exists()


def test_loading_cost(stage: Stage, tmp_path: Path, capsys: Any) -> None:
    """Not a timing assertion: prints the CPU a load of 100 calls takes, for the record."""
    world = stage.world(scene_yaml=SCENE)
    for n in range(100):
        slack(world, "chat.postMessage", channel=world.world.refs["room"], text=f"note {n}")
    world.save(tmp_path / "100.json")
    start = time.process_time()
    loaded = stage.load(tmp_path / "100.json")
    cpu = time.process_time() - start
    assert everything(loaded.world) == everything(world.world)
    with capsys.disabled():
        print(f"\nload of 100 calls: {cpu * 1000:.0f} ms CPU")
