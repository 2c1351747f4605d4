"""The Slack service: routes `/api/<method>` to its handler, checks the token, applies rate limits and
wraps the result in Slack's envelope (HTTP 200 and `ok`, or 429 with an integer `Retry-After`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Literal

from ...world import Principal, Record, World
from ..base import Credential, FaultOption, Injection, Reply, ServiceRequest, import_registrations, injected
from . import files, limits, mcp_tools, seed, seed_generate
from .calls import Args, Call, body_values, ops, uploaded, with_warnings
from .errors import SERVER_ERRORS, SlackError, error_body
from .files import UPLOAD
from .models import SlackSection
from .store import FILES, USERS, record_names
from .store import addresses as store_addresses

import_registrations(__package__)

_NOT_FOUND_PAGE = (
    "<!DOCTYPE html><html><head><title>Page not found | Slack</title></head><body>"
    "<h1>There's been a glitch…</h1><p>We're not quite sure what went wrong.</p></body></html>"
)


def token_of(request: ServiceRequest) -> str | None:
    """The token from `Authorization: Bearer`, else a `token` argument (query, then body); on an upload URL,
    the ticket it ends with."""
    if request.path.startswith(files.UPLOAD_PATH):
        return request.path[len(files.UPLOAD_PATH) :].strip("/") or None
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    value = value.strip()
    if value and scheme.lower() == "bearer":
        return value
    token = request.query.get("token")
    if token is None and request.body:
        try:
            token = body_values(request, []).get("token")
        except SlackError:
            return None
    return token if isinstance(token, str) and token else None


def _method(request: ServiceRequest) -> str | None:
    """The method name of an `/api/<method>` path; None for any other path."""
    if not request.path.startswith("/api/"):
        return None
    return request.path[len("/api/") :].strip("/")


def _not_found() -> Reply:
    # slack.com answers any URL outside /api/ with its HTML 404 page.
    return Reply(
        404, _NOT_FOUND_PAGE, headers={"Content-Type": "text/html; charset=utf-8"}, error=True, unimplemented=True
    )


def _unknown(method: str, trace_body: Any) -> Reply:
    body = {"ok": False, "error": "unknown_method", "req_method": method}
    return Reply(200, body, operation=method, error=True, unimplemented=True, trace_body=trace_body)


def _trace_body(request: ServiceRequest) -> dict[str, Any] | None:
    try:
        return Args.parse(request).values
    except SlackError:
        return None


class SlackService:
    name = "slack"
    title = "Slack"
    section = SlackSection  # its part of world and scene files
    agent_user = "slack_user"  # who the agent is here, in a scene's `agent:`
    hosts = ("slack.com",)
    domains = ("slack.com",)  # `files.slack.com`, a workspace's own host
    secrets = (r"xox[abposre]-[A-Za-z0-9-]+", r"xapp-[A-Za-z0-9-]+")
    secret_params = ("token",)
    record_names = staticmethod(record_names)  # the viewer's names beside ids
    addresses = staticmethod(store_addresses)  # its people by email, for the services whose accounts they are
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)
    fault_options: ClassVar[Mapping[str, FaultOption]] = {
        "error": FaultOption(
            Literal[SERVER_ERRORS] | None,  # type: ignore[valid-type]
            None,
            "server_error",
            "error (an `ok: false` code) is {owners} alone",
        )
    }
    # 200: an `ok: false` code, as Slack answers its own failures.
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {"server_error": (200, 500, 502, 503, 504)}

    def token(self, request: ServiceRequest) -> str | None:
        return token_of(request)

    def unauthorized(self, request: ServiceRequest) -> Reply:
        # No live world answers this token, so nothing is recorded: Slack's answer is all there is to give.
        method = _method(request)
        if method is None:
            return _not_found()
        if ops.get(method) is None:
            return _unknown(method, None)
        code = "not_authed" if token_of(request) is None else "invalid_auth"
        return Reply(200, error_body(SlackError(code)), operation=method, error=True)

    def revoked(self, request: ServiceRequest) -> Reply:
        """A token of a world whose attempt has ended: Slack's answer for an app that has been uninstalled."""
        method = _method(request)
        if method is None:
            return _not_found()
        return Reply(200, error_body(SlackError("token_revoked")), operation=method, error=True)

    def too_large(self, request: ServiceRequest) -> Reply:
        # Slack documents no body limit; its front end answers 413, and the body says why in Slack's words.
        return Reply(413, error_body(SlackError("request_too_large")), operation=_method(request), error=True)

    def unavailable(self, request: ServiceRequest) -> Reply:
        # `service_unavailable` is among the errors Slack documents for every method.
        return Reply(
            503,
            error_body(SlackError("service_unavailable")),
            operation=_method(request),
            error=True,
            trace_body=_trace_body(request),
        )

    def operation(self, request: ServiceRequest) -> str | None:
        """The method a call names, as the trace records it (None outside `/api/`)."""
        return _method(request)

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        if request.path.startswith(files.UPLOAD_PATH):
            return _upload(world, principal, request)
        method = _method(request)
        if method is None:
            return _not_found()
        handler = ops.get(method)
        try:
            args = Args.parse(request)
        except SlackError as exc:
            if handler is None:
                return _unknown(method, None)
            return Reply(200, error_body(exc), operation=method, error=True)
        if handler is None:
            return _unknown(method, args.values)
        try:
            user = _authenticate(world, principal, request)
            wait = limits.retry_after(world, method, args.string("channel"))
            if wait is not None:
                return limits.refusal(method, wait, args.values)
            bot = principal.token_type == "bot"  # type: ignore[union-attr]
            body = handler(Call(world, user, bot, args, _world_base(world, request)))
        except SlackError as exc:
            return Reply(
                200,
                with_warnings(error_body(exc), args.warnings),
                operation=method,
                error=True,
                trace_body=args.values,
            )
        return Reply(200, with_warnings({"ok": True, **body}, args.warnings), operation=method, trace_body=args.values)

    def operations(self) -> list[str]:
        return ops.names()

    def credentials(self, world: World) -> list[Credential]:
        """A bot token and a user token (for search.messages), both acting as the scene's `agent.slack_user`."""
        user = world.agent.get("slack_user")
        if not user:
            return []
        return [
            Credential("SLACK_BOT_TOKEN", "xoxb-", Principal("slack", user, "bot")),
            Credential("SLACK_USER_TOKEN", "xoxp-", Principal("slack", user, "user")),
        ]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        # slack_sdk's WebClient(base_url=...) takes the URL of the API root, with its trailing slash.
        return {"SLACK_API_URL": f"{base_url}/api/"}

    def assign(self, section: Any, ctx: Any) -> None:
        seed.assign(section, ctx)

    def build(self, section: Any, ctx: Any) -> None:
        seed.build(section, ctx)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        seed_generate.generate(collection, options, ctx)

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        """Slack's answer when it fails on its side; the server has already undone the call's writes."""
        return Reply(
            200,
            {"ok": False, "error": "fatal_error"},
            operation=_method(request),
            error=True,
            trace_body=_trace_body(request),
        )

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        headers = {"Retry-After": str(fault.retry_after)}
        return injected(self.internal_error, request, 429, {"ok": False, "error": "ratelimited"}, headers)

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        error = fault.options["error"] or "internal_error"
        return injected(self.internal_error, request, fault.status or 200, {"ok": False, "error": error}, {})


