"""Chance in `use_ability` (ruling 34): what a use takes by chance, dealt in digital play
and tapped at a table.

A `draw`, `discard_from_deck` or random `discard_from_hand` op of an ability takes a
`count`; the cards it takes are the action's chance fields `drawn`, `milled` and `random`,
in op order (docs/games/thrones-abilities.md, "Chance"). The server deals them from the
top of the seat's deck (an unordered multiset, §12: a shuffle of what is left) or at random
from its hand; at a table the recorder taps each card seen, one slot per card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...messages import M, Message
from ...rules import Dealer, IllegalAction, replace, seat_name
from ..edition import CardId, Components, Seat
from ..state import State
from . import abilities as ab
from .pins import in_order
from .revealed import pick_context

#: what a person reads for each chance field's cards
#: the chance fields of use_ability (docs/games/thrones-abilities.md, "Chance")
FIELDS = ("drawn", "milled", "random", "looked")


def _from_top(state: State, field: str, owner: Seat, cards: list[CardId]) -> list[CardId]:
    """Cards taken from the top of a deck come as it gives them: a card whose place is
    known (card ruling L12) first or last; a random card of a hand comes as dealt."""
    return cards if field == "random" else in_order(state, owner, cards)


def _slot_label(field: str, number: int, player: str) -> Message:
    """The label of one chance slot: which card, whose, and what happened to it."""
    if field == "drawn":
        return M("card {number} {player} drew", number=number, player=player)
    if field == "looked":
        return M("top card of {player}'s deck, looked at", player=player)
    if field == "milled":
        return M("card {number} {player} discarded from the deck", number=number,
                 player=player)
    return M("card {number} {player} discarded at random", number=number, player=player)


def needs(state: State, seat: object, data: Mapping[str, Any], ed: Components
          ) -> list[tuple[str, Seat, int]]:
    """What the use `data` by `seat` takes by chance now, in op order; nothing when it is
    refused before its ops or waits for another seat's choice (ruling 33)."""
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        return []
    try:  # as apply_use_ability reads it: a window's answer comes before a plot's part
        if state.pick is not None and not (state.window is not None and state.window.waiting):
            if len(state.pick.waiting) > 1 or seat != state.pick.waiting[0][0] or \
                    state.pick.chance is not None:  # dealt with the use's first move
                return []
            _, target, ctx = pick_context(state, {}, ed)
            part = (data.get("choices") or {}).get(target.name)
            ctx = replace(ctx, choices={**ctx.choices, target.name: part},
                             waiting=frozenset())
        else:
            _, ability, ctx, _ = ab.begin(state, seat, data, ed)  # an answer's trigger too
            if any(ab.chooser(ctx, t) not in ("you", ab.SEEN) for t in ability.targets):
                return []  # dealt with the last part chosen
        return ab.chance_needs(ctx)
    except IllegalAction:
        return []


def deal(state: State, seat: object, data: Mapping[str, Any], dealer: Dealer,
         ed: Components) -> dict[str, list[CardId]]:
    """Digital play: each chance op's cards, the top of the deck (a shuffle of the cards
    still there) or random cards of the hand."""
    out: dict[str, list[CardId]] = {}
    taken: set[CardId] = set()
    for field, owner, count in needs(state, seat, data, ed):
        pool = [c for c in ab.chance_pool(state, field, owner) if c not in taken]
        cards = _from_top(state, field, owner, dealer.shuffled(pool))[:count]
        taken.update(cards)
        if cards:  # an empty pile deals nothing: no field, as a table's tapped slots
            out.setdefault(field, []).extend(cards)
    return out


def probe(state: State, seat: object, data: Mapping[str, Any], ed: Components
          ) -> dict[str, list[CardId]]:
    """The first cards of each pile in place of a deal not made yet: the choices check a
    move before its chance is dealt or tapped, and any cards the piles hold will do."""
    return ab.stand_in_chance(state, needs(state, seat, data, ed))


def slots(state: State, seat: object, data: Mapping[str, Any], ed: Components
          ) -> list[dict[str, Any]]:
    """A table: one slot per card the use takes by chance, at its place in the field, its
    options the pile it comes from (slots of one pile share it)."""
    out: list[dict[str, Any]] = []
    places: dict[str, int] = {}
    for field, owner, count in needs(state, seat, data, ed):
        pool = ab.chance_pool(state, field, owner)
        for number in range(min(count, len(pool))):
            place = places.get(field, 0)
            places[field] = place + 1
            out.append({"field": field, "path": [place], "options": pool, "many": False,
                        "count": None, "label": _slot_label(field, number + 1,
                                             seat_name(state.names, owner))})
    return out
