"""A card of a deck whose place is known (card ruling L12, Raff the Sweetling).

The model keeps no order in a deck (§12: a take from the deck is a shuffle of what is
left), except where a player has seen a card and put it back: Raff the Sweetling looks at
an opponent's top card and leaves it on top or puts it at the bottom. That card is pinned
(`State.marks` ("top" | "bottom", seat, card)): the seat's next card taken from the deck
(a draw, a discard from the deck) is the top one; the bottom one is taken only with every
other card of the deck. A pin ends when its card leaves the deck, and when the deck is
shuffled (a pile shuffled in, a search).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...messages import M
from ...rules import replace, require
from ..edition import CardId, Seat
from ..state import State
from .guards import who

PLACES = ("top", "bottom")


def pinned(state: State, seat: Seat, place: str) -> CardId | None:
    """The card pinned at `place` of `seat`'s deck, if it is still there (the latest
    pin wins: a look at a pinned top card puts it back again)."""
    deck = state.players[seat].deck
    for kind, owner, card in reversed(state.marks):
        if kind in PLACES and owner == seat and card in deck:
            return card if kind == place else None
    return None


def in_order(state: State, seat: Seat, cards: Sequence[CardId]) -> list[CardId]:
    """`cards` of `seat`'s deck (a shuffle, or a sorted pool) as the deck gives them: the
    top card first, the bottom card last."""
    top, bottom = pinned(state, seat, "top"), pinned(state, seat, "bottom")
    rest = [c for c in cards if c not in (top, bottom)]
    first = [top] if top is not None and top in cards else []
    last = [bottom] if bottom is not None and bottom in cards else []
    return [*first, *rest, *last]


def check_taken(state: State, seat: Seat, cards: Sequence[CardId]) -> None:
    """Cards taken from the top of `seat`'s deck start with its pinned top card and take
    its bottom card only with all the others (ruling L12)."""
    top, bottom = pinned(state, seat, "top"), pinned(state, seat, "bottom")
    deck = state.players[seat].deck
    require(not cards or top is None or top in cards, "wrong_card",
            M("{player}'s top card is known (Raff the Sweetling): it is taken first",
              player=who(state, seat)), seat=seat)
    require(bottom is None or bottom not in cards or len(set(cards)) >= len(deck),
            "wrong_card",
            M("{player}'s bottom card is known (Raff the Sweetling): it is taken last",
              player=who(state, seat)), seat=seat)


def shuffled(state: State, seat: Seat) -> State:
    """`seat`'s deck is shuffled: what was known of its order is lost."""
    marks = tuple(m for m in state.marks if not (m[0] in PLACES and m[1] == seat))
    return state if marks == state.marks else replace(state, marks=marks)


def look_pool(state: State, seat: Seat) -> list[CardId]:
    """The cards that may be on top of `seat`'s deck: the pinned top card, else any but
    the pinned bottom card (unless it is the only one)."""
    deck = sorted(state.players[seat].deck)
    top, bottom = pinned(state, seat, "top"), pinned(state, seat, "bottom")
    if top is not None:
        return [top]
    rest = [c for c in deck if c != bottom]
    return rest or deck
