"""The `gmail:` section of world and scene files. Every person of the world with an email address has a
mailbox without it; the section adds what they hold:

```yaml
gmail:
  labels:
    - {ref: vendors, mailbox: $maya, name: Vendors}
  messages:
    - ref: invoice
      from: $omar                   # a person's ref (any of their records) or an address
      to: [$maya]
      cc: []
      subject: Invoice 1142
      body: Please pay invoice 1142 by Friday.
      ago: 2h                       # before the clock start (default 1h)
      labels: [$vendors, STARRED]   # more labels of `mailbox`'s copy
      read: false                   # `mailbox`'s copy without UNREAD
      mailbox: $maya                # whose copy `ref` names: default the first recipient with a mailbox
      attachments: [{filename: invoice.txt, mime_type: text/plain, content: "Total: 1,142.00"}]
    - {ref: chase, from: $maya, to: [$omar], reply_to: $invoice, body: Paid., ago: 1h}
  drafts:
    - {ref: reply, mailbox: $maya, to: [$omar], subject: Invoice 1142, body: Will do.}
  filters:
    - ref: vendor-mail
      mailbox: $maya
      criteria: {from: billing@vendor.test, negated_query: urgent}   # the API's criteria, in snake case
      action: {add_labels: [$vendors], remove_labels: [INBOX]}         # labels by id, name or ref
```

A message is delivered as a sent one is: a copy in the sender's mailbox (SENT) when the sender has one and
one in each recipient's (INBOX, UNREAD). `reply_to` names an earlier message of the file: the new one answers
it (`In-Reply-To`, `References`, subject `Re: ...` unless given) and joins its thread in each mailbox.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from ...spec.fields import Duration, Spec


class Attachment(Spec):
    filename: str
    mime_type: str = "application/octet-stream"
    content: str = ""


class Label(Spec):
    ref: str | None = None
    mailbox: str  # a person's ref or address
    name: str


class Message(Spec):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    ref: str | None = None
    from_: str = Field(alias="from")
    to: list[str] = []
    cc: list[str] = []
    subject: str | None = None
    body: str = ""
    ago: Duration = "1h"
    reply_to: str | None = None
    labels: list[str] = []
    read: bool = False
    mailbox: str | None = None
    attachments: list[Attachment] = []


class Draft(Spec):
    ref: str | None = None
    mailbox: str
    to: list[str] = []
    cc: list[str] = []
    subject: str | None = None  # `Re: ` (once) and the answered message's subject when it answers one, else empty
    body: str = ""
    reply_to: str | None = None


class FilterCriteria(Spec):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    subject: str | None = None
    query: str | None = None
    negated_query: str | None = None
    has_attachment: bool = False
    exclude_chats: bool = False
    size: int | None = Field(default=None, ge=0, lt=2**31)
    size_comparison: Literal["smaller", "larger"] | None = None


class FilterAction(Spec):
    add_labels: list[str] = []
    remove_labels: list[str] = []


class Filter(Spec):
    ref: str | None = None
    mailbox: str
    criteria: FilterCriteria
    action: FilterAction


class GmailSection(Spec):
    labels: list[Label] = []
    messages: list[Message] = []
    drafts: list[Draft] = []
    filters: list[Filter] = []
