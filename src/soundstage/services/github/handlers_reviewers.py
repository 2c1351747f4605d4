"""Review requests of a pull request: one function per operation. The world has no teams, so a team
named in `team_reviewers` is never a collaborator; a review submitted by a requested reviewer fulfils
the request (`pulls.create_review`)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import pulls, views_pulls
from .calls import Call, created, ops
from .errors import GitHubError
from .store import USERS

DOCS = "https://docs.github.com/rest/pulls/review-requests"


def _asked(call: Call) -> tuple[list[str] | None, list[str] | None]:
    return call.strings("reviewers"), call.strings("team_reviewers")


def _simple(call: Call, record: Record) -> dict[str, Any]:
    return views_pulls.pull(call.base, call.records, record, full=False)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers")
def list_requested(call: Call) -> Any:
    record = call.pull(call.repo())
    return {"users": views_pulls.requested_reviewers(call.base, call.records, record), "teams": []}


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers")
def request_reviewers(call: Call) -> Any:
    repo = call.repo()
    record = call.pull(repo)
    logins, teams = _asked(call)
    if logins is None and teams is None:
        raise GitHubError(422, 'Invalid request.\n\nNo subschema in "anyOf" matched.')
    logins = logins or []
    docs = f"{DOCS}#request-reviewers-for-a-pull-request"
    if record["user"] in logins:
        raise GitHubError(422, "Review cannot be requested from pull request author.", documentation_url=docs)
    users = call.world[USERS]
    if teams or any((users.get(login) or {}).get("type") not in ("User", "Bot") for login in logins):
        raise GitHubError(
            422,
            "Reviews may only be requested from collaborators. One or more of the users or teams you specified "
            f"is not a collaborator of the {repo['full_name']} repository.",
            documentation_url=docs,
        )
    record = pulls.request_reviews(call.records, record, logins, call.login, call.now())
    return created(_simple(call, record))


@ops("DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers")
def remove_requested(call: Call) -> Any:
    record = call.pull(call.repo())
    logins, _ = _asked(call)
    if logins is None:
        raise GitHubError(422, 'Invalid request.\n\n"reviewers" wasn\'t supplied.')
    record = pulls.remove_review_requests(call.records, record, logins, call.login, call.now())
    return _simple(call, record)
