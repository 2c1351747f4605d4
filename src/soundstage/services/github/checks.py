"""GitHub's state checks: `github.file_at`, `github.pull`, `github.production` and `github.issue`.

They read records only (a saved trial has nothing else): `github.repos` (`full_name`, `default_branch`,
`production`), `github.refs` (`repository`, `ref`, `sha`), `github.commits` (`sha`, `tree`, `parents`),
`github.trees` (`sha`, `tree`: entries with `path`, `type`, `sha`), `github.blobs` (`sha`, `content`),
`github.pulls` and `github.issues` (GitHub's fields, and `repository`: "owner/repo").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import PositiveInt, model_validator

from ...grading.attempt import Attempt, Record
from ...grading.conditions import Condition, closest, field_is, matching, misses, wants
from ...grading.kinds import Args, Counted, state_check
from ...grading.match import value_matches
from ...grading.outcome import Outcome
from ...grading.values import Case
from ...grading.words import count, listing, show, some
from .store import BLOBS, COMMITS, HEADS, ISSUES, PULLS, REFS, REPOS, TREES

# -- reading the git model ----------------------------------------------------------------------------


def _sha(value: Any) -> str | None:
    """A sha given as text or as GitHub's `{"sha": ...}`."""
    if isinstance(value, dict):
        value = value.get("sha")
    return value if isinstance(value, str) else None


def _one(attempt: Attempt, collection: str, field: str, value: Any) -> Record | None:
    found = attempt.index(collection, field).get(value) if value is not None else None
    return found[0] if found else None


def _repository(record: Any) -> str | None:
    """The "owner/repo" a ref, pull or issue belongs to."""
    return record.get("repository")


def _branch(attempt: Attempt, repo: str, name: str) -> Record | None:
    ref = name if name.startswith("refs/") else HEADS + name
    for record in attempt.index(REFS, "ref").get(ref, []):
        if _repository(record) == repo:
            return record
    return None


def _commit(attempt: Attempt, sha: str | None) -> Record | None:
    return _one(attempt, COMMITS, "sha", sha)


def _resolve(attempt: Attempt, repo: Record, ref: str | None) -> tuple[str | None, list[int], str]:
    """The commit a ref names (a branch, a sha, or `production`), the seqs of the writes that set it, and
    the ref in words: `main`, `production`, `abc1234`."""
    if ref is None:
        ref = str(repo.get("default_branch") or "main")
    if ref == "production":
        return _sha(repo.get("production")), attempt.record_evidence(REPOS, repo), "production"
    branch = _branch(attempt, str(repo.get("full_name")), ref)
    if branch is not None:
        return _sha(branch.get("sha")), attempt.record_evidence(REFS, branch), ref
    commit = _commit(attempt, ref)
    return (ref, attempt.record_evidence(COMMITS, commit), ref[:7]) if commit is not None else (None, [], ref)


def _file(attempt: Attempt, commit: Record, path: str) -> str | None:
    """The text of `path` in a commit's tree (a flat tree, or nested trees walked a folder at a time)."""
    tree = _one(attempt, TREES, "sha", _sha(commit.get("tree")))
    rest = path.strip("/")
    while tree is not None:
        entries = {e.get("path"): e for e in tree.get("tree", [])}
        entry = entries.get(rest)
        if entry is not None and entry.get("type", "blob") == "blob":
            blob = _one(attempt, BLOBS, "sha", _sha(entry))
            return None if blob is None else str(blob.get("content", ""))
        folder, _, rest = rest.partition("/")
        entry = entries.get(folder)
        if not rest or entry is None or entry.get("type") != "tree":
            return None
        tree = _one(attempt, TREES, "sha", _sha(entry))
    return None


def _ancestors(attempt: Attempt, sha: str | None) -> set[str]:
    """A commit and every commit it descends from."""
    seen: set[str] = set()
    todo = [sha] if sha else []
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        commit = _commit(attempt, current)
        if commit is not None:
            todo += [p for p in (_sha(parent) for parent in commit.get("parents", [])) if p]
    return seen


