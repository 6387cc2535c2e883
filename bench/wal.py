"""A write-ahead log at its working size before a side is measured.

A WAL file grows until the first checkpoint (1,000 pages) and is then written over from
its start; while it grows, every `synchronous=FULL` commit also waits for the file's new
size to reach the disk, which made a fresh connection's commits 30-40 % slower than a
warmed one's here. A server that has run for a while is past that, so every measured
database starts past it too: `warm_wal(path)` writes (at `synchronous=OFF`) and drops a
scratch table of about 2,000 pages, and keeps its connection open, since the last
connection to close checkpoints the WAL and deletes it. Call it before a side opens the
file, and outside `sync.pinned` (this connection is not the side's).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

PAGES = 1_100  # commits of one 4 kB row: past the 1,000-page autocheckpoint


def warm_wal(path: Path | str, pages: int = PAGES) -> sqlite3.Connection:
    """Grow `path`'s WAL through one checkpoint; returns the connection that keeps it.
    (`pages=0`, --quick: only the connection.)"""
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("CREATE TABLE IF NOT EXISTS bench_wal_warmup (body BLOB)")
    block = b"\x00" * 4000
    for _ in range(pages):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO bench_wal_warmup (body) VALUES (?)", (block,))
        conn.execute("COMMIT")
    conn.execute("DROP TABLE bench_wal_warmup")
    return conn
