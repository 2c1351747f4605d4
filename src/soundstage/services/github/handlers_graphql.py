"""`POST /graphql`: GitHub's GraphQL API (v4), registered here and run by `graphql_api`, which is imported on
the first GraphQL call: graphql-core and the schema it builds cost a fifth of a second that a world nobody
asks in GraphQL would pay at every start."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .calls import Call, ops

GRAPHQL = "POST /graphql"


def _api() -> Any:
    return import_module(f"{__package__}.graphql_api")


@ops(GRAPHQL)
def graphql(call: Call) -> Any:
    return _api().graphql(call)


def operation_name(body: Any) -> str | None:
    """The name of the operation a GraphQL request runs, for the trace (graphql_api.operation_name)."""
    if not isinstance(body, dict) or not isinstance(body.get("query"), str):
        return None  # not worth loading graphql-core for
    return _api().operation_name(body)  # type: ignore[no-any-return]
