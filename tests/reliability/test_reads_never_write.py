"""Reads never write (issue #32; docs/design.md, "Stores": reads never write; RELIABILITY.md).

Every GET of the API and every reading command of the CLI (`games`, `state`, `legal`,
`log`, `replay`, `export`, `verify`, `compare`, `stats`, `reaudit`, `editions`) is asked of a
database opened read-only (`file:...?mode=ro`) while every write method of the store is
made to fail the test: each must answer as it does on a writable store, attempt no write,
and leave the database as it was. Among the games is one an older version left owing the
server's deal (a crash between two writes): a read shows it as stored, and only the explicit
`chronicle repair ID` writes what it owes. `chronicle verify FILE` run in an empty folder
creates nothing there.

Shown to fail on the code before this change: GET /verify stored its audit mark, GET /state
of the owing game appended the deal, `verify FILE` created chronicle.db and stored an
edition in it.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from api import create_app
from cli import main
from events import Recorder
from events.sql import SQLStore
from events.sqlite import SQLiteStore

from .conftest import ROOT, count

WRITES = ("create_game", "import_game", "set_summary", "put_digests", "append", "append_all",
          "put_edition", "put_snapshot", "_transaction")


@pytest.fixture
def no_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every write door of the SQL stores, made to record its use and refuse (but for a
    private in-memory store, which is nowhere: `verify FILE` holds editions in one)."""
    tried: list[str] = []
    for name in WRITES:
        own = getattr(SQLStore, name)

        def refuse(self: Any, *args: Any, _name: str = name, _own: Any = own,
                   **kwargs: Any) -> Any:
            if getattr(self, "url", None) == ":memory:":
                return _own(self, *args, **kwargs)
            tried.append(_name)
            raise AssertionError(f"a read called Store.{_name}")
        monkeypatch.setattr(SQLStore, name, refuse)
    return tried


def _dump(db: Path) -> str:
    """The database's whole content, as SQL (a fresh connection after the others closed)."""
    conn = sqlite3.connect(db)
    try:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()
    finally:
        conn.close()


def _owing_game(rec: Recorder, target: SQLiteStore) -> str:
    """A digital Adaman game as an older version left it after a crash between creating it
    and dealing: game_created stored, the secret kept, the deal not written."""
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital"})
    events = list(rec.store.events(created.id))
    assert [e["type"] for e in events] == ["game_created", "setup"]
    seed, salt = rec.store.secret(created.id) or ("", None)
    row = {**rec.store.game(created.id), "status": "in_progress", "result": None}
    row.pop("audit", None)
    target.import_game(row, events[:1], {}, seed, salt)
    return created.id


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A database of games of every kind: a table game with undo, imported fixtures (one
    finished), a digital game in play, and one owing the server's deal."""
    db = tmp_path / "chronicle.db"
    scratch = Recorder(SQLiteStore(":memory:"))
    store = SQLiteStore(str(db))
    rec = Recorder(store)
    fixture = (ROOT / "fixtures" / "royals" / "2_players.jsonl").read_text("utf-8")
    table = rec.import_lines(fixture.splitlines()[:20])  # a table game in play
    rec.record(table.id, {"type": "note", "actor": "table", "data": {}})
    rec.undo(table.id)
    imported = [rec.import_lines((ROOT / "fixtures" / slug / f"{name}.jsonl")
                                 .read_text("utf-8").splitlines()).id
                for slug, name in (("adaman", "won"), ("thrones", "2_players"),
                                   ("palais_royal", "2_players"))]
    digital = rec.create_game({"game": "adaman", "players": ["Cy"], "mode": "digital"})
    move = rec.legal(digital.id)[0]
    rec.record(digital.id, move)
    owing = _owing_game(scratch, store)
    export = tmp_path / "game.jsonl"
    export.write_text("".join(rec.export(imported[0])), "utf-8")
    store.close()
    yield {"db": db, "table": table, "imported": imported, "digital": digital,
           "owing": owing, "export": export}


def _http_reads(client: Any, a: dict[str, Any]) -> dict[str, tuple[int, str]]:
    out: dict[str, tuple[int, str]] = {}
    games = [a["table"].id, *a["imported"], a["digital"].id, a["owing"]]
    tokens = {a["table"].id: a["table"].recorder_token, a["digital"].id: a["digital"]
              .seat_tokens[0]}
    for path in ("/games", "/stats", "/reaudit", "/editions", "/editions?game=royals",
                 "/games-catalog", "/openapi.json", "/", "/games/new"):
        out[path] = _get(client, path)
    for gid in games:
        for token in {None, tokens.get(gid)}:
            for tail in ("", "/state", "/state?at=0", "/events", "/events?after=0&limit=2",
                         "/events/stream", "/export", "/legal-actions", "/verify",
                         f"/compare/{gid}", "/replay", "/record"):
                out[f"{gid}{tail} {'token' if token else 'none'}"] = _get(
                    client, f"/games/{gid}{tail}", token)
    return out