def _repo(attempt: Attempt, name: str) -> Record | None:
    return _one(attempt, REPOS, "full_name", name)


def _no_repo(attempt: Attempt, name: str) -> str:
    known = [str(r.get("full_name")) for r in attempt.records(REPOS)]
    return f"there is no repository {name}" + (f" (there are {listing(known)})" if known else "")


def _label(attempt: Attempt, sha: str) -> str:
    """A commit as a short sha with its ref and first line: `abc1234 ($fix) "Fix the cache"`."""
    name = attempt.ref_names.get(sha)
    commit = _commit(attempt, sha)
    message = str(commit.get("message", "")).split("\n", 1)[0] if commit is not None else ""
    return sha[:7] + (f" (${name})" if name else "") + (f" {show(message, 60)}" if message else "")


# -- github.file_at -----------------------------------------------------------------------------------


class FileAtArgs(Args):
    repo: str
    path: str
    ref: str | None = None  # a branch, a sha or `production`; default: the default branch
    contains: str | None = None
    equals: str | None = None
    excludes: str | None = None

    @model_validator(mode="after")
    def _one_test(self) -> FileAtArgs:
        tests = [t for t in ("contains", "equals", "excludes") if getattr(self, t) is not None]
        if len(tests) != 1:
            raise ValueError(
                f"github.file_at tests the file with one of contains, equals or excludes, found {len(tests)}"
            )
        return self

    def test(self) -> tuple[str, Callable[[str], bool]]:
        if self.contains is not None:
            text = self.contains
            return f"contains {show(text)}", lambda content: text in content
        if self.equals is not None:
            whole = self.equals
            return f"equals {show(whole)}", lambda content: content == whole
        gone = self.excludes or ""
        return f"does not contain {show(gone)}", lambda content: gone not in content


@state_check("github.file_at", FileAtArgs)
def file_at(args: FileAtArgs, attempt: Attempt) -> Outcome:
    said, holds = args.test()
    where = f"at {args.ref}" if args.ref is not None else "on the default branch"
    expected = f"{args.path} {where} in {args.repo} {said}"
    repo = _repo(attempt, args.repo)
    if repo is None:
        return Outcome(False, expected, _no_repo(attempt, args.repo))
    sha, seqs, ref = _resolve(attempt, repo, args.ref)
    if sha is None:
        missing = "has nothing in production" if ref == "production" else f"has no branch or commit {show(ref)}"
        return Outcome(False, expected, f"{args.repo} {missing}", seqs)
    commit = _commit(attempt, sha)
    content = _file(attempt, commit, args.path) if commit is not None else None
    at = f"{ref} ({sha[:7]})" if ref != sha[:7] else sha[:7]
    if content is None:
        return Outcome(args.excludes is not None, expected, f"{args.path} does not exist at {at}", seqs)
    passed = holds(content)
    actual = f"{args.path} at {at} {'does' if passed else 'does not'}" + (
        "" if passed or args.equals is None else f"; it is {show(content)}"
    )
    return Outcome(passed, expected, actual, seqs)


# -- github.pull --------------------------------------------------------------------------------------


def _merged(pull: Any) -> bool:
    return bool(pull.get("merged")) or pull.get("merged_at") is not None


def _head(pull: Any) -> str:
    """The head branch: the store keeps its name, GitHub's API shape is `{"ref": ...}`."""
    head = pull.get("head")
    return str(head.get("ref", "")) if isinstance(head, dict) else str(head or "")


def _pull_name(pull: Any) -> str:
    return f"#{pull.get('number')} ({show(pull.get('title', ''), 60)})"


def _pull_status(pull: Any) -> str:
    return "merged" if _merged(pull) else f"{pull.get('state')} and not merged"


