"""Concurrent writers: 8 processes append to one game with the expected seq and retry on
conflict; the final log holds exactly the acknowledged events, none lost or duplicated.
Bounded by default (8 x 12 appends); CHRONICLE_RELIABILITY=full runs 8 x 150.
"""

from __future__ import annotations

import pytest

from events import Recorder
from events.sqlite import SQLiteStore

from .conftest import acks, count, size, table_game, writer

WRITERS = 8
EACH = size(12, 150)


@pytest.mark.slow
def test_eight_writers_with_expected_seq_lose_and_duplicate_nothing(tmp_path):
    db = tmp_path / "concurrent.db"
    store = SQLiteStore(str(db))
    game_id = table_game(Recorder(store)).id
    start = Recorder(store).last_seq(game_id)
    procs = [writer("concurrent", str(db), game_id, str(w), str(EACH)) for w in range(WRITERS)]
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        outputs.append(out)
    acked = [a for out in outputs for a in acks(out)]
    conflicts = sum(int(line.split()[1]) for out in outputs for line in out.splitlines()
                    if line.startswith("conflicts "))

    events = list(store.events(game_id))
    notes = {e["seq"]: e for e in events if e["seq"] > start}
    assert len(acked) == WRITERS * EACH
    assert sorted(seq for seq, _, _ in acked) == list(range(start + 1, start + 1 + len(acked)))
    assert sorted(notes) == sorted(seq for seq, _, _ in acked), "the log holds more or less"
    for seq, hash_, who in acked:
        writer_id, n = who.split(":")
        assert notes[seq]["hash"] == hash_
        assert notes[seq]["data"] == {"writer": int(writer_id), "n": int(n)}
    pairs = [(e["data"]["writer"], e["data"]["n"]) for e in notes.values()]
    assert len(pairs) == len(set(pairs)), "an append was stored twice"
    assert Recorder(store).verify(game_id)["ok"]
    store.close()
    count("concurrency: writer processes", WRITERS)
    count("concurrency: appends acknowledged", len(acked))
    count("concurrency: acknowledged appends found exactly once", len(notes))
    count("concurrency: conflicts retried", conflicts)
