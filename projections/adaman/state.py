"""Adaman's state: one frozen record of the layout, the deck and how the game stands.

Spec §3 (the layout) and §7 (how a game ends). Cards are ids; what they are is in the
edition (`Components`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules import CardId
from .edition import Components

#: the statuses a game ends in (spec §7)
OVER = frozenset({"won", "lost", "lost_utterly"})


@dataclass(frozen=True, slots=True)
class State:
    status: str  # awaiting_setup | in_progress | won | lost | lost_utterly (spec §7)
    deck: frozenset[CardId]
    capital: tuple[CardId, ...] = ()
    court: tuple[CardId, ...] = ()
    resources: tuple[CardId, ...] = ()
    discard: tuple[CardId, ...] = ()
    controlled: tuple[CardId, ...] = ()
    end_reason: str | None = None
    win_resources: tuple[CardId, ...] = ()  # the resource row when the last personality fell
    plays: int = 0  # controls made so far
    #: the player's name, for messages only (not in the view, so state digests stay put)
    names: tuple[str, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.status in OVER


def initial_state(created: Mapping[str, Any], components: Components) -> State:
    """Before setup: every card in the deck."""
    return State(status="awaiting_setup", deck=frozenset(components.cards),
                 names=tuple(str(n) for n in created.get("players", ())))
