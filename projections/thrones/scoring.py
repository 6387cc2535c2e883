"""The result of a game of Thrones (§7.7, §6.17): the winner by power or by concession, each
player's power as the breakdown."""

from __future__ import annotations

from typing import Any

from .apply.values import total_power
from .edition import Components
from .state import State


def result(state: State, components: Components) -> dict[str, Any] | None:
    """Once over: {"scores", "winners", "reason", "breakdown"}; else None."""
    if state.winner is None:
        return None
    scores = [total_power(state, s) for s in range(state.n)]
    per_seat = [{"house_power": p.house_power,
                 "card_power": sum(c.power for c in state.cards if c.controller == s),
                 "total": scores[s], "conceded": p.conceded}
                for s, p in enumerate(state.players)]
    return {"scores": scores, "winners": [state.winner], "reason": state.end_reason,
            "breakdown": {"per_seat": per_seat}}
