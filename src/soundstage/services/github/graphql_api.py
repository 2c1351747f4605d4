"""`POST /graphql` run: GitHub's GraphQL API (v4) over the world, as `gh` uses it. The document is parsed and
checked against `graphql_schema` (an unknown field is GitHub's `undefinedField`), bounded in size and
depth, then run with the classes of `graphql_objects` and the mutations of `graphql_mutations`. Errors
come in GitHub's envelope with HTTP 200: `{"data": ..., "errors": [{"type", "path", "locations",
"message"}]}`. The trace names the call by the document's operation name (`operation_name`). Loaded by
`handlers_graphql` on the first GraphQL call."""

from __future__ import annotations

import re
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLResolveInfo,
    InlineFragmentNode,
    OperationDefinitionNode,
    OverlappingFieldsCanBeMergedRule,
    SelectionSetNode,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    execute_sync,
    get_named_type,
    parse,
    print_ast,
    specified_rules,
    validate,
    visit,
)

from ..base import Reply
from .calls import Call, search_terms
from .errors import GitHubError
from .graphql_mutations import MUTATIONS
from .graphql_objects import Actor, Comment, Context, Label, Problem, Review, SearchResults, item, repository
from .graphql_schema import SCHEMA
from .issue_search import matching_issues
from .store import COMMENTS, ISSUES, LABELS, PULLS, REPOS, REVIEWS, USERS

_NODES = (USERS, REPOS, ISSUES, PULLS, LABELS, COMMENTS, REVIEWS)  # where `node(id)` looks
MAX_DEPTH = 15  # nested selections in one document
MAX_FIELDS = 2_000  # fields and fragment spreads in one document, fragments counted where they are spread
MAX_TOKENS = 10_000  # tokens of one document: the parser stops there (and at nesting too deep for it)
# GitHub lets one response key hold fields of different types on different members of a union
# (`... on Issue {state} ... on PullRequest {state}`, which `gh issue view` sends).
RULES = [rule for rule in specified_rules if rule is not OverlappingFieldsCanBeMergedRule]


def _camel_to_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def operation_name(body: Any) -> str | None:
    """The name of the operation a GraphQL request runs (`operationName`, else its document's only
    operation's), for the trace; None when the body names none."""
    if not isinstance(body, dict) or not isinstance(body.get("query"), str):
        return None
    if isinstance(body.get("operationName"), str):
        return body["operationName"]
    try:
        document = parse(body["query"], no_location=True, max_tokens=MAX_TOKENS)
    except GraphQLError:
        return None
    names = [d.name.value for d in document.definitions if isinstance(d, OperationDefinitionNode) and d.name]
    return names[0] if len(names) == 1 else None


def _resolve(source: Any, info: GraphQLResolveInfo, **args: Any) -> Any:
    """A field of a dict by its GraphQL name, of an object by its snake_case one; methods get the
    arguments in snake_case. A connection must be bounded by `first` or `last`, as on GitHub."""
    name = info.field_name
    connection = get_named_type(info.return_type).name.endswith("Connection")
    if connection and args.get("first") is None and args.get("last") is None and _lists(info):
        raise Problem(
            "MISSING_PAGINATION_BOUNDARIES",
            f"You must provide a `first` or `last` value to properly paginate the `{name}` connection.",
        )
    if info.parent_type is SCHEMA.mutation_type:
        return MUTATIONS[name](source.ctx, args["input"])
    if isinstance(source, dict):
        value = source.get(name)
    else:
        value = getattr(source, _camel_to_snake(name), None)
    if callable(value):
        return value(**{_camel_to_snake(k): v for k, v in args.items()})
    return value


def _lists(info: GraphQLResolveInfo) -> bool:
    """Whether a connection field asks for its `nodes` or `edges` (a bare `totalCount` needs no bounds)."""
    return any(
        isinstance(selection, FieldNode) and selection.name.value in ("nodes", "edges")
        for node in info.field_nodes
        for selection in (node.selection_set.selections if node.selection_set else ())
    )


def _type_of(value: Any, info: GraphQLResolveInfo, abstract: Any) -> str:
    return value["typename"] if isinstance(value, dict) else value.typename


