"""Teams: `GET /teams`."""

from __future__ import annotations

from typing import Any

from .calls import Call, by_name, ops, paginate, text
from .store import TEAMS
from .views_directory import team_view


@ops("GET /teams")
def teams_list(call: Call) -> dict[str, Any]:
    teams = by_name(call.world[TEAMS], text(call, "query"), "name")
    return paginate(call, "teams", teams, lambda t: team_view(call, t))
