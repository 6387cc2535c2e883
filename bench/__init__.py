"""chronicle's benchmark suite: `python -m bench` (or `python -m bench --quick`).

Every case builds its own data in a temporary directory, runs its operation several times
and reports the median, next to a baseline measured in the same run on the same machine.
Absolute times on a shared machine are noise; the ratios are the figures we hold goals to.
"""

from __future__ import annotations

import functools
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .wal import PAGES as WAL_PAGES
from .workload import Workload

__all__ = ["Config", "Row", "machine", "median_time", "paired", "timed"]


@dataclass(frozen=True, slots=True)
class Config:
    """Sizes and repeats of one run; `quick_run()` checks the suite runs, not the numbers."""

    workdir: str
    quick: bool = False
    repeats: int = 5  # stretches of the append workload, and repeats of the timed reads
    actions_per_game: int | None = None  # None: every game of the workload whole
    writers: int = 8  # threads of the concurrent-writers case
    long_events: int = 100_000  # the long game: state, history, export
    history_page: int = 200
    http_clients: int = 16
    http_seconds: float = 4.0
    http_rounds: int = 3
    http_workers: tuple[int, ...] = (1, 4)  # POST also measured (reported) at these counts
    playout_games: int = 40

    @classmethod
    def full(cls, workdir: str) -> Config:
        return cls(workdir)

    @classmethod
    def quick_run(cls, workdir: str) -> Config:
        return cls(workdir, quick=True, repeats=2, actions_per_game=3, long_events=2_000,
                   http_clients=4, http_seconds=0.5, http_rounds=1, http_workers=(1,),
                   playout_games=3)

    @property
    def wal_pages(self) -> int:
        """How far each measured database's WAL is grown first (bench/wal.py); --quick: 0."""
        return 0 if self.quick else WAL_PAGES

    @property
    def read_repeats(self) -> int:
        """Repeats of a timed read (state, history, verify): at least 5 in a full run."""
        return self.repeats if self.quick else max(self.repeats, 5)

    def workload(self) -> Workload:
        """The real-game stream every append case records (built once per process)."""
        return _workload(self.actions_per_game)


@functools.cache
def _workload(actions_per_game: int | None) -> Workload:
    return Workload.real(actions_per_game)


@dataclass(slots=True)
class Row:
    """One line of the table: a measured case, its baseline, the ratio and the goal."""

    case: str
    measure: str  # what the figure is: "events/s", "ms", "MB", ...
    value: float | None  # None: not measured (the notes say why)
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


def paired(ours: list[float], base: list[float]) -> tuple[float, str]:
    """The median of the paired ratios ours[i] / base[i], and their range as text."""
    ratios = sorted(a / b for a, b in zip(ours, base, strict=True))
    return statistics.median(ratios), f"{ratios[0]:.2f}-{ratios[-1]:.2f}"


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    return {
        "cores": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "platform": platform.platform(),
        "sqlite": __import__("sqlite3").sqlite_version,
    }
