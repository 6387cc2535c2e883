"""Case: the state at the last step of a long game vs the state at step 1,000.

Snapshots every K events make "state at step n" O(K), independent of the game's length,
so the two should cost about the same. Each call uses a fresh recorder (an empty cursor
cache, like another server process), so it reads a snapshot and folds at most K events.
The first call after the game was stored builds the snapshots; it is reported apart.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from events import Recorder

from . import Config, Row
from .data import copy_of, open_store, pristine_long_game


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    events = cfg.long_events
    pristine, gid = pristine_long_game(cfg.workdir, events)
    store = open_store(copy_of(pristine, Path(cfg.workdir) / "state.db"))
    last, early = events - 1, min(1_000, events // 2)

    def state_at(at: int) -> float:
        rec = Recorder(store)
        start = time.perf_counter()
        doc = rec.state(gid, at=at)
        elapsed = time.perf_counter() - start
        assert doc["seq"] == at
        return elapsed

    first = state_at(last)
    late, soon = [], []
    for _ in range(max(cfg.repeats, 5)):
        late.append(state_at(last))
        soon.append(state_at(early))
    store.close()
    t_late, t_early = statistics.median(late), statistics.median(soon)
    ratio = t_late / t_early
    return [
        Row(f"state at step {last:,} of a {events:,}-event game", "ms", t_late * 1e3,
            f"state at step {early:,}", t_early * 1e3, ratio, "time ratio ≤ 2", ratio <= 2),
        Row("first state of that game after it was stored (folds all, writes snapshots)",
            "ms", first * 1e3),
    ]
