"""The PostgreSQL store (psycopg 3): one shared log behind several stateless API workers.

The same schema and guarantees as SQLite, enforced by the database: `(game_id, seq)` is the
primary key; a trigger refuses any UPDATE, DELETE or TRUNCATE on events; another refuses an
insert that would leave a gap in a game's seqs or break its hash chain's links. Appends lock
the game's row (`SELECT ... FOR UPDATE`), so writers on any number of workers serialize per
game, and check the last seq inside that transaction: a stale writer gets a Conflict.

Each append NOTIFYs `chronicle_events` with `game_id:seq` in its own transaction, so
`wait_for_event` (LISTEN, on a dedicated connection) wakes a spectator on any worker.

The schema migrates itself: numbered migrations recorded in `chronicle_migrations`, applied
under an advisory lock, so several workers starting at once migrate exactly once. Every
connection runs in autocommit mode: a read of one statement is one round trip (its own
snapshot, as a transaction of one statement would be; issue #34: BEGIN and COMMIT around
each were two more round trips of about a dozen per POST), and every write and every read
of several statements is an explicit, short transaction; a broken connection is
replaced: a read is retried once, and so is a write whose BEGIN found the connection dead;
a write cut off later reports StorageError, because its outcome is unknown, and the caller's
retry meets the seq check or the idempotency key.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row

from .errors import StorageError
from .postgres_schema import MIGRATIONS, TARGET
from .sql import SQLStore
from .sql_base import Dialect, Integrity, Run

log = logging.getLogger("chronicle.postgres")

T = TypeVar("T")
CHANNEL = "chronicle_events"
MIGRATION_LOCK = 0x6368726F  # "chro": pg_advisory_xact_lock key for schema migrations

POSTGRES = Dialect(
    mark="%s", json_value="%s::json",
    player_exists="EXISTS (SELECT 1 FROM json_array_elements_text(games.players) AS p "
                  "WHERE lower(p) LIKE lower(?) ESCAPE '\\')",
    # the game's row lock serializes every writer of this game, on any worker
    lock_game="SELECT id FROM games WHERE id = ? FOR UPDATE",
    decodes_json=True, target=TARGET)


def _storage_error(err: Exception, doing: str) -> StorageError:
    return StorageError("storage_write_failed" if doing == "write" else "storage_unavailable",
                        f"the PostgreSQL database failed ({type(err).__name__}: "
                        f"{str(err).strip().splitlines()[0] if str(err).strip() else ''})"
                        + ("; nothing was stored" if doing == "write" else ""))


class PostgresStore(SQLStore):
    """A store in one PostgreSQL database (the schema of the URL's search_path)."""

    dialect = POSTGRES

    def __init__(self, url: str, connect_timeout: int = 10) -> None:
        self.url = url
        self._connect_timeout = connect_timeout
        self._conn: psycopg.Connection[dict[str, Any]] | None = None
        self._listener: psycopg.Connection[Any] | None = None
        self._connection()
        if not self._read(self._up_to_date):
            self._write(self._migrate)

    # -- connections and transactions -----------------------------------------------------
    def _connection(self) -> psycopg.Connection[dict[str, Any]]:
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            return conn
        if conn is not None:
            conn.close()
        try:
            self._conn = psycopg.connect(self.url, autocommit=True, row_factory=dict_row,
                                         connect_timeout=self._connect_timeout,
                                         application_name="chronicle")
        except psycopg.Error as err:
            self._conn = None
            raise StorageError("storage_unavailable",
                               f"cannot connect to PostgreSQL: {str(err).strip()}") from None
        return self._conn

    def _read(self, work: Callable[[psycopg.Cursor[dict[str, Any]]], T],
              single: bool = False) -> T:
        """Run `work` in a short transaction (`single`: one statement, which needs none);
        retried once on a fresh connection if it broke."""
        for attempt in (1, 2):
            conn = self._connection()
            try:
                if single:
                    with conn.cursor() as cur:
                        return work(cur)
                with conn.transaction(), conn.cursor() as cur:
                    return work(cur)
            except psycopg.OperationalError as err:
                if attempt == 2 or not conn.broken:
                    raise _storage_error(err, "read") from None
                log.warning("PostgreSQL connection lost; reconnecting (%s)", err)
            except psycopg.Error as err:
                raise _storage_error(err, "read") from None
        raise AssertionError("unreachable")

    def _write(self, work: Callable[[psycopg.Cursor[dict[str, Any]]], T],
               conflicts: bool = False) -> T:
        """Run `work` in one transaction; with `conflicts`, integrity errors pass through.

        A connection found dead at BEGIN (the server restarted while it idled) is replaced
        and the write tried once more: nothing of it had been sent.
        """
        for attempt in (1, 2):
            conn = self._connection()
            begun = False
            try:
                with conn.transaction():
                    begun = True
                    with conn.cursor() as cur:
                        return work(cur)
            except psycopg.IntegrityError as err:
                if conflicts:
                    raise
                raise _storage_error(err, "write") from None
            except psycopg.OperationalError as err:
                if begun or attempt == 2 or not conn.broken:
                    raise _storage_error(err, "write") from None
                log.warning("PostgreSQL connection lost; reconnecting (%s)", err)
            except psycopg.Error as err:
                raise _storage_error(err, "write") from None
        raise AssertionError("unreachable")

    @staticmethod
    def _up_to_date(cur: psycopg.Cursor[dict[str, Any]]) -> bool:
        """True if every migration is applied (the common case: no lock needed)."""
        row = cur.execute("SELECT to_regclass('chronicle_migrations') IS NOT NULL AS ok"
                          ).fetchone()
        if not row or not row["ok"]:
            return False
        done = cur.execute("SELECT count(*) AS n FROM chronicle_migrations").fetchone()
        return done is not None and int(done["n"]) >= len(MIGRATIONS)

    def _migrate(self, cur: psycopg.Cursor[dict[str, Any]]) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        cur.execute("CREATE TABLE IF NOT EXISTS chronicle_migrations ("
                    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        cur.execute("SELECT version FROM chronicle_migrations")
        done = {row["version"] for row in cur.fetchall()}
        for version, name, sql in MIGRATIONS:
            if version in done:
                continue
            log.info("applying PostgreSQL migration %03d_%s", version, name)
            cur.execute(sql.encode("utf-8"))
            cur.execute("INSERT INTO chronicle_migrations (version, name) VALUES (%s, %s)",
                        (version, name))

    def migrations(self) -> list[int]:
        """The applied migration numbers."""
        return self._read(lambda cur: [r["version"] for r in cur.execute(
            "SELECT version FROM chronicle_migrations ORDER BY version").fetchall()])

    # -- the primitives of sql.py ----------------------------------------------------------
    def _rows(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        return self._read(lambda cur: cur.execute(sql, params).fetchall(), single=True)

    def _transaction(self, work: Callable[[Run], T], *, cache: bool = False) -> T:
        def run_all(cur: psycopg.Cursor[dict[str, Any]]) -> T:
            def run(sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
                cur.execute(sql, params)
                return cur.fetchall() if cur.description is not None else []

            return work(run)

        try:
            return self._write(run_all, conflicts=True)
        except psycopg.IntegrityError as err:
            raise Integrity(str(err)) from None

    def _after_append(self, run: Run, game_id: str, seq: int) -> None:
        run("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{seq}"))

    # -- live spectators ----------------------------------------------------------------------
    def wait_for_event(self, game_id: str, after: int, timeout: float) -> bool:
        """LISTEN on a dedicated connection: woken by an append on any worker."""
        try:
            listener = self._listening()
        except psycopg.Error as err:
            log.warning("LISTEN unavailable (%s); polling instead", err)
            return super().wait_for_event(game_id, after, timeout)
        last = self.last_event(game_id)  # after LISTEN, so no append slips between
        if last is not None and last["seq"] > after:
            return True
        try:
            for note in listener.notifies(timeout=max(0.0, timeout)):
                gid, _, seq = note.payload.rpartition(":")
                if gid == game_id and seq.isdigit() and int(seq) > after:
                    return True
        except psycopg.Error as err:
            log.warning("LISTEN connection lost (%s)", err)
            self._drop_listener()
        last = self.last_event(game_id)
        return last is not None and last["seq"] > after

    def _listening(self) -> psycopg.Connection[Any]:
        listener = self._listener
        if listener is None or listener.closed or listener.broken:
            self._drop_listener()
            listener = psycopg.connect(self.url, autocommit=True,
                                       connect_timeout=self._connect_timeout,
                                       application_name="chronicle-listen")
            listener.execute(f"LISTEN {CHANNEL}")
            self._listener = listener
        return listener

    def _drop_listener(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def close(self) -> None:
        self._drop_listener()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
