"""The engine's data paths (projections/choices.py `_set`): a pick or a tapped outcome at a
nested path makes the containers on its way. Before, an outcome at ("draws", "0") of an
action whose choices never made `draws` failed with a KeyError (Thrones' setup draw at a
table, issue #29): this test failed on that code."""

from __future__ import annotations

from projections.choices import Choice, Made, _set


def test_a_value_at_a_nested_path_makes_its_dicts_and_lists():
    data: dict = {}
    _set(data, ("draws", "0"), ["p0-001"])
    _set(data, ("draws", "1"), [])
    _set(data, ("hands", 1, "card"), "p1-002")
    assert data == {"draws": {"0": ["p0-001"], "1": []}, "hands": [None, {"card": "p1-002"}]}


def test_a_pick_inside_a_field_not_yet_chosen_is_kept():
    made = Made().picking(Choice(("bypass", "p0-001"), "Bypass", ()), "p1-002")
    assert made.data == {"bypass": {"p0-001": "p1-002"}}
