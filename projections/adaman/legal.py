"""Who acts in Adaman and what they may do: the table deals, then seat 0 controls cards
(spec §5) until the game ends (§7)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ..rules import Actor, CardId
from .edition import Components
from .state import State


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    if state.status == "awaiting_setup":
        return ("table",)
    return () if state.is_over else (0,)


def legal_controls(state: State, components: Components
                   ) -> Iterator[tuple[CardId, tuple[CardId, ...]]]:
    """Every (target, spend) pair legal now (spec §12: each qualifying subset is a move)."""
    if state.status != "in_progress":
        return
    cards = components.cards
    for target in (*state.capital, *state.court):
        goal = cards[target]
        matching = [c for c in state.resources if cards[c].suits & goal.suits]
        if sum(cards[c].rank for c in matching) < goal.rank:
            continue
        for size in range(1, len(matching) + 1):
            for spend in combinations(matching, size):
                if sum(cards[c].rank for c in spend) >= goal.rank:
                    yield target, spend


def legal_actions(state: State, seat: Actor | None, components: Components
                  ) -> list[dict[str, Any]]:
    """The deal before setup; then every legal control and, while the game runs, abandon
    (a ruling: docs/rulings/adaman.md 1)."""
    if state.status == "awaiting_setup":
        return [{"type": "setup", "actor": "table", "data": {}}] if seat in (None, "table") \
            else []
    if state.is_over or seat not in (None, 0):
        return []
    controls = [{"type": "control", "actor": 0,
                 "data": {"target": target, "spend": list(spend)}}
                for target, spend in legal_controls(state, components)]
    return [*controls, {"type": "abandon", "actor": 0, "data": {}}]


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup deal, which the rules call for before anything else (spec §3)."""
    if state.status == "awaiting_setup":
        return {"type": "setup", "actor": "table", "data": {}}
    return None
