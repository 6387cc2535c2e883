"""The anchor of the HTTP cases: the minimal Flask app a user might write instead.

`gunicorn 'bench.mini_app:create_app()'` with `chronicle serve`'s own settings (bench/http.py
takes them from the serve command). `POST /append` stores the JSON body as one row: one
transaction, WAL, `synchronous=FULL`, as durable as chronicle's append; a lock per process
queues its threads for the write, as chronicle's store does, so neither side pays for
SQLite's busy handler sleeping while the other does not. `GET /doc/<id>` returns a stored
JSON document as it is. `BENCH_MINI_DB` names the database file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from typing import Any

from flask import Flask, Response, abort, request

SCHEMA = ("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
          "CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, body TEXT NOT NULL);")


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def create_app() -> Flask:
    path = os.environ["BENCH_MINI_DB"]
    connect(path).executescript(SCHEMA)
    app = Flask(__name__)
    local = threading.local()
    writing = threading.Lock()

    def db() -> sqlite3.Connection:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = connect(path)
        return conn

    @app.post("/append")
    def append() -> tuple[dict[str, Any], int]:
        body = request.get_json()
        conn = db()
        with writing:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("INSERT INTO events (body) VALUES (?)", (json.dumps(body),))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return {"seq": row.lastrowid}, 201

    @app.get("/doc/<doc_id>")
    def doc(doc_id: str) -> Response:
        row = db().execute("SELECT body FROM docs WHERE id = ?", (doc_id,)).fetchone()
        if row is None:
            abort(404)
        return Response(row[0], mimetype="application/json")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
