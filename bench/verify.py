"""Case: verify the recorded sample games (chain, fold, deals, result) vs `json.loads`.

Every `fixtures/<slug>/*.jsonl` game (--quick: one of each game) is imported once, then
verified by a fresh recorder (no cursor cache) per repeat, all games in turn; the baseline
parses the same lines with `json.loads`. The rate is events per second over all the games,
in CPU time (`time.process_time`) on both sides: both run in this one thread, and on a
machine shared with other work the wall clock measured the neighbours (issue #34).
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

#: each side of a pair is its best of this many passes: CPU time too grows when the other
#: core's work shares the caches, and the 30 ms parse is hit hardest
BEST = 3


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    store = open_store(str(Path(cfg.workdir) / "verify.db"))
    paths = fixture_paths()
    if cfg.quick:  # one sample of each game
        paths = list({p.parent.name: p for p in paths}.values())
    files = [p.read_text("utf-8").splitlines() for p in paths]
    lines = [line for f in files for line in f if line.strip()]
    ids = [Recorder(store).import_lines(f).id for f in files]

    def parse() -> float:
        start = time.process_time()
        parsed = [json.loads(line) for line in lines]
        elapsed = time.process_time() - start
        assert len(parsed) == len(lines)
        return elapsed

    def verify() -> float:
        rec = Recorder(store)
        start = time.process_time()
        reports = [rec.verify(gid) for gid in ids]
        elapsed = time.process_time() - start
        bad = [r["problems"][:2] for r in reports if not r["ok"]]
        assert not bad, bad
        return elapsed

    verify()
    ours, base = [], []
    for _ in range(cfg.read_repeats):  # each side's best of BEST in turn: a pair
        base.append(len(lines) / min(parse() for _ in range(BEST)))
        ours.append(len(lines) / min(verify() for _ in range(BEST)))
    store.close()
    ratio, spread = paired(ours, base)
    rate = sorted(ours)[len(ours) // 2]
    return [Row(f"verify the {len(ids)} recorded sample games, {len(lines):,} events "
                "(chain + fold + deals + result)", "events/s (CPU)", rate,
                "json.loads of the same lines", sorted(base)[len(base) // 2], ratio,
                "≥ 0.15 of the parse rate", ratio >= 0.15,
                [f"{plural(len(ours), 'paired run')} (each side its best of {BEST} passes, "
                 f"CPU time), ratios {spread}"])]
