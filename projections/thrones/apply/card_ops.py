"""The changes of an `effect` that move cards (§9): kneel and stand, control, into play and
between piles, draws and discards, searches."""

from __future__ import annotations

from typing import Any

from ...rules import plural, replace, require
from ..edition import CardId, Components, owner_of
from ..state import InPlay, State
from ..words import a_an, words
from .fields import Op, amount, ids, op_seat, text
from .guards import take, thing, who, whose
from .values import check_host, check_house_only, check_unique, controls_name
from .zones import house_target, in_play, leave_play, take_from_zone, to_pile, update_card


def kneel_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _set_knelt(state, text(op, "card"), True, ed)


def stand_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _set_knelt(state, text(op, "card"), False, ed)


def _set_knelt(state: State, card: str, knelt: bool, ed: Components) -> State:
    word = "standing" if knelt else "knelt"
    seat = house_target(state, card, ed)
    if seat is not None:
        require(state.players[seat].house_knelt != knelt, "bad_state",
                f"{whose(state, seat)} House card is not {word}")
        return state.with_player(seat, house_knelt=knelt)
    ip = in_play(state, card, ed)
    require(ip.knelt != knelt, "bad_state", f"{ed.name(card)} is not {word}", card=card)
    return update_card(state, replace(ip, knelt=knelt))


def return_to_hand_op(state: State, actor: object, op: Op, ed: Components) -> State:
    for card in ids(op, "cards"):
        in_play(state, card, ed)
        state = leave_play(state, card, "hand", ed)
    return state


def take_control_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ip = in_play(state, text(op, "card"), ed)
    seat = op_seat(state, op, "controller")
    require(seat != ip.controller, "bad_state",
            f"{who(state, seat)} already controls {ed.name(ip.id)}: control passes "
            "to another player (§9)")
    data = ed.card(ip.id)
    require(not data.unique or controls_name(state, seat, data.name, ed) is None,
            "unique_in_play", f"unique card already in play: {who(state, seat)} "
            f"already controls {data.name}")
    return update_card(state, replace(ip, controller=seat))


# ---------------------------------------------------------------------------
# Into play
# ---------------------------------------------------------------------------


def put_into_play_op(state: State, actor: object, op: Op, ed: Components) -> State:
    card = text(op, "card")
    zone = text(op, "from")
    require(zone in ("hand", "deck", "discard", "dead"), "bad_op",
            "put into play takes a card from the hand, the draw deck, the discard pile "
            f'or the dead pile, not "{zone}"')
    require(ed.is_known(card), "unknown_card", f'"{card}" is not a card of this set')
    state = take_from_zone(state, card, zone, ed)
    return _enter_play(state, card, op, ed)


def _enter_play(state: State, card: CardId, op: Op, ed: Components) -> State:
    """A card put into play by an ability: the marshalling checks, without its cost unless
    the ability names one (`pay_gold`)."""
    seat = op_seat(state, op, "controller") if op.get("controller") is not None \
        else owner_of(card)
    kind = ed.card(card).type
    require(kind in ("character", "location", "attachment", "event"), "not_marshallable",
            f"{ed.name(card)} is {a_an(words(kind))} and cannot enter play")
    check_house_only(state, seat, card, ed)
    pay = amount(op, "pay_gold") if op.get("pay_gold") is not None else 0
    require(pay <= state.players[seat].gold, "not_enough_gold",
            f"not enough gold: {who(state, seat)} has {state.players[seat].gold}, "
            f"pays {pay}")
    state = state.with_player(seat, gold=state.players[seat].gold - pay)
    if op.get("as_duplicate"):
        return _enter_as_duplicate(state, seat, card, ed)
    check_unique(state, seat, card, ed)
    host = op.get("attach_to")
    if kind == "attachment" or host is not None:
        require(isinstance(host, str), "illegal_attachment_target",
                f"illegal attachment target: {ed.name(card)} needs a card to attach to")
        check_host(state, seat, card, host, ed)
        host = f"house:{owner_of(card)}" if host == "house" else host
    ip = InPlay(id=card, controller=seat, host=host, knelt=bool(op.get("knelt")))
    return replace(state, cards=(*state.cards, ip))


