"""The embedded SQLite store (the default), via sqlite-utils.

WAL mode; `(game_id, seq)` as the primary key; triggers that abort any UPDATE or DELETE on
events (sqlite_schema.py), so immutability is a fact of the database, not a promise of the
code. A write runs in `BEGIN IMMEDIATE` and checks the seq against the last one inside the
transaction, so concurrent writers serialize and a stale one gets a Conflict. Its
statements are the ones both stores share (sql.py).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlite_utils import Database

from .errors import StorageError
from .sql import Dialect, Integrity, Run, SQLStore
from .sqlite_schema import migrations

T = TypeVar("T")

#: one writer lock per database file in this process (see SQLiteStore._writing)
_WRITE_LOCKS: dict[str, threading.RLock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()

SQLITE = Dialect(
    mark="?", json_value="?",
    player_exists="EXISTS (SELECT 1 FROM json_each(games.players) "
                  "WHERE lower(json_each.value) LIKE lower(?) ESCAPE '\\')",
    lock_game="SELECT id FROM games WHERE id = ?",  # BEGIN IMMEDIATE holds the write lock
    decodes_json=False)


def _write_lock(path: str) -> threading.RLock:
    if path == ":memory:":
        return threading.RLock()  # a private database per connection
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(os.path.realpath(path), threading.RLock())


class SQLiteStore(SQLStore):
    """A store in one SQLite file."""

    dialect = SQLITE

    def __init__(self, path: str) -> None:
        self.url = path
        # Threads of one process queue here for the write; SQLite's own busy handler
        # sleeps in growing steps (up to 100 ms) and left the file idle between writers.
        self._writing = _write_lock(path)
        try:
            # a file: URI opens with its parameters, e.g. file:chronicle.db?mode=ro
            conn = sqlite3.connect(path, timeout=30, isolation_level=None,
                                   check_same_thread=False, uri=path.startswith("file:"))
            conn.execute("PRAGMA busy_timeout = 30000")
            self.db = Database(conn)
            if path != ":memory:":
                self.db.enable_wal()
            self.db.execute("PRAGMA foreign_keys = ON")
            # FULL: an acknowledged append survives a power cut, not only a crash
            self.db.execute("PRAGMA synchronous = FULL")
            if migrations.pending(self.db):
                self._migrate()
        except sqlite3.Error as err:
            raise StorageError("storage_unavailable",
                               f"cannot open the database {path!r}: {err}") from None

    def _migrate(self) -> None:
        try:
            migrations.apply(self.db)
        except sqlite3.OperationalError:
            if migrations.pending(self.db):  # another process may have migrated first
                raise

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def _rows(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        """Rows as dicts, straight from the connection: sqlite_utils' query wraps every
        SELECT in a SAVEPOINT and dedupes keys, which doubled the cost of a point read."""
        try:
            cursor = self.conn.execute(sql, params)
        except sqlite3.Error as err:
            raise StorageError("storage_unavailable", f"the database cannot be read ({err})"
                               ) from None
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _run(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        if cursor.description is None:
            return []
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _transaction(self, work: Callable[[Run], T], *, cache: bool = False) -> T:
        with self._writing:
            if cache:
                # a cache's commit need not wait for the disk (synchronous=NORMAL keeps the
                # WAL consistent; the next event's FULL commit syncs it anyway)
                self.conn.execute("PRAGMA synchronous = NORMAL")
            try:
                return self._locked(work)
            finally:
                if cache:
                    self.conn.execute("PRAGMA synchronous = FULL")

    def _locked(self, work: Callable[[Run], T]) -> T:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StorageError("storage_unavailable", f"the database cannot take a write "
                               f"({err}); nothing was stored") from None
        try:
            result = work(self._run)
            self.conn.execute("COMMIT")
            return result
        except sqlite3.IntegrityError as err:
            self._rollback()
            raise Integrity(str(err)) from None
        except sqlite3.Error as err:
            self._rollback()
            raise StorageError("storage_write_failed",
                               f"the database refused the write ({err}); nothing was stored"
                               ) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.db.close()

