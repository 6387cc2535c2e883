"""The shared helpers of projections/rules.py that the games' hot paths lean on.

Each fast helper is judged against the stock computation it stands in for
(`dataclasses.replace`, a `Counter`, a sorted list of cards), never against itself.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from projections.rules import Bag, FrozenDict, IllegalAction, freeze, replace, thaw


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"


@dataclass(frozen=True)
class Plain:
    a: int
    b: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Checked:
    a: int
    double: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", self.a * 2)


def test_replace_gives_what_dataclasses_replace_gives_for_slotted_and_plain_classes() -> None:
    for obj, changes in ((Slotted(1, (2,), "y"), {"b": (3, 4)}),
                         (Slotted(1), {"a": 5, "c": "z"}),
                         (Plain(1, [2]), {"a": 7}),
                         (Slotted(1), {})):
        got, stock = replace(obj, **changes), dataclasses.replace(obj, **changes)
        assert got == stock and type(got) is type(stock)
        assert got is not obj


def test_replace_leaves_the_original_unchanged() -> None:
    obj = Slotted(1, (2,))
    replace(obj, a=9)
    assert obj == Slotted(1, (2,))


def test_replace_refuses_a_field_the_class_does_not_have() -> None:
    with pytest.raises(TypeError, match="'nope'"):
        replace(Slotted(1), nope=3)


def test_replace_runs_post_init_for_a_class_that_has_one() -> None:
    # copying the fields alone would keep double=2; __post_init__ recomputes it
    assert replace(Checked(1), a=5).double == 10


CARDS = st.sampled_from(["a", "b", "c", "d"])


def counter_bag(counter: Counter[str]) -> dict[str, int]:
    """What a Bag of `counter` holds, by the stock Counter: its non-zero counts."""
    return {k: v for k, v in counter.items() if v}


@given(st.lists(CARDS), st.dictionaries(CARDS, st.integers(-2, 3)))
def test_a_bag_holds_what_a_counter_of_its_cards_holds(cards: list[str],
                                                       counts: dict[str, int]) -> None:
    assert Bag(cards).counts() == counter_bag(Counter(cards))
    assert Bag(counts).counts() == counter_bag(Counter(counts))
    assert list(Bag(cards)) == sorted(cards)
    assert list(Bag(cards).counts()) == sorted(set(cards))
    for card in ("a", "b", "c", "d"):
        assert Bag(cards).count(card) == cards.count(card)
        assert (card in Bag(cards)) == (card in cards)
    assert len(Bag(cards)) == len(cards)
    same = Bag(Counter(reversed(cards)))
    assert same == Bag(cards) and hash(same) == hash(Bag(cards))


@given(st.lists(CARDS), st.lists(CARDS), st.dictionaries(CARDS, st.integers(1, 3)))
def test_adding_to_a_bag_adds_as_counter_update_does(held: list[str], more: list[str],
                                                     counts: dict[str, int]) -> None:
    for added in (more, counts):
        expected = Counter(held)
        expected.update(added)
        assert Bag(held).add(added) == Bag(expected)


@given(st.lists(CARDS), st.lists(CARDS))
def test_taking_from_a_bag_refuses_the_first_card_it_does_not_hold(held: list[str],
                                                                   taken: list[str]) -> None:
    left = Counter(held)
    missing = None
    for card in taken:
        if left[card] <= 0:
            missing = card
            break
        left[card] -= 1
    if missing is None:
        assert Bag(held).take(taken) == Bag(left)
        return
    with pytest.raises(IllegalAction) as err:
        Bag(held).take(taken, code="gone", where="the hand")
    assert (err.value.code, err.value.message) == ("gone", f"{missing!r} is not in the hand")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=12))
def test_freeze_makes_tuples_and_frozen_dicts_and_thaw_gives_the_json_back(value: object) -> None:
    frozen = freeze(value)
    assert json.dumps(thaw(frozen), sort_keys=True) == json.dumps(value, sort_keys=True)
    assert not any(isinstance(x, list | dict) and not isinstance(x, FrozenDict)
                   for x in _walk(frozen))


def _walk(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *(y for v in value.values() for y in _walk(v))]
    if isinstance(value, tuple):
        return [value, *(y for v in value for y in _walk(v))]
    return [value]
