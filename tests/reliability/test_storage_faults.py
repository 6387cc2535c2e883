"""Storage faults: a full disk and a read-only database give a clear StorageError (HTTP 503
with the one error body), store nothing partial and leave the log readable.

A full disk is simulated with SQLite's `PRAGMA max_page_count` (per connection), a
read-only database with a `file:...?mode=ro` URI, and with file mode 0444 where the tests do
not run as root (root ignores file modes).
"""

from __future__ import annotations

import os
import sqlite3

import pytest

from api import create_app
from events import Recorder, StorageError
from events.sqlite import SQLiteStore

from .conftest import count, import_prefix, table_game

BIG_NOTE = {"type": "note", "actor": "table", "data": {"text": "x" * 200_000}}
TABLES = ("games", "events", "tokens", "editions", "seeds")


def _rows(db) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        conn.close()


def _fill_disk(store: SQLiteStore) -> None:
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")


def _readable(rec: Recorder, game_id: str, last: int) -> None:
    assert rec.last_seq(game_id) == last
    assert rec.state(game_id)["seq"] == last
    assert len(rec.history(game_id)[0]) == last + 1
    assert len(list(rec.export(game_id))) == last + 1
    assert rec.verify(game_id)["ok"]


def test_a_full_disk_refuses_writes_with_storage_error_and_stores_nothing(store, rec, db_path):
    other = table_game(rec)
    rec.record(other.id, BIG_NOTE)
    envelopes = list(rec.store.events(other.id))
    game = table_game(rec)
    last = rec.last_seq(game.id)
    _fill_disk(store)
    before = _rows(db_path)
    attempts = [  # every write that needs a new page (a small one may fit in a page's slack)
        lambda: rec.record(game.id, BIG_NOTE),
        lambda: import_prefix(rec, envelopes, len(envelopes) - 1, "copied"),
    ]
    for attempt in attempts:
        with pytest.raises(StorageError) as err:
            attempt()
        assert err.value.status == 503
        assert "nothing was stored" in err.value.message
        count("storage faults: refused writes (disk full)")
    assert _rows(db_path) == before, "something partial was stored"
    _readable(rec, game.id, last)
    store.conn.execute("PRAGMA max_page_count = 1073741823")
    assert rec.record(game.id, BIG_NOTE).event["seq"] == last + 1, "the game goes on"


def _read_only_checks(db_path, url: str, game_id: str, last: int) -> None:
    before = _rows(db_path)
    ro = Recorder(SQLiteStore(url))
    with pytest.raises(StorageError) as err:
        ro.record(game_id, {"type": "note", "actor": "table", "data": {}})
    assert err.value.code in ("storage_unavailable", "storage_write_failed")
    with pytest.raises(StorageError):
        ro.create_game({"game": "adaman", "players": ["Ann"]})
    _readable(ro, game_id, last)
    ro.store.close()
    assert _rows(db_path) == before
    count("storage faults: refused writes (read-only)", 2)


def test_a_read_only_database_refuses_writes_and_stays_readable(store, rec, db_path):
    game = table_game(rec)
    _read_only_checks(db_path, f"file:{db_path}?mode=ro", game.id, rec.last_seq(game.id))


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root, which writes to a "
                    "read-only (0444) file regardless: run the tests as another user to check "
                    "that such a file refuses writes")
def test_a_database_file_in_mode_0444_refuses_writes(store, rec, db_path):
    game = table_game(rec)
    last = rec.last_seq(game.id)
    store.close()
    for path in (db_path, db_path.with_name(db_path.name + "-wal")):
        if path.exists():
            path.chmod(0o444)
    try:
        _read_only_checks(db_path, str(db_path), game.id, last)
    finally:
        db_path.chmod(0o644)


# -- over HTTP ------------------------------------------------------------------------------
def _storage_503(response) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.json["error"]["kind"] == "storage"
    assert response.json["error"]["code"].startswith("storage_")
    assert "nothing was stored" in response.json["error"]["message"]


def _http_reads_work(client, game_id: str, last: int) -> None:
    assert client.get(f"/games/{game_id}").json["last_seq"] == last
    assert client.get(f"/games/{game_id}/state").json["seq"] == last
    assert len(client.get(f"/games/{game_id}/events").json["events"]) == last + 1
    assert client.get(f"/games/{game_id}/export").status_code == 200
    assert client.get(f"/games/{game_id}/verify").json["ok"] is True
    assert client.get("/games").status_code == 200


def test_http_full_disk_is_503_with_the_error_body(db_path):
    app = create_app({"TESTING": True, "DATABASE": db_path})
    client = app.test_client()
    created = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    auth = {"Authorization": f"Bearer {created['recorder_token']}"}
    _fill_disk(app.extensions["chronicle_local"].opened)
    before = _rows(db_path)
    _storage_503(client.post(f"/games/{created['id']}/events", json=BIG_NOTE, headers=auth))
    assert _rows(db_path) == before
    _http_reads_work(client, created["id"], 0)
    count("storage faults: refused writes (disk full)")


def test_http_read_only_database_is_503_for_writes_and_200_for_reads(store, rec, db_path):
    game = table_game(rec)
    last = rec.last_seq(game.id)
    app = create_app({"TESTING": True, "DATABASE": f"file:{db_path}?mode=ro"})
    client = app.test_client()
    auth = {"Authorization": f"Bearer {game.recorder_token}"}
    before = _rows(db_path)
    _storage_503(client.post(f"/games/{game.id}/events", headers=auth,
                             json={"type": "note", "actor": "table", "data": {}}))
    _storage_503(client.post(f"/games/{game.id}/undo", headers=auth))
    _storage_503(client.post("/games", json={"game": "adaman", "players": ["Ann"]}))
    assert _rows(db_path) == before
    _http_reads_work(client, game.id, last)
    count("storage faults: refused writes (read-only)", 3)
