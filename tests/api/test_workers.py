"""`chronicle serve --workers 4` on PostgreSQL: eight clients append to one game at once.

Every acknowledged event is stored once, no seq is lost or duplicated, the chain verifies,
every losing client hears 409, and a spectator streaming from any worker sees every event.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest
import requests

from ..conftest import ROOT

pytestmark = pytest.mark.postgres

CLIENTS = 8
EACH = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(pg_url, tmp_path):
    port = _free_port()
    env = {**os.environ, "CHRONICLE_STREAM_SECONDS": "8"}
    log = open(tmp_path / "serve.log", "w+b")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cli import main; main()", "--db", pg_url, "serve",
         "--workers", "4", "--port", str(port), "--no-samples"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("chronicle serve did not start: "
                            f"{(tmp_path / 'serve.log').read_text(errors='replace')}")
            time.sleep(0.1)
        yield base
    finally:
        proc.send_signal(signal.SIGINT)  # gunicorn's quick shutdown
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        text = (tmp_path / "serve.log").read_text(errors="replace")
        assert "Traceback" not in text, text


def _spectate(base: str, game_id: str, seen: list[int], stop: threading.Event) -> None:
    """Follow the stream as a browser's EventSource does: reconnect with Last-Event-ID."""
    while not stop.is_set():
        last = seen[-1] if seen else 0
        with requests.get(f"{base}/games/{game_id}/events/stream", stream=True, timeout=15,
                          headers={"Last-Event-ID": str(last)}) as r:
            for line in r.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    seen.append(int(line[4:]))
                if len(seen) >= CLIENTS * EACH or stop.is_set():
                    return


def test_eight_clients_on_four_workers_append_to_one_game(server):
    r = requests.post(f"{server}/games", json={"game": "adaman", "players": ["Ann"]}, timeout=10)
    assert r.status_code == 201, r.text
    game_id, token = r.json()["id"], r.json()["recorder_token"]
    auth = {"Authorization": f"Bearer {token}"}
    seen: list[int] = []
    stop = threading.Event()
    spectator = threading.Thread(target=_spectate, args=(server, game_id, seen, stop))
    spectator.start()

    acked: list[dict] = []
    refusals: list[tuple[int, str]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(CLIENTS)

    def client(n: int) -> None:
        http = requests  # a fresh connection per request, as from many machines
        for i in range(EACH):
            first = True
            while True:
                etag = http.get(f"{server}/games/{game_id}/state", timeout=10)\
                    .headers["ETag"]
                if i == 0 and first:
                    barrier.wait()  # everyone sends with the same ETag: 7 must lose
                    first = False
                r = http.post(f"{server}/games/{game_id}/events", timeout=10,
                              headers={**auth, "If-Match": etag,
                                       "Idempotency-Key": f"client{n}-{i}"},
                              json={"type": "note", "actor": "table",
                                    "data": {"text": f"client {n} note {i}"}})
                if r.status_code == 201:
                    with lock:
                        acked.append(r.json()["event"])
                    break
                with lock:
                    refusals.append((r.status_code, r.json()["error"]["code"]))

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    elapsed = time.monotonic() - started
    spectator.join(15)
    stop.set()
    spectator.join(15)

    stored = requests.get(f"{server}/games/{game_id}/events?limit=1000", timeout=10)\
        .json()["events"]
    assert [e["seq"] for e in stored] == list(range(CLIENTS * EACH + 1))
    assert len(acked) == CLIENTS * EACH
    by_seq = {e["seq"]: e for e in stored}
    for event in acked:  # every acknowledged event is stored, exactly as acknowledged
        assert by_seq[event["seq"]] == event
    keys = Counter(e["idempotency_key"] for e in stored[1:])
    assert set(keys.values()) == {1} and len(keys) == CLIENTS * EACH
    report = requests.get(f"{server}/games/{game_id}/verify", timeout=10).json()
    assert report["ok"], report["problems"]
    assert len(refusals) >= CLIENTS - 1
    assert set(refusals) == {(409, "stale_sequence")}
    assert seen == list(range(1, CLIENTS * EACH + 1)), "the spectator missed events"
    assert elapsed < 30, f"{CLIENTS * EACH} appends took {elapsed:.1f}s"
    print(json.dumps({"appends": len(acked), "conflicts": len(refusals),
                      "seconds": round(elapsed, 2)}))
