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
connection runs with autocommit off and explicit, short transactions; a broken connection is
replaced: a read is retried once, and so is a write whose BEGIN found the connection dead;
a write cut off later reports StorageError, because its outcome is unknown, and the caller's
retry meets the seq check or the idempotency key.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row

from .errors import Conflict, StorageError
from .model import ENVELOPE_FIELDS, Envelope
from .store import GameFilter, Store, Summary, fault_point

log = logging.getLogger("chronicle.postgres")

T = TypeVar("T")
CHANNEL = "chronicle_events"
MIGRATION_LOCK = 0x6368726F  # "chro": pg_advisory_xact_lock key for schema migrations
PAGE = 1000
GAME_COLUMNS = ("id", "game", "rules_version", "players", "mode", "edition_name",
                "edition_sha256", "created_at", "title", "notes", "status", "result", "audit")
JSON_COLUMNS = frozenset({"players", "result", "actor", "data"})

# Numbered migrations: (version, name, SQL). Append new ones; never edit an applied one.
MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "initial", """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules_version TEXT NOT NULL,
        players JSON NOT NULL,
        mode TEXT NOT NULL,
        edition_name TEXT NOT NULL,
        edition_sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        title TEXT,
        notes TEXT,
        status TEXT NOT NULL DEFAULT 'in_progress',
        result JSON,
        audit TEXT
    );
    CREATE INDEX games_by_game ON games (game, created_at);
    CREATE INDEX games_by_created ON games (created_at DESC, id);
    -- actor and data are JSON (not JSONB): the exact text that was hashed comes back
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 0),
        type TEXT NOT NULL,
        actor JSON NOT NULL,
        data JSON NOT NULL,
        recorded_at TEXT NOT NULL,
        prev_hash TEXT NOT NULL CHECK (length(prev_hash) = 64),
        hash TEXT NOT NULL CHECK (length(hash) = 64),
        salt TEXT NOT NULL,
        idempotency_key TEXT,
        PRIMARY KEY (game_id, seq)
    );
    CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    CREATE FUNCTION chronicle_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'events are immutable: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END $$;
    CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION chronicle_events_immutable();
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION chronicle_events_immutable();
    CREATE FUNCTION chronicle_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        last_seq INTEGER;
        last_hash TEXT;
    BEGIN
        SELECT seq, hash INTO last_seq, last_hash FROM events
            WHERE game_id = NEW.game_id ORDER BY seq DESC LIMIT 1;
        IF NEW.seq <> coalesce(last_seq + 1, 0) THEN
            RAISE EXCEPTION 'event % of game % cannot follow seq %', NEW.seq, NEW.game_id,
                coalesce(last_seq::text, 'none') USING ERRCODE = 'unique_violation';
        END IF;
        IF NEW.prev_hash <> coalesce(last_hash, repeat('0', 64)) THEN
            RAISE EXCEPTION 'event % of game % does not chain from the hash of seq %',
                NEW.seq, NEW.game_id, last_seq USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER events_chain BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION chronicle_events_chain();
    CREATE TABLE editions (
        sha256 TEXT PRIMARY KEY,
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        content TEXT NOT NULL,
        added_at TEXT NOT NULL
            DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    );
    CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games (id),
        role TEXT NOT NULL
    );
    CREATE INDEX tokens_by_game ON tokens (game_id);
    CREATE TABLE seeds (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        seed TEXT NOT NULL
    );
    CREATE TABLE snapshots (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        blob BYTEA NOT NULL,
        PRIMARY KEY (game_id, key, seq)
    );
    """),
    (2, "seed_salt_and_digests", """
    ALTER TABLE seeds ADD COLUMN salt TEXT;
    CREATE TABLE digests (
        game_id TEXT NOT NULL,
        key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, key, seq)
    );
    """),
]


def _envelope(row: Mapping[str, Any]) -> Envelope:
    return {k: row[k] for k in ENVELOPE_FIELDS}


