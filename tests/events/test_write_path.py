"""The write path does the append and little else (issue #23), and loses no check.

- A record is one read and one transaction of a few statements: the game row and the last
  event read together (issue #34), then the conditional insert (the seq check and the row
  in one statement), the digest, the commit; the game row is rewritten only when its
  status or result changes.
- The digest stored after each event is the one an independent fold of the stored log
  computes (projections.audit.state_digest), whether the write shared the answer's view
  (a caller who sees everything) or not (a seat in digital play, the server's deals).
- The action's shape is checked without marshmallow when it is well-formed; on any input
  the result or the refusal is the schema's own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import Access, InvalidEvent, Recorder
from events.schemas import ActionSchema, load, load_action
from projections.audit import digest_key, state_digest
from projections.replay import Folder

from .logs import EXAMPLE


def _statements(store) -> list[str]:
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    return seen


def test_a_record_is_one_read_and_one_transaction_of_four_statements(rec):
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    rec.record(gid, EXAMPLE["events"][0])  # warm: the reducer bound, the cursor cached
    seen = _statements(rec.store)
    rec.record(gid, EXAMPLE["events"][1])
    rec.store.conn.set_trace_callback(None)
    words = [s.split()[0].upper() for s in seen]
    assert words == ["SELECT", "BEGIN", "INSERT", "INSERT", "COMMIT"], seen
    assert "FROM games g JOIN events e" in seen[0], "the row and the last event, one read"
    assert "WHERE (SELECT max(seq)" in seen[2], "the seq check is the insert's own"


def test_the_game_row_is_rewritten_only_when_its_status_or_result_changes(rec):
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    updates = 0
    moves = EXAMPLE["events"]
    for move in moves:
        seen = _statements(rec.store)
        rec.record(gid, move)
        updates += sum(s.startswith("UPDATE games") for s in seen)
    rec.store.conn.set_trace_callback(None)
    row = rec.game(gid)
    assert row["status"] == "finished" and row["result"] == rec.state(gid)["result"]
    assert updates == 1, "written once: when the game ended"
    rec.undo(gid)
    assert rec.game(gid)["status"] == "in_progress", "and again when an undo reopened it"


def _stored_digests_match_a_fold(rec: Recorder, gid: str) -> int:
    row = rec.game(gid)
    rules = rec.rules_for(row)
    stored = rec.store.digests(gid, digest_key(row["game"], rules.rules_version))
    folder = Folder(rules, row["mode"])
    checked = 0
    for env in rec.store.events(gid):
        cursor = folder.feed(env)
        if env["seq"] in stored:
            assert stored[env["seq"]] == state_digest(rules, cursor), env["seq"]
            checked += 1
    return checked


def test_digests_of_a_table_game_recorded_by_the_recorder_are_the_folds(rec):
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    for move in EXAMPLE["events"]:
        rec.record(gid, move)
    assert _stored_digests_match_a_fold(rec, gid) == len(EXAMPLE["events"]) + 1


def test_digests_of_a_digital_game_played_by_its_seats_are_the_folds(rec):
    made = rec.create_game({"game": "thrones", "players": ["Ann", "Bo"], "mode": "digital",
                            "seed": "digests"})
    table = Access("recorder")
    rec.record(made.id, rec.legal(made.id, table)[0], access=table)  # the houses
    seats = [Access("seat", i) for i in range(2)]
    for _ in range(40):
        to_act = rec.state(made.id)["to_act"]
        seat = next((s for s in seats if s.seat in to_act), None)
        if seat is None:
            break
        rec.record(made.id, rec.legal(made.id, seat)[0], access=seat)
    events = list(rec.store.events(made.id))
    assert any(e["actor"] == "table" for e in events[2:]), "the server moved on the way"
    assert _stored_digests_match_a_fold(rec, made.id) == len(events)


# -- the action's shape --------------------------------------------------------------------
def _outcome(fn, payload: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(payload)
    except InvalidEvent as err:
        return "refused", (err.code, err.message, json.dumps(err.details, sort_keys=True,
                                                             default=str))


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() |
                           st.text(max_size=5), lambda inner: st.lists(inner, max_size=3) |
                           st.dictionaries(st.text(max_size=4), inner, max_size=3),
                           max_leaves=6)
actions = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["note", "undo", "Bad", "a" * 70, "x\n",
                                                    "", "marshal_card"]) | json_values,
                           "actor": st.sampled_from([0, 3, 63, 64, -1, True, "table",
                                                     "server", "seat", None]) | json_values},
                          optional={"data": json_values | st.dictionaries(
                              st.text(max_size=4), json_values, max_size=3),
                              "extra": json_values}),
    json_values)


@settings(max_examples=400, deadline=None)
@given(actions)
def test_the_quick_action_check_accepts_and_refuses_exactly_what_the_schema_does(payload):
    schema = ActionSchema()
    assert _outcome(load_action, payload) == _outcome(
        lambda p: load(schema, p, "the action"), payload)


@pytest.mark.parametrize("payload", [
    {"type": "note", "actor": "table"}, {"type": "undo", "actor": 0, "data": {"a": [1]}}])
def test_well_formed_actions_take_the_quick_path(payload, monkeypatch):
    monkeypatch.setattr(ActionSchema, "load", lambda *a, **k: pytest.fail("marshmallow ran"))
    assert load_action(payload) == {"data": {}, **payload}


def test_an_undo_that_reopens_a_game_rewrites_the_row_even_when_the_row_read_was_stale(
        rec, monkeypatch):
    """Another process ends the game between this writer's read of the game row and of
    the last event: the row it read still says "in progress", the log says finished, and
    its undo reopens the game. Judged against the row alone the undo changed nothing and
    the UPDATE was skipped, leaving a game listed as finished whose end was undone."""
    gid = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"}).id
    moves = EXAMPLE["events"]
    for move in moves[:-1]:
        rec.record(gid, move)
    before_the_end = dict(rec.store.game(gid))
    assert before_the_end["status"] == "in_progress"
    rec.record(gid, moves[-1])  # "the other process" ends it
    assert rec.store.game(gid)["status"] == "finished"
    real = type(rec.store).game
    monkeypatch.setattr(type(rec.store), "game",
                        lambda store, game_id: dict(before_the_end) if game_id == gid
                        else real(store, game_id))
    rec.undo(gid)
    monkeypatch.undo()
    assert rec.store.game(gid)["status"] == "in_progress"
    assert rec.store.game(gid)["result"] is None
