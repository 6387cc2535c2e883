"""Case: one writer appending real-game actions, against raw sqlite3 and eventsourcing.

The workload is bench/workload.py's stream (the recorded samples of all five games and
random legal Thrones and Emperor games, undo only where the samples have it), split
into `repeats` consecutive stretches. Each stretch is recorded by chronicle
(`Recorder.record`: schemas, the fold, the hash, one commit), then its rows are inserted by
raw sqlite3 (one commit per event) and its events saved by eventsourcing (one `save()`
per event). That is done with every side at `synchronous=FULL` (durable: a commit waits
for the disk) and again with every side at `synchronous=OFF` (no fsync: CPU per record,
which does not move with the disk). A ratio is the median of the stretches' paired
ratios, so a neighbour's burst hurts one pair, not one side. Every database's WAL starts
at its working size (bench/wal.py) and dirty pages are flushed before each side's clock
starts (`sides.settle`), so no side pays for another's unsynced writes.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from projections.rules import plural

from . import Config, Row, paired
from .sides import ChronicleSide, EventsourcingSide, PeerSide, RawSide
from .workload import Workload, slices

#: issue #34: the peer applying the same rules is the goal at both levels; eventsourcing's
#: bare save() and raw sqlite3 stay as reported rows
GOALS = {("peer", "FULL"): 1.0, ("peer", "OFF"): 1.0}


def measure(cfg: Config, workload: Workload, level: str) -> dict[str, list[float]]:
    """events/s per stretch for each side at one `synchronous` level."""
    work = Path(cfg.workdir)
    pages = cfg.wal_pages
    chronicle = ChronicleSide(work / f"append-{level}.db", workload, level, pages)
    raw = RawSide(work / f"append-raw-{level}.db", level, pages)
    es = EventsourcingSide(work / f"append-es-{level}.db", level, pages)
    peer = PeerSide(work / f"append-peer-{level}.db", workload, level, pages)
    warm = ChronicleSide(work / f"append-warm-{level}.db", workload, level, 0)
    warm.run(workload.steps[: 20 if cfg.quick else 200])  # imports, bound reducers
    warm.close()
    rates: dict[str, list[float]] = {"chronicle": [], "raw": [], "eventsourcing": [],
                                     "peer": []}
    for stretch in slices(workload.steps, cfg.repeats):
        n = len(stretch)
        rates["chronicle"].append(n / chronicle.run(stretch))
        rates["raw"].append(n / raw.run(chronicle.written))
        rates["eventsourcing"].append(n / es.run(chronicle.written))
        rates["peer"].append(n / peer.run(stretch))
    chronicle.close()
    peer.close()
    raw.close()
    es.close()
    return rates


def rows_for(level: str, rates: dict[str, list[float]], workload_note: str) -> list[Row]:
    rows = []
    ours = statistics.median(rates["chronicle"])
    for base, label in (("peer", "eventsourcing 9 application whose aggregate applies the "
                                 "same game rules to the same actions, one save() each"),
                        ("raw", "raw sqlite3 INSERT + COMMIT of the same rows"),
                        ("eventsourcing", "eventsourcing 9 bare save() of the same events")):
        ratio, spread = paired(rates["chronicle"], rates[base])
        goal = GOALS.get((base, level))
        what = "durable" if level == "FULL" else "no fsync: CPU per record"
        notes = [f"{plural(len(rates[base]), 'stretch', 'stretches')}, paired ratios {spread}; "
                 f"{1e3 / ours:.2f} ms a record"]
        if base == "raw":
            notes.append(workload_note)
        rows.append(Row(
            f"single writer, real-game actions, synchronous={level} ({what}): chronicle vs "
            f"{base}", "events/s", ours, f"{label}, synchronous={level}",
            statistics.median(rates[base]), ratio,
            "reported" if goal is None else f"≥ {goal}x its throughput",
            None if goal is None else ratio >= goal, notes))
    return rows


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    workload = cfg.workload()
    rows: list[Row] = []
    for level in ("FULL", "OFF"):
        rows += rows_for(level, measure(cfg, workload, level), workload.describe())
    return _ordered(rows)


def _ordered(rows: Sequence[Row]) -> list[Row]:
    """The goal rows first (eventsourcing FULL, OFF), then the raw ones."""
    return sorted(rows, key=lambda r: (r.ok is None, r.case))
