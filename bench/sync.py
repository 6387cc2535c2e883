"""Pinning SQLite's `synchronous` level for every connection a measured side opens.

A ratio at `synchronous=FULL` is mostly the disk's commit latency, which differs between
machines and from minute to minute; with both sides at `OFF` the same ratio is CPU per
record. chronicle and eventsourcing set their own pragmas (chronicle switches to NORMAL
and back around snapshot writes), so the level is pinned at the connection: inside
`pinned(level)` every `sqlite3.connect` returns a connection that runs the pragma at once
and rewrites any later `PRAGMA synchronous = ...` to the pinned level. `check()` then asks
each of those connections what it runs at, so a side that opened its connections some
other way is caught instead of measured at the wrong level.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LEVELS = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}
_PRAGMA = re.compile(r"PRAGMA\s+(?:main\.)?synchronous\s*=\s*['\"]?\w+['\"]?", re.IGNORECASE)


class Pin:
    """The connections opened inside one `pinned` block."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def add(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            self.connections.append(conn)

    def check(self) -> None:
        """Every connection opened in the block runs at the pinned level (or is closed)."""
        if not self.connections:
            raise RuntimeError(f"synchronous={self.level} pinned nothing: the side opened "
                               "no connection through sqlite3.connect")
        for conn in self.connections:
            try:
                got = conn.execute("PRAGMA synchronous").fetchone()[0]
            except sqlite3.ProgrammingError:  # closed: it ran pinned while it was open
                continue
            if got != LEVELS[self.level]:
                raise RuntimeError(f"a connection ran at synchronous={got}, "
                                   f"not {self.level}")


def _connection_class(level: str) -> type[sqlite3.Connection]:
    statement = f"PRAGMA synchronous = {level}"

    class Pinned(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if "PRAGMA" in sql or "pragma" in sql:  # cheap: most statements are not
                sql = _PRAGMA.sub(statement, sql)
            return super().execute(sql, *args)

        def executescript(self, script: str) -> sqlite3.Cursor:
            return super().executescript(_PRAGMA.sub(statement, script))

    return Pinned


@contextmanager
def pinned(level: str) -> Iterator[Pin]:
    """Inside the block, new sqlite3 connections run at `synchronous=level` (blocks do not
    nest: the inner one would restore the outer's patch too early)."""
    if level not in LEVELS:
        raise ValueError(f"unknown synchronous level {level!r}")
    pin = Pin(level)
    factory = _connection_class(level)
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs["factory"] = factory
        conn: sqlite3.Connection = real(*args, **kwargs)
        conn.execute(f"PRAGMA synchronous = {level}")
        pin.add(conn)
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]
    try:
        yield pin
    finally:
        sqlite3.connect = real
