"""GitHub's response objects for accounts and repositories, and what every area's views share (times,
users by login, reactions, author associations). `views_git`, `views_issues`, `views_pulls` and
`views_ci` render the rest, each with every field the schema requires.

`base` is the API root of the request (`call.base`), so every `url` leads back to this world; `html_url`
fields point at github.com as GitHub's do. Times are ISO-8601 UTC with `Z` and no fraction.
"""

from __future__ import annotations

from typing import Any

from ...clock import US, iso
from ...world import Record
from . import issues, repos, wire
from . import reactions as reactions_of
from .licenses import license_simple
from .records import Records

HTML = "https://github.com"
_REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


# Rendered simple-users and list repositories by the records they show, bounded (emptied when full). Records
# are never changed in place (a change stores a new dict, world.py), so the same record objects render the
# same object; each entry holds its records, so their ids stay theirs while the entry lives. Views are
# shared between answers and never changed after rendering (`wire.share`: a list of them is encoded once).
_RENDERED_MAX = 4096
_USERS: dict[tuple[str, int], tuple[Record, dict[str, Any]]] = {}
_REPOS: dict[tuple[str, int, int, int], tuple[Record, Record, dict[str, Any]]] = {}


def stamp(us: int) -> str:
    """A GitHub timestamp: whole seconds, `Z`."""
    return iso(us // US * US)


def user(base: str, record: Record) -> dict[str, Any]:
    """A simple-user."""
    key = (base, id(record))
    found = _USERS.get(key)
    if found is None:
        if len(_USERS) >= _RENDERED_MAX:
            _USERS.clear()
        found = _USERS[key] = (record, wire.share(_user(base, record)))
    return found[1]


def _user(base: str, record: Record) -> dict[str, Any]:
    login = record["login"]
    url = f"{base}/users/{login}"
    return {
        "login": login,
        "id": record["id"],
        "node_id": record["node_id"],
        "avatar_url": f"https://avatars.githubusercontent.com/u/{record['id']}?v=4",
        "gravatar_id": "",
        "url": url,
        "html_url": f"{HTML}/{login}",
        "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}",
        "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions",
        "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events",
        "type": record["type"],
        "user_view_type": "public",
        "site_admin": False,
    }


def public_user(base: str, record: Record, public_repos: int) -> dict[str, Any]:
    """A public-user (`GET /users/{username}`)."""
    return {
        **user(base, record),
        "name": record.get("name"),
        "company": None,
        "blog": "",
        "location": None,
        "email": record.get("email"),
        "hireable": None,
        "bio": None,
        "twitter_username": None,
        "public_repos": public_repos,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["created_at"]),
    }


def organization(base: str, record: Record, public_repos: int) -> dict[str, Any]:
    """An organization-full (`GET /orgs/{org}`) as a member who is not an owner sees it: no plan, billing
    or member settings."""
    login = record["login"]
    url = f"{base}/orgs/{login}"
    return {
        "login": login,
        "id": record["id"],
        "node_id": record["node_id"],
        "url": url,
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events",
        "hooks_url": f"{url}/hooks",
        "issues_url": f"{url}/issues",
        "members_url": f"{url}/members{{/member}}",
        "public_members_url": f"{url}/public_members{{/member}}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{record['id']}?v=4",
        "description": None,
        "name": record.get("name"),
        "company": None,
        "blog": "",
        "location": None,
        "email": record.get("email"),
        "twitter_username": None,
        "is_verified": False,
        "has_organization_projects": True,
        "has_repository_projects": True,
        "public_repos": public_repos,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "html_url": f"{HTML}/{login}",
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["created_at"]),
        "archived_at": None,
        "type": "Organization",
    }


def private_user(base: str, record: Record, public_repos: int, private_repos: int) -> dict[str, Any]:
    """A private-user (`GET /user`): the public fields and the account's own counts."""
    return {
        **public_user(base, record, public_repos),
        "private_gists": 0,
        "total_private_repos": private_repos,
        "owned_private_repos": private_repos,
        "disk_usage": 0,
        "collaborators": 0,
        "two_factor_authentication": True,
        "plan": {"name": "pro", "space": 976562499, "private_repos": 9999, "collaborators": 0},
    }


