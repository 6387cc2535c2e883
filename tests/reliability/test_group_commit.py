"""Group commit: appends waiting together share one transaction, and each caller gets exactly
its own outcome, only after the commit that covers it (issue #23, RELIABILITY.md).

Threads of one process append through stores of their own (one connection each, as the API's
threads do). The first batch is held in its commit so that the others queue behind it; the
transactions are counted on every connection (COMMIT statements seen by SQLite's trace
hook), not by the queue's own bookkeeping. Planted among the appends: one that leaves a gap
(stale seq), one whose Idempotency-Key is taken, and two that race for the same seq.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from events import Conflict
from events.errors import StorageError
from events.group import GroupCommit
from events.model import GENESIS, seal
from events.sqlite import SQLiteStore

from .conftest import count

WRITERS = 8


def _row(game_id: str) -> dict:
    return {"id": game_id, "game": "adaman", "rules_version": "1", "players": ["Ann"],
            "mode": "table", "edition_name": "default", "edition_sha256": "x" * 64,
            "created_at": "2026-01-01T00:00:00.000000Z", "status": "in_progress"}


def _games(db: Path, n: int) -> list[dict]:
    """n games with event 0 and a note keyed "taken"; their last envelopes."""
    store = SQLiteStore(str(db))
    last = []
    for i in range(n):
        created = seal(f"g{i}", 0, "game_created", "table", {"game": "adaman"}, GENESIS)
        note = seal(f"g{i}", 1, "note", "table", {"n": 1}, created["hash"], "taken")
        store.import_game(_row(f"g{i}"), [created, note], {})
        last.append(note)
    store.close()
    return last


def _stored(db: Path, game_id: str, seq: int) -> dict | None:
    """The event as a fresh connection sees it: committed, or absent."""
    conn = sqlite3.connect(str(db))
    try:
        row = conn.execute("SELECT hash FROM events WHERE game_id = ? AND seq = ?",
                           (game_id, seq)).fetchone()
    finally:
        conn.close()
    return None if row is None else {"hash": row[0]}


class Commits:
    """COMMIT statements on every connection of the test, each held a moment as it starts
    (the first longer, so that the others queue behind it). A caller answered before its
    commit would look for its event while the COMMIT is still held, and not find it."""

    def __init__(self, first: float = 0.3, each: float = 0.05) -> None:
        self.count = 0
        self._lock = threading.Lock()
        self._holds = (first, each)

    def watch(self, store: SQLiteStore) -> None:
        def trace(sql: str) -> None:
            if sql.strip().upper() == "COMMIT":
                with self._lock:
                    self.count += 1
                    hold = self._holds[self.count > 1]
                time.sleep(hold)  # the trace hook runs as the statement starts

        store.conn.set_trace_callback(trace)


def _race(db: Path, plans: list[tuple[str, dict]], commits: Commits) -> list:
    """Each plan (label, envelope) appended by a thread of its own, all at once: the first
    leads; the plain ones arrive while it commits, those labelled after them ("race",
    "taken") a little later, so that they queue behind the event they follow."""
    stores = [SQLiteStore(str(db)) for _ in plans]
    for store in stores:
        commits.watch(store)
    gate = threading.Barrier(len(plans))
    outcomes: list = [None] * len(plans)

    def append(i: int) -> None:
        label, env = plans[i]
        gate.wait()
        time.sleep(0 if i == 0 else 0.08 if label.startswith(("race", "taken")) else 0.02)
        try:
            stores[i].append_all([env])
            # acknowledged: a fresh connection must see it now
            outcomes[i] = ("stored", _stored(db, env["game_id"], env["seq"]))
        except Exception as err:  # each caller's own outcome, whatever it is
            outcomes[i] = ("refused", err)

    threads = [threading.Thread(target=append, args=(i,)) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for store in stores:
        store.close()
    return outcomes


def test_appends_waiting_together_commit_together_and_each_gets_its_own_outcome(
        tmp_path):
    db = tmp_path / "group.db"
    last = _games(db, WRITERS)
    plans = [(f"next {i}", seal(f"g{i}", 2, "note", "table", {"w": i}, last[i]["hash"]))
             for i in range(WRITERS)]
    plans += [
        ("gap", seal("g0", 7, "note", "table", {"gap": 1}, last[0]["hash"])),
        ("taken key", seal("g1", 3, "note", "table", {"k": 1}, plans[1][1]["hash"], "taken")),
        ("race a", seal("g2", 3, "note", "table", {"r": "a"}, plans[2][1]["hash"])),
        ("race b", seal("g2", 3, "note", "table", {"r": "b"}, plans[2][1]["hash"])),
    ]
    commits = Commits(first=1.0)  # long enough for every other thread to queue, even loaded
    outcomes = dict(zip((label for label, _ in plans), _race(db, plans, commits), strict=True))
    envs = dict(plans)

    for i in range(WRITERS):
        kind, seen = outcomes[f"next {i}"]
        assert kind == "stored", outcomes[f"next {i}"]
        assert seen == {"hash": envs[f"next {i}"]["hash"]}, "answered before its commit"
    kind, err = outcomes["gap"]
    assert kind == "refused" and isinstance(err, Conflict) and err.code == "stale_sequence"
    assert _stored(db, "g0", 7) is None
    # the taken key is refused whether its batch ran before or after its game's seq 2
    kind, err = outcomes["taken key"]
    assert kind == "refused" and isinstance(err, Conflict), outcomes["taken key"]
    assert err.code in ("idempotency_key_taken", "stale_sequence")
    assert _stored(db, "g1", 3) is None
    race = sorted(outcomes[k][0] for k in ("race a", "race b"))
    assert race == ["refused", "stored"], "exactly one of two appends of one seq is stored"
    winner = next(k for k in ("race a", "race b") if outcomes[k][0] == "stored")
    assert _stored(db, "g2", 3) == {"hash": envs[winner]["hash"]}
    stored = WRITERS + 1
    assert commits.count < stored, (commits.count, stored)
    count("group commit: appends stored", stored)
    count("group commit: transactions they took", commits.count)


def test_a_batch_the_database_fails_stores_none_and_tells_each_caller(tmp_path, monkeypatch):
    """One append of the batch meets a database error (planted): the transaction is gone,
    so none of the batch is stored and every caller hears StorageError, none a success."""
    db = tmp_path / "failing.db"
    last = _games(db, WRITERS)
    plans = [(f"next {i}", seal(f"g{i}", 2, "note", "table", {"w": i}, last[i]["hash"]))
             for i in range(WRITERS)]
    real = SQLiteStore._insert_event

    def failing(store, run, env, follows=False):
        if env["game_id"] == "g5":
            raise sqlite3.OperationalError("database or disk is full")
        return real(store, run, env, follows)

    monkeypatch.setattr(SQLiteStore, "_insert_event", failing)
    commits = Commits(first=1.0)
    outcomes = _race(db, plans, commits)
    batch_of_g5 = [o for (label, _), o in zip(plans, outcomes, strict=True)
                   if o[0] == "refused"]
    assert outcomes[5][0] == "refused" and isinstance(outcomes[5][1], StorageError)
    for (label, env), (kind, value) in zip(plans, outcomes, strict=True):
        if kind == "stored":
            assert value == {"hash": env["hash"]}, label
        else:
            assert isinstance(value, StorageError), (label, value)
            assert value.code == "storage_write_failed"
            assert _stored(db, env["game_id"], env["seq"]) is None, label
    assert len(batch_of_g5) > 1, "the failure took its whole batch, not g5 alone"


def test_a_lone_append_commits_at_once_without_waiting_for_company(tmp_path):
    db = tmp_path / "alone.db"
    last = _games(db, 1)
    store = SQLiteStore(str(db))
    started = time.monotonic()
    store.append_all([seal("g0", 2, "note", "table", {}, last[0]["hash"])])
    assert time.monotonic() - started < 5
    assert _stored(db, "g0", 2) is not None
    store.close()


class _InterruptedWait(threading.Condition):
    """A condition whose wait is interrupted in the thread named "interrupted" (as a
    worker's timeout or a signal would interrupt it), once that thread waits."""

    def wait(self, timeout=None):
        if threading.current_thread().name == "interrupted":
            raise KeyboardInterrupt
        return super().wait(timeout)


def test_a_caller_interrupted_while_it_waits_does_not_block_the_appends_after_it():
    """The interrupted caller was at the head of the queue behind a commit under way: it
    withdraws its append (never stored, never answered), and the next caller still gets
    its turn. Before, it stayed at the head and every later append waited for ever."""
    group = GroupCommit()
    group._cond = _InterruptedWait(threading.Lock())
    release = threading.Event()
    ran: list[str] = []

    def commit(batch):
        release.wait(10)
        for pending in batch:
            pending.result = pending.work()
            ran.append(pending.result)

    outcomes: dict[str, object] = {}

    def caller(name: str) -> None:
        try:
            outcomes[name] = group.submit(lambda: name, commit)
        except BaseException as err:  # the interrupt is the point
            outcomes[name] = err

    threads = [threading.Thread(target=caller, args=(n,), name=n, daemon=True)
               for n in ("leader", "interrupted", "after")]
    threads[0].start()
    while not group._busy:
        time.sleep(0.001)
    for t in threads[1:]:
        t.start()
        while not any(p.work() == t.name for p in list(group._queue)) and t.is_alive():
            time.sleep(0.001)
    release.set()
    for t in threads:
        t.join(timeout=10)
    assert not any(t.is_alive() for t in threads), "an append after the interrupted one hung"
    assert isinstance(outcomes["interrupted"], KeyboardInterrupt)
    assert outcomes["leader"] == "leader" and outcomes["after"] == "after"
    assert "interrupted" not in ran, "a withdrawn append is never stored"
    assert not group._queue
