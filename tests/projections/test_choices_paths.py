"""The walk puts a chance outcome inside a field not made yet (engine fix d7147e1, issue #29;
found here too, by Palais Royal's table setup):
`GameRules.chance_slots` allows a slot's `path` inside its field (`["1"]`: seat 1's entry
of a per-seat mapping; `[0]`: the first card), and the first outcome tapped there must make
the mapping or list instead of failing with a KeyError (it did: Palais Royal's table setup,
the court layout by position and the garden by space, could not be completed)."""

from __future__ import annotations

from projections.choices import Choice, Made, _set


def test_a_value_inside_a_missing_mapping_or_list_makes_it():
    data: dict = {"player_count": 2}
    _set(data, ("garden", "r0c0"), "n01")
    _set(data, ("court_layout", 2), "gate")
    _set(data, ("draws", 1, "card"), "c7")
    assert data == {"player_count": 2, "garden": {"r0c0": "n01"},
                    "court_layout": [None, None, "gate"],
                    "draws": [None, {"card": "c7"}]}


def test_what_is_there_already_is_kept():
    data: dict = {"garden": {"r0c0": "n01"}, "court_layout": ["mint"]}
    _set(data, ("garden", "r0c1"), "n02")
    _set(data, ("court_layout", 1), "gate")
    assert data == {"garden": {"r0c0": "n01", "r0c1": "n02"},
                    "court_layout": ["mint", "gate"]}


def test_a_value_at_a_string_keyed_nested_path_makes_its_dicts_and_lists():
    data: dict = {}
    _set(data, ("draws", "0"), ["p0-001"])
    _set(data, ("draws", "1"), [])
    _set(data, ("hands", 1, "card"), "p1-002")
    assert data == {"draws": {"0": ["p0-001"], "1": []}, "hands": [None, {"card": "p1-002"}]}


def test_a_pick_inside_a_field_not_yet_chosen_is_kept():
    made = Made().picking(Choice(("bypass", "p0-001"), "Bypass", ()), "p1-002")
    assert made.data == {"bypass": {"p0-001": "p1-002"}}
