"""Royals: what each seat may see (spec §7). Decks are counts; hands are hidden from others."""

from __future__ import annotations

from typing import Any

from ..rules import Action, Viewer, thaw
from . import scoring
from .edition import SLUG, Components, Marker, intrigue_pair
from .legal import to_act
from .state import OVER, State


def _hand(state: State, seat: int, shown: bool) -> dict[str, Any]:
    hand, intrigues = state.hands[seat], state.intrigues[seat]
    return {
        "country_count": len(hand),
        "intrigue_count": len(intrigues),
        "country": hand.counts() if shown else None,
        "intrigue": [intrigue_pair(c) for c in intrigues] if shown else None,
    }


def _board_markers(state: State, components: Components) -> dict[str, Any]:
    """Markers still on the board (spec §3 step 2 minus those taken or out of the game)."""
    taken = scoring.held_keys(state) | {(m.kind, m.key) for m in state.out_of_game}
    titles_done = state.phase == OVER

    def left(markers: list[Marker]) -> list[dict[str, Any]]:
        return [m.to_json() for m in markers if (m.kind, m.key) not in taken]

    periods = [{"period": p, "country": k, "high": components.period_markers(p, k)[0],
                "low": components.period_markers(p, k)[1]}
               for p in components.periods for k in components.countries
               if (p > state.period) or (p == state.period and not titles_done)]
    return {
        "city": left([components.city_marker(c) for c in components.cities]),
        "shield": left([m for k in components.countries for m in components.shields(k)]),
        "noble_house": left(list(components.discs(state.players))),
        "period": periods,
        "title": [] if titles_done else [
            {"title": t, "full": components.tile_values(t)[0], "half": components.tile_values(t)[1]}
            for t in components.titles],
    }


def view(state: State, seat: Viewer, components: Components) -> dict[str, Any]:
    """Spec §7: own hand shown, other hands as counts, piles as counts (`seat` an int, None
    for a spectator, "all" for the auditor)."""
    reveal_all = seat == "all" or state.phase == OVER  # ruling R10: finished games are public
    rows = scoring.breakdown(state)
    return {
        "game": SLUG,
        "phase": state.phase,
        "to_act": list(to_act(state, components)),
        "players": state.players,
        "colours": list(state.colours),
        "start_player": state.start_player,
        "current": state.current,
        "turn": state.turn_no + 1,
        "round": state.turn_no // state.players + 1,
        "period": state.period,
        "year": components.period_years.get(state.period),
        "period_ended_this_turn": state.period_ended,
        "final_round": state.final_round,
        "variants": {"period3_finish_round": state.finish_round},
        "supply": list(state.supply),
        "deck_count": len(state.deck),
        "display": sorted(state.display),
        "discard": state.discard.counts(),
        "discard_count": len(state.discard),
        "removed": state.removed.counts(),
        "intrigue_deck_count": len(state.intrigue_deck),
        "intrigue_discard": [intrigue_pair(c) for c in state.intrigue_discard],
        "hands": [_hand(state, s, reveal_all or s == seat) for s in range(state.players)],
        "portraits": {p.id: state.board[i] for i, p in enumerate(components.portraits)},
        "cathedrals": {c: list(state.cathedrals[i]) for i, c in enumerate(components.cities)},
        "title_tiles": {t: list(state.tiles[i]) for i, t in enumerate(components.titles)},
        "board_markers": _board_markers(state, components),
        "holdings": [[m.to_json() for m in ms] for ms in state.holdings],
        "out_of_game": [m.to_json() for m in state.out_of_game],
        "scores": [r["total"] for r in rows],
        "breakdown": rows,
        "result": scoring.result(state, components),
    }


def redact_draw(action: Action, seat: Viewer, state_before: State,
                components: Components) -> dict[str, Any] | None:
    """Spec §7, ruling R11: others see a draw's kinds and sources, not deck or intrigue
    cards (every other action is public)."""
    if seat == "all" or seat == action.actor:
        return None
    draws = [thaw(d) for d in action.data.get("draws", ())]
    hidden = False
    for draw in draws:
        if draw.get("kind") == "intrigue" or draw.get("source") == "deck":
            hidden = hidden or "card" in draw
            draw.pop("card", None)
    return {"draws": draws} if hidden else None
