"""Issue search reads word and order indexes (`issue_search`): every answer must be the one reading every issue,
pull and comment gives (`_reference`, the search as it was before the indexes), for words inside words,
phrases, words across the newline that joins title, body and comments, `in:`, `is:`, `label:`, `author:`,
`assignee:`, repeated `repo:`, sorts and pages; in a world copied from the image untouched, in one that
searched and then wrote (the indexes follow each write) and in one that wrote first (the indexes are built
on the image and brought up to date)."""

from __future__ import annotations

import random

import pytest

from soundstage.server import Hub
from soundstage.services.github import graphql_api, handlers_search, issue_search, issues, pulls
from soundstage.services.github.calls import search_terms
from soundstage.services.github.records import Records
from soundstage.services.github.store import COMMENTS, ISSUES, PULLS, REPOS
from soundstage.stage import WorldImage
from soundstage.world import Collection, Record, World

from .conftest import call

SCENE = """
name: github-issue-search
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot, name: Stage Bot, email: bot@acme.test}
      - {login: maya, name: Maya}
      - {login: omar, name: Omar}
    repos:
      - full_name: acme/orders
        files: {README.md: "# orders\\n"}
        commits:
          - {ref: one, message: One, files: {a.txt: "a\\n"}}
        branches: {feature: $one}
        labels: [{name: bug}, {name: P1}]
      - full_name: acme/web
        files: {README.md: "# web\\n"}
        commits:
          - {ref: two, message: Two, files: {b.txt: "b\\n"}}
        branches: {feature: $two}
"""
# Words inside other words, case and Unicode that lower-casing changes (final sigma, dotted I, sharp s),
# punctuation inside and around words.
VOCABULARY = [
    "Login",
    "log",
    "blog",
    "LOGGING",
    "deploy",
    "deployed",
    "redeploy",
    "cache",
    "Cache-Control",
    "foo-bar",
    "c++",
    "a_b",
    "v1.2",
    "NW-7731",
    "ΟΔΟΣ",
    "Σίσυφος",
    "İstanbul",
    "straße",
    "café",
    "x",
    "ok.",
    "(note)",
    "tail_end",
]
AUTHORS = ("maya", "omar", "stagebot")


def _text(rng: random.Random, most: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(1, most)))


def _image() -> WorldImage:
    """The scene with generated issues, pulls and comments in both repos, all at the same few times (ties
    in every sort), some closed, some pulls merged."""
    image = Hub().images.load(scene_yaml=SCENE)
    records = Records(lambda name: image.collections.setdefault(name, Collection(name)), image.ids)
    rng = random.Random(7)
    for i in range(60):
        repo = ("acme/orders", "acme/web")[i % 3 == 0]
        at = image.start - (i % 7) * 60_000_000
        body = rng.choice([None, "", _text(rng, 12)])
        login = AUTHORS[i % 3]
        if i % 4 == 3:
            made = pulls.create_pull(
                records, repo, login, at, title=_text(rng, 5), body=body, head="feature", base="main"
            )
            if i % 8 == 3:
                issues.update_item(records, PULLS, made, login, at, state="closed")
                records[PULLS].change(f"{repo}#{made['number']}", merged=i % 16 == 3)
        else:
            labels = rng.sample(["bug", "P1"], rng.randint(0, 2)) if repo == "acme/orders" else []
            assignees = rng.sample(AUTHORS, rng.randint(0, 2))
            made = issues.create_issue(
                records, repo, login, at, title=_text(rng, 5), body=body, labels=labels, assignees=assignees
            )
            if i % 5 == 0:
                issues.update_item(records, ISSUES, made, login, at + 1, state="closed")
        for _ in range(rng.randint(0, 3)):
            issues.add_comment(records, made, rng.choice(AUTHORS), _text(rng, 6), at + 2)
    return image


def _write(world: World) -> None:
    """Edits that add and remove words in titles, bodies and comments, close, reopen, label, and an undone call."""
    repo = "/repos/acme/orders"
    call(world, "POST", f"{repo}/issues", body={"title": "Zeppelin login", "body": "brand new words"})
    call(world, "PATCH", f"{repo}/issues/1", body={"title": "Renamed: zeppelins", "body": "straße ΟΔΟΣ"})
    call(world, "PATCH", f"{repo}/issues/2", body={"body": None, "state": "closed"})
    call(world, "PATCH", f"{repo}/issues/5", body={"state": "closed"})
    call(world, "PATCH", f"{repo}/issues/5", body={"state": "open"})
    call(world, "POST", f"{repo}/issues/6/labels", body={"labels": ["bug", "Docs"]})
    call(world, "PATCH", f"{repo}/pulls/5", body={"title": "Blogging zeppelin", "state": "closed"})
    _, made = call(world, "POST", f"{repo}/issues/7/comments", body={"body": "Zeppelin sighted"})
    call(world, "POST", f"{repo}/issues/8/comments", body={"body": "zeppelin again"})
    call(world, "PATCH", f"{repo}/issues/comments/{made['id']}", body={"body": "airship now"})
    _, other = call(world, "POST", f"{repo}/issues/10/comments", body={"body": "lonelyword"})
    call(world, "DELETE", f"{repo}/issues/comments/{other['id']}")
    first = next(c for c in world[COMMENTS] if c["repository"] == "acme/orders")
    call(world, "DELETE", f"{repo}/issues/comments/{first['id']}")
    at = world.begin_call()
    records = Records.live(world)
    issue = world[ISSUES].get("acme/orders#11")
    assert issue is not None
    issues.update_item(records, ISSUES, issue, "stagebot", world.now(), title="undone", state="closed")
    issues.add_comment(records, issue, "stagebot", "undone comment", world.now())
    world.rollback()
    world.end_call(at, service="github", method="POST", path="/x", status=500)


