"""What `GET /search/issues` and GraphQL's `search(type: ISSUE)` find, read off indexes rather than off
every issue and pull of the world.

A free word of a query must be somewhere in an item's text: its title, body and comments (those `in:` names),
joined by newlines, in lower case; inside a word too ("log" finds "login"). `Words` holds, per repository,
place (`title`, `body`, `comments`) and word (a run of word characters of the lower-case text), the keys of
the items with that word there, and each repository's and place's words joined in one string. Each run of
word characters of a query word lies inside one word of a text holding it, so the words holding the run are
found by scanning that string, and the items with those words are the candidates. A query word made only of
word characters is in an item's text exactly when it is inside one of its words, so its candidates are its
matches; any other (`foo-bar`, a quoted phrase) is then looked for in each candidate's text.

Few candidates (under one in `FEW` of the items the search could find) are sorted; more are picked out of
`listing.FoundByCreation` or `FoundByUpdate`, each repository's items per kind and state in the order a search
sorts them, which a search with no word to narrow it reads as they are: one of only `repo:`, `is:` and
`state:` reads only its page. `Marks` holds the items by label, author and assignee, so a search with no word
but naming one of those reads only the items having it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Self, TypeVar, cast

from ...indexes import GroupIndex
from ...world import Record
from . import issues, listing
from .records import Records
from .store import COMMENTS, ISSUES, PULLS

PLACES = ("title", "body", "comments")
FEW = 8  # candidates fewer than one in this many of the items a search could find are sorted, not picked out
_WORD = re.compile(r"\w+")
W = TypeVar("W", bound="Words")


def _words(text: str | None) -> set[str]:
    # A place at a time: the same words as lowering the places joined, a newline being no letter (so it
    # ends a word for the final sigma too).
    return set(_WORD.findall((text or "").lower()))


class Words(GroupIndex):
    """Item keys by (repository, place, word). `vocabularies` holds the words of each (repository, place),
    `joined` the same words in one string, each between newlines, for finding those that hold a run."""

    __slots__ = ("_own_vocabularies", "joined", "vocabularies")

    def __init__(
        self,
        lists: dict[Hashable, list[Any]] | None = None,
        vocabularies: dict[tuple[str, str], dict[str, None]] | None = None,
        joined: dict[tuple[str, str], str] | None = None,
    ) -> None:
        super().__init__(lists)
        self.vocabularies = vocabularies if vocabularies is not None else {}
        self.joined = joined if joined is not None else {}  # made when first read, dropped when its words change
        self._own_vocabularies: set[tuple[str, str]] = set()

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self:
        index = super().build(records)
        for group in index.lists:
            where, word = _parts(group)
            index.vocabularies.setdefault(where, {})[word] = None
        index._own_vocabularies = set(index.vocabularies)
        for where in index.vocabularies:  # made now, so that the live worlds copied share them
            index.text(where)
        return index

    def copy(self) -> Self:
        self._own = set()
        self._own_vocabularies = set()
        return type(self)(dict(self.lists), dict(self.vocabularies), dict(self.joined))

    def text(self, where: tuple[str, str]) -> str:
        """The words of a (repository, place), each between newlines."""
        found = self.joined.get(where)
        if found is None:
            found = self.joined[where] = "\n" + "\n".join(self.vocabularies.get(where, ())) + "\n"
        return found

    def holding(self, repo: str, place: str, run: str) -> Iterator[list[str]]:
        """The key lists of the words of `repo`'s `place` that hold `run`."""
        text = self.text((repo, place))
        at = text.find(run)
        while at >= 0:
            end = text.find("\n", at)
            yield self.lists[(repo, place, text[text.rfind("\n", 0, at) + 1 : end])]
            at = text.find(run, end)

    def _vocabulary(self, where: tuple[str, str]) -> dict[str, None]:
        """The words of a (repository, place), to change (its joined string is made again when next read)."""
        self.joined.pop(where, None)
        vocabulary = self.vocabularies.get(where)
        if where not in self._own_vocabularies:
            vocabulary = self.vocabularies[where] = dict(vocabulary or {})
            self._own_vocabularies.add(where)
        assert vocabulary is not None
        return vocabulary

    def _insert(self, group: Hashable, entry: Any) -> None:
        if group not in self.lists:
            where, word = _parts(group)
            self._vocabulary(where)[word] = None
        super()._insert(group, entry)

    def _remove(self, group: Hashable, entry: Any) -> None:
        super()._remove(group, entry)
        if group not in self.lists:
            where, word = _parts(group)
            vocabulary = self._vocabulary(where)
            del vocabulary[word]
            if not vocabulary:
                del self.vocabularies[where]
                self._own_vocabularies.discard(where)


