"""The store contract: every backend (SQLite, PostgreSQL, memory) passes these same tests
unchanged.

Append-only by database fact, optimistic concurrency, idempotency keys, the hash chain kept
exactly, snapshots, editions, tokens and seeds. The `store` fixture here runs each test on
each backend; PostgreSQL tests are skipped (with the reason) without CHRONICLE_TEST_POSTGRES.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from events import open_store
from events.errors import Conflict
from events.model import GENESIS, chain_problems, seal
from events.sqlite import SQLiteStore
from events.store import GameFilter, Summary

#: the backends whose SQL can be reached from outside the store
SQL = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=["sqlite", "memory", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, db_path) -> str:
    """The database URL of each backend in turn, the memory store's named for this test."""
    if request.param == "sqlite":
        return str(db_path)
    if request.param == "memory":
        return f"memory:{db_path}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(store_url):
    s = open_store(store_url)
    yield s
    s.close()


def _row(game_id="g1", created_at="2026-01-01T00:00:00.000000Z", players=("Ann",),
         game="adaman"):
    return {"id": game_id, "game": game, "rules_version": "1", "players": list(players),
            "mode": "table", "edition_name": "default", "edition_sha256": "x" * 64,
            "created_at": created_at, "status": "in_progress"}


def _new_game(store, game_id="g1", seed=None, **row):
    created = seal(game_id, 0, "game_created", "table", {"game": "adaman"}, GENESIS)
    store.create_game(_row(game_id, **row), created, {f"{game_id}-recorder": "recorder"}, seed)
    return created


def _chain(game_id, n, prev=GENESIS):
    out = []
    for seq in range(n):
        env = seal(game_id, seq, "game_created" if seq == 0 else "note", "table",
                   {"n": seq}, prev)
        out.append(env)
        prev = env["hash"]
    return out


