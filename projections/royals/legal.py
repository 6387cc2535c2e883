"""Royals: who acts now, and the enumerated legal actions (spec §5), a finite representative
subset (ruling R12).

Draws: every combination of display cards and deck draws (chance fields left out). Claims
and usurps: one payment per portrait, matching cards first, then the most plentiful other
cards as 3-for-1 (2-for-1) wilds. End of turn: one discard choice (the most plentiful cards).
This is enough for random legal play to finish every game: each turn draws, and every turn
ends.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from ..rules import Actor
from .apply import allowed_draw_shapes, cubes_available
from .edition import Components, Portrait, intrigue_pair
from .state import AWAITING_SETUP, DRAW, OVER, Seat, State


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    """The table before the setup, then the player whose turn it is; nobody once over."""
    if state.phase == AWAITING_SETUP:
        return ("table",)
    return () if state.phase == OVER else (state.current,)


def legal_actions(state: State, seat: Actor | None, components: Components
                  ) -> list[dict[str, Any]]:
    """Legal actions now. Claims, usurps and hand-limit discards are a representative
    subset: one payment per portrait (matching cards first, then the most plentiful other
    cards as wilds) and one discard choice; every draw combination is listed."""
    actors = to_act(state, components)
    if not actors or (seat is not None and seat not in actors):
        return []
    if state.phase == AWAITING_SETUP:
        auto = auto_action(state, components)
        return [auto] if auto else []
    if state.phase == DRAW:
        return draw_options(state, components)
    return [*play_options(state, components), end_turn_option(state, components)]


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup, with the default colours, is the table's to make before anyone plays."""
    if state.phase != AWAITING_SETUP:
        return None
    return {"type": "setup", "actor": "table",
            "data": {"colours": list(default_colours(state.players, components))}}


def default_colours(players: int, components: Components) -> tuple[str, ...]:
    """Ruling R6: black and white for 2; else the most cubes first, then by name."""
    if players == 2:
        return components.two_player_colours
    counts = components.cube_counts
    return tuple(sorted(counts, key=lambda c: (-counts[c], c)))[:players]


def draw_options(state: State, components: Components) -> list[dict[str, Any]]:
    """Every draw_cards shape allowed now, display choices spelled out."""
    out = []
    deck_cards = len(state.deck) + len(state.discard)
    display = sorted(state.display)
    for country, intrigue in sorted(allowed_draw_shapes(state, components)):
        seen = set()
        for size in range(min(country, len(display)) + 1):
            for chosen in combinations(display, size):
                if chosen in seen or country - size > deck_cards:
                    continue
                seen.add(chosen)
                draws = [{"kind": "country", "source": "display", "card": c} for c in chosen]
                draws += [{"kind": "country", "source": "deck"}] * (country - size)
                draws += [{"kind": "intrigue"}] * intrigue
                out.append({"type": "draw_cards", "actor": state.current,
                            "data": {"draws": draws}})
    return out


def _most_plentiful(hand: Counter[str], count: int) -> list[str] | None:
    """`count` cards from the largest piles first (ties: by id), or None if too few."""
    flat = _piles_first(hand)
    return flat[:count] if count <= len(flat) else None


def _piles_first(hand: Counter[str] | dict[str, int]) -> list[str]:
    """The cards of `hand`, largest piles first (ties: by id): the order wilds are paid in."""
    out: list[str] = []
    for card, held in sorted(hand.items(), key=lambda item: (-item[1], item[0])):
        out += [card] * held
    return out


class _Payer:
    """One exact payment per (country, cost): matching cards first, then wild groups."""

    def __init__(self, components: Components, hand: Counter[str],
                 intrigues: Counter[str]) -> None:
        self.components, self.hand, self.intrigues = components, hand, intrigues
        self.memo: dict[tuple[str, int], list[str] | None] = {}
        self.others = {k: _piles_first({c: n for c, n in hand.items() if c != k})
                       for k in components.countries}

    def country(self, portrait: Portrait) -> list[str] | None:
        matching = min(self.hand[portrait.country], portrait.cost)
        wild = self.components.country_wild * (portrait.cost - matching)
        others = self.others[portrait.country]
        if wild > len(others):
            return None
        return [portrait.country] * matching + others[:wild]

    def intrigue(self, portrait: Portrait) -> list[str] | None:
        need = self.components.intrigue_needed(portrait.title)
        key = (portrait.country, need)
        if key not in self.memo:
            self.memo[key] = self._intrigue(portrait.country, need)
        paid = self.memo[key]
        return None if paid is None else list(paid)

    def _intrigue(self, country: str, need: int) -> list[str] | None:
        if not self.intrigues:
            return None
        showing = sorted(c for c in self.intrigues.elements()
                         if country in intrigue_pair(c))[:need]
        rest = Counter(self.intrigues)
        rest.subtract(showing)
        wild = _most_plentiful(+rest, self.components.intrigue_wild * (need - len(showing)))
        return None if wild is None else showing + wild


def play_options(state: State, components: Components) -> list[dict[str, Any]]:
    """One claim or usurp per portrait the seat can pay for."""
    seat = state.current
    if cubes_available(state, seat, components) < components.cubes_per_claim:
        return []
    payer = _Payer(components, Counter(state.hands[seat].counts()),
                   Counter(state.intrigues[seat].counts()))
    out = []
    for index, portrait in enumerate(components.portraits):
        holder = state.board[index]
        if holder == seat:
            continue
        cards = payer.country(portrait)
        if cards is None:
            continue
        data: dict[str, Any] = {"portrait": portrait.id, "country_cards": cards}
        if holder is not None:
            paid = payer.intrigue(portrait)
            if paid is None:
                continue
            data["intrigue_cards"] = [intrigue_pair(c) for c in paid]
        kind = "claim_noble" if holder is None else "usurp_noble"
        out.append({"type": kind, "actor": seat, "data": data})
    return out


def end_turn_option(state: State, components: Components) -> dict[str, Any]:
    """end_turn with the hand-limit discards taken from the most plentiful cards."""
    seat: Seat = state.current
    hand = Counter(state.hands[seat].counts())
    intrigues = Counter(state.intrigues[seat].counts())
    country = _most_plentiful(hand, max(0, len(state.hands[seat])
                                        - components.hand_limit_country)) or []
    intrigue = _most_plentiful(intrigues, max(0, len(state.intrigues[seat])
                                              - components.hand_limit_intrigue)) or []
    return {"type": "end_turn", "actor": seat,
            "data": {"discard_country": country,
                     "discard_intrigue": [intrigue_pair(c) for c in intrigue]}}
