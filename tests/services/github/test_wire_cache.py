"""Conditional requests (`ETag`, `Last-Modified`, 304s that the rate limit does not count) and the other
headers GitHub puts on every answer."""

from __future__ import annotations

import hashlib

from soundstage.services.github import wire

from .conftest import SCENE, GitHubWorld


def test_an_etag_is_the_bodys_hash_and_a_match_is_not_modified(gh):
    first = gh.raw("GET", "/repos/acme/orders")
    tag = first.headers["etag"]
    assert tag == f'W/"{hashlib.sha256(first.content).hexdigest()}"'
    assert first.headers["cache-control"] == "private, max-age=60, s-maxage=60"
    assert first.headers["vary"] == wire.VARY
    again = gh.raw("GET", "/repos/acme/orders", headers={"If-None-Match": tag})
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
    assert again.headers["x-ratelimit-used"] == "1"  # the 304 is not counted
    strong = gh.raw("GET", "/repos/acme/orders", headers={"If-None-Match": f'"other", {tag.removeprefix("W/")}'})
    assert strong.status_code == 304
    other = gh.raw("GET", "/repos/acme/orders", headers={"If-None-Match": '"other"'})
    assert (other.status_code, other.headers["etag"], other.headers["x-ratelimit-used"]) == (200, tag, "2")
    assert gh.live.trace()[1]["status"] == 304


def test_a_change_changes_the_etag(gh):
    kit = gh.kit()
    number = kit.rest.issues.create("acme", "orders", title="Totals").parsed_data.number
    tag = gh.raw("GET", f"/repos/acme/orders/issues/{number}").headers["etag"]
    kit.rest.issues.update("acme", "orders", number, state="closed")
    r = gh.raw("GET", f"/repos/acme/orders/issues/{number}", headers={"If-None-Match": tag})
    assert r.status_code == 200 and r.json()["state"] == "closed"
    assert r.headers["etag"] != tag
    r = kit.rest.issues.get("acme", "orders", number, headers={"If-None-Match": r.headers["etag"]})
    assert r.status_code == 304


def test_last_modified_and_if_modified_since(gh):
    r = gh.raw("GET", "/repos/acme/orders")
    assert r.headers["last-modified"] == "Mon, 02 Mar 2026 13:00:00 GMT"  # the repo's updated_at
    assert r.json()["updated_at"] == "2026-03-02T13:00:00Z"
    same = gh.raw("GET", "/repos/acme/orders", headers={"If-Modified-Since": "Mon, 02 Mar 2026 13:00:00 GMT"})
    assert same.status_code == 304
    older = gh.raw("GET", "/repos/acme/orders", headers={"If-Modified-Since": "Mon, 02 Mar 2026 12:59:59 GMT"})
    assert older.status_code == 200
    assert "last-modified" not in gh.raw("GET", "/repos/acme/orders/issues").headers  # a list has none


def test_pygithub_updates_only_what_changed(gh):
    repo = gh.py().get_repo("acme/orders")
    assert repo.update() is False  # a conditional GET answered 304
    repo.create_file("NOTES", "Add notes", "notes\n")
    assert repo.update() is True


def test_writes_and_errors_are_never_not_modified(gh):
    created = gh.raw("POST", "/repos/acme/orders/issues", json={"title": "t"})
    assert created.status_code == 201 and created.headers["etag"].startswith('W/"')
    missing = gh.raw("GET", "/repos/acme/nope", headers={"If-None-Match": "*"})
    assert missing.status_code == 404
    assert "etag" not in missing.headers and "cache-control" not in missing.headers


def test_request_ids_come_from_the_worlds_id_source(gh, stage):
    twin = GitHubWorld(stage.world(SCENE))
    ids = [gh.raw("GET", "/user").headers["x-github-request-id"] for _ in range(2)]
    assert [twin.raw("GET", "/user").headers["x-github-request-id"] for _ in range(2)] == ids
    assert ids[0] != ids[1]
    assert [len(part) for part in ids[0].split(":")] == [4, 4, 6, 6, 8]
    assert gh.raw("GET", "/repos/acme/nope").headers["x-github-request-id"] not in ids


def test_version_and_accepted_scopes(gh):
    r = gh.raw("GET", "/repos/acme/orders")
    assert (r.headers["x-github-api-version-selected"], r.headers["x-accepted-oauth-scopes"]) == ("2022-11-28", "repo")
    r = gh.raw("GET", "/user", headers={"X-GitHub-Api-Version": "2026-03-10"})
    assert (r.headers["x-github-api-version-selected"], r.headers["x-accepted-oauth-scopes"]) == ("2026-03-10", "")


def test_every_operation_with_accepted_scopes_is_served():
    from soundstage.services.github.calls import ops

    assert set(wire.ACCEPTED_SCOPES) <= set(ops.names())


def test_githubs_constant_headers_on_every_answer(gh):
    for r in (
        gh.raw("GET", "/repos/acme/orders"),
        gh.raw("GET", "/repos/acme/nope"),
        gh.raw("GET", "/user", token="ghp_x"),
    ):
        assert {name.lower(): r.headers[name] for name in wire.CONSTANT} == {
            name.lower(): value for name, value in wire.CONSTANT.items()
        }
    assert gh.raw("GET", "/user").headers["x-content-type-options"] == "nosniff"
