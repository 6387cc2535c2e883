"""Adaman's result (spec §7): a win scores every personality plus the resources left; a
loss the personalities controlled; a loss "utterly" (a sixth court card) nothing."""

from __future__ import annotations

from typing import Any

from .edition import Components
from .state import State


def result(state: State, components: Components) -> dict[str, Any] | None:
    if not state.is_over:
        return None
    cards = components.cards
    controlled = sum(cards[c].rank for c in state.controlled)
    resources = sum(cards[c].rank for c in state.win_resources)
    score = {"won": components.personality_rank_sum + resources, "lost": controlled,
             "lost_utterly": 0}[state.status]
    breakdown: dict[str, Any] = {"status": state.status,
                                 "controlled_personalities": controlled}
    if state.status == "won":
        breakdown = {"status": "won", "all_personalities": components.personality_rank_sum,
                     "resources_left": resources}
    return {"scores": [score], "winners": [0] if state.status == "won" else [],
            "reason": state.end_reason, "breakdown": breakdown}
