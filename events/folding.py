"""Folding a stored game: one context per call, a cursor cache, snapshots as data.

A `GameContext` is what a request loads once (row, reducer, last seq). `Folding.cursor`
folds to any step from the nearest snapshot (every SNAPSHOT_EVERY events) or a recent
cursor, so "state at step n" costs O(K). A snapshot that does not decode, or names a hash
the log does not hold, is ignored and the fold goes on from the log.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from projections import snapshot
from projections.replay import Cursor, Folder
from projections.rules import GameRules

from .documents import KnownRoles, StateDocuments
from .editions import Editions
from .errors import ChronicleError, NotFound, StorageError
from .model import Envelope, event_hash
from .store import Store

log = logging.getLogger("chronicle.folding")

SNAPSHOT_EVERY = 64


@dataclass(frozen=True, slots=True)
class GameContext:
    """One game as loaded for one call: its row, its reducer, its last seq."""

    row: Mapping[str, Any]
    rules: GameRules[Any]
    last_event: Envelope  # the game's latest envelope, read with the row: its seq and hash

    @property
    def last(self) -> int:
        return int(self.last_event["seq"])

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def mode(self) -> str:
        return str(self.row["mode"])

    @property
    def players(self) -> list[str]:
        return list(self.row["players"])


class CursorCache:
    """Folded cursors of recently used games; shared by threads, so locked. Per game: the
    latest cursor and a window of recent ones (a cursor at a seq never changes, and an undo
    needs the one just before the action it retracts, almost always in that window)."""

    def __init__(self, size: int = 256, window: int = 16) -> None:
        self.documents = StateDocuments()
        self.roles = KnownRoles()
        self._items: OrderedDict[str, Cursor] = OrderedDict()
        self._recent: dict[str, OrderedDict[int, Cursor]] = {}
        self._lock = threading.Lock()
        self._size = size
        self._window = window

    def at(self, game_id: str, seq: int) -> Cursor | None:
        """The cursor at `seq` if it is in the game's recent window."""
        with self._lock:
            recent = self._recent.get(game_id)
            return None if recent is None else recent.get(seq)

    def put(self, game_id: str, cursor: Cursor) -> None:
        with self._lock:
            recent = self._recent.setdefault(game_id, OrderedDict())
            recent[cursor.seq] = cursor
            recent.move_to_end(cursor.seq)
            while len(recent) > self._window:
                recent.popitem(last=False)
            current = self._items.get(game_id)
            if current is None or current.seq <= cursor.seq:
                self._items[game_id] = cursor
            self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                gone, _ = self._items.popitem(last=False)
                self._recent.pop(gone, None)


