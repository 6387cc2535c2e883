"""Case: export a long game; its peak memory must not grow with the game (streamed).

Each run is a fresh process (`python -m bench.export_worker`) that opens the store, notes
its peak RSS, consumes `Recorder.export` line by line into a byte count, and notes its peak
RSS again. The game is stored as an import leaves it (no snapshots), so the first run is
the worst case: it also folds the game to learn whether it is finished.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from . import Config, Row
from .data import ROOT, copy_of, pristine_long_game


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    events = cfg.long_events
    pristine, gid = pristine_long_game(cfg.workdir, events)
    path = copy_of(pristine, Path(cfg.workdir) / "export.db")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = []
    for _ in range(2):  # cold (no snapshots yet), then warm
        out = subprocess.run([sys.executable, "-m", "bench.export_worker", str(path), gid],
                             capture_output=True, text=True, check=True, cwd=ROOT, env=env,
                             timeout=300)
        runs.append(json.loads(out.stdout))
    for r in runs:
        assert r["lines"] == events, r
    growth = max(r["rss_growth_mb"] for r in runs)
    seconds = statistics.median(r["seconds"] for r in runs)
    cold = runs[0]
    peak = max(r["rss_before_mb"] + r["rss_growth_mb"] for r in runs)
    return [Row(f"export a {events:,}-event game: peak memory growth (worst run)", "MB",
                growth, goal="grows by < 50 MB (streamed)", ok=growth < 50,
                notes=[f"peak RSS {peak:.0f} MB; "
                       f"first run (no snapshots yet): {cold['rss_growth_mb']:.1f} MB, "
                       f"{cold['seconds']:.2f} s; median {seconds:.2f} s, "
                       f"{events / seconds:,.0f} events/s"]),
            Row(f"export a {events:,}-event game: throughput (median)", "events/s",
                events / seconds)]
