"""The Gmail API v1: each person's mailbox, its labels (and, to come, messages, threads and drafts)."""

from .service import service

__all__ = ["service"]
