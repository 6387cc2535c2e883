"""Adaman's chance: the cards a deal turns up, dealt by the server or tapped at the table.

How many cards a deal turns up depends on what turns up (spec §5: the routing stops when
the rows are full), so the digital dealer shuffles the deck and turns up cards until the
routing stops (a ruling: docs/rulings/adaman.md 4), and a table slot has no count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..messages import M
from ..rules import Action, CardId, Dealer, IllegalAction
from .apply import after_payment, deal, in_progress, is_won
from .edition import Components
from .state import State


def _deal_length(state: State, order: Sequence[CardId], components: Components) -> int:
    """How many cards of `order` the deal turns up (digital mode fills `drawn` with them)."""
    try:
        dealt = deal(state, order, components)
    except IllegalAction as err:
        if err.code != "drawn_too_long":
            raise
        return len(order) - len(err.details["extra"])
    return len(state.deck) - len(dealt.deck)


def fill_chance(state: State, action: Action, dealer: Dealer, components: Components
                ) -> dict[str, Any]:
    """The action's data with `drawn` dealt from a shuffle of the deck; a winning control
    turns up nothing (spec §6 step 3)."""
    order = dealer.shuffled(state.deck)
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in action.data.items()}
    if action.type == "setup":
        data["drawn"] = order[: _deal_length(in_progress(state), order, components)]
    elif action.type == "control":
        moved = after_payment(state, action.data["target"], action.data["spend"], components)
        data["drawn"] = [] if is_won(moved, components) \
            else order[: _deal_length(moved, order, components)]
    return data


def chance_slots(state: State, action: Action, components: Components
                 ) -> list[dict[str, Any]]:
    """One slot, `drawn`, offering the deck; a winning control needs none (count 0), any
    other deal at least the cards that must turn up before its routing can stop."""
    moved = in_progress(state)
    count = None
    if action.type == "control":
        try:
            moved = after_payment(state, action.data["target"], action.data["spend"],
                                  components)
        except (IllegalAction, KeyError, TypeError):
            return []
        count = 0 if is_won(moved, components) else None
    elif action.type != "setup":
        return []
    label = M("the layout, in the order dealt") if action.type == "setup" \
        else M("cards turned up, in order")
    slot: dict[str, Any] = {"field": "drawn", "path": [], "options": sorted(state.deck),
                            "many": True, "count": count, "label": label}
    if count is None:
        slot["at_least"] = fewest_dealt(moved, components)
    return [slot]


def fewest_dealt(state: State, components: Components) -> int:
    """The fewest cards a deal can turn up (spec §6 steps 4-6): the capital's gap first,
    then, of the resources' gap, as many as can come before the court overflows (every
    card a personality) or the gap is filled (none is); never more than the deck holds."""
    capital_gap = max(0, components.capital_target_size - len(state.capital))
    resources_gap = max(0, components.resources_target_size - len(state.resources))
    court_room = max(1, components.court_count_that_loses - len(state.court))
    return min(len(state.deck), capital_gap + min(resources_gap, court_room))
