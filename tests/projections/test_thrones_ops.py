"""One record per effect op (issue #29): `apply/effects.OPS` is the only place an op is
named, and every part of every record is there and agrees with the spec (§9's table in
the spec's data, independent of the code) and with the recorded games.

A planted fault (a record dropped, a field forgotten, a redaction lost) makes one of these
fail: see test_a_record_lacking_a_part_is_caught.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import pytest

from projections import get_rules
from projections.rules import Action
from projections.thrones import chance, views, words
from projections.thrones.apply import card_ops, effects, lasting_ops
from projections.thrones.apply.effects import OP_TYPES, OPS, OpType, public_op
from tests.conftest import fixture_files, load_fixture

#: the spec's data (docs/games/thrones.md; projections/data/thrones.json): §9's ops
SPEC = json.loads((Path(__file__).resolve().parents[2] / "projections" / "data"
                   / "thrones.json").read_text("utf-8"))
#: §9's table lists `redirect?` for kill, which the JSON's field list leaves out
SPEC_EXTRA = {"kill": {"redirect"}}
#: §11, §12 written out: the ops whose cards another seat does not see, and those naming
#: cards of a hidden deck (an effect holding one is not undone in digital play)
HIDDEN = {"draw", "search_deck"}
FROM_A_DECK = {"draw", "discard_from_deck", "search_deck"}


def recorded_ops():
    for path in fixture_files("thrones"):
        envelopes, _ = load_fixture(path)
        for env in envelopes:
            if env["type"] == "effect":
                for op in [*(env["data"].get("costs") or ()), *env["data"].get("ops", ())]:
                    yield path.name, env["seq"], op


def test_every_op_of_the_spec_has_one_record_and_no_other_exists():
    names = [r.name for r in OPS]
    assert len(names) == len(set(names))
    assert set(names) == set(SPEC["effect_ops"])
    assert set(OP_TYPES) == set(names)
    assert set(get_rules("thrones").components().effect_ops) == set(names)


@pytest.mark.parametrize("record", OPS, ids=lambda r: r.name)
def test_every_record_has_every_part(record: OpType):
    for part in fields(OpType):
        assert getattr(record, part.name) is not None, part.name
    assert callable(record.apply) and callable(record.sentence) and callable(record.redact)
    assert set(record.fields) == set(SPEC["effect_ops"][record.name]["fields"]) | \
        SPEC_EXTRA.get(record.name, set())
    assert set(record.chance) <= set(record.fields)
    assert (record.redact is not public_op) == (record.name in HIDDEN)
    assert bool(record.chance) == (record.name in FROM_A_DECK)


def test_the_tables_that_had_to_agree_are_gone():
    """Op names were keys of four dictionaries and literals in the redaction and the undo
    policy; now each module reads the records."""
    assert not hasattr(card_ops, "OPS") and not hasattr(lasting_ops, "OPS")
    assert not hasattr(words, "OP_WORDS") and not hasattr(words, "SAY")
    for module in (views, chance):
        text = Path(module.__file__).read_text("utf-8")
        for name in ("search_deck", "discard_from_deck", "reveal"):
            assert f'"{name}"' not in text, (module.__name__, name)


def test_every_recorded_op_uses_only_its_declared_fields_and_has_a_clause():
    rules = get_rules("thrones")
    seen = set()
    for where, seq, op in recorded_ops():
        record = OP_TYPES[op["op"]]
        unknown = set(op) - {"op", *record.fields}
        assert not unknown, f"{where} seq {seq}: {op['op']} has {unknown}"
        clause = record.sentence(op, ["Anna", "Bo", "Cy", "Di"], rules.components())
        assert clause and "_" not in clause and "None" not in clause, (where, seq, clause)
        seen.add(op["op"])
    assert len(seen) >= 12  # the recorded games use 14 of the 40


def test_a_draw_by_another_seat_shows_its_count_and_a_hidden_search_no_card():
    rules = get_rules("thrones")
    data = {"source": None, "costs": [], "ops": [
        {"op": "draw", "seat": 1, "cards": ["p1-050", "p1-051"]},
        {"op": "search_deck", "seat": 1, "card": "p1-052", "to": "hand", "reveal": False},
        {"op": "search_deck", "seat": 1, "card": "p1-053", "to": "hand", "reveal": True},
        {"op": "draw", "seat": 0, "cards": ["p0-050"]}]}
    action = Action.of("effect", 1, data)
    seen = rules.redact(action, 0, None)
    assert seen["ops"] == [{"op": "draw", "seat": 1, "count": 2},
                           {"op": "search_deck", "seat": 1, "to": "hand", "reveal": False},
                           data["ops"][2], {"op": "draw", "seat": 0, "cards": ["p0-050"]}]
    own = rules.redact(action, 1, None)
    assert own["ops"][:3] == data["ops"][:3] and own["ops"][3] == {"op": "draw", "seat": 0,
                                                                     "count": 1}
    assert rules.redact(action, "all", None) is None
    assert not rules.is_undoable_in_digital(action)
    assert rules.is_undoable_in_digital(Action.of("effect", 1, {"ops": [
        {"op": "gain_gold", "seat": 1, "amount": 1}]}))


def test_a_record_lacking_a_part_is_caught(monkeypatch):
    """Planted: a record without its redaction leaks the cards drawn; a missing record is
    an unknown op to the reducer, the sentence and the test of the spec's names."""
    with pytest.raises(TypeError):
        OpType("kneel", ("card",), card_ops.kneel_op)  # type: ignore[call-arg]
    draw = OP_TYPES["draw"]
    monkeypatch.setitem(effects.OP_TYPES, "draw", replace(draw, redact=public_op))
    seen = get_rules("thrones").redact(Action.of("effect", 1, {"ops": [
        {"op": "draw", "seat": 1, "cards": ["p1-050"]}]}), 0, None)
    assert seen is None  # the leak the record's redaction prevents
    monkeypatch.delitem(effects.OP_TYPES, "draw")
    assert words.op_words({"op": "draw", "seat": 0, "cards": []}, ["Anna"],
                          get_rules("thrones").components()) == "draw"