def repository(base: str, repo: Record, owner: Record, full: bool = True, open_issues: int = 0) -> dict[str, Any]:
    """A full-repository (`full`) or a repository as lists give it; both carry the repository fields.
    `open_issues`: open issues and pull requests, as GitHub counts them."""
    name = repo["full_name"]
    url = f"{base}/repos/{name}"
    body: dict[str, Any] = {
        "id": repo["id"],
        "node_id": repo["node_id"],
        "name": repo["name"],
        "full_name": name,
        "private": repo["private"],
        "owner": user(base, owner),
        "html_url": f"{HTML}/{name}",
        "description": repo.get("description"),
        "fork": False,
        "url": url,
        **{key: url + suffix for key, suffix in _REPO_URLS.items()},
        "created_at": stamp(repo["created_at"]),
        "updated_at": stamp(repo["updated_at"]),
        "pushed_at": stamp(repo["pushed_at"]),
        "git_url": f"git://github.com/{name}.git",
        "ssh_url": f"git@github.com:{name}.git",
        "clone_url": f"{HTML}/{name}.git",
        "svn_url": f"{HTML}/{name}",
        "homepage": None,
        "size": 0,
        "stargazers_count": 0,
        "watchers_count": 0,
        "language": None,
        "has_issues": True,
        "has_projects": True,
        "has_downloads": True,
        "has_wiki": True,
        "has_pages": False,
        "has_discussions": False,
        "forks_count": 0,
        "mirror_url": None,
        "archived": False,
        "disabled": False,
        "open_issues_count": open_issues,
        "license": license_simple(base, repo.get("license")),
        "allow_forking": True,
        "is_template": False,
        "web_commit_signoff_required": False,
        "topics": repo.get("topics", []),
        "visibility": "private" if repo["private"] else "public",
        "forks": 0,
        "open_issues": open_issues,
        "watchers": 0,
        "default_branch": repo["default_branch"],
        "permissions": {"admin": True, "maintain": True, "push": True, "triage": True, "pull": True},
    }
    if full:
        body.update(
            {
                "allow_squash_merge": True,
                "allow_merge_commit": True,
                "allow_rebase_merge": True,
                "allow_auto_merge": False,
                "delete_branch_on_merge": False,
                "network_count": 0,
                "subscribers_count": 0,
                "organization": user(base, owner) if owner["type"] == "Organization" else None,
                "custom_properties": {},  # the world defines no custom properties
            }
        )
    return body


def repository_of(base: str, records: Records, repo: Record, full: bool = True) -> dict[str, Any]:
    """`repository` for a repo record: its owner's account and open issue count looked up."""
    owner = repos.user(records, repo["owner"])
    if owner is None:
        raise KeyError(f"no owner {repo['owner']}")
    return repository(base, repo, owner, full, issues.open_items(records, repo["full_name"]))


def minimal_repository(base: str, records: Records, name: str) -> dict[str, Any]:
    """The repository object that pull request branches, workflow runs and statuses embed."""
    repo = repos.repo(records, name)
    assert repo is not None
    owner = repos.user(records, repo["owner"])
    if owner is None:
        raise KeyError(f"no owner {repo['owner']}")
    open_issues = issues.open_items(records, name)
    key = (base, id(repo), id(owner), open_issues)
    found = _REPOS.get(key)
    if found is None:
        if len(_REPOS) >= _RENDERED_MAX:
            _REPOS.clear()
        found = _REPOS[key] = (repo, owner, repository(base, repo, owner, False, open_issues))
    return found[2]


# -- what the views of issues, pulls and CI share -----------------------------------------------------


def maybe_stamp(us: int | None) -> str | None:
    return stamp(us) if us is not None else None


def user_by_login(base: str, records: Records, login: str | None) -> dict[str, Any] | None:
    """The simple-user of a login, None for none or an unknown one."""
    record = repos.user(records, login) if login else None
    return user(base, record) if record else None


def reactions(url: str, records: Records, subject: str) -> dict[str, Any]:
    """The reaction-rollup of what `url` is (`subject`, as `reactions` names it)."""
    found = reactions_of.counts(records, subject)
    return {"url": f"{url}/reactions", "total_count": sum(found.values()), **found}


def reaction(base: str, records: Records, record: Record) -> dict[str, Any]:
    return {
        "id": record["id"],
        "node_id": record["node_id"],
        "user": user_by_login(base, records, record["user"]),
        "content": record["content"],
        "created_at": stamp(record["created_at"]),
    }


def association(records: Records, repo: str, login: str) -> str:
    """`author_association`: the repo's owner, another account of the world, or nobody known."""
    return "OWNER" if repo.split("/")[0] == login else "MEMBER" if repos.user(records, login) else "NONE"
