"""The changes of an `effect` that move cards (§9): kneel and stand, control, into play and
between piles, draws and discards, searches."""

from __future__ import annotations

from typing import Any

from ...messages import M, Mn
from ...rules import replace, require
from ..edition import CardId, Components, owner_of
from ..state import InPlay, State
from ..words import a_card_type
from .fields import Op, amount, ids, op_seat, text
from .guards import take, thing, who, whose
from .pins import check_taken, shuffled
from .values import check_host, check_house_only, check_unique, controls_name
from .zones import house_target, in_play, leave_play, take_from_zone, to_pile, update_card


def kneel_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _set_knelt(state, text(op, "card"), True, ed)


def stand_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _set_knelt(state, text(op, "card"), False, ed)


def _set_knelt(state: State, card: str, knelt: bool, ed: Components) -> State:
    word = M("standing") if knelt else M("knelt")
    seat = house_target(state, card, ed)
    if seat is not None:
        require(state.players[seat].house_knelt != knelt, "bad_state",
                M("{whose} House card is not {word}", whose=whose(state, seat), word=word))
        return state.with_player(seat, house_knelt=knelt)
    ip = in_play(state, card, ed)
    require(ip.knelt != knelt, "bad_state", M("{card} is not {word}", card=ed.name(card),
                                              word=word), card=card)
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
            M("{player} already controls {card}: control passes to another player (§9)",
              player=who(state, seat), card=ed.name(ip.id)))
    data = ed.card(ip.id)
    require(not data.unique or controls_name(state, seat, data.name, ed) is None,
            "unique_in_play", M("unique card already in play: {player} already controls "
                                "{name}", player=who(state, seat), name=data.name))
    return update_card(state, replace(ip, controller=seat))


# ---------------------------------------------------------------------------
# Into play
# ---------------------------------------------------------------------------


def put_into_play_op(state: State, actor: object, op: Op, ed: Components) -> State:
    card = text(op, "card")
    zone = text(op, "from")
    require(zone in ("hand", "deck", "discard", "dead"), "bad_op",
            M("put into play takes a card from the hand, the draw deck, the discard pile or "
              "the dead pile, not \"{zone}\"", zone=zone))
    require(ed.is_known(card), "unknown_card", M("\"{card}\" is not a card of this set",
                                                 card=card))
    state = take_from_zone(state, card, zone, ed)
    return _enter_play(state, card, op, ed)


def _enter_play(state: State, card: CardId, op: Op, ed: Components) -> State:
    """A card put into play by an ability: the marshalling checks, without its cost unless
    the ability names one (`pay_gold`)."""
    seat = op_seat(state, op, "controller") if op.get("controller") is not None \
        else owner_of(card)
    kind = ed.card(card).type
    require(kind in ("character", "location", "attachment", "event"), "not_marshallable",
            M("{card} is {type} and cannot enter play", card=ed.name(card),
              type=a_card_type(kind)))
    check_house_only(state, seat, card, ed)
    pay = amount(op, "pay_gold") if op.get("pay_gold") is not None else 0
    require(pay <= state.players[seat].gold, "not_enough_gold",
            M("not enough gold: {player} has {gold}, pays {pay}", player=who(state, seat),
              gold=state.players[seat].gold, pay=pay))
    state = state.with_player(seat, gold=state.players[seat].gold - pay)
    if op.get("as_duplicate"):
        return _enter_as_duplicate(state, seat, card, ed)
    check_unique(state, seat, card, ed)
    host = op.get("attach_to")
    if kind == "attachment" or host is not None:
        require(isinstance(host, str), "illegal_attachment_target",
                M("illegal attachment target: {card} needs a card to attach to",
                  card=ed.name(card)))
        check_host(state, seat, card, host, ed)
        host = f"house:{owner_of(card)}" if host == "house" else host
    ip = InPlay(id=card, controller=seat, host=host, knelt=bool(op.get("knelt")))
    return replace(state, cards=(*state.cards, ip))