class Folding:
    """Contexts and cursors of the games of one store."""

    def __init__(self, store: Store, editions: Editions, cache: CursorCache) -> None:
        self.store = store
        self.editions = editions
        self.cache = cache
        #: games this process found altered while folding (their row says so too): a read
        #: that made the discovery reports it without reading the row again
        self.failed: set[str] = set()
        #: game id -> audit flag as last read or written through this object (one request
        #: in the API), so the audit header of a response reads no row again
        self.audits: dict[str, str | None] = {}

    def row(self, game_id: str) -> dict[str, Any]:
        row = self.store.game(game_id)
        if row is None:
            raise NotFound("unknown_game", f"there is no game {game_id!r}")
        self.audits[game_id] = row.get("audit")
        return row

    def context(self, game_id: str) -> GameContext:
        """The game row, its reducer and its last event, read together once."""
        head = self.store.head(game_id)
        if head is None:
            raise NotFound("unknown_game", f"there is no game {game_id!r}")
        self.audits[game_id] = head[0].get("audit")
        return GameContext(head[0], self.editions.rules_for(head[0]), head[1])

    def cursor(self, ctx: GameContext, at: int | None = None, keep: bool = False) -> Cursor:
        """The fold of events 0..at (default: the last), from the cache or a snapshot;
        `keep`: a writer's fold, which leaves snapshots behind (a read writes nothing)."""
        target = ctx.last if at is None else at
        missing = no_such_step(ctx, target)
        if missing:
            raise NotFound("no_such_step", missing)
        cached = self.cache.at(ctx.id, target)
        if cached is not None:
            return cached
        cursor = self._fold_to(ctx, target, CursorMemo(), keep)
        self.cache.put(ctx.id, cursor)
        return cursor

    def remember(self, ctx: GameContext, cursor: Cursor, env: Envelope | None = None) -> None:
        """Keep a cursor just computed (and its snapshot when one is due); every append
        passes here, so the game's rendered documents are dropped too."""
        self.cache.documents.drop(ctx.id)
        self.cache.put(ctx.id, cursor)
        if env is not None and cursor.seq % SNAPSHOT_EVERY == 0:
            self._keep_snapshot(ctx, cursor, env["hash"])

    def folder(self, ctx: GameContext, memo: CursorMemo | None = None,
               keep: int | None = SNAPSHOT_EVERY) -> Folder:
        """A Folder over this game that can look earlier cursors and events up in the log."""
        source = _LogSource(self, ctx, CursorMemo() if memo is None else memo)
        return Folder(ctx.rules, ctx.mode, fallback=source.cursor_at, event_at=source.event_at,
                      events_upto=source.events_upto, keep=keep)

    # -- the fold ---------------------------------------------------------------------------
    def snapshot_key(self, ctx: GameContext) -> str:
        return f"{ctx.row['game']}:{ctx.rules.rules_version}:{ctx.row['edition_sha256']}:" \
               f"json{snapshot.FORMAT}"

    def _fold_to(self, ctx: GameContext, target: int, memo: CursorMemo, keep: bool) -> Cursor:
        # memo: the cursors the nested folds of this call computed lately, so an undo
        # reaching back before the snapshot folds that step once, not once per undo (a cold
        # fold of an undo-heavy log was exponential: minutes for 1400 events)
        found = memo.get(target)
        if found is not None:
            return found
        folder = self.folder(ctx, memo)
        after = self._resume(ctx, folder, target)
        prev_hash: str | None = None
        for env in self.store.events(ctx.id, after=after, upto=target):
            if event_hash(env) != env["hash"] or prev_hash not in (None, env["prev_hash"]):
                self.mark_failed(ctx, env["seq"], "its hash does not match its content")
            prev_hash = env["hash"]
            try:
                cursor = folder.feed(env)
            except Exception as err:  # a stored event that no longer folds: the log was altered
                self.mark_failed(ctx, env["seq"], "it no longer folds")
                raise StorageError("log_corrupt", f"game {ctx.id}'s stored event "
                                   f"{env['seq']} cannot be replayed, so the log fails its "
                                   "audit (run verify for the report)",
                                   first_bad_seq=env["seq"]) from err
            memo.put(cursor)
            if keep and cursor.seq % SNAPSHOT_EVERY == 0 and cursor.seq > after:
                self._keep_snapshot(ctx, cursor, env["hash"])
        assert folder.last is not None
        memo.put(folder.last)
        return folder.last

    def _resume(self, ctx: GameContext, folder: Folder, target: int) -> int:
        """Resume `folder` from the latest usable snapshot at or before `target`; its seq."""
        found = self.store.snapshot(ctx.id, target, self.snapshot_key(ctx))
        if found is None:
            return -1
        seq, blob = found
        try:
            doc = json.loads(blob)
            cursor = snapshot.loads(doc["cursor"]) if isinstance(doc, dict) else None
            env = self.store.event(ctx.id, seq)
            if not isinstance(cursor, Cursor) or cursor.seq != seq or env is None or \
                    doc.get("hash") != env["hash"]:
                raise snapshot.SnapshotError("the snapshot does not match the log")
        except (ValueError, KeyError, TypeError, snapshot.SnapshotError) as err:
            log.warning("game %s: snapshot at %s ignored (%s)", ctx.id, seq, err)
            return -1
        folder.resume(cursor)
        return seq

    def _keep_snapshot(self, ctx: GameContext, cursor: Cursor, hash_: str) -> None:
        doc = json.dumps({"hash": hash_, "cursor": snapshot.dumps(cursor)})
        self.store.put_snapshot(ctx.id, cursor.seq, self.snapshot_key(ctx),
                                doc.encode("utf-8"))

    def mark_failed(self, ctx: GameContext, seq: int, why: str) -> None:
        log.warning("game %s fails its audit at seq %s: %s", ctx.id, seq, why)
        self.failed.add(ctx.id)  # stored in the row by `chronicle repair`, never by a read

    def noticed(self, game_id: str, audit: str) -> None:
        """What a verify just found, for the rest of this object's answers; nothing stored."""
        (self.failed.discard if audit == "ok" else self.failed.add)(game_id)
        self.audits[game_id] = audit

    def audit_of(self, ctx: GameContext) -> str | None:
        """The game's audit flag as of now: "failed" if a fold just found it altered."""
        return "failed" if ctx.id in self.failed else self.audits.get(ctx.id,
                                                                     ctx.row.get("audit"))

    def audit_flag(self, game_id: str) -> str | None:
        """The audit flag of a game this object read or wrote, else from its row."""
        if game_id in self.failed or game_id in self.audits:
            return "failed" if game_id in self.failed else self.audits[game_id]
        row = self.store.game(game_id)
        return None if row is None else row.get("audit")

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        """Cache derived facts on the game row; a failure here loses nothing of the log."""
        if audit is not None:
            self.noticed(game_id, audit)
        try:
            self.store.set_summary(game_id, status, result, audit=audit)
        except ChronicleError as err:  # the log is intact; the next verify refreshes this
            log.warning("game %s: summary not updated (%s)", game_id, err.code)


