"""Snapshots hold data, never code: a hostile row in the snapshots table is never executed.

Whoever can write the snapshots table (a shared PostgreSQL, a SQLite file received from
someone) used to run code in every worker, because snapshots were pickles. Now they are
JSON (projections/snapshot.py); one that does not decode, or does not match the log, is
ignored and the game is folded from its events.
"""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from events import Recorder
from events.sqlite import SQLiteStore
from projections import get_rules, snapshot
from projections.replay import fold

from .conftest import ROOT, count, import_prefix

FIXTURE = ROOT / "fixtures" / "royals" / "5_players.jsonl"


class _Touch:
    """A pickle that, when loaded, creates a file: the shape of any code-running payload."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def _long_game(rec: Recorder) -> tuple[str, list[dict]]:
    envelopes = [json.loads(line) for line in FIXTURE.read_text("utf-8").splitlines()]
    assert len(envelopes) > 130
    game_id = import_prefix(rec, envelopes, len(envelopes) - 1, "snapshotted").id
    return game_id, envelopes


def _plant(db: Path, game_id: str, key: str, seq: int, blob: bytes) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, key, blob) "
                     "VALUES (?, ?, ?, ?)", (game_id, seq, key, blob))
    conn.close()


def test_the_planted_payload_is_live_code(tmp_path):
    """The planted fault first: unpickled, the payload really runs (in a child process)."""
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Touch(marker))
    subprocess.run([sys.executable, "-c", "import pickle, sys; "
                    "pickle.loads(sys.stdin.buffer.read())"], input=payload, check=True,
                   cwd=ROOT)
    assert marker.exists(), "the payload would not have shown anything"


@pytest.mark.parametrize("key_of", ["current", "before_json"])
def test_a_hostile_pickle_in_the_snapshots_table_is_never_executed(tmp_path, key_of):
    db = tmp_path / "hostile.db"
    rec = Recorder(SQLiteStore(str(db)))
    game_id, envelopes = _long_game(rec)
    ctx = rec.folding.context(game_id)
    key = rec.folding.snapshot_key(ctx)
    if key_of == "before_json":  # the key pickled snapshots were stored under
        key = key.rsplit(":", 1)[0]
    marker = tmp_path / "ran"
    for seq in (64, 128):
        _plant(db, game_id, key, seq, pickle.dumps(_Touch(marker)))
    cold = Recorder(SQLiteStore(str(db)))  # a new worker: nothing cached
    rules = get_rules("royals")
    for at in (70, 128, len(envelopes) - 1):
        state = cold.state(game_id, at)
        expected = fold(rules, [e for e in envelopes if e["seq"] <= at])
        assert state["view"] == rules.view(expected.state, "all")
    assert not marker.exists(), "a snapshot ran code"
    count("snapshots: hostile payloads planted and never run", 2)


def test_a_snapshot_that_does_not_match_the_log_is_ignored(tmp_path):
    """A well-formed snapshot of another state (or another log) is not trusted either: it
    must name the hash of the event it was folded to."""
    db = tmp_path / "stale.db"
    rec = Recorder(SQLiteStore(str(db)))
    game_id, envelopes = _long_game(rec)
    ctx = rec.folding.context(game_id)
    rules = get_rules("royals")
    wrong = fold(rules, [e for e in envelopes if e["seq"] <= 10])
    forged = {"hash": "0" * 64, "cursor": snapshot.dumps(
        type(wrong)(**{**{f: getattr(wrong, f) for f in wrong.__slots__}, "seq": 64}))}
    _plant(db, game_id, rec.folding.snapshot_key(ctx), 64, json.dumps(forged).encode())
    cold = Recorder(SQLiteStore(str(db)))
    expected = fold(rules, [e for e in envelopes if e["seq"] <= 70])
    assert cold.state(game_id, 70)["view"] == rules.view(expected.state, "all")


@pytest.mark.parametrize("blob", [b"\x80\x04junk", b"{}", b'{"hash": 1, "cursor": "[]"}',
                                  b'{"hash": "x", "cursor": "{\\"format\\": 1, \\"value\\": '
                                  b'{\\"dc\\": \\"os:system\\", \\"f\\": {}}}"}'])
def test_a_snapshot_that_does_not_decode_is_a_cache_miss(tmp_path, blob):
    db = tmp_path / "junk.db"
    rec = Recorder(SQLiteStore(str(db)))
    game_id, envelopes = _long_game(rec)
    _plant(db, game_id, rec.folding.snapshot_key(rec.folding.context(game_id)), 64, blob)
    cold = Recorder(SQLiteStore(str(db)))
    rules = get_rules("royals")
    expected = fold(rules, [e for e in envelopes if e["seq"] <= 100])
    assert cold.state(game_id, 100)["view"] == rules.view(expected.state, "all")


def test_the_codec_builds_only_projections_classes():
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode({"dc": "subprocess:Popen", "f": {}})
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode({"e": "os:system", "v": "ls"})
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode({"dc": "projections.rules:freeze", "f": {}})  # a function, not a class
