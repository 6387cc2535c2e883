"""Case: the state at the last step of the long game vs the state at step 1,000.

Snapshots every K events make "state at step n" O(K), independent of the game's length,
so the two should cost about the same. Each call uses a fresh recorder (an empty cursor
cache, like another server process), so it reads a snapshot and folds at most K events.
The snapshots are left by a write's fold (as an import does; reads write nothing since
issue #32), timed and reported apart.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from events import Recorder, open_store

from . import Config, Row
from .longgame import build


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    game = build(cfg.workdir, cfg.long_events)
    path = game.copy(Path(cfg.workdir) / "state.db")
    store = open_store(str(path))
    last, early = game.events - 1, min(1_000, game.events // 2)

    def state_at(at: int) -> float:
        rec = Recorder(store)
        start = time.perf_counter()
        doc = rec.state(game.game_id, at=at)
        elapsed = time.perf_counter() - start
        assert doc["seq"] == at
        return elapsed

    start = time.perf_counter()
    Recorder(store).catch_up(game.game_id)  # a write's fold: the snapshots an import leaves
    first = time.perf_counter() - start
    late, soon = [], []
    for _ in range(cfg.read_repeats):
        late.append(state_at(last))
        soon.append(state_at(early))
    store.close()
    game.keep_warm(path)
    t_late, t_early = statistics.median(late), statistics.median(soon)
    ratio = t_late / t_early
    return [
        Row(f"state at step {last:,} of a {game.events:,}-event game", "ms", t_late * 1e3,
            f"state at step {early:,}", t_early * 1e3, ratio, "time ratio ≤ 2", ratio <= 2,
            [game.describe()]),
        Row("the write that leaves that game's snapshots (folds all events, as an import)",
            "ms", first * 1e3),
    ]