def _raw(url: str, sql: str) -> None:
    """Run one statement on a connection of our own, outside the store."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql)
    else:
        conn = sqlite3.connect(url, isolation_level=None)
        try:
            conn.execute(sql)
        finally:
            conn.close()


# -- events -----------------------------------------------------------------------------
def test_append_then_read_back_in_order(store):
    created = _new_game(store)
    env = seal("g1", 1, "control", 0, {"a": 1}, created["hash"])
    store.append(env)
    assert list(store.events("g1")) == [created, env]
    assert store.last_event("g1") == env
    assert store.event("g1", 1) == env


def test_an_append_with_a_stale_seq_is_a_conflict_and_stores_nothing(store):
    created = _new_game(store)
    store.append(seal("g1", 1, "control", 0, {}, created["hash"]))
    with pytest.raises(Conflict) as err:
        store.append(seal("g1", 1, "control", 0, {"other": True}, created["hash"]))
    assert err.value.code == "stale_sequence"
    assert err.value.status == 409
    assert [e["seq"] for e in store.events("g1")] == [0, 1]
    assert store.last_event("g1")["data"] == {}


def test_an_append_that_would_leave_a_gap_is_refused(store):
    created = _new_game(store)
    with pytest.raises(Conflict):
        store.append(seal("g1", 5, "control", 0, {}, created["hash"]))
    assert [e["seq"] for e in store.events("g1")] == [0]


def test_an_append_to_an_unknown_game_is_refused(store):
    with pytest.raises(Conflict):
        store.append(seal("nope", 1, "control", 0, {}, GENESIS))
    assert store.last_event("nope") is None
    assert list(store.events("nope")) == []


@pytest.mark.parametrize("store_url", SQL, indirect=True)
def test_the_database_refuses_update_and_delete_on_events(store, store_url):
    _new_game(store)
    for sql in ("UPDATE events SET type = 'x' WHERE seq = 0", "DELETE FROM events"):
        with pytest.raises(Exception, match="immutable"):
            _raw(store_url, sql)
    assert len(list(store.events("g1"))) == 1


def test_what_comes_back_is_exactly_what_was_hashed(store):
    created = _new_game(store)
    data = {"text": "Å café — 東京 \u2028", "f": 0.1, "big": 1e300, "tiny": 1e-7, "i": 2**62,
            "neg": -0.0, "nested": {"b": [1, "2", None, True], "a": {}}, "empty": []}
    env = seal("g1", 1, "note", "table", data, created["hash"], idempotency_key="ünï")
    store.append(env)
    back = list(store.events("g1"))
    assert back[1] == env
    assert chain_problems(back) == []


def test_paging_with_after_upto_and_limit(store):
    envs = _chain("g1", 1)
    store.create_game(_row(), envs[0], {}, None)
    prev = envs[0]["hash"]
    for seq in range(1, 12):
        env = seal("g1", seq, "note", "table", {"n": seq}, prev)
        store.append(env)
        prev = env["hash"]
    assert [e["seq"] for e in store.events("g1", after=3, upto=6)] == [4, 5, 6]
    assert [e["seq"] for e in store.events("g1", after=3, limit=2)] == [4, 5]
    assert [e["seq"] for e in store.events("g1", after=9)] == [10, 11]
    assert chain_problems(list(store.events("g1"))) == []


def test_an_idempotency_key_finds_the_event_it_stored(store):
    created = _new_game(store)
    env = seal("g1", 1, "control", 0, {}, created["hash"], idempotency_key="k1")
    store.append(env)
    assert store.event_by_key("g1", "k1") == env
    assert store.event_by_key("g1", "k2") is None
    assert store.event_by_key("other", "k1") is None
    with pytest.raises(Conflict):  # one key, one event
        store.append(seal("g1", 2, "control", 0, {}, env["hash"], idempotency_key="k1"))
    assert store.last_event("g1")["seq"] == 1


def test_concurrent_appends_from_several_connections_serialize(store_url, store):
    """Eight writers, one game, each with its own store: no seq lost, duplicated or forked."""
    created = _new_game(store)
    acked: list[dict] = []
    conflicts = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        mine = open_store(store_url)
        try:
            for i in range(6):
                while True:
                    last = mine.last_event("g1")
                    env = seal("g1", last["seq"] + 1, "note", "table", {"w": n, "i": i},
                               last["hash"])
                    try:
                        mine.append(env)
                    except Conflict:
                        with lock:
                            conflicts.append(n)
                        continue
                    with lock:
                        acked.append(env)
                    break
        finally:
            mine.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    stored = list(store.events("g1"))
    assert [e["seq"] for e in stored] == list(range(49))
    assert chain_problems(stored) == []
    assert stored[0] == created
    assert sorted(stored[1:], key=lambda e: e["seq"]) == sorted(acked, key=lambda e: e["seq"])


def test_wait_for_event_sees_an_append_made_through_another_store(store_url, store):
    created = _new_game(store)
    assert store.wait_for_event("g1", -1, 0.1) is True
    started = time.monotonic()
    assert store.wait_for_event("g1", 0, 0.3) is False
    assert 0.25 <= time.monotonic() - started < 5

    other = open_store(store_url)
    timer = threading.Timer(0.3, lambda: other.append(
        seal("g1", 1, "note", "table", {}, created["hash"])))
    timer.start()
    try:
        started = time.monotonic()
        assert store.wait_for_event("g1", 0, 10) is True
        assert time.monotonic() - started < 5
    finally:
        timer.join()
        other.close()


# -- games ------------------------------------------------------------------------------
def test_a_game_id_is_stored_once(store):
    _new_game(store)
    with pytest.raises(Conflict) as err:
        _new_game(store)
    assert err.value.code == "game_exists"
    assert len(list(store.events("g1"))) == 1


def test_game_rows_round_trip_and_carry_a_summary(store):
    _new_game(store, players=("Ann", "Ben"))
    row = store.game("g1")
    assert row["players"] == ["Ann", "Ben"]
    assert row["status"] == "in_progress" and row["result"] is None
    result = {"scores": [12], "winners": [0], "reason": "won", "breakdown": {"x": 1.5}}
    store.set_summary("g1", "finished", result, audit="ok")
    row = store.game("g1")
    assert (row["status"], row["result"], row["audit"]) == ("finished", result, "ok")
    store.set_summary("g1", "finished", result)
    assert store.game("g1")["audit"] == "ok"
    assert store.game("nope") is None


def test_list_games_filters_newest_first_with_a_total(store):
    _new_game(store, "a", created_at="2026-01-01T00:00:00Z", players=("Ann",))
    _new_game(store, "b", created_at="2026-01-02T00:00:00Z", players=("Ben",))
    _new_game(store, "c", created_at="2026-01-03T00:00:00Z", players=("Anna",), game="royals")
    store.set_summary("b", "finished", None)
    rows, total = store.list_games(GameFilter())
    assert [r["id"] for r in rows] == ["c", "b", "a"] and total == 3
    assert [r["id"] for r in store.list_games(GameFilter(player="ann"))[0]] == ["c", "a"]
    assert [r["id"] for r in store.list_games(GameFilter(game="adaman"))[0]] == ["b", "a"]
    assert [r["id"] for r in store.list_games(GameFilter(status="finished"))[0]] == ["b"]
    rows, total = store.list_games(GameFilter(created_from="2026-01-02", limit=1, offset=1))
    assert [r["id"] for r in rows] == ["b"] and total == 2
    assert store.list_games(GameFilter(created_to="2026-01-01T12"))[0][0]["id"] == "a"


def test_a_player_filter_takes_percent_and_underscore_literally_on_every_backend(store):
    """Issue #21: the PostgreSQL filter escaped `%` and `_`, the SQLite one did not, so a
    player named `a_b` matched different games on the two backends."""
    _new_game(store, "under", players=("a_b",))
    _new_game(store, "wild", players=("axb",))
    _new_game(store, "pct", players=("50%",))
    _new_game(store, "fifty", players=("500",))
    _new_game(store, "slash", players=("a\\b",))
    assert [r["id"] for r in store.list_games(GameFilter(player="a_b"))[0]] == ["under"]
    assert [r["id"] for r in store.list_games(GameFilter(player="50%"))[0]] == ["pct"]
    assert [r["id"] for r in store.list_games(GameFilter(player="a\\b"))[0]] == ["slash"]
    assert {r["id"] for r in store.list_games(GameFilter(player="A"))[0]} == {
        "under", "wild", "slash"}


def test_import_stores_events_tokens_and_seed_in_one_go(store):
    envs = _chain("g1", 5)
    store.import_game(_row(), envs, {"t0": "recorder", "t1": "seat:0"}, seed="s3cret")
    assert list(store.events("g1")) == envs
    assert store.tokens("g1") == {"t0": "recorder", "t1": "seat:0"}
    assert store.token_role("g1", "t1") == "seat:0"
    assert store.token_role("g1", "nope") is None
    assert store.seed("g1") == "s3cret"
    with pytest.raises(Conflict):
        store.import_game(_row(), envs, {}, None)
    assert list(store.events("g1")) == envs


def test_create_game_keeps_tokens_and_the_seed(store):
    _new_game(store, seed="abc")
    assert store.seed("g1") == "abc"
    assert store.tokens("g1") == {"g1-recorder": "recorder"}
    _new_game(store, "g2")
    assert store.seed("g2") is None


# -- editions, snapshots, migrations ------------------------------------------------------
def test_editions_are_kept_by_hash_once(store):
    store.put_edition("adaman", "printed", "e" * 64, '{"slug": "adaman"}')
    store.put_edition("adaman", "again", "e" * 64, '{"slug": "other"}')
    store.put_edition("royals", "default", "f" * 64, "{}")
    assert store.edition("e" * 64)["content"] == '{"slug": "adaman"}'
    assert store.edition("e" * 64)["name"] == "printed"
    assert store.edition("0" * 64) is None
    assert [e["sha256"] for e in store.editions("adaman")] == ["e" * 64]
    assert len(store.editions()) == 2
    assert set(store.editions()[0]) == {"sha256", "slug", "name", "added_at"}


def test_snapshots_return_the_latest_at_or_before_a_seq(store):
    store.put_snapshot("g1", 64, "k", b"a")
    store.put_snapshot("g1", 128, "k", b"b\x00\xff")
    store.put_snapshot("g1", 128, "k", b"b\x00\xff")  # twice is fine
    assert store.snapshot("g1", 100, "k") == (64, b"a")
    assert store.snapshot("g1", 500, "k") == (128, b"b\x00\xff")
    assert store.snapshot("g1", 10, "k") is None
    assert store.snapshot("g1", 500, "other") is None


def test_migrations_are_idempotent(store_url, store):
    _new_game(store)
    again = open_store(store_url)
    assert again.game("g1")["id"] == "g1"
    again.close()


# -- SQLite only ----------------------------------------------------------------------------
def test_the_sqlite_database_runs_in_wal_mode(db_path):
    s = SQLiteStore(str(db_path))
    assert s.db.journal_mode == "wal"
    assert "events" in s.db.table_names()
    s.close()


@pytest.mark.parametrize("url", ["sqlite:///{}", "{}"])
def test_open_store_takes_a_path_or_a_sqlite_url(db_path, url):
    s = open_store(url.format(db_path))
    assert isinstance(s, SQLiteStore)
    s.close()
    assert db_path.exists()


# -- the read model and the marks of a history page ----------------------------------------
def test_an_append_commits_its_summary_and_digests_with_it(store):
    created = _new_game(store)
    result = {"scores": [3], "winners": [0], "reason": "done", "breakdown": {}}
    env = seal("g1", 1, "control", 0, {}, created["hash"])
    store.append_all([env], Summary("finished", result, "rules-1", {0: "d0", 1: "d1"}))
    assert (store.game("g1")["status"], store.game("g1")["result"]) == ("finished", result)
    assert store.digests("g1", "rules-1") == {0: "d0", 1: "d1"}
    store.put_digests("g1", "rules-1", {1: "d1'", 2: "d2"})
    assert store.digests("g1", "rules-1") == {0: "d0", 1: "d1'", 2: "d2"}
    assert store.digests("g1", "rules-2") == {}
    unchanged = seal("g1", 2, "note", "table", {}, env["hash"])
    store.append_all([unchanged], Summary("in_progress", None, changed=False))
    assert store.game("g1")["status"] == "finished"  # a summary that did not change is kept


def test_a_refused_append_stores_none_of_its_events_nor_its_summary(store):
    created = _new_game(store)
    first = seal("g1", 1, "note", "table", {}, created["hash"], idempotency_key="k")
    second = seal("g1", 2, "note", "table", {}, first["hash"], idempotency_key="k")
    with pytest.raises(Conflict) as err:
        store.append_all([first, second], Summary("finished", None, "r", {1: "x"}))
    assert err.value.code == "idempotency_key_taken"
    assert store.last_seq("g1") == 0 and store.game("g1")["status"] == "in_progress"
    assert store.digests("g1", "r") == {}


def test_undo_redo_and_corrections_are_found_by_the_seq_they_name(store):
    prev, envs = _new_game(store)["hash"], []
    for seq, (kind, data) in enumerate([("control", {}), ("undo", {"target_seq": 1}),
                                        ("redo", {"target_seq": 1}), ("undo", {}),
                                        ("correction", {"target_seq": 1}),
                                        ("note", {"target_seq": 1}),
                                        ("redo", {"target_seq": None})], 1):
        envs.append(seal("g1", seq, kind, "table", data, prev))
        store.append(envs[-1])
        prev = envs[-1]["hash"]
    assert [e["seq"] for e in store.aimed_at("g1", [1, 9])] == [2, 3, 5]
    assert store.aimed_at("g1", [4]) == []
    assert [e["seq"] for e in store.unaimed("g1")] == [4, 7]  # no target they name


def test_the_fork_filter_and_a_digital_games_secret(store):
    _new_game(store, "played", seed="s", created_at="2026-01-01T00:00:00Z")
    created = seal("fork", 0, "game_created", "table", {"game": "adaman"}, GENESIS)
    store.create_game({**_row("fork", created_at="2026-01-02T00:00:00Z"),
                       "origin": {"game_id": "played", "seq": 0, "hash": "h"}},
                      created, {}, None, "salt")
    assert [r["id"] for r in store.list_games(GameFilter(forks=True))[0]] == ["fork"]
    assert [r["id"] for r in store.list_games(GameFilter(forks=False))[0]] == ["played"]
    assert store.game("fork")["origin"] == {"game_id": "played", "seq": 0, "hash": "h"}
    assert store.secret("played") == ("s", None) and store.salt("played") is None
    assert store.secret("fork") is None and store.seed("fork") is None
