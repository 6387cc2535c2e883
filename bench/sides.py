"""The sides of the append cases: chronicle's recorder, raw sqlite3, eventsourcing.

Each side records one stretch of the workload per call of `run` and returns the seconds it
took; games are created before the clock starts. The raw side inserts exactly the rows
chronicle stored; the eventsourcing side saves the same events (type, actor, data), one
`save()` each. A side opened with a `synchronous` level other than FULL has every one of
its connections pinned there (bench/sync.py).
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from events import Recorder, open_store
from events.folding import CursorCache
from events.model import ENVELOPE_FIELDS, Envelope

from .sync import Pin, pinned
from .wal import PAGES, warm_wal
from .workload import Player, Step, Workload


def settle() -> None:
    """Flush every file's dirty pages before a side's clock starts: otherwise a side's
    fsyncs also write out what the side before it left unsynced (its checkpoints and
    snapshots), and whichever runs second pays for the first."""
    os.sync()


def recorder_on(path: Path, cache: CursorCache | None = None) -> Recorder:
    """A recorder over its own connection to `path`, as a server thread has one."""
    return Recorder(open_store(str(path)), cache)


class ChronicleSide:
    """`Recorder.record` of each action: schemas, the fold, the hash, one commit."""

    def __init__(self, path: Path, workload: Workload, level: str = "FULL",
                 wal_pages: int = PAGES) -> None:
        self.pin: Pin | None = None
        self.keep = warm_wal(path, wal_pages)
        if level == "FULL":  # chronicle's own setting: nothing pinned
            self.rec = recorder_on(path)
        else:
            with pinned(level) as self.pin:
                self.rec = recorder_on(path)
        self.player = Player(self.rec, workload)
        self.written: list[Envelope] = []  # the envelopes of the last run

    def run(self, steps: Sequence[Step]) -> float:
        self.player.create_games(steps)
        calls = list(self.player.calls(steps))
        record = self.rec.record
        settle()
        start = time.perf_counter()
        written = [record(gid, action).event for gid, action in calls]
        elapsed = time.perf_counter() - start
        self.written = written
        self._check(calls)
        return elapsed

    def _check(self, calls: Sequence[tuple[str, Any]]) -> None:
        """One event per action (table mode writes no server turns); the raw and
        eventsourcing sides mirror chronicle's events one to one on that basis."""
        stored = {gid: self.rec.last_seq(gid) for gid, _ in calls}
        last = {env["game_id"]: env["seq"] for env in self.written}
        if stored != last or len(self.written) != len(calls):
            raise RuntimeError("a record wrote more than one event; the baselines assume one")
        if self.pin is not None:
            self.pin.check()

    def close(self) -> None:
        self.rec.store.close()
        self.keep.close()


class OneCommitEach(Protocol):
    """A raw baseline: the rows as its table takes them, open connections, and one
    transaction per row (RawSide for SQLite, bench/postgres.py's for PostgreSQL)."""

    def params(self, rows: Sequence[Envelope]) -> list[tuple[Any, ...]]: ...

    def connections(self, n: int) -> list[Any]: ...

    def insert(self, conn: Any, params: Sequence[tuple[Any, ...]]) -> None: ...


class RawSide:
    """Plain sqlite3: the same rows, `BEGIN IMMEDIATE` + INSERT + `COMMIT` each, WAL, from
    connections kept open across runs (as chronicle's are)."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
              " type TEXT NOT NULL, actor TEXT NOT NULL, data TEXT NOT NULL, "
              "recorded_at TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, "
              "salt TEXT NOT NULL, idempotency_key TEXT, PRIMARY KEY (game_id, seq)) STRICT")
    INSERT = (f"INSERT INTO events ({', '.join(ENVELOPE_FIELDS)}) "
              f"VALUES ({', '.join('?' * len(ENVELOPE_FIELDS))})")

    def __init__(self, path: Path, level: str = "FULL", wal_pages: int = PAGES) -> None:
        self.path = path
        self.level = level
        self.keep = warm_wal(path, wal_pages)
        self.conns = [self.connect()]
        self.conns[0].execute(self.SCHEMA)

    def connections(self, n: int) -> list[sqlite3.Connection]:
        """`n` open connections (one per writer thread), made once."""
        while len(self.conns) < n:
            self.conns.append(self.connect())
        return self.conns[:n]

    def connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {self.level}")
        return conn

    @staticmethod
    def params(rows: Sequence[Envelope]) -> list[tuple[Any, ...]]:
        """The rows as chronicle stores them (actor and data as JSON text)."""
        out = []
        for env in rows:
            values = {**env, "actor": json.dumps(env["actor"]),
                      "data": json.dumps(env["data"], sort_keys=True)}
            out.append(tuple(values[k] for k in ENVELOPE_FIELDS))
        return out

    def insert(self, conn: sqlite3.Connection, params: Sequence[tuple[Any, ...]]) -> None:
        execute = conn.execute
        for p in params:
            execute("BEGIN IMMEDIATE")
            execute(self.INSERT, p)
            execute("COMMIT")

    def run(self, rows: Sequence[Envelope]) -> float:
        params = self.params(rows)
        settle()
        start = time.perf_counter()
        self.insert(self.conns[0], params)
        return time.perf_counter() - start

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.keep.close()


@functools.cache
def _peer_classes() -> tuple[type[Any], type[Any]]:
    """An eventsourcing application doing chronicle's work: its aggregate is a game whose
    every event is applied by the same game rules (`GameRules.apply`, each game bound to
    its default edition once), as chronicle's fold applies them, so a refused action never
    becomes an event. Defined once (eventsourcing registers each class by its topic)."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    from projections import get_rules
    from projections.rules import Action

    class RulesGame(Aggregate):
        """A game: the states of its effective actions (undo pops one, redo pushes it
        back), as chronicle's undo retracts the latest effective action."""

        def __init__(self, game: str, created: dict[str, Any]) -> None:
            self.game = game
            self.states = [get_rules(game).initial_state(created)]
            self.undone: list[Any] = []

        @event("Played")
        def play(self, type: str, actor: Any, data: dict[str, Any]) -> None:
            action = Action.of(type, actor, data)
            self.states.append(get_rules(self.game).apply(self.states[-1], action))
            self.undone.clear()

        @event("Undone")
        def undo(self) -> None:
            self.undone.append(self.states.pop())

        @event("Redone")
        def redo(self) -> None:
            self.states.append(self.undone.pop())

        @event("Noted")
        def note(self, text: str) -> None:
            pass

    class RulesGames(Application[Any]):
        pass

    return RulesGame, RulesGames


