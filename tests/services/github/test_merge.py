"""The line-based three-way merge and merge commits on the git model."""

from __future__ import annotations

from soundstage.ids import IdSource
from soundstage.services.github import commits, git, repos
from soundstage.services.github.records import Records
from soundstage.services.github.store import HEADS
from soundstage.world import Collection

BASE = "a\nb\nc\nd\ne\nf\n"
WHO = {"name": "Stage Bot", "email": "bot@acme.test", "at": 1772460000 * 1_000_000}


def test_changes_on_separate_lines_merge():
    assert git.merge3(BASE, "A\nb\nc\nd\ne\nf\n", "a\nb\nc\nd\ne\nF\n") == (True, "A\nb\nc\nd\ne\nF\n")
    assert git.merge3(BASE, BASE + "g\n", "z\n" + BASE) == (True, "z\n" + BASE + "g\n")


def test_one_sided_and_identical_changes():
    assert git.merge3(BASE, BASE, "x\n") == (True, "x\n")
    assert git.merge3(BASE, "x\n", BASE) == (True, "x\n")
    assert git.merge3(BASE, "same\n", "same\n") == (True, "same\n")
    assert git.merge3(None, None, "new\n") == (True, "new\n")
    assert git.merge3(BASE, None, BASE) == (True, None)  # deleted on one side, untouched on the other


def test_conflicts():
    assert git.merge3(BASE, "X\nb\nc\nd\ne\nf\n", "Y\nb\nc\nd\ne\nf\n") == (False, None)
    assert git.merge3(BASE, "A\nb\nc\nd\ne\nf\n", "a\nB\nc\nd\ne\nf\n") == (False, None)  # adjacent lines
    assert git.merge3(BASE, None, "changed\n") == (False, None)  # delete against edit
    assert git.merge3(None, "one\n", "two\n") == (False, None)  # added on both sides differently


def _records() -> Records:
    collections: dict[str, Collection] = {}
    return Records(lambda name: collections.setdefault(name, Collection(name)), IdSource("test"))


def test_merge_commit_of_two_branches():
    objects = _records().objects
    root = commits.commit_changes(objects, "o/r", [], {"app.py": BASE, "README.md": "hi\n"}, "root", WHO, WHO)
    ours = commits.commit_changes(objects, "o/r", [root["sha"]], {"app.py": "A\nb\nc\nd\ne\nf\n"}, "ours", WHO, WHO)
    theirs = commits.commit_changes(
        objects, "o/r", [root["sha"]], {"app.py": "a\nb\nc\nd\ne\nF\n", "new.txt": "n\n"}, "theirs", WHO, WHO
    )
    merged = commits.merge(objects, "o/r", ours["sha"], theirs["sha"], "Merge", WHO, WHO)
    assert merged["parents"] == [ours["sha"], theirs["sha"]]
    files = commits.files(objects, merged["sha"])
    assert git.text(objects, files["app.py"]) == "A\nb\nc\nd\ne\nF\n"
    assert sorted(files) == ["README.md", "app.py", "new.txt"]
    assert commits.merge_base(objects, ours["sha"], theirs["sha"]) == root["sha"]
    result = commits.compare(objects, ours["sha"], merged["sha"])
    assert (result["status"], result["ahead_by"], result["behind_by"]) == ("ahead", 2, 0)


def test_conflicting_merge_is_none():
    objects = _records().objects
    root = commits.commit_changes(objects, "o/r", [], {"app.py": BASE}, "root", WHO, WHO)
    ours = commits.commit_changes(objects, "o/r", [root["sha"]], {"app.py": "X\nb\nc\nd\ne\nf\n"}, "ours", WHO, WHO)
    theirs = commits.commit_changes(objects, "o/r", [root["sha"]], {"app.py": "Y\nb\nc\nd\ne\nf\n"}, "theirs", WHO, WHO)
    assert commits.merge(objects, "o/r", ours["sha"], theirs["sha"], "Merge", WHO, WHO) is None


def test_commit_to_branch_moves_the_branch_and_deletes():
    records = _records()
    objects = records.objects
    first = repos.commit_to_branch(records, "o/r", "main", {"a.txt": "a\n", "d/b.txt": "b\n"}, "one", WHO, WHO)
    second = repos.commit_to_branch(records, "o/r", "main", {"d/b.txt": None}, "two", WHO, WHO)
    assert second["parents"] == [first["sha"]]
    assert repos.branch_sha(records, "o/r", "main") == second["sha"]
    assert commits.files(objects, second["sha"]) == {"a.txt": git.blob_sha("a\n")}
    assert commits.text_at(objects, repos.resolve(records, "o/r", "main"), "a.txt") == "a\n"
    assert commits.text_at(objects, repos.resolve(records, "o/r", first["sha"]), "d/b.txt") == "b\n"
    assert repos.resolve(records, "o/r", HEADS + "main") == second["sha"]
    assert repos.resolve(records, "o/r", second["sha"][:7]) == second["sha"]
    [change] = commits.changed(objects, first["sha"], second["sha"])
    assert (change["filename"], change["status"], change["deletions"]) == ("d/b.txt", "removed", 1)
