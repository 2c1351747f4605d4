"""A body is read as JSON whatever its Content-Type says, as GitHub reads it: its docs show
`curl -d '{...}'` with no header, and curl then sends `application/x-www-form-urlencoded`."""

from __future__ import annotations

import pytest

from soundstage.services.github.store import COMMENTS, ISSUES

DOCS = "https://docs.github.com/rest"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_closing_an_issue_with_a_form_content_type_closes_it(gh):
    number = gh.raw("POST", "/repos/acme/orders/issues", json={"title": "Totals are wrong"}).json()["number"]
    r = gh.raw("PATCH", f"/repos/acme/orders/issues/{number}", content=b'{"state":"closed"}', headers=FORM)
    assert r.status_code == 200, r.text
    assert (r.json()["state"], r.json()["state_reason"]) == ("closed", "completed")
    assert gh.state(ISSUES)[f"acme/orders#{number}"]["state"] == "closed"
    assert gh.live.trace()[-1]["body"] == {"state": "closed"}


def test_a_comment_and_labels_with_a_form_content_type(gh):
    number = gh.raw("POST", "/repos/acme/orders/issues", content=b'{"title":"t"}', headers=FORM).json()["number"]
    r = gh.raw("POST", f"/repos/acme/orders/issues/{number}/comments", content=b'{"body":"On it"}', headers=FORM)
    assert r.status_code == 201, r.text
    assert [c["body"] for c in gh.state(COMMENTS).values()] == ["On it"]
    r = gh.raw("POST", f"/repos/acme/orders/issues/{number}/labels", content=b'{"labels":["bug"]}', headers=FORM)
    assert r.status_code == 200, r.text
    assert [label["name"] for label in r.json()] == ["bug"]


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"])
def test_a_body_that_is_not_json_is_problems_parsing_json_whatever_its_type(gh, kind):
    r = gh.raw("POST", "/repos/acme/orders/issues", content=b"title=Totals", headers={"Content-Type": kind})
    assert (r.status_code, r.json()) == (
        400,
        {"message": "Problems parsing JSON", "documentation_url": DOCS, "status": "400"},
    )
    assert gh.state(ISSUES) == {}
    assert gh.live.trace()[-1]["body"] == "title=Totals"
