"""Rulings counted (issue #30): `verify` and `reaudit` count and list every change recorded
outside card text, as the rules define it (`GameRules.ruling`: in Thrones, a free-form
`effect`, the table recorder's ruling with its reason, ruling 29).

The expected lists are read from the sample logs' JSON here, independently of the code:
every `effect` event is one (the samples hold no undo, redo or correction, checked), with
its step, its actor and its reason. Three of the four Thrones samples carry rulings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events import Recorder
from events.access import Access
from events.audit import reaudit

from ..conftest import FIXTURES

THRONES = sorted((FIXTURES / "thrones").glob("*.jsonl"))
OTHERS = sorted(p for p in FIXTURES.glob("*/*.jsonl") if p.parent.name != "thrones")


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines()


def expected_rulings(path: Path) -> list[tuple[int, object, str]]:
    """(step, actor, reason) of every effect in the log, read from the file itself."""
    events = [json.loads(line) for line in _lines(path)]
    assert not {"undo", "redo", "correction"} & {e["type"] for e in events}, \
        "every event of this sample is in effect"
    return [(e["seq"], e["actor"], e["data"]["reason"]) for e in events if e["type"] == "effect"]


def _listed(rulings: list[dict]) -> list[tuple[int, object, str]]:
    return [(r["seq"], r["actor"], r["reason"]) for r in rulings]


def test_three_thrones_samples_carry_rulings_all_by_the_table():
    counts = {p.stem: len(expected_rulings(p)) for p in THRONES}
    assert sum(1 for n in counts.values() if n) == 3, counts
    assert all(actor == "table" and reason.strip()
               for p in THRONES for _, actor, reason in expected_rulings(p))


@pytest.mark.parametrize("path", THRONES, ids=lambda p: p.stem)
def test_verify_and_reaudit_list_every_ruling_of_a_thrones_sample(rec: Recorder, path):
    game_id = rec.import_lines(_lines(path)).id
    expected = expected_rulings(path)
    report = rec.verify(game_id)
    assert report["ok"] is True  # a ruling is no problem: the record verifies
    assert _listed(report["rulings"]) == expected
    (again,) = [r for r in reaudit(rec, "thrones") if r["game_id"] == game_id]
    assert _listed(again["rulings"]) == expected
    for ruling, (seq, _, reason) in zip(report["rulings"], expected, strict=True):
        assert ruling["message"] == f"step {seq}: a ruling by the table: {reason}"


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_game_whose_rules_make_no_ruling_lists_none(rec: Recorder, path):
    game_id = rec.import_lines(_lines(path)).id
    assert rec.verify(game_id)["rulings"] == []


def _running_prefix(rec: Recorder, path: Path, last: int) -> str:
    """The sample's first events, up to step `last`, as a game still being played."""
    return rec.import_lines(_lines(path)[:last + 1]).id


def test_an_undone_ruling_is_not_listed_and_a_redone_one_is():
    from events import open_store

    path = FIXTURES / "thrones" / "2_players_worked_example.jsonl"
    first = expected_rulings(path)[0][0]
    rec = Recorder(open_store("memory:rulings-undo"))
    game_id = _running_prefix(rec, path, first)
    assert [r["seq"] for r in rec.verify(game_id)["rulings"]] == [first]
    rec.undo(game_id, "table")
    assert rec.verify(game_id)["rulings"] == []
    rec.redo(game_id, "table")
    assert [r["seq"] for r in rec.verify(game_id)["rulings"]] == [first]


def test_a_seat_reads_when_and_who_ruled_but_not_the_reason_while_the_game_runs(rec):
    path = FIXTURES / "thrones" / "2_players_worked_example.jsonl"
    first = expected_rulings(path)[0][0]
    game_id = _running_prefix(rec, path, first)
    seat = rec.verify(game_id, Access("seat", 0))["rulings"]
    assert seat == [{"seq": first, "actor": "table", "reason": None}]
    assert rec.verify(game_id)["rulings"][0]["reason"] == expected_rulings(path)[0][2]


def test_a_corrected_ruling_is_listed_at_its_step_with_the_corrected_reason():
    from events import open_store

    path = FIXTURES / "thrones" / "2_players_worked_example.jsonl"
    events = [json.loads(line) for line in _lines(path)]
    first = expected_rulings(path)[0][0]
    rec = Recorder(open_store("memory:rulings-correction"))
    game_id = _running_prefix(rec, path, first)
    fixed = {**events[first]["data"], "reason": "the judge's call, corrected"}
    rec.record(game_id, {"type": "correction", "actor": "table", "data": {
        "target_seq": first, "action": {"type": "effect", "actor": "table", "data": fixed}}})
    assert _listed(rec.verify(game_id)["rulings"]) == [
        (first, "table", "the judge's call, corrected")]
