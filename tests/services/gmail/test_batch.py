"""Gmail's batch requests: many calls in one `multipart/mixed` request, each run and logged as a call of its own,
through the official client's BatchHttpRequest and as raw HTTP, with Google's refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from googleapiclient.http import BatchHttpRequest
from tests.services.gmail.conftest import MAIL, gmail_world
from tests.services.google_world import SCENE, GoogleWorld

from soundstage.checks import Attempt, evaluate, parse_checks
from soundstage.services.gmail import store

# Thirty messages from Omar in Maya's inbox, the newest first.
THIRTY = (
    SCENE
    + "\n  gmail:\n    messages:\n"
    + "".join(
        f"      - {{ref: m{n}, from: $omar, to: [$maya], subject: Note {n}, body: Note number {n}., ago: {n}h}}\n"
        for n in range(1, 31)
    )
)
MISSING = "00000000000000ff"


@pytest.fixture(scope="module")
def thirty(stage: Any) -> GoogleWorld:
    return gmail_world(stage.world(THIRTY))


def calls(world: GoogleWorld) -> list[tuple[str, str, int]]:
    return [(c.method, c.path, c.status) for c in world.live.world.log.calls()]


def batch_of(world: GoogleWorld, path: str = "batch/gmail/v1") -> tuple[BatchHttpRequest, dict[str, Any]]:
    """The official client's batch, sent to the world (its `new_batch_http_request()` would go to Google's own
    host: the client builds that URL from the discovery document's root, not from `api_endpoint`)."""
    answers: dict[str, Any] = {}

    def answered(request_id: str, response: Any, exception: HttpError | None) -> None:
        answers[request_id] = (exception.resp.status, json.loads(exception.content)) if exception else response

    return BatchHttpRequest(callback=answered, batch_uri=world.url + path), answers


def test_the_clients_own_batch_url_is_googles_host(thirty: GoogleWorld) -> None:
    assert thirty.client().new_batch_http_request()._batch_uri == "https://gmail.googleapis.com/batch"


def test_thirty_messages_in_one_batch_and_a_missing_one_alone_fails(thirty: GoogleWorld) -> None:
    gmail = thirty.client()
    before = len(thirty.live.world.log.calls())
    batch, answers = batch_of(thirty)
    ids = [thirty.ref(f"m{n}") for n in range(1, 31)]
    for n, message in enumerate(ids[:15], 1):
        batch.add(gmail.users().messages().get(userId="me", id=message, format="minimal"), request_id=f"r{n}")
    batch.add(gmail.users().messages().get(userId="me", id=MISSING), request_id="missing")
    for n, message in enumerate(ids[15:], 16):
        batch.add(gmail.users().messages().get(userId="me", id=message, format="minimal"), request_id=f"r{n}")
    batch.execute()
    assert [answers[f"r{n}"]["id"] for n in range(1, 31)] == ids
    assert answers["r1"] == gmail.users().messages().get(userId="me", id=ids[0], format="minimal").execute()
    assert answers["missing"] == (
        404,
        {
            "error": {
                "code": 404,
                "message": "Requested entity was not found.",
                "errors": [{"message": "Requested entity was not found.", "domain": "global", "reason": "notFound"}],
                "status": "NOT_FOUND",
            }
        },
    )
    # One call event each, in the batch's order, nothing else between them; the batch itself is none.
    logged = calls(thirty)[before : before + 31]
    expected = [("GET", f"/gmail/v1/users/me/messages/{m}", 200) for m in ids[:15]]
    expected += [("GET", f"/gmail/v1/users/me/messages/{MISSING}", 404)]
    expected += [("GET", f"/gmail/v1/users/me/messages/{m}", 200) for m in ids[15:]]
    assert logged == expected
    seqs = [c.seq for c in thirty.live.world.log.calls()[before : before + 31]]
    assert seqs == list(range(seqs[0], seqs[0] + 31))


