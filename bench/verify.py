"""Case: verify the recorded sample games (chain, fold, deals, result) vs `json.loads`.

Every `fixtures/<slug>/*.jsonl` game (--quick: one of each game) is imported once, then
verified by a fresh recorder (no cursor cache) per repeat, all games in turn; the baseline
parses the same lines with `json.loads`. The rate is events per second over all the games.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from events import Recorder, open_store
from projections.rules import plural

from . import Config, Row, paired
from .workload import fixture_paths


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    store = open_store(str(Path(cfg.workdir) / "verify.db"))
    paths = fixture_paths()
    if cfg.quick:  # one sample of each game
        paths = list({p.parent.name: p for p in paths}.values())
    files = [p.read_text("utf-8").splitlines() for p in paths]
    lines = [line for f in files for line in f if line.strip()]
    ids = [Recorder(store).import_lines(f).id for f in files]

    def parse() -> float:
        start = time.perf_counter()
        parsed = [json.loads(line) for line in lines]
        elapsed = time.perf_counter() - start
        assert len(parsed) == len(lines)
        return elapsed

    def verify() -> float:
        rec = Recorder(store)
        start = time.perf_counter()
        reports = [rec.verify(gid) for gid in ids]
        elapsed = time.perf_counter() - start
        bad = [r["problems"][:2] for r in reports if not r["ok"]]
        assert not bad, bad
        return elapsed

    verify()
    ours, base = [], []
    for _ in range(cfg.read_repeats):
        base.append(len(lines) / parse())
        ours.append(len(lines) / verify())
    store.close()
    ratio, spread = paired(ours, base)
    rate = sorted(ours)[len(ours) // 2]
    return [Row(f"verify the {len(ids)} recorded sample games, {len(lines):,} events "
                "(chain + fold + deals + result)", "events/s", rate,
                "json.loads of the same lines", sorted(base)[len(base) // 2], ratio,
                "≥ 0.15 of the parse rate", ratio >= 0.15,
                [f"{plural(len(ours), 'paired run')}, ratios {spread}"])]
