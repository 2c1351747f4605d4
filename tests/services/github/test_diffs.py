"""`git diff --stat` as format-patch writes it: graphs scaled down to 72 columns, long names cut."""

from __future__ import annotations

from soundstage.services.github import diffs, git
from soundstage.world import Collection


def _objects(files: dict[str, str]) -> tuple[git.Objects, list[diffs.Change]]:
    objects = git.Objects(*(Collection(f"github.{n}") for n in ("blobs", "trees", "commits", "tags")))
    return objects, [
        (path, None, git.write_blob(objects, text), git.FILE_MODE, git.FILE_MODE) for path, text in files.items()
    ]


def test_a_small_stat_is_not_scaled():
    objects, changes = _objects({"a.txt": "1\n2\n", "docs/b.md": "x\n"})
    assert diffs.diffstat(objects, changes) == (
        " a.txt     | 2 ++\n"
        " docs/b.md | 1 +\n"
        " 2 files changed, 3 insertions(+)\n"
        " create mode 100644 a.txt\n"
        " create mode 100644 docs/b.md\n"
    )


def test_a_wide_stat_is_scaled_to_72_columns():
    objects, changes = _objects({"a.txt": "x\n" * 100, "b.txt": "y\n"})
    lines = diffs.diffstat(objects, changes).splitlines()
    # 72 columns: " a.txt | 100 " is 13, the graph the other 58 but the last column.
    assert lines[0] == " a.txt | 100 " + "+" * 58
    assert lines[1] == " b.txt |   1 +"
    assert lines[2] == " 2 files changed, 101 insertions(+)"


def test_a_long_name_is_cut_from_the_left():
    name = "src/" + "deep/" * 20 + "file.py"
    objects, changes = _objects({name: "x\n" * 50})
    line = diffs.diffstat(objects, changes).splitlines()[0]
    assert line.startswith(" ...") and line.endswith("file.py | 50 " + "+" * 19)
    assert len(line) == 71


def test_format_patch_leaves_merge_commits_out():
    objects, _ = _objects({})
    who = {"name": "Maya", "email": "maya@acme.test", "at": 1772460000 * 1_000_000}
    base = git.write_commit(objects, "acme/app", {"a.txt": git.write_blob(objects, "a\n")}, [], "Start", who, who)
    side = git.write_commit(
        objects, "acme/app", {"a.txt": git.write_blob(objects, "b\n")}, [base["sha"]], "Side", who, who
    )
    merge = git.write_commit(
        objects, "acme/app", {"a.txt": git.write_blob(objects, "b\n")}, [base["sha"], side["sha"]], "Merge", who, who
    )
    patch = diffs.format_patch(objects, [side, merge])
    assert patch.count("\nSubject: ") == 1
    assert "Subject: [PATCH] Side\n" in patch and "Merge" not in patch
    assert patch.startswith(f"From {side['sha']} Mon Sep 17 00:00:00 2001\nFrom: Maya <maya@acme.test>\n")
    assert "Date: Mon, 2 Mar 2026 14:00:00 +0000\n" in patch
