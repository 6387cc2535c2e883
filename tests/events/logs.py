"""Random table games with undo, redo, notes and corrections, for the fold and paging tests."""

from __future__ import annotations

import random

from events import Recorder
from projections import get_rules

EXAMPLE = next(g for g in get_rules("adaman").edition["examples"]["games"]
               if g["id"] == "win_with_cards_left")


def random_game(rec: Recorder, rng: random.Random, steps: int) -> str:
    """A table-mode Adaman game along a recorded example, with undo, redo, notes and
    corrections at random between its moves (its own stacks mirror the log's)."""
    moves = EXAMPLE["events"]
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    applied: list[str] = []  # "move" or "correction", like the fold's undo stack
    undone: list[str] = []
    done = 0  # example moves in effect
    for n in range(steps):
        roll = rng.random()
        if roll < 0.25 and applied:
            rec.undo(gid)
            undone.append(applied.pop())
            done -= undone[-1] == "move"
        elif roll < 0.4 and undone:
            rec.redo(gid)
            applied.append(undone.pop())
            done += applied[-1] == "move"
        elif roll < 0.5 and applied and applied[-1] == "move":
            _correct_top(rec, gid)
            applied.append("correction")
            undone.clear()
        elif roll < 0.6 or done == len(moves):
            rec.record(gid, {"type": "note", "actor": "table", "data": {"text": f"n{n}"}})
        else:
            rec.record(gid, moves[done])
            applied.append("move")
            undone.clear()
            done += 1
    return gid


def _correct_top(rec: Recorder, gid: str) -> None:
    """A correction of the latest action in effect by the same action (always legal)."""
    _, cursor = rec.cursor(gid)
    target = rec.store.event(gid, cursor.top)
    rec.record(gid, {"type": "correction", "actor": "table", "data": {
        "target_seq": target["seq"],
        "action": {"type": target["type"], "actor": target["actor"], "data": target["data"]}}})
