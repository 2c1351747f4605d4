"""Batch requests: one HTTP request holding many calls of one service (Google's `multipart/mixed` batches,
docs/services/google.md), taken apart here so that each call is what it would have been alone.

The service reads the batch (`batch_calls`) and writes its answer (`batch_answer`); between the two, each call runs
through the recording layer's `record`, in the batch's order: the same handler, credentials, api faults and rate
limits as a call sent alone, and one `call` event each, whatever its credential (a call's own, else the batch's; one
that is not the world's is the service's 401, logged, since the batch itself carried the world's). The event loop is
let go between two calls of a batch, so a batch of a thousand costly calls holds other worlds up no longer than one
of them would; another call of the same world may come between two of a batch's, as Google promises a batch's calls
no order. A batch whose world is dropped during it is answered as a call to a world that is gone. The batch's own
request is not an event of its own, except when it is answered whole: a body the service cannot read as a batch,
too many calls, a token of another account, a body over the server's limit, a world whose attempt ended or whose log
broke. Then it is one call, as any other, and none of its calls runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..clock import http_date
from ..services.base import Reply, Service, ServiceRequest, account
from ..world import Principal, World

Record = Callable[[World, Service, Principal | None, ServiceRequest], tuple[Reply, bytes, str, int]]


def takes(service: Service, call: ServiceRequest, size: int) -> bool:
    """Whether `call` is a whole batch request of a service that takes them."""
    if call.method != "POST":
        return False
    paths: frozenset[str] = getattr(service, "batch_paths", frozenset())
    return call.path in paths and size == len(call.body)


async def record_batch(
    world: World,
    service: Service,
    principal: Principal | None,
    call: ServiceRequest,
    prefix: str,
    record: Record,
    alive: Callable[[], bool],
) -> tuple[Reply, bytes, str, int] | None:
    """Runs a batch's calls and answers them together (what `record` answers for one call: the reply, its bytes, the
    simulated date and the real delay api faults hold it for, here the sum of its calls'). `prefix` is the URL path
    the service hangs from where the batch was sent, which its calls' paths start with; `alive` tells whether the
    world is still served. None when it was dropped during the batch."""
    service_any: Any = service
    with world.lock:
        if principal is None or world.finished or world.log.broken is not None:
            return record(world, service, principal, call)
        try:
            parts = service_any.batch_calls(call, prefix)
        except Exception:  # noqa: BLE001 (not a batch this service takes: refused whole by its handler, logged once)
            return record(world, service, principal, call)
    answers: list[tuple[str | None, Reply, bytes]] = []
    date, delay = http_date(world.now()), 0
    for n, part in enumerate(parts):
        if n:
            await asyncio.sleep(0)  # other requests between two calls: a batch never holds the event loop whole
            if not alive():
                return None
        reply, content, date, held = record(world, service, _principal(world, service, part.request), part.request)
        answers.append((part.content_id, reply, content))
        delay += held
    reply = service_any.batch_answer(call, answers)
    return reply, reply.encoded, date, delay


def _principal(world: World, service: Service, request: ServiceRequest) -> Principal | None:
    """Whom a call's own credential (else the batch's) speaks for; None for a token that is not one of this world's
    accounts of the service (the service's 401, logged: the batch itself carried the world's credential)."""
    try:
        token = service.token(request)
    except Exception:  # noqa: BLE001 (a credential that cannot be read is none)
        token = None
    found = world.tokens.get(token) if token else None
    return found if found is not None and found.service == account(service) else None
