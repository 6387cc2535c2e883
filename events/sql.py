"""One SQL for both stores: every statement the SQLite and PostgreSQL stores share.

The two backends differ in how they connect, lock and migrate, and in a few words of
dialect (the placeholder, a JSON cast, how to walk a JSON array); everything they do alike
is written here once, so the copies cannot drift (they had: a player named `a_b` matched
different games on the two). The backend's primitives, the dialect and the
tables beside the log are in `events/sql_base.py`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .errors import Conflict, StorageError
from .model import ENVELOPE_FIELDS, Envelope
from .sql_base import Integrity, Run, SQLBase, T, like_pattern
from .store import GameFilter, Summary, fault_point

PAGE = 1000
#: the condition of the events_by_target index, word for word
AIMED = "type IN ('undo', 'redo', 'correction')"
GAME_COLUMNS = ("id", "game", "rules_version", "players", "mode", "edition_name",
                "edition_sha256", "created_at", "title", "notes", "status", "result", "audit",
                "origin")
JSON_COLUMNS = ("players", "result", "origin")
#: the game row and its last event in one read (Store.head): the primary key's index walked
#: backwards from the game's last seq, its columns apart from the row's by their prefix
HEAD = ("SELECT " + ", ".join(f"g.{c}" for c in GAME_COLUMNS) + ", "
        + ", ".join(f"e.{f} AS event_{f}" for f in ENVELOPE_FIELDS)
        + " FROM games g JOIN events e ON e.game_id = g.id WHERE g.id = ? "
        "ORDER BY e.seq DESC LIMIT 1")


class SQLStore(SQLBase):
    """The log and the games, in the statements both backends share."""

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

    def head(self, game_id: str) -> tuple[dict[str, Any], Envelope] | None:
        row = self._one(HEAD, [game_id])
        if row is None:
            return None
        game = {c: row[c] for c in GAME_COLUMNS}
        return self._game_row(game), self._envelope({f: row[f"event_{f}"]
                                                     for f in ENVELOPE_FIELDS})

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
    def _insert_event(self, run: Run, env: Envelope, follows: bool = False) -> bool:
        """Insert one event; with `follows`, only if it is the game's next seq (the check
        and the insert in one statement). Whether it was inserted."""
        values = {**env, "actor": json.dumps(env["actor"]),
                  "data": json.dumps(env["data"], ensure_ascii=False, sort_keys=True)}
        marks = ", ".join("{json}" if k in ("actor", "data") else "?" for k in ENVELOPE_FIELDS)
        params = tuple(values[k] for k in ENVELOPE_FIELDS)
        if not follows:
            run(self._sql(f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) VALUES ({marks})"),
                params)
            return True
        return bool(run(self._sql(
            f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) SELECT {marks} "
            "WHERE (SELECT max(seq) FROM events WHERE game_id = ?) = ? RETURNING seq"),
            (*params, env["game_id"], env["seq"] - 1)))

    def _append(self, work: Callable[[Run], T]) -> T:
        """Run an append's work in a write transaction (SQLite: in a group commit)."""
        return self._transaction(work)

    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        game_id, seq = envelopes[0]["game_id"], envelopes[0]["seq"]

        def work(run: Run) -> None:
            if self.dialect.lock_game and not run(self._sql(self.dialect.lock_game), (game_id,)):
                raise Conflict("stale_sequence", f"there is no game {game_id!r} to append to",
                               last_seq=None)
            for i, env in enumerate(envelopes):
                if i == 1:
                    fault_point("between_action_and_server_events")
                if not self._insert_event(run, env, follows=i == 0):
                    raise self._stale(run, game_id, seq)
            if summary is not None:
                self._write_summary(run, game_id, summary)
            self._after_append(run, game_id, envelopes[-1]["seq"])

        try:
            self._append(work)
        except Integrity as err:
            if "idempotency" in str(err):
                raise Conflict("idempotency_key_taken", "this Idempotency-Key is already "
                               "stored with another event of this game") from None
            raise Conflict("stale_sequence", f"event {seq} was refused by the database "
                           f"({str(err).strip().splitlines()[0]})", last_seq=seq) from None

    def _stale(self, run: Run, game_id: str, seq: int) -> Conflict:
        """Why event `seq` does not follow (read only when it does not)."""
        last = run(self._sql("SELECT max(seq) AS last FROM events WHERE game_id = ?"),
                   (game_id,))[0]["last"]
        if last is None:
            return Conflict("stale_sequence", f"there is no game {game_id!r} to append to",
                            last_seq=None)
        return Conflict("stale_sequence",
                        f"event {seq} cannot follow: the game's last event is {last}",
                        expected_seq=last + 1, last_seq=last)

    def _write_summary(self, run: Run, game_id: str, summary: Summary) -> None:
        if summary.changed:
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

    def aimed_at(self, game_id: str, targets: Sequence[int]) -> list[Envelope]:
        wanted = sorted(set(targets))
        found: list[Envelope] = []
        for i in range(0, len(wanted), PAGE):
            chunk = wanted[i:i + PAGE]
            # no ORDER BY: SQLite would rather walk the primary key in seq order than sort
            rows = self._rows(self._sql(
                f"SELECT * FROM events WHERE game_id = ? AND {AIMED} AND "
                f"{self.dialect.target} IN ({', '.join('?' * len(chunk))})"),
                [game_id, *chunk])
            found += (self._envelope(row) for row in rows)
        return sorted(found, key=lambda env: int(env["seq"]))

    def unaimed(self, game_id: str) -> list[Envelope]:
        rows = self._rows(self._sql(f"SELECT * FROM events WHERE game_id = ? AND {AIMED} AND "
                                    f"{self.dialect.target} IS NULL"), [game_id])
        return sorted((self._envelope(row) for row in rows if row["type"] != "correction"),
                      key=lambda env: int(env["seq"]))

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        row = self._one("SELECT * FROM events WHERE game_id = ? AND idempotency_key = ?",
                        [game_id, idempotency_key])
        return self._envelope(row) if row else None
