"""events.quickAdd's reading of a line of text (`Lunch with Omar tomorrow at 12:30pm`): a day (`today`,
`tomorrow`, a weekday, `March 5`, `5 March`, `2026-03-05`, `3/5`), a time or a range of times (`at 3pm`,
`15:00`, `noon`, `3pm-4:30pm`, `from 3pm to 4pm`), and what is left is the summary. A day without a time is an
all-day event; a time without a day is today; an event without an end lasts an hour."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        1,
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_NTH = "(?:st|nd|rd|th)?"
_CLOCK = r"(?:noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)"
DAYS = [
    (re.compile(r"\b(?:on\s+)?(\d{4})-(\d{2})-(\d{2})\b", re.IGNORECASE), "iso"),
    (
        re.compile(rf"\b(?:on\s+)?({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b", re.IGNORECASE),
        "month day",
    ),
    (
        re.compile(rf"\b(?:on\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\b(?:\s+(\d{{4}}))?", re.IGNORECASE),
        "day month",
    ),
    (re.compile(r"\b(?:on\s+)?(\d{1,2})/(\d{1,2})(?:/(\d{4}))?\b"), "us"),
    (re.compile(r"\b(today|tonight|tomorrow)\b", re.IGNORECASE), "word"),
    (re.compile(rf"\b(?:on\s+|next\s+)?({'|'.join(WEEKDAYS)})\b", re.IGNORECASE), "weekday"),
]
RANGE = re.compile(rf"\b(?:from\s+)?({_CLOCK})\s*(?:-|–|to|until)\s*({_CLOCK})", re.IGNORECASE)
TIME = re.compile(rf"\b(?:at\s+)?({_CLOCK})(?=\s|$|[,.;])", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    summary: str
    day: date
    start: tuple[int, int] | None  # hour, minute; None: all day
    end: tuple[int, int] | None


def read(text: str, today: datetime) -> Reading:
    rest, day = _day(text, today)
    start = end = None
    found = RANGE.search(rest)
    if found and (_clock(found.group(1), found.group(2)) is not None):
        start, end = _clock(found.group(1), found.group(2)), _clock(found.group(2))
        rest = rest[: found.start()] + rest[found.end() :]
    else:
        for found in TIME.finditer(rest):
            clock = _clock(found.group(1))
            if clock is not None and (found.group(0).lower().startswith("at") or not found.group(1).isdigit()):
                start = clock
                rest = rest[: found.start()] + rest[found.end() :]
                break
    summary = " ".join(rest.split()).strip(" ,.;-")
    return Reading(summary or text.strip(), day or today.date(), start, end)


def _day(text: str, today: datetime) -> tuple[str, date | None]:
    for pattern, kind in DAYS:
        found = pattern.search(text)
        if found is None:
            continue
        day = _date(kind, found.groups(), today)
        if day is not None:
            return text[: found.start()] + text[found.end() :], day
    return text, None


def _date(kind: str, groups: tuple[str | None, ...], today: datetime) -> date | None:
    year = today.year
    try:
        if kind == "iso":
            return date(int(groups[0] or 0), int(groups[1] or 0), int(groups[2] or 0))
        if kind == "word":
            return today.date() + timedelta(days=1 if (groups[0] or "").lower() == "tomorrow" else 0)
        if kind == "weekday":
            ahead = (WEEKDAYS.index((groups[0] or "").lower()) - today.weekday()) % 7
            return today.date() + timedelta(days=ahead or 7)
        if kind == "month day":
            month, number, given = MONTHS[(groups[0] or "").lower()], int(groups[1] or 0), groups[2]
        elif kind == "day month":
            number, month, given = int(groups[0] or 0), MONTHS[(groups[1] or "").lower()], groups[2]
        else:
            month, number, given = int(groups[0] or 0), int(groups[1] or 0), groups[2]
        day = date(int(given) if given else year, month, number)
    except ValueError:
        return None
    # A day without its year is the next one: this year's, or next year's once it has passed.
    return day if given or day >= today.date() else day.replace(year=year + 1)


def _clock(text: str, paired: str | None = None) -> tuple[int, int] | None:
    """`3pm`, `3:30 p.m.`, `15:00`, `noon` as (hour, minute); a bare `3` takes the half of day of `paired`."""
    word = text.lower().replace(".", "").replace(" ", "")
    if word in ("noon", "midnight"):
        return (12, 0) if word == "noon" else (0, 0)
    found = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(am|pm)?", word)
    if found is None:
        return None
    hour, minute = int(found.group(1)), int(found.group(2) or 0)
    half = found.group(3) or (re.sub(r"[^apm]", "", paired.lower())[-2:] if paired else "")
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59 or (not half and found.group(2) is None):
        return None
    return hour, minute
