"""search.messages: user tokens only, Slack's query modifiers, visibility, sorting and paging."""

from __future__ import annotations

from .conftest import START


def _search(slack, query, **kwargs):
    body = slack.user_client.search_messages(query=query, **kwargs).data
    return [m["ts"] for m in body["messages"]["matches"]]


def test_search(slack):
    body = slack.user_client.search_messages(query="export").data
    assert body["query"] == "export"
    messages = body["messages"]
    assert [m["ts"] for m in messages["matches"]] == [slack["bot_note"], slack["question"], slack["dm"]]
    assert messages["total"] == 3
    assert messages["paging"] == {"count": 20, "total": 3, "page": 1, "pages": 1}
    assert messages["pagination"] == {
        "total_count": 3,
        "page": 1,
        "per_page": 20,
        "page_count": 1,
        "first": 1,
        "last": 3,
    }
    match = messages["matches"][1]
    assert match["channel"] == {
        "id": slack["support"],
        "is_channel": True,
        "is_group": False,
        "is_im": False,
        "is_mpim": False,
        "is_shared": False,
        "is_org_shared": False,
        "is_ext_shared": False,
        "is_private": False,
        "is_pending_ext_shared": False,
        "pending_shared": [],
        "name": "support",
        "name_normalized": "support",
    }
    assert (match["type"], match["user"], match["username"], match["team"]) == (
        "message",
        slack["laura"],
        "laura",
        slack["acme"],
    )
    assert (
        match["permalink"]
        == f"https://acme.slack.com/archives/{slack['support']}/p{slack['question'].replace('.', '')}"
    )
    assert len(match["iid"]) == 36
    assert match["blocks"][0]["type"] == "rich_text"
    dm = messages["matches"][2]["channel"]
    assert (dm["is_im"], dm["user"], "name_normalized" in dm) == (True, slack["maya"], False)


def test_matches_carry_the_messages_before_them(slack):
    matches = slack.user_client.search_messages(query="looking into").data["messages"]["matches"]
    previous = matches[0]["previous"]
    question = slack.message(slack["question"])
    assert previous == {
        "type": "message",
        "user": slack["laura"],
        "username": "laura",
        "ts": slack["question"],
        "text": "Where is the CSV export? A customer asked.",
        "iid": previous["iid"],
        "permalink": f"https://acme.slack.com/archives/{slack['support']}/p{slack['question'].replace('.', '')}",
        "blocks": question["blocks"],
    }
    assert "previous_2" not in matches[0]  # one message before it in #support
    # A reply's context is its thread; two before it give `previous` and `previous_2`, nearest first.
    slack.client.chat_postMessage(channel=slack["support"], thread_ts=slack["question"], text="Found the button")
    found = slack.user_client.search_messages(query="button").data["messages"]["matches"][0]
    assert (found["previous"]["ts"], found["previous_2"]["ts"]) == (slack["reply"], slack["question"])
    assert found["previous_2"]["iid"] == previous["iid"]  # the same message has the same iid


def test_private_channels_of_others_are_not_searched(slack):
    assert _search(slack, "contract") == []


def test_modifiers(slack):
    assert _search(slack, "export in:#support") == [slack["bot_note"], slack["question"]]
    assert _search(slack, f"export in:<#{slack['support']}|support>") == [slack["bot_note"], slack["question"]]
    assert _search(slack, "export in:@maya") == [slack["dm"]]
    assert _search(slack, "export from:@maya") == [slack["dm"]]
    assert _search(slack, f"from:<@{slack['laura']}>") == [slack["question"]]
    assert _search(slack, "from:me") == [slack["bot_note"]]
    assert _search(slack, '"csv export"') == [slack["question"]]
    assert _search(slack, "export -customer") == [slack["bot_note"], slack["dm"]]
    assert _search(slack, "has:link") == [slack["lunch"]]
    assert _search(slack, "has:reaction") == [slack["bot_note"]]
    assert _search(slack, "has:pin") == [slack["question"]]
    assert _search(slack, "is:thread") == [slack["reply"], slack["question"]]


def test_dates_in_the_searchers_time_zone(slack):
    assert _search(slack, "before:2026-03-01") == [slack["old_note"]]
    assert _search(slack, "on:2026-02-10") == [slack["old_note"]]
    assert _search(slack, "during:2026-02") == [slack["old_note"]]
    assert len(_search(slack, "during:2026")) == 7
    assert _search(slack, "export after:2026-03-01") == [slack["bot_note"], slack["question"], slack["dm"]]
    assert _search(slack, "export after:2026-03-02") == []
    assert slack.message(slack["old_note"])["ts"] == f"{START - 20 * 86400}.000100"


def test_sorting_and_paging(slack):
    assert _search(slack, "export", sort="timestamp", sort_dir="asc") == [
        slack["dm"],
        slack["question"],
        slack["bot_note"],
    ]
    assert _search(slack, "export", sort="timestamp") == _search(slack, "export")  # equal scores: newest first
    page = slack.user_client.search_messages(query="export", count=1, page=2).data["messages"]
    assert [m["ts"] for m in page["matches"]] == [slack["question"]]
    assert page["pagination"] == {"total_count": 3, "page": 2, "per_page": 1, "page_count": 3, "first": 2, "last": 2}


def test_search_errors(slack):
    assert slack.error("search.messages", query="export") == "not_allowed_token_type"
    assert slack.error("search.messages", token="user") == "no_query"
    assert slack.error("search.messages", token="user", query="export", count="many") == "invalid_arguments"


def test_search_all_finds_messages_and_no_files(slack):
    body = slack.user_client.search_all(query="export").data
    assert body["messages"] == slack.user_client.search_messages(query="export").data["messages"]
    assert body["files"] == {
        "total": 0,
        "pagination": {"total_count": 0, "page": 1, "per_page": 20, "page_count": 0, "first": 1, "last": 0},
        "paging": {"count": 20, "total": 0, "page": 1, "pages": 0},
        "matches": [],
    }
    assert body["posts"] == {"total": 0, "matches": []}
    assert slack.error("search.all", query="export") == "not_allowed_token_type"
    assert slack.error("search.all", token="user") == "no_query"
