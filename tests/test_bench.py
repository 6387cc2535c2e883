"""The benchmark suite: it runs end to end (`python -m bench --quick`; numbers not judged),
and what it measures is what it says: real play, the pinned sync level, the anchor's
settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import Config, http_client, longgame
from bench import http as bench_http
from bench import postgres as bench_postgres
from bench.http_client import response_end
from bench.sides import RawSide
from bench.sync import pinned
from bench.workload import META, Workload, fixture_game, fixture_paths
from bench.writers import raw_threads
from events import Recorder, open_store

from .conftest import FIXTURES, PG_SKIP, ROOT


@pytest.mark.slow
def test_the_quick_benchmark_runs_every_case(tmp_path):
    table = tmp_path / "results.md"  # the Markdown table: the terminal's wraps its cells
    subprocess.run([sys.executable, "-m", "bench", "--quick", "--results", str(table)],
                   cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    text = table.read_text("utf-8")
    for case in ("single writer, real-game actions, synchronous=FULL",
                 "synchronous=OFF", "eventsourcing", "concurrent writers", "state at step",
                 "history page", "verify the", "HTTP POST an action", "HTTP GET state",
                 "minimal Flask app", "1 gunicorn worker", "cold export",
                 "random legal playouts", "PostgreSQL appends"):
        assert case in text, text


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replaying_a_recorded_sample_reproduces_its_recorded_result(path: Path):
    """The append workload is the samples' own play: recorded again in table mode, each
    game ends as its expected.json (written when the sample was made) says."""
    game = fixture_game(path)
    rec = Recorder(open_store(":memory:"))
    gid = rec.create_game(game.request).id
    for action in game.actions:
        rec.record(gid, action)
    expected = json.loads(path.with_name(f"{path.stem}.expected.json").read_text("utf-8"))
    state = rec.state(gid)
    assert (state["status"], state["result"]) == (expected["status"], expected["result"])


def test_the_workload_has_the_samples_own_share_of_undo_redo_and_notes():
    """The old bench was 50-80 % undo, redo and notes; the samples have well under 1 %."""
    in_files = Counter(json.loads(line)["type"] for p in FIXTURES.glob("*/*.jsonl")
                       for line in p.read_text("utf-8").splitlines() if line.strip())
    workload = Workload.real()
    mix = workload.mix()
    assert sum(mix[t] for t in META) == sum(in_files[t] for t in META)
    assert workload.meta_share() < 0.01
    assert set(workload.by_game()) == {"adaman", "royals", "palais_royal", "thrones",
                                       "in_the_shadow_of_the_emperor"}


def test_every_step_of_the_interleaved_stream_is_its_games_next_action():
    workload = Workload.real(actions_per_game=20)
    seen: dict[int, int] = {}
    for step in workload.steps:
        done = seen.get(step.game, 0)
        assert step.action == workload.games[step.game].actions[done]
        assert step.first == (done == 0)
        seen[step.game] = done + 1
    assert seen == {i: len(g.actions) for i, g in enumerate(workload.games)}


def _record(rec: Recorder, actions: int) -> None:
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    game = fixture_game(FIXTURES / "adaman" / "won.jsonl")
    rec.record(gid, game.actions[0])
    for _ in range(actions):  # control, undo, ...: past a snapshot write (every 64 events)
        rec.record(gid, game.actions[1])
        rec.undo(gid)


def test_a_store_opened_pinned_stays_at_synchronous_off_through_snapshot_writes(tmp_path):
    with pinned("OFF") as pin:
        store = open_store(str(tmp_path / "pinned.db"))
    _record(Recorder(store), 40)
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 0
    pin.check()
    plain = open_store(str(tmp_path / "plain.db"))  # the planted fault: not pinned
    _record(Recorder(plain), 40)
    assert plain.conn.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_the_pin_check_catches_a_connection_that_escaped_the_pin(tmp_path):
    with pinned("OFF") as pin:
        store = open_store(str(tmp_path / "escaped.db"))
    store.conn.cursor().execute("PRAGMA synchronous = FULL")  # a cursor bypasses the rewrite
    with pytest.raises(RuntimeError, match="synchronous=2"):
        pin.check()


@pytest.mark.parametrize("workers", [None, 1, 4])
def test_the_anchor_app_runs_under_chronicle_serves_own_gunicorn_command(tmp_path, workers):
    ours, _ = bench_http.serve_command(tmp_path / "c.db", 8123, workers)
    theirs, env = bench_http.anchor_command(tmp_path / "a.db", 8123, workers)
    assert [a for a in ours if a != "api:create_app()"] == \
        [a for a in theirs if a != "bench.mini_app:create_app()"]
    # serve's worker is gunicorn's gthread with its own refusals in JSON (api/serving.py)
    assert "api.serving.Worker" in theirs and env["BENCH_MINI_DB"] == str(tmp_path / "a.db")
    if workers is not None:
        assert ours[ours.index("--workers") + 1] == str(workers)


def _rows(game_id: str, seqs: range) -> list[dict]:
    return [{"game_id": game_id, "seq": s, "type": "note", "actor": "table", "data": {},
             "recorded_at": "2026-01-01T00:00:00Z", "prev_hash": "0", "hash": "1", "salt": "s",
             "idempotency_key": None} for s in seqs]


def test_a_baseline_thread_that_fails_fails_the_case_instead_of_looking_fast(tmp_path):
    """A raw insert that fails in its thread used to end that thread early and silently,
    so the baseline looked faster; a duplicate row is the planted fault."""
    raw = RawSide(tmp_path / "raw.db", "OFF", 0)
    assert raw_threads(raw, [_rows("a", range(1, 4)), _rows("b", range(1, 4))]) > 0
    with pytest.raises(Exception, match="UNIQUE"):
        raw_threads(raw, [_rows("c", range(1, 4)), _rows("a", range(3, 5))])
    raw.close()


def test_without_a_postgresql_server_named_the_postgresql_case_says_how_to_measure_it(
        tmp_path, monkeypatch):
    monkeypatch.delenv(bench_postgres.ENV, raising=False)
    (row,) = bench_postgres.run(Config.quick_run(str(tmp_path)), {})
    assert row.value is None and bench_postgres.ENV in row.notes[0]


@pytest.mark.postgres
def test_the_postgresql_case_measures_both_writers_and_drops_its_schema(tmp_path, monkeypatch):
    base = os.environ.get("CHRONICLE_TEST_POSTGRES")
    if not base:
        pytest.skip(f"the benchmark's PostgreSQL case was not run. {PG_SKIP}")
    import psycopg

    def schemas() -> set[str]:
        with psycopg.connect(base) as conn:
            return {r[0] for r in conn.execute("SELECT nspname FROM pg_namespace")}

    before = schemas()
    monkeypatch.setenv(bench_postgres.ENV, base)
    rows = bench_postgres.run(Config.quick_run(str(tmp_path)), {})
    assert [r.value is not None and r.value > 0 for r in rows] == [True, True]
    assert all(r.baseline_value for r in rows) and "fsync=" in rows[0].notes[1]
    assert schemas() == before


def test_the_long_game_is_legal_thrones_play_that_does_not_end(tmp_path):
    game = longgame.build(str(tmp_path), 1_500)
    rec = Recorder(open_store(str(game.path)))
    report = rec.verify(game.game_id)
    assert report["ok"], report["problems"][:3]
    assert rec.state(game.game_id)["status"] == "in_progress"
    assert sum(game.mix.values()) == 1_499
    assert sum(game.mix[t] for t in META) / 1_499 < 0.01


def test_a_response_is_complete_only_with_its_whole_body():
    head = b"HTTP/1.1 201 CREATED\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n"
    assert response_end(head[:20]) is None
    assert response_end(head + b"ab") is None
    assert response_end(head + b"abcde" + b"HTTP/1.1") == (201, len(head) + 5, False)
    closing = head.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")
    assert response_end(closing + b"abcde") == (201, len(closing) + 5, True)


class _Quick(BaseHTTPRequestHandler):
    """Answers /healthz and closes a keep-alive connection idle for 0.3 s (gunicorn: 2 s)."""

    protocol_version = "HTTP/1.1"
    timeout = 0.3

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def test_connections_placed_slowly_are_still_open_when_the_load_starts(monkeypatch):
    """Spreading the connections over the workers took longer than the server's keep-alive,
    so the first ones placed were closed before the load and missing from it. Here finding
    a connection's worker takes 0.15 s and the first three tries find them crowded."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Quick)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    calls = []

    def slow_owners(socks, port, workers):
        calls.append(1)
        time.sleep(0.15)
        return [1] * len(socks) if len(calls) <= 3 else [1, 2, 1, 2][: len(socks)]

    monkeypatch.setattr(http_client, "owners", slow_owners)
    probe = http_client.encode("GET", "/healthz", None, {})
    try:
        socks, spread, _ = http_client.place(port, 4, [1, 2])
        assert spread == Counter({1: 2, 2: 2})
        assert [http_client.exchange(s, probe) for s in socks] == [200] * 4
    finally:
        server.shutdown()
        server.server_close()
