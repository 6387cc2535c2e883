"""What is acknowledged is stored, what is refused is not, and every finished game verifies.

- Concurrent clients through `chronicle serve` with 2 workers on SQLite and 4 on PostgreSQL
  play digital games to the end with If-Match and an Idempotency-Key on every POST: every
  key answered 2xx is in the log exactly once, every key answered otherwise is absent.
  (Before one transaction per write, an action that triggered a deal or ended the game was
  stored and then answered 409 when another worker's catch-up wrote the deal first.)
- A SIGKILL between an action and the server events it makes due (a fault point inside
  the write, CHRONICLE_FAULT) leaves neither: the game is as before, and verifies.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
import requests

from events import GameFilter, Recorder, open_store

from .conftest import ROOT, Server, count, size

CLIENTS = 8
SECONDS = size(12, 60)


def _client(url: str, game_id: str, token: str, rng: random.Random, outcomes: list,
            stop: float) -> None:
    """One client: read the state, pick a legal action, POST it with If-Match and a fresh
    key; now and then POST the same key again, as a client whose answer was lost."""
    auth = {"Authorization": f"Bearer {token}"}
    while time.monotonic() < stop:
        state = requests.get(f"{url}/games/{game_id}/state", headers=auth, timeout=30)
        if state.status_code != 200 or state.json()["status"] == "finished":
            return
        actions = requests.get(f"{url}/games/{game_id}/legal-actions", headers=auth,
                               timeout=30).json().get("actions") or []
        if not actions:
            time.sleep(0.01)
            continue
        action = rng.choice(actions)
        key = uuid.uuid4().hex
        headers = {**auth, "If-Match": state.headers["ETag"], "Idempotency-Key": key}
        for _ in range(2 if rng.random() < 0.2 else 1):
            answer = requests.post(f"{url}/games/{game_id}/events", json=action,
                                   headers=headers, timeout=30)
            outcomes.append((key, answer.status_code))


GAMES = [("adaman", ["Ann"]), ("thrones", ["Ann", "Bo"])]


def _new_game(url: str, slug: str, players: list[str], n: int) -> dict:
    made = requests.post(f"{url}/games", json={
        "game": slug, "players": players, "mode": "digital", "seed": f"ack-{n}"},
        timeout=30).json()
    table = {"Authorization": f"Bearer {made['recorder_token']}"}
    for action in requests.get(f"{url}/games/{made['id']}/legal-actions", headers=table,
                               timeout=30).json()["actions"][:1]:
        # the table's own choice (Thrones' houses) is the recorder's: made before the race
        requests.post(f"{url}/games/{made['id']}/events", json=action, headers=table,
                      timeout=30).raise_for_status()
    return made


def _run_clients(url: str, rounds: int) -> tuple[list, list[str]]:
    """Digital games of Adaman (the reveal at the end) and Thrones (the server's forced
    steps and deals every round), each raced by CLIENTS clients holding its seat tokens."""
    outcomes: list[tuple[str, int]] = []
    games: list[str] = []
    stop = time.monotonic() + SECONDS
    for n in range(rounds):
        if time.monotonic() >= stop:
            break
        slug, players = GAMES[n % len(GAMES)]
        made = _new_game(url, slug, players, n)
        games.append(made["id"])
        round_stop = min(stop, time.monotonic() + SECONDS / 2)
        threads = [threading.Thread(target=_client, args=(
            url, made["id"], made["seat_tokens"][c % len(players)], random.Random(n * 100 + c),
            outcomes, round_stop)) for c in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert outcomes, "no client got to POST"
    return outcomes, games


def _check(db: str, outcomes: list[tuple[str, int]], games: list[str]) -> None:
    store = open_store(db)
    try:
        stored = Counter(e["idempotency_key"] for g in games for e in store.events(g)
                         if e["idempotency_key"])
        rec = Recorder(store)
        acked = {k for k, status in outcomes if 200 <= status < 300}
        refused = {k for k, status in outcomes if not 200 <= status < 300} - acked
        assert not [s for _, s in outcomes if s >= 500], "a 5xx answered a client"
        wrongly_refused = sorted(k for k in refused if stored[k])
        assert wrongly_refused == [], f"{len(wrongly_refused)} refused actions are stored"
        assert all(stored[k] == 1 for k in acked), "an acknowledged action is missing or twice"
        finished = 0
        for g in games:
            report = rec.verify(g)
            assert report["ok"], (g, report["problems"][:2])
            finished += report["result"] is not None
        count("acknowledged: POSTs answered 2xx, each stored exactly once", len(acked))
        count("acknowledged: POSTs refused, none stored", len(refused))
        count("acknowledged: digital games played to the end by racing clients", finished)
    finally:
        store.close()


@pytest.mark.slow
def test_racing_clients_on_two_sqlite_workers_get_2xx_exactly_when_stored(tmp_path):
    db = tmp_path / "racing.db"
    server = Server(db, tmp_path / "server.log", workers=2)
    try:
        outcomes, games = _run_clients(server.url, size(6, 40))
    finally:
        server.kill()
    _check(str(db), outcomes, games)


@pytest.mark.slow
@pytest.mark.postgres
def test_racing_clients_on_four_postgres_workers_get_2xx_exactly_when_stored(
        tmp_path, pg_url):
    server = Server(pg_url, tmp_path / "server.log", workers=4)  # type: ignore[arg-type]
    try:
        outcomes, games = _run_clients(server.url, size(6, 40))
    finally:
        server.kill()
    _check(pg_url, outcomes, games)


# -- a kill inside the write ---------------------------------------------------------------
PLAY = """
import sys
from events import GameFilter, Recorder, open_store
rec = Recorder(open_store(sys.argv[1]))
game_id, moves = sys.argv[2], int(sys.argv[3])
for _ in range(moves):
    if rec.state(game_id)["status"] == "finished":
        print("finished", flush=True)
        break
    rec.record(game_id, rec.legal(game_id)[0])
    print("ack", rec.last_seq(game_id), flush=True)
