"""Gmail's MCP tools (facts in `mcp_tools.yaml`), each the Gmail API operation it stands for, on the account
the token speaks for (`userId` `me`)."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from ..mcp import RestCall, Tools, bearer, path, picked
from . import mime

tools = Tools("gmail", Path(__file__).with_name("mcp_tools.yaml"), bearer("GOOGLE_OAUTH_TOKEN"))

USER = "/gmail/v1/users/me"
VISIBILITY = {"messageListVisibility": "messageListVisibility", "labelListVisibility": "labelListVisibility"}


def _raw(arguments: dict[str, Any]) -> str:
    """The message the source writes of the arguments: its headers, its text, and its HTML as an alternative
    (unless `mimeType` is text/plain), base64url. The server sets From, as Gmail does."""
    message = EmailMessage()
    for header, name in (("To", "to"), ("Cc", "cc"), ("Bcc", "bcc")):
        if arguments.get(name):
            message[header] = ", ".join(arguments[name])
    message["Subject"] = arguments["subject"]
    if arguments.get("inReplyTo"):
        message["In-Reply-To"] = message["References"] = arguments["inReplyTo"]
    message.set_content(arguments["body"])
    html = arguments.get("htmlBody")
    if html and arguments.get("mimeType", "text/plain") != "text/plain":
        message.add_alternative(html, subtype="html")
        # Drawn from the content: the `email` package would draw it from an unseeded random source.
        message.set_boundary(hashlib.sha256((arguments["body"] + html).encode()).hexdigest()[:28])
    return mime.b64url(message.as_bytes())


def _message(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"raw": _raw(arguments), **picked(arguments, {"threadId": "threadId"})}


@tools("send_email", "POST /gmail/v1/users/{userId}/messages/send")
def send_email(arguments: dict[str, Any]) -> RestCall:
    return RestCall("POST", f"{USER}/messages/send", body=_message(arguments))


@tools("draft_email", "POST /gmail/v1/users/{userId}/drafts")
def draft_email(arguments: dict[str, Any]) -> RestCall:
    return RestCall("POST", f"{USER}/drafts", body={"message": _message(arguments)})


@tools("read_email", "GET /gmail/v1/users/{userId}/messages/{id}")
def read_email(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path(USER + "/messages/{messageId}", arguments), query={"format": "full"})


@tools("search_emails", "GET /gmail/v1/users/{userId}/messages")
def search_emails(arguments: dict[str, Any]) -> RestCall:
    query = {"q": arguments["query"], "maxResults": arguments.get("maxResults") or 10}
    return RestCall("GET", f"{USER}/messages", query=query)


@tools("modify_email", "POST /gmail/v1/users/{userId}/messages/{id}/modify")
def modify_email(arguments: dict[str, Any]) -> RestCall:
    # As the source does: `labelIds` are labels to add, and `addLabelIds`, given too, wins.
    body = picked(arguments, {"labelIds": "addLabelIds"}) | picked(
        arguments, {"addLabelIds": "addLabelIds", "removeLabelIds": "removeLabelIds"}
    )
    return RestCall("POST", path(USER + "/messages/{messageId}/modify", arguments), body=body)


@tools("delete_email", "DELETE /gmail/v1/users/{userId}/messages/{id}")
def delete_email(arguments: dict[str, Any]) -> RestCall:
    return RestCall("DELETE", path(USER + "/messages/{messageId}", arguments))


@tools("list_email_labels", "GET /gmail/v1/users/{userId}/labels")
def list_email_labels(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", f"{USER}/labels")


@tools("create_label", "POST /gmail/v1/users/{userId}/labels")
def create_label(arguments: dict[str, Any]) -> RestCall:
    return RestCall("POST", f"{USER}/labels", body=picked(arguments, {"name": "name", **VISIBILITY}))


@tools("update_label", "PUT /gmail/v1/users/{userId}/labels/{id}")
def update_label(arguments: dict[str, Any]) -> RestCall:
    body = picked(arguments, {"name": "name", **VISIBILITY})
    return RestCall("PUT", path(USER + "/labels/{id}", arguments), body=body)


@tools("delete_label", "DELETE /gmail/v1/users/{userId}/labels/{id}")
def delete_label(arguments: dict[str, Any]) -> RestCall:
    return RestCall("DELETE", path(USER + "/labels/{id}", arguments))


FILTERS = USER + "/settings/filters"


@tools("create_filter", "POST /gmail/v1/users/{userId}/settings/filters")
def create_filter(arguments: dict[str, Any]) -> RestCall:
    return RestCall("POST", FILTERS, body={"criteria": arguments["criteria"], "action": arguments["action"]})


@tools("list_filters", "GET /gmail/v1/users/{userId}/settings/filters")
def list_filters(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", FILTERS)


@tools("get_filter", "GET /gmail/v1/users/{userId}/settings/filters/{id}")
def get_filter(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path(FILTERS + "/{filterId}", arguments))


@tools("delete_filter", "DELETE /gmail/v1/users/{userId}/settings/filters/{id}")
def delete_filter(arguments: dict[str, Any]) -> RestCall:
    return RestCall("DELETE", path(FILTERS + "/{filterId}", arguments))


def _template(template: str, given: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The criteria and action the source's template of that name makes of its parameters (a parameter not
    given is left out, as JSON leaves out the source's undefined)."""
    labels = given.get("labelIds") or []
    if template == "fromSender":
        return picked(given, {"senderEmail": "from"}), {
            "addLabelIds": labels,
            **({"removeLabelIds": ["INBOX"]} if given.get("archive") else {}),
        }
    if template == "withSubject":
        return picked(given, {"subjectText": "subject"}), {
            "addLabelIds": labels,
            **({"removeLabelIds": ["UNREAD"]} if given.get("markAsRead") else {}),
        }
    if template == "withAttachments":
        return {"hasAttachment": True}, {"addLabelIds": labels}
    if template == "largeEmails":
        return {**picked(given, {"sizeInBytes": "size"}), "sizeComparison": "larger"}, {"addLabelIds": labels}
    if template == "containingText":
        important = ["IMPORTANT"] if given.get("markImportant") else []
        return {"query": f'"{given.get("searchText")}"'}, {"addLabelIds": [*labels, *important]}
    # mailingList: archived unless told not to
    listed = given.get("listIdentifier")
    return {"query": f"list:{listed} OR subject:[{listed}]"}, {
        "addLabelIds": labels,
        **({"removeLabelIds": ["INBOX"]} if given.get("archive", True) else {}),
    }


@tools("create_filter_from_template", "POST /gmail/v1/users/{userId}/settings/filters")
def create_filter_from_template(arguments: dict[str, Any]) -> RestCall:
    criteria, action = _template(arguments["template"], arguments.get("parameters") or {})
    return RestCall("POST", FILTERS, body={"criteria": criteria, "action": action})
