"""chronicle's benchmark suite: `python -m bench` (or `python -m bench --quick`).

Every case builds its own data in a temporary directory, runs its operation several times
and reports the median, next to a baseline measured in the same run on the same machine.
Absolute times on a shared machine are noise; the ratios are the figures we hold goals to.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Config", "Row", "machine", "median_time", "timed"]


@dataclass(frozen=True, slots=True)
class Config:
    """Sizes and repeats of one run; `quick()` checks the suite runs, not the numbers."""

    workdir: str
    quick: bool = False
    repeats: int = 5
    appends: int = 200  # records per append run
    long_events: int = 100_000  # the replay and export game
    verify_events: int = 10_000
    http_clients: int = 16
    http_seconds: float = 4.0
    playout_games: int = 200

    @classmethod
    def full(cls, workdir: str) -> Config:
        return cls(workdir)

    @classmethod
    def quick_run(cls, workdir: str) -> Config:
        return cls(workdir, quick=True, repeats=2, appends=20, long_events=3_000,
                   verify_events=1_000, http_clients=4, http_seconds=0.5, playout_games=10)


@dataclass(slots=True)
class Row:
    """One line of the table: a measured case, its baseline, the ratio and the goal."""

    case: str
    measure: str  # what the figure is: "events/s", "ms", "MB", ...
    value: float
    baseline: str = "—"
    baseline_value: float | None = None
    ratio: float | None = None
    goal: str = "reported"
    ok: bool | None = None  # None: no goal beyond reporting
    notes: list[str] = field(default_factory=list)


def timed(fn: Callable[[], Any]) -> float:
    """Seconds one call of `fn` takes (perf_counter)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn: Callable[[], Any], repeats: int, warmup: int = 1) -> float:
    """Median seconds of `repeats` calls of `fn`, after `warmup` calls not counted."""
    for _ in range(warmup):
        fn()
    return statistics.median(timed(fn) for _ in range(repeats))


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    return {
        "cores": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "platform": platform.platform(),
        "sqlite": __import__("sqlite3").sqlite_version,
    }
