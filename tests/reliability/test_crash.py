"""Crash safety: SIGKILL a writer at random moments; nothing acknowledged is ever lost.

A writer process appends for ever (notes, undo, redo and legal moves of a table-mode
Adaman game, so the game never ends) and prints each acknowledged seq before it goes on.
After each kill the store is reopened: every acknowledged append is there with the same
hash, no event is partial, the chain verifies, and the next writer carries on.
Bounded by default (25 kills); CHRONICLE_RELIABILITY=full ./test -m slow runs 200.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from events import Access, Recorder
from events.model import ENVELOPE_FIELDS, event_hash
from events.sqlite import SQLiteStore

from .conftest import Server, acks, count, kill_group, size, table_game, writer

KILLS = size(25, 200)
LONGEST_RUN = size(0.6, 3.0)  # seconds a writer runs before its kill, at most


def _wait_ready(proc) -> list[str]:
    """The lines up to `ready`, which the writer prints after its first acknowledged append."""
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"the writer died before its first append: {proc.stderr.read()}"
        if line == "ready\n":
            return lines
        lines.append(line)


def _check_after_kill(db: Path, game_id: str, acked: list[tuple[int, str, str]],
                      before: int) -> int:
    """Reopen the store; every acknowledged append is there; the chain verifies."""
    store = SQLiteStore(str(db))
    try:
        rec = Recorder(store)
        events = list(store.events(game_id))
        by_seq = {e["seq"]: e for e in events}
        for seq, hash_, _ in acked:
            assert seq in by_seq, f"acknowledged seq {seq} was lost"
            assert by_seq[seq]["hash"] == hash_, f"acknowledged seq {seq} changed"
        for env in events:
            assert set(env) == set(ENVELOPE_FIELDS)
            assert event_hash(env) == env["hash"], f"seq {env['seq']} is partial or altered"
        assert [e["seq"] for e in events] == list(range(len(events)))
        report = rec.verify(game_id)
        assert report["ok"], report["problems"]
        last = rec.last_seq(game_id)
        assert last >= before
        return last
    finally:
        store.close()


@pytest.mark.slow
def test_sigkill_of_a_recorder_writer_loses_no_acknowledged_append(tmp_path):
    db = tmp_path / "crash.db"
    store = SQLiteStore(str(db))
    game_id = table_game(Recorder(store)).id
    store.close()
    rng = random.Random(1)
    last, total_acked = 1, 0
    for kill in range(KILLS):
        proc = writer("recorder", str(db), game_id, str(kill))
        try:
            first = _wait_ready(proc)
            time.sleep(rng.uniform(0.0, LONGEST_RUN))
        finally:
            kill_group(proc)
        acked = acks("".join(first) + proc.stdout.read())
        if kill > 0 and acked:
            assert acked[0][0] > last - 1, "the next writer resumed after the last event"
        last = _check_after_kill(db, game_id, acked, last)
        total_acked += len(acked)
        count("crash (recorder): writers killed with SIGKILL")
        count("crash (recorder): appends acknowledged", len(acked))
        count("crash (recorder): acknowledged appends found", len(acked))
    count("crash (recorder): events in the final log", last + 1)
    assert total_acked > KILLS, "the writers acknowledged too little to prove anything"


@pytest.mark.slow
def test_sigkill_of_chronicle_serve_loses_no_acknowledged_append(tmp_path):
    db = tmp_path / "served.db"
    store = SQLiteStore(str(db))
    created = table_game(Recorder(store))
    game_id, token = created.id, created.recorder_token
    store.close()
    rng = random.Random(2)
    last, total_acked = 1, 0
    for kill in range(KILLS):
        server = Server(db, tmp_path / "server.log")
        proc = writer("http", server.url, game_id, token, str(kill))
        try:
            first = _wait_ready(proc)
            time.sleep(rng.uniform(0.0, LONGEST_RUN))
        finally:  # the server dies first (mid-request, mid-write), then its client
            server.kill()
            kill_group(proc)
        acked = acks("".join(first) + proc.stdout.read())
        last = _check_after_kill(db, game_id, acked, last)
        total_acked += len(acked)
        count("crash (HTTP): chronicle serve killed with SIGKILL")
        count("crash (HTTP): appends acknowledged (201)", len(acked))
        count("crash (HTTP): acknowledged appends found", len(acked))
    assert total_acked > KILLS



def test_a_digital_game_whose_server_died_before_its_deal_catches_up(rec, store):
    """Today a game's first deal is written with its event 0, in one transaction; a database
    written by an older version may hold a digital game whose server died between event 0
    and the deal. The next read or record (by anyone) deals first, so it never hangs."""
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                            "seed": "catch-up"})
    row, created = rec.game(made.id), rec.store.event(made.id, 0)
    crashed = {**row, "id": "crashed-before-deal"}
    store.create_game(crashed, {**created, "game_id": crashed["id"],
                                "hash": event_hash({**created, "game_id": crashed["id"]})},
                      {}, store.seed(made.id), store.salt(made.id))
    assert rec.last_seq(crashed["id"]) == 0, "the crash: no deal was written"
    done = rec.record(crashed["id"], {"type": "note", "actor": 0, "data": {"text": "hello?"}},
                      access=Access("seat", 0))
    assert [e["type"] for e in rec.store.events(crashed["id"])] == ["game_created", "setup",
                                                                   "note"]
    assert done.event["seq"] == 2
    assert rec.verify(crashed["id"])["ok"]
    count("crash: digital games resumed after a death between server appends")


def test_a_cold_fold_of_an_undo_heavy_log_is_fast(store, db_path):
    """What the kill loop found: a new process folding a log full of undo and redo reached
    back past snapshots once per undo, recursively (minutes for 1400 events)."""
    import random as rnd

    from .writer import _dealt, choose

    rec = Recorder(store)
    game_id = table_game(rec).id
    rng = rnd.Random(7)
    for n in range(400):
        state = rec.state(game_id)
        action = choose(state, rec.legal(game_id), rng, n)
        try:
            if action["type"] in ("undo", "redo"):
                getattr(rec, action["type"])(game_id)
            else:
                rec.record(game_id, _dealt(rec, game_id, action, n))
        except Exception as err:
            assert getattr(err, "code", None), err
    cold = Recorder(SQLiteStore(str(db_path)))
    started = time.monotonic()
    cold.state(game_id)
    cold.legal(game_id)
    assert time.monotonic() - started < 5
