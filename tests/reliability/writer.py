"""A writer process for the kill-loop and concurrency tests; run as a script.

It appends for ever (or N times) and prints one line per acknowledged append, flushed
before it goes on: `ack SEQ HASH`. The test kills it with SIGKILL at random moments and
checks that every acknowledged append survived.

    python tests/reliability/writer.py recorder DB GAME_ID SEED
    python tests/reliability/writer.py http BASE_URL GAME_ID TOKEN SEED
    python tests/reliability/writer.py concurrent DB GAME_ID WRITER COUNT
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


_started = False


def ack(seq: int, hash_: str, extra: str = "") -> None:
    """Report one acknowledged append (flushed); the first one also says `ready`."""
    global _started
    sys.stdout.write(f"ack {seq} {hash_} {extra}".rstrip() + "\n")
    if not _started:
        sys.stdout.write("ready\n")
        _started = True
    sys.stdout.flush()


def choose(state: dict, legal: list[dict], rng: random.Random, n: int) -> dict:
    """A note most of the time; undo, redo and legal moves so the game never ends."""
    roll = rng.random()
    if roll < 0.15 and state["can_undo"]:
        return {"type": "undo", "actor": "table", "data": {}}
    if roll < 0.3 and state["can_redo"]:
        return {"type": "redo", "actor": "table", "data": {}}
    moves = [a for a in legal if a["type"] != "abandon"]
    if roll < 0.4 and moves:
        return rng.choice(moves)
    return {"type": "note", "actor": "table", "data": {"n": n, "text": "still here " * 8}}


def recorder_writer(db: str, game_id: str, seed: str) -> None:
    from events import Conflict, IllegalAction, Recorder, open_store

    rec = Recorder(open_store(db))
    rng = random.Random(seed)
    for n in range(10**9):
        state = rec.state(game_id)
        action = choose(state, rec.legal(game_id), rng, n)
        if action["type"] in ("undo", "redo"):
            action = {**action, "data": {}}
        try:
            if action["type"] == "undo":
                done = rec.undo(game_id, expected_seq=state["last_seq"])
            elif action["type"] == "redo":
                done = rec.redo(game_id, expected_seq=state["last_seq"])
            else:
                done = rec.record(game_id, _dealt(rec, game_id, action, n),
                                  expected_seq=state["last_seq"])
        except (Conflict, IllegalAction):
            continue
        ack(done.event["seq"], done.event["hash"])


def _dealt(rec, game_id: str, action: dict, n: int) -> dict:
    """Table mode: the recorder types what was drawn (here: what a dealer would turn up)."""
    from projections.rules import Action, Dealer

    rules, cursor = rec.cursor(game_id)
    if not rules.chance_fields.get(action["type"]):
        return action
    data = rules.fill_chance(cursor.state, Action.of(action["type"], action["actor"],
                                                     action["data"]), Dealer(str(n), n))
    return {**action, "data": data}


def _filled(action: dict, rng: random.Random) -> dict:
    """Table mode: the recorder types what was drawn; an empty draw is always accepted."""
    if action["type"] in ("control", "setup"):
        return {**action, "data": {"drawn": [], **action["data"]}}
    return action


def http_writer(base: str, game_id: str, token: str, seed: str) -> None:
    import requests

    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    rng = random.Random(seed)
    for n in range(10**9):
        state = session.get(f"{base}/games/{game_id}/state", timeout=10).json()
        legal = session.get(f"{base}/games/{game_id}/legal-actions", timeout=10).json()
        action = choose(state, legal["actions"], rng, n)
        headers = {"If-Match": f'"{state["last_seq"]}"'}
        if action["type"] in ("undo", "redo"):
            r = session.post(f"{base}/games/{game_id}/{action['type']}", headers=headers,
                             timeout=10)
        else:
            r = session.post(f"{base}/games/{game_id}/events", json=_filled(action, rng),
                             headers=headers, timeout=10)
        if r.status_code == 201:
            ack(r.json()["event"]["seq"], r.json()["event"]["hash"])
        elif r.status_code not in (409, 412, 422):
            sys.stderr.write(f"unexpected {r.status_code}: {r.text}\n")
            sys.exit(3)


def concurrent_writer(db: str, game_id: str, writer: str, count: str) -> None:
    from events import Conflict, Recorder, open_store

    rec = Recorder(open_store(db))
    conflicts = 0
    for n in range(int(count)):
        while True:
            try:
                done = rec.record(game_id, {"type": "note", "actor": "table",
                                            "data": {"writer": int(writer), "n": n}},
                                  expected_seq=rec.last_seq(game_id))
                break
            except Conflict:
                conflicts += 1
        ack(done.event["seq"], done.event["hash"], f"{writer}:{n}")
    sys.stdout.write(f"conflicts {conflicts}\n")


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    {"recorder": recorder_writer, "http": http_writer,
     "concurrent": concurrent_writer}[mode](*args)
