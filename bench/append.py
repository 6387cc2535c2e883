"""Case: append one validated action, one event per transaction, vs a raw sqlite3 INSERT.

chronicle's path is `Recorder.record`: schema, the fold (reducer), the hash, the SQLite
commit. The baseline inserts the same rows into a table of the same shape with the same
PRAGMAs (WAL, synchronous=FULL), one `BEGIN IMMEDIATE` ... `COMMIT` per row. Runs are
interleaved so a noisy neighbour hurts both sides alike.
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from events import Recorder
from events.model import ENVELOPE_FIELDS, Envelope

from . import Config, Row
from .data import control_action, new_table_game, open_store

UNDO = {"type": "undo", "actor": "table", "data": {}}


class ChronicleAppender:
    """Records control, undo, control, undo ... into one table-mode game."""

    def __init__(self, path: Path) -> None:
        self.store = open_store(path)
        self.rec = Recorder(self.store)
        self.game_id = new_table_game(self.rec)

    def run(self, n: int) -> float:
        """Seconds for `n` records, each its own transaction."""
        record, gid, control = self.rec.record, self.game_id, control_action()
        start = time.perf_counter()
        for i in range(n):
            record(gid, control if i % 2 == 0 else UNDO)
        return time.perf_counter() - start

    def rows(self, n: int) -> list[Envelope]:
        return list(self.store.events(self.game_id))[-n:]

    def close(self) -> None:
        self.store.close()


class RawAppender:
    """The same rows through plain sqlite3: INSERT + COMMIT, same PRAGMAs."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute(
            "CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, "
            "type TEXT NOT NULL, actor TEXT NOT NULL, data TEXT NOT NULL, "
            "recorded_at TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, "
            "salt TEXT NOT NULL, idempotency_key TEXT, PRIMARY KEY (game_id, seq)) STRICT")
        self.sql = (f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) "
                    f"VALUES ({', '.join('?' * len(ENVELOPE_FIELDS))})")
        self.next_seq = 0

    def run(self, rows: list[Envelope]) -> float:
        import json

        params: list[tuple[Any, ...]] = []
        for env in rows:
            values = {**env, "actor": json.dumps(env["actor"]),
                      "data": json.dumps(env["data"], sort_keys=True), "seq": self.next_seq}
            self.next_seq += 1
            params.append(tuple(values[k] for k in ENVELOPE_FIELDS))
        execute = self.conn.execute
        start = time.perf_counter()
        for p in params:
            execute("BEGIN IMMEDIATE")
            execute(self.sql, p)
            execute("COMMIT")
        return time.perf_counter() - start

    def close(self) -> None:
        self.conn.close()


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    work = Path(cfg.workdir)
    chronicle = ChronicleAppender(work / "append.db")
    raw = RawAppender(work / "append_raw.db")
    n = cfg.appends
    chronicle.run(min(n, 20))  # warm up: imports, caches, first snapshot
    rows = chronicle.rows(n)
    raw.run(rows[: min(n, 20)])
    ours, base = [], []
    for _ in range(cfg.repeats):
        ours.append(n / chronicle.run(n))
        base.append(len(rows) / raw.run(rows))
    chronicle.close()
    raw.close()
    rate, base_rate = statistics.median(ours), statistics.median(base)
    shared["append_rate"] = rate
    ratio = rate / base_rate
    return [Row("append one validated action (1 event / transaction)", "events/s", rate,
                "raw sqlite3 INSERT + COMMIT, same row, WAL, synchronous=FULL", base_rate,
                ratio, "≥ 0.5 of baseline throughput", ratio >= 0.5)]
