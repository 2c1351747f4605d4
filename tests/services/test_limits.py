"""The shared sliding windows of simulated time (`soundstage.services.limits`), on a stand-in world that has
only what the windows read: settings, its parts and the simulated clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from soundstage.clock import US
from soundstage.services.base import Reply
from soundstage.services.limits import Count, RateLimits, count, rule_for, rules, setting, with_headers


@dataclass
class Clocked:
    settings: dict[str, Any] = field(default_factory=dict)
    limits: RateLimits = field(default_factory=RateLimits)
    at: int = 1_000_000 * US

    def now(self) -> int:
        return self.at

    def part(self, kind: type) -> Any:
        assert kind is RateLimits
        return self.limits


def _defaults() -> dict[str, tuple[int, int]]:
    return {"op": (1, US)}


def test_rules_true_mapping_and_off() -> None:
    assert rules(Clocked({"rate_limits": {"x": True}}), "x", _defaults) == {"op": (1, US)}
    given = Clocked({"rate_limits": {"x": {"op": "5/1m", "*": "2/30s"}}})
    assert rules(given, "x", _defaults) == {"op": (5, 60 * US), "*": (2, 30 * US)}
    assert rules(Clocked(), "x", _defaults) is None
    assert rules(Clocked({"rate_limits": {"x": {}}}), "x", _defaults) is None
    assert setting(Clocked({"rate_limits": {"x": True}}), "x") is True


def test_rules_are_parsed_once_per_world() -> None:
    world = Clocked({"rate_limits": {"x": {"op": "5/1m"}}})
    first = rules(world, "x", _defaults)
    world.settings["rate_limits"]["x"] = {"op": "1/1s"}
    assert rules(world, "x", _defaults) is first
    assert world.limits.rules["x"] == {"op": (5, 60 * US)}


def test_rule_for_falls_back_to_star() -> None:
    limits = {"a": (1, US), "*": (2, US)}
    assert (rule_for(limits, "a"), rule_for(limits, "b"), rule_for({"a": (1, US)}, "b"), rule_for(None, "a")) == (
        (1, US),
        (2, US),
        None,
        None,
    )


def test_window_slides_and_refused_calls_take_no_place() -> None:
    world = Clocked()
    rule = (2, 60 * US)
    assert count(world, "x", "k", rule) == Count(True, 2, 60 * US, 1, 60)
    world.at += 10 * US
    assert count(world, "x", "k", rule) == Count(True, 2, 60 * US, 0, 50)
    world.at += 20 * US
    assert count(world, "x", "k", rule) == Count(False, 2, 60 * US, 0, 30)
    assert count(world, "x", "other", rule) == Count(True, 2, 60 * US, 1, 60)  # keys count apart
    world.at += 30 * US  # the first call leaves the window exactly now
    assert count(world, "x", "k", rule) == Count(True, 2, 60 * US, 0, 10)
    assert list(world.limits.windows["x"]["k"]) == [1_000_010 * US, 1_000_060 * US]


def test_reset_is_whole_seconds_and_at_least_one() -> None:
    world = Clocked()
    count(world, "x", "k", (1, 1500 * US // 1000))
    world.at += US  # 0.5 s left: rounds up to 1
    assert count(world, "x", "k", (1, 1500 * US // 1000)).reset == 1
    world.at += US // 2  # the window has just freed a place
    assert count(world, "x", "k", (1, 1500 * US // 1000)).allowed is True


def test_with_headers() -> None:
    assert with_headers({"a": 1}, {}) == {"a": 1}
    reply = with_headers({"a": 1}, {"X-Limit": "2"})
    assert (reply.status, reply.body, reply.headers) == (200, {"a": 1}, {"X-Limit": "2"})
    own = with_headers(Reply(202, None, headers={"X-Limit": "own", "Other": "o"}), {"X-Limit": "2", "Y": "3"})
    assert (own.status, own.headers) == (202, {"X-Limit": "own", "Other": "o", "Y": "3"})
