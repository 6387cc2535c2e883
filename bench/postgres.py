"""Case (reported): the append cases on PostgreSQL, when a server is named.

Issue #23 keeps PostgreSQL's own write path (the server already groups the WAL flushes of
concurrent commits) and asks for it to be measured too. Set `CHRONICLE_BENCH_POSTGRES` to
a server's URL (`postgresql://USER@HOST:PORT/DB`); without it the case says how and
measures nothing. Everything lives in a schema of its own, dropped at the end.

The same real-game workload as the SQLite cases: one writer (`Recorder.record` of each
action, one transaction each) and 8 threads on their own connections writing their own
games, each against raw psycopg committing the same rows one transaction each from one
connection (the server's commit rate for a writer that does nothing else). The server's
`fsync` and `synchronous_commit` are in the notes: a test cluster runs with both off,
which makes its figures CPU, not durable appends.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from events import Recorder, open_store
from events.folding import CursorCache
from events.model import ENVELOPE_FIELDS, Envelope
from projections.rules import plural

from . import Config, Row, paired
from .sides import settle
from .workload import Player, Workload, slices
from .writers import Writers, raw_threads

ENV = "CHRONICLE_BENCH_POSTGRES"


def with_search_path(url: str, schema: str) -> str:
    """The URL with libpq's options set so every connection works in `schema`."""
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def scratch_schema(base: str) -> Iterator[str]:
    """A URL on a fresh, empty schema, dropped on the way out."""
    import psycopg  # only this case needs the driver

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


class RawPostgres:
    """Plain psycopg: the same rows, INSERT + COMMIT each, connections kept open."""

    COLUMNS = ("game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, "
               "actor TEXT NOT NULL, data TEXT NOT NULL, recorded_at TEXT NOT NULL, "
               "prev_hash TEXT NOT NULL, hash TEXT NOT NULL, salt TEXT NOT NULL, "
               "idempotency_key TEXT, PRIMARY KEY (game_id, seq)")

    def __init__(self, url: str, table: str) -> None:
        """Rows go to `table` (of the URL's schema): one table per baseline, as each SQLite
        baseline has its own file."""
        self.url = url
        self.insert_sql = (f"INSERT INTO {table} ({', '.join(ENVELOPE_FIELDS)}) "
                           f"VALUES ({', '.join(['%s'] * len(ENVELOPE_FIELDS))})")
        self.conns: list[Any] = []
        conn = self.connections(1)[0]
        conn.execute(f"CREATE TABLE {table} ({self.COLUMNS})")
        conn.commit()

    def connections(self, n: int) -> list[Any]:
        import psycopg

        while len(self.conns) < n:
            self.conns.append(psycopg.connect(self.url, autocommit=False))
        return self.conns[:n]

    @staticmethod
    def params(rows: Sequence[Envelope]) -> list[tuple[Any, ...]]:
        out = []
        for env in rows:
            values = {**env, "actor": json.dumps(env["actor"]),
                      "data": json.dumps(env["data"], sort_keys=True)}
            out.append(tuple(values[k] for k in ENVELOPE_FIELDS))
        return out

    def insert(self, conn: Any, params: Sequence[tuple[Any, ...]]) -> None:
        sql = self.insert_sql
        for p in params:
            conn.execute(sql, p)
            conn.commit()

    def run(self, rows: Sequence[Envelope]) -> float:
        params = self.params(rows)
        settle()
        start = time.perf_counter()
        self.insert(self.conns[0], params)
        return time.perf_counter() - start

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


def server_settings(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        got = {name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
               for name in ("server_version", "fsync", "synchronous_commit")}
    return (f"PostgreSQL {got['server_version']}, fsync={got['fsync']}, "
            f"synchronous_commit={got['synchronous_commit']}")


def single_writer(cfg: Config, url: str, workload: Workload) -> dict[str, list[float]]:
    rec = Recorder(open_store(url))
    player = Player(rec, workload)
    raw = RawPostgres(url, "raw_one")
    rates: dict[str, list[float]] = {"chronicle": [], "raw": []}
    try:
        for stretch in slices(workload.steps, cfg.repeats):
            player.create_games(stretch)
            calls = list(player.calls(stretch))
            settle()
            start = time.perf_counter()
            written = [rec.record(gid, action).event for gid, action in calls]
            rates["chronicle"].append(len(calls) / (time.perf_counter() - start))
            rates["raw"].append(len(written) / raw.run(written))
    finally:
        rec.store.close()
        raw.close()
    return rates


def concurrent_writers(cfg: Config, url: str, workload: Workload) -> dict[str, list[float]]:
    cache = CursorCache()
    writers = Writers([Recorder(open_store(url), cache) for _ in range(cfg.writers)],
                      workload)
    raw_one, raw_many = RawPostgres(url, "raw_one"), RawPostgres(url, "raw_threads")
    rates: dict[str, list[float]] = {"chronicle": [], "raw": [], "raw_threads": []}
    try:
        for _ in range(cfg.repeats):
            seconds, written = writers.run(cfg.repeats)
            n = sum(len(w) for w in written)
            rates["chronicle"].append(n / seconds)
            rates["raw"].append(n / raw_one.run([e for w in written for e in w]))
            rates["raw_threads"].append(n / raw_threads(raw_many, written))
    finally:
        writers.close()
        raw_one.close()
        raw_many.close()
    return rates


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    base = os.environ.get(ENV)
    if not base:
        return [Row("PostgreSQL appends: not measured", "events/s", None,
                    notes=[f"set {ENV}=postgresql://USER@HOST:PORT/DB to measure them"])]
    workload = cfg.workload()
    with scratch_schema(base) as url:
        settings = server_settings(url)
        one = single_writer(cfg, url, workload)
    with scratch_schema(base) as url:  # the games of the two cases apart, as on SQLite
        many = concurrent_writers(cfg, url, workload)
    rows = []
    for label, rates, extra in (
            ("single writer, real-game actions, PostgreSQL", one, ""),
            (f"{cfg.writers} concurrent writers (threads, own connections, own games), "
             "PostgreSQL", many, f"; raw psycopg from {cfg.writers} threads: "
             f"{statistics.median(many.get('raw_threads', [0])):,.0f} events/s")):
        ours = statistics.median(rates["chronicle"])
        ratio, spread = paired(rates["chronicle"], rates["raw"])
        rows.append(Row(label, "events/s", ours,
                        "raw psycopg INSERT + COMMIT of the same rows, one writer",
                        statistics.median(rates["raw"]), ratio,
                        notes=[f"{plural(len(rates['raw']), 'run')}, paired ratios {spread}{extra}",
                               settings]))
    return rows
