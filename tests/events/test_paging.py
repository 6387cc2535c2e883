"""A history page is marked from the events aimed at it, not from the whole log (issue #23).

The oracle is the whole log: `history()` without a limit marks every event from one pass
over all of it (`effective_stack`, the fold's own bookkeeping); every page of every size
must say the same of each of its events. Logs are random table games with undo, redo,
notes and corrections, some re-sealed without the undo targets older records lack.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from events import Recorder, paging
from events.model import GENESIS, seal
from events.reading import GameReader as Reader
from events.samples import fixtures_dir
from events.sql import AIMED
from events.sqlite import SQLITE

from .logs import EXAMPLE, random_game


def _without_targets(rec: Recorder, gid: str, new_id: str, rng: random.Random) -> str:
    """A copy of the game, re-sealed, with some undo and redo events naming no target."""
    prev, out = GENESIS, []
    for env in rec.store.events(gid):
        data = dict(env["data"])
        if env["type"] in ("undo", "redo") and rng.random() < 0.5:
            data.pop("target_seq")
        env = seal(new_id, env["seq"], env["type"], env["actor"], data, prev,
                   recorded_at=env["recorded_at"], salt=env["salt"])
        prev = env["hash"]
        out.append(env)
    row = {**rec.game(gid), "id": new_id}
    rec.store.import_game(row, out, {})
    return new_id


def _paged(rec: Recorder, gid: str, size: int) -> dict[int, dict]:
    notes: dict[int, dict] = {}
    after, last = -1, rec.last_seq(gid)
    while after < last:
        events, page = rec.history(gid, after, size)
        notes |= page
        after = events[-1]["seq"]
    return notes


@pytest.mark.parametrize("seed", range(4))
def test_every_page_marks_undone_and_corrected_events_as_the_whole_log_does(rec, seed):
    rng = random.Random(seed)
    gid = random_game(rec, rng, 60)
    _, whole = rec.history(gid)
    assert any(n.get("undone") for n in whole.values()), "the log undoes something"
    for size in (1, 4, 25, 500):
        assert _paged(rec, gid, size) == whole, size


@pytest.mark.parametrize("seed", range(3))
def test_undo_and_redo_without_a_target_are_aimed_from_the_cursor_before_them(rec, seed):
    rng = random.Random(100 + seed)
    gid = _without_targets(rec, random_game(rec, rng, 60), f"old-{seed}", rng)
    assert rec.store.unaimed(gid), "some undo or redo names no target"
    _, whole = rec.history(gid)
    for size in (3, 40):
        assert _paged(rec, gid, size) == whole, size


def test_a_log_with_many_unaimed_undos_is_marked_from_the_whole_log(rec, monkeypatch):
    rng = random.Random(7)
    gid = _without_targets(rec, random_game(rec, rng, 60), "old", rng)
    _, whole = rec.history(gid)
    monkeypatch.setattr(paging, "UNAIMED_LIMIT", 0)
    assert _paged(rec, gid, 5) == whole


def test_the_recorder_writes_the_target_of_every_undo_and_redo(rec):
    gid = random_game(rec, random.Random(3), 40)
    metas = [e for e in rec.store.events(gid) if e["type"] in ("undo", "redo")]
    assert metas and all(isinstance(e["data"].get("target_seq"), int) for e in metas)
    assert rec.store.unaimed(gid) == []


def _long_game(rec: Recorder, gid: str, events: int) -> str:
    """A long legal log stored at once: the setup, then a control, undo, redo, undo and a
    note over and over."""
    rec.editions("adaman")
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"})
    created = rec.store.event(made.id, 0)
    setup, control = EXAMPLE["events"][0], EXAMPLE["events"][1]
    assert (setup["type"], control["type"]) == ("setup", "control")
    prev, out = GENESIS, []
    kinds = ("control", "undo", "redo", "undo", "note")
    for seq in range(events):
        if seq < 2:
            kind, actor, data = ("game_created", "table", created["data"]) if seq == 0 else \
                (setup["type"], setup["actor"], setup["data"])
        else:
            kind = kinds[(seq - 2) % 5]
            actor = control["actor"] if kind == "control" else "table"
            data = control["data"] if kind == "control" else \
                {"text": "n"} if kind == "note" else {"target_seq": seq - (seq - 2) % 5}
        env = seal(gid, seq, kind, actor, data, prev)
        prev = env["hash"]
        out.append(env)
    rec.store.import_game({**rec.game(made.id), "id": gid}, out, {})
    return gid


def _count_reads(store, monkeypatch) -> list[int]:
    """Counts the envelopes the store hands out from here on: [count]."""
    read = [0]
    for name in ("events", "aimed_at", "unaimed"):
        real = getattr(store, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            out = list(_real(*args, **kwargs))
            read[0] += len(out)
            return iter(out) if _name == "events" else out

        monkeypatch.setattr(store, name, counted)
    return read


def _events_read_for_a_page(rec: Recorder, gid: str, after: int, monkeypatch) -> int:
    fresh = Recorder(rec.store)  # an empty cursor cache: another process
    fresh.state(gid)  # the context and cursor every request loads first
    read = _count_reads(rec.store, monkeypatch)
    events, _ = fresh.history(gid, after, 50)
    assert len(events) == 50
    return read[0]


def test_a_page_of_a_long_game_reads_the_page_and_what_aims_at_it(rec, monkeypatch):
    gid = _long_game(rec, "long", 3000)
    read = _events_read_for_a_page(rec, gid, 1500, monkeypatch)
    assert read <= 50 + 64 + 2 * 50, read  # the page, a snapshot's fold, the undo and redo


def test_the_page_count_catches_a_page_that_reads_the_whole_log(rec, monkeypatch):
    """The planted fault: every page marked from the whole log (the old way)."""
    gid = _long_game(rec, "long", 3000)
    monkeypatch.setattr(paging, "UNAIMED_LIMIT", -1)
    assert _events_read_for_a_page(rec, gid, 1500, monkeypatch) > 3000


def test_sqlite_finds_the_events_aimed_at_a_page_through_its_index(store):
    sql = (f"SELECT * FROM events WHERE game_id = ? AND {AIMED} AND "
           f"{SQLITE.target} IN (?, ?)")
    plan = " ".join(str(row) for row in store.conn.execute(
        f"EXPLAIN QUERY PLAN {sql}", ("g", 1, 2)).fetchall())
    assert "events_by_target" in plan, plan
    bare = sqlite3.connect(":memory:")
    bare.execute("CREATE TABLE events (game_id TEXT, seq INTEGER, type TEXT, data TEXT, "
                 "PRIMARY KEY (game_id, seq))")
    plan = str(bare.execute(f"EXPLAIN QUERY PLAN {sql}", ("g", 1, 2)).fetchall())
    assert "events_by_target" not in plan, "the check sees a missing index"


# -- a page whose events say what they decided (a Thrones challenge's winner) --------------

THRONES_SAMPLE = fixtures_dir() / "thrones" / "4_players.jsonl"
_REAL_OUTCOME = Reader._outcome
#: the page, the fold from the start up to it, and the undo and redo aimed at it
PAGE_BOUND = 100 + 100 + 2 * 100


def _outcome_page(rec: Recorder, monkeypatch) -> tuple[int, dict[int, dict]]:
    """(events read for a 100-event page of a Thrones game, its notes)."""
    gid = "thrones-4-players"
    if rec.store.game(gid) is None:
        with open(THRONES_SAMPLE, encoding="utf-8") as fh:
            assert rec.import_lines(fh).id == gid
    fresh = Recorder(rec.store)
    fresh.state(gid)
    read = _count_reads(rec.store, monkeypatch)
    events, notes = fresh.history(gid, 100, 100)
    assert len(events) == 100 and sum(": " in n["description"] for n in notes.values()) > 5
    return read[0], notes


def test_a_page_reads_each_outcome_from_its_own_fold_not_a_fold_per_outcome(rec, monkeypatch):
    """Who won each challenge is read from the state before it: the page's one fold has
    it. The oracle is the page arithmetic: the page, the fold up to it, what aims at it."""
    read, notes = _outcome_page(rec, monkeypatch)
    assert read <= PAGE_BOUND, read
    monkeypatch.undo()
    monkeypatch.setattr(Reader, "_outcome", lambda self, shown, before:
                        _REAL_OUTCOME(self, shown, None))
    assert _outcome_page(rec, monkeypatch)[1] == notes  # what each fold of its own says


def test_the_outcome_count_catches_a_fold_per_outcome(rec, monkeypatch):
    """The planted fault: each outcome folds from the start again (the old way)."""
    monkeypatch.setattr(Reader, "_outcome", lambda self, shown, before:
                        _REAL_OUTCOME(self, shown, None))
    read, _ = _outcome_page(rec, monkeypatch)
    assert read > PAGE_BOUND, read
