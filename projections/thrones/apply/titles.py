"""What the titles of a melee allow and forbid between players (§2.5)."""

from __future__ import annotations

from ..edition import Components, Seat
from ..state import State


def supports(state: State, seat: Seat, other: Seat, ed: Components) -> bool:
    """Whether `seat`'s title supports `other`'s: `seat` may not challenge them."""
    mine, theirs = state.titles[seat] if state.titles else None, \
        state.titles[other] if state.titles else None
    return bool(mine and theirs and theirs in ed.titles[mine].supports)


def opposes(state: State, seat: Seat, other: Seat, ed: Components) -> bool:
    """Whether `seat`'s title opposes `other`'s: winning a challenge against them gains power."""
    mine, theirs = state.titles[seat] if state.titles else None, \
        state.titles[other] if state.titles else None
    return bool(mine and theirs and theirs in ed.titles[mine].opposes)


def holder(state: State, title: str) -> Seat | None:
    """The seat holding `title` this round, if anyone does."""
    return state.titles.index(title) if title in state.titles else None


def forbidden(state: State, a: Seat, b: Seat, kind: str) -> bool:
    """Whether an effect forbade `kind` challenges between `a` and `b` this round (§9)."""
    return any(k == kind and {x, y} == {a, b} for x, y, k in state.forbids)


def title_name(state: State, seat: Seat, ed: Components) -> str:
    """The name of `seat`'s title this round, or "no title"."""
    title = state.titles[seat] if state.titles else None
    known = ed.titles.get(title) if title is not None else None
    return known.name if known is not None else "no title"
