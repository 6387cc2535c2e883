"""Chance in Thrones: the digital dealer's outcomes, and the outcomes a table taps in.

Chance outcomes are data on actions (spec §11): setup hands and the setup starter, a
mulligan's new hand, the cards drawn, the winner of an initiative tie, and the cards an
intrigue claim discards at random.
"""

from __future__ import annotations

from typing import Any

from ..messages import M
from ..rules import Action, Dealer, IllegalAction, seat_name, thaw
from .apply import dealt
from .apply.claims import pending_need
from .apply.effects import OP_TYPES
from .apply.guards import per_seat, seat_of
from .apply.pins import in_order
from .apply.rounds import draw_counts
from .apply.setup import deck_for, setup_draw_counts, start_houses
from .edition import Components, Seat, instance_ids, parse_id
from .state import State

Slot = dict[str, Any]


def fill_chance(state: State, action: Action, dealer: Dealer, ed: Components
                ) -> dict[str, Any]:
    """Digital mode: the action's data with its chance fields dealt by `dealer`."""
    data = dict(thaw(action.data))
    kind = action.type
    size = ed.constants.setup_hand_size
    if kind == "start_game":
        return _fill_start(state, data, dealer, ed)
    if kind == "mulligan":
        player = state.players[action.actor]  # type: ignore[index]
        pool = list(player.deck) + list(player.hand)
        data["new_hand"] = dealer.shuffled(pool)[:size]
    elif kind in ("setup_draw", "draw_phase"):
        counts = setup_draw_counts(state, ed) if kind == "setup_draw" \
            else draw_counts(state, ed)
        data["draws"] = {str(s): in_order(state, s, dealer.shuffled(state.players[s].deck))[:n]
                         for s, n in counts.items()}
    elif kind == "break_initiative_tie":
        data["winner"] = dealer.choice(list(state.tied))
    elif kind == "apply_claim" and state.challenge and state.challenge.type == "intrigue" \
            and state.challenge.pending:
        ch = state.challenge
        seat = ch.pending[0][1]
        need = pending_need(state, ch, "claim", seat, ed)
        data["discards"] = dealer.shuffled(state.players[seat].hand)[:need]
    elif kind == "use_ability":  # ruling 34: what the ability takes by chance
        data.update(dealt.deal(state, action.actor, data, dealer, ed))
    return data


def _fill_start(state: State, data: dict[str, Any], dealer: Dealer, ed: Components
                ) -> dict[str, Any]:
    data["setup_first"] = dealer.below(state.n)
    hands = {}
    for entry in sorted(data.get("players") or [], key=lambda e: e.get("seat", 0)):
        seat = entry["seat"]
        _, plots, draw = deck_for(seat, entry["house"], per_seat(data.get("decks"), seat), ed)
        deck = instance_ids(seat, [*draw, *plots])[:len(draw)]
        hands[str(seat)] = dealer.shuffled(deck)[:ed.constants.setup_hand_size]
    data["setup_hands"] = hands
    return data


def reveals_cards(action: Action) -> bool:
    """Whether an effect drew, discarded or searched cards of a deck: in digital play its
    undo would let the player see hidden cards and try again."""
    if action.type != "effect":
        return False
    ops = [*(action.data.get("costs") or ()), *(action.data.get("ops") or ())]
    return any(bool(_op_chance(op)) for op in ops)


def _op_chance(op: Any) -> tuple[str, ...]:
    """The fields of an op naming cards of a hidden deck (its record's `chance`)."""
    record = OP_TYPES.get(op.get("op")) if hasattr(op, "get") else None
    return record.chance if record is not None else ()


def names_others_hidden(action: Action) -> bool:
    """Whether an effect names cards of a hand or deck not the actor's (another seat's,
    hidden from the actor by §11): typed by a seat at a table, its check would tell that
    seat what the other holds (engine ruling 16). An op's record says whether it names
    cards of its `seat`'s hand or deck (`OpType.hidden_zone`); a card put into play from a
    hand or deck is that of its id's owner (§3)."""
    if action.type != "effect":
        return False
    for op in [*(action.data.get("costs") or ()), *(action.data.get("ops") or ())]:
        record = OP_TYPES.get(op.get("op")) if hasattr(op, "get") else None
        if record is None:
            continue
        if record.hidden_zone and op.get("seat") != action.actor:
            return True
        owner = parse_id(op.get("card"))
        if "from" in record.fields and op.get("from") in ("hand", "deck") and \
                owner is not None and owner[0] != action.actor:
            return True
    return False


# ---------------------------------------------------------------------------
# Table mode: the outcomes still to tap in
# ---------------------------------------------------------------------------


