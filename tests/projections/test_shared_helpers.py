"""The shared helpers of projections/rules.py that the games' hot paths lean on.

Each fast helper is judged against the stock computation it stands in for
(`dataclasses.replace`, a `Counter`, a sorted list of cards), never against itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from projections.rules import replace


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