def _enter_as_duplicate(state: State, seat: int, card: CardId, ed: Components) -> State:
    base = controls_name(state, seat, ed.name(card), ed) if ed.card(card).unique else None
    require(base is not None, "no_duplicate_base",
            f"a duplicate needs a {ed.name(card)} in play that "
            f"{who(state, seat)} controls")
    assert base is not None
    return update_card(state, replace(base, duplicates=(*base.duplicates, card)))


def move_attachment_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ip = in_play(state, text(op, "card"), ed)
    target = text(op, "to")
    require(ip.host is not None and ed.card(ip.id).type == "attachment",
            "not_an_attachment", f"{ed.name(ip.id)} is not an attachment in play")
    require(target != ip.host, "illegal_attachment_target",
            f"illegal attachment target: {ed.name(ip.id)} is already on "
            f"{thing(state, target, ed)}; it moves to another character (§9)")
    moved = replace(state, cards=tuple(c for c in state.cards if c.id != ip.id))
    check_host(moved, ip.controller, ip.id, target, ed)
    return update_card(state, replace(ip, host=target))


# ---------------------------------------------------------------------------
# Cards between zones
# ---------------------------------------------------------------------------


def draw_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    cards = ids(op, "cards")
    player = state.players[seat]
    cap: Any = state.option("draw_cap")
    require(cap is None or player.draws_this_round + len(cards) <= cap, "draw_cap",
            f"the draw cap is {plural(cap or 0, 'card')} per round; "
            f"{who(state, seat)} has drawn {player.draws_this_round}")
    deck = take(state, player.deck, cards, f"{whose(state, seat)} deck", ed)
    return state.with_player(seat, deck=deck, hand=player.hand.add(cards),
                             draws_this_round=player.draws_this_round + len(cards))


def discard_from_hand(state: State, actor: object, op: Op, ed: Components) -> State:
    """Cards from a player's hand to their discard pile (an effect, or an intrigue claim)."""
    seat = op_seat(state, op)
    cards = ids(op, "cards")
    player = state.players[seat]
    hand = take(state, player.hand, cards, f"{whose(state, seat)} hand", ed, "card_not_in_hand")
    return state.with_player(seat, hand=hand, discard=(*player.discard, *cards))


def discard_from_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    cards = ids(op, "cards")
    player = state.players[seat]
    deck = take(state, player.deck, cards, f"{whose(state, seat)} deck", ed)
    return state.with_player(seat, deck=deck, discard=(*player.discard, *cards))


def search_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    card = text(op, "card")
    to = text(op, "to")
    require(to in ("hand", "play"), "bad_op",
            f'a card found in a deck goes to the hand or into play, not "{to}"')
    require(ed.is_known(card) and owner_of(card) == seat, "not_available",
            f"{thing(state, card, ed)} is not in {whose(state, seat)} deck")
    state = take_from_zone(state, card, "deck", ed)
    if to == "hand":
        return to_pile(state, card, "hand")
    return _enter_play(state, card, op, ed)


def return_from_pile_op(state: State, actor: object, op: Op, ed: Components) -> State:
    card = text(op, "card")
    zone, to = text(op, "from"), text(op, "to")
    require(zone in ("discard", "dead") and to in ("hand", "deck"), "bad_op",
            "a card returns from the discard or dead pile to the hand or the draw deck")
    require(ed.is_known(card), "unknown_card", f'"{card}" is not a card of this set')
    return to_pile(take_from_zone(state, card, zone, ed), card, to)


def shuffle_pile_into_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    pile = text(op, "pile")
    require(pile in ("discard", "dead", "hand"), "bad_op",
            f'the pile shuffled in is the discard pile, the dead pile or the hand, not '
            f'"{pile}"')
    player = state.players[seat]
    cards = list(getattr(player, pile))
    empty = type(player.hand)() if pile == "hand" else ()
    return state.with_player(seat, deck=player.deck.add(cards), **{pile: empty})

