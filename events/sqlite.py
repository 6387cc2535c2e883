"""The embedded SQLite store (the default), via sqlite-utils.

WAL mode; `UNIQUE(game_id, seq)` as the primary key; triggers that abort any UPDATE or
DELETE on events, so immutability is a fact of the database, not a promise of the code.
Appends run in `BEGIN IMMEDIATE` and check the seq against the last one inside the
transaction, so concurrent writers serialize and a stale one gets a Conflict.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from sqlite_utils import Database, Migrations

from .errors import Conflict, StorageError
from .model import ENVELOPE_FIELDS, Envelope
from .store import GameFilter, Store, Summary, fault_point

migrations = Migrations("chronicle")

#: one writer lock per database file in this process (see SQLiteStore._writing)
_WRITE_LOCKS: dict[str, threading.RLock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def _write_lock(path: str) -> threading.RLock:
    if path == ":memory:":
        return threading.RLock()  # a private database per connection
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(os.path.realpath(path), threading.RLock())


@migrations()
def m001_initial(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            rules_version TEXT NOT NULL,
            players TEXT NOT NULL,
            mode TEXT NOT NULL,
            edition_name TEXT NOT NULL,
            edition_sha256 TEXT NOT NULL,
            created_at TEXT NOT NULL,
            title TEXT,
            notes TEXT,
            status TEXT NOT NULL DEFAULT 'in_progress',
            result TEXT,
            audit TEXT
        ) STRICT;
        CREATE INDEX games_by_game ON games(game, created_at);
        CREATE TABLE events (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL CHECK (seq >= 0),
            type TEXT NOT NULL,
            actor TEXT NOT NULL,
            data TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            salt TEXT NOT NULL,
            idempotency_key TEXT,
            PRIMARY KEY (game_id, seq)
        ) STRICT;
        CREATE UNIQUE INDEX events_idempotency ON events(game_id, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END;
        CREATE TABLE editions (
            sha256 TEXT PRIMARY KEY,
            slug TEXT NOT NULL,
            name TEXT NOT NULL,
            content TEXT NOT NULL,
            added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE TABLE tokens (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            role TEXT NOT NULL
        ) STRICT;
        CREATE TABLE seeds (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            seed TEXT NOT NULL
        ) STRICT;
        CREATE TABLE snapshots (
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            key TEXT NOT NULL,
            blob BLOB NOT NULL,
            PRIMARY KEY (game_id, key, seq)
        ) STRICT;
        """
    )


