"""Cuts the official API descriptions the tests read down to what soundstage implements.

    python scripts/cut_specs.py DIR            # DIR holds the full descriptions
    python scripts/cut_specs.py DIR --fetch    # downloads those DIR lacks first, from where each comes from

DIR holds the full descriptions under their upstream file names, JSON or YAML, exactly as published at the
commit or release each `Source` names (its SHA-256 is checked: a clone keeps only the cuts, and a newer file
would change them unseen). Without them, the script names each missing file with its download address and
digest, and stops; `--fetch` downloads them (from GitHub, and for GitHub's own from the npm registry). For
each description this writes tests/specs/<same name, as .json>: the operations
that soundstage's registry (`soundstage.services.SERVICES[...].operations()`) lists for that service (for
Datadog, whose API has one description per version, those of that version), every component they reach
through `$ref` (transitively), and the components the tests name themselves. It also rewrites
tests/specs/SOURCES.md. The output is deterministic: sorted keys, one key per line.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import tarfile
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from soundstage.services import SERVICES

OUT = Path(__file__).resolve().parent.parent / "tests" / "specs"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True)
class Source:
    service: str
    file: str
    origin: str  # the repository the file comes from
    path: str  # its path there
    commit: str
    license: str
    note: str
    sha256: str  # of the full file, as published there
    extra: tuple[str, ...] = ()  # `$ref`s the tests use by name, kept even where no operation reaches them
    version: str = ""  # the path prefix of the operations this description has, where a service has several
    tarball: str = ""  # where the file is published inside a package (npm's .tgz, PyPI's wheel), not a repository

    @property
    def url(self) -> str:
        """Where the file is downloaded from: the package's archive, or the repository's file at its commit."""
        if self.tarball:
            return self.tarball
        return f"{self.origin.replace('https://github.com/', 'https://raw.githubusercontent.com/')}/{self.commit}/{self.path}"

    def download(self) -> bytes:
        with urllib.request.urlopen(self.url, timeout=120) as response:
            data: bytes = response.read()
        if not self.tarball:
            return data
        if self.tarball.endswith(".whl"):  # a wheel: a zip of the package's files at their import paths
            with zipfile.ZipFile(io.BytesIO(data)) as wheel:
                return wheel.read(self.path)
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:  # npm's: the package's files under package/
            member = archive.extractfile(f"package/{self.path}")
            if member is None:
                raise SystemExit(f"{self.url} has no package/{self.path}")
            return member.read()

    @property
    def output(self) -> str:
        """The cut's file name: the upstream name, as JSON."""
        return str(Path(self.file).with_suffix(".json"))

    def operations(self) -> list[str]:
        """The registry's operations this description is expected to have."""
        names = SERVICES[self.service].operations()
        return [name for name in names if not self.version or name.partition(" ")[2].startswith(self.version)]


SOURCES = [
    Source(
        service="slack",
        file="slack_web_openapi_v2.json",
        origin="https://github.com/slackapi/slack-api-specs",
        path="web-api/slack_web_openapi_v2.json",
        commit="bc08db49625630e3585bf2f1322128ea04f2a7f3",
        sha256="742a5c977180a829df8767cf57bc417d99b3713583aee83741efb9c08ca731e7",
        license="MIT",
        note="MIT: the LICENSE file of the repository at that commit.",
        extra=("#/definitions/objs_message",),  # tests/services/slack/test_schema.py
    ),
    Source(
        service="pagerduty",
        file="pagerduty_rest_openapiv3.json",
        origin="https://github.com/PagerDuty/api-schema",
        path="reference/REST/openapiv3.json",
        commit="91a06fb3c64b0ab2b2bd6c485d12b327dfb55c18",
        sha256="b2e80f8b83b170f29702e96a69adf230702b4ec43dddab7e348a2985c707ef35",
        license="none stated",
        note="none stated: the repository has no license file in any commit, and neither its README nor\n"
        "  the description names a license. Only facts are kept from it (see above).",
    ),
    Source(
        service="github",
        file="github_api.github.com.json",
        origin="https://www.npmjs.com/package/@octokit/openapi (github/rest-api-description, bundled)",
        path="generated/api.github.com.json",
        commit="npm 23.0.2",
        sha256="829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a",
        tarball="https://registry.npmjs.org/@octokit/openapi/-/openapi-23.0.2.tgz",
        license="MIT",
        note="MIT: the LICENSE file of github/rest-api-description and of the @octokit/openapi package.",
    ),
    Source(
        service="datadog",
        file="datadog_v1_openapi.yaml",
        origin="https://github.com/DataDog/datadog-api-client-python",
        path=".generator/schemas/v1/openapi.yaml",
        commit="6d8f356e4a3fdf83307c9db00e7a081d56a47ea5",
        sha256="e8e3972a2d77b1395e28f7044e830f526258a4bc5e07d9401c2c07b2bcccabb4",
        license="Apache-2.0",
        note="Apache-2.0: the LICENSE file of the repository at that commit.",
        version="/api/v1/",
    ),
    Source(
        service="datadog",
        file="datadog_v2_openapi.yaml",
        origin="https://github.com/DataDog/datadog-api-client-python",
        path=".generator/schemas/v2/openapi.yaml",
        commit="9a09c580b3a02f15baff495191e8be309cd63642",
        sha256="6b75d3862eecf6516f6fc44e20ad6ba9c39b628df6164063b0f95319c085bf0a",
        license="Apache-2.0",
        note="Apache-2.0: the LICENSE file of the repository at that commit.",
        version="/api/v2/",
    ),
]


