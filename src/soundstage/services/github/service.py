"""The GitHub REST API (v3) as a `Service`: checks the User-Agent, API version and token (or serves a read
with none), reads the body as JSON whatever its type, routes `METHOD /path` to its registered operation,
and finishes every answer as GitHub does: the body fields of the media type asked for, rate-limit, scope
and cache headers (`wire`), and 304 for a conditional GET whose answer has not changed."""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from ...clock import US
from ...world import Principal, World
from ..base import (
    BodyError,
    Credential,
    FaultOption,
    Injection,
    Reply,
    ServiceRequest,
    import_registrations,
    parse_body,
)
from ..rest import RestService, trace_body
from . import git_http, mcp_tools, media, seed, wire
from .calls import TAILS, Call, ops
from .errors import GitHubError, envelope, not_found, server_error
from .git_http import git_path
from .handlers_graphql import GRAPHQL, operation_name
from .limits import over_limit, primary_refusal, rate_headers, secondary_refusal
from .models import GithubSection
from .store import USERS, record_names
from .store import addresses as store_addresses

VERSIONS = ("2022-11-28", "2026-03-10")
# GitHub Enterprise Server's paths at the root of its host: REST under /api/v3/, GraphQL at /api/graphql.
ENTERPRISE_REST = "/api/v3/"
ENTERPRISE_GRAPHQL = "/api/graphql"
GRAPHQL_AUTH_DOCS = "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql"
SCOPES = "repo, read:org, workflow"
_NO_USER_AGENT = (
    "Request forbidden by administrative rules. Please make sure your request has a User-Agent header "
    "(https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). "
    "Check https://developer.github.com for other possible causes."
)

import_registrations(__package__)


# The token each `Authorization` names, read once (a client sends the same one call after call); bounded, emptied
# when full.
_TOKENS_MAX = 256
_TOKENS: dict[str, str | None] = {}


def token_of(request: ServiceRequest) -> str | None:
    """The token of `Authorization: token <t>`, `Bearer <t>` or `Basic base64(user:t)`."""
    authorization = request.headers.get("authorization", "")
    try:
        return _TOKENS[authorization]
    except KeyError:
        if len(_TOKENS) >= _TOKENS_MAX:
            _TOKENS.clear()
        found = _TOKENS[authorization] = _token(authorization)
        return found


def _token(authorization: str) -> str | None:
    scheme, _, value = authorization.strip().partition(" ")
    value = value.strip()
    kind = scheme.lower()
    if kind in ("token", "bearer") and value:
        return value
    if kind == "basic" and value:
        try:
            user, _, password = base64.b64decode(value, validate=True).decode("utf-8").partition(":")
        except ValueError:  # not base64 (a character outside ASCII too), or not UTF-8 once decoded
            return None
        # `x-oauth-basic` as the password means the token is the user name.
        return user if password in ("", "x-oauth-basic") else password
    return None


def _unauthenticated(request: ServiceRequest) -> GitHubError:
    if token_of(request) is not None:
        return GitHubError(401, "Bad credentials")
    if request.path == "/graphql":
        return GitHubError(401, "This endpoint requires you to be authenticated.", documentation_url=GRAPHQL_AUTH_DOCS)
    return GitHubError(401, "Requires authentication")


