"""The embedded SQLite store (the default), via sqlite-utils.

WAL mode; `(game_id, seq)` as the primary key; triggers that abort any UPDATE or DELETE on
events (sqlite_schema.py), so immutability is a fact of the database, not a promise of the
code. A write runs in `BEGIN IMMEDIATE` and checks the seq against the last one inside the
transaction, so concurrent writers serialize and a stale one gets a Conflict. Appends of
one process to one file are group-committed (events/group.py): those waiting together
share one transaction, each in its own SAVEPOINT with its own seq check, and each is
answered after the one `synchronous = FULL` commit that covers it. Its statements are the
ones both stores share (sql.py).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # Windows: SQLite's busy handler queues the processes
    fcntl = None  # type: ignore[assignment]

from sqlite_utils import Database

from .errors import StorageError
from .group import GroupCommit, Pending, group_for
from .sql import SQLStore
from .sql_base import Dialect, Integrity, Run
from .sqlite_schema import migrations

T = TypeVar("T")

#: one writer lock per database file in this process (see SQLiteStore._writing), and
#: the lock of that file between processes
_WRITE_LOCKS: dict[str, tuple[threading.RLock, ProcessLock]] = {}
_WRITE_LOCKS_GUARD = threading.Lock()
#: beside the database, the file whose flock queues the writers of every process
WRITER_SUFFIX = "-writer"

SQLITE = Dialect(
    mark="?", json_value="?",
    player_exists="EXISTS (SELECT 1 FROM json_each(games.players) "
                  "WHERE lower(json_each.value) LIKE lower(?) ESCAPE '\\')",
    lock_game=None,  # BEGIN IMMEDIATE holds the whole file's write lock
    decodes_json=False, target="json_extract(data, '$.target_seq')")


def _write_lock(path: str) -> tuple[threading.RLock, ProcessLock]:
    if path == ":memory:":
        return threading.RLock(), ProcessLock(path)  # a private database per connection
    with _WRITE_LOCKS_GUARD:
        real = os.path.realpath(path)
        if real not in _WRITE_LOCKS:
            _WRITE_LOCKS[real] = (threading.RLock(), ProcessLock(path))
        return _WRITE_LOCKS[real]


class ProcessLock:
    """The writers of every process (gunicorn's workers, a CLI beside a server) queue on
    one flock of `<db>-writer` (issue #34). Without it a second process met the first one's
    write lock in SQLite's busy handler, which sleeps in growing steps (1, 2, 5, ... 100 ms)
    and polls: two workers recorded fewer actions a second than one. A blocked flock wakes
    when the holder lets go.

    One per database file and process, entered only under that file's thread lock
    (`_write_lock`), so its depth needs no lock of its own; reopened after a fork (a child
    sharing its parent's open file would share its lock). Where there is no flock
    (Windows) or no plain path (":memory:", a file: URI), SQLite's busy handler stays the
    only queue between processes."""

    def __init__(self, path: str) -> None:
        plain = path != ":memory:" and not path.startswith("file:")
        self.path = path + WRITER_SUFFIX if plain and fcntl is not None else None
        self._fd: int | None = None
        self._pid = 0
        self._depth = 0

    def __enter__(self) -> None:
        self._depth += 1
        if self.path is None or self._depth > 1:
            return
        if self._fd is None or self._pid != os.getpid():
            self._fd, self._pid = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), os.getpid()
        fcntl.flock(self._fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)


class SQLiteStore(SQLStore):
    """A store in one SQLite file."""

    dialect = SQLITE

    def __init__(self, path: str) -> None:
        self.url = path
        # Threads of one process queue here for the write; SQLite's own busy handler
        # sleeps in growing steps (up to 100 ms) and left the file idle between writers.
        self._writing, self._processes = _write_lock(path)
        #: appends waiting together commit together; an in-memory database is private
        self._group = GroupCommit() if path == ":memory:" else group_for(path)
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
        with self._writing, self._processes:
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

    # -- group commit (events/group.py) ----------------------------------------------------
    def _append(self, work: Callable[[Run], T]) -> T:
        result: T = self._group.submit(work, self._commit_batch)
        return result

    def _commit_batch(self, batch: Sequence[Pending]) -> None:
        """Every append of `batch` in one transaction, each in its own SAVEPOINT; a refused
        one (stale seq, taken key, a bug) is rolled back alone. If the database fails the
        transaction, none is stored and each is told so."""
        with self._writing, self._processes:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                for pending in batch:
                    pending.error = StorageError(
                        "storage_unavailable", f"the database cannot take a write ({err}); "
                        "nothing was stored")
                return
            try:
                for pending in batch:
                    self._run_one(pending, savepoint=len(batch) > 1)
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                for pending in batch:
                    if pending.error is None:
                        pending.result = None
                        pending.error = StorageError(
                            "storage_write_failed", f"the database refused the write ({err}); "
                            "nothing was stored")
            except BaseException:
                self._rollback()
                raise

    def _run_one(self, pending: Pending, savepoint: bool) -> None:
        """One append of the batch; refused, it is undone alone: its SAVEPOINT, or (a batch
        of one needs none) the whole transaction."""
        if savepoint:
            self.conn.execute("SAVEPOINT append")
        error: Exception
        try:
            pending.result = pending.work(self._run)
        except sqlite3.IntegrityError as err:
            error = Integrity(str(err))
        except sqlite3.Error:
            raise  # the database failed: the whole transaction goes
        except Exception as err:  # a Conflict (stale seq) or a bug: this append alone
            error = err
        else:
            if savepoint:
                self.conn.execute("RELEASE append")
            return
        if savepoint:
            self.conn.execute("ROLLBACK TO append")
            self.conn.execute("RELEASE append")
        else:
            self._rollback()
        pending.error = error

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.db.close()

