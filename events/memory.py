"""The store in memory: the third backend, plain Python data behind one lock.

It passes the contract suite of SQLite and PostgreSQL (tests/events/test_store.py): the
contract read as code, without SQL. It keeps nothing after the process, so it serves tests
about rules rather than storage. Stores opened with one name in one process share one
database while any is open (`memory:club` twice is one log); `memory:` alone is private.
Each event is kept as its JSON text, as the SQL stores keep it: a caller gets a copy, and
nothing here offers a way to update or delete a stored event.
"""

from __future__ import annotations

import json
import threading
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import Conflict
from .model import ENVELOPE_FIELDS, Envelope, now_iso
from .store import GameFilter, Store, Summary, fault_point

#: the columns of a games row, with their defaults (events/sql.py's GAME_COLUMNS)
ROW_DEFAULTS: dict[str, Any] = {"title": None, "notes": None, "status": "in_progress",
                                "result": None, "audit": None, "origin": None}
ROW_COLUMNS = ("id", "game", "rules_version", "players", "mode", "edition_name",
               "edition_sha256", "created_at", *ROW_DEFAULTS)
AIMED = frozenset({"undo", "redo", "correction"})


@dataclass
class _Event:
    seq: int
    type: str
    target: float | None  # a numeric data.target_seq, as the SQL stores index it
    key: str | None
    hash: str
    text: str  # the envelope as JSON

    def envelope(self) -> Envelope:
        return dict(json.loads(self.text))


@dataclass
class _Database:
    changed: threading.Condition = field(default_factory=threading.Condition)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: dict[str, list[_Event]] = field(default_factory=dict)
    editions: dict[str, dict[str, Any]] = field(default_factory=dict)
    token_hashes: dict[str, tuple[str, str]] = field(default_factory=dict)  # -> (game, role)
    seeds: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    digests: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)
    snapshots: dict[tuple[str, str], dict[int, bytes]] = field(default_factory=dict)


#: the named databases some store still holds (a database nobody holds is gone)
_DATABASES: weakref.WeakValueDictionary[str, _Database] = weakref.WeakValueDictionary()
_DATABASES_GUARD = threading.Lock()


def _database(name: str) -> _Database:
    if not name:
        return _Database()
    with _DATABASES_GUARD:
        found = _DATABASES.get(name)
        if found is None:
            found = _DATABASES[name] = _Database()
        return found


def _target(env: Mapping[str, Any]) -> float | None:
    data = env.get("data")
    value = data.get("target_seq") if isinstance(data, Mapping) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def _event(env: Envelope) -> _Event:
    text = json.dumps({k: env.get(k) for k in ENVELOPE_FIELDS}, ensure_ascii=False)
    return _Event(int(env["seq"]), str(env["type"]), _target(env), env.get("idempotency_key"),
                  str(env["hash"]), text)


def _json_column(value: Any) -> Any:
    """A JSON column as written: a writer may hand the JSON text (a copy between stores)."""
    return json.loads(value) if isinstance(value, str) else json.loads(json.dumps(value))