#: cursors one call's folds keep for undos reaching back before a snapshot. Unbounded, a
#: cold export of a 100,000-event game grew by 60 MB; 4096 cursors cover any undo within
#: 64 snapshots of its target at about 5 MB (issue #23)
MEMO_LIMIT = 4096


class CursorMemo:
    """The cursors one call's folds computed, the least recently used dropped past `limit`.

    A nested fold (an undo reaching back past the nearest snapshot) looks up the cursor at
    its target's previous seq; the outer fold went through it shortly before, so the recent
    cursors are the ones worth keeping. A dropped one is folded again from its snapshot.
    """

    def __init__(self, limit: int | None = None) -> None:
        self._items: OrderedDict[int, Cursor] = OrderedDict()
        self._limit = MEMO_LIMIT if limit is None else limit

    def __len__(self) -> int:
        return len(self._items)

    def get(self, seq: int) -> Cursor | None:
        found = self._items.get(seq)
        if found is not None:
            self._items.move_to_end(seq)
        return found

    def put(self, cursor: Cursor) -> None:
        self._items[cursor.seq] = cursor
        self._items.move_to_end(cursor.seq)
        if len(self._items) > self._limit:
            self._items.popitem(last=False)


class _LogSource:
    """What a fold looks up that it did not fold itself: earlier cursors and events."""

    def __init__(self, folding: Folding, ctx: GameContext, memo: CursorMemo) -> None:
        self._folding = folding
        self._ctx = ctx
        self._memo = memo

    def cursor_at(self, seq: int) -> Cursor:
        cached = self._folding.cache.at(self._ctx.id, seq)
        if cached is not None:
            return cached
        return self._folding._fold_to(self._ctx, seq, self._memo, False)

    def event_at(self, seq: int) -> Envelope | None:
        return self._folding.store.event(self._ctx.id, seq)

    def events_upto(self, upto: int) -> list[Envelope]:
        return list(self._folding.store.events(self._ctx.id, upto=upto))


def no_such_step(ctx: GameContext, at: int) -> str | None:
    """Why `at` is not a step of the game (None: it is one), in the words every door uses."""
    return None if 0 <= at <= ctx.last else f"game {ctx.id} has steps 0..{ctx.last}, not {at}"