class GitHubService(RestService):
    name = "github"
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)
    title = "GitHub"
    section = GithubSection  # its part of world and scene files
    agent_user = "github_user"  # who the agent is here, in a scene's `agent:`
    hosts = ("github.com", "api.github.com", "uploads.github.com")  # github.com: git's smart HTTP
    secrets = (r"gh[pousr]_[A-Za-z0-9]+", r"github_pat_\w+")
    secret_params = ("access_token",)  # its old way of sending a token
    record_names = staticmethod(record_names)  # the viewer's names beside ids
    addresses = staticmethod(store_addresses)  # its people by email, for the services whose accounts they are
    fault_options: ClassVar[Mapping[str, FaultOption]] = {
        "github_limit": FaultOption(
            Literal["primary", "secondary"],
            "secondary",
            "rate_limit",
            "github_limit (primary or secondary) is {owners} alone",
        )
    }
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {
        "rate_limit": (403, 429),
        "server_error": (500, 502, 503, 504),
    }
    ops = ops
    # GitHub's operations a template here would take for its own (see RestService.unimplemented).
    unimplemented = (
        "GET /repos/{owner}/{repo}/issues/comments",
        "GET /repos/{owner}/{repo}/pulls/comments",
        "GET /repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head",
        "GET /repos/{owner}/{repo}/commits/{commit_sha}/comments",
        "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls",
        "GET /repos/{owner}/{repo}/commits/{ref}/check-suites",
        "GET /repos/{owner}/{repo}/commits/{ref}/statuses",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/enforce_admins",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/required_signatures",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks/contexts",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/apps",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/teams",
        "GET /repos/{owner}/{repo}/branches/{branch}/protection/restrictions/users",
    )
    error = GitHubError
    tails = TAILS

    def envelope(self, exc: GitHubError) -> Any:
        return envelope(exc)

    def unknown_path(self) -> GitHubError:
        return not_found()

    def failure(self) -> GitHubError:
        return server_error(500)

    def oversized(self) -> GitHubError:
        return GitHubError(413, "Payload Too Large")

    def outage(self) -> GitHubError:
        return server_error(503)

    def too_large(self, request: ServiceRequest) -> Reply:
        refused = git_http.too_large(request) if git_path(request.path) else None  # a push: git's own refusal
        return refused or super().too_large(request)

    def token(self, request: ServiceRequest) -> str | None:
        return token_of(request)

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        return super().internal_error(as_json(request), exc)

    def unavailable(self, request: ServiceRequest) -> Reply:
        reply = super().unavailable(as_json(request))
        reply.headers = {**wire.CONSTANT, "X-GitHub-Media-Type": media.media_header(request), **reply.headers}
        return reply

    def unauthorized(self, request: ServiceRequest) -> Reply:
        if git_path(request.path):
            return git_http.unauthorized(request)
        reply = self._precheck(request) or self.error_reply(
            _unauthenticated(request), operation=self.operation(request), trace_body=trace_body(request)
        )
        reply.headers = {**wire.CONSTANT, **reply.headers}
        return reply

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        if git_path(request.path):  # git's own protocol on the host, not the REST API
            return git_http.serve(world, principal, request)
        request = as_json(request)
        anonymous = principal is None and self.anonymous(request)
        reply = self._precheck(request) or super().handle(world, principal, request)
        if reply.operation == GRAPHQL:  # the trace names a GraphQL call by its operation (`PullRequestList`)
            reply.operation = operation_name(reply.trace_body) or GRAPHQL
        if reply.status < 300 and reply.operation in media.BODY_OPERATIONS:
            reply.body = media.bodies(request, reply.body)
        cached = wire.cache_headers(reply, anonymous)
        unchanged = wire.not_modified(request, reply, cached)
        if unchanged:
            reply.status, reply.body, reply.encoded = 304, None, None
        # Neither a 304 nor `GET /rate_limit` counts against the primary limit.
        headers = rate_headers(world, not unchanged and reply.operation != "GET /rate_limit", anonymous)
        if not anonymous:
            headers["X-OAuth-Scopes"] = SCOPES
        headers["X-Accepted-OAuth-Scopes"] = wire.ACCEPTED_SCOPES.get(reply.operation or "", "")
        headers["X-GitHub-Request-Id"] = wire.request_id(world)
        headers.update(cached)
        headers.update(wire.CONSTANT)
        headers.update(reply.headers)
        selected = wire.version(request)
        if selected in VERSIONS:
            headers["X-GitHub-Api-Version-Selected"] = selected
        if "X-GitHub-Media-Type" not in headers:
            headers["X-GitHub-Media-Type"] = media.media_header(request)
        reply.headers = headers
        return reply

    def _precheck(self, request: ServiceRequest) -> Reply | None:
        """GitHub's answers before it looks at the token: a missing User-Agent, an unknown API version."""
        if not request.headers.get("user-agent"):
            return Reply(403, _NO_USER_AGENT, headers={"Content-Type": "text/plain; charset=utf-8"}, error=True)
        version = request.headers.get("x-github-api-version")
        if version is not None and version not in VERSIONS:
            exc = GitHubError(
                400,
                f"Invalid API version provided: {version}. Supported versions: {', '.join(VERSIONS)}.",
                documentation_url="https://docs.github.com/rest/about-the-rest-api/api-versions",
            )
            return self.error_reply(exc)
        return None

    def claim(self, path: str) -> tuple[str, str | None] | None:
        """git's paths at the root of the host, and GitHub Enterprise's layout there, which `gh` uses under
        GH_HOST (the links in its answers under /api/v3, as Enterprise gives them)."""
        root = ENTERPRISE_REST.rstrip("/") if path.startswith((ENTERPRISE_REST, ENTERPRISE_GRAPHQL)) else None
        if git_path(path):  # `/{owner}/{repo}.git/...`
            return path, root
        if path.startswith(ENTERPRISE_REST):
            return path[len(ENTERPRISE_REST) - 1 :], root
        if path == ENTERPRISE_GRAPHQL:
            return "/graphql", root
        return None

    def behind_proxy(self, env: dict[str, str]) -> dict[str, str]:
        """The token where `gh` and other GitHub tools look first."""
        return {"GH_TOKEN": env["GITHUB_TOKEN"]} if "GITHUB_TOKEN" in env else {}

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        status = fault.status or 403
        if fault.options["github_limit"] == "primary":
            user = world[USERS].get(principal.user) if principal is not None else None
            return self._injected(world, request, primary_refusal(user, status), fault.retry_after)
        return self._injected(world, request, secondary_refusal(fault.retry_after, status))

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self._injected(world, request, server_error(fault.status or 502))

    def _injected(self, world: World, request: ServiceRequest, exc: GitHubError, reset_in: int = 0) -> Reply:
        """An api fault's answer with the headers every GitHub answer has; the primary limit's spent
        (`reset_in` seconds from now) when given, else the count so far, which a refused call does not add to."""
        headers = rate_headers(world, counted=False, anonymous="authorization" not in request.headers)
        if reset_in:
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Used"] = headers["X-RateLimit-Limit"]
            headers["X-RateLimit-Reset"] = str(world.now() // US + reset_in)
        reply = self.fault_reply(request, exc)
        reply.headers = {
            **headers,
            "X-GitHub-Request-Id": wire.request_id(world),
            **wire.CONSTANT,
            "X-GitHub-Media-Type": media.media_header(request),
            **reply.headers,
        }
        return reply

    def anonymous(self, request: ServiceRequest) -> bool:
        """A read with no credential at all: GitHub serves public repos, users and organizations to anyone."""
        if git_path(request.path):
            return git_http.anonymous(request)
        return request.method == "GET" and "authorization" not in request.headers

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        user = world[USERS].get(principal.user) if principal is not None else None
        if user is None and not (principal is None and self.anonymous(request) and _for_anyone(name)):
            raise _unauthenticated(request)
        refused = over_limit(world, name, user)
        if refused is not None:
            raise refused
        return ops.handlers[name](Call(world, request, params, _json_body(request), user))

    def credentials(self, world: World) -> list[Credential]:
        """A classic personal access token acting as the scene's `agent.github_user`."""
        login = world.agent.get("github_user")
        if not login:
            return []
        return [Credential("GITHUB_TOKEN", "ghp_", Principal("github", login, "user"))]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        return {"GITHUB_API_URL": base_url}

    def assign(self, section: Any, ctx: Any) -> None:
        seed.assign(section, ctx)

    def build(self, section: Any, ctx: Any) -> None:
        seed.build(section, ctx)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        raise ctx.error(f"github.{collection} cannot be generated (nothing in GitHub is generated yet)")


def _for_anyone(operation: str) -> bool:
    """Whether GitHub answers `operation` without a credential: not the authenticated user's own
    operations (`/user`, `/user/...`), nor code search."""
    return not (operation == "GET /user" or operation.startswith("GET /user/") or operation == "GET /search/code")


def as_json(request: ServiceRequest) -> ServiceRequest:
    """The request with its body read as JSON whatever its `Content-Type` says, as GitHub reads it: its docs
    show `curl -d '{...}'`, which sends `application/x-www-form-urlencoded`. Without the header, a body that
    is not JSON is kept as text for the trace and answered 400 `Problems parsing JSON`."""
    if not request.body:  # most calls: a GET
        return request
    kind = request.content_type
    if not kind or kind.endswith("json"):
        return request
    headers = {name: value for name, value in request.headers.items() if name != "content-type"}
    return dataclasses.replace(request, headers=headers)


def _json_body(request: ServiceRequest) -> Any:
    """The JSON body; GitHub answers 400 `Problems parsing JSON` for anything else."""
    try:
        body = parse_body(request)
    except BodyError as exc:
        raise GitHubError(400, "Problems parsing JSON") from exc
    if body is not None and request.method != "GET" and not isinstance(body, (dict, list)):
        raise GitHubError(400, "Problems parsing JSON")
    return body


service = GitHubService()