class _Root:
    """The fields of `Query`; `Mutation`'s are `graphql_mutations.MUTATIONS`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def viewer(self) -> Actor:
        return Actor(self.ctx, self.ctx.viewer)

    def repository(self, owner: str, name: str) -> Any:
        found = repository(self.ctx, f"{owner}/{name}")
        if found is None:
            raise Problem("NOT_FOUND", f"Could not resolve to a Repository with the name '{owner}/{name}'.")
        return found

    def _account(self, login: str, kind: str) -> Actor:
        found = self.ctx.records[USERS].get(login)
        if found is None or (found["type"] == "Organization") != (kind == "Organization"):
            article = "an" if kind == "Organization" else "a"
            raise Problem("NOT_FOUND", f"Could not resolve to {article} {kind} with the login of '{login}'.")
        return Actor(self.ctx, found)

    def user(self, login: str) -> Actor:
        return self._account(login, "User")

    def organization(self, login: str) -> Actor:
        return self._account(login, "Organization")

    def node(self, id: str) -> Any:
        for collection in _NODES:
            found = self.ctx.records[collection].by("node_id", id)
            if found:
                return _as_node(self.ctx, collection, found[0])
        raise Problem("NOT_FOUND", f"Could not resolve to a node with the global id of '{id}'")

    def nodes(self, ids: list[str]) -> list[Any]:
        return [self.node(i) for i in ids]

    def search(self, query: str, type: str, **page: Any) -> SearchResults:
        """Issues and pulls as `GET /search/issues` finds them (`@me` is the viewer), newest first unless
        a `sort:` qualifier (`created`, `updated`, `comments`, then `-asc` or `-desc`) says otherwise."""
        records = self.ctx.records
        words, qualifiers = search_terms(query.replace("@me", self.ctx.viewer["login"]))
        names = qualifiers.get("repo")
        found = records[REPOS] if names is None else (records[REPOS].get(n) for n in names)
        by, _, direction = (qualifiers.get("sort") or ["created-desc"])[-1].partition("-")
        by = by if by in ("created", "updated", "comments") else "created"
        matched = matching_issues(records, [r for r in found if r], words, qualifiers, by, direction != "asc")
        return SearchResults(self.ctx, matched, **page)


def _as_node(ctx: Context, collection: str, record: Any) -> Any:
    if collection == USERS:
        return Actor(ctx, record)
    if collection == REPOS:
        return repository(ctx, record["full_name"])
    if collection in (ISSUES, PULLS):
        return item(ctx, record)
    if collection == LABELS:
        return Label(record)
    return Comment(ctx, record) if collection == COMMENTS else Review(ctx, record)


def _location(node: Any) -> list[dict[str, int]]:
    if node is None or node.loc is None:
        return []
    token = node.loc.start_token
    return [{"line": token.line, "column": token.column}]


class _Unknown(Visitor):
    """Fields the schema lacks, in GitHub's `undefinedField` words, with the path to each."""

    def __init__(self, type_info: TypeInfo) -> None:
        super().__init__()
        self.type_info = type_info
        self.path: list[str] = []
        self.errors: list[dict[str, Any]] = []

    def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> None:
        self.path = [f"{node.operation.value} {node.name.value}" if node.name else node.operation.value]

    def enter_fragment_definition(self, node: FragmentDefinitionNode, *_: Any) -> None:
        self.path = [f"fragment {node.name.value}"]

    def enter_field(self, node: FieldNode, *_: Any) -> None:
        self.path.append(node.alias.value if node.alias else node.name.value)
        parent = self.type_info.get_parent_type()
        if parent is not None and self.type_info.get_field_def() is None and node.name.value != "__typename":
            self.errors.append(
                {
                    "path": list(self.path),
                    "extensions": {"code": "undefinedField", "typeName": parent.name, "fieldName": node.name.value},
                    "locations": _location(node),
                    "message": f"Field '{node.name.value}' doesn't exist on type '{parent.name}'",
                }
            )

    def leave_field(self, *_: Any) -> None:
        self.path.pop()


def _unknown_fields(document: DocumentNode) -> list[dict[str, Any]]:
    type_info = TypeInfo(SCHEMA)
    finder = _Unknown(type_info)
    visit(document, TypeInfoVisitor(type_info, finder))
    return finder.errors


def _too_big(document: DocumentNode) -> str | None:
    """Why the document asks too much (depth over MAX_DEPTH, fields over MAX_FIELDS), or None. Spreads
    count as fields: fragments spreading others twice over would otherwise double the walk at each step."""
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    count = [0]
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            found = _walk(definition.selection_set, 1, frozenset(), fragments, count)
            if found:
                return found
    return None


