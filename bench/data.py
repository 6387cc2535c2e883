"""Building benchmark data: table-mode Adaman games, short or as long as a case needs.

Adaman has at most ~27 events of play, so a long log is built from legal events: the game
is kept open (table mode) and cycles `control`, `undo`, `redo`, `undo`, `note` after its
setup. Building goes through the store directly (`Store.import_game`, hashes from
`events.model.seal`) so it is fast; the measured operations go through the recorder.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from events import Recorder
from events.model import GENESIS, Envelope, seal
from events.sqlite import SQLiteStore
from projections import canonical_edition, default_edition

ROOT = Path(__file__).resolve().parents[1]
_WON = ROOT / "fixtures" / "adaman" / "won.jsonl"


def _fixture_data() -> tuple[dict[str, Any], dict[str, Any]]:
    lines = [json.loads(line) for line in _WON.read_text("utf-8").splitlines() if line]
    return lines[1]["data"], lines[2]["data"]


#: a setup and a legal first control, from the recorded sample game fixtures/adaman/won
SETUP, CONTROL = _fixture_data()
#: one cycle after setup: a real action through the reducer, then log-level events
CYCLE = ("control", "undo", "redo", "undo", "note")


def open_store(path: Path | str) -> SQLiteStore:
    return SQLiteStore(str(path))


def new_table_game(rec: Recorder) -> str:
    """A table-mode Adaman game with its setup recorded, through the recorder."""
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"})
    rec.record(created.id, {"type": "setup", "actor": "table", "data": SETUP})
    return created.id


def control_action() -> dict[str, Any]:
    return {"type": "control", "actor": 0, "data": CONTROL}


def long_log(game_id: str, events: int) -> Iterator[Envelope]:
    """`events` sealed envelopes of one legal table-mode Adaman game, seq 0..events-1."""
    _, sha = canonical_edition(default_edition("adaman"))
    created = {"game": "adaman", "players": ["Ann"], "mode": "table", "options": {},
               "edition": {"name": "default", "sha256": sha}, "seed_commitment": None,
               "rules_version": "1"}
    env = seal(game_id, 0, "game_created", "table", created, GENESIS)
    yield env
    prev = env["hash"]
    for seq in range(1, events):
        if seq == 1:
            kind, actor, data = "setup", "table", SETUP
        else:
            kind = CYCLE[(seq - 2) % len(CYCLE)]
            actor = 0 if kind == "control" else "table"
            control_seq = seq - (seq - 2) % len(CYCLE)
            if kind == "control":
                data = CONTROL
            elif kind == "note":
                data = {"text": f"benchmark note {seq}"}
            else:
                data = {"target_seq": control_seq}
        env = seal(game_id, seq, kind, actor, data, prev)
        prev = env["hash"]
        yield env


def pristine_long_game(workdir: str, events: int) -> tuple[Path, str]:
    """A database file holding one long game as an import leaves it (no snapshots), built
    once per run; cases copy it so each starts cold. Returns (path, game id)."""
    path = Path(workdir) / f"pristine-{events}.db"
    if not path.exists():
        store = open_store(path)
        store_long_game(Recorder(store), "long", events)
        store.close()  # the last connection checkpoints the WAL into the file
    return path, "long"


def copy_of(source: Path, target: Path) -> Path:
    shutil.copyfile(source, target)
    return target


def store_long_game(rec: Recorder, game_id: str, events: int) -> str:
    """Store a long legal game in one transaction (no snapshots: as an import leaves it)."""
    rec.editions("adaman")  # the default edition row the game refers to
    envelopes = list(long_log(game_id, events))
    first = envelopes[0]
    row = {"id": game_id, "game": "adaman", "rules_version": "1", "players": ["Ann"],
           "mode": "table", "edition_name": "default",
           "edition_sha256": first["data"]["edition"]["sha256"],
           "created_at": first["recorded_at"], "status": "in_progress", "result": None}
    rec.store.import_game(row, envelopes, {})
    return game_id
