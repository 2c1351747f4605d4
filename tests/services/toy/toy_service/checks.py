"""The toy vendor's state check: `toy.item`, an item of that name on the shelf."""

from __future__ import annotations

from soundstage.grading.attempt import Attempt
from soundstage.grading.kinds import Args, state_check
from soundstage.grading.outcome import Outcome

from .store import ITEMS


class ItemArgs(Args):
    name: str


@state_check("toy.item", ItemArgs)
def item(args: ItemArgs, attempt: Attempt) -> Outcome:
    names = sorted(str(record.get("name")) for record in attempt.records(ITEMS))
    return Outcome(args.name in names, f"an item named {args.name}", f"the items are {', '.join(names)}")
