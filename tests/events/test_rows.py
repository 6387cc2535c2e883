"""The games row says what the game's event 0 says, whichever door made it: a new game, a
fork and an import (events/rows.py writes it once for the three)."""

from __future__ import annotations

import json

from events import Recorder
from events.sqlite import SQLiteStore

FROM_EVENT_0 = {"game": "game", "players": "players", "mode": "mode"}


def _says_what_event_0_says(rec: Recorder, game_id: str) -> dict:
    row = rec.game(game_id)
    first = json.loads(next(iter(rec.export(game_id))))
    data = first["data"]
    assert {k: row[k] for k in FROM_EVENT_0} == {k: data[v] for k, v in FROM_EVENT_0.items()}
    assert row["rules_version"] == data["rules_version"]
    assert (row["edition_name"], row["edition_sha256"]) == (data["edition"]["name"],
                                                            data["edition"]["sha256"])
    assert row["created_at"] == first["recorded_at"] and row["id"] == first["game_id"]
    return row


def test_a_new_game_a_fork_and_an_import_each_store_the_row_of_their_event_0(rec, tmp_path):
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                            "seed": "rows", "title": "Club night"})
    row = _says_what_event_0_says(rec, made.id)
    assert (row["title"], row["status"], row["result"], row["origin"]) == (
        "Club night", "in_progress", None, None)

    rec.record(made.id, {"type": "abandon", "actor": 0, "data": {}})  # over: public to all
    fork = rec.fork(made.id, 1)
    row = _says_what_event_0_says(rec, fork.id)
    assert row["mode"] == "table" and row["origin"]["game_id"] == made.id
    assert row["title"] == "Club night, explored from step 1"

    other = Recorder(SQLiteStore(str(tmp_path / "other.db")))
    imported = other.import_lines(rec.export(made.id))
    row = _says_what_event_0_says(other, imported.id)
    assert row["status"] == "finished" and row["result"] == rec.game(made.id)["result"]
    other.store.close()