class PullArgs(Args):
    repo: str
    number: PositiveInt | None = None
    title_contains: str | None = None
    head: str | None = None  # the head branch, `fix-cache` or `acme:fix-cache`
    merged: bool | None = None
    state: Literal["open", "closed"] | None = None
    ignore_case: bool | None = None  # false: `title_contains` is exact in case

    @model_validator(mode="after")
    def _something(self) -> PullArgs:
        if self.merged is None and self.state is None:
            raise ValueError("github.pull needs merged (true or false) or state (open or closed)")
        return self

    def selected(self, pull: Any) -> bool:
        head = self.head.rpartition(":")[2] if self.head is not None else None
        return (
            (self.number is None or pull.get("number") == self.number)
            and (
                self.title_contains is None
                or value_matches(str(pull.get("title", "")), self.title_contains, Case(self.ignore_case).fold)
            )
            and (head is None or _head(pull) == head)
        )

    def holds(self, pull: Any) -> bool:
        return (self.merged is None or _merged(pull) == self.merged) and (
            self.state is None or pull.get("state") == self.state
        )

    def text(self) -> str:
        chosen = [f"#{self.number}"] if self.number is not None else []
        case = Case(self.ignore_case).note().replace(",", "")
        chosen += [f"titled like {show(self.title_contains)}{case}"] if self.title_contains is not None else []
        chosen += [f"from {self.head}"] if self.head is not None else []
        wanted: list[str] = [self.state] if self.state is not None else []
        wanted += [] if self.merged is None else ["merged" if self.merged else "not merged"]
        return f"a pull request in {self.repo}{' ' + ' '.join(chosen) if chosen else ''} that is {' and '.join(wanted)}"


@state_check("github.pull", PullArgs)
def pull(args: PullArgs, attempt: Attempt) -> Outcome:
    expected = args.text()
    if _repo(attempt, args.repo) is None:
        return Outcome(False, expected, _no_repo(attempt, args.repo))
    pulls = [p for p in attempt.records(PULLS) if _repository(p) == args.repo]
    chosen = [p for p in pulls if args.selected(p)]
    if not chosen:
        there = some(pulls, len(pulls), lambda p: f"#{p.get('number')} from {_head(p)}")
        actual = f"no pull request in {args.repo} is one of those" + (f" (there are {there})" if pulls else "")
        return Outcome(False, expected, actual)
    good = [p for p in chosen if args.holds(p)]
    shown = good or chosen
    actual = listing([f"{_pull_name(p)} is {_pull_status(p)}" for p in shown[:5]], max(0, len(shown) - 5))
    return Outcome(bool(good), expected, actual, attempt.evidence(PULLS, shown))


# -- github.production --------------------------------------------------------------------------------


class ProductionArgs(Args):
    repo: str
    commit: str | None = None
    contains_commit: str | None = None
    excludes_commit: str | None = None

    @model_validator(mode="after")
    def _one_test(self) -> ProductionArgs:
        given = [t for t in ("commit", "contains_commit", "excludes_commit") if getattr(self, t) is not None]
        if len(given) != 1:
            raise ValueError(
                f"github.production takes one of commit, contains_commit or excludes_commit, found {len(given)}"
            )
        return self


@state_check("github.production", ProductionArgs)
def production(args: ProductionArgs, attempt: Attempt) -> Outcome:
    wanted = args.commit or args.contains_commit or args.excludes_commit or ""
    name = _label(attempt, wanted)
    expected = (
        f"production of {args.repo} to be {name}"
        if args.commit is not None
        else f"production of {args.repo} to {'include' if args.contains_commit else 'leave out'} {name}"
    )
    repo = _repo(attempt, args.repo)
    if repo is None:
        return Outcome(False, expected, _no_repo(attempt, args.repo))
    seqs = attempt.record_evidence(REPOS, repo)
    deployed = _sha(repo.get("production"))
    if deployed is None:
        return Outcome(args.excludes_commit is not None, expected, f"{args.repo} has nothing in production", seqs)
    now = f"production is {_label(attempt, deployed)}"
    if args.commit is not None:
        return Outcome(deployed == wanted, expected, now, seqs)
    included = wanted in _ancestors(attempt, deployed)
    passed = included == (args.contains_commit is not None)
    return Outcome(passed, expected, f"{now}, which {'includes' if included else 'does not include'} it", seqs)