def _walk(
    selections: SelectionSetNode | None,
    depth: int,
    seen: frozenset[str],
    fragments: dict[str, FragmentDefinitionNode],
    count: list[int],
) -> str | None:
    """`_too_big`'s walk, `count` the fields met so far. A function of the module, not a closure calling itself:
    that would be a cycle a server's collector keeps (collector.py)."""
    if selections is None:
        return None
    if depth > MAX_DEPTH:
        return f"Query has depth of {depth}, which exceeds max depth of {MAX_DEPTH}"
    for selection in selections.selections:
        count[0] += 1
        if count[0] > MAX_FIELDS:
            return f"Query has more than {MAX_FIELDS} fields, which exceeds the limit of {MAX_FIELDS}"
        if isinstance(selection, FieldNode):
            found = _walk(selection.selection_set, depth + 1, seen, fragments, count)
        elif isinstance(selection, InlineFragmentNode):
            found = _walk(selection.selection_set, depth, seen, fragments, count)
        elif isinstance(selection, FragmentSpreadNode) and selection.name.value in fragments:
            if selection.name.value in seen:
                continue
            spread = fragments[selection.name.value].selection_set
            found = _walk(spread, depth, seen | {selection.name.value}, fragments, count)
        else:
            found = None
        if found:
            return found
    return None


def _error(error: GraphQLError) -> dict[str, Any]:
    """A GraphQL error as GitHub words it: a `type` for what the world refused, `path` and `locations`."""
    shown: dict[str, Any] = {}
    original = error.original_error
    if isinstance(original, Problem):
        shown["type"] = original.kind
    if error.path is not None:
        shown["path"] = list(error.path)
    shown["locations"] = [{"line": loc.line, "column": loc.column} for loc in error.locations or []]
    shown["message"] = str(original) if isinstance(original, Problem) else error.message
    return shown


_BAD_VARIABLE = re.compile(
    r"^Variable '\$(\w+)' (?:has invalid value[^:]*: |of required type '[^']+' )(.*)$", re.DOTALL
)


def _variable_error(error: GraphQLError, document: DocumentNode, variables: dict[str, Any]) -> dict[str, Any] | None:
    """A variable's value that does not fit its type, in GitHub's words; None for any other error."""
    found = _BAD_VARIABLE.match(error.message)
    if found is None:
        return None
    name, why = found.groups()
    kinds = {
        d.variable.name.value: print_ast(d.type)
        for operation in document.definitions
        if isinstance(operation, OperationDefinitionNode)
        for d in operation.variable_definitions or ()
    }
    missing = why == "was not provided." or why.startswith("Expected a value of non-null type")
    explanation = "Expected value to not be null" if missing else why.rstrip(".")
    return {
        "extensions": {"value": variables.get(name), "problems": [{"path": [], "explanation": explanation}]},
        "locations": [{"line": loc.line, "column": loc.column} for loc in error.locations or []],
        "message": f"Variable ${name} of type {kinds.get(name, '')} was provided invalid value",
    }


def _errors_only(errors: list[dict[str, Any]]) -> Reply:
    return Reply(200, {"errors": errors})


def graphql(call: Call) -> Any:
    body = call.fields
    query = body.get("query")
    if not isinstance(query, str) or not query.strip():
        return _errors_only([{"message": "A query attribute must be specified and must be a string."}])
    variables = body.get("variables") or {}
    if not isinstance(variables, dict):
        raise GitHubError(400, "Problems parsing JSON")
    try:
        document = parse(query, max_tokens=MAX_TOKENS, allow_empty_selection_sets=False)  # `{}` is no selection
    except GraphQLError as exc:
        return _errors_only([{"message": exc.message, "locations": _error(exc)["locations"]}])
    unknown = _unknown_fields(document)
    if unknown:
        return _errors_only(unknown)
    problems = validate(SCHEMA, document, RULES)
    if problems:
        return _errors_only([_error(p) for p in problems])
    reason = _too_big(document)
    if reason:
        return _errors_only([{"message": reason}])
    ctx = Context(call.records, call.me, call.now())
    root = _Root(ctx)
    result = execute_sync(
        SCHEMA,
        document,
        root_value=root,
        variable_values=variables,
        operation_name=body.get("operationName") if isinstance(body.get("operationName"), str) else None,
        field_resolver=_resolve,
        type_resolver=_type_of,
    )
    refused = [_variable_error(e, document, variables) for e in result.errors or ()]
    if any(refused):
        return _errors_only([r for r in refused if r])
    answer: dict[str, Any] = {"data": result.data}
    if result.errors:
        unexpected = [
            e
            for e in result.errors
            if e.original_error is not None and not isinstance(e.original_error, (Problem, GraphQLError))
        ]
        if unexpected:
            raise unexpected[0].original_error  # type: ignore[misc]  # a fault of ours: the service's 500
        answer["errors"] = [_error(e) for e in result.errors]
    return answer
