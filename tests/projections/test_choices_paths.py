"""The walk puts a chance outcome inside a field not made yet (engine fix d7147e1, issue #29;
found here too, by Palais Royal's table setup):
`GameRules.chance_slots` allows a slot's `path` inside its field (`["1"]`: seat 1's entry
of a per-seat mapping; `[0]`: the first card), and the first outcome tapped there must make
the mapping or list instead of failing with a KeyError (it did: Palais Royal's table setup,
the court layout by position and the garden by space, could not be completed)."""

from __future__ import annotations

from projections.choices import _set


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
