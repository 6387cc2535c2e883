"""The SQLite store: append-only by database fact, optimistic concurrency, idempotency."""

from __future__ import annotations

import sqlite3

import pytest

from events.errors import Conflict
from events.model import GENESIS, seal
from events.sqlite import SQLiteStore


def _new_game(store, game_id="g1"):
    created = seal(game_id, 0, "game_created", "table", {"game": "adaman"}, GENESIS)
    row = {"id": game_id, "game": "adaman", "rules_version": "1", "players": ["Ann"],
           "mode": "table", "edition_name": "default", "edition_sha256": "x" * 64,
           "created_at": created["recorded_at"], "status": "in_progress"}
    store.create_game(row, created, {"h" * 64: "recorder"}, None)
    return created


def test_append_then_read_back_in_order(store):
    created = _new_game(store)
    env = seal("g1", 1, "control", 0, {"a": 1}, created["hash"])
    store.append(env)
    assert list(store.events("g1")) == [created, env]
    assert store.last_event("g1") == env


def test_an_append_with_a_stale_seq_is_a_conflict_and_stores_nothing(store):
    created = _new_game(store)
    store.append(seal("g1", 1, "control", 0, {}, created["hash"]))
    with pytest.raises(Conflict) as err:
        store.append(seal("g1", 1, "control", 0, {"other": True}, created["hash"]))
    assert err.value.code == "stale_sequence"
    assert [e["seq"] for e in store.events("g1")] == [0, 1]
    assert store.last_event("g1")["data"] == {}


def test_an_append_that_would_leave_a_gap_is_refused(store):
    created = _new_game(store)
    with pytest.raises(Conflict):
        store.append(seal("g1", 5, "control", 0, {}, created["hash"]))
    assert [e["seq"] for e in store.events("g1")] == [0]


def test_the_database_refuses_update_and_delete_on_events(store, db_path):
    _new_game(store)
    raw = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        raw.execute("UPDATE events SET data = '{}' WHERE seq = 0")
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        raw.execute("DELETE FROM events")
    raw.close()
    assert len(list(store.events("g1"))) == 1


def test_migrations_are_idempotent(db_path):
    SQLiteStore(str(db_path)).close()
    again = SQLiteStore(str(db_path))
    assert "events" in again.db.table_names()
    again.close()


def test_the_database_runs_in_wal_mode(store):
    assert store.db.journal_mode == "wal"


def test_an_idempotency_key_finds_the_event_it_stored(store):
    created = _new_game(store)
    env = seal("g1", 1, "control", 0, {}, created["hash"], idempotency_key="k1")
    store.append(env)
    assert store.event_by_key("g1", "k1") == env
    assert store.event_by_key("g1", "k2") is None


def test_snapshots_return_the_latest_at_or_before_a_seq(store):
    store.put_snapshot("g1", 64, "k", b"a")
    store.put_snapshot("g1", 128, "k", b"b")
    assert store.snapshot("g1", 100, "k") == (64, b"a")
    assert store.snapshot("g1", 500, "k") == (128, b"b")
    assert store.snapshot("g1", 10, "k") is None
    assert store.snapshot("g1", 500, "other") is None
