"""Deployments and their statuses, without HTTP. A deployment to `production` deploys its commit: the
repo's `production` moves there, which is what faults and the `github.production` check watch."""

from __future__ import annotations

from typing import Any

from ...world import Record
from .records import Records
from .store import DEPLOYMENT_STATUSES, DEPLOYMENTS, REPOS


def create_deployment(
    records: Records,
    repo: str,
    sha: str,
    ref: str,
    environment: str,
    login: str,
    at: int,
    *,
    task: str = "deploy",
    payload: Any = None,
    description: str | None = None,
    state: str | None = None,
) -> Record:
    """Records a deployment (with a first status when `state` is given); one to `production` deploys `sha`."""
    ident, node = records.new_id("Deployment")
    record = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "sha": sha,
        "ref": ref,
        "task": task,
        "payload": payload if payload is not None else {},
        "environment": environment,
        "original_environment": environment,
        "description": description,
        "creator": login,
        "production_environment": environment == "production",
        "transient_environment": False,
        "created_at": at,
        "updated_at": at,
    }
    deployment = records[DEPLOYMENTS].add(str(ident), record)
    if environment == "production":
        records[REPOS].change(repo, production=sha)
    if state is not None:
        add_deployment_status(records, deployment, state, login, at)
    return deployment


def add_deployment_status(
    records: Records, deployment: Record, state: str, login: str, at: int, **fields: Any
) -> Record:
    ident, node = records.new_id("DeploymentStatus")
    record = {
        "id": ident,
        "node_id": node,
        "repository": deployment["repository"],
        "deployment_id": deployment["id"],
        "state": state,
        "creator": login,
        "description": fields.get("description") or "",
        "environment": fields.get("environment") or deployment["environment"],
        "target_url": fields.get("target_url") or fields.get("log_url") or "",
        "log_url": fields.get("log_url") or fields.get("target_url") or "",
        "environment_url": fields.get("environment_url") or "",
        "created_at": at,
        "updated_at": at,
    }
    records[DEPLOYMENTS].change(str(deployment["id"]), updated_at=at)
    return records[DEPLOYMENT_STATUSES].add(str(ident), record)
