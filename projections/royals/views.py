"""Royals: what each seat may see (spec §7). Decks are counts; hands are hidden from others."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules import Viewer
from . import scoring
from .model import OVER, Marker, State, intrigue_pair

if TYPE_CHECKING:
    from .game import Royals


def _hand(state: State, seat: int, shown: bool) -> dict[str, Any]:
    hand, intrigues = state.hands[seat], state.intrigues[seat]
    return {
        "country_count": len(hand),
        "intrigue_count": len(intrigues),
        "country": hand.counts() if shown else None,
        "intrigue": [intrigue_pair(c) for c in intrigues] if shown else None,
    }


def _board_markers(rules: Royals, state: State) -> dict[str, Any]:
    """Markers still on the board (spec §3 step 2 minus those taken or out of the game)."""
    board = rules.board
    taken = scoring.held_keys(state) | {(m.kind, m.key) for m in state.out_of_game}
    titles_done = state.phase == OVER

    def left(markers: list[Marker]) -> list[dict[str, Any]]:
        return [m.to_json() for m in markers if (m.kind, m.key) not in taken]

    periods = [{"period": p, "country": k, "high": board.period_markers(p, k)[0],
                "low": board.period_markers(p, k)[1]}
               for p in board.periods for k in board.countries
               if (p > state.period) or (p == state.period and not titles_done)]
    return {
        "city": left([board.city_marker(c) for c in board.cities]),
        "shield": left([m for k in board.countries for m in board.shields(k)]),
        "noble_house": left(list(board.discs(state.players))),
        "period": periods,
        "title": [] if titles_done else [
            {"title": t, "full": board.tile_values(t)[0], "half": board.tile_values(t)[1]}
            for t in board.titles],
    }


def view(rules: Royals, state: State, seat: Viewer) -> dict[str, Any]:
    """JSON-ready state as `seat` (an int, None for a spectator, "all") may see it."""
    board = rules.board
    reveal_all = seat == "all" or state.phase == OVER  # ruling R10: finished games are public
    rows = scoring.breakdown(state)
    return {
        "game": rules.slug,
        "phase": state.phase,
        "to_act": list(rules.to_act(state)),
        "players": state.players,
        "colours": list(state.colours),
        "start_player": state.start_player,
        "current": state.current,
        "turn": state.turn_no + 1,
        "round": state.turn_no // state.players + 1,
        "period": state.period,
        "year": board.period_years.get(state.period),
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
        "portraits": {p.id: state.board[i] for i, p in enumerate(board.portraits)},
        "cathedrals": {c: list(state.cathedrals[i]) for i, c in enumerate(board.cities)},
        "title_tiles": {t: list(state.tiles[i]) for i, t in enumerate(board.titles)},
        "board_markers": _board_markers(rules, state),
        "holdings": [[m.to_json() for m in ms] for ms in state.holdings],
        "out_of_game": [m.to_json() for m in state.out_of_game],
        "scores": [r["total"] for r in rows],
        "breakdown": rows,
        "result": rules.result(state),
    }
