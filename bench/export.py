"""Case: export the long game; its peak memory must not grow with the game (streamed).

Each run is a fresh process (`python -m bench.export_worker`) that opens the store, notes
its peak RSS, consumes `Recorder.export` line by line into a byte count, and notes its peak
RSS again. The game is stored as an import leaves it (no snapshots), so the first run is
the worst case (cold): it also folds the game to learn whether it is finished.
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
from .longgame import build
from .workload import ROOT


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    game = build(cfg.workdir, cfg.long_events)
    path = game.copy(Path(cfg.workdir) / "export.db")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = []
    for _ in range(2):  # cold (no snapshots yet), then warm
        out = subprocess.run([sys.executable, "-m", "bench.export_worker", str(path),
                              game.game_id], capture_output=True, text=True, check=True,
                             cwd=ROOT, env=env, timeout=600)
        runs.append(json.loads(out.stdout))
    for r in runs:
        assert r["lines"] == game.events, r
    cold, warm = runs
    growth = cold["rss_growth_mb"]
    return [Row(f"cold export of a {game.events:,}-event game: peak memory growth", "MB",
                growth, goal="grows by < 50 MB (streamed)", ok=growth < 50,
                notes=[f"peak RSS {cold['rss_before_mb'] + growth:.0f} MB, "
                       f"{cold['seconds']:.2f} s; warm (snapshots stored): "
                       f"{warm['rss_growth_mb']:.1f} MB, {warm['seconds']:.2f} s"]),
            Row(f"export of a {game.events:,}-event game: throughput (cold, warm median)",
                "events/s", game.events / statistics.median(r["seconds"] for r in runs))]