def _game_row(row: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(row)
    if isinstance(out.get("result"), str):  # a JSON string stored as a JSON value
        out["result"] = json.loads(out["result"])
    return out


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _storage_error(err: Exception, doing: str) -> StorageError:
    return StorageError("storage_write_failed" if doing == "write" else "storage_unavailable",
                        f"the PostgreSQL database failed ({type(err).__name__}: "
                        f"{str(err).strip().splitlines()[0] if str(err).strip() else ''})"
                        + ("; nothing was stored" if doing == "write" else ""))


class PostgresStore(Store):
    """A store in one PostgreSQL database (the schema of the URL's search_path)."""

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
            self._conn = psycopg.connect(self.url, autocommit=False, row_factory=dict_row,
                                         connect_timeout=self._connect_timeout,
                                         application_name="chronicle")
        except psycopg.Error as err:
            self._conn = None
            raise StorageError("storage_unavailable",
                               f"cannot connect to PostgreSQL: {str(err).strip()}") from None
        return self._conn

    def _read(self, work: Callable[[psycopg.Cursor[dict[str, Any]]], T]) -> T:
        """Run `work` in a short transaction; retried once on a fresh connection if it broke."""
        for attempt in (1, 2):
            conn = self._connection()
            try:
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

    # -- games ---------------------------------------------------------------
    @staticmethod
    def _insert_game(cur: psycopg.Cursor[Any], game: Mapping[str, Any]) -> None:
        row = {k: game[k] for k in GAME_COLUMNS if k in game}
        if "result" in row and row["result"] is not None and not isinstance(row["result"], str):
            row["result"] = _json(row["result"])
        if not isinstance(row["players"], str):
            row["players"] = _json(list(row["players"]))
        cols = ", ".join(row)
        marks = ", ".join("%s::json" if k in JSON_COLUMNS else "%s" for k in row)
        cur.execute(f"INSERT INTO games ({cols}) VALUES ({marks})",
                    tuple(row.values()))

    @staticmethod
    def _insert_event(cur: psycopg.Cursor[Any], env: Envelope) -> None:
        values = dict(env)
        values["actor"] = json.dumps(env["actor"])
        values["data"] = _json(env["data"])
        marks = ", ".join("%s::json" if k in JSON_COLUMNS else "%s" for k in ENVELOPE_FIELDS)
        cur.execute(f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) "
                    f"VALUES ({marks})", tuple(values[k] for k in ENVELOPE_FIELDS))

    def _store_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None, salt: str | None) -> None:
        def work(cur: psycopg.Cursor[Any]) -> None:
            self._insert_game(cur, game)
            for env in envelopes:
                self._insert_event(cur, env)
            cur.executemany("INSERT INTO tokens (token_hash, game_id, role) VALUES (%s, %s, %s)",
                            [(h, game["id"], role) for h, role in tokens.items()])
            if seed is not None:
                cur.execute("INSERT INTO seeds (game_id, seed, salt) VALUES (%s, %s, %s)",
                            (game["id"], seed, salt))
            if envelopes:
                cur.execute("SELECT pg_notify(%s, %s)",
                            (CHANNEL, f"{game['id']}:{envelopes[-1]['seq']}"))

        try:
            self._write(work, conflicts=True)
        except psycopg.IntegrityError:
            raise Conflict("game_exists", f"a game with id {game['id']!r} is already stored",
                           game_id=game["id"]) from None

    def import_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None = None,
                    salt: str | None = None) -> None:
        self._store_game(game, envelopes, tokens, seed, salt)

    def game(self, game_id: str) -> dict[str, Any] | None:
        row = self._read(lambda cur: cur.execute("SELECT * FROM games WHERE id = %s",
                                                 (game_id,)).fetchone())
        return _game_row(row) if row else None

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        where, params = ["TRUE"], []
        if flt.game:
            where.append("game = %s")
            params.append(flt.game)
        if flt.status:
            where.append("status = %s")
            params.append(flt.status)
        if flt.player:
            where.append("EXISTS (SELECT 1 FROM json_array_elements_text(games.players) AS p "
                         "WHERE p ILIKE %s)")
            params.append("%" + flt.player.replace("\\", "\\\\").replace("%", "\\%")
                          .replace("_", "\\_") + "%")
        if flt.created_from:
            where.append("created_at >= %s")
            params.append(flt.created_from)
        if flt.created_to:
            where.append("created_at <= %s")
            params.append(flt.created_to)
        clause = " AND ".join(where)

        def work(cur: psycopg.Cursor[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
            total = cur.execute(f"SELECT count(*) AS n FROM games WHERE {clause}",
                                params).fetchone()
            rows = cur.execute(
                f"SELECT * FROM games WHERE {clause} "
                "ORDER BY created_at DESC, id LIMIT %s OFFSET %s",
                [*params, flt.limit, flt.offset]).fetchall()
            return [_game_row(r) for r in rows], int(total["n"] if total else 0)

        return self._read(work)

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        self._write(lambda cur: cur.execute(
            "UPDATE games SET status = %s, result = %s::json, audit = coalesce(%s, audit) "
            "WHERE id = %s",
            (status, _json(result) if result is not None else None, audit, game_id)))

    # -- events --------------------------------------------------------------
    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        game_id, seq = envelopes[0]["game_id"], envelopes[0]["seq"]

        def work(cur: psycopg.Cursor[dict[str, Any]]) -> None:
            # the game's row lock serializes every writer of this game, on any worker
            if cur.execute("SELECT id FROM games WHERE id = %s FOR UPDATE",
                           (game_id,)).fetchone() is None:
                raise Conflict("stale_sequence", f"there is no game {game_id!r} to append to",
                               last_seq=None)
            row = cur.execute("SELECT max(seq) AS last FROM events WHERE game_id = %s",
                              (game_id,)).fetchone()
            last = row["last"] if row else None
            if last is None or seq != last + 1:
                raise Conflict("stale_sequence",
                               f"event {seq} cannot follow: the game's last seq is {last}",
                               expected_seq=(last if last is not None else -1) + 1,
                               last_seq=last)
            for i, env in enumerate(envelopes):
                if i == 1:
                    fault_point("between_action_and_server_events")
                self._insert_event(cur, env)
            if summary is not None:
                self._write_summary(cur, game_id, summary)
            cur.execute("SELECT pg_notify(%s, %s)",
                        (CHANNEL, f"{game_id}:{envelopes[-1]['seq']}"))

        try:
            self._write(work, conflicts=True)
        except psycopg.IntegrityError as err:
            if "events_idempotency" in str(err):
                raise Conflict("idempotency_key_taken", "this Idempotency-Key is already "
                               "stored with another event of this game") from None
            raise Conflict("stale_sequence", f"seq {seq} was refused by the database "
                           f"({str(err).strip().splitlines()[0]})", last_seq=seq) from None

    @staticmethod
    def _write_summary(cur: psycopg.Cursor[Any], game_id: str, summary: Summary) -> None:
        cur.execute("UPDATE games SET status = %s, result = %s::json WHERE id = %s",
                    (summary.status, _json(summary.result) if summary.result is not None
                     else None, game_id))
        if summary.digests:
            cur.executemany(
                "INSERT INTO digests (game_id, key, seq, digest) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (game_id, key, seq) DO UPDATE SET digest = EXCLUDED.digest",
                [(game_id, summary.digest_key, seq, digest)
                 for seq, digest in summary.digests.items()])

    def digests(self, game_id: str, digest_key: str) -> dict[int, str]:
        rows = self._read(lambda cur: cur.execute(
            "SELECT seq, digest FROM digests WHERE game_id = %s AND key = %s",
            (game_id, digest_key)).fetchall())
        return {int(r["seq"]): r["digest"] for r in rows}

    def put_digests(self, game_id: str, digest_key: str, digests: Mapping[int, str]) -> None:
        if not digests:
            return
        try:
            self._write(lambda cur: cur.executemany(
                "INSERT INTO digests (game_id, key, seq, digest) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (game_id, key, seq) DO UPDATE SET digest = EXCLUDED.digest",
                [(game_id, digest_key, seq, digest) for seq, digest in digests.items()]))
        except StorageError:
            pass  # read models only

    def events(self, game_id: str, after: int = -1, upto: int | None = None,
               limit: int | None = None) -> Iterator[Envelope]:
        remaining = limit
        while remaining is None or remaining > 0:
            page = PAGE if remaining is None else min(PAGE, remaining)
            sql = "SELECT * FROM events WHERE game_id = %s AND seq > %s"
            params: list[Any] = [game_id, after]
            if upto is not None:
                sql += " AND seq <= %s"
                params.append(upto)
            sql += " ORDER BY seq LIMIT %s"
            params.append(page)
            rows = self._read(lambda cur, q=sql, p=params: cur.execute(q, p).fetchall())  # type: ignore[misc]
            for row in rows:
                yield _envelope(row)
            if len(rows) < page:
                return
            after = rows[-1]["seq"]
            if remaining is not None:
                remaining -= len(rows)

    def last_event(self, game_id: str) -> Envelope | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT * FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1",
            (game_id,)).fetchone())
        return _envelope(row) if row else None

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT * FROM events WHERE game_id = %s AND idempotency_key = %s",
            (game_id, idempotency_key)).fetchone())
        return _envelope(row) if row else None

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

    # -- editions, tokens, seeds, snapshots ------------------------------------
    def put_edition(self, slug: str, name: str, sha256: str, content: str) -> None:
        self._write(lambda cur: cur.execute(
            "INSERT INTO editions (sha256, slug, name, content) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (sha256) DO NOTHING", (sha256, slug, name, content)))

    def edition(self, sha256: str) -> dict[str, Any] | None:
        return self._read(lambda cur: cur.execute(
            "SELECT * FROM editions WHERE sha256 = %s", (sha256,)).fetchone())

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT sha256, slug, name, added_at FROM editions"
        params: list[Any] = []
        if slug:
            sql += " WHERE slug = %s"
            params.append(slug)
        sql += " ORDER BY slug, added_at"
        return self._read(lambda cur: cur.execute(sql, params).fetchall())

    def token_role(self, game_id: str, token_hash: str) -> str | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT role FROM tokens WHERE game_id = %s AND token_hash = %s",
            (game_id, token_hash)).fetchone())
        return row["role"] if row else None

    def tokens(self, game_id: str) -> dict[str, str]:
        rows = self._read(lambda cur: cur.execute(
            "SELECT token_hash, role FROM tokens WHERE game_id = %s ORDER BY role, token_hash",
            (game_id,)).fetchall())
        return {r["token_hash"]: r["role"] for r in rows}

    def salt(self, game_id: str) -> str | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT salt FROM seeds WHERE game_id = %s", (game_id,)).fetchone())
        return row["salt"] if row else None

    def seed(self, game_id: str) -> str | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT seed FROM seeds WHERE game_id = %s", (game_id,)).fetchone())
        return row["seed"] if row else None

    def put_snapshot(self, game_id: str, seq: int, key: str, blob: bytes) -> None:
        try:
            self._write(lambda cur: cur.execute(
                "INSERT INTO snapshots (game_id, seq, key, blob) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (game_id, key, seq) DO UPDATE SET blob = EXCLUDED.blob",
                (game_id, seq, key, blob)))
        except (StorageError, psycopg.Error):
            pass  # snapshots are a cache: failing to keep one loses nothing

    def snapshot(self, game_id: str, upto: int, key: str) -> tuple[int, bytes] | None:
        row = self._read(lambda cur: cur.execute(
            "SELECT seq, blob FROM snapshots WHERE game_id = %s AND key = %s AND seq <= %s "
            "ORDER BY seq DESC LIMIT 1", (game_id, key, upto)).fetchone())
        return (int(row["seq"]), bytes(row["blob"])) if row else None

    def close(self) -> None:
        self._drop_listener()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