# -- github.issue -------------------------------------------------------------------------------------


def _names(values: Any, field: str) -> list[str]:
    """Label names or assignee logins, from GitHub's objects or plain text."""
    return [str(v.get(field) if isinstance(v, dict) else v) for v in values or []]


class IssueArgs(Counted):
    repo: str
    number: PositiveInt | None = None
    title_contains: str | None = None
    body_contains: str | None = None
    labels: list[str] = []
    state: Literal["open", "closed"] | None = None
    assignees: list[str] = []
    ignore_case: bool | None = None  # false: title, body, labels and assignees are exact in case

    def conditions(self) -> list[Condition[Any]]:
        said: list[Condition[Any]] = []
        fold: Callable[[str], str] = str.casefold if Case(self.ignore_case).fold else str
        if self.number is not None:
            said.append(field_is(lambda i: i.get("number"), self.number, lambda n: f"#{n}"))
        for field, part in (("title", self.title_contains), ("body", self.body_contains)):
            if part is not None:
                said.append(_contains(field, part, fold))
        if self.labels:
            want = {fold(label) for label in self.labels}
            said.append(
                Condition(
                    f"labelled {listing([show(label) for label in self.labels])}",
                    lambda i: want <= {fold(n) for n in _names(i.get("labels"), "name")},
                    lambda i: f"its labels are {show(_names(i.get('labels'), 'name'))}",
                )
            )
        if self.state is not None:
            said.append(field_is(lambda i: i.get("state"), self.state, str))
        if self.assignees:
            people = {fold(login) for login in self.assignees}
            said.append(
                Condition(
                    f"assigned to {listing(self.assignees)}",
                    lambda i: people <= {fold(n) for n in _names(i.get("assignees"), "login")},
                    lambda i: f"its assignees are {show(_names(i.get('assignees'), 'login'))}",
                )
            )
        return said


def _contains(field: str, part: str, fold: Callable[[str], str]) -> Condition[Any]:
    folded = fold(part)
    return Condition(
        f"whose {field} contains {show(part)}",
        lambda i: folded in fold(str(i.get(field) or "")),
        lambda i: f"its {field} is {show(i.get(field) or '', 60)}",
    )


def _issue_name(issue: Any) -> str:
    return f"#{issue.get('number')} ({show(issue.get('title', ''), 60)})"


@state_check("github.issue", IssueArgs)
def issue(args: IssueArgs, attempt: Attempt) -> Outcome:
    conditions = args.conditions()
    wanted = args.how_many("issue")
    expected = " ".join([f"{wanted} in {args.repo}", wants(conditions)]).strip() + Case(args.ignore_case).note()
    if _repo(attempt, args.repo) is None:
        return Outcome(False, expected, _no_repo(attempt, args.repo))
    issues: Sequence[Any] = [i for i in attempt.records(ISSUES) if _repository(i) == args.repo]
    matched = matching(issues, conditions)
    n = len(matched)
    passed = args.enough(n)
    if matched:
        found = f"{count(n, 'issue')} matched: {some(matched, n, _issue_name)}"
        return Outcome(passed, expected, found, attempt.evidence(ISSUES, matched))
    if not issues:
        return Outcome(passed, expected, f"{args.repo} has no issues")
    # The issue with the number asked for first.
    near = closest(issues, conditions, rank=lambda i: i.get("number") == args.number)
    lacks = listing(misses(near, conditions))
    actual = f"none of {count(len(issues), 'issue')} matched; closest: {_issue_name(near)}, but {lacks}"
    return Outcome(passed, expected, actual, attempt.record_evidence(ISSUES, near))
