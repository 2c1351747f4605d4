"""`soundstage ray status|stop` where no local Ray cluster is up, and a record of one that no longer is (the
cluster itself, started and stopped: tests/test_local_cluster.py)."""

from __future__ import annotations

import json
import sys

from soundstage import local_cluster
from soundstage.local_cluster import LocalCluster


def test_with_no_cluster_up_status_and_stop_say_so(bench, cli) -> None:
    for command in ("status", "stop"):
        shown = cli("ray", command)
        assert (shown.exit_code, shown.stdout.splitlines()[0]) == (0, "no local Ray cluster is up")
        assert json.loads(cli("ray", command, "--json").stdout) == {"cluster": None}


def test_a_record_of_a_cluster_no_longer_up_is_dropped_by_status(bench, cli) -> None:
    """Its pid is no head's (it is init's) and nothing listens on its port: it is not up."""
    local_cluster.folder().mkdir(parents=True, exist_ok=True)
    record = LocalCluster("127.0.0.1:1", 1, 1, sys.executable, "2026-01-01T00:00:00+00:00")
    (local_cluster.folder() / "cluster.json").write_text(json.dumps(record.__dict__))

    assert json.loads(cli("ray", "status", "--json").stdout) == {"cluster": None}
    assert not (local_cluster.folder() / "cluster.json").exists()
