"""`chronicle serve` for real: gunicorn on loopback, sample games loaded on an empty database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
import requests


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    env = {**os.environ, "CHRONICLE_DB": str(tmp_path / "served.db")}
    proc = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", "serve",
                             "--port", str(port), "--workers", "1"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # loading the samples takes a while on a busy machine
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if requests.get(f"{base}/healthz", timeout=5).ok:
                break
        except requests.RequestException:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail(f"server did not start: {proc.stdout.read().decode()[-2000:]}")
    yield base
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=10)


def test_serve_loads_the_samples_and_records_over_loopback(server):
    listed = requests.get(f"{server}/games", timeout=5).json()
    assert listed["total"] >= 6
    created = requests.post(f"{server}/games", json={"game": "adaman", "players": ["Ann"],
                                                     "mode": "digital"}, timeout=5).json()
    token = {"Authorization": f"Bearer {created['seat_tokens'][0]}"}
    state = requests.get(f"{server}/games/{created['id']}/state", headers=token, timeout=5)
    assert state.status_code == 200 and state.headers["ETag"] == '"1"'
    action = requests.get(f"{server}/games/{created['id']}/legal-actions", headers=token,
                          timeout=5).json()["actions"][0]
    posted = requests.post(f"{server}/games/{created['id']}/events", json=action,
                           headers={**token, "If-Match": '"1"'}, timeout=5)
    assert posted.status_code == 201
    bad = requests.post(f"{server}/games/{created['id']}/events", data="{", headers=token,
                        timeout=5)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed"