def _slot(field: str, path: list[Any], options: list[Any], many: bool, count: int | None,
          label: str) -> Slot:
    return {"field": field, "path": path, "options": options, "many": many, "count": count,
            "label": label}


def _who(state: State, seat: Seat, also: str = "") -> str:
    """A player as the table knows them: "Bo", or "Bo (House Stark)"."""
    name = seat_name(state.names, seat)
    return M("{player} (House {house})", player=name, house=also) if also else name


def _filled(data: Any, field: str, path: list[Any]) -> bool:
    """Whether the action already carries an outcome at `field` + `path`."""
    value = data.get(field)
    for key in path:
        if isinstance(key, int) and isinstance(value, list | tuple):
            value = value[key] if key < len(value) else None
            continue
        if not hasattr(value, "get"):
            return False
        value = value.get(key)
    return value not in (None, (), [])


def chance_slots(state: State, action: Action, ed: Components) -> list[Slot]:
    """Table mode: the outcomes `action` still needs, picked from what is still there.

    start_game: each seat's setup hand from that seat's draw deck (as the action's houses
    and decks build it), and the seat that sets up first; mulligan: the new hand from the
    seat's deck and old hand; setup_draw and draw_phase: the cards each seat draws (a seat
    drawing none has a slot of 0 cards, so its entry is an empty list, as the digital
    dealer writes it); break_initiative_tie:
    one of the tied seats; an intrigue apply_claim: the cards discarded from the losing
    seat's hand; use_ability: each card the ability takes by chance (ruling 34). Card ids
    are per-seat ("p<seat>-..."), so no two slots share an option.
    """
    try:
        slots = _slots_for(state, action, ed)
    except (IllegalAction, KeyError, IndexError, TypeError, ValueError, AttributeError):
        return []
    data = action.data
    return [s for s in slots if not _filled(data, s["field"], s["path"])]


def _slots_for(state: State, action: Action, ed: Components) -> list[Slot]:
    kind = action.type
    if kind == "start_game" and state.phase == "start":
        return _start_slots(state, action.data, ed)
    if kind == "mulligan" and state.phase == "setup":
        return _mulligan_slots(state, action, ed)
    if kind in ("setup_draw", "draw_phase") and \
            state.phase == ("setup_draw" if kind == "setup_draw" else "draw"):
        counts = setup_draw_counts(state, ed) if kind == "setup_draw" \
            else draw_counts(state, ed)
        return [_slot("draws", [str(s)], sorted(state.players[s].deck), True, n,
                      M("cards {player} drew", player=_who(state, s))) for s, n in counts.items()]
    if kind == "break_initiative_tie" and state.phase == "plot" and state.step == "tie":
        return [_slot("winner", [], list(state.tied), False, None,
                      M("player who wins the initiative tie"))]
    if kind == "apply_claim":
        return _claim_slots(state, ed)
    if kind == "use_ability":
        return dealt.slots(state, action.actor, action.data, ed)
    return []


def _mulligan_slots(state: State, action: Action, ed: Components) -> list[Slot]:
    seat = seat_of(state, action)
    player = state.players[seat]
    pool = sorted(player.deck.add(player.hand))
    return [_slot("new_hand", [], pool, True, min(ed.constants.setup_hand_size, len(pool)),
                  M("new hand of {player}", player=_who(state, seat)))]


def _claim_slots(state: State, ed: Components) -> list[Slot]:
    """The cards an intrigue claim discards at random from the losing hand."""
    ch = state.challenge
    if ch is not None and ch.type == "intrigue" and ch.step == "resolved" and ch.pending \
            and ch.pending[0][0] == "claim":
        seat = ch.pending[0][1]
        need = pending_need(state, ch, "claim", seat, ed)
        if need > 0:
            return [_slot("discards", [], sorted(state.players[seat].hand), True, need,
                          M("cards {player} discards at random",
                            player=_who(state, seat)))]
    return []


def _start_slots(state: State, data: Any, ed: Components) -> list[Slot]:
    houses = start_houses(state, data["players"], ed)
    slots = []
    for seat, house in enumerate(houses):
        _, plots, draw = deck_for(seat, house, per_seat(data.get("decks"), seat), ed)
        deck = instance_ids(seat, [*draw, *plots])[:len(draw)]
        slots.append(_slot("setup_hands", [str(seat)], sorted(deck), True,
                           min(ed.constants.setup_hand_size, len(deck)),
                           M("setup hand of {player}",
                             player=_who(state, seat, ed.house_names.get(house, house)))))
    slots.append(_slot("setup_first", [], list(range(state.n)), False, None,
                       M("player who sets up first")))
    return slots