# Google's APIs are described by discovery documents, shipped inside the official Python client's wheel.
GOOGLE_CLIENT = "https://pypi.org/project/google-api-python-client/ (googleapis/google-api-python-client)"
GOOGLE_WHEEL = (
    "https://files.pythonhosted.org/packages/py3/g/google-api-python-client/"
    "google_api_python_client-2.202.0-py3-none-any.whl"
)
GOOGLE_NOTE = (
    "Apache-2.0: the LICENSE file of google-api-python-client, which ships the discovery document;\n"
    "  converted to OpenAPI 3.0.3 by this script (paths under the service path, a method taking a media upload\n"
    "  also at its upload path, schemas as components)."
)


def _google(service: str, file: str, sha256: str) -> Source:
    """A discovery document of the official client's wheel."""
    path = f"googleapiclient/discovery_cache/documents/{file}"
    return Source(
        service, file, GOOGLE_CLIENT, path, "PyPI 2.202.0", "Apache-2.0", GOOGLE_NOTE, sha256, tarball=GOOGLE_WHEEL
    )


SOURCES += [
    _google("calendar", "calendar.v3.json", "e4668b97464e1a80305a86d6d883a6e772297179fb8a923f5e5ee17d4e178f20"),
    _google("gmail", "gmail.v1.json", "bfe9c4bf485e30971775274ce7b41c527d06658c5a1fb2c5fb05582a3295dadc"),
]


def openapi(discovery: dict[str, Any]) -> dict[str, Any]:
    """A Google discovery document as OpenAPI 3.0.3: each method at `/<servicePath><path>` under its HTTP method,
    its path and query parameters, its request and response schemas as `#/components/schemas/...` (the
    discovery's `$ref`s are schema names), and its schemas with their types and formats; a method taking a media
    upload also at its upload path (`mediaUpload`'s simple protocol). The document's version and revision are
    its `info.version`."""
    paths: dict[str, dict[str, Any]] = {}
    for method in _methods(discovery.get("resources", {}), discovery.get("methods", {})):
        operation: dict[str, Any] = {
            "operationId": method["id"],
            "parameters": [_parameter(name, p) for name, p in sorted(method.get("parameters", {}).items())],
        }
        if "request" in method:
            operation["requestBody"] = {"content": {"application/json": {"schema": _schema(method["request"])}}}
        if "response" in method:
            operation["responses"] = {"200": {"content": {"application/json": {"schema": _schema(method["response"])}}}}
        else:
            operation["responses"] = {"204": {}}
        paths.setdefault("/" + discovery["servicePath"] + method["path"], {})[method["httpMethod"].lower()] = operation
        upload = method.get("mediaUpload", {}).get("protocols", {}).get("simple", {}).get("path")
        if upload:  # the same method at Google's upload path (`/upload/gmail/v1/...`), which takes the media
            paths.setdefault(upload, {})[method["httpMethod"].lower()] = operation
    return {
        "openapi": "3.0.3",
        "info": {"title": discovery["title"], "version": f"{discovery['version']} revision {discovery['revision']}"},
        "paths": paths,
        "components": {"schemas": {name: _schema(schema) for name, schema in discovery.get("schemas", {}).items()}},
    }


