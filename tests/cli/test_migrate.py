"""`chronicle migrate`: every game, edition, token and seed copied whole, chains verified
first, idempotent. The target is PostgreSQL when CHRONICLE_TEST_POSTGRES is set, and a
second SQLite file always (the copy works between any two stores)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from events import GameFilter, Recorder, open_store
from events.recorder import token_hash
from events.sqlite import SQLiteStore


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "target.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def source(db_path):
    """A SQLite database with the sample games and a digital game in progress."""
    store = SQLiteStore(str(db_path))
    rec = Recorder(store)
    assert rec.load_samples() > 0
    digital = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": "copied-seed"})
    rec.record(digital.id, rec.legal(digital.id)[0])
    store.close()
    return db_path, digital


def _snapshot(url: str) -> dict:
    store = open_store(url)
    try:
        rows, _ = store.list_games(GameFilter(limit=1000))
        return {r["id"]: {"row": {k: r[k] for k in ("game", "players", "status", "result")},
                          "events": list(store.events(r["id"])),
                          "tokens": store.tokens(r["id"]), "seed": store.seed(r["id"])}
                for r in rows}
    finally:
        store.close()


def test_migrate_copies_every_game_whole_and_then_skips_them(runner, source, target_url):
    db_path, digital = source
    result = runner(["migrate", "--to", target_url])
    assert result.exit_code == 0, result.output
    before, after = _snapshot(str(db_path)), _snapshot(target_url)
    assert after == before
    assert f"{len(before)} games copied" in result.stdout

    target = open_store(target_url)
    try:
        assert target.token_role(digital.id, token_hash(digital.recorder_token)) == "recorder"
        rec = Recorder(target)
        assert rec.verify(digital.id)["ok"]
        rec.record(digital.id, rec.legal(digital.id)[0])  # the game goes on over there
    finally:
        target.close()

    again = runner(["migrate", "--from", str(db_path), "--to", target_url, "--audit"])
    assert again.exit_code == 0, again.output
    assert "0 games copied" in again.stdout and f"{len(before)} already there" in again.stdout


def test_a_game_whose_chain_does_not_verify_is_not_copied(runner, source, target_url):
    db_path, digital = source
    raw = sqlite3.connect(db_path, isolation_level=None)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("UPDATE events SET data = ? WHERE game_id = ? AND seq = 0",
                (json.dumps({"game": "adaman", "players": ["Mallory"]}), digital.id))
    raw.close()
    result = runner(["migrate", "--to", target_url])
    assert result.exit_code == 1
    assert f"refused {digital.id}" in result.stderr and "altered" in result.stderr
    copied = _snapshot(target_url)
    assert digital.id not in copied
    assert len(copied) == len(_snapshot(str(db_path))) - 1


def test_migrate_needs_a_target(runner):
    result = runner(["migrate"])
    assert result.exit_code == 2
    assert "--to" in result.stderr
