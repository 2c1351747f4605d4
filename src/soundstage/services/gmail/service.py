"""The Gmail API v1 as a `Service`: Google's OAuth token (shared with Calendar), `/gmail/v1/...` routed to its
operations, Google's envelope."""

from __future__ import annotations

from typing import Any

from ...spec.build import BuildContext
from ...world import World
from ..base import import_registrations
from ..google.service import GoogleService
from . import mcp_tools, seed
from .calls import Call, ops
from .mail import GmailMail
from .models import GmailSection
from .store import record_names

import_registrations(__package__)


class GmailService(GoogleService):
    name = "gmail"
    title = "Gmail"
    section = GmailSection
    # Google's upload URLs (`/upload/gmail/v1/...`) are Gmail's too, on either host.
    hosts = (
        "gmail.googleapis.com",
        "www.googleapis.com/gmail/",
        "www.googleapis.com/upload/gmail/",
        "www.googleapis.com/batch/gmail/",
    )
    # Its discovery document's batch path (`batch`, at gmail.googleapis.com) and the one its guide gives.
    batch_paths = frozenset({"/batch", "/batch/gmail/v1"})
    batch_roots = ("/gmail/v1/", "/upload/gmail/v1/")
    ops = ops
    call = Call
    record_names = staticmethod(record_names)
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)
    mail = GmailMail()  # the world's people read and answer the agent's mail (services/mail.py)

    def claim(self, path: str) -> tuple[str, str | None] | None:
        """Media uploads at the root of the host: the official Python client sends one to the upload path of
        Google's (`/upload/gmail/v1/...`) on the host of its `api_endpoint`, without the endpoint's own path."""
        return (path, None) if path.startswith("/upload/gmail/") else None

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        """The API's root as the official client takes it (`api_endpoint`: Gmail's paths start `gmail/v1/`)."""
        return {"GMAIL_API_URL": f"{base_url}/"}

    def assign(self, section: Any, ctx: BuildContext) -> None:
        ctx.parsed(GmailSection, section)

    def build(self, section: Any, ctx: BuildContext) -> None:
        seed.build(ctx.parsed(GmailSection, section), ctx)

    def derive(self, ctx: BuildContext) -> None:
        seed.derive(ctx)


service = GmailService()
