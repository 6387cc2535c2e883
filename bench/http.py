"""Case: the HTTP API under concurrent clients, against the minimal app a user would write.

Two servers run side by side on loopback: `chronicle serve` (gunicorn, its own settings)
and bench/mini_app.py under gunicorn with exactly those settings (the arguments are taken
from the serve command itself, only the app differs). Only one is loaded at a time; the
rounds alternate between them, so a neighbour's burst hurts both alike.

- POST: each client records real-game actions (the workload's games, table mode, the
  recorder's token) into its own games, one after another as a table would; the anchor
  stores the same request bodies, one durable row each (WAL, `synchronous=FULL`).
- GET state: a real mid-game Thrones state (the 4-player sample, halfway), read with the
  recorder's token; the anchor returns the same document, stored as JSON text.
- GET /healthz of chronicle is reported for reference.

The load is bench/http_client.py in its own process: its connections are spread evenly
over the gunicorn workers, and its CPU is reported (on a 2-core machine it competes with
the server for the cores; the notes say how much it took).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any
from unittest import mock

import cli
from events import Recorder, open_store
from projections.rules import plural

from . import Config, Row, paired
from .sync import pinned
from .wal import warm_wal
from .workload import ROOT, RealGame, Workload, fixture_game

HOST = "127.0.0.1"
GET_GAME = ROOT / "fixtures" / "thrones" / "4_players.jsonl"
GOALS = {"post": 0.8, "get": 0.8}  # issue #34
CLIENT = Path(__file__).with_name("http_client.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class _Exec(BaseException):
    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        super().__init__()
        self.argv, self.env = args, env


def serve_command(db: Path | str, port: int, workers: int | None = None
                  ) -> tuple[list[str], dict[str, str]]:
    """What `chronicle --db DB serve --host 127.0.0.1 --port PORT --no-samples` (with
    `--workers N` if given, else serve's default) would exec: (argv, env), read by stopping
    the command at its exec."""

    def stop(file: str, args: list[str], env: dict[str, str]) -> None:
        raise _Exec(list(args), dict(env))

    with mock.patch("cli.os.execvpe", stop), redirect_stderr(StringIO()):
        try:
            cli.main(["--db", str(db), "serve", "--host", HOST, "--port", str(port),
                      "--no-samples", *([] if workers is None else ["--workers", str(workers)])],
                     standalone_mode=False)
        except _Exec as done:
            return done.argv, done.env
    raise RuntimeError("chronicle serve did not exec gunicorn")


def anchor_command(db: Path, port: int, workers: int | None = None
                   ) -> tuple[list[str], dict[str, str]]:
    """The same gunicorn command with the minimal app in place of chronicle's."""
    argv, env = serve_command(db.with_suffix(".unused.db"), port, workers)
    apps = [i for i, a in enumerate(argv) if a == "api:create_app()"]
    if len(apps) != 1:
        raise RuntimeError(f"cannot find the app in chronicle serve's command: {argv}")
    argv[apps[0]] = "bench.mini_app:create_app()"
    return argv, {**env, "BENCH_MINI_DB": str(db),
                  "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])}


class Server:
    """A gunicorn master in its own process group; stopped by its pid."""

    def __init__(self, argv: list[str], env: dict[str, str], port: int) -> None:
        self.port = port
        self.argv = argv
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)

    def wait_ready(self) -> None:
        argv, port = self.argv, self.port
        want = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{' '.join(argv[-1:])} exited at start")
            try:
                if get(port, "/healthz")[0] == 200 and len(self.workers()) >= want:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not answer /healthz within 60 s")

    def workers(self) -> list[int]:
        """The master's child processes (gunicorn's workers)."""
        out = []
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", encoding="ascii") as fh:
                    stat = fh.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                out.append(int(name))
        return sorted(out)

    def terminate(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, body


# -- the data ------------------------------------------------------------------------------------
Request = list[Any]  # [method, path, body or None, headers]


@dataclass
class PostStreams:
    """Per client: every request it may send, in order (its games one after another), and
    how far it got; chronicle's games are created in the database before the server starts."""

    chronicle: list[list[Request]] = field(default_factory=list)
    anchor: list[list[Request]] = field(default_factory=list)
    at: dict[str, list[int]] = field(default_factory=dict)


def post_streams(rec: Recorder, games: list[RealGame], clients: int, per_client: int
                 ) -> PostStreams:
    """Client c plays games c, c + clients, ... of the workload's games (cycling through
    them, each time a new game) until it has `per_client` actions."""
    out = PostStreams(at={"chronicle": [0] * clients, "anchor": [0] * clients})
    for c in range(clients):
        mine: list[Request] = []
        theirs: list[Request] = []
        k = c
        while len(mine) < per_client:
            game = games[k % len(games)]
            k += clients
            created = rec.create_game(game.request)
            # the answer a client asks for: the stored envelope, not the state (issue #34)
            auth = {"Authorization": f"Bearer {created.recorder_token}",
                    "Content-Type": "application/json", "Prefer": "return=minimal"}
            for action in game.actions:
                body = json.dumps(action)
                mine.append(["POST", f"/games/{created.id}/events", body, auth])
                theirs.append(["POST", "/append", body, {"Content-Type": "application/json"}])
        out.chronicle.append(mine)
        out.anchor.append(theirs)
    return out


def mid_game(rec: Recorder) -> tuple[str, dict[str, str], int]:
    """The 4-player Thrones sample recorded halfway: (game id, auth headers, events)."""
    game = fixture_game(GET_GAME)
    created = rec.create_game(game.request)
    half = game.actions[: len(game.actions) // 2]
    for action in half:
        rec.record(created.id, action)
    return created.id, {"Authorization": f"Bearer {created.recorder_token}"}, len(half) + 1


# -- the load ------------------------------------------------------------------------------------
def client(cfg: Config, spec: dict[str, Any]) -> dict[str, Any]:
    path = Path(cfg.workdir) / "http-spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    # run as a script, not `-m bench.http_client`: the package would import the engine
    out = subprocess.run([sys.executable, str(CLIENT), str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=spec["seconds"] + 180)
    if out.returncode != 0:
        raise RuntimeError(f"the HTTP client failed: {out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


@dataclass
class Scenario:
    name: str
    server: Server
    expect: int
    conns: Any  # (round) -> list of {"requests", "start", "cycle"}
    results: list[dict[str, Any]] = field(default_factory=list)

    def run(self, cfg: Config, seconds: float) -> dict[str, Any]:
        spec = {"port": self.server.port, "seconds": seconds, "expect": self.expect,
                "workers": self.server.workers(), "conns": self.conns()}
        return client(cfg, spec)


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    work = Path(cfg.workdir)
    db, anchor_db = work / "http.db", work / "http-anchor.db"
    with pinned("OFF"):  # building the data is not measured; the servers run at FULL
        store = open_store(str(db))
    rec = Recorder(store)
    # enough actions for 2,000 req/s in every round (and the warm-up round) of every client
    # at every worker count; whole games even in --quick, so a client plays a game or two,
    # not dozens of openings
    rounds = (cfg.http_rounds + 1) * (1 + len(cfg.http_workers))
    per_client = int(rounds * cfg.http_seconds * 2_000 / cfg.http_clients)
    streams = post_streams(rec, list(Workload.real().games), cfg.http_clients, per_client)
    get_id, get_auth, get_events = mid_game(rec)
    store.close()
    keep = [warm_wal(db, cfg.wal_pages), warm_wal(anchor_db, cfg.wal_pages)]
    try:
        with serving(db, anchor_db) as (ours, anchor):
            rows = measure(cfg, ours, anchor, streams, get_id, get_auth, get_events, anchor_db)
            default_workers = len(ours.workers())
        by_workers = {default_workers: rows[0]}
        for workers in cfg.http_workers:
            with serving(db, anchor_db, workers) as (ours, anchor):
                rows.append(post_at(cfg, workers, ours, anchor, streams))
                by_workers[workers] = rows[-1]
        if 1 in by_workers and 2 in by_workers:
            rows.append(scaling_row(by_workers[1], by_workers[2]))
        if os.environ.get(POSTGRES_ENV):
            rows.append(postgres_scaling(cfg, os.environ[POSTGRES_ENV]))
        return rows
    finally:
        for conn in keep:
            conn.close()


@contextmanager
def serving(db: Path, anchor_db: Path, workers: int | None = None
            ) -> Iterator[tuple[Server, Server]]:
    """chronicle serve and the anchor under the same gunicorn command, started together
    and stopped together."""
    servers: list[Server] = []
    try:
        port = free_port()
        servers.append(Server(*serve_command(db, port, workers), port))
        port = free_port()
        servers.append(Server(*anchor_command(anchor_db, port, workers), port))
        for server in servers:  # both start at once
            server.wait_ready()
        yield servers[0], servers[1]
    finally:
        for s in servers:  # both stop at once
            s.terminate()
        for s in servers:
            s.stop()


def _posts(streams: PostStreams, side: str) -> Any:
    lists = streams.chronicle if side == "chronicle" else streams.anchor

    def conns() -> list[dict[str, Any]]:
        return [{"requests": reqs, "start": streams.at[side][i], "cycle": False}
                for i, reqs in enumerate(lists)]

    return conns


def post_scenarios(ours: Server, anchor: Server, streams: PostStreams) -> dict[str, Scenario]:
    return {"post": Scenario("post", ours, 201, _posts(streams, "chronicle")),
            "post_anchor": Scenario("post_anchor", anchor, 201, _posts(streams, "anchor"))}


SIDES = {"post": "chronicle", "post_anchor": "anchor"}


def play_rounds(cfg: Config, scenarios: dict[str, Scenario], streams: PostStreams) -> None:
    """Every scenario once a round, in alternating order; round 0 warms every worker and
    cache and is not kept (not in --quick). A POST client goes on where it stopped."""
    order = list(scenarios)
    first = 1 if cfg.quick else 0
    for r in range(first, cfg.http_rounds + 1):
        for name in order if r % 2 else order[::-1]:
            sc = scenarios[name]
            result = sc.run(cfg, min(0.5, cfg.http_seconds) if r == 0 else cfg.http_seconds)
            if name in SIDES:
                side = SIDES[name]
                streams.at[side] = [a + d for a, d in
                                    zip(streams.at[side], result["done"], strict=True)]
            if r:
                sc.results.append(result)


def measure(cfg: Config, ours: Server, anchor: Server, streams: PostStreams, get_id: str,
            get_auth: dict[str, str], get_events: int, anchor_db: Path) -> list[Row]:
    status, doc = get(ours.port, f"/games/{get_id}/state", get_auth)
    assert status == 200, doc
    with sqlite3.connect(anchor_db) as conn:
        conn.execute("INSERT OR REPLACE INTO docs (id, body) VALUES (?, ?)",
                     ("state", doc.decode("utf-8")))
    n = cfg.http_clients

    def repeat(req: Request) -> Any:
        return lambda: [{"requests": [req], "cycle": True} for _ in range(n)]

    scenarios = {
        "healthz": Scenario("healthz", ours, 200, repeat(["GET", "/healthz", None, {}])),
        "get": Scenario("get", ours, 200,
                        repeat(["GET", f"/games/{get_id}/state", None, get_auth])),
        "get_anchor": Scenario("get_anchor", anchor, 200,
                               repeat(["GET", "/doc/state", None, {}])),
        **post_scenarios(ours, anchor, streams),
    }
    play_rounds(cfg, scenarios, streams)
    return rows(cfg, scenarios, len(doc), get_events, len(ours.workers()))


def post_at(cfg: Config, workers: int, ours: Server, anchor: Server, streams: PostStreams
            ) -> Row:
    """POST against the anchor at another gunicorn worker count (reported: SQLite's lock
    is shared by the workers, so the figure per count is what a deployer chooses from)."""
    scenarios = post_scenarios(ours, anchor, streams)
    play_rounds(cfg, scenarios, streams)
    row = compare(scenarios["post"].results, scenarios["post_anchor"].results,
                  f"HTTP POST an action (real-game actions), {cfg.http_clients} clients, "
                  f"{plural(workers, 'gunicorn worker')}",
                  "minimal Flask app, same gunicorn, 1 durable INSERT per POST", None)
    return row


#: issue #34: a second worker process on a 2-core machine
SCALING_GOAL = 1.6


def scaling_row(one: Row, two: Row) -> Row:
    """What a second gunicorn worker (a process) buys a POST: its req/s over one worker's,
    both against the same SQLite file, both measured in this run."""
    assert one.value is not None and two.value is not None
    ratio = two.value / one.value
    return Row("HTTP POST an action, 2 gunicorn workers (processes) over 1, SQLite",
               "req/s", two.value, "the same with 1 worker", one.value, ratio,
               f"≥ {SCALING_GOAL}x", ratio >= SCALING_GOAL,
               ["the load client runs on the same 2 cores (its CPU is in the POST rows)"])


#: the PostgreSQL server of the bench (bench/postgres.py reads the same variable)
POSTGRES_ENV = "CHRONICLE_BENCH_POSTGRES"


def postgres_scaling(cfg: Config, base: str) -> Row:
    """POST with 2 gunicorn workers over 1, chronicle serve on PostgreSQL (issue #34: each
    worker a process with its own connections, so the two can use both cores where SQLite
    queues them on one write lock). Rounds alternate the order; each starts its server
    afresh and goes on with the clients' games where the last round stopped."""
    from .postgres import scratch_schema, server_settings

    with scratch_schema(base) as url:
        store = open_store(url)
        rounds = 2 * cfg.http_rounds + 2
        per_client = int(rounds * cfg.http_seconds * 1_500 / cfg.http_clients)
        streams = post_streams(Recorder(store), list(Workload.real().games),
                               cfg.http_clients, per_client)
        store.close()
        settings = server_settings(url)
        results: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
        for r in range(cfg.http_rounds + 1):
            for workers in (1, 2) if r % 2 else (2, 1):
                port = free_port()
                server = Server(*serve_command(url, port, workers), port)
                try:
                    server.wait_ready()
                    sc = Scenario("post", server, 201, _posts(streams, "chronicle"))
                    result = sc.run(cfg, min(0.5, cfg.http_seconds) if r == 0
                                    else cfg.http_seconds)
                finally:
                    server.terminate()
                    server.stop()
                streams.at["chronicle"] = [a + d for a, d in zip(
                    streams.at["chronicle"], result["done"], strict=True)]
                if r:  # round 0 warms the connections and the server's caches
                    results[workers].append(result)
    one, one_note = _summary(results[1])
    two, two_note = _summary(results[2])
    ratio, spread = paired([x["rps"] for x in results[2]], [x["rps"] for x in results[1]])
    failed = any(x["errors"] or x["exhausted"] for x in results[1] + results[2])
    return Row("HTTP POST an action, 2 gunicorn workers (processes) over 1, PostgreSQL",
               "req/s", two, "the same with 1 worker", one, ratio, f"≥ {SCALING_GOAL}x",
               ratio >= SCALING_GOAL and not failed,
               [f"2 workers: {two_note}", f"1 worker: {one_note}",
                f"{plural(len(results[2]), 'round')}, paired ratios {spread}", settings])


def _summary(results: list[dict[str, Any]]) -> tuple[float, str]:
    rps = statistics.median(r["rps"] for r in results)
    cpu = sum(r["cpu_seconds"] for r in results) / sum(r["elapsed"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    spread = "/".join(str(x) for x in results[-1]["spread"]) or "?"
    text = (f"p50 {statistics.median(r['p50_ms'] for r in results):.1f} ms, "
            f"p99 {max(r['p99_ms'] for r in results):.1f} ms; client CPU {cpu:.0%} of a core; "
            f"connections per worker {spread}")
    if errors:
        text += "; errors " + ", ".join(f"{k}: {v}" for k, v in sorted(errors.items()))
    if any(r["exhausted"] for r in results):
        text += "; a client ran out of actions"
    return rps, text


def compare(ours: list[dict[str, Any]], theirs: list[dict[str, Any]], label: str,
            base_label: str, goal: float | None) -> Row:
    rps, ours_note = _summary(ours)
    base, base_note = _summary(theirs)
    ratio, spread = paired([r["rps"] for r in ours], [r["rps"] for r in theirs])
    failed = any(r["errors"] or r["exhausted"] for r in ours + theirs)
    return Row(label, "req/s", rps, base_label, base, ratio,
               "reported" if goal is None else f"≥ {goal} of its req/s",
               None if goal is None else ratio >= goal and not failed,
               [f"chronicle: {ours_note}", f"anchor: {base_note}",
                f"{plural(len(ours), 'round')}, paired ratios {spread}"])


def rows(cfg: Config, sc: dict[str, Scenario], doc_bytes: int, get_events: int,
         workers: int) -> list[Row]:
    n = cfg.http_clients
    at = f"{plural(workers, 'gunicorn worker')} (chronicle serve's default)"
    out = [
        compare(sc["post"].results, sc["post_anchor"].results,
                f"HTTP POST an action (real-game actions, Prefer: return=minimal), {n} "
                f"clients, {at}",
                "minimal Flask app, same gunicorn, 1 durable INSERT per POST", GOALS["post"]),
        compare(sc["get"].results, sc["get_anchor"].results,
                f"HTTP GET state, real mid-game Thrones (event {get_events - 1}, "
                f"{doc_bytes:,} bytes), {n} clients, {at}",
                "minimal Flask app, same gunicorn, the same document stored as JSON",
                GOALS["get"]),
    ]
    rps, note = _summary(sc["healthz"].results)
    out.append(Row(f"HTTP GET /healthz of chronicle serve, {n} clients", "req/s", rps,
                   notes=[note]))
    return out
