"""In the Shadow of the Emperor: the result, and the counts the rules decide by.

Spec: docs/games/in_the_shadow_of_the_emperor.md §9 (winning: most VP, then most thalers,
else a shared win) and the counting rules of the round: income (§5.1), descendants (§5.3),
influence in an electorate (§5.5) and votes in an election (§5.6).
"""

from __future__ import annotations

from typing import Any

from .edition import Components
from .state import EMPIRE, Player, Seat, State

VP_SOURCES = ("electors", "marriages", "election_votes", "indulgence", "permits", "mainz",
              "emperor")  # spec §9


def result(state: State, components: Components) -> dict[str, Any] | None:
    """Once five rounds are played: the scores, the winners and each seat's VP by source."""
    if state.status != "over":
        return None
    scores = [p.vp for p in state.players]
    best = max(scores)
    # spec §9 [D]: most VP, then most thalers left, else a shared win
    tied = [s for s in range(state.n) if scores[s] == best]
    cash = max(state.players[s].thalers for s in tied)
    winners = [s for s in tied if state.players[s].thalers == cash]
    return {"scores": scores, "winners": winners, "reason": "five_rounds_played",
            "breakdown": {"per_seat": [_breakdown(p) for p in state.players]}}


def _breakdown(p: Player) -> dict[str, int]:
    sources = p.vp_sources.counts()
    return {"vp": p.vp, "thalers": p.thalers,
            **{k: sources.get(k, 0) for k in VP_SOURCES}}


def income(state: State, seat: Seat, components: Components) -> int:
    """Spec §5.1: base + own cities + others' cities under own electors + Saxony."""
    inc = components.income
    own = sum(e.cities.count(seat) for e in state.electorates)
    total = inc.base + own * inc.per_own_city
    for e in state.electorates:
        if e.elector is not None and e.elector[0] == seat:
            others = sum(1 for c in e.cities if c not in (seat, EMPIRE))
            total += others * inc.per_other_city_under_own_elector
            if e.id == "saxony":
                total += inc.saxony_bonus
    return total


def influence(state: State, eid: str, components: Components) -> list[int]:
    """Spec §5.5 step 1 (the elector tile counts: §12.1)."""
    values = components.influence
    e = state.electorates[components.eindex[eid]]
    out = [0] * state.n
    for c in e.cities:
        if c == EMPIRE:
            out[state.emperor] += values.empire_city_to_emperor
        else:
            out[c] += values.city
    for k in (*e.knights, *e.castles):
        out[k] += values.knight
    tiles = [*e.tiles, *([e.elector] if e.elector and values.elector_tile_counts else [])]
    for owner, side, _ in tiles:
        out[owner] += values.per_side[side]
    return out


def gray_holder(state: State) -> Seat | None:
    """Who holds the Gray Eminence (it breaks phase V ties, spec §3.6)."""
    for seat, p in enumerate(state.players):
        if "gray_eminence" in p.area:
            return seat
    return None


def votes(state: State, components: Components) -> list[int]:
    """Spec §5.6 step 2: electors (Bohemia 2), Excommunication, Pope, Church Influence."""
    out = [0] * state.n
    for e in state.electorates:
        if e.elector is not None and e.id != state.ex_target:
            out[e.elector[0]] += components.electorates[e.id].votes
    pope = components.cards["pope"].votes
    for seat, p in enumerate(state.players):
        out[seat] += pope if "pope" in p.area else 0
    if state.ci_target is not None:
        e = state.electorates[components.eindex[state.ci_target]]
        if e.elector is not None:
            owner = e.elector[0]
            out[owner] += sum(1 for t in e.tiles if t[0] == owner)
            out[owner] += (*e.knights, *e.castles).count(owner)
    return out


def child(state: State, seat: Seat, components: Components) -> str | None:
    """Spec §5.3: no coloured card, a son (blue > red) or a daughter."""
    colours = [components.cards[c].color for c in state.players[seat].area
               if not components.cards[c].by_privilege_only]  # review ruling 1
    blue, red = colours.count("blue"), colours.count("red")
    if blue + red == 0:
        return None
    return "son" if blue > red else "daughter"
