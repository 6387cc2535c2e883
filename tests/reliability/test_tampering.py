"""Tampering: an event altered in the database file by hand (triggers dropped, then UPDATE)
is caught by verify (CLI exit 1, API), which names the first broken seq; the game is then
marked as failing its audit on every read path (games row, state document, header).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from api import create_app
from events import Recorder, StorageError
from events.sqlite import SQLiteStore

from .conftest import count, table_game

READS = ("", "/state", "/events", "/legal-actions", "/export", "/events/stream", "/verify")


def _game_with_history(rec: Recorder) -> str:
    gid = table_game(rec).id
    for n in range(6):
        rec.record(gid, {"type": "note", "actor": "table", "data": {"n": n}})
    return gid


def _tamper(db, game_id: str, seq: int, data: dict) -> None:
    """What an attacker with the file does: drop the guard, then rewrite one event."""
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data = ? WHERE game_id = ? AND seq = ?",
                 (json.dumps(data), game_id, seq))
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("seq", "data"), [
    (4, {"n": 99}),                       # a note rewritten: still legal, only the hash tells
    (1, {"drawn": ["castle"]}),          # the setup deal rewritten: illegal too
    (1, {}),                              # data the reducer cannot even read
])
def test_a_hand_altered_event_is_caught_by_verify_naming_the_first_bad_seq(
        store, rec, db_path, runner, seq, data):
    gid = _game_with_history(rec)
    assert rec.verify(gid)["ok"]
    store.close()
    _tamper(db_path, gid, seq, data)
    count("tampering: events altered by hand")

    result = runner(["verify", gid])
    assert result.exit_code == 1, result.output
    assert f"seq {seq}" in result.output or f"event {seq}" in result.output

    app = create_app({"TESTING": True, "DATABASE": db_path, "STREAM_SECONDS": 0.05})
    client = app.test_client()
    report = client.get(f"/games/{gid}/verify").json
    assert report["ok"] is False
    assert report["first_bad_seq"] == seq
    # verify is a read: it stores no mark (reads never write, issue #32); repair does
    assert client.get(f"/games/{gid}").json["audit"] is None
    repaired = runner(["repair", gid])
    assert repaired.exit_code == 1 and f"seq {seq}" in repaired.output, repaired.output
    assert client.get(f"/games/{gid}").json["audit"] == "failed"
    for path in READS:
        r = client.get(f"/games/{gid}{path}")
        r.get_data()
        r.close()
        assert r.status_code in (200, 503), (path, r.status_code)
        assert r.headers.get("X-Chronicle-Audit") == "failed", path
        if path == "/state" and r.status_code == 200:
            assert r.json["audit"] == "failed"
        if r.status_code == 503:
            assert r.json["error"]["code"] == "log_corrupt"
    count("tampering: caught by verify (CLI and API)")


def test_a_read_that_folds_a_tampered_event_marks_the_audit_failed_by_itself(db_path):
    store = SQLiteStore(str(db_path))
    gid = _game_with_history(Recorder(store))
    store.close()
    _tamper(db_path, gid, 3, {"n": 42})
    fresh = Recorder(SQLiteStore(str(db_path)))  # a new process: nothing cached
    assert fresh.game(gid)["audit"] is None
    doc = fresh.state(gid)
    assert doc["audit"] == "failed", "the fold noticed the hash mismatch"
    assert fresh.audit_flag(gid) == "failed"
    # ... and wrote nothing: the row's mark is a writer's (`repair`), never a read's
    assert Recorder(SQLiteStore(str(db_path))).game(gid)["audit"] is None


def test_a_log_that_no_longer_folds_is_a_storage_error_not_a_crash(db_path):
    store = SQLiteStore(str(db_path))
    gid = _game_with_history(Recorder(store))
    store.close()
    _tamper(db_path, gid, 1, {})
    fresh = Recorder(SQLiteStore(str(db_path)))
    with pytest.raises(StorageError) as err:
        fresh.state(gid)
    assert err.value.code == "log_corrupt" and err.value.details["first_bad_seq"] == 1
    assert fresh.audit_flag(gid) == "failed"
    assert Recorder(SQLiteStore(str(db_path))).game(gid)["audit"] is None  # a read
    assert fresh.repair(gid)["audit"]["first_bad_seq"] == 1  # the write that records it
    assert Recorder(SQLiteStore(str(db_path))).game(gid)["audit"] == "failed"