def _enter_as_duplicate(state: State, seat: int, card: CardId, ed: Components) -> State:
    base = controls_name(state, seat, ed.name(card), ed) if ed.card(card).unique else None
    require(base is not None, "no_duplicate_base",
            M("a duplicate needs a {card} in play that {player} controls", card=ed.name(card),
              player=who(state, seat)))
    assert base is not None
    return update_card(state, replace(base, duplicates=(*base.duplicates, card)))


def move_attachment_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ip = in_play(state, text(op, "card"), ed)
    target = text(op, "to")
    require(ip.host is not None and ed.card(ip.id).type == "attachment",
            "not_an_attachment", M("{card} is not an attachment in play", card=ed.name(ip.id)))
    require(target != ip.host, "illegal_attachment_target",
            M("illegal attachment target: {card} is already on {card2}; it moves to another "
              "character (§9)", card=ed.name(ip.id), card2=thing(state, target, ed)))
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
            Mn("the draw cap is {count} card per round; {player} has drawn {drawn}",
               "the draw cap is {count} cards per round; {player} has drawn {drawn}",
               cap or 0, player=who(state, seat), drawn=player.draws_this_round))
    check_taken(state, seat, cards)  # card ruling L12
    deck = take(state, player.deck, cards, M("{whose} deck", whose=whose(state, seat)), ed)
    return state.with_player(seat, deck=deck, hand=player.hand.add(cards),
                             draws_this_round=player.draws_this_round + len(cards))


def discard_from_hand(state: State, actor: object, op: Op, ed: Components) -> State:
    """Cards from a player's hand to their discard pile (an effect, or an intrigue claim)."""
    seat = op_seat(state, op)
    cards = ids(op, "cards")
    player = state.players[seat]
    hand = take(state, player.hand, cards, M("{whose} hand", whose=whose(state, seat)), ed,
                "card_not_in_hand")
    return state.with_player(seat, hand=hand, discard=(*player.discard, *cards))


def discard_from_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    cards = ids(op, "cards")
    player = state.players[seat]
    check_taken(state, seat, cards)  # card ruling L12
    deck = take(state, player.deck, cards, M("{whose} deck", whose=whose(state, seat)), ed)
    return state.with_player(seat, deck=deck, discard=(*player.discard, *cards))


def search_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    card = text(op, "card")
    to = text(op, "to")
    require(to in ("hand", "play"), "bad_op",
            M("a card found in a deck goes to the hand or into play, not \"{to}\"", to=to))
    require(ed.is_known(card) and owner_of(card) == seat, "not_available",
            M("{card} is not in {whose} deck", card=thing(state, card, ed),
              whose=whose(state, seat)))
    state = shuffled(take_from_zone(state, card, "deck", ed), seat)  # searched: L12
    if to == "hand":
        return to_pile(state, card, "hand")
    return _enter_play(state, card, op, ed)


def return_from_pile_op(state: State, actor: object, op: Op, ed: Components) -> State:
    card = text(op, "card")
    zone, to = text(op, "from"), text(op, "to")
    require(zone in ("discard", "dead") and to in ("hand", "deck"), "bad_op",
            M("a card returns from the discard or dead pile to the hand or the draw deck"))
    require(ed.is_known(card), "unknown_card", M("\"{card}\" is not a card of this set",
                                                 card=card))
    return to_pile(take_from_zone(state, card, zone, ed), card, to)


def shuffle_pile_into_deck_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    pile = text(op, "pile")
    require(pile in ("discard", "dead", "hand"), "bad_op",
            M("the pile shuffled in is the discard pile, the dead pile or the hand, not "
              "\"{pile}\"", pile=pile))
    player = state.players[seat]
    cards = list(getattr(player, pile))
    empty = type(player.hand)() if pile == "hand" else ()
    return shuffled(state, seat).with_player(seat, deck=player.deck.add(cards),
                                             **{pile: empty})