def _world_base(world: World, request: ServiceRequest) -> str:
    """The service base under `/w/<world>/`, however the request came in (a URL found without a token)."""
    return _base_under(request.base_url, world.id)


@lru_cache(maxsize=256)  # the same for every call of an agent
def _base_under(base_url: str, world_id: str) -> str:
    root = base_url.removesuffix("/slack").removesuffix(f"/w/{world_id}")
    return f"{root}/w/{world_id}/slack"


def _upload(world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
    """Bytes posted to an upload URL, answered in plain text as files.slack.com does."""
    text = {"Content-Type": "text/plain; charset=utf-8"}
    file = world[FILES].get(principal.user) if principal is not None and principal.token_type == UPLOAD else None
    if file is None or file["state"] != "pending":
        return Reply(404, "Not Found", headers=text, error=True)
    if request.method != "POST":
        return Reply(405, "Method Not Allowed", headers=text, error=True)
    try:
        data = uploaded(request)
    except SlackError:
        return Reply(400, "Bad Request", headers=text, error=True)
    files.receive(world, file["id"], data)
    return Reply(200, f"OK - {len(data)}", headers=text)


def _authenticate(world: World, principal: Principal | None, request: ServiceRequest) -> Record:
    """The caller's user record: `not_authed` without a token, `invalid_auth` for a token of no use here."""
    if principal is None:
        raise SlackError("not_authed" if token_of(request) is None else "invalid_auth")
    user = world[USERS].get(principal.user)
    if user is None:
        raise SlackError("invalid_auth")
    if user["deleted"]:
        raise SlackError("account_inactive")
    return user


service = SlackService()