def _parts(group: Hashable) -> tuple[tuple[str, str], str]:
    """A group's (repository, place) and word."""
    repo, place, word = cast("tuple[str, str, str]", group)
    return (repo, place), word


class ItemWords(Words):
    """The words of the titles and bodies of `github.issues` or of `github.pulls`."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        repo = record["repository"]
        return [((repo, place, word), record_id) for place in ("title", "body") for word in _words(record.get(place))]


class CommentWords(Words):
    """The words of `github.comments`, under the key of the issue or pull each is on (once per comment)."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        repo = record["repository"]
        return [((repo, "comments", word), record["issue"]) for word in _words(record["body"])]


class Marks(GroupIndex):
    """The keys of `github.issues` or of `github.pulls` by repository and label (lower case), author or
    assignee: a search naming one reads only the items that have it."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        repo = record["repository"]
        marks = [("label", n.lower()) for n in record["labels"]] + [("author", record["user"])]
        marks += [("assignee", login) for login in record["assignees"]]
        return [((repo, *mark), record_id) for mark in dict.fromkeys(marks)]


def matching_issues(
    records: Records,
    repositories: list[Record],
    words: list[str],
    qualifiers: dict[str, list[str]],
    sort: str,
    descending: bool,
) -> Sequence[Record]:
    """The issues and pulls of `repositories` (a repository listed twice: its items twice) that a search's
    words (lower case) and qualifiers select, sorted by `sort` (`created`, `updated` or `comments`) then id;
    where it can, a sequence that reads only the slices asked of it."""
    scope = _Scope.of(qualifiers)
    if scope is None:
        return []
    names = [repo["full_name"] for repo in repositories]
    repos = list(dict.fromkeys(names))
    where = [w.lower() for value in qualifiers.get("in", []) for w in value.split(",")]
    runs = list(dict.fromkeys(run for word in words for run in _WORD.findall(word)))
    if not runs:
        if words or scope.narrows() or sort == "comments":
            found = _marked(records, repos, scope)
            return _sorted(records, scope, names, found, words, where, sort, descending)
        return listing.found_items(records, scope.kinds, names, scope.state, sort, descending)
    keys = _holding(records, repos, scope.kinds, runs, where)
    could = listing.found_items(records, scope.kinds, repos, scope.state, sort, descending)
    if sort != "comments" and len(keys) * FEW >= len(could):  # picked out of lists in order: no sorting
        ordered = listing.found_items(records, scope.kinds, names, scope.state, sort, descending, among=keys)
        if not scope.narrows() and all(_WORD.fullmatch(word) for word in words):
            return ordered
        return [r for r in ordered if scope.wants(r) and _issue_text(records, r, words, where)]
    issues_of, pulls_of = records[ISSUES].get, records[PULLS].get
    found = [record for record in (issues_of(key) or pulls_of(key) for key in keys) if record is not None]
    return _sorted(records, scope, names, found, words, where, sort, descending)


def _holding(records: Records, repos: list[str], kinds: tuple[str, ...], runs: list[str], where: list[str]) -> set[str]:
    """The keys of the items of `kinds` in `repos` with a word holding each of `runs` in a place searched: every
    item whose text can hold words with those runs (of any kind or state: comments are on both kinds)."""
    places = [p for p in PLACES if p in where] if where else list(PLACES)
    sources: list[tuple[str, Words]] = [
        (place, records[kind].derived(ItemWords)) for place in places if place != "comments" for kind in kinds
    ]
    if "comments" in places:
        sources.append(("comments", records[COMMENTS].derived(CommentWords)))
    candidates: set[str] | None = None
    for run in sorted(runs, key=len, reverse=True):  # a longer run is likely in fewer items: fewer to intersect
        holding: set[str] = set()
        for repo in repos:
            for place, index in sources:
                for keys in index.holding(repo, place, run):
                    holding.update(keys)
        candidates = holding if candidates is None else candidates & holding
        if not candidates:
            break
    return candidates or set()


def _sorted(
    records: Records,
    scope: _Scope,
    names: list[str],
    found: list[Record],
    words: list[str],
    where: list[str],
    sort: str,
    descending: bool,
) -> list[Record]:
    """The items `found` (each of its repository's once) the scope wants and whose text holds the words, each
    as often as its repository is named, sorted."""
    if not scope.takes_all():
        found = [record for record in found if scope.wants(record)]
    if not all(_WORD.fullmatch(word) for word in words):  # else every word is in the text of every item found
        found = [record for record in found if _issue_text(records, record, words, where)]
    if len(set(names)) < len(names):
        times = Counter(names)
        found = [record for record in found for _ in range(times[record["repository"]])]
    if sort == "comments":
        found.sort(key=lambda r: (issues.sort_value(records, r, sort), r["id"]), reverse=descending)
    else:  # what `issues.sort_value` answers for these, read without a call for each item
        found.sort(key=itemgetter("updated_at" if sort == "updated" else "created_at", "id"), reverse=descending)
    return found


def _marked(records: Records, repos: list[str], scope: _Scope) -> list[Record]:
    """The items of `scope.kinds` in `repos`; when the search names labels, authors or assignees, only those
    with the one of them the fewest items have."""
    marks = [("label", v) for v in scope.labels] + [("author", v) for v in scope.authors]
    marks += [("assignee", v) for v in scope.assignees]
    found: list[Record] = []
    for repo in repos:
        for kind in scope.kinds:
            collection = records[kind]
            if not marks:
                found += collection.by("repository", repo)
                continue
            index = collection.derived(Marks)
            keys = min((index.get((repo, *mark)) for mark in marks), key=len)
            found += [record for record in map(collection.get, keys) if record is not None]
    return found


@dataclass(frozen=True)
class _Scope:
    """What a search's qualifiers ask of an item besides its text: its kinds (the collections `is:issue`
    and `is:pr` leave), its state (`open`, `closed` or `all`), merged (`is:merged`), and its labels
    (`label:`, any case), author (`author:`) and assignees (`assignee:`)."""

    kinds: tuple[str, ...]
    state: str
    merged: bool
    labels: list[str]
    authors: list[str]
    assignees: list[str]

    @classmethod
    def of(cls, qualifiers: dict[str, list[str]]) -> _Scope | None:
        """None when no item can match (`is:open is:closed`, `is:issue is:pr`)."""
        kinds: tuple[str, ...] = (ISSUES, PULLS)
        state, merged = "all", False
        for value in qualifiers.get("is", []) + qualifiers.get("type", []) + qualifiers.get("state", []):
            value = value.lower()
            if value in ("issue", "issues"):
                kinds = tuple(k for k in kinds if k != PULLS)
            elif value in ("pr", "pull-request"):
                kinds = tuple(k for k in kinds if k != ISSUES)
            elif value in ("open", "closed"):
                if state not in ("all", value):
                    return None
                state = value
            elif value == "merged":
                merged = True
        if not kinds:
            return None
        labels = [v.lower() for v in qualifiers.get("label", [])]
        return cls(kinds, state, merged, labels, qualifiers.get("author", []), qualifiers.get("assignee", []))

    def narrows(self) -> bool:
        """Whether it asks more than kinds and state of an item."""
        return self.merged or bool(self.labels or self.authors or self.assignees)

    def takes_all(self) -> bool:
        """Whether it asks nothing of an item."""
        return len(self.kinds) == 2 and self.state == "all" and not self.narrows()

    def wants(self, record: Record) -> bool:
        if len(self.kinds) == 1 and (PULLS if "head" in record else ISSUES) != self.kinds[0]:
            return False
        if self.state != "all" and record["state"] != self.state or self.merged and not record.get("merged"):
            return False
        if self.labels:
            names = {n.lower() for n in record["labels"]}
            if any(label not in names for label in self.labels):
                return False
        if self.authors and any(author != record["user"] for author in self.authors):
            return False
        return not self.assignees or all(login in record["assignees"] for login in self.assignees)


def _issue_text(records: Records, record: Record, words: list[str], where: list[str]) -> bool:
    """Whether every word is in the item's text: the places searched (all without `in:`) joined by
    newlines, in lower case."""
    places = where or PLACES
    parts = []
    if "title" in places:
        parts.append(record["title"])
    if "body" in places:
        parts.append(record.get("body") or "")
    if "comments" in places:
        parts += [c["body"] for c in issues.comments(records, record["repository"], record["number"])]
    text = "\n".join(parts).lower()
    return all(word in text for word in words)