def _methods(resources: dict[str, Any], methods: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield from methods.values()
    for resource in resources.values():
        yield from _methods(resource.get("resources", {}), resource.get("methods", {}))


def _parameter(name: str, parameter: dict[str, Any]) -> dict[str, Any]:
    schema = _schema({k: v for k, v in parameter.items() if k not in ("location", "required", "repeated")})
    if parameter.get("repeated"):
        schema = {"type": "array", "items": schema}
    found = {"name": name, "in": parameter["location"], "schema": schema}
    if parameter.get("required") or parameter["location"] == "path":
        found["required"] = True
    return found


# What of a discovery schema JSON Schema reads the same way; the rest (`annotations`, `id`, `location`,
# `enumDescriptions`) is the discovery format's own.
SCHEMA_KEYS = ("type", "format", "enum", "default", "pattern", "minimum", "maximum", "readOnly")


def _schema(node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return {"$ref": f"#/components/schemas/{node['$ref']}"}
    schema = {key: node[key] for key in SCHEMA_KEYS if key in node}
    if schema.get("type") == "any":  # any JSON value
        del schema["type"]
    if "properties" in node:
        schema["properties"] = {name: _schema(value) for name, value in node["properties"].items()}
    if "items" in node:
        schema["items"] = _schema(node["items"])
    if "additionalProperties" in node:
        schema["additionalProperties"] = _schema(node["additionalProperties"])
    return schema


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # libyaml where built
    """YAML as JSON has it: a date stays the string it was written as (a description is JSON's data model)."""


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_str)


def read(raw: bytes, file: str) -> dict[str, Any]:
    if file.endswith((".yaml", ".yml")):
        return yaml.load(raw, Loader=_Loader)
    document: dict[str, Any] = json.loads(raw)
    return openapi(document) if "discoveryVersion" in document else document


def shape(path: str) -> str:
    """A path template with its parameter names left out: `/incidents/{incident_id}` -> `/incidents/{}`."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def find(document: dict[str, Any], operation: str) -> list[tuple[str, str]]:
    """Where the description has a registry operation, as (path, method) pairs; [] when it has none.

    Slack names methods (`chat.postMessage`: the path `/chat.postMessage`, whatever its HTTP method); the
    REST services name `METHOD /template`, matched by path shape where the parameter names differ."""
    paths = document["paths"]
    if " " not in operation:
        item = paths.get(f"/{operation}", {})
        return [(f"/{operation}", method) for method in METHODS if method in item]
    method, template = operation.split(" ", 1)
    method = method.lower()
    if method in paths.get(template, {}):
        return [(template, method)]
    return [(path, method) for path in sorted(paths) if shape(path) == shape(template) and method in paths[path]]


# Prose and samples: the checks read none of it, and only the descriptions' facts are copied. With them go
# the vendors' notes to their own tooling (code generators' names, docs' permission tables, GitHub's
# docs metadata).
DROPPED = {
    "description",
    "summary",
    "title",
    "externalDocs",
    "example",
    "examples",
    "x-code-samples",
    "x-github",
    "x-github-breaking-changes",
    "x-octokit",
    "x-enum-varnames",
    "x-enum-descriptions",
    "x-permission",
    "x-menu-order",
    "x-undo",
    "x-given",
}
# Keys whose value maps names (of properties, schemas, status codes, media types...) to objects: a
# property called `description` is kept.
NAMED = {
    "properties",
    "patternProperties",
    "definitions",
    "schemas",
    "responses",
    "parameters",
    "headers",
    "content",
    "paths",
    "requestBodies",
    "securitySchemes",
    "links",
    "callbacks",
    "encoding",
    "variables",
}
# Keys whose value is data, copied as it is.
DATA = {"enum", "default", "const", "mapping"}


def facts(node: Any, named: bool = False) -> Any:
    """`node` without the prose and samples of `DROPPED` (where those names are keywords)."""
    if isinstance(node, list):
        return [facts(value) for value in node]
    if not isinstance(node, dict):
        return node
    return {
        key: value if key in DATA and not named else facts(value, named=key in NAMED and not named)
        for key, value in node.items()
        if named or key not in DROPPED
    }


def refs(node: Any) -> Iterator[str]:
    """The `$ref`s in `node`, and the schemas a discriminator's `mapping` names."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            elif key == "mapping" and isinstance(value, dict):
                yield from (v for v in value.values() if isinstance(v, str) and v.startswith("#/"))
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def entry(ref: str) -> tuple[str, ...]:
    """The top-level component a `$ref` points into: `#/components/schemas/Tag/allOf/0` -> (components,
    schemas, Tag); `#/definitions/objs_message` -> (definitions, objs_message)."""
    if not ref.startswith("#/"):
        raise SystemExit(f"only local references are supported, found {ref!r}")
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]
    depth = {"definitions": 2, "parameters": 2, "responses": 2, "components": 3}.get(parts[0])
    if depth is None or len(parts) < depth:
        raise SystemExit(f"a reference outside the components: {ref!r}")
    return tuple(parts[:depth])


def lookup(document: dict[str, Any], key: tuple[str, ...]) -> Any:
    node: Any = document
    for part in key:
        node = node[part]
    return node


