"""Palais Royal scoring (spec §7) and the per-seat views (spec §8)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .palais_royal_state import DONE, Seat, State
from .rules import ALL, Viewer


class ScoringAndViews:
    """Mixin of PalaisRoyal: final scoring, the result, and what each seat may see."""

    # -- scoring ------------------------------------------------------------
    def garden_edge_points(self, state: State) -> list[dict[str, int]]:
        """Spec §7.2: per seat, points per edge (6 alone first, 2 alone second,
        2 each when tied for first, nothing for a tie for second)."""
        rules = self.edition["scoring"]["garden_edge"]
        out: list[dict[str, int]] = [{} for _ in range(state.player_count)]
        for edge, spaces in self.edges.items():
            counts = Counter()
            for space in spaces:
                seat = state.garden_servants[self.space_index[space]]
                if seat is not None:
                    counts[seat] += self.space_weight[space]
            ranked = sorted((c for c in counts.values() if c >= rules["minimum_to_score"]),
                            reverse=True)
            if not ranked:
                continue
            top = [s for s, c in counts.items() if c == ranked[0]]
            if len(top) > 1:
                for s in top:
                    out[s][edge] = int(rules["second"])
                continue
            out[top[0]][edge] = int(rules["first"])
            rest = [c for c in ranked if c < ranked[0]]
            second = [s for s, c in counts.items() if rest and c == rest[0]]
            if len(second) == 1:
                out[second[0]][edge] = int(rules["second"])
        return out

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        """Spec §7.1 per seat: nobles, played cards, held cards (capped), garden edges."""
        held = self.edition["scoring"]["held_privilege_cards"]
        garden = self.garden_edge_points(state)
        rows = []
        for seat, p in enumerate(state.players):
            row = {
                "nobles": sum(self.nobles[n].points for n in p.nobles),
                "played_cards": sum(int(self.cards[c].effect.get("end_points", 0))
                                    for c in p.played),
                "held_cards": min(len(p.hand) * int(held["points_each"]),
                                  int(held["max_points"])),
                "garden": sum(garden[seat].values()),
            }
            row["total"] = sum(row.values())
            rows.append(row)
        return rows

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        rows = self.score_breakdown(state)
        scores = [r["total"] for r in rows]
        best = [s for s, v in enumerate(scores) if v == max(scores)]
        # spec §7.3 (designed): most gold breaks a tie, else the victory is shared
        most_gold = max(state.players[s].gold for s in best)
        winners = [s for s in best if state.players[s].gold == most_gold]
        garden = self.garden_edge_points(state)
        per_seat = [{**r, "gold": state.players[s].gold, "garden_edges": garden[s]}
                    for s, r in enumerate(rows)]
        return {"scores": scores, "winners": winners, "reason": "garden_has_few_nobles",
                "breakdown": {"per_seat": per_seat}}

    # -- view ---------------------------------------------------------------
    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        sees_all = seat == ALL or state.phase == "over"
        out: dict[str, Any] = {
            "phase": state.phase,
            "to_act": list(self.to_act(state)),
            "round": state.round,
            "active": state.active if state.phase == "play" else None,
            "start_player": state.start_player,
            "final_round": state.final_round,
            "turns_played": state.turns_played,
            "court_layout": list(state.court_layout),
            "garden": {s: state.garden[i] for i, s in enumerate(self.space_ids)}
            if state.garden else {},
            "garden_servants": {s: state.garden_servants[i] for i, s in enumerate(self.space_ids)
                                if state.garden_servants and state.garden_servants[i] is not None},
            "nobles_left": self.nobles_left(state),
            "deck_count": len(state.deck),
            "discard": state.discard.counts(),
            "discard_count": len(state.discard),
            "players": [self._player_view(state, s, sees_all or seat == s)
                        for s in range(len(state.players))],
        }
        out["turn"] = self._turn_view(state, sees_all or seat == state.active)
        out["public_scores"] = self._public_scores(state)
        if sees_all:
            out["set_aside"] = list(state.set_aside)
            out["deck"] = state.deck.counts()  # a multiset: its order is never known
            out["placements_done"] = state.placements_done
            out["scores"] = [r["total"] for r in self.score_breakdown(state)] \
                if state.players else []
        elif isinstance(seat, int) and 0 <= seat < len(state.players):
            out["my_score"] = self.score_breakdown(state)[seat]["total"]
        return out

    def _player_view(self, state: State, seat: Seat, own: bool) -> dict[str, Any]:
        p = state.players[seat]
        up = [n for n in p.nobles if self.nobles[n].privilege]
        down = [n for n in p.nobles if not self.nobles[n].privilege]
        out = {
            "seat": seat,
            "gold": p.gold,
            "supply": p.supply,
            "general_supply": p.general,
            "court": {t: p.court[i] for i, t in enumerate(self.tile_ids) if p.court[i]},
            "nobles_face_up": up,
            "nobles_face_down_count": len(down),
            "hand_count": len(p.hand),
            "played_cards": list(p.played),
        }
        if own:
            out["nobles_face_down"] = down
            out["hand"] = p.hand.counts()
        return out

    def _turn_view(self, state: State, own: bool) -> dict[str, Any]:
        t = state.turn
        out = {
            "open_step": "done" if t.open_step >= DONE else t.open_step,
            "mint_paid": t.open_step > 2,
            "cardinal_active": t.cardinal_active,
            "gate_unlimited": t.gate_unlimited,
            "gate_bonus": t.gate_bonus,
            "move_bonus": t.move_bonus,
            "bonus_seals": {"blue": t.bonus_blue, "purple": t.bonus_purple},
            "pending_drawn_count": len(t.pending),
        }
        if own:
            out["pending_drawn"] = list(t.pending)
        return out

    def _public_scores(self, state: State) -> list[int]:
        """What everybody can count: all but the face-down nobles' points."""
        rows = self.score_breakdown(state) if state.players else []
        hidden = [sum(self.nobles[n].points for n in p.nobles if not self.nobles[n].privilege)
                  for p in state.players]
        return [r["total"] - h for r, h in zip(rows, hidden, strict=True)]
