"""The work around code, without HTTP: issues, labels, comments, pulls, reviews, merges, deployments,
releases, workflow runs, check runs and commit statuses.

Records keep GitHub's field names with plain values (a user is its login, a label its name, a time
epoch microseconds); `work_views` renders them. Issues and pulls share one number sequence per repo
(`world.ids` namespace `github:number:<repo>`) and are keyed "owner/repo#N". Callers validate first;
these functions assume valid input and only write.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...world import Collection, Record
from . import git
from .store import HEADS, LABELS, REPOS, USERS, Repos, identity, node_id

ISSUES = "github.issues"
PULLS = "github.pulls"
COMMENTS = "github.comments"
REVIEWS = "github.reviews"
REVIEW_COMMENTS = "github.review_comments"
DEPLOYMENTS = "github.deployments"
DEPLOYMENT_STATUSES = "github.deployment_statuses"
RELEASES = "github.releases"
WORKFLOW_RUNS = "github.workflow_runs"
CHECK_RUNS = "github.check_runs"
STATUSES = "github.statuses"

# Where each kind's numeric ids start (GitHub's ids are large and grow; these look like theirs).
_IDS = {
    "Issue": 3_100_000_000,
    "PullRequest": 2_800_000_000,
    "IssueComment": 3_900_000_000,
    "PullRequestReview": 2_700_000_000,
    "PullRequestReviewComment": 1_900_000_000,
    "Deployment": 2_500_000_000,
    "DeploymentStatus": 5_900_000_000,
    "Release": 210_000_000,
    "WorkflowRun": 13_000_000_000,
    "CheckRun": 38_000_000_000,
    "StatusContext": 33_000_000_000,
}

_CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b", re.IGNORECASE)


class Work:
    """Reads and writes the work collections through a collection getter (a live world or an image)."""

    def __init__(self, collection: Callable[[str], Collection], ids: Any) -> None:
        self.col = collection
        self.ids = ids
        self.repos = Repos(collection)

    def new_id(self, kind: str) -> tuple[int, str]:
        number = _IDS[kind] + self.ids.next(f"github:{kind}")
        return number, node_id(kind, number)

    # -- issues and pulls ----------------------------------------------------------------------------

    def next_number(self, repo: str) -> int:
        return self.ids.next(f"github:number:{repo}")

    def item(self, repo: str, number: int) -> tuple[str, Record] | None:
        """The issue or pull request `number` of `repo`, with the collection it lives in."""
        key = item_key(repo, number)
        for name in (ISSUES, PULLS):
            record = self.col(name).get(key)
            if record is not None:
                return name, record
        return None

    def label(self, repo: str, name: str) -> Record | None:
        return self.col(LABELS).get(f"{repo}:{name.lower()}")

    def labels(self, repo: str) -> list[Record]:
        return self.col(LABELS).by("repository", repo)

    def _item(self, kind: str, repo: str, login: str, at: int, title: str, body: str | None) -> dict[str, Any]:
        """What issues and pull requests share: the repo's next number, ids, and an open, unlocked state."""
        number = self.next_number(repo)
        ident, node = self.new_id(kind)
        return {
            "id": ident,
            "node_id": node,
            "repository": repo,
            "number": number,
            "title": title,
            "body": body,
            "state": "open",
            "user": login,
            "labels": [],
            "assignees": [],
            "locked": False,
            "active_lock_reason": None,
            "created_at": at,
            "updated_at": at,
            "closed_at": None,
        }

    def create_issue(self, repo: str, login: str, at: int, **fields: Any) -> Record:
        record = self._item("Issue", repo, login, at, fields["title"], fields.get("body"))
        record.update(
            state_reason=None,
            labels=list(fields.get("labels") or []),
            assignees=list(fields.get("assignees") or []),
            closed_by=None,
        )
        return self.col(ISSUES).add(item_key(repo, record["number"]), record)

    def update_item(self, collection: str, record: Record, login: str, at: int, **fields: Any) -> Record:
        """Changes an issue or pull (title, body, state, state_reason, labels, assignees, base...);
        closing and reopening keep `closed_at`, `closed_by` and `state_reason` as GitHub does."""
        changes = {k: v for k, v in fields.items() if record.get(k) != v}
        if not changes:
            return record
        state = changes.get("state")
        if state == "closed":
            changes.update(closed_at=at, closed_by=login)
            changes.setdefault("state_reason", "completed" if collection == ISSUES else None)
        elif state == "open":
            changes.update(closed_at=None, closed_by=None)
            changes["state_reason"] = "reopened" if collection == ISSUES else None
        if collection == PULLS:
            changes.pop("closed_by", None)
            changes.pop("state_reason", None)
            if state == "closed":
                changes.update(
                    head_sha=self.head_sha(record), base_sha=self.repos.branch_sha(record["repository"], record["base"])
                )
        changes["updated_at"] = at
        return self.col(collection).change(item_key(record["repository"], record["number"]), **changes)

    def create_label(self, repo: str, name: str, color: str, description: str | None) -> Record:
        ident = 5_000_000_000 + self.ids.next("github:label")
        record = {
            "id": ident,
            "node_id": node_id("Label", ident),
            "repository": repo,
            "name": name,
            "color": color,
            "description": description,
            "default": False,
        }
        return self.col(LABELS).add(f"{repo}:{name.lower()}", record)

    # -- comments ------------------------------------------------------------------------------------

    def comments(self, repo: str, number: int) -> list[Record]:
        return self.col(COMMENTS).by("issue", item_key(repo, number))

    def add_comment(self, record: Record, login: str, body: str, at: int) -> Record:
        ident, node = self.new_id("IssueComment")
        key = item_key(record["repository"], record["number"])
        comment = {
            "id": ident,
            "node_id": node,
            "repository": record["repository"],
            "issue": key,
            "number": record["number"],
            "body": body,
            "user": login,
            "created_at": at,
            "updated_at": at,
        }
        return self.col(COMMENTS).add(str(ident), comment)

    def remove_comment(self, comment: Record) -> None:
        self.col(COMMENTS).remove(str(comment["id"]))

    # -- pulls ---------------------------------------------------------------------------------------

    def create_pull(self, repo: str, login: str, at: int, **fields: Any) -> Record:
        record = self._item("PullRequest", repo, login, at, fields["title"], fields.get("body"))
        record.update(
            head=fields["head"],
            base=fields["base"],
            head_sha=self.repos.branch_sha(repo, fields["head"]),
            base_sha=self.repos.branch_sha(repo, fields["base"]),
            draft=bool(fields.get("draft")),
            maintainer_can_modify=bool(fields.get("maintainer_can_modify", False)),
            merged=False,
            merged_at=None,
            merged_by=None,
            merge_commit_sha=None,
        )
        return self.col(PULLS).add(item_key(repo, record["number"]), record)

    def head_sha(self, pull: Record) -> str | None:
        """The head branch's commit while the pull is open; the sha it had when it was closed after."""
        if pull["state"] == "open":
            return self.repos.branch_sha(pull["repository"], pull["head"]) or pull["head_sha"]
        return pull["head_sha"]

    def mergeable(self, pull: Record) -> bool | None:
        """Whether head merges cleanly into base (None once merged or closed, as GitHub answers)."""
        if pull["state"] != "open":
            return None
        base = self.repos.branch_sha(pull["repository"], pull["base"])
        head = self.head_sha(pull)
        if base is None or head is None:
            return False
        return self.merged_files(base, head) is not None

    def merged_files(self, ours: str, theirs: str) -> dict[str, str | None] | None:
        """The text of every file that a merge of `theirs` into `ours` changes against `ours`; None on a conflict."""
        objects = self.repos.objects
        base = self.repos.merge_base(ours, theirs)
        base_files = self.repos.files(base) if base else {}
        our_files, their_files = self.repos.files(ours), self.repos.files(theirs)
        changes: dict[str, str | None] = {}
        for path in sorted(set(base_files) | set(our_files) | set(their_files)):
            old, mine, yours = (base_files.get(path), our_files.get(path), their_files.get(path))
            if mine == yours or old == yours:
                continue
            texts = [git.text(objects, b) if b else None for b in (old, mine, yours)]
            clean, content = git.merge3(*texts)
            if not clean:
                return None
            changes[path] = content
        return changes

    def merge_pull(self, pull: Record, method: str, title: str, message: str, merger: Record, at: int) -> str:
        """Merges a mergeable pull by `merge`, `squash` or `rebase`, moves the base branch, closes the
        pull and, on the default branch, the issues it names and (with `deploy_on_merge`) deploys."""
        repo = pull["repository"]
        base, head = self.repos.branch_sha(repo, pull["base"]), self.head_sha(pull)
        assert base is not None and head is not None
        person = identity(merger, at)
        text = f"{title}\n\n{message}" if message else title
        if method == "rebase":
            sha = self._rebase(repo, base, head, person)
        else:
            changes = self.merged_files(base, head) or {}
            parents = [base, head] if method == "merge" else [base]
            files = self.repos.files(base)
            for path, content in changes.items():
                if content is None:
                    files.pop(path, None)
                else:
                    files[path] = git.write_blob(self.repos.objects, content)
            author = person if method == "merge" else self._author(head, person)
            sha = git.write_commit(self.repos.objects, repo, files, parents, text, author, person)["sha"]
        self.repos.set_ref(repo, HEADS + pull["base"], sha)
        key = item_key(repo, pull["number"])
        self.col(PULLS).change(
            key,
            state="closed",
            merged=True,
            merged_at=at,
            merged_by=merger["login"],
            merge_commit_sha=sha,
            head_sha=head,
            base_sha=base,
            closed_at=at,
            updated_at=at,
        )
        record = self.repos.repo(repo)
        assert record is not None
        if pull["base"] == record["default_branch"]:
            self._close_named(pull, merger["login"], at)
            if record.get("deploy_on_merge"):
                self.create_deployment(repo, sha, pull["base"], "production", merger["login"], at, state="success")
        return sha

    def _author(self, head: str, fallback: Record) -> Record:
        commit = self.repos.commit(head)
        return commit["author"] if commit else fallback

    def _rebase(self, repo: str, base: str, head: str, committer: Record) -> str:
        """Replays each commit of head that base lacks on top of base (a cherry-pick per commit)."""
        objects = self.repos.objects
        current = base
        for commit in self.repos.compare(base, head)["commits"]:
            parent = commit["parents"][0] if commit["parents"] else None
            changes: dict[str, str | None] = {}
            for entry in self.repos.changed(parent, commit["sha"]):
                path = entry["filename"]
                before = self.repos.file_at(repo, parent, path) if parent else None
                now = self.repos.file_at(repo, current, path)
                after = self.repos.file_at(repo, commit["sha"], path)
                changes[path] = git.merge3(before, now, after)[1]
            files = self.repos.files(current)
            for path, content in changes.items():
                if content is None:
                    files.pop(path, None)
                else:
                    files[path] = git.write_blob(objects, content)
            current = git.write_commit(objects, repo, files, [current], commit["message"], commit["author"], committer)[
                "sha"
            ]
        return current

    def _close_named(self, pull: Record, login: str, at: int) -> None:
        """`Fixes #N`, `Closes #N`, `Resolves #N` in the title or body close open issue N."""
        text = f"{pull['title']}\n{pull.get('body') or ''}"
        for number in dict.fromkeys(int(n) for n in _CLOSING.findall(text)):
            issue = self.col(ISSUES).get(item_key(pull["repository"], number))
            if issue is not None and issue["state"] == "open":
                self.update_item(ISSUES, issue, login, at, state="closed", state_reason="completed")

    # -- reviews -------------------------------------------------------------------------------------

    def reviews(self, pull: Record) -> list[Record]:
        return self.col(REVIEWS).by("pull", item_key(pull["repository"], pull["number"]))

    def create_review(self, pull: Record, login: str, state: str, body: str, commit_id: str, at: int | None) -> Record:
        ident, node = self.new_id("PullRequestReview")
        record = {
            "id": ident,
            "node_id": node,
            "repository": pull["repository"],
            "pull": item_key(pull["repository"], pull["number"]),
            "number": pull["number"],
            "user": login,
            "body": body,
            "state": state,
            "commit_id": commit_id,
            "submitted_at": at,
        }
        return self.col(REVIEWS).add(str(ident), record)

    def review_comments(self, pull: Record) -> list[Record]:
        return self.col(REVIEW_COMMENTS).by("pull", item_key(pull["repository"], pull["number"]))

    def add_review_comment(self, pull: Record, login: str, at: int, **fields: Any) -> Record:
        ident, node = self.new_id("PullRequestReviewComment")
        key = item_key(pull["repository"], pull["number"])
        record = {
            "id": ident,
            "node_id": node,
            "repository": pull["repository"],
            "pull": key,
            "number": pull["number"],
            "pull_request_review_id": fields.get("review_id"),
            "user": login,
            "body": fields["body"],
            "path": fields["path"],
            "line": fields.get("line"),
            "side": fields.get("side") or "RIGHT",
            "commit_id": fields["commit_id"],
            "diff_hunk": fields.get("diff_hunk", ""),
            "in_reply_to_id": fields.get("in_reply_to_id"),
            "created_at": at,
            "updated_at": at,
        }
        return self.col(REVIEW_COMMENTS).add(str(ident), record)

    # -- deployments ---------------------------------------------------------------------------------

    def create_deployment(
        self,
        repo: str,
        sha: str,
        ref: str,
        environment: str,
        login: str,
        at: int,
        *,
        task: str = "deploy",
        payload: Any = None,
        description: str | None = None,
        state: str | None = None,
    ) -> Record:
        """Records a deployment; one to `production` deploys `sha` (the repo's `production` moves)."""
        ident, node = self.new_id("Deployment")
        record = {
            "id": ident,
            "node_id": node,
            "repository": repo,
            "sha": sha,
            "ref": ref,
            "task": task,
            "payload": payload if payload is not None else {},
            "environment": environment,
            "original_environment": environment,
            "description": description,
            "creator": login,
            "production_environment": environment == "production",
            "transient_environment": False,
            "created_at": at,
            "updated_at": at,
        }
        deployment = self.col(DEPLOYMENTS).add(str(ident), record)
        if environment == "production":
            self.col(REPOS).change(repo, production=sha)
        if state is not None:
            self.add_deployment_status(deployment, state, login, at)
        return deployment

    def add_deployment_status(self, deployment: Record, state: str, login: str, at: int, **fields: Any) -> Record:
        ident, node = self.new_id("DeploymentStatus")
        record = {
            "id": ident,
            "node_id": node,
            "repository": deployment["repository"],
            "deployment_id": deployment["id"],
            "state": state,
            "creator": login,
            "description": fields.get("description") or "",
            "environment": fields.get("environment") or deployment["environment"],
            "target_url": fields.get("target_url") or fields.get("log_url") or "",
            "log_url": fields.get("log_url") or fields.get("target_url") or "",
            "environment_url": fields.get("environment_url") or "",
            "created_at": at,
            "updated_at": at,
        }
        self.col(DEPLOYMENTS).change(str(deployment["id"]), updated_at=at)
        return self.col(DEPLOYMENT_STATUSES).add(str(ident), record)

    # -- CI ------------------------------------------------------------------------------------------

    def add_run(self, repo: str, branch: str, sha: str, actor: str, at: int, conclusion: str = "success") -> Record:
        """A completed `CI` workflow run on a push to `branch`, with its one `build` check run."""
        ident, node = self.new_id("WorkflowRun")
        commit = self.repos.commit(sha)
        run = {
            "id": ident,
            "node_id": node,
            "repository": repo,
            "name": "CI",
            "path": ".github/workflows/ci.yml",
            "workflow_id": 160_000_000 + sum(map(ord, repo)),
            "check_suite_id": 30_000_000_000 + ident % 1_000_000_000,
            "head_branch": branch,
            "head_sha": sha,
            "display_title": commit["message"].split("\n")[0] if commit else branch,
            "run_number": self.ids.next(f"github:run_number:{repo}"),
            "run_attempt": 1,
            "event": "push",
            "status": "completed",
            "conclusion": conclusion,
            "actor": actor,
            "created_at": at,
            "updated_at": at + 90_000_000,
            "run_started_at": at,
        }
        self.col(WORKFLOW_RUNS).add(str(ident), run)
        self.add_check_run(run, at)
        return run

    def add_check_run(self, run: Record, at: int) -> Record:
        ident, node = self.new_id("CheckRun")
        done = run["status"] == "completed"
        record = {
            "id": ident,
            "node_id": node,
            "repository": run["repository"],
            "run_id": run["id"],
            "check_suite_id": run["check_suite_id"],
            "head_sha": run["head_sha"],
            "name": "build",
            "status": run["status"],
            "conclusion": run["conclusion"],
            "external_id": str(run["id"]),
            "started_at": at,
            "completed_at": at + 90_000_000 if done else None,
            "output": {"title": None, "summary": None, "text": None},
        }
        return self.col(CHECK_RUNS).add(str(ident), record)

    def rerun(self, run: Record, at: int) -> Record:
        """A new attempt of a run: queued now; its check run starts again."""
        run = self.col(WORKFLOW_RUNS).change(
            str(run["id"]),
            run_attempt=run["run_attempt"] + 1,
            status="queued",
            conclusion=None,
            updated_at=at,
            run_started_at=at,
        )
        for check in self.col(CHECK_RUNS).by("run_id", run["id"]):
            self.col(CHECK_RUNS).change(
                str(check["id"]), status="queued", conclusion=None, started_at=at, completed_at=None
            )
        return run

    def finish_run(self, run_id: int, conclusion: str, at: int) -> None:
        """Completes a run and its check runs."""
        self.col(WORKFLOW_RUNS).change(str(run_id), status="completed", conclusion=conclusion, updated_at=at)
        for check in self.col(CHECK_RUNS).by("run_id", run_id):
            self.col(CHECK_RUNS).change(str(check["id"]), status="completed", conclusion=conclusion, completed_at=at)

    def add_status(self, repo: str, sha: str, state: str, context: str, login: str, at: int, **fields: Any) -> Record:
        ident, node = self.new_id("StatusContext")
        record = {
            "id": ident,
            "node_id": node,
            "repository": repo,
            "sha": sha,
            "state": state,
            "context": context,
            "description": fields.get("description"),
            "target_url": fields.get("target_url"),
            "creator": login,
            "created_at": at,
            "updated_at": at,
        }
        return self.col(STATUSES).add(str(ident), record)

    def add_release(self, repo: str, tag: str, target: str, login: str, at: int, **fields: Any) -> Record:
        ident, node = self.new_id("Release")
        record = {
            "id": ident,
            "node_id": node,
            "repository": repo,
            "tag_name": tag,
            "target_commitish": target,
            "name": fields.get("name") or tag,
            "body": fields.get("body"),
            "draft": bool(fields.get("draft")),
            "prerelease": bool(fields.get("prerelease")),
            "author": login,
            "created_at": at,
            "published_at": None if fields.get("draft") else at,
        }
        return self.col(RELEASES).add(str(ident), record)

    def user(self, login: str) -> Record | None:
        return self.col(USERS).get(login)

    def open_items(self, repo: str) -> int:
        """Open issues and pull requests of `repo`: GitHub's `open_issues_count`."""
        return sum(1 for kind in (ISSUES, PULLS) for item in self.col(kind).by("repository", repo) if item["state"] == "open")


def item_key(repo: str, number: int) -> str:
    return f"{repo}#{number}"
