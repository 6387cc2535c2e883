"""What a viewer sees of Adaman (spec §8): everything is face up but the deck, shown as a
count and the set of unseen cards (never their order: docs/rulings/adaman.md 2)."""

from __future__ import annotations

from typing import Any

from ..rules import Viewer
from .edition import Components
from .scoring import result
from .state import State


def view(state: State, seat: Viewer, components: Components) -> dict[str, Any]:
    """The same for every viewer: a patience hides nothing from anyone but the deck order."""
    return {
        "status": state.status,
        "end_reason": state.end_reason,
        "capital": list(state.capital),
        "court": list(state.court),
        "resources": list(state.resources),
        "discard": list(state.discard),
        "controlled": list(state.controlled),
        "deck_count": len(state.deck),
        "plays": state.plays,
        "unseen": sorted(state.deck),
        "score": (result(state, components) or {"scores": [None]})["scores"][0],
    }
