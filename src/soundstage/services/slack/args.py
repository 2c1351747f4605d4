"""A Slack method's arguments: query string, form, multipart and JSON bodies alike, merged, then read
with the type each argument has in Slack (strings, `1`/`0`/`true`/`false` booleans, integers, JSON).

Wire problems get Slack's own codes: `missing_post_type`, `invalid_post_type`, `invalid_charset`,
`invalid_form_data`, `invalid_json`, `json_not_object`, `invalid_arg_name`, `invalid_array_arg`. Slack
also warns `missing_charset` about a JSON body without `charset=utf-8`, and `superfluous_charset` about
a form body with one.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from decimal import Decimal, InvalidOperation
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from ..base import ServiceRequest, parse_query
from .errors import SlackError

_ARG_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,255}")
TS = re.compile(r"[1-9]\d*\.\d+")
_TRUE = {"1", "true"}
_FALSE = {"0", "false", ""}


def _content_type(request: ServiceRequest) -> tuple[str, dict[str, str]]:
    kind, _, rest = request.headers.get("content-type", "").partition(";")
    params = {}
    for part in rest.split(";"):
        name, _, value = part.partition("=")
        if name.strip():
            params[name.strip().lower()] = value.strip().strip('"')
    return kind.strip().lower(), params


def _multipart(body: bytes, header: str) -> dict[str, Any]:
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + header.encode("latin-1") + b"\r\n\r\n" + body)
    if not message.is_multipart() or message.defects:
        raise SlackError("invalid_form_data", "the multipart body could not be parsed")
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not name or not isinstance(payload, bytes):
            raise SlackError("invalid_form_data", "a multipart part has no name or no content")
        value: Any = payload if part.get_filename() else payload.decode("utf-8", "replace")
        fields[name] = [fields[name], value] if name in fields else value
    return fields


def _body(request: ServiceRequest, warnings: list[str]) -> dict[str, Any]:
    if not request.body:
        return {}
    kind, params = _content_type(request)
    if not kind:
        raise SlackError("missing_post_type", "the request has a body but no Content-Type")
    charset = params.get("charset", "").lower()
    if charset and charset.replace("-", "") != "utf8":
        raise SlackError("invalid_charset", f"unsupported charset {charset!r}; send utf-8")
    if kind == "application/x-www-form-urlencoded":
        if charset:
            warnings.append("superfluous_charset")
        try:
            return parse_query(request.body.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise SlackError("invalid_form_data", "the form body is not UTF-8") from exc
    if kind == "application/json":
        if not charset:
            warnings.append("missing_charset")
        try:
            data = json.loads(request.body)
        except (UnicodeDecodeError, ValueError) as exc:
            raise SlackError("invalid_json", f"the body is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise SlackError("json_not_object", "the JSON body must be an object")
        return data
    if kind == "multipart/form-data":
        return _multipart(request.body, request.headers.get("content-type", ""))
    raise SlackError("invalid_post_type", f"unsupported Content-Type {kind!r}")


def token_of(request: ServiceRequest) -> str | None:
    """The token from `Authorization: Bearer`, else a `token` argument (query, then body)."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    token = request.query.get("token")
    if token is None and request.body:
        try:
            token = _body(request, []).get("token")
        except SlackError:
            return None
    return token if isinstance(token, str) and token else None


class Args:
    """The merged arguments of one call (without `token`) and the warnings Slack would add."""

    __slots__ = ("values", "warnings")

    def __init__(self, values: dict[str, Any], warnings: list[str] | None = None) -> None:
        self.values = values
        self.warnings = warnings or []

    @classmethod
    def parse(cls, request: ServiceRequest) -> Args:
        warnings: list[str] = []
        values = {**request.query, **_body(request, warnings)}
        values.pop("token", None)
        for name in values:
            if name.endswith("[]"):
                raise SlackError("invalid_array_arg", f"{name} is an array; pass a comma-separated string")
            if not _ARG_NAME.fullmatch(name):
                raise SlackError("invalid_arg_name", f"invalid argument name {name[:40]!r}")
        return cls(values, warnings)

    def string(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, list):
            raise SlackError("invalid_array_arg", f"{name} was given more than once or as an array")
        raise SlackError("invalid_arguments", f"{name} must be a string")

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        text = self.string(name).strip().lower()  # type: ignore[union-attr]
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise SlackError("invalid_arguments", f"{name} must be a boolean (true, false, 1 or 0)")

    def integer(self, name: str, default: int, code: str = "invalid_arguments") -> int:
        value = self.values.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            raise SlackError(code, f"{name} must be an integer")
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int):
            return value
        text = self.string(name).strip()  # type: ignore[union-attr]
        if not re.fullmatch(r"-?\d{1,12}", text):
            raise SlackError(code, f"{name} must be an integer")
        return int(text)

    def limit(self, default: int, maximum: int = 1000) -> int:
        """Slack's `limit`: 0 or absent is the default, more than the maximum is the maximum."""
        value = self.integer("limit", default, "invalid_limit")
        if value < 0:
            raise SlackError("invalid_limit", "limit must not be negative")
        return min(value or default, maximum)

    def cursor(self, kind: str) -> str | None:
        """The position a `cursor` we issued for `kind` points at; None when absent."""
        raw = self.string("cursor")
        if not raw:
            return None
        try:
            decoded = base64.b64decode(raw, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError) as exc:
            raise SlackError("invalid_cursor", "the cursor is not one this method issued") from exc
        prefix, _, position = decoded.partition(":")
        if prefix != kind or not position:
            raise SlackError("invalid_cursor", "the cursor is not one this method issued")
        return position

    def micros(self, name: str, code: str) -> int | None:
        """A time argument (`oldest`, `latest`: a ts or epoch seconds) in epoch microseconds."""
        text = self.string(name)
        if text is None or text.strip() == "":
            return None
        try:
            value = Decimal(text.strip())
        except InvalidOperation as exc:
            raise SlackError(code, f"{name} must be a timestamp such as 1772460000.000100") from exc
        if not value.is_finite() or value < 0:
            raise SlackError(code, f"{name} must be a timestamp such as 1772460000.000100")
        return int(value * 1_000_000)

    def json(self, name: str, code: str) -> list[Any] | None:
        """`blocks` / `attachments`: a JSON array, given as such or as a JSON string."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise SlackError(code, f"{name} must be a JSON array") from exc
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise SlackError(code, f"{name} must be a JSON array of objects")
        return value

    def ids(self, name: str) -> list[str]:
        """A comma-separated list (`users=U1,U2`), or a JSON array of strings."""
        value = self.values.get(name)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            items = value
        else:
            items = (self.string(name) or "").split(",")
        return [item.strip() for item in items if item.strip()]


def cursor(kind: str, position: str) -> str:
    return base64.b64encode(f"{kind}:{position}".encode()).decode()
