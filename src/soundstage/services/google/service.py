"""What Google's services share as a `Service`: one OAuth bearer token for the account of the scene's
`agent.google_user` (`GOOGLE_OAUTH_TOKEN`, shared by every service of the `google` account), Google's 401
with its `WWW-Authenticate` challenge, its envelope for every refusal, and its answers to api faults."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from ...spec.build import BuildContext
from ...world import Principal, World
from ..base import BodyError, Credential, Injection, Reply, ServiceRequest, parse_body
from ..rest import RestService, trace_body
from . import accounts, batch
from .calls import GoogleCall
from .errors import GoogleError, backend_error, envelope, not_found, parse_error, rate_limited, too_large

ACCOUNT = "google"
TOKEN = "GOOGLE_OAUTH_TOKEN"
CHALLENGE = 'Bearer realm="https://accounts.google.com/"'
HELP = (
    "Expected OAuth 2 access token, login cookie or other valid authentication credential. "
    "See https://developers.google.com/identity/sign-in/web/devconsole-project."
)


def missing_credentials() -> GoogleError:
    return GoogleError(
        401,
        "required",
        "Login Required.",
        "Authorization",
        "header",
        {"WWW-Authenticate": CHALLENGE},
        top=f"Request is missing required authentication credential. {HELP}",
    )


def invalid_credentials() -> GoogleError:
    return GoogleError(
        401,
        "authError",
        "Invalid Credentials",
        "Authorization",
        "header",
        {"WWW-Authenticate": f'{CHALLENGE}, error="invalid_token"'},
        top=f"Request had invalid authentication credentials. {HELP}",
    )


def bearer(request: ServiceRequest) -> str | None:
    """The token of `Authorization: Bearer <token>`, or of the `access_token` query parameter."""
    scheme, _, value = request.headers.get("authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    given = request.query.get("access_token")
    return (given[0] if isinstance(given, list) else given) or None


class GoogleService(RestService):
    """A Google API. A subclass names its registry (`ops`), its `Call`, its hosts, and builds its records."""

    account = ACCOUNT
    agent_user = "google_user"
    error = GoogleError
    secrets = (r"ya29\.[0-9a-f]{32}",)
    secret_params = ("access_token",)
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {"server_error": (500, 503)}
    call: ClassVar[type[GoogleCall]]
    # Where the API takes a batch request (its paths under the service's URL), and how many calls one may hold.
    batch_paths: ClassVar[frozenset[str]] = frozenset()
    batch_limit: ClassVar[int] = 100
    batch_roots: ClassVar[tuple[str, ...]] = ()  # the paths its operations start with (`/gmail/v1/`)

    def batch_calls(self, request: ServiceRequest, prefix: str) -> list[batch.Part]:
        """The calls of a batch request, each to be run as a call of its own (the server's `batch.py`); raises
        `GoogleError` for a body that is not a batch this API takes."""
        return batch.parse(request, prefix, self.batch_roots, self.batch_limit)

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        if request.method == "POST" and request.path in self.batch_paths:
            return self.whole_batch(principal, request)
        return super().handle(world, principal, request)

    def batch_answer(self, request: ServiceRequest, answers: list[tuple[str | None, Reply, bytes]]) -> Reply:
        """The answer to a batch whose calls were run: each call's `(Content-ID, reply, encoded body)`, in order."""
        parts = [batch.response_part(content_id, reply, content) for content_id, reply, content in answers]
        boundary = batch.boundary_for(request.body, parts)
        encoded = batch.compose(boundary, parts)
        headers = {"Content-Type": f"multipart/mixed; boundary={boundary}"}
        return Reply(200, None, headers=headers, operation="batch", encoded=encoded)

    def whole_batch(self, principal: Principal | None, request: ServiceRequest) -> Reply:
        """A batch request answered as one call: one the server did not take apart into its calls (not the
        format, too many calls, a token of another account), or a batch inside a batch, which Google refuses."""
        try:
            if principal is None:
                raise invalid_credentials()
            batch.parse(request, "", self.batch_roots, self.batch_limit)
            raise batch.nested_error()
        except GoogleError as exc:
            return self.error_reply(exc, operation="batch", trace_body=trace_body(request))

    def envelope(self, exc: GoogleError) -> Any:
        return envelope(exc)

    def unknown_path(self) -> GoogleError:
        return not_found()

    def failure(self) -> GoogleError:
        return backend_error(500)

    def oversized(self) -> GoogleError:
        return too_large()

    def outage(self) -> GoogleError:
        return backend_error(503)

    def token(self, request: ServiceRequest) -> str | None:
        return bearer(request)

    def unauthorized(self, request: ServiceRequest) -> Reply:
        refusal = missing_credentials() if bearer(request) is None else invalid_credentials()
        return self.error_reply(refusal, operation=self.operation(request), trace_body=trace_body(request))

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        if principal is None:
            raise invalid_credentials()
        try:
            body = parse_body(request)
        except BodyError:
            raise parse_error() from None
        return self.ops.handlers[name](self.call(world, request, params, body, principal))

    def credentials(self, world: World) -> list[Credential]:
        """An OAuth access token of the account `agent.google_user` names (the same for every Google service)."""
        email = accounts.email_of(world.settings, world.agent.get(self.agent_user))
        return [Credential(TOKEN, "ya29.", Principal(ACCOUNT, email, "user"))] if email else []

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, rate_limited(fault.retry_after))

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, backend_error(fault.status or 500))

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        raise ctx.error(f"{self.name}.{collection} cannot be generated")

    @abstractmethod
    def derive(self, ctx: BuildContext) -> None:
        """The records of every account of the world (its primary calendar, its mailbox)."""
