"""The `gmail:` section of world and scene files. Every person of the world with an email address has a
mailbox without it; the section adds what they hold."""

from __future__ import annotations

from ...spec.fields import Spec


class GmailSection(Spec):
    pass
