"""Palais Royal's final scoring (spec §7): nobles, cards, the garden edges, the winner."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..rules import Seat
from .edition import Components
from .state import State


def garden_edge_points(state: State, components: Components) -> list[dict[str, int]]:
    """Spec §7.2: per seat, points per edge (6 alone first, 2 alone second,
    2 each when tied for first, nothing for a tie for second)."""
    first, second, minimum = components.edge_scores
    out: list[dict[str, int]] = [{} for _ in range(state.player_count)]
    for edge, spaces in components.edges.items():
        counts: Counter[Seat] = Counter()
        for space in spaces:
            seat = state.garden_servants[components.space_index[space]]
            if seat is not None:
                counts[seat] += components.space_weight[space]
        ranked = sorted((c for c in counts.values() if c >= minimum), reverse=True)
        if not ranked:
            continue
        top = [s for s, c in counts.items() if c == ranked[0]]
        if len(top) > 1:
            for s in top:
                out[s][edge] = second
            continue
        out[top[0]][edge] = first
        rest = [c for c in ranked if c < ranked[0]]
        runners_up = [s for s, c in counts.items() if rest and c == rest[0]]
        if len(runners_up) == 1:
            out[runners_up[0]][edge] = second
    return out


def score_breakdown(state: State, components: Components) -> list[dict[str, int]]:
    """Spec §7.1 per seat: nobles, played cards, held cards (capped), garden edges."""
    points_each, max_points = components.held_card_points
    garden = garden_edge_points(state, components)
    rows = []
    for seat, p in enumerate(state.players):
        row = {
            "nobles": sum(components.nobles[n].points for n in p.nobles),
            "played_cards": sum(int(components.cards[c].effect.get("end_points", 0))
                                for c in p.played),
            "held_cards": min(len(p.hand) * points_each, max_points),
            "garden": sum(garden[seat].values()),
        }
        row["total"] = sum(row.values())
        rows.append(row)
    return rows


def result(state: State, components: Components) -> dict[str, Any] | None:
    """Once over: the scores, the winners and each seat's breakdown."""
    if state.phase != "over":
        return None
    rows = score_breakdown(state, components)
    scores = [r["total"] for r in rows]
    best = [s for s, v in enumerate(scores) if v == max(scores)]
    # spec §7.3 (designed): most gold breaks a tie, else the victory is shared
    most_gold = max(state.players[s].gold for s in best)
    winners = [s for s in best if state.players[s].gold == most_gold]
    garden = garden_edge_points(state, components)
    per_seat = [{**r, "gold": state.players[s].gold, "garden_edges": garden[s]}
                for s, r in enumerate(rows)]
    return {"scores": scores, "winners": winners, "reason": "garden_has_few_nobles",
            "breakdown": {"per_seat": per_seat}}
