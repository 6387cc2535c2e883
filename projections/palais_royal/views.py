"""What each viewer sees of Palais Royal (spec §8): hands, face-down nobles and the cards
drawn are their owner's secret until the game is over."""

from __future__ import annotations

from typing import Any

from ..rules import ALL, Action, Seat, Viewer
from .edition import DONE, Components
from .legal import to_act
from .scoring import score_breakdown
from .state import State, nobles_left


def view(state: State, seat: Viewer, components: Components) -> dict[str, Any]:
    """The state as `seat` may see it; "all" and a finished game see everything."""
    sees_all = seat == ALL or state.phase == "over"
    spaces = components.space_ids
    out: dict[str, Any] = {
        "phase": state.phase,
        "to_act": list(to_act(state, components)),
        "round": state.round,
        "active": state.active if state.phase == "play" else None,
        "start_player": state.start_player,
        "final_round": state.final_round,
        "turns_played": state.turns_played,
        "court_layout": list(state.court_layout),
        "garden": {s: state.garden[i] for i, s in enumerate(spaces)} if state.garden else {},
        "garden_servants": {s: state.garden_servants[i] for i, s in enumerate(spaces)
                            if state.garden_servants and state.garden_servants[i] is not None},
        "nobles_left": nobles_left(state),
        "deck_count": len(state.deck),
        "discard": state.discard.counts(),
        "discard_count": len(state.discard),
        "players": [_player_view(state, s, sees_all or seat == s, components)
                    for s in range(len(state.players))],
    }
    out["turn"] = _turn_view(state, sees_all or seat == state.active)
    out["public_scores"] = _public_scores(state, components)
    if sees_all:
        out["set_aside"] = list(state.set_aside)
        out["deck"] = state.deck.counts()  # a multiset: its order is never known
        out["placements_done"] = state.placements_done
        out["scores"] = [r["total"] for r in score_breakdown(state, components)] \
            if state.players else []
    elif isinstance(seat, int) and 0 <= seat < len(state.players):
        out["my_score"] = score_breakdown(state, components)[seat]["total"]
    return out


def _player_view(state: State, seat: Seat, own: bool, components: Components) -> dict[str, Any]:
    p = state.players[seat]
    up = [n for n in p.nobles if components.nobles[n].privilege]
    down = [n for n in p.nobles if not components.nobles[n].privilege]
    out: dict[str, Any] = {
        "seat": seat,
        "gold": p.gold,
        "supply": p.supply,
        "general_supply": p.general,
        "court": {t: p.court[i] for i, t in enumerate(components.tile_ids) if p.court[i]},
        "nobles_face_up": up,
        "nobles_face_down_count": len(down),
        "hand_count": len(p.hand),
        "played_cards": list(p.played),
    }
    if own:
        out["nobles_face_down"] = down
        out["hand"] = p.hand.counts()
    return out


def _turn_view(state: State, own: bool) -> dict[str, Any]:
    t = state.turn
    out: dict[str, Any] = {
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


def _public_scores(state: State, components: Components) -> list[int]:
    """What everybody can count: all but the face-down nobles' points."""
    rows = score_breakdown(state, components) if state.players else []
    nobles = components.nobles
    hidden = [sum(nobles[n].points for n in p.nobles if not nobles[n].privilege)
              for p in state.players]
    return [r["total"] - h for r, h in zip(rows, hidden, strict=True)]


def redact_draw_privilege_cards(action: Action, seat: Viewer, state_before: State,
                                components: Components) -> dict[str, Any] | None:
    """Spec §8: the cards drawn are the drawer's secret; others see how many were asked
    for and drawn (rulings #13)."""
    if seat == ALL or seat == action.actor:
        return None
    return {"count": action.data.get("count"),
            "drawn_count": len(action.data.get("cards", ()))}


def redact_keep_privilege_cards(action: Action, seat: Viewer, state_before: State,
                                components: Components) -> dict[str, Any] | None:
    """Spec §8: the cards kept are the keeper's secret; others see how many (rulings #13).
    Every other action is public: the setup's set_aside is the complement of the public
    garden (rulings #11)."""
    if seat == ALL or seat == action.actor:
        return None
    return {"kept_count": len(action.data.get("kept", ()))}
