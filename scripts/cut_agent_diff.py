"""Cut the Agent-Diff excerpt kept in tests/importers/agent_diff/ from the peer's full Slack files.

    python scripts/cut_agent_diff.py SEED.json SUITE.json

keeps the suite's tests named in TESTS and the seed's messages of CHANNELS (with every user, channel,
membership and reaction), written as seed.json and suite.json beside the tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "importers" / "agent_diff"
TESTS = [
    "test_1",
    "test_2",
    "test_3",
    "test_5",
    "test_7",
    "test_8",
    "test_9",
    "test_11",
    "test_12",
    "test_13",
    "test_14",
    "test_17",
    "test_23",
    "test_27",
    "test_50",
    "test_56",
]
CHANNELS = {"C01ABCD1234", "C02EFGH5678", "C04MNOP3456", "C03IJKL9012"}


def main(seed_path: str, suite_path: str) -> None:
    seed = json.loads(Path(seed_path).read_text(encoding="utf-8"))
    suite = json.loads(Path(suite_path).read_text(encoding="utf-8"))
    seed["messages"] = [m for m in seed["messages"] if m["channel_id"] in CHANNELS]
    kept = {m["message_id"] for m in seed["messages"]}
    seed["message_reactions"] = [r for r in seed["message_reactions"] if r["message_id"] in kept]
    suite["tests"] = [t for t in suite["tests"] if t["id"] in TESTS]
    for name, data in (("seed.json", seed), ("suite.json", suite)):
        (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
