"""The server's batch runner (src/soundstage/server/batch.py): a batch's calls each through `record`, the event loop
let go between two of them, and a world dropped during a batch. The services' own batches are tested with them
(tests/services/gmail/test_batch.py, tests/services/calendar/test_batch.py)."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

from soundstage.server import batch
from soundstage.services.base import Reply, ServiceRequest
from soundstage.services.google.batch import Part

BATCH = ServiceRequest("POST", "/batch", {}, {"authorization": "Bearer t"}, b"three calls")


class ThreeCalls:
    """A service whose batches hold three calls, answered as the list of the calls' bodies."""

    batch_paths = frozenset({"/batch"})

    def batch_calls(self, call: ServiceRequest, prefix: str) -> list[Part]:
        return [Part(str(n), ServiceRequest("GET", f"/call/{n}", {}, {}, b"")) for n in range(3)]

    def batch_answer(self, call: ServiceRequest, answers: list[tuple[str | None, Reply, bytes]]) -> Reply:
        return Reply(200, None, encoded=b"|".join(content for _, _, content in answers))

    def token(self, request: ServiceRequest) -> str | None:
        return None


def world() -> Any:
    return SimpleNamespace(lock=threading.RLock(), finished=False, log=SimpleNamespace(broken=None), now=lambda: 0)


def run(alive: Any, order: list[str]) -> Any:
    """The batch run beside another task that notes each turn it gets: what the batch answered."""

    def record(world: Any, service: Any, principal: Any, call: ServiceRequest) -> tuple[Reply, bytes, str, int]:
        order.append(call.path)
        return Reply(200, None), call.path.encode(), "date", 0

    async def other() -> None:
        for n in range(3):
            order.append(f"other {n}")
            await asyncio.sleep(0)

    async def both() -> Any:
        beside = asyncio.ensure_future(other())
        done = await batch.record_batch(world(), ThreeCalls(), object(), BATCH, "", record, alive)  # type: ignore[arg-type]
        await beside
        return done

    return asyncio.run(both())


def test_other_requests_are_served_between_two_calls_of_a_batch() -> None:
    order: list[str] = []
    reply, content, date, delay = run(lambda: True, order)
    assert (reply.status, content, date, delay) == (200, b"/call/0|/call/1|/call/2", "date", 0)
    assert order == ["/call/0", "other 0", "/call/1", "other 1", "/call/2", "other 2"]


def test_a_world_dropped_during_a_batch_answers_nothing_more() -> None:
    order: list[str] = []
    assert run(lambda: not order, order) is None  # gone once its first call ran
    assert order == ["/call/0", "other 0", "other 1", "other 2"]