class MemoryStore(Store):
    """One database of this process, by name (events/opening.py: `memory:NAME`)."""

    def __init__(self, name: str = "") -> None:
        self.url = f"memory:{name}"
        self._db = _database(name)

    # -- the log ----------------------------------------------------------------------------
    def import_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None = None,
                    salt: str | None = None) -> None:
        row = {**ROW_DEFAULTS, **{k: game[k] for k in ROW_COLUMNS if k in game}}
        row["players"] = list(row["players"])
        row["result"] = _json_column(row["result"]) if row["result"] else None
        row["origin"] = _json_column(row["origin"]) if row["origin"] else None
        game_id = str(row["id"])
        with self._db.changed:
            if game_id in self._db.games or any(h in self._db.token_hashes for h in tokens):
                raise Conflict("game_exists", f"a game with id {game_id!r} is already stored",
                               game_id=game_id)
            self._db.games[game_id] = row
            self._db.events[game_id] = [_event(env) for env in envelopes]
            self._db.token_hashes.update({h: (game_id, role) for h, role in tokens.items()})
            if seed is not None:
                self._db.seeds[game_id] = (seed, salt)
            self._db.changed.notify_all()

    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        game_id, seq = envelopes[0]["game_id"], int(envelopes[0]["seq"])
        with self._db.changed:
            log = self._db.events.get(game_id)
            if log is None or game_id not in self._db.games:
                raise Conflict("stale_sequence", f"there is no game {game_id!r} to append to",
                               last_seq=None)
            last = log[-1]
            if seq != last.seq + 1:
                raise Conflict("stale_sequence",
                               f"event {seq} cannot follow: the game's last event is "
                               f"{last.seq}", expected_seq=last.seq + 1, last_seq=last.seq)
            fresh = self._checked(log, envelopes)
            log.extend(fresh)
            if summary is not None:
                self._write_summary(game_id, summary)
            self._db.changed.notify_all()

    def _checked(self, log: list[_Event], envelopes: Sequence[Envelope]) -> list[_Event]:
        """The new events, all checked before any is kept: consecutive, linked, each
        idempotency key once in the game."""
        keys = {e.key for e in log if e.key is not None}
        fresh: list[_Event] = []
        before = log[-1]
        for i, env in enumerate(envelopes):
            if i == 1:
                fault_point("between_action_and_server_events")
            event = _event(env)
            if event.seq != before.seq + 1 or env["prev_hash"] != before.hash:
                raise Conflict("stale_sequence", f"event {event.seq} does not follow event "
                               f"{before.seq}", last_seq=log[-1].seq)
            if event.key is not None and event.key in keys:
                raise Conflict("idempotency_key_taken", "this Idempotency-Key is already "
                               "stored with another event of this game")
            if event.key is not None:
                keys.add(event.key)
            fresh.append(event)
            before = event
        return fresh

    def _write_summary(self, game_id: str, summary: Summary) -> None:
        if summary.changed:
            row = self._db.games[game_id]
            row["status"] = summary.status
            row["result"] = _json_column(summary.result) if summary.result is not None else None
        self._db.digests.setdefault((game_id, summary.digest_key), {}).update(summary.digests)

    def _log(self, game_id: str) -> list[_Event]:
        with self._db.changed:  # a copy: an append after it does not change what is read
            return list(self._db.events.get(game_id, ()))

    def events(self, game_id: str, after: int = -1, upto: int | None = None,
               limit: int | None = None) -> Iterator[Envelope]:
        chosen = [e for e in self._log(game_id)
                  if e.seq > after and (upto is None or e.seq <= upto)]
        return iter([e.envelope() for e in chosen[:limit]])

    def last_event(self, game_id: str) -> Envelope | None:
        log = self._log(game_id)
        return log[-1].envelope() if log else None

    def last_seq(self, game_id: str) -> int | None:
        log = self._log(game_id)
        return log[-1].seq if log else None

    def aimed_at(self, game_id: str, targets: Sequence[int]) -> list[Envelope]:
        wanted = {float(t) for t in targets}
        return [e.envelope() for e in self._log(game_id)
                if e.type in AIMED and e.target is not None and e.target in wanted]

    def unaimed(self, game_id: str) -> list[Envelope]:
        return [e.envelope() for e in self._log(game_id)
                if e.type in AIMED - {"correction"} and e.target is None]

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        return next((e.envelope() for e in self._log(game_id) if e.key == idempotency_key),
                    None)

    def wait_for_event(self, game_id: str, after: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._db.changed:
            while True:
                log = self._db.events.get(game_id)
                if log and log[-1].seq > after:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._db.changed.wait(left)

    def put_edition(self, slug: str, name: str, sha256: str, content: str) -> None:
        with self._db.changed:
            self._db.editions.setdefault(sha256, {"sha256": sha256, "slug": slug, "name": name,
                                                  "content": content, "added_at": now_iso()})

    def edition(self, sha256: str) -> dict[str, Any] | None:
        with self._db.changed:
            found = self._db.editions.get(sha256)
            return None if found is None else dict(found)

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        with self._db.changed:
            rows = [{k: v for k, v in e.items() if k != "content"}
                    for e in self._db.editions.values() if not slug or e["slug"] == slug]
        return sorted(rows, key=lambda e: (e["slug"], e["added_at"]))

    def token_role(self, game_id: str, token_hash: str) -> str | None:
        with self._db.changed:
            found = self._db.token_hashes.get(token_hash)
        return found[1] if found is not None and found[0] == game_id else None

    def tokens(self, game_id: str) -> dict[str, str]:
        with self._db.changed:
            mine = [(role, h) for h, (gid, role) in self._db.token_hashes.items() if gid == game_id]
        return {h: role for role, h in sorted(mine)}

    def seed(self, game_id: str) -> str | None:
        return (self.secret(game_id) or (None, None))[0]

    def salt(self, game_id: str) -> str | None:
        return (self.secret(game_id) or (None, None))[1]

    def secret(self, game_id: str) -> tuple[str, str | None] | None:
        with self._db.changed:
            return self._db.seeds.get(game_id)

    # -- the read model -------------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        with self._db.changed:
            row = self._db.games.get(game_id)
            return None if row is None else json.loads(json.dumps(row))

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        with self._db.changed:
            rows = [r for r in self._db.games.values() if _matches(r, flt)]
            rows.sort(key=lambda r: r["id"])
            rows.sort(key=lambda r: r["created_at"], reverse=True)
            page = json.loads(json.dumps(rows[flt.offset:flt.offset + flt.limit]))
        return page, len(rows)

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        with self._db.changed:
            row = self._db.games.get(game_id)
            if row is not None:
                row.update(status=status, audit=row["audit"] if audit is None else audit,
                           result=_json_column(result) if result is not None else None)

    def digests(self, game_id: str, digest_key: str) -> dict[int, str]:
        with self._db.changed:
            return dict(self._db.digests.get((game_id, digest_key), {}))

    def put_digests(self, game_id: str, digest_key: str, digests: Mapping[int, str]) -> None:
        with self._db.changed:
            self._db.digests.setdefault((game_id, digest_key), {}).update(digests)

    # -- the caches -----------------------------------------------------------------------
    def put_snapshot(self, game_id: str, seq: int, key: str, blob: bytes) -> None:
        with self._db.changed:
            self._db.snapshots.setdefault((game_id, key), {})[seq] = bytes(blob)

    def snapshot(self, game_id: str, upto: int, key: str) -> tuple[int, bytes] | None:
        with self._db.changed:
            kept = self._db.snapshots.get((game_id, key), {})
            seq = max((s for s in kept if s <= upto), default=None)
            return None if seq is None else (seq, kept[seq])

    def close(self) -> None:
        """Nothing to release: the database lives while a store holds it."""


def _matches(row: Mapping[str, Any], flt: GameFilter) -> bool:
    """The SQL stores' WHERE clause (events/sql.py, list_games), in Python."""
    return ((not flt.game or row["game"] == flt.game)
            and (not flt.status or row["status"] == flt.status)
            and (not flt.player or any(flt.player.lower() in str(p).lower()
                                       for p in row["players"]))
            and (not flt.created_from or row["created_at"] >= flt.created_from)
            and (not flt.created_to or row["created_at"] <= flt.created_to)
            and (flt.forks is None or (row["origin"] is not None) == flt.forks))