def test_a_trace_check_sees_the_batchs_calls(stage: Any) -> None:
    world = gmail_world(stage.world(THIRTY))
    gmail = world.client()
    batch, _ = batch_of(world)
    for n in range(1, 6):
        batch.add(gmail.users().messages().get(userId="me", id=world.ref(f"m{n}")))
    batch.execute()
    checks = [
        {"id": "five", "trace": {"called": "gmail:GET /gmail/v1/users/*/messages/*", "times": {"exactly": 5}}},
        {"id": "no_batch_call", "trace": {"not_called": ["gmail:POST /batch*"]}},
    ]
    evaluation = evaluate(parse_checks(checks, world.live.world.refs), Attempt.from_world(world.live.world))
    assert [(r.id, r.passed) for r in evaluation.checks] == [("five", True), ("no_batch_call", True)]


def test_a_batch_of_modifies(stage: Any) -> None:
    world = gmail_world(stage.world(MAIL))
    gmail = world.client()
    batch, answers = batch_of(world, "batch")  # Gmail's discovery batch path, under the world's URL
    for name in ("invoice", "report", "contract"):
        body = {"addLabelIds": ["STARRED"], "removeLabelIds": ["UNREAD"]}
        batch.add(gmail.users().messages().modify(userId="me", id=world.ref(name), body=body), request_id=name)
    batch.execute()
    assert {name: answers[name]["labelIds"] for name in answers} == {
        "invoice": ["INBOX", "STARRED"],
        "report": ["INBOX", "STARRED"],
        "contract": ["INBOX", world.ref("vendors").split("/")[1], "STARRED"],
    }
    starred = {m["id"] for m in world.live.world[store.MESSAGES] if "STARRED" in m["labelIds"]}
    assert starred == {world.ref(name) for name in ("invoice", "report", "contract")}
    logged = [(c.method, c.path, c.status, c.body) for c in world.live.world.log.calls()]
    assert logged == [
        ("POST", f"/gmail/v1/users/me/messages/{world.ref(name)}/modify", 200, body)
        for name in ("invoice", "report", "contract")
    ]


def multipart(boundary: str, *parts: str) -> bytes:
    return "".join(f"--{boundary}\r\n{part}\r\n" for part in parts).encode() + f"--{boundary}--\r\n".encode()


def part(request: str, content_id: str | None = None) -> str:
    head = "Content-Type: application/http\r\n" + (f"Content-ID: {content_id}\r\n" if content_id else "")
    return head + "\r\n" + request


def post(world: GoogleWorld, body: bytes, boundary: str = "b0undary", path: str = "batch/gmail/v1", **kw: Any) -> Any:
    headers = {"Content-Type": f"multipart/mixed; boundary={boundary}", **kw.pop("headers", {})}
    return world.raw("POST", path, content=body, headers=headers, **kw)


