"""The external upload flow (files.getUploadURLExternal, the upload URL, files.completeUploadExternal) as
slack_sdk's files_upload_v2 drives it, files.info and files.list."""

from __future__ import annotations

import re

from soundstage.services.slack.store import FILES

from .conftest import START
from .test_schema import assert_valid


def test_files_upload_v2_end_to_end(slack):
    support = slack["support"]
    done = slack.client.files_upload_v2(
        channel=support, content="id,total\n1,20\n", filename="export.csv", title="Export", initial_comment="Here & now"
    ).data
    file_id = done["file"]["id"]
    assert re.fullmatch(r"F[0-9A-Z]{10}", file_id)
    assert done["files"] == [{"id": file_id, "title": "Export"}] and done["file"] == done["files"][0]
    shared = slack.client.conversations_history(channel=support, limit=1)["messages"][0]
    assert (shared["text"], shared["upload"], shared["user"]) == ("Here &amp; now", True, slack["bot"])
    assert [f["id"] for f in shared["files"]] == [file_id]
    info = slack.client.files_info(file=file_id).data
    file = info["file"]
    assert (file["name"], file["title"], file["size"], file["filetype"], file["pretty_type"], file["mimetype"]) == (
        "export.csv",
        "Export",
        14,
        "csv",
        "CSV",
        "text/csv",
    )
    assert (file["channels"], file["is_public"], file["user"], file["created"]) == (
        [support],
        True,
        slack["bot"],
        START,
    )
    assert file["shares"]["public"][support][0]["ts"] == shared["ts"]
    assert info["content"] == "id,total\n1,20\n" and info["comments"] == []
    assert "state" not in file and "content" not in file
    listed = slack.client.files_list(channel=support).data
    assert [f["id"] for f in listed["files"]] == [file_id]
    assert listed["paging"] == {"count": 100, "total": 1, "page": 1, "pages": 1}


def test_the_upload_url_is_served_under_the_world(slack):
    got = slack.call("files.getUploadURLExternal", filename="notes.txt", length="5")
    prefix = f"{slack.base.removesuffix('/api/')}/upload/v1/"
    assert got["upload_url"].startswith(prefix) and "/w/" in got["upload_url"]
    assert slack.live.http.get(got["upload_url"]).status_code == 405
    posted = slack.live.http.post(got["upload_url"], content=b"hello")
    assert (posted.status_code, posted.text) == (200, "OK - 5")
    assert slack.live.http.post(got["upload_url"], content=b"again").status_code == 404  # once only
    assert slack.live.http.post(prefix + "0" * 40, content=b"x").status_code == 404
    ticket = got["upload_url"].rsplit("/", 1)[1]
    assert slack.error("auth.test", token=ticket) == "invalid_auth"  # a ticket is no API token
    # Not completed yet: nobody sees it.
    assert slack.error("files.info", file=got["file_id"]) == "file_not_found"
    files = [{"id": got["file_id"], "title": "Notes"}]
    completed = slack.client.files_completeUploadExternal(files=files).data
    assert completed["files"] == files
    assert slack.world[FILES].get(got["file_id"])["channels"] == []  # not shared: private to its uploader
    assert slack.client.files_info(file=got["file_id"])["file"]["title"] == "Notes"
    assert slack.error("files.info", token="user", file="F0000000000") == "file_not_found"


def test_a_multipart_upload_keeps_the_files_bytes(slack):
    """Slack's Node SDK and its documented `curl -F filename=@file` post a form: the file is its one part."""
    got = slack.call("files.getUploadURLExternal", filename="notes.txt", length="11")
    posted = slack.live.http.post(got["upload_url"], files={"filename": ("notes.txt", b"hello there")})
    assert (posted.status_code, posted.text) == (200, "OK - 11")
    record = slack.world[FILES].get(got["file_id"])
    assert (record["size"], record["content"]) == (11, "hello there")
    two = slack.call("files.getUploadURLExternal", filename="two.txt", length="2")
    files = {"a": ("a.txt", b"a"), "b": ("b.txt", b"b")}
    refused = slack.live.http.post(two["upload_url"], files=files)
    assert (refused.status_code, refused.text) == (400, "Bad Request")
    assert slack.world[FILES].get(two["file_id"])["state"] == "pending"


