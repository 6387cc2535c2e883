"""In the Shadow of the Emperor: its one chance outcome, the starting Emperor.

Spec: docs/games/in_the_shadow_of_the_emperor.md §4, §11: the game has no randomness; in
digital play the server may pick the seat that starts as Emperor, and at a table the
recorder taps it (ruling 1). Nothing else an action carries is chance.
"""

from __future__ import annotations

from typing import Any

from ..messages import M
from ..rules import Action, Dealer, seat_name
from .edition import Components
from .state import State


def fill_chance(state: State, action: Action, dealer: Dealer, components: Components
                ) -> dict[str, Any]:
    """Digital play: a setup without its Emperor gets one from the dealer (a seat 0..n-1)."""
    data = {k: v for k, v in action.data.items()}
    if action.type == "setup" and data.get("emperor") is None:
        data["emperor"] = dealer.below(state.n)
    return data


def chance_slots(state: State, action: Action, components: Components
                 ) -> list[dict[str, Any]]:
    """Table mode: a setup still without its Emperor offers every seat (§4, §11); the
    reducer accepts exactly a seat index 0..n-1, shown by the player's name. Nothing else
    has a chance outcome."""
    if action.type != "setup" or action.data.get("emperor") is not None:
        return []
    seats = list(range(state.n))
    return [{"field": "emperor", "path": [], "options": seats, "many": False, "count": None,
             "label": M("seat that starts as Emperor"),
             "groups": [{"label": M("Players"), "items": [
                 {"label": seat_name(state.names, s), "values": [s]} for s in seats]}]}]
