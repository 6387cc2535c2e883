"""One SQL for both stores: every statement the SQLite and PostgreSQL stores share.

The two backends differ in how they connect, lock and migrate, and in a few words of
dialect (the placeholder, a JSON cast, how to walk a JSON array); everything they do alike
is written here once, so the copies cannot drift (they had: a player named `a_b` matched
different games on the two). A backend supplies `_rows` (a read), `_transaction` (a
write, all or nothing) and its `Dialect`.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import Conflict, StorageError
from .model import ENVELOPE_FIELDS, Envelope
from .store import GameFilter, Store, Summary, fault_point

T = TypeVar("T")
#: runs one statement inside the current transaction and returns its rows
Run = Callable[[str, Sequence[Any]], list[dict[str, Any]]]
PAGE = 1000
GAME_COLUMNS = ("id", "game", "rules_version", "players", "mode", "edition_name",
                "edition_sha256", "created_at", "title", "notes", "status", "result", "audit",
                "origin")
JSON_COLUMNS = ("players", "result", "origin")


@dataclass(frozen=True, slots=True)
class Dialect:
    """The words in which two SQL databases differ, for the statements chronicle runs."""

    mark: str  # the parameter placeholder
    json_value: str  # a parameter stored in a JSON column ("?" or "?::json")
    player_exists: str  # EXISTS (...) over the players array, comparing with `?`
    lock_game: str  # selects the game row, locking it for this transaction if need be
    decodes_json: bool  # the driver hands back JSON columns decoded already


class Integrity(Exception):
    """A constraint the database refused (a backend's own class, translated)."""


def like_pattern(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its `%`, `_` and `\\` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class SQLStore(Store):
    """The statements of a store, over a backend's read and write primitives."""

    dialect: Dialect

    @abstractmethod
    def _rows(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        """The rows of one read (a short transaction of its own)."""

    @abstractmethod
    def _transaction(self, work: Callable[[Run], T], *, cache: bool = False) -> T:
        """Run `work` in one write transaction; Integrity for a refused constraint,
        StorageError when the database cannot take it. `cache`: a write of derived data
        only (a snapshot), which need not wait for the disk."""

    def _after_append(self, run: Run, game_id: str, seq: int) -> None:
        """Inside the append's transaction, once its rows are written (PostgreSQL NOTIFYs)."""

    # -- dialect ------------------------------------------------------------------------------
    def _sql(self, text: str) -> str:
        return text.replace("{json}", self.dialect.json_value).replace("?", self.dialect.mark)

    def _json_in(self, value: Any) -> Any:
        """A JSON column's value: text to decode, or (a driver that decodes JSON) the value
        itself, unless an older write stored the JSON text as a JSON string."""
        return json.loads(value) if isinstance(value, str) else value

    def _envelope(self, row: Mapping[str, Any]) -> Envelope:
        env = {k: row[k] for k in ENVELOPE_FIELDS}
        if not self.dialect.decodes_json:
            env["actor"] = json.loads(row["actor"])
            env["data"] = json.loads(row["data"])
        return env

    def _game_row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(row)
        out["players"] = self._json_in(out["players"])
        out["result"] = self._json_in(out["result"]) if out.get("result") else None
        out["origin"] = self._json_in(out["origin"]) if out.get("origin") else None
        return out

    def _one(self, sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
        rows = self._rows(self._sql(sql), params)
        return rows[0] if rows else None

    # -- games ------------------------------------------------------------------------------
    def import_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None = None,
                    salt: str | None = None) -> None:
        row = {k: game[k] for k in GAME_COLUMNS if k in game}
        row["players"] = json.dumps(list(row["players"]), ensure_ascii=False)
        for key in ("result", "origin"):
            if row.get(key) is not None and not isinstance(row[key], str):
                row[key] = json.dumps(row[key])
        marks = ", ".join("{json}" if k in JSON_COLUMNS else "?" for k in row)

        def work(run: Run) -> None:
            run(self._sql(f"INSERT INTO games ({', '.join(row)}) VALUES ({marks})"),
                tuple(row.values()))
            for env in envelopes:
                self._insert_event(run, env)
            for token_hash, role in tokens.items():
                run(self._sql("INSERT INTO tokens (token_hash, game_id, role) VALUES (?, ?, ?)"),
                    (token_hash, game["id"], role))
            if seed is not None:
                run(self._sql("INSERT INTO seeds (game_id, seed, salt) VALUES (?, ?, ?)"),
                    (game["id"], seed, salt))
            if envelopes:
                self._after_append(run, game["id"], envelopes[-1]["seq"])

        try:
            self._transaction(work)
        except Integrity:
            raise Conflict("game_exists", f"a game with id {game['id']!r} is already stored",
                           game_id=game["id"]) from None

    def game(self, game_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT * FROM games WHERE id = ?", [game_id])
        return self._game_row(row) if row else None

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        where, params = ["1 = 1"], []
        for column, value in (("game", flt.game), ("status", flt.status)):
            if value:
                where.append(f"{column} = ?")
                params.append(value)
        if flt.player:
            where.append(self.dialect.player_exists)
            params.append(like_pattern(flt.player))
        if flt.created_from:
            where.append("created_at >= ?")
            params.append(flt.created_from)
        if flt.created_to:
            where.append("created_at <= ?")
            params.append(flt.created_to)
        if flt.forks is not None:
            where.append("origin IS NOT NULL" if flt.forks else "origin IS NULL")
        clause = " AND ".join(where)
        total = self._one(f"SELECT count(*) AS n FROM games WHERE {clause}", params)
        rows = self._rows(self._sql(f"SELECT * FROM games WHERE {clause} "
                                    "ORDER BY created_at DESC, id LIMIT ? OFFSET ?"),
                          [*params, flt.limit, flt.offset])
        return [self._game_row(r) for r in rows], int(total["n"] if total else 0)

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        self._transaction(lambda run: run(self._sql(
            "UPDATE games SET status = ?, result = {json}, audit = coalesce(?, audit) "
            "WHERE id = ?"), (status, json.dumps(result) if result is not None else None,
                               audit, game_id)))

    def digests(self, game_id: str, digest_key: str) -> dict[int, str]:
        rows = self._rows(self._sql("SELECT seq, digest FROM digests WHERE game_id = ? "
                                    "AND key = ?"), [game_id, digest_key])
        return {int(r["seq"]): r["digest"] for r in rows}

    def put_digests(self, game_id: str, digest_key: str, digests: Mapping[int, str]) -> None:
        if not digests:
            return
        try:
            self._transaction(lambda run: self._upsert_digests(run, game_id, digest_key,
                                                               digests), cache=True)
        except (StorageError, Integrity):
            pass  # read models only: the log is what counts

    def _upsert_digests(self, run: Run, game_id: str, key: str,
                        digests: Mapping[int, str]) -> None:
        for seq, digest in digests.items():
            run(self._sql("INSERT INTO digests (game_id, key, seq, digest) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (game_id, key, seq) DO UPDATE SET digest = "
                          "excluded.digest"), (game_id, key, seq, digest))

    # -- events -----------------------------------------------------------------------------
    def _insert_event(self, run: Run, env: Envelope) -> None:
        values = {**env, "actor": json.dumps(env["actor"]),
                  "data": json.dumps(env["data"], ensure_ascii=False, sort_keys=True)}
        marks = ", ".join("{json}" if k in ("actor", "data") else "?" for k in ENVELOPE_FIELDS)
        run(self._sql(f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) VALUES ({marks})"),
            tuple(values[k] for k in ENVELOPE_FIELDS))

    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        game_id, seq = envelopes[0]["game_id"], envelopes[0]["seq"]

        def work(run: Run) -> None:
            if not run(self._sql(self.dialect.lock_game), (game_id,)):
                raise Conflict("stale_sequence", f"there is no game {game_id!r} to append to",
                               last_seq=None)
            last = run(self._sql("SELECT max(seq) AS last FROM events WHERE game_id = ?"),
                       (game_id,))[0]["last"]
            if last is None or seq != last + 1:
                raise Conflict("stale_sequence",
                               f"event {seq} cannot follow: the game's last event is {last}",
                               expected_seq=(last if last is not None else -1) + 1,
                               last_seq=last)
            for i, env in enumerate(envelopes):
                if i == 1:
                    fault_point("between_action_and_server_events")
                self._insert_event(run, env)
            if summary is not None:
                self._write_summary(run, game_id, summary)
            self._after_append(run, game_id, envelopes[-1]["seq"])

        try:
            self._transaction(work)
        except Integrity as err:
            if "idempotency" in str(err):
                raise Conflict("idempotency_key_taken", "this Idempotency-Key is already "
                               "stored with another event of this game") from None
            raise Conflict("stale_sequence", f"event {seq} was refused by the database "
                           f"({str(err).strip().splitlines()[0]})", last_seq=seq) from None

    def _write_summary(self, run: Run, game_id: str, summary: Summary) -> None:
        run(self._sql("UPDATE games SET status = ?, result = {json} WHERE id = ?"),
            (summary.status, json.dumps(summary.result) if summary.result is not None
             else None, game_id))
        self._upsert_digests(run, game_id, summary.digest_key, summary.digests)

    def events(self, game_id: str, after: int = -1, upto: int | None = None,
               limit: int | None = None) -> Iterator[Envelope]:
        remaining = limit
        while remaining is None or remaining > 0:
            page = PAGE if remaining is None else min(PAGE, remaining)
            sql = "SELECT * FROM events WHERE game_id = ? AND seq > ?"
            params: list[Any] = [game_id, after]
            if upto is not None:
                sql += " AND seq <= ?"
                params.append(upto)
            rows = self._rows(self._sql(sql + " ORDER BY seq LIMIT ?"), [*params, page])
            for row in rows:
                yield self._envelope(row)
            if len(rows) < page:
                return
            after = rows[-1]["seq"]
            if remaining is not None:
                remaining -= len(rows)

    def last_event(self, game_id: str) -> Envelope | None:
        row = self._one("SELECT * FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                        [game_id])
        return self._envelope(row) if row else None

    def last_seq(self, game_id: str) -> int | None:
        row = self._one("SELECT max(seq) AS last FROM events WHERE game_id = ?", [game_id])
        return None if row is None or row["last"] is None else int(row["last"])

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        row = self._one("SELECT * FROM events WHERE game_id = ? AND idempotency_key = ?",
                        [game_id, idempotency_key])
        return self._envelope(row) if row else None

    # -- editions, tokens, seeds, snapshots ---------------------------------------------------
    def put_edition(self, slug: str, name: str, sha256: str, content: str) -> None:
        self._transaction(lambda run: run(self._sql(
            "INSERT INTO editions (sha256, slug, name, content) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (sha256) DO NOTHING"), (sha256, slug, name, content)))

    def edition(self, sha256: str) -> dict[str, Any] | None:
        return self._one("SELECT * FROM editions WHERE sha256 = ?", [sha256])

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        sql, params = "SELECT sha256, slug, name, added_at FROM editions", []
        if slug:
            sql += " WHERE slug = ?"
            params.append(slug)
        return self._rows(self._sql(sql + " ORDER BY slug, added_at"), params)

    def token_role(self, game_id: str, token_hash: str) -> str | None:
        row = self._one("SELECT role FROM tokens WHERE game_id = ? AND token_hash = ?",
                        [game_id, token_hash])
        return None if row is None else str(row["role"])

    def tokens(self, game_id: str) -> dict[str, str]:
        rows = self._rows(self._sql("SELECT token_hash, role FROM tokens WHERE game_id = ? "
                                    "ORDER BY role, token_hash"), [game_id])
        return {r["token_hash"]: r["role"] for r in rows}

    def seed(self, game_id: str) -> str | None:
        row = self._one("SELECT seed FROM seeds WHERE game_id = ?", [game_id])
        return None if row is None else str(row["seed"])

    def salt(self, game_id: str) -> str | None:
        row = self._one("SELECT salt FROM seeds WHERE game_id = ?", [game_id])
        return None if row is None or row["salt"] is None else str(row["salt"])

    def secret(self, game_id: str) -> tuple[str, str | None] | None:
        row = self._one("SELECT seed, salt FROM seeds WHERE game_id = ?", [game_id])
        return None if row is None else (str(row["seed"]), row["salt"])

    def put_snapshot(self, game_id: str, seq: int, key: str, blob: bytes) -> None:
        try:
            self._transaction(lambda run: run(self._sql(
                "INSERT INTO snapshots (game_id, seq, key, blob) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, key, seq) DO UPDATE SET blob = excluded.blob"),
                (game_id, seq, key, blob)), cache=True)
        except (StorageError, Integrity):
            pass  # snapshots are a cache: failing to keep one loses nothing

    def snapshot(self, game_id: str, upto: int, key: str) -> tuple[int, bytes] | None:
        row = self._one("SELECT seq, blob FROM snapshots WHERE game_id = ? AND key = ? "
                        "AND seq <= ? ORDER BY seq DESC LIMIT 1", [game_id, key, upto])
        return None if row is None else (int(row["seq"]), bytes(row["blob"]))