def test_upload_errors(slack):
    assert slack.error("files.getUploadURLExternal", length="5") == "invalid_arguments"
    assert slack.error("files.getUploadURLExternal", filename="a.txt") == "invalid_arguments"
    assert slack.error("files.getUploadURLExternal", filename="a.txt", length="0") == "invalid_arguments"
    pending = slack.call("files.getUploadURLExternal", filename="a.txt", length="1")["file_id"]
    files = f'[{{"id": "{pending}"}}]'
    assert slack.error("files.completeUploadExternal", files=files) == "file_not_found"  # no bytes yet
    assert slack.error("files.completeUploadExternal", files="[]") == "invalid_arguments"
    assert slack.error("files.completeUploadExternal", files="nope") == "invalid_arguments"
    got = slack.call("files.getUploadURLExternal", filename="b.txt", length="1")
    slack.live.http.post(got["upload_url"], content=b"b")
    ready = f'[{{"id": "{got["file_id"]}"}}]'
    assert slack.error("files.completeUploadExternal", files=ready, channel_id=slack["random"]) == "not_in_channel"
    assert slack.error("files.completeUploadExternal", files=ready, channel_id="C0000000000") == "channel_not_found"
    assert slack.error("files.list", user="U0000000000") == "user_not_found"
    assert slack.error("files.list", types="videos") == "unknown_type"


def test_files_others_shared_with_you_are_listed(slack):
    slack.client.files_upload_v2(channel=slack["laura"], content=b"\x89PNG", filename="shot.png")
    maya = slack.client.files_upload_v2(channel=slack["ops"], content="x", filename="x.txt")["file"]["id"]
    assert slack.world[FILES].get(maya)["groups"] == [slack["ops"]]
    listed = slack.client.files_list().data["files"]
    assert [(f["name"], f["filetype"]) for f in listed] == [("x.txt", "text"), ("shot.png", "png")]
    assert [f["name"] for f in slack.client.files_list(types="images")["files"]] == ["shot.png"]
    assert slack.client.files_list(user=slack["maya"])["files"] == []
    assert "content" not in slack.client.files_info(file=listed[1]["id"]).data  # not text


def test_file_answers_follow_the_schema(slack):
    file_id = slack.client.files_upload_v2(channel=slack["support"], content="a", filename="a.txt")["file"]["id"]
    assert_valid("files.info", slack.call("files.info", file=file_id))
    assert_valid("files.list", slack.call("files.list"))


def test_a_file_shared_in_a_thread_keeps_its_files_when_its_comment_is_edited(slack):
    support, question = slack["support"], slack["question"]
    file_id = slack.client.files_upload_v2(
        channel=support, thread_ts=question, content="total\n10\n", filename="totals.csv", initial_comment="Totals"
    )["file"]["id"]
    ts_ = slack.client.files_info(file=file_id)["file"]["shares"]["public"][support][0]["ts"]
    edited = slack.client.chat_update(channel=support, ts=ts_, text="Totals, checked")["message"]
    assert (edited["text"], edited["upload"], edited["display_as_bot"]) == ("Totals, checked", True, False)
    assert [f["id"] for f in edited["files"]] == [file_id]
    reply = slack.call("conversations.replies", channel=support, ts=question)["messages"][-1]
    assert (reply["ts"], reply["thread_ts"], reply["text"]) == (ts_, question, "Totals, checked")
    assert reply["edited"] == {"user": slack["bot"], "ts": edited["edited"]["ts"]}
    assert [f["id"] for f in reply["files"]] == [file_id] and reply["upload"] is True
