"""What each viewer of a game of Thrones sees (§11): the view of the state, and the
redaction of an event's data.

A player sees their own hand, deck, plot deck, chosen plot and face-down setup cards; the
others see counts, also of the cards a conceded player's hand and decks took out of the game
(ruling 25). A finished game is fully public.
"""

from __future__ import annotations

from typing import Any

from ..rules import ALL, Action, Viewer, thaw
from .apply.challenges import totals
from .apply.effects import OP_TYPES
from .apply.turns import to_act
from .apply.values import play_index, strength, total_power
from .edition import Components, Seat, parse_id
from .state import Challenge, Player, State


def view(state: State, seat: Viewer, ed: Components) -> dict[str, Any]:
    """JSON-ready state as `seat` may see it ("all": everything)."""
    index = play_index(state)
    see_all = seat == ALL or state.winner is not None
    players = [_player_view(state, s, p, see_all or seat == s)
               for s, p in enumerate(state.players)]
    cards = [{"id": c.id, "name": ed.name(c.id), "controller": c.controller,
              "knelt": c.knelt, "power": c.power, "host": c.host,
              "duplicates": list(c.duplicates),
              **({"strength": strength(state, c.id, ed, index)}
                 if ed.is_character(c.id) and c.host is None else {})}
             for c in state.cards]
    return {
        "phase": state.phase, "step": state.step, "round": state.round,
        "to_act": list(to_act(state, ed)), "first_player": state.first_player,
        "turn": state.turn, "setup_first": state.setup_first,
        "initiative_winner": state.initiative_winner, "tied": list(state.tied),
        "titles": list(state.titles), "title_uses": sorted(state.title_uses),
        "options": dict(state.options), "players": players, "in_play": cards,
        "modifiers": [thaw({"kind": m.kind, "card": m.card, "until": m.until,
                            "amount": m.amount, "value": m.value}) for m in state.modifiers],
        "challenge": _challenge_view(state, state.challenge, ed),
        "forbids": [list(f) for f in state.forbids],
        "power": [total_power(state, s) for s in range(state.n)] if state.players
        else [0] * state.n,
        "pending_winner": list(state.pending_winner), "winner": state.winner,
        "end_reason": state.end_reason,
        **_window_view(state),
    }


def _window_view(state: State) -> dict[str, Any]:
    """Ruling 35: what a digital window waits for (who answers, what happened); nothing
    while nobody is asked (a table's window is checked when used, never shown)."""
    window = state.window
    if window is None or not window.waiting:
        return {}
    return {"window": {"waiting": list(window.waiting), "stage": window.stage,
                       "triggers": [t.name for t in window.triggers]}}


def _challenge_view(state: State, ch: Challenge | None, ed: Components
                    ) -> dict[str, Any] | None:
    if ch is None:
        return None
    return {"type": ch.type, "attacker": ch.attacker, "defender": ch.defender,
            "attackers": list(ch.attackers), "defenders": list(ch.defenders),
            "stealth": dict(ch.stealth), "step": ch.step,
            "strength": list(totals(state, ch, ed)) if ch.step != "resolved"
            else list(ch.strength), "winner": ch.winner,
            "pending": [list(p) for p in ch.pending]}


def _player_view(state: State, seat: Seat, p: Player, own: bool) -> dict[str, Any]:
    out = {
        "seat": seat, "name": state.names[seat], "house": p.house, "gold": p.gold,
        "house_power": p.house_power, "house_knelt": p.house_knelt,
        "conceded": p.conceded, "hand_count": len(p.hand), "deck_count": len(p.deck),
        "plot_deck_count": len(p.plot_deck), "revealed_plot": p.revealed_plot,
        "used_plots": list(p.used_plots), "discard": list(p.discard),
        "dead": list(p.dead), "removed": list(p.removed),
        "setup_count": len(p.setup_cards), "has_chosen_plot": p.chosen_plot is not None,
        "challenges_used": dict(zip(("military", "intrigue", "power"), p.used,
                                    strict=True)),
        "limited_played": p.limited_played,
    }
    if p.removed_unseen and not own:  # §6.17, ruling 25: removed unseen, a count to others
        unseen = set(p.removed_unseen)
        out.update(removed=[c for c in p.removed if c not in unseen],
                   removed_unseen_count=len(p.removed_unseen))
    if own:
        out.update(hand=sorted(p.hand), deck=sorted(p.deck), plot_deck=sorted(p.plot_deck),
                   chosen_plot=p.chosen_plot,
                   setup_cards=[{"card": c, "attach_to": a} for c, a in p.setup_cards],
                   reductions=[{"amount": r.amount, "filter": thaw(dict(r.filter))}
                               for r in p.reductions])
    return out


# ---------------------------------------------------------------------------
# Redaction (§11)
# ---------------------------------------------------------------------------