@pytest.fixture(scope="module")
def worlds() -> list[World]:
    image = _image()
    hub = Hub()
    untouched, searched_first, written_first = hub.add(image), hub.add(image), hub.add(image)
    for world in (untouched, searched_first):
        call(world, "GET", "/search/issues", {"q": "log in:title,body,comments"})
    _write(searched_first)
    _write(written_first)
    return [untouched, searched_first, written_first]


@pytest.fixture(params=[0, 10**9], ids=["sorting the candidates", "picking them out of sorted lists"])
def few(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each way of ordering what words find, whatever their number."""
    monkeypatch.setattr(issue_search, "FEW", request.param)


def _reference(
    records: Records,
    repositories: list[Record],
    words: list[str],
    qualifiers: dict[str, list[str]],
    sort: str,
    descending: bool,
) -> list[Record]:
    """Every issue and pull of the repositories, kept when its kind, state, fields and text match, then sorted."""
    return _sorted(records, _kept(records, repositories, words, qualifiers), sort, descending)


def _sorted(records: Records, found: list[Record], sort: str, descending: bool) -> list[Record]:
    return sorted(found, key=lambda r: (issues.sort_value(records, r, sort), r["id"]), reverse=descending)


def _kept(
    records: Records, repositories: list[Record], words: list[str], qualifiers: dict[str, list[str]]
) -> list[Record]:
    """Every issue and pull of the repositories whose kind, state, fields and text match, in no order."""
    where = [w.lower() for value in qualifiers.get("in", []) for w in value.split(",")] or ["title", "body", "comments"]
    kinds = [v.lower() for name in ("is", "type", "state") for v in qualifiers.get(name, [])]

    def kind_fits(item: Record, value: str) -> bool:
        pull = "head" in item
        if value in ("issue", "issues"):
            return not pull
        if value in ("pr", "pull-request"):
            return pull
        if value in ("open", "closed"):
            return bool(item["state"] == value)
        return value != "merged" or bool(item.get("merged"))

    def text(item: Record) -> str:
        texts = [item["title"]] if "title" in where else []
        texts += [item.get("body") or ""] if "body" in where else []
        if "comments" in where:
            texts += [c["body"] for c in records[COMMENTS].by("issue", f"{item['repository']}#{item['number']}")]
        return "\n".join(texts).lower()

    return [
        item
        for repo in repositories
        for name in (ISSUES, PULLS)
        for item in records[name].by("repository", repo["full_name"])
        if all(kind_fits(item, value) for value in kinds)
        and all(v.lower() in [n.lower() for n in item["labels"]] for v in qualifiers.get("label", []))
        and all(v == item["user"] for v in qualifiers.get("author", []))
        and all(v in item["assignees"] for v in qualifiers.get("assignee", []))
        and all(word in text(item) for word in words)
    ]


WORDS = [
    "",
    "log",
    "LOG",
    "og",
    "g",
    "login",
    "blog",
    "deploy",
    "deployed",
    "redeploy",
    "cache",
    "cache-control",
    "-control",
    "foo-bar",
    "foo",
    "c++",
    "++",
    "-",
    "a_b",
    "_",
    "v1.2",
    "1.2",
    "nw-7731",
    "οδος",
    "οδοσ",
    "σ",
    "ς",
    "σίσυφος",
    "i̇stanbul",
    "istanbul",
    "straße",
    "strasse",
    "café",
    "ok.",
    "(note)",
    "tail_end",
    "zeppelin",
    "zeppelins",
    "airship",
    "lonelyword",
    "undone",
    "nothing-here",
    '"log blog"',
    '"deploy cache"',
    "log deploy",
    "login LOGGING",
    "x ok",
    '""',
]
QUALIFIERS = [
    "",
    "repo:acme/orders",
    "repo:acme/web",
    "repo:acme/orders repo:acme/orders",
    "is:open",
    "is:closed",
    "is:issue",
    "is:pr",
    "is:merged",
    "state:closed is:pr",
    "type:issue state:open",
    "is:open is:closed",
    "is:issue is:pr",
    "label:bug",
    "label:BUG label:p1",
    "label:docs",
    "author:maya",
    "assignee:omar assignee:maya",
    "in:title",
    "in:body",
    "in:comments",
    "in:title,comments",
    "in:nowhere",
    "in:nowhere,body is:open",
]
SORTS = [
    ("created", True),
    ("created", False),
    ("updated", True),
    ("updated", False),
    ("comments", True),
    ("comments", False),
]


def _repositories(world: World, qualifiers: dict[str, list[str]]) -> list[Record]:
    names = qualifiers.get("repo")
    return list(world[REPOS]) if names is None else [r for r in (world[REPOS].get(n) for n in names) if r]


def test_every_search_finds_what_reading_every_item_finds(worlds: list[World], few: None) -> None:
    for world in worlds:
        records = Records.live(world)
        for word in WORDS:
            for qualifier in QUALIFIERS:
                words, qualifiers = search_terms(f"{word} {qualifier}")
                repositories = _repositories(world, qualifiers)
                kept = _kept(records, repositories, words, qualifiers)  # read once, sorted each way below
                for sort, descending in SORTS:
                    found = issue_search.matching_issues(records, repositories, words, qualifiers, sort, descending)
                    expected = _sorted(records, kept, sort, descending)
                    assert [(r["repository"], r["number"]) for r in found] == [
                        (r["repository"], r["number"]) for r in expected
                    ], (word, qualifier, sort, descending)


def test_some_searches_find_many_and_some_none(worlds: list[World]) -> None:
    records = Records.live(worlds[0])
    totals = {}
    for word in ("log", "og", "σ", "ς", "straße", "zeppelin", "x ok", "-"):
        words, qualifiers = search_terms(word)
        totals[word] = len(
            issue_search.matching_issues(records, list(worlds[0][REPOS]), words, qualifiers, "created", True)
        )
    assert totals == {"log": 48, "og": 48, "σ": 24, "ς": 34, "straße": 18, "zeppelin": 0, "x ok": 6, "-": 43}


@pytest.mark.parametrize(
    "words",
    [["login\nlog"], ["\n"], ["ok.\nx"], ["log\nlog", "deploy"]],
)
def test_words_across_the_newline_that_joins_the_places(worlds: list[World], words: list[str], few: None) -> None:
    for world in worlds:
        records = Records.live(world)
        for where in ([], ["title,body"], ["body,comments"], ["comments"]):
            qualifiers = {"in": where} if where else {}
            repositories = list(world[REPOS])
            found = issue_search.matching_issues(records, repositories, words, qualifiers, "updated", False)
            assert list(found) == _reference(records, repositories, words, qualifiers, "updated", False)


def test_writes_change_what_is_found(worlds: list[World]) -> None:
    untouched, searched_first, written_first = worlds

    def numbers(world: World, q: str) -> list[int]:
        words, qualifiers = search_terms(q)
        found = issue_search.matching_issues(
            Records.live(world), list(world[REPOS]), words, qualifiers, "created", False
        )
        return [r["number"] for r in found if r["repository"] == "acme/orders"]

    assert numbers(untouched, "zeppelin") == []
    new = max(r["number"] for r in written_first[ISSUES] if r["repository"] == "acme/orders")
    for world in (searched_first, written_first):
        assert numbers(world, "zeppelin") == [8, 1, 5, new]
        assert numbers(world, "zeppelin in:comments") == [8]
        assert numbers(world, "airship") == [7]
        assert numbers(world, "lonelyword") == numbers(world, "undone") == []
        assert numbers(world, "label:docs") == [6]


PAGES = [
    {"q": q, "sort": sort, "order": order, "per_page": "4", "page": page}
    for q in ("log", "LOG repo:acme/orders is:open", "-", "in:comments deploy", "is:pr", "label:bug is:open", "c++")
    for sort in ("created", "updated", "comments", "best-match")
    for order in ("asc", "desc")
    for page in ("1", "3")
]
QUERY = """query($q: String!, $after: String) {
  search(query: $q, type: ISSUE, first: 3, after: $after) {
    issueCount pageInfo { hasNextPage endCursor }
    nodes { ... on Issue { number title } ... on PullRequest { number title } }
  }
}"""


def test_answers_are_those_of_reading_every_item(
    worlds: list[World], few: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches = [("GET", "/search/issues", ask, None) for ask in PAGES] + [
        ("POST", "/graphql", None, {"query": QUERY, "variables": {"q": q, "after": after}})
        for q in ("log sort:updated-asc", "repo:acme/orders is:issue sort:comments-desc", "deploy is:closed")
        for after in (None, "Y3Vyc29yOjM=")
    ]
    for world in worlds:
        indexed = [call(world, method, path, query, body) for method, path, query, body in searches]
        with monkeypatch.context() as scan:
            scan.setattr(handlers_search, "matching_issues", _reference)
            scan.setattr(graphql_api, "matching_issues", _reference)
            scanned = [call(world, method, path, query, body) for method, path, query, body in searches]
        assert indexed == scanned
        assert any(len(page["items"]) == 4 for _, page in indexed[: len(PAGES)])
