"""Case: verify a long game (chain, fold, result) vs `json.loads` of its JSON Lines."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from events import Recorder
from events.model import to_jsonl

from . import Config, Row
from .data import open_store, store_long_game


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    store = open_store(Path(cfg.workdir) / "verify.db")
    events = cfg.verify_events
    gid = store_long_game(Recorder(store), "verify", events)
    lines = [to_jsonl(env) for env in store.events(gid)]

    def parse() -> float:
        start = time.perf_counter()
        parsed = [json.loads(line) for line in lines]
        elapsed = time.perf_counter() - start
        assert len(parsed) == events
        return elapsed

    def verify() -> float:
        rec = Recorder(store)
        start = time.perf_counter()
        report = rec.verify(gid)
        elapsed = time.perf_counter() - start
        assert report["ok"], report["problems"][:3]
        return elapsed

    verify()
    ours, base = [], []
    for _ in range(cfg.repeats):
        base.append(events / parse())
        ours.append(events / verify())
    store.close()
    rate, base_rate = statistics.median(ours), statistics.median(base)
    ratio = rate / base_rate
    return [Row(f"verify a {events:,}-event game (chain + fold + result)", "events/s", rate,
                "json.loads of its JSON Lines", base_rate, ratio, "≥ 0.1 of the parse rate",
                ratio >= 0.1)]
