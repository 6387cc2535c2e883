"""The ground both SQL stores stand on: the backend's primitives, the dialect, and the
tables beside the log (editions, tokens, seeds, snapshots), written once for both.

A backend supplies `_rows` (a read), `_transaction` (a write, all or nothing) and its
`Dialect`; `events/sql.py` builds the log and the games on them.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import StorageError
from .model import ENVELOPE_FIELDS, Envelope
from .store import Store

T = TypeVar("T")
#: runs one statement inside the current transaction and returns its rows
Run = Callable[[str, Sequence[Any]], list[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Dialect:
    """The words in which two SQL databases differ, for the statements chronicle runs."""

    mark: str  # the parameter placeholder
    json_value: str  # a parameter stored in a JSON column ("?" or "?::json")
    player_exists: str  # EXISTS (...) over the players array, comparing with `?`
    #: selects the game row, locking it for this transaction (None: the write lock is the
    #: whole file's, and the conditional insert finds an unknown game)
    lock_game: str | None
    decodes_json: bool  # the driver hands back JSON columns decoded already
    #: an event's numeric data.target_seq (else NULL), exactly as the events_by_target
    #: index names it, so the planner uses the index
    target: str


class Integrity(Exception):
    """A constraint the database refused (a backend's own class, translated)."""


def like_pattern(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its `%`, `_` and `\\` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class SQLBase(Store):
    """A store's primitives and dialect, and the tables beside the log."""

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
