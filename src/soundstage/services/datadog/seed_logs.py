"""Building generated logs, `generate: {datadog.logs: {count, services, hosts, statuses, span, tags}}`:
realistic lines (access logs, app messages and failures with the attributes Datadog's pipelines extract:
`http.*`, `network.*`, `date_access`, `duration`, `error.*`), drawn from the build's seeded random source and faker."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...clock import parse_duration
from ...spec.build import BuildContext
from . import logs
from .models_records import GenerateLogs
from .store import LOGS

if TYPE_CHECKING:  # loaded by the build context when a world generates logs
    from faker import Faker

_PATHS = ("/api/orders", "/api/orders/{n}", "/api/cart", "/api/users/{n}", "/api/payments", "/healthz", "/api/search")
_INFO = (
    "Processed order {n} in {ms}ms",
    "Cache hit for key {word}:{n}",
    "User {user} logged in",
    "Scheduled job {word}_sync finished in {ms}ms",
    "Connection pool size {small}/{pool}",
)
_WARN = (
    "Slow query on {word}s took {slow}ms",
    "Retrying request to {host} (attempt {small})",
    "Cache miss rate above {small}0%",
    "Deprecated endpoint {path} called by {user}",
)
_ERROR = (
    "Timeout after {slow}ms calling {host}",
    "Failed to process order {n}: {error}",
    "Database connection refused: {host}:5432",
    "Unhandled exception in {word} handler: {error}",
)
_CODES = {"info": (200, 200, 201, 204, 304), "warn": (400, 404, 429), "error": (500, 502, 503, 504)}
_ERRORS = (
    ("TimeoutError", "upstream request timed out"),
    ("ConnectionError", "connection reset by peer"),
    ("KeyError", "'customer_id'"),
    ("ValueError", "invalid literal for int() with base 10"),
)


def generate(collection: str, options: Any, ctx: BuildContext) -> None:
    """`generate: {datadog.logs: {...}}`: seeded log noise."""
    if collection != "logs":
        raise ctx.error(f"datadog.{collection} cannot be generated; only datadog.logs can")
    opts = ctx.parsed(GenerateLogs, options)
    if sum(opts.statuses.values()) <= 0:
        raise ctx.error("the status weights must add up to more than 0", "statuses")
    span = parse_duration(opts.span)
    statuses = list(opts.statuses)
    weights = list(opts.statuses.values())
    rng = ctx.random
    times = sorted(ctx.start - rng.randint(0, max(span, 1)) for _ in range(opts.count))
    generated = ctx.collection(LOGS)
    for at in times:
        service = rng.choice(opts.services)
        status = rng.choices(statuses, weights)[0]
        message, attributes = _noise(rng, ctx.faker, service, status, at)
        host = rng.choice(opts.hosts)
        record = logs.log(ctx.ids, at, message, service, host, status, list(opts.tags), attributes)
        generated.add(record["id"], record)


def _noise(rng: random.Random, faker: Faker, service: str, status: str, at: int) -> tuple[str, dict[str, Any]]:
    """A log message and its attributes for one line of `service` at `status`, logged at `at` (epoch µs)."""
    if rng.random() < 0.4 and status in ("info", "warn", "error"):
        return _access(rng, faker, status, at)
    templates = (
        _ERROR if status in ("error", "critical", "alert", "emergency") else _WARN if status == "warn" else _INFO
    )
    error_kind, error_message = rng.choice(_ERRORS)
    message = rng.choice(templates).format(
        n=rng.randint(10_000, 99_999),
        ms=rng.randint(3, 250),
        slow=rng.randint(1_000, 30_000),
        word=faker.word(),
        user=faker.user_name(),
        host=f"{faker.word()}-{rng.randint(1, 4)}.internal",
        small=rng.randint(2, 9),
        pool=rng.randint(10, 20),
        path=rng.choice(_PATHS).format(n=rng.randint(1, 9999)),
        error=error_message,
    )
    attributes: dict[str, Any] = {"logger": {"name": f"{service}.{faker.word()}"}}
    if templates is _ERROR:
        attributes["error"] = {"kind": error_kind, "message": error_message}
    return message, attributes


def _access(rng: random.Random, faker: Faker, status: str, at: int) -> tuple[str, dict[str, Any]]:
    method = rng.choice(("GET", "GET", "GET", "POST", "PUT", "DELETE"))
    path = rng.choice(_PATHS).format(n=rng.randint(1, 9999))
    code = rng.choice(_CODES[status])
    duration = rng.randint(2, 400) if status == "info" else rng.randint(200, 30_000)
    client = faker.ipv4_public()
    sent = rng.randint(0, 20_000)
    message = f'{client} - - "{method} {path} HTTP/1.1" {code} {sent} {duration}ms'
    attributes = {
        "http": {
            "method": method,
            "url": path,
            "url_details": {"path": path},
            "version": "1.1",
            "status_code": code,
            "status_category": _status_category(code),
        },
        "network": {"client": {"ip": client}, "bytes_written": sent},
        "date_access": at // 1000,  # the access time the pipeline parses from the line, in epoch ms
        "duration": duration * 1_000_000,  # Datadog's standard duration attribute is in nanoseconds
    }
    return message, attributes


def _status_category(code: int) -> str:
    """The category Datadog's web-server pipelines give a status code."""
    return "OK" if code < 300 else "notice" if code < 400 else "warning" if code < 500 else "error"