class PeerSide:
    """The peer doing the same work (issue #34): eventsourcing 9 with an aggregate per
    game that applies each action by the game's own rules before the event is kept, then
    one `save()` per action, persisted by eventsourcing's SQLite recorder at the same
    `synchronous` level. The aggregates stay in memory, as chronicle's folds do."""

    def __init__(self, path: Path, workload: Workload, level: str = "FULL",
                 wal_pages: int = PAGES) -> None:
        self.game_class, games = _peer_classes()
        self.workload = workload
        self.keep = warm_wal(path, wal_pages)
        with pinned(level) as self.pin:
            self.app = games(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                  "SQLITE_DBNAME": str(path), "SQLITE_LOCK_TIMEOUT": "30"})
        self.games: dict[int, Any] = {}

    def _game(self, index: int) -> Any:
        game = self.games.get(index)
        if game is None:
            real = self.workload.games[index]
            created = {**real.request, "edition": {"name": "default", "sha256": ""},
                       "seed_commitment": None}
            game = self.games[index] = self.game_class(real.slug, created)
            self.app.save(game)
        return game

    def run(self, steps: Sequence[Step]) -> float:
        work = [(self._game(step.game), step.action) for step in steps]
        save = self.app.save
        settle()
        start = time.perf_counter()
        for game, action in work:
            kind = action["type"]
            if kind == "undo":
                game.undo()
            elif kind == "redo":
                game.redo()
            elif kind == "note":
                game.note(str(action["data"].get("text", "")))
            else:
                game.play(kind, action["actor"], action["data"])
            save(game)
        elapsed = time.perf_counter() - start
        self.pin.check()
        return elapsed

    def close(self) -> None:
        self.app.close()
        self.keep.close()


@functools.cache
def _es_classes() -> tuple[type[Any], type[Any]]:
    """The aggregate and application, defined once: eventsourcing registers each class by
    its topic and refuses a second class of the same name. Imported here so the rest of
    the suite runs without the library."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        def __init__(self, game: str) -> None:
            self.game = game
            self.actions = 0

        @event("Recorded")
        def record(self, type: str, actor: Any, data: dict[str, Any]) -> None:
            self.actions += 1

    class Tables(Application[Any]):
        pass

    return Table, Tables


class EventsourcingSide:
    """The eventsourcing library (9.x): one aggregate per game, kept in memory (its
    cheapest path: no repository read per save), one event and one `save()` per action,
    persisted by `eventsourcing.sqlite` (WAL; the level pinned like chronicle's)."""

    def __init__(self, path: Path, level: str = "FULL", wal_pages: int = PAGES) -> None:
        self.table_class, tables = _es_classes()
        self.keep = warm_wal(path, wal_pages)
        with pinned(level) as self.pin:
            self.app = tables(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                   "SQLITE_DBNAME": str(path), "SQLITE_LOCK_TIMEOUT": "30"})
            self.tables: dict[str, Any] = {}
            self._table("warm-up")  # opens the pool's connection inside the pin

    def _table(self, game_id: str) -> Any:
        table = self.tables.get(game_id)
        if table is None:
            table = self.tables[game_id] = self.table_class(game_id)
            self.app.save(table)
        return table

    def run(self, rows: Sequence[Envelope]) -> float:
        work = [(self._table(env["game_id"]), env["type"], env["actor"], env["data"])
                for env in rows]
        save = self.app.save
        settle()
        start = time.perf_counter()
        for table, kind, actor, data in work:
            table.record(kind, actor, data)
            save(table)
        elapsed = time.perf_counter() - start
        self.pin.check()
        return elapsed

    def close(self) -> None:
        self.app.close()
        self.keep.close()