@migrations()
def m002_digests(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE digests (
            game_id TEXT NOT NULL,
            key TEXT NOT NULL,
            seq INTEGER NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (game_id, key, seq)
        ) STRICT;
        """
    )


@migrations()
def m003_seed_salt(db: Database) -> None:
    db.executescript("ALTER TABLE seeds ADD COLUMN salt TEXT;")


def _row_to_envelope(row: Mapping[str, Any]) -> Envelope:
    env = dict(row)
    env["actor"] = json.loads(env["actor"])
    env["data"] = json.loads(env["data"])
    return {k: env[k] for k in ENVELOPE_FIELDS}


def _game_row(row: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["players"] = json.loads(out["players"])
    out["result"] = json.loads(out["result"]) if out.get("result") else None
    return out


class SQLiteStore(Store):
    """A store in one SQLite file."""

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

    def _query(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        """Rows as dicts, straight from the connection: sqlite_utils' query wraps every
        SELECT in a SAVEPOINT and dedupes keys, which doubled the cost of a point read."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _write(self, sql_and_params: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._writing:
            self._write_locked(sql_and_params)

    def _write_locked(self, sql_and_params: list[tuple[str, tuple[Any, ...]]]) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in sql_and_params:
                    self.conn.execute(sql, params)
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as err:
            raise StorageError("storage_write_failed",
                               f"the database refused the write ({err}); nothing was stored"
                               ) from None

    # -- games ---------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        rows = self._query("SELECT * FROM games WHERE id = ?", [game_id])
        return _game_row(rows[0]) if rows else None

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        where, params = ["1 = 1"], []
        if flt.game:
            where.append("game = ?")
            params.append(flt.game)
        if flt.status:
            where.append("status = ?")
            params.append(flt.status)
        if flt.player:
            where.append("EXISTS (SELECT 1 FROM json_each(games.players) "
                         "WHERE lower(json_each.value) LIKE lower(?))")
            params.append(f"%{flt.player}%")
        if flt.created_from:
            where.append("created_at >= ?")
            params.append(flt.created_from)
        if flt.created_to:
            where.append("created_at <= ?")
            params.append(flt.created_to)
        clause = " AND ".join(where)
        total = next(self.db.query(f"SELECT count(*) AS n FROM games WHERE {clause}", params))
        rows = self.db.query(
            f"SELECT * FROM games WHERE {clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?",
            [*params, flt.limit, flt.offset])
        return [_game_row(r) for r in rows], int(total["n"])

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        self._write([("UPDATE games SET status = ?, result = ?, audit = coalesce(?, audit) "
                      "WHERE id = ?",
                      (status, json.dumps(result) if result is not None else None, audit,
                       game_id))])

    def digests(self, game_id: str, digest_key: str) -> dict[int, str]:
        rows = self.conn.execute("SELECT seq, digest FROM digests WHERE game_id = ? AND key = ?",
                                 (game_id, digest_key))
        return {int(seq): digest for seq, digest in rows}

    def put_digests(self, game_id: str, digest_key: str, digests: Mapping[int, str]) -> None:
        try:
            self._write([("INSERT OR REPLACE INTO digests (game_id, key, seq, digest) "
                          "VALUES (?, ?, ?, ?)", (game_id, digest_key, seq, digest))
                         for seq, digest in digests.items()])
        except StorageError:
            pass

    # -- events --------------------------------------------------------------
    @staticmethod
    def _insert_event(env: Envelope) -> tuple[str, tuple[Any, ...]]:
        values = dict(env)
        values["actor"] = json.dumps(env["actor"])
        values["data"] = json.dumps(env["data"], ensure_ascii=False, sort_keys=True)
        return (f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) "
                f"VALUES ({', '.join('?' * len(ENVELOPE_FIELDS))})",
                tuple(values[k] for k in ENVELOPE_FIELDS))

    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        with self._writing:
            self._append_locked(envelopes, summary)

    def _append_locked(self, envelopes: Sequence[Envelope], summary: Summary | None) -> None:
        game_id, seq = envelopes[0]["game_id"], envelopes[0]["seq"]
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StorageError("storage_unavailable", f"the database cannot take a write "
                               f"({err}); nothing was stored") from None
        try:
            last = self.conn.execute("SELECT max(seq) FROM events WHERE game_id = ?",
                                     (game_id,)).fetchone()[0]
            if last is None or seq != last + 1:
                raise Conflict("stale_sequence",
                               f"event {seq} cannot follow: the game's last seq is {last}",
                               expected_seq=(last or 0) + 1, last_seq=last)
            for i, env in enumerate(envelopes):
                if i == 1:
                    fault_point("between_action_and_server_events")
                self.conn.execute(*self._insert_event(env))
            if summary is not None:
                for sql, params in self._summary_ops(game_id, summary):
                    self.conn.execute(sql, params)
            self.conn.execute("COMMIT")
        except sqlite3.IntegrityError as err:
            self._rollback()
            if "idempotency_key" in str(err):
                raise Conflict("idempotency_key_taken", "this Idempotency-Key is already "
                               "stored with another event of this game") from None
            raise Conflict("stale_sequence", f"seq {seq} was taken by another writer ({err})",
                           last_seq=seq) from None
        except sqlite3.Error as err:
            self._rollback()
            raise StorageError("storage_write_failed",
                               f"the database refused the write ({err}); nothing was stored"
                               ) from None
        except BaseException:
            self._rollback()
            raise

    @staticmethod
    def _summary_ops(game_id: str, summary: Summary) -> list[tuple[str, tuple[Any, ...]]]:
        ops: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE games SET status = ?, result = ? WHERE id = ?",
             (summary.status, json.dumps(summary.result) if summary.result is not None
              else None, game_id))]
        ops += [("INSERT OR REPLACE INTO digests (game_id, key, seq, digest) VALUES (?, ?, ?, ?)",
                 (game_id, summary.digest_key, seq, digest))
                for seq, digest in summary.digests.items()]
        return ops

    def import_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None = None,
                    salt: str | None = None) -> None:
        row = dict(game)
        row["players"] = json.dumps(row["players"], ensure_ascii=False)
        ops = [(f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()))]
        ops += [self._insert_event(env) for env in envelopes]
        ops += [("INSERT INTO tokens (token_hash, game_id, role) VALUES (?, ?, ?)",
                 (h, game["id"], role)) for h, role in tokens.items()]
        if seed is not None:
            ops.append(("INSERT INTO seeds (game_id, seed, salt) VALUES (?, ?, ?)",
                        (game["id"], seed, salt)))
        try:
            self._write(ops)
        except sqlite3.IntegrityError:
            raise Conflict("game_exists", f"a game with id {game['id']!r} is already stored",
                           game_id=game["id"]) from None

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def events(self, game_id: str, after: int = -1, upto: int | None = None,
               limit: int | None = None) -> Iterator[Envelope]:
        sql = "SELECT * FROM events WHERE game_id = ? AND seq > ?"
        params: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield _row_to_envelope(dict(zip(names, row, strict=True)))

    def last_event(self, game_id: str) -> Envelope | None:
        rows = self._query(
            "SELECT * FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [game_id])
        return _row_to_envelope(rows[0]) if rows else None

    def last_seq(self, game_id: str) -> int | None:
        row = self.conn.execute("SELECT max(seq) FROM events WHERE game_id = ?",
                                (game_id,)).fetchone()
        return None if row[0] is None else int(row[0])

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        rows = self._query(
            "SELECT * FROM events WHERE game_id = ? AND idempotency_key = ?",
            [game_id, idempotency_key])
        return _row_to_envelope(rows[0]) if rows else None

    # -- editions, tokens, seeds, snapshots ------------------------------------
    def put_edition(self, slug: str, name: str, sha256: str, content: str) -> None:
        self._write([("INSERT OR IGNORE INTO editions (sha256, slug, name, content) "
                      "VALUES (?, ?, ?, ?)", (sha256, slug, name, content))])

    def edition(self, sha256: str) -> dict[str, Any] | None:
        rows = self._query("SELECT * FROM editions WHERE sha256 = ?", [sha256])
        return rows[0] if rows else None

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT sha256, slug, name, added_at FROM editions"
        params: list[Any] = []
        if slug:
            sql += " WHERE slug = ?"
            params.append(slug)
        return list(self.db.query(sql + " ORDER BY slug, added_at", params))

    def token_role(self, game_id: str, token_hash: str) -> str | None:
        rows = self._query("SELECT role FROM tokens WHERE game_id = ? AND token_hash = ?",
                                  [game_id, token_hash])
        return rows[0]["role"] if rows else None

    def tokens(self, game_id: str) -> dict[str, str]:
        return {r["token_hash"]: r["role"] for r in self.db.query(
            "SELECT token_hash, role FROM tokens WHERE game_id = ? ORDER BY role, token_hash",
            [game_id])}

    def seed(self, game_id: str) -> str | None:
        rows = self._query("SELECT seed FROM seeds WHERE game_id = ?", [game_id])
        return rows[0]["seed"] if rows else None

    def salt(self, game_id: str) -> str | None:
        rows = self._query("SELECT salt FROM seeds WHERE game_id = ?", [game_id])
        return rows[0]["salt"] if rows else None

    def put_snapshot(self, game_id: str, seq: int, key: str, blob: bytes) -> None:
        # a snapshot is a cache: its commit need not wait for the disk (synchronous=NORMAL
        # keeps the WAL consistent; the next event's FULL commit syncs it anyway)
        try:
            self.conn.execute("PRAGMA synchronous = NORMAL")
            try:
                self._write([("INSERT OR REPLACE INTO snapshots (game_id, seq, key, blob) "
                              "VALUES (?, ?, ?, ?)", (game_id, seq, key, blob))])
            finally:
                self.conn.execute("PRAGMA synchronous = FULL")
        except (StorageError, sqlite3.Error):
            pass  # snapshots are a cache: failing to keep one loses nothing

    def snapshot(self, game_id: str, upto: int, key: str) -> tuple[int, bytes] | None:
        row = self.conn.execute(
            "SELECT seq, blob FROM snapshots WHERE game_id = ? AND key = ? AND seq <= ? "
            "ORDER BY seq DESC LIMIT 1", (game_id, key, upto)).fetchone()
        return (int(row[0]), bytes(row[1])) if row else None

    def close(self) -> None:
        self.db.close()
