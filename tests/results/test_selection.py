"""Which runs a list shows (results/selection.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from soundstage.results import Run, RunFilter


def run(started: datetime | None, agent: str = "python a.py") -> Run:
    return Run(run_id="r", folder="", agent=agent, scenes=["seeds/greet.yaml"], trials=1, started_at=started)


def test_a_run_is_selected_by_scene_agent_and_its_day_in_utc() -> None:
    # 00:30 on 2 December in UTC+2 is 1 December in UTC.
    late = run(datetime(2026, 12, 2, 0, 30, tzinfo=timezone(timedelta(hours=2))))
    first = date(2026, 12, 1)
    assert RunFilter().matches(late, ["greet"])
    assert RunFilter(scene="greet", agent="python a.py", since=first, until=first).matches(late, ["greet"])
    assert not RunFilter(since=date(2026, 12, 2)).matches(late, ["greet"])
    assert not RunFilter(until=date(2026, 11, 30)).matches(late, ["greet"])
    assert not RunFilter(scene="seeds/greet.yaml").matches(late, ["greet"])  # by the scene's name
    assert not RunFilter(agent="python").matches(late, ["greet"])  # the whole command
    assert RunFilter(agent="python").matches(run(datetime(2026, 12, 1, tzinfo=UTC), agent="python"), [])


def test_a_run_that_does_not_say_when_it_started_is_within_no_span_of_days() -> None:
    unknown = run(None)
    assert RunFilter(scene="greet").matches(unknown, ["greet"])
    assert not RunFilter(since=date(2000, 1, 1)).matches(unknown, ["greet"])
    assert not RunFilter(until=date(2100, 1, 1)).matches(unknown, ["greet"])
