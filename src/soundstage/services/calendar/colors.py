"""Calendar's palette, as colors.get answers it: the calendars' 24 colours and the events' 11, each a background
and a foreground (facts of the Google Calendar API's colors.get reference)."""

from __future__ import annotations

from typing import Any

UPDATED = "2012-02-14T00:00:00.000Z"  # when Google last changed the palette
FOREGROUND = "#1d1d1d"
CALENDAR = (
    "#ac725e", "#d06b64", "#f83a22", "#fa573c", "#ff7537", "#ffad46", "#42d692", "#16a765",
    "#7bd148", "#b3dc6c", "#fbe983", "#fad165", "#92e1c0", "#9fe1e7", "#9fc6e7", "#4986e7",
    "#9a9cff", "#b99aff", "#c2c2c2", "#cabdbf", "#cca6ac", "#f691b2", "#cd74e6", "#a47ae2",
)  # fmt: skip
EVENT = (
    "#a4bdfc", "#7ae7bf", "#dbadff", "#ff887c", "#fbd75b", "#ffb878", "#46d6db", "#e1e1e1", "#5484ed", "#51b749",
    "#dc2127",
)  # fmt: skip


def palette() -> dict[str, Any]:
    return {
        "kind": "calendar#colors",
        "updated": UPDATED,
        "calendar": {str(n): {"background": c, "foreground": FOREGROUND} for n, c in enumerate(CALENDAR, 1)},
        "event": {str(n): {"background": c, "foreground": FOREGROUND} for n, c in enumerate(EVENT, 1)},
    }