def redact_start_game(action: Action, seat: Viewer, state_before: State, ed: Components
                      ) -> dict[str, Any] | None:
    """A seat sees its own setup hand; everybody sees how many cards each was dealt."""
    if seat == ALL:
        return None
    data = thaw(action.data)
    hands = data.get("setup_hands") or {}
    data["setup_hands"] = {k: v for k, v in hands.items() if str(seat) == str(k)}
    data["setup_hand_counts"] = {k: len(v) for k, v in hands.items()}
    return dict(data)


def redact_draws(action: Action, seat: Viewer, state_before: State, ed: Components
                 ) -> dict[str, Any] | None:
    """The setup draw and the draw phase: a seat sees its own cards, the others counts."""
    if seat == ALL:
        return None
    draws = thaw(action.data).get("draws") or {}
    return {"draws": {k: v for k, v in draws.items() if str(seat) == str(k)},
            "drawn_counts": {k: len(v) for k, v in draws.items()}}


def redact_mulligan(action: Action, seat: Viewer, state_before: State, ed: Components
                    ) -> dict[str, Any] | None:
    """Another seat sees how many cards the new hand holds."""
    if seat == ALL or action.actor == seat:
        return None
    return {"new_hand_count": len(action.data.get("new_hand") or ())}


def redact_setup_cards(action: Action, seat: Viewer, state_before: State, ed: Components
                       ) -> dict[str, Any] | None:
    """Face down until every seat has set up: another seat sees the number of cards."""
    if seat == ALL or action.actor == seat:
        return None
    return {"count": len(action.data.get("cards") or ())}


def redact_choose_plot(action: Action, seat: Viewer, state_before: State, ed: Components
                       ) -> dict[str, Any] | None:
    """Secret until every seat has chosen: another seat sees that a plot was chosen."""
    if seat == ALL or action.actor == seat:
        return None
    return {"chosen": True}


def redact_effect(action: Action, seat: Viewer, state_before: State, ed: Components
                  ) -> dict[str, Any] | None:
    """Each op of another seat as its record lets that viewer see it (cards drawn by an
    ability as a count, a card taken from a deck unrevealed without its name)."""
    if seat == ALL:
        return None
    data = thaw(action.data)
    changed = False
    for key in ("costs", "ops"):
        ops = data.get(key) or []
        for i, op in enumerate(ops):
            if not isinstance(op, dict) or op.get("seat") == seat:
                continue
            record = OP_TYPES.get(op.get("op"))  # type: ignore[arg-type]
            hidden = record.redact(op) if record is not None else None
            if hidden is not None:
                ops[i] = hidden
                changed = True
    return data if changed else None


def redact_use_ability(action: Action, seat: Viewer, state_before: State, ed: Components
                       ) -> dict[str, Any] | None:
    """§11 for an ability: another seat sees how many cards it drew, not which, and a
    card it chose from a hand or draw deck only as a count, unless the ability reveals it
    (a search that shows the card)."""
    if seat == ALL:
        return None
    data = thaw(action.data)
    drawn = data.get("drawn")
    changed = False
    if isinstance(drawn, list) and any(_owner(c) != seat for c in drawn):
        # ruling 34: each seat sees the cards it drew itself (Counting Favors draws for two)
        own = [c for c in drawn if _owner(c) == seat]
        data["drawn"] = {"count": len(drawn), **({"yours": own} if own else {})}
        changed = True
    if seat == action.actor:
        return data if changed else None
    changed = _hide_looked(data) or changed
    hidden_zones: set[str] = set()
    for player in state_before.players:
        hidden_zones.update(player.hand)
        hidden_zones.update(player.deck)
    ref = data.get("card")
    ability = ed.card(ref).ability(str(data.get("ability"))) \
        if isinstance(ref, str) and ed.is_known(ref) else None
    # a hidden-zone op its record lets others see whole (a search that shows the card)
    reveals = ability is not None and any(
        record is not None and record.hidden_zone and "card" in record.fields
        and record.redact(dict(thaw(op))) is None
        for op in ability.ops for record in [OP_TYPES.get(str(op.get("op")))])
    choices = data.get("choices")
    if isinstance(choices, dict) and not reveals:
        for name, value in list(choices.items()):
            picked = value if isinstance(value, list) else [value]
            if any(isinstance(v, str) and v in hidden_zones for v in picked):
                choices[name] = {"count": len(picked)}
                changed = True
    return data if changed else None


def _hide_looked(data: dict[str, Any]) -> bool:
    """Card ruling L12: only the seat that looked sees the card Raff looked at; the others
    see that one card was looked at. Whether `data` changed."""
    looked = data.get("looked")
    if isinstance(looked, list) and looked:
        data["looked"] = {"count": len(looked)}
        return True
    return False


def _owner(card: object) -> int | None:
    """The seat whose deck a card came from (§3), None for what is not a card id."""
    parsed = parse_id(card)
    return parsed[0] if parsed is not None else None
