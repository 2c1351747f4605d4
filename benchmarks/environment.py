"""The environment's budgets (docs/environment.md), in CPU time of this process on csv-export: a reset from the
cached image, a step's overhead beyond the call itself (a step against the same REST call run straight through
the recording layer, `record`), and 1,000 episodes of reset, 10 steps and the reward.

    python benchmarks/environment.py [--episodes 1000]
"""

from __future__ import annotations

import argparse
import time

from soundstage.environment import Environment
from soundstage.server.mcp import rest_request
from soundstage.server.recording import record
from soundstage.services import SERVICES

STEP = ("slack_get_channel_history", {"channel_id": "C2FJSP4FLTM", "limit": 5})


def cpu_ms(work, n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        work()
    return (time.process_time() - start) * 1000 / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=1000)
    args = parser.parse_args()
    env = Environment("csv-export")
    env.reset()
    env.finish()

    def reset() -> None:
        env.reset()

    reset_ms = cpu_ms(reset, 1000)  # each drops the last: one world at a time
    n = 2000
    env.reset()
    step_ms = cpu_ms(lambda: env.step(*STEP), n)
    env.reset()
    # The same call without the step: its REST request straight through the recording layer, in a fresh world.
    endpoint = env._under_way()  # the step's own endpoint
    service = SERVICES["slack"]
    tool, headers = endpoint.tools[STEP[0]]
    caller = endpoint.world.tokens[service.token(rest_request(endpoint, tool, headers, tool.call(STEP[1])))]
    direct_ms = cpu_ms(
        lambda: record(endpoint.world, service, caller, rest_request(endpoint, tool, headers, tool.call(STEP[1]))), n
    )
    env.finish()

    start = time.process_time()
    for _ in range(args.episodes):
        env.reset()
        for _ in range(10):
            env.step(*STEP)
        env.finish()
    episodes_s = time.process_time() - start
    print(f"reset from the cached image: {reset_ms:.3f} ms CPU (budget 1 ms)")
    print(f"step: {step_ms:.3f} ms; the same REST call through record(): {direct_ms:.3f} ms")
    print(f"a step's overhead: {step_ms - direct_ms:.3f} ms CPU (budget 0.2 ms)")
    print(f"{args.episodes} episodes of reset + 10 steps + reward: {episodes_s:.2f} s CPU (budget 10 s for 1,000)")


if __name__ == "__main__":
    main()
