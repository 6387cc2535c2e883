"""What only PostgreSQL has: migrations under an advisory lock, the chain trigger,
reconnection, NOTIFY, and the whole recorder over it."""

from __future__ import annotations

import json
import threading

import psycopg
import pytest

from events import Recorder, open_store
from events.errors import StorageError
from events.model import GENESIS, chain_problems, seal
from events.postgres import MIGRATIONS, PostgresStore

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(pg_url):
    s = open_store(pg_url)
    yield s
    s.close()


def test_a_postgresql_url_opens_the_postgresql_store(pg):
    assert isinstance(pg, PostgresStore)
    assert pg.migrations() == [v for v, _, _ in MIGRATIONS]


def test_several_workers_starting_at_once_migrate_exactly_once(pg_url):
    stores, errors = [], []
    barrier = threading.Barrier(6)

    def start() -> None:
        barrier.wait()
        try:
            stores.append(PostgresStore(pg_url))
        except Exception as err:  # pragma: no cover - the failure we look for
            errors.append(err)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert [s.migrations() for s in stores] == [[v for v, _, _ in MIGRATIONS]] * 6
    for s in stores:
        s.close()


def _game(pg, game_id="g1"):
    created = seal(game_id, 0, "game_created", "table", {"game": "adaman"}, GENESIS)
    pg.create_game({"id": game_id, "game": "adaman", "rules_version": "1", "players": ["A"],
                    "mode": "table", "edition_name": "default", "edition_sha256": "x" * 64,
                    "created_at": created["recorded_at"]}, created, {}, None)
    return created


def _insert_raw(url, env):
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO events (game_id, seq, type, actor, data, recorded_at, "
                     "prev_hash, hash, salt) VALUES (%s, %s, 'note', '\"table\"', '{}', "
                     "'2026-01-01T00:00:00Z', %s, %s, 's')",
                     (env["game_id"], env["seq"], env["prev_hash"], env["hash"]))


def test_the_database_itself_refuses_a_gap_or_a_broken_link(pg, pg_url):
    created = _game(pg)
    with pytest.raises(psycopg.errors.UniqueViolation, match="cannot follow"):
        _insert_raw(pg_url, {"game_id": "g1", "seq": 3, "prev_hash": created["hash"],
                             "hash": "a" * 64})
    with pytest.raises(psycopg.errors.CheckViolation, match="does not chain"):
        _insert_raw(pg_url, {"game_id": "g1", "seq": 1, "prev_hash": "b" * 64,
                             "hash": "a" * 64})
    with pytest.raises(psycopg.errors.RestrictViolation, match="immutable"), \
            psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("TRUNCATE events CASCADE")
    assert [e["seq"] for e in pg.events("g1")] == [0]


def _kill_connections(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                     "application_name LIKE 'chronicle%%' AND pid <> pg_backend_pid() "
                     "AND datname = current_database()")


def test_a_lost_connection_is_replaced(pg, pg_url):
    created = _game(pg)
    _kill_connections(pg_url)
    assert pg.game("g1")["id"] == "g1"  # a read retries once on a fresh connection
    _kill_connections(pg_url)
    env = seal("g1", 1, "note", "table", {}, created["hash"])
    pg.append(env)  # dead at BEGIN: nothing was sent, so it is retried on a fresh one
    assert chain_problems(list(pg.events("g1"))) == []
    assert len(list(pg.events("g1"))) == 2


def test_a_write_cut_off_midway_is_a_storage_error_and_stores_nothing(pg, pg_url):
    created = _game(pg)
    env = seal("g1", 1, "note", "table", {}, created["hash"])

    def cut_off(run):
        pg._insert_event(run, env)
        _kill_connections(pg_url)
        run("SELECT 1", ())

    with pytest.raises(StorageError) as err:
        pg._transaction(cut_off)
    assert err.value.status == 503
    assert [e["seq"] for e in pg.events("g1")] == [0]
    pg.append(env)  # the next call has a fresh connection
    assert [e["seq"] for e in pg.events("g1")] == [0, 1]


def test_wait_for_event_survives_a_lost_listen_connection(pg, pg_url):
    created = _game(pg)
    assert pg.wait_for_event("g1", 0, 0.05) is False
    _kill_connections(pg_url)
    pg.game("g1")
    assert pg.wait_for_event("g1", 0, 0.05) is False
    other = PostgresStore(pg_url)
    other.append(seal("g1", 1, "note", "table", {}, created["hash"]))
    other.close()
    assert pg.wait_for_event("g1", 0, 2) is True


def test_an_unreachable_server_is_a_storage_error():
    with pytest.raises(StorageError) as err:
        PostgresStore("postgresql://nobody@127.0.0.1:1/none", connect_timeout=2)
    assert err.value.code == "storage_unavailable"


def test_the_recorder_plays_a_whole_digital_game_on_postgresql(pg):
    rec = Recorder(pg)
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                              "seed": "pg-seed"})
    for _ in range(200):
        if rec.state(created.id)["status"] == "finished":
            break
        actions = rec.legal(created.id)
        rec.record(created.id, next((a for a in actions if a["type"] != "abandon"),
                                    actions[0]))
    assert rec.state(created.id)["status"] == "finished"
    report = rec.verify(created.id)
    assert report["ok"], report["problems"]
    assert pg.game(created.id)["result"] == report["result"]
    lines = list(rec.export(created.id))
    assert chain_problems([json.loads(line) for line in lines]) == []
