"""Case: the HTTP API under 16 concurrent clients on loopback, `chronicle serve` (gunicorn).

The server runs in a subprocess on a free port with a temporary database; client threads
(one keep-alive `http.client` connection each) hammer one route for a fixed time, bounded
in count and time. The baseline is `/healthz` of the same server: requests per second of
GET state and POST action are held to a share of it. p50 and p99 latencies are reported.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

from . import Config, Row
from .data import CONTROL, ROOT, SETUP

Request = tuple[str, str, bytes | None, dict[str, str]]
MAX_REQUESTS = 200_000  # per scenario, a bound besides the time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`chronicle serve` in its own process group, stopped by its pid."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CHRONICLE_DB": str(db)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from cli import main; main()", "--db", str(db), "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--no-samples"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("chronicle serve exited at start")
            try:
                if call(self.port, ("GET", "/healthz", None, {}))[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("chronicle serve did not answer /healthz within 30 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)


def call(port: int, req: Request, conn: http.client.HTTPConnection | None = None
         ) -> tuple[int, bytes]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    method, path, body, headers = req
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    if own:
        conn.close()
    return resp.status, data


def new_game(port: int) -> tuple[str, dict[str, str]]:
    """A table-mode Adaman game with its setup, created over HTTP: (id, auth headers)."""
    body = json.dumps({"game": "adaman", "players": ["Ann"], "mode": "table"}).encode()
    status, data = call(port, ("POST", "/games", body, {"Content-Type": "application/json"}))
    assert status == 201, data
    created = json.loads(data)
    auth = {"Authorization": f"Bearer {created['recorder_token']}",
            "Content-Type": "application/json"}
    setup = json.dumps({"type": "setup", "actor": "table", "data": SETUP}).encode()
    status, data = call(port, ("POST", f"/games/{created['id']}/events", setup, auth))
    assert status == 201, data
    return created["id"], auth


def load(port: int, clients: int, seconds: float,
         requests_for: Callable[[int], Iterator[Request]], ok: int) -> dict[str, Any]:
    """Each client takes its next request until the time is up: rps, latencies, errors."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[Counter[int]] = [Counter() for _ in range(clients)]
    start_gate = threading.Barrier(clients + 1)
    stop_at: list[float] = [0.0]
    budget = MAX_REQUESTS // clients

    def client(i: int) -> None:
        reqs = requests_for(i)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start_gate.wait()
        n = 0
        while time.perf_counter() < stop_at[0] and n < budget:
            t0 = time.perf_counter()
            try:
                status, _ = call(port, next(reqs), conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status = 0
            latencies[i].append(time.perf_counter() - t0)
            if status != ok:
                errors[i][status] += 1
            n += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    begin = time.perf_counter()
    stop_at[0] = begin + seconds
    start_gate.wait()
    for t in threads:
        t.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - begin
    flat = sorted(x for lat in latencies for x in lat)
    return {"rps": len(flat) / elapsed, "latencies": flat, "errors": sum(errors, Counter())}


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] * 1e3


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    server = Server(Path(cfg.workdir) / "http.db")
    try:
        return _measure(cfg, server.port)
    finally:
        server.stop()


def _measure(cfg: Config, port: int) -> list[Row]:
    n = cfg.http_clients
    get_games = [new_game(port) for _ in range(n)]
    post_games = [new_game(port) for _ in range(n)]
    control = json.dumps({"type": "control", "actor": 0, "data": CONTROL}).encode()
    undo = json.dumps({"type": "undo", "actor": "table", "data": {}}).encode()
    # one request stream per client, kept across rounds: control and undo alternate
    streams: dict[str, list[Iterator[Request]]] = {
        "healthz": [cycle([("GET", "/healthz", None, {})]) for _ in range(n)],
        "get": [cycle([("GET", f"/games/{gid}/state", None, auth)])
                for gid, auth in get_games],
        "post": [cycle([("POST", f"/games/{gid}/events", control, auth),
                        ("POST", f"/games/{gid}/events", undo, auth)])
                 for gid, auth in post_games],
    }
    scenarios: dict[str, tuple[Callable[[int], Iterator[Request]], int]] = {
        name: (lambda i, s=s: s[i], 200 if name != "post" else 201)
        for name, s in streams.items()}
    for reqs, ok in scenarios.values():  # warm every worker and cache
        load(port, n, min(0.5, cfg.http_seconds), reqs, ok)
    results: dict[str, list[dict[str, Any]]] = {k: [] for k in scenarios}
    for _ in range(1 if cfg.quick else 3):
        for name, (reqs, ok) in scenarios.items():
            results[name].append(load(port, n, cfg.http_seconds, reqs, ok))

    def summary(name: str) -> tuple[float, list[float], str]:
        runs = results[name]
        lat = sorted(x for r in runs for x in r["latencies"])
        errs = sum((r["errors"] for r in runs), Counter())
        err = ", ".join(f"{k or 'no answer'}: {v}" for k, v in sorted(errs.items()))
        return statistics.median(r["rps"] for r in runs), lat, err

    base_rps, base_lat, base_err = summary("healthz")
    rows = [Row(f"HTTP GET /healthz, {n} clients (the baseline)", "req/s", base_rps,
                notes=[f"p50 {_pct(base_lat, .5):.1f} ms, p99 {_pct(base_lat, .99):.1f} ms"
                       + (f", errors {base_err}" if base_err else "")])]
    for name, label, goal in (("get", "GET /games/ID/state", 0.5),
                              ("post", "POST /games/ID/events (an action)", 0.25)):
        rps, lat, err = summary(name)
        ratio = rps / base_rps
        rows.append(Row(f"HTTP {label}, {n} clients", "req/s", rps, "GET /healthz, same server",
                        base_rps, ratio, f"≥ {goal} of its req/s", ratio >= goal and not err,
                        notes=[f"p50 {_pct(lat, .5):.1f} ms, p99 {_pct(lat, .99):.1f} ms"
                               + (f", errors {err}" if err else "")]))
    return rows