def test_the_answer_on_the_wire(stage: Any) -> None:
    world = gmail_world(stage.world(MAIL))
    prefix = world.url.removeprefix(str(world.live.http.base_url).rstrip("/")).rstrip("/")
    body = multipart(
        "b0undary",
        part(f"GET {prefix}/gmail/v1/users/me/labels/STARRED HTTP/1.1\r\n", "<item1:x@example.com>"),
        # Google's guide writes the path alone, and a body with its own headers
        part(
            "POST /gmail/v1/users/me/labels\r\nContent-Type: application/json\r\n\r\n"
            '{"name": "Batched", "labelListVisibility": "labelShow"}',
            "item2",
        ),
        part(f"GET /gmail/v1/users/me/messages/{MISSING}\r\n"),
    )
    response = post(world, body)
    assert response.status_code == 200
    content_type = response.headers["content-type"]
    assert content_type.startswith("multipart/mixed; boundary=batch_")
    boundary = content_type.split("boundary=")[1]
    label = next(r for r in world.live.world[store.LABELS] if r["name"] == "Batched")["label"]
    created = {"id": label, "name": "Batched", "labelListVisibility": "labelShow", "type": "user"}
    starred = world.raw("GET", "gmail/v1/users/me/labels/STARRED").json()
    missing = {
        "error": {
            "code": 404,
            "message": "Requested entity was not found.",
            "errors": [{"message": "Requested entity was not found.", "domain": "global", "reason": "notFound"}],
            "status": "NOT_FOUND",
        }
    }

    def answer(status: str, content_id: str | None, value: Any) -> str:
        text = json.dumps(value, separators=(",", ":"))
        head = "Content-Type: application/http\r\n" + (f"Content-ID: {content_id}\r\n" if content_id else "")
        return (
            f"{head}\r\nHTTP/1.1 {status}\r\nContent-Type: application/json; charset=UTF-8\r\n"
            f"Content-Length: {len(text)}\r\n\r\n{text}"
        )

    assert (
        response.text
        == multipart(
            boundary,
            answer("200 OK", "<response-item1:x@example.com>", starred),
            answer("200 OK", "response-item2", created),
            answer("404 Not Found", None, missing),
        ).decode()
    )
    # The same batch gets the same boundary, and answers with what the calls find now.
    again = post(world, body)
    assert again.headers["content-type"] == content_type
    assert again.text.count("HTTP/1.1 409 Conflict") == 1


def test_a_part_for_another_api_a_nested_batch_and_a_part_with_its_own_token(stage: Any) -> None:
    world = gmail_world(stage.world(MAIL))
    body = multipart(
        "b0undary",
        part("GET /calendar/v3/users/me/calendarList\r\n", "<1>"),
        part(
            "POST /batch/gmail/v1\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n"
            + multipart("inner", part("GET /gmail/v1/users/me/profile\r\n")).decode(),
            "<2>",
        ),
        part("GET /gmail/v1/users/me/profile\r\nAuthorization: Bearer ya29.nottheworlds\r\n", "<3>"),
        part("GET /gmail/v1/users/me/profile\r\n", "<4>"),
    )
    response = post(world, body)
    assert response.status_code == 200
    statuses = [line for line in response.text.split("\r\n") if line.startswith("HTTP/1.1")]
    assert statuses == [
        "HTTP/1.1 404 Not Found",
        "HTTP/1.1 400 Bad Request",
        "HTTP/1.1 401 Unauthorized",
        "HTTP/1.1 200 OK",
    ]
    assert '{"error":{"code":400,"message":"Nested batch requests are not allowed.","status":"INVALID_ARGUMENT"}}' in (
        response.text
    )
    logged = [(c.method, c.path, c.status, c.operation, c.actor) for c in world.live.world.log.calls()]
    assert logged == [
        ("GET", "/calendar/v3/users/me/calendarList", 404, None, "maya@acme.test"),
        ("POST", "/batch/gmail/v1", 400, "batch", "maya@acme.test"),
        ("GET", "/gmail/v1/users/me/profile", 401, "GET /gmail/v1/users/{userId}/profile", None),
        ("GET", "/gmail/v1/users/me/profile", 200, "GET /gmail/v1/users/{userId}/profile", "maya@acme.test"),
    ]


def test_more_calls_than_gmail_takes(stage: Any) -> None:
    world = gmail_world(stage.world(MAIL))
    modify = (
        f"POST /gmail/v1/users/me/messages/{world.ref('invoice')}/modify\r\nContent-Type: application/json\r\n\r\n"
        '{"addLabelIds": ["STARRED"]}'
    )
    response = post(world, multipart("b0undary", *[part(modify)] * 101))
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": 400,
            "message": "Inner request count exceeds the limit. Received: 101, Limit: 100",
            "status": "INVALID_ARGUMENT",
        }
    }
    # Refused whole: logged once as the batch, and none of its calls ran.
    assert [(c.method, c.path, c.status, c.operation) for c in world.live.world.log.calls()] == [
        ("POST", "/batch/gmail/v1", 400, "batch")
    ]
    assert "STARRED" not in world.live.world[store.MESSAGES].one(world.ref("invoice"))["labelIds"]
    assert post(world, multipart("b0undary", *[part(modify)] * 100)).status_code == 200


