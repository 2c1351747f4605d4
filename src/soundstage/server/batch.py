"""Batch requests: one HTTP request holding many calls of one service (Google's `multipart/mixed` batches,
docs/services/google.md), taken apart here so that each call is what it would have been alone.

The service reads the batch (`batch_calls`) and writes its answer (`batch_answer`); between the two, each call runs
through the recording layer's `record`, in the batch's order, under the world's lock held throughout (no other call
comes between two of a batch's): the same handler, credentials, api faults and rate limits as a call sent alone, and
one `call` event each. The batch's own request is not an event of its own, except when it is answered whole: a body
the service cannot read as a batch, too many calls, a token of another account, a body over the server's limit, a
world whose attempt ended or whose log broke. Then it is one call, as any other, and none of its calls runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from ..clock import http_date
from ..services.base import Reply, Service, ServiceRequest, account
from ..world import Principal, World

Record = Callable[[World, Service, Principal | None, ServiceRequest], tuple[Reply, bytes, str, int]]


def takes(service: Service, call: ServiceRequest, size: int) -> bool:
    """Whether `call` is a whole batch request of a service that takes them."""
    paths = getattr(service, "batch_paths", None)
    return bool(paths) and call.method == "POST" and call.path in paths and size == len(call.body)


def record_batch(
    world: World, service: Service, principal: Principal | None, call: ServiceRequest, prefix: str, record: Record
) -> tuple[Reply, bytes, str, int]:
    """Runs a batch's calls and answers them together (what `record` answers for one call: the reply, its bytes, the
    simulated date and the real delay api faults hold it for, here the sum of its calls'). `prefix` is the URL path
    the service hangs from where the batch was sent, which its calls' paths start with."""
    service_any: Any = service
    with world.lock:
        if principal is None or world.finished or world.log.broken is not None:
            return record(world, service, principal, call)
        try:
            parts = service_any.batch_calls(call, prefix)
        except service_any.error:  # not a batch this service takes: refused whole, and logged once
            return record(world, service, principal, call)
        answers: list[tuple[str | None, Reply, bytes]] = []
        date, delay = http_date(world.now()), 0
        for part in parts:
            found = _principal(world, service, part.request)
            if found is None:  # a token of no account of this world's: the call never reaches it, as alone
                reply = service.unauthorized(part.request)
                answers.append((part.content_id, reply, orjson.dumps(reply.body)))
                continue
            reply, content, date, held = record(world, service, found[0], part.request)
            answers.append((part.content_id, reply, content))
            delay += held
        reply = service_any.batch_answer(call, answers)
        return reply, reply.encoded, date, delay


def _principal(world: World, service: Service, request: ServiceRequest) -> tuple[Principal | None] | None:
    """Whom a call's own credential (else the batch's) speaks for: `(principal,)`, the principal None for a token
    of the world's of another account (the service's 401, logged); None for a token the world does not know."""
    try:
        token = service.token(request)
    except Exception:  # noqa: BLE001 (a credential that cannot be read is none)
        token = None
    found = world.tokens.get(token) if token else None
    if found is None:
        return None
    return (found if found.service == account(service) else None,)
