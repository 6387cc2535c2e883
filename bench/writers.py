"""Case: 8 threads of one process appending real-game actions to one SQLite file.

Each thread is a server thread as `chronicle serve` has them: its own store connection,
a recorder over it, one cursor cache shared by the process. Each records its own games
(the workload's games dealt out to the threads, longest first, so their loads are alike;
no two threads write one game, so no If-Match retries), all through `Recorder.record`
at chronicle's own `synchronous=FULL`. A run ends when the first thread is done with its
stretch, so the rate is that of 8 writers, not of a straggler's tail.

The baseline is raw sqlite3 committing the same rows one per transaction from one
connection (the disk's commit rate for a writer that does nothing else); the same rows
from 8 threads, one connection each, are reported beside it. The case is measured again
with every connection at `synchronous=OFF`.
"""

from __future__ import annotations

import sqlite3
import statistics
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from events import Recorder
from events.folding import CursorCache
from events.model import Envelope
from projections.rules import plural

from . import Config, Row, paired
from .sides import OneCommitEach, RawSide, recorder_on, settle
from .sync import Pin, pinned
from .wal import warm_wal
from .workload import Player, Step, Workload

GOAL = 2.0


def deal(workload: Workload, threads: int) -> list[list[Step]]:
    """Each thread's steps: whole games, longest first to the least loaded thread, kept
    in the stream's interleaved order."""
    loads = [0] * threads
    owner: dict[int, int] = {}
    by_length = sorted(range(len(workload.games)), key=lambda i: -len(workload.games[i].actions))
    for i in by_length:
        t = loads.index(min(loads))
        owner[i] = t
        loads[t] += len(workload.games[i].actions)
    out: list[list[Step]] = [[] for _ in range(threads)]
    for step in workload.steps:
        out[owner[step.game]].append(step)
    return out


class Writers:
    """`threads` recorders on one store, each with its own games created up front."""

    def __init__(self, recs: Sequence[Recorder], workload: Workload, pin: Pin | None = None,
                 keep: sqlite3.Connection | None = None) -> None:
        self.pin = pin
        self.keep = keep
        threads = len(recs)
        self.streams = deal(workload, threads)
        self.players = [Player(rec, workload) for rec in recs]
        for player, steps in zip(self.players, self.streams, strict=True):
            player.create_games(steps)
        self.calls = [list(p.calls(s)) for p, s in zip(self.players, self.streams, strict=True)]
        self.at = [0] * threads

    def run(self, chunks: int) -> tuple[float, list[list[Envelope]]]:
        """Each thread records its next 1/chunks of its steps; stops all when the first is
        done. Returns (seconds, the envelopes each thread wrote)."""
        threads = len(self.players)
        gate = threading.Barrier(threads + 1)
        stop = threading.Event()
        written: list[list[Envelope]] = [[] for _ in range(threads)]
        errors: list[BaseException] = []

        def work(t: int) -> None:
            calls = self.calls[t]
            size = -(-len(calls) // (chunks + 1))  # a spare chunk: runs stop early
            todo = calls[self.at[t]: self.at[t] + size]
            record, out = self.players[t].rec.record, written[t]
            gate.wait()
            try:
                for gid, action in todo:
                    if stop.is_set():
                        break
                    out.append(record(gid, action).event)
            except BaseException as err:  # a failed write fails the case, not silently
                errors.append(err)
            finally:
                stop.set()

        elapsed = timed_threads(work, threads, gate, errors)
        for t in range(threads):
            self.at[t] += len(written[t])
        if self.pin is not None:
            self.pin.check()
        return elapsed, written

    def close(self) -> None:
        for p in self.players:
            p.rec.store.close()
        if self.keep is not None:
            self.keep.close()


def sqlite_writers(path: Path, workload: Workload, threads: int, level: str,
                   wal_pages: int) -> Writers:
    """`threads` recorders on one SQLite file, one cursor cache shared by the process."""
    keep = warm_wal(path, wal_pages)
    cache = CursorCache()
    if level == "FULL":
        return Writers([recorder_on(path, cache) for _ in range(threads)], workload, None, keep)
    with pinned(level) as pin:
        recs = [recorder_on(path, cache) for _ in range(threads)]
    return Writers(recs, workload, pin, keep)


def raw_threads(raw: OneCommitEach, rows: Sequence[Sequence[Envelope]]) -> float:
    """Seconds for one thread per row list, each its own connection (kept across runs),
    one commit a row."""
    params = [raw.params(r) for r in rows]
    conns = raw.connections(len(rows))
    gate = threading.Barrier(len(rows) + 1)
    errors: list[BaseException] = []

    def work(t: int) -> None:
        gate.wait()
        try:
            raw.insert(conns[t], params[t])
        except BaseException as err:  # a failed baseline fails the case: it would look fast
            errors.append(err)

    return timed_threads(work, len(rows), gate, errors)


def timed_threads(work: Any, threads: int, gate: threading.Barrier,
                  errors: list[BaseException]) -> float:
    """Seconds from the moment `threads` threads of `work` pass `gate` together (dirty pages
    flushed first) until the last is done; the first error a thread kept fails the case."""
    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    settle()
    gate.wait()
    start = time.perf_counter()
    for th in pool:
        th.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    return elapsed


def measure(cfg: Config, level: str) -> dict[str, list[float]]:
    work = Path(cfg.workdir)
    workload = cfg.workload()
    pages = cfg.wal_pages
    writers = sqlite_writers(work / f"writers-{level}.db", workload, cfg.writers, level, pages)
    raw_one = RawSide(work / f"writers-raw-{level}.db", level, pages)
    raw_many = RawSide(work / f"writers-raw8-{level}.db", level, pages)
    rates: dict[str, list[float]] = {"chronicle": [], "raw": [], "raw_threads": []}
    for _ in range(cfg.repeats):
        seconds, written = writers.run(cfg.repeats)
        n = sum(len(w) for w in written)
        rates["chronicle"].append(n / seconds)
        rates["raw"].append(n / raw_one.run([e for w in written for e in w]))
        rates["raw_threads"].append(n / raw_threads(raw_many, written))
    writers.close()
    raw_one.close()
    raw_many.close()
    return rates


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    rows = []
    for level in ("FULL", "OFF"):
        rates = measure(cfg, level)
        ratio, spread = paired(rates["chronicle"], rates["raw"])
        ours, threaded = statistics.median(rates["chronicle"]), \
            statistics.median(rates["raw_threads"])
        goal = GOAL if level == "FULL" else None
        rows.append(Row(
            f"{cfg.writers} concurrent writers (threads, own games, one file), "
            f"synchronous={level}", "events/s", ours,
            f"raw sqlite3, 1 commit per event, one writer, synchronous={level}",
            statistics.median(rates["raw"]), ratio,
            "reported" if goal is None else f"≥ {goal}x its throughput",
            None if goal is None else ratio >= goal,
            [f"{plural(cfg.repeats, 'run')}, paired ratios {spread}; raw sqlite3 from "
             f"{cfg.writers} threads: {threaded:,.0f} events/s"]))
    return rows
