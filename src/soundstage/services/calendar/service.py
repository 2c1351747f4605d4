"""The Google Calendar API v3 as a `Service`: Google's OAuth token (shared with Gmail), `/calendar/v3/...` routed
to its operations, Google's envelope."""

from __future__ import annotations

from typing import Any

from ...spec.build import BuildContext
from ...world import Principal, World
from ..base import ServiceRequest, import_registrations
from ..google.service import GoogleService
from . import mcp_tools, recurrence, seed
from .calls import Call, ops
from .invitations import CalendarInvitations
from .models import CalendarSection
from .store import record_names

import_registrations(__package__)


class CalendarService(GoogleService):
    name = "calendar"
    title = "Google Calendar"
    section = CalendarSection
    hosts = ("www.googleapis.com/calendar/", "www.googleapis.com/batch/calendar/")
    batch_paths = frozenset({"/batch/calendar/v3"})
    batch_roots = ("/calendar/v3/",)
    batch_limit = 1000  # Calendar's guide: 1,000 calls a batch (Gmail's: 100)
    ops = ops
    call = Call
    record_names = staticmethod(record_names)
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)
    invitations = CalendarInvitations()

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        with recurrence.one_request():
            return super().run(world, principal, request, name, params)

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        """The API's root as the official client takes it (`api_endpoint`, which stands for its root URL and
        service path together: it ends `calendar/v3/`)."""
        return {"GOOGLE_CALENDAR_API_URL": f"{base_url}/calendar/v3/"}

    def assign(self, section: Any, ctx: BuildContext) -> None:
        seed.assign(ctx.parsed(CalendarSection, section), ctx)

    def build(self, section: Any, ctx: BuildContext) -> None:
        seed.build(ctx.parsed(CalendarSection, section), ctx)

    def derive(self, ctx: BuildContext) -> None:
        seed.derive(ctx)


service = CalendarService()