def cut(document: dict[str, Any], operations: list[str], extra: tuple[str, ...]) -> tuple[dict[str, Any], list[str]]:
    """The cut description, and the registry operations the description does not have."""
    paths: dict[str, dict[str, Any]] = {}
    where = {operation: find(document, operation) for operation in operations}
    for found in where.values():
        for path, method in found:
            item = document["paths"][path]
            kept = paths.setdefault(
                path, {k: facts(v) for k, v in item.items() if k not in METHODS and k not in DROPPED}
            )
            kept[method] = facts(item[method])
    out: dict[str, Any] = {k: document[k] for k in ("swagger", "openapi") if k in document}
    out["info"] = {k: document["info"][k] for k in ("title", "version")}
    out["paths"] = paths
    # Which registry operation is where, so that a test can tell when the cut falls behind the registry.
    out["x-soundstage-operations"] = {operation: [list(at) for at in found] for operation, found in where.items()}
    todo = [*refs(paths), *extra]
    seen: set[tuple[str, ...]] = set()
    while todo:
        key = entry(todo.pop())
        if key in seen:
            continue
        seen.add(key)
        node = facts(lookup(document, key))
        target = out
        for part in key[:-1]:
            target = target.setdefault(part, {})
        target[key[-1]] = node
        todo.extend(refs(node))
    return out, [operation for operation, found in where.items() if not found]


def write_sources(rows: list[tuple[Source, dict[str, Any], str, int, list[str]]], command: str) -> None:
    lines = [
        "# API descriptions the tests check responses against and make requests from",
        "",
        "Cuts of the vendors' official descriptions: the operations soundstage implements (from its service",
        "registries) and every component they reference, transitively. Made by",
        "",
        "```",
        command,
        "```",
        "",
        "(with soundstage installed: `pip install -e .`) where DIR holds the full descriptions named below,",
        "as found in their origin at the commit given (`--fetch` downloads those DIR lacks, and each file's",
        "sha256 is checked); run it again after adding an operation to a service.",
        "Do not edit these files by hand. They keep the descriptions' facts (paths, parameters, schemas)",
        "and leave out their prose and samples (descriptions, summaries, titles, examples).",
        "",
        (
            "| file | cut from (in DIR) | service | origin | path in origin | commit or release | version | license "
            "| sha256 of the full file |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for source, document, digest, _, _ in rows:
        version = f"Swagger {document['swagger']}" if "swagger" in document else f"OpenAPI {document['openapi']}"
        lines.append(
            f"| {source.output} | {source.file} | {source.service} | {source.origin} | {source.path} "
            f"| {source.commit} | info.version {document['info']['version']}, {version} | {source.license} | {digest} |"
        )
    lines.append("")
    for source, _, _, kept, missing in rows:
        absent = ", ".join(f"`{m}`" for m in missing) if missing else "none"
        lines.append(f"- {source.output}: {kept} operations kept; implemented but not in the description: {absent}.")
        lines.append(f"  License: {source.note}")
    (OUT / "SOURCES.md").write_text("\n".join(lines) + "\n")


def gather(folder: Path, fetch: bool) -> dict[str, bytes]:
    """Each description's full file, by name: from `folder`, downloaded into it first with `fetch`. Stops,
    naming every file and what is wrong with it, when one is missing or not the file published."""
    found, problems = {}, []
    for source in SOURCES:
        path = folder / source.file
        if not path.is_file() and fetch:
            print(f"downloading {source.url}", file=sys.stderr)
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(source.download())
        if not path.is_file():
            problems.append(f"{path}: missing; download it from {source.url} (sha256 {source.sha256}), or use --fetch")
            continue
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if digest != source.sha256:
            problems.append(
                f"{path}: sha256 {digest}, not the {source.sha256} of {source.path} at {source.commit} "
                f"({source.url}); to cut a newer one, change its Source here first"
            )
        found[source.file] = raw
    if problems:
        raise SystemExit("\n".join(problems))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder holding the full descriptions")
    parser.add_argument("--fetch", action="store_true", help="download the descriptions the folder lacks")
    arguments = parser.parse_args()
    files = gather(arguments.folder, arguments.fetch)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for source in SOURCES:
        raw = files[source.file]
        document = read(raw, source.file)
        cut_document, missing = cut(document, source.operations(), source.extra)
        text = json.dumps(cut_document, sort_keys=True, indent=0, ensure_ascii=False) + "\n"
        (OUT / source.output).write_text(text, encoding="utf-8")
        kept = sum(1 for item in cut_document["paths"].values() for method in METHODS if method in item)
        rows.append((source, document, source.sha256, kept, missing))
        print(f"{source.output}: {kept} operations, {len(text):,} bytes; not described: {missing}", file=sys.stderr)
    write_sources(rows, "python scripts/cut_specs.py DIR")


if __name__ == "__main__":
    main()
