"""Users: `GET /users/me`, `GET /users`, `GET /users/{id}`."""

from __future__ import annotations

from typing import Any

from .calls import Call, by_name, listed, ops, paginate, text
from .errors import PagerDutyError, not_found
from .store import USERS
from .views_directory import user_view


@ops("GET /users/me")
def users_me(call: Call) -> dict[str, Any]:
    """The token's own user; an account-level token has none."""
    if call.user is None:
        raise PagerDutyError(
            400,
            2001,
            "Invalid Input Provided",
            [
                (
                    "Because this request was made using an account-level access token, we were unable to"
                    " correlate a user with this request."
                )
            ],
        )
    return {"user": user_view(call, call.user, listed(call, "include"), calendars=True)}


@ops("GET /users")
def users_list(call: Call) -> dict[str, Any]:
    include = listed(call, "include")
    teams = set(listed(call, "team_ids"))
    users = by_name(call.world[USERS], text(call, "query"), "name", "email")
    if teams:
        users = [u for u in users if teams.intersection(u["teams"])]
    return paginate(call, "users", users, lambda u: user_view(call, u, include))


@ops("GET /users/{id}")
def users_get(call: Call) -> dict[str, Any]:
    user = call.world[USERS].get(call.params["id"])
    if user is None:
        raise not_found()
    include = listed(call, "include")
    own = call.user is not None and call.user["id"] == user["id"]
    return {"user": user_view(call, user, include, calendars=own or "calendar_urls" in include)}