"""
FAULT = {"CHRONICLE_FAULT": "between_action_and_server_events"}


def _digital_adaman(rec: Recorder, n: int) -> str:
    """A digital Adaman game whose setup deal did not end it at once."""
    for k in range(50):
        made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                                "seed": f"fault-{n}-{k}"})
        if rec.state(made.id)["status"] != "finished":
            return made.id
    raise AssertionError("no playable deal in 50 seeds")


def _play(db: Path, game_id: str, moves: int = 10_000, fault: bool = False
          ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(FAULT if fault else {})}
    return subprocess.run([sys.executable, "-c", PLAY, str(db), game_id, str(moves)],
                          cwd=ROOT, env=env, text=True, capture_output=True, timeout=300)


def _acked(out: str) -> list[int]:
    return [int(line.split()[1]) for line in out.splitlines() if line.startswith("ack ")]


def _killed_at_the_end_then_finished(db: Path, game_id: str) -> None:
    """Play to the end with the fault armed: the last action (which makes the reveal due)
    is the first write of two events, so the process dies inside it; neither is stored,
    every acknowledged action is, and the game verifies. Then it finishes cleanly."""
    killed = _play(db, game_id, fault=True)
    assert killed.returncode == -9, (killed.returncode, killed.stderr[-2000:])
    assert "finished" not in killed.stdout
    after_kill = Recorder(open_store(str(db)))
    try:
        last = after_kill.last_seq(game_id)
        assert _acked(killed.stdout) == list(range(_acked(killed.stdout)[0], last + 1))
        assert after_kill.state(game_id)["status"] == "in_progress", "half a write is stored"
        assert after_kill.verify(game_id)["ok"]
    finally:
        after_kill.store.close()
    finished = _play(db, game_id)
    assert finished.returncode == 0, finished.stderr[-2000:]
    final = Recorder(open_store(str(db)))
    try:
        assert final.state(game_id)["status"] == "finished"
        assert [e["type"] for e in final.store.events(game_id)][-1] == "seed_revealed"
        assert final.verify(game_id)["ok"]
    finally:
        final.store.close()


def test_a_kill_between_a_last_action_and_its_reveal_stores_neither(tmp_path):
    """The fault point sits inside the transaction, after the action's row and before the
    server's; before writes were one transaction, a kill there left a finished digital game
    whose seed was never revealed, failing verify for ever."""
    db = tmp_path / "fault.db"
    rec = Recorder(open_store(str(db)))
    game_id = _digital_adaman(rec, 0)
    rec.store.close()
    _killed_at_the_end_then_finished(db, game_id)
    count("acknowledged: kills inside a write that left nothing half-written")


@pytest.mark.slow
def test_after_a_kill_inside_every_game_end_every_finished_game_verifies(tmp_path):
    db = tmp_path / "kills.db"
    rec = Recorder(open_store(str(db)))
    games = [_digital_adaman(rec, n) for n in range(size(4, 25))]
    rec.store.close()
    for game_id in games:
        _killed_at_the_end_then_finished(db, game_id)
    everyone = Recorder(open_store(str(db)))
    rows, _ = everyone.list_games(GameFilter(limit=1000))
    finished = [r for r in rows if r["status"] == "finished"]
    assert len(finished) >= len(games)
    assert all(everyone.verify(r["id"])["ok"] for r in finished)
    count("acknowledged: kills inside a write, every finished game verified after", len(games))