@pytest.mark.parametrize(
    ("content_type", "body", "message"),
    [
        ("application/json", b"{}", "the body is not multipart/mixed with a boundary."),
        ("multipart/mixed", b"--x--", "the body is not multipart/mixed with a boundary."),
        ("multipart/mixed; boundary=x", b"--x--\r\n", "it holds no part."),
        ("multipart/mixed; boundary=x", b"no boundary here", "no part begins with the boundary."),
        ("multipart/mixed; boundary=x", b"--x\r\n" + part("GET /gmail/v1/users/me/profile\r\n").encode(), None),
        ("multipart/mixed; boundary=x", multipart("x", part("not a request line at all")), None),
        ("multipart/mixed; boundary=x", multipart("x", part("GET https://example.com/ HTTP/1.1\r\n")), None),
        ("multipart/mixed; boundary=x", multipart("x", "Content-Type application/http\r\n\r\nGET /x\r\n"), None),
        (
            "multipart/mixed; boundary=x",
            multipart("x", part("GET /gmail/v1/users/me/profile\r\n" + "X-A: 1\r\n" * 101 + "\r\n")),
            "part 2 has more than 100 header lines.",
        ),
        (
            "multipart/mixed; boundary=x",
            multipart("x", "X-A: 1\r\n" * 101 + "\r\nGET /gmail/v1/users/me/profile\r\n"),
            "part 2 has more than 100 header lines.",
        ),
        (
            "multipart/mixed; boundary=x",
            multipart("x", part("POST /gmail/v1/users/me/labels\r\nContent-Length: 99\r\n\r\n{}")),
            "part 2's body is shorter than its Content-Length.",  # the first is the good one put before it
        ),
    ],
)
def test_a_body_that_is_no_batch_is_refused_whole(
    mail: GoogleWorld, content_type: str, body: bytes, message: str | None
) -> None:
    # A good first part is not run when a later one cannot be read.
    star = (
        f"POST /gmail/v1/users/me/messages/{mail.ref('invoice')}/modify\r\nContent-Type: application/json\r\n\r\n"
        '{"addLabelIds": ["STARRED"]}'
    )
    if body.startswith(b"--x\r\n") and body.count(b"--x") > 1:
        body = multipart("x", part(star)).removesuffix(b"--x--\r\n") + body
    response = mail.raw("POST", "batch/gmail/v1", content=body, headers={"Content-Type": content_type})
    assert response.status_code == 400
    error = response.json()["error"]
    assert list(error) == ["code", "message", "status"] and error["status"] == "INVALID_ARGUMENT"
    assert error["message"].startswith("Failed to parse batch request: ")
    if message is not None:
        assert error["message"] == "Failed to parse batch request: " + message
    assert [(c.path, c.status) for c in mail.live.world.log.calls()] == [("/batch/gmail/v1", 400)]
    assert "STARRED" not in mail.live.world[store.MESSAGES].one(mail.ref("invoice"))["labelIds"]


def test_no_credential_is_googles_401_and_nothing_is_logged(mail: GoogleWorld) -> None:
    body = multipart("b0undary", part("GET /gmail/v1/users/me/profile\r\n"))
    response = post(mail, body, token=None)
    assert response.status_code == 401
    assert response.json()["error"]["errors"][0]["reason"] == "required"
    assert mail.live.world.log.calls() == []
    # A part's own credential does not stand for the batch's.
    inner = multipart("b0undary", part(f"GET /gmail/v1/users/me/profile\r\nAuthorization: Bearer {mail.token}\r\n"))
    assert post(mail, inner, token=None).status_code == 401
    assert mail.live.world.log.calls() == []