def _get(client: Any, path: str, token: str | None = None) -> tuple[int, str]:
    r = client.get(path, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        return r.status_code, r.get_data(as_text=True)
    finally:
        r.close()


def _cli_reads(db: str, a: dict[str, Any]) -> dict[str, tuple[int, str]]:
    runner = CliRunner()
    out = {}
    commands = [["games"], ["stats"], ["reaudit"], ["editions"], ["editions", "royals"],
                ["verify", str(a["export"])], ["compare", a["table"].id, a["table"].id]]
    for gid in (a["table"].id, *a["imported"], a["digital"].id, a["owing"]):
        commands += [["state", gid], ["state", gid, "--at", "0"], ["state", gid, "--json"],
                     ["legal", gid], ["log", gid], ["replay", gid, "--at", "0"],
                     ["export", gid], ["verify", gid]]
    for args in commands:
        result = runner.invoke(main, ["--db", db, *args])
        out[" ".join(args)] = (result.exit_code, result.output)
    return out


def test_every_read_answers_from_a_read_only_store_and_attempts_no_write(
        archive: dict[str, Any], no_writes: list[str], monkeypatch: pytest.MonkeyPatch):
    """The same answers as from a writable store (which the reads must not change either),
    no write attempted, the file unchanged; the owing game is shown as stored."""
    db = archive["db"]
    before = _dump(db)
    writable = create_app({"TESTING": True, "DATABASE": str(db), "STREAM_SECONDS": 0})
    first = _http_reads(writable.test_client(), archive)
    first_cli = _cli_reads(str(db), archive)
    assert no_writes == [], f"reads of a writable store tried {sorted(set(no_writes))}"
    assert _dump(db) == before
    read_only = f"file:{db}?mode=ro"
    app = create_app({"TESTING": True, "DATABASE": read_only, "STREAM_SECONDS": 0})
    again = _http_reads(app.test_client(), archive)
    again_cli = _cli_reads(read_only, archive)
    assert no_writes == []
    assert _dump(db) == before
    bad = {q: a[0] for q, a in again.items() if a[0] >= 500}
    assert bad == {}, bad
    assert {q: a[0] for q, a in again.items()} == {q: a[0] for q, a in first.items()}
    assert {q: a[0] for q, a in again_cli.items()} == {q: a[0] for q, a in first_cli.items()}
    refused = {q: a for q, a in again_cli.items() if a[0] not in (0, 1)}
    assert refused == {}, refused
    assert {q for q, a in again.items() if a[0] != 200} == set(), \
        {q: a[0] for q, a in again.items() if a[0] != 200}
    assert {q for q, a in again_cli.items() if a[0] != 0} == set(), \
        {q: a for q, a in again_cli.items() if a[0] != 0}
    owing = again[f"{archive['owing']}/events none"]
    assert owing[0] == 200 and '"setup"' not in owing[1], "the owing game was dealt by a read"
    count("reads never write: read-only reads answered", len(again) + len(again_cli))


def test_repair_writes_what_an_older_version_left_owing(archive: dict[str, Any]):
    """`chronicle repair ID` deals what the game owes, by the rules and from its secret,
    and saves its audit mark; a second repair has nothing left to write."""
    db, gid = archive["db"], archive["owing"]
    runner = CliRunner()
    assert Recorder(SQLiteStore(str(db))).last_seq(gid) == 0
    result = runner.invoke(main, ["--db", str(db), "repair", gid])
    assert result.exit_code == 0, result.output
    assert "wrote step 1" in result.output
    rec = Recorder(SQLiteStore(str(db)))
    assert [e["type"] for e in rec.store.events(gid)] == ["game_created", "setup"]
    assert rec.verify(gid)["ok"] and rec.game(gid)["audit"] == "ok"
    again = runner.invoke(main, ["--db", str(db), "repair", gid])
    assert again.exit_code == 0 and "nothing was owed" in again.output, again.output


def test_verify_file_writes_nothing_anywhere(archive: dict[str, Any], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch):
    """Run in an empty folder (the default database would be ./chronicle.db), and with
    --db naming a file that does not exist: the report, and no file made."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    monkeypatch.delenv("CHRONICLE_DB", raising=False)
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(archive["export"])])
    assert result.exit_code == 0, result.output
    assert "The record verifies" in result.output
    missing = tmp_path / "nowhere" / "x.db"
    (tmp_path / "nowhere").mkdir()
    result = runner.invoke(main, ["--db", str(missing), "verify", str(archive["export"]),
                                  "--json"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["verify", str(archive["export"]), str(archive["export"])])
    assert result.exit_code == 0, result.output  # several files: a line each, still no store
    assert sorted(os.listdir(empty)) == [] and sorted(os.listdir(tmp_path / "nowhere")) == []
