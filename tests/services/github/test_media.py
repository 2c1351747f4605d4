"""Media types in `Accept`: diffs and patches of commits, compares and pulls as git prints them, a file's
raw text, and `body_text`/`body_html` on issues and comments."""

from __future__ import annotations

from soundstage.services.github.git import blob_sha
from soundstage.services.github.store import REFS

OLD_APP = "def total(order):\n    return sum(order)\n"
NEW_APP = "cache_totals=True\ndef total(order):\n    return sum(order)\n"
APP_DIFF = (
    "diff --git a/src/app.py b/src/app.py\n"
    f"index {blob_sha(OLD_APP)[:7]}..{blob_sha(NEW_APP)[:7]} 100644\n"
    "--- a/src/app.py\n"
    "+++ b/src/app.py\n"
    "@@ -1,2 +1,3 @@\n"
    "+cache_totals=True\n"
    " def total(order):\n"
    "     return sum(order)\n"
)


def _feature_sha(gh):
    return gh.state(REFS)["acme/orders:refs/heads/feature"]["sha"]


def test_a_commit_as_a_diff_and_a_patch(gh):
    kit = gh.kit()
    r = kit.rest.repos.get_commit("acme", "orders", "feature", headers={"Accept": "application/vnd.github.diff"})
    assert r.text == APP_DIFF
    assert r.headers["content-type"] == "application/vnd.github.diff; charset=utf-8"
    assert r.headers["x-github-media-type"] == "github.v3; param=diff"
    r = gh.raw("GET", "/repos/acme/orders/commits/feature", headers={"Accept": "application/vnd.github.v3.patch"})
    assert r.headers["content-type"] == "application/vnd.github.v3.patch; charset=utf-8"
    assert r.text == (
        f"From {_feature_sha(gh)} Mon Sep 17 00:00:00 2001\n"
        "From: Maya Chen <maya@acme.test>\n"
        "Date: Mon, 2 Mar 2026 12:00:00 +0000\n"
        "Subject: [PATCH] Cache order totals\n"
        "\n"
        "---\n"
        " src/app.py | 1 +\n"
        " 1 file changed, 1 insertion(+)\n"
        "\n" + APP_DIFF
    )


def test_a_commits_sha_alone(gh):
    r = gh.raw("GET", "/repos/acme/orders/commits/feature", headers={"Accept": "application/vnd.github.sha"})
    assert (r.text, r.headers["content-type"]) == (_feature_sha(gh), "application/vnd.github.sha; charset=utf-8")


def test_a_compare_as_a_diff(gh):
    r = gh.raw("GET", "/repos/acme/orders/compare/main...feature", headers={"Accept": "application/vnd.github.diff"})
    assert r.text == ""  # feature is behind main: nothing from the merge base to it
    kit = gh.kit()
    r = kit.rest.repos.compare_commits(
        "acme", "orders", "feature...main", headers={"Accept": "application/vnd.github.v3.diff"}
    )
    assert r.text == (
        "diff --git a/docs/cache.md b/docs/cache.md\n"
        "new file mode 100644\n"
        f"index 0000000..{blob_sha('Totals are cached.' + chr(10))[:7]}\n"
        "--- /dev/null\n"
        "+++ b/docs/cache.md\n"
        "@@ -0,0 +1 @@\n"
        "+Totals are cached.\n"
    )


def test_a_pull_as_a_diff_and_a_patch(gh):
    kit = gh.kit()
    kit.rest.git.create_ref(
        "acme", "orders", ref="refs/heads/notes", sha=gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    )
    for i, text in enumerate(["one\n", "one\ntwo"]):
        kit.rest.repos.create_or_update_file_contents(
            "acme",
            "orders",
            "NOTES",
            message=f"Notes {i}\n\nWhy: {i}",
            content=__import__("base64").b64encode(text.encode()).decode(),
            branch="notes",
            sha=blob_sha("one\n") if i else None,
        )
    number = kit.rest.pulls.create("acme", "orders", title="Notes", head="notes", base="main").parsed_data.number
    r = kit.rest.pulls.get("acme", "orders", number, headers={"Accept": "application/vnd.github.v3.diff"})
    assert r.text == (
        "diff --git a/NOTES b/NOTES\n"
        "new file mode 100644\n"
        f"index 0000000..{blob_sha('one' + chr(10) + 'two')[:7]}\n"
        "--- /dev/null\n"
        "+++ b/NOTES\n"
        "@@ -0,0 +1,2 @@\n"
        "+one\n"
        "+two\n"
        "\\ No newline at end of file\n"
    )
    patch = gh.raw("GET", f"/repos/acme/orders/pulls/{number}", headers={"Accept": "application/vnd.github.patch"}).text
    mails = patch.split("\nFrom ")
    assert len(mails) == 2
    assert (
        "Subject: [PATCH 1/2] Notes 0\n\nWhy: 0\n---\n"
        " NOTES | 1 +\n 1 file changed, 1 insertion(+)\n create mode 100644 NOTES\n" in mails[0]
    )
    assert mails[0].endswith("@@ -0,0 +1 @@\n+one\n")
    assert (
        "Subject: [PATCH 2/2] Notes 1\n\nWhy: 1\n---\n NOTES | 1 +\n 1 file changed, 1 insertion(+)\n\ndiff" in mails[1]
    )
    assert mails[1].endswith("@@ -1 +1,2 @@\n one\n+two\n\\ No newline at end of file\n")


def test_a_file_raw(gh):
    kit = gh.kit()
    r = kit.rest.repos.get_content(
        "acme", "orders", "src/app.py", headers={"Accept": "application/vnd.github.raw+json"}
    )
    assert r.text == NEW_APP
    assert r.headers["content-type"] == "application/vnd.github.raw+json; charset=utf-8"
    r = gh.raw("GET", "/repos/acme/orders/contents/src", headers={"Accept": "application/vnd.github.v3.raw"})
    assert [e["name"] for e in r.json()] == ["app.py", "util"]  # a directory stays JSON


def test_issue_and_comment_bodies_as_text_and_html(gh):
    kit = gh.kit()
    text = "Totals are <wrong>.\nSince Monday.\n\nSee the logs."
    number = kit.rest.issues.create("acme", "orders", title="Totals", body=text).parsed_data.number
    html = '<p dir="auto">Totals are &lt;wrong&gt;.<br>\nSince Monday.</p>\n<p dir="auto">See the logs.</p>'
    full = kit.rest.issues.get("acme", "orders", number, headers={"Accept": "application/vnd.github.full+json"})
    issue = full.parsed_data
    assert (issue.body, issue.body_text, issue.body_html) == (text, text, html)
    assert full.headers["x-github-media-type"] == "github.v3; param=full; format=json"
    only_text = gh.raw(
        "GET", f"/repos/acme/orders/issues/{number}", headers={"Accept": "application/vnd.github.v3.text+json"}
    )
    assert "body" not in only_text.json() and only_text.json()["body_text"] == text
    kit.rest.issues.create_comment("acme", "orders", number, body="On it")
    listed = gh.raw(
        "GET", f"/repos/acme/orders/issues/{number}/comments", headers={"Accept": "application/vnd.github.html+json"}
    )
    assert [(c.get("body"), c["body_html"]) for c in listed.json()] == [(None, '<p dir="auto">On it</p>')]
    plain = gh.raw("GET", f"/repos/acme/orders/issues/{number}")
    assert plain.json()["body"] == text and "body_html" not in plain.json()
    assert plain.headers["x-github-media-type"] == "github.v3; format=json"