def test_a_rate_limit_answers_each_call_it_takes(stage: Any) -> None:
    scene = THIRTY.replace(
        "\nseed:",
        "\napi_faults:\n  - {id: busy, service: gmail, operation: 'GET /gmail/v1/users/{userId}/messages/{id}',"
        " kind: rate_limit, retry_after: 7s, every: 2}\nseed:",
    )
    world = gmail_world(stage.world(scene))
    body = multipart(
        "b0undary", *[part(f"GET /gmail/v1/users/me/messages/{world.ref(f'm{n}')}\r\n") for n in (1, 2, 3, 4)]
    )
    response = post(world, body)
    assert response.status_code == 200
    assert [line for line in response.text.split("\r\n") if line.startswith(("HTTP/1.1", "Retry-After"))] == [
        "HTTP/1.1 200 OK",
        "HTTP/1.1 429 Too Many Requests",
        "Retry-After: 7",
        "HTTP/1.1 200 OK",
        "HTTP/1.1 429 Too Many Requests",
        "Retry-After: 7",
    ]
    injected = [c.injected["fault"] if c.injected else None for c in world.live.world.log.calls()]
    assert injected == [None, "busy", None, "busy"]


def test_a_world_with_batches_is_saved_and_loaded(stage: Any) -> None:
    """A snapshot holds a batch's calls as the calls they are, and one refused whole as itself: the loaded world
    replays them to the same log and state (a load compares them and refuses a world that differs)."""
    world = gmail_world(stage.world(MAIL))
    star = (
        f"POST /gmail/v1/users/me/messages/{world.ref('report')}/modify\r\nContent-Type: application/json\r\n\r\n"
        '{"addLabelIds": ["STARRED"]}'
    )
    assert post(world, multipart("b0undary", part(star, "<a>"), part("GET /gmail/v1/users/me/profile\r\n"))).is_success
    assert post(world, b"not a batch").status_code == 400
    saved = world.live.get("snapshot")
    assert [(i["method"], i["path"]) for i in saved["inputs"]] == [
        ("POST", f"/gmail/v1/users/me/messages/{world.ref('report')}/modify"),
        ("GET", "/gmail/v1/users/me/profile"),
        ("POST", "/batch/gmail/v1"),
    ]
    loaded = stage.http.post("/v1/worlds", json={"snapshot": saved})
    assert loaded.status_code == 201, loaded.text
    again = stage.server.hub.worlds[loaded.json()["id"]]
    assert [(c.path, c.status) for c in again.log.calls()] == [(c.path, c.status) for c in world.live.world.log.calls()]


def test_a_batch_at_the_url_the_token_routes(mail: GoogleWorld) -> None:
    """`/gmail/...` without the world's id (the world found by the token): a call's path under that prefix, or the
    API's own path, which starts with `/gmail/` too."""
    body = multipart(
        "b0undary",
        part("GET /gmail/gmail/v1/users/me/profile\r\n"),
        part("GET /gmail/v1/users/me/labels/INBOX\r\n"),
    )
    response = mail.live.http.post(
        "/gmail/batch/gmail/v1",
        content=body,
        headers={"Authorization": f"Bearer {mail.token}", "Content-Type": "multipart/mixed; boundary=b0undary"},
    )
    assert response.text.count("HTTP/1.1 200 OK") == 2
    assert [(c.path, c.status) for c in mail.live.world.log.calls()] == [
        ("/gmail/v1/users/me/profile", 200),
        ("/gmail/v1/users/me/labels/INBOX", 200),
    ]


def test_after_the_attempt_a_batch_is_refused_whole(mail: GoogleWorld) -> None:
    assert mail.live.http.post(f"{mail.live.control}/finish", json={"output": "done"}).is_success
    response = post(mail, multipart("b0undary", part("GET /gmail/v1/users/me/profile\r\n")))
    assert response.status_code == 401
    assert mail.live.world.log.calls() == []
    after = [(e.service, e.method, e.path, e.status) for e in mail.live.world.log.events if e.kind == "after_finish"]
    assert after == [("gmail", "POST", "/batch/gmail/v1", 401)]
