"""`soundstage view`: what it refuses before it serves (the page itself: tests/server/test_viewer.py)."""

from __future__ import annotations

import json


def test_an_unknown_run_is_named_before_anything_listens(bench, cli) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.hello()).exit_code == 0
    result = cli("view", "20990101-000000", "--port", "0", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (error["type"], error["message"]) == (
        "NotFound",
        (
            "no run '20990101-000000' in runs/ or the results store sqlite:///runs/soundstage.db "
            "(soundstage runs lists them)"
        ),
    )


def test_a_viewer_reachable_from_other_machines_needs_the_admin_token(bench, cli) -> None:
    result = cli("view", "--host", "0.0.0.0", "--json", env={"SOUNDSTAGE_ADMIN_TOKEN": ""})
    assert result.exit_code == 2
    assert "set SOUNDSTAGE_ADMIN_TOKEN" in json.loads(result.stdout)["error"]["message"]
