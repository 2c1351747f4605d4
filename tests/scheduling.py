"""How xdist spreads the tests over its workers: the long ones first, each test to whichever worker is free,
except that the tests of a module that starts something costly for all of them (a Ray cluster, `npm ci`) go
to one worker, which starts it once while the other workers go on. xdist's own `loadgroup` would say this
with a mark, but under pytest 9.2 it no longer renames the tests it groups, so the modules are named here."""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

# Modules whose tests share what a module or session fixture starts, each with the group it goes to one worker
# with: on a fresh clone, every worker with a Node test would otherwise wait its turn for the one `npm ci` (a
# lock) while the first installs.
TOGETHER = {
    "tests/test_runner_ray.py": "ray",
    "tests/test_local_cluster.py": "ray",
    "tests/node/test_node_sdks.py": "node",
    "tests/node/test_mcp_servers.py": "node",
}
# The modules whose tests take seconds each (clusters, whole runs, other interpreters), run first: the workers
# start on them while the many short tests fill in around them, so no worker is left with a long one at the end.
SLOW_FIRST = (
    "test_runner_ray.py",
    "test_local_cluster.py",
    "test_node_sdks.py",
    "test_mcp_servers.py",
    "test_cli_mcp.py",
    "test_toy_service.py",
    "test_docker.py",
    "test_hostile_agent.py",
    "test_pytest_plugin.py",
    "test_issue_search.py",
    "test_clock_moves.py",
    "test_sandbox.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in SLOW_FIRST)  # a stable sort: the order within each stays


class Scheduling(LoadScopeScheduling):
    """xdist's scheduling by scope, where a test is its own scope unless its module is one of `TOGETHER`, whose
    group is its scope."""

    def _split_scope(self, nodeid: str) -> str:
        return TOGETHER.get(nodeid.split("::", 1)[0], nodeid)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Scheduling | None:
    return Scheduling(config, log) if config.getvalue("dist") == "load" else None
