"""Case: a 200-event page of history at the end of the long game vs of a 1,000-event game.

The short game is the long one's first 1,000 events (the same play), so the two pages hold
the same kind of events; only the length of the log differs, and a page should not cost
more because more came before it. Read as a spectator (no token: the web viewer's
request, with the redaction fold) and by the recorder (who sees everything), each call
with a fresh recorder (an empty cursor cache).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from events import Access, Recorder, open_store

from . import Config, Row
from .longgame import build


def page_time(path: Path, game_id: str, last: int, size: int, access: Access,
              repeats: int) -> float:
    """Median seconds of the page of `size` events ending at `last`."""
    store = open_store(str(path))
    times = []
    for _ in range(repeats):
        rec = Recorder(store)
        start = time.perf_counter()
        events, _ = rec.history(game_id, after=last - size, limit=size, access=access)
        times.append(time.perf_counter() - start)
        assert len(events) == size and events[-1]["seq"] == last, (len(events), last)
    store.close()
    return statistics.median(times)


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    work = Path(cfg.workdir)
    long_game = build(cfg.workdir, cfg.long_events)
    short_events = min(1_000, cfg.long_events // 2)
    short_game = build(cfg.workdir, short_events)
    size = min(cfg.history_page, short_events // 2)
    repeats = cfg.read_repeats
    long_path = long_game.warm_copy(work / "history-long.db")  # snapshots written
    short_path = short_game.warm_copy(work / "history-short.db")
    rows = []
    for who, access in (("spectator", Access("spectator")), ("recorder", Access.local())):
        t_long = page_time(long_path, long_game.game_id, long_game.events - 1, size, access,
                           repeats)
        t_short = page_time(short_path, short_game.game_id, short_events - 1, size, access,
                            repeats)
        ratio = t_long / t_short
        goal = who == "spectator"
        rows.append(Row(
            f"a {size}-event history page ({who}) at the end of a {long_game.events:,}-event "
            "game", "ms", t_long * 1e3, f"the same page of a {short_events:,}-event game",
            t_short * 1e3, ratio, "time ratio ≤ 2" if goal else "reported",
            ratio <= 2 if goal else None))
    return rows
