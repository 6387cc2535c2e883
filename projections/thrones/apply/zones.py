"""Power from and to the pool, and cards moving between zones (§3, §7.8)."""

from __future__ import annotations

from ...messages import M
from ...rules import IllegalAction, replace, require
from ..edition import CardId, Components, Seat, owner_of
from ..state import InPlay, State
from ..words import PILES
from .guards import take, thing, whose


def add_power(state: State, target: str, delta: int, ed: Components) -> State:
    """Power on a card or a House card (`house:<seat>`), from or to the pool."""
    if target.startswith("house:"):
        seat = int(target[6:])
        player = state.players[seat]
        require(player.house_power + delta >= 0, "not_enough_power",
                M("{whose} House card holds {house_power} power, not {value}",
                  whose=whose(state, seat), house_power=player.house_power, value=-delta))
        state = state.with_player(seat, house_power=player.house_power + delta)
    else:
        card = in_play(state, target, ed)
        require(card.power + delta >= 0, "not_enough_power",
                M("{card} holds {power} power, not {value}", card=ed.name(target),
                  power=card.power, value=-delta))
        state = update_card(state, replace(card, power=card.power + delta))
    return replace(state, power_issued=state.power_issued + delta)


def gain_house_power(state: State, seat: Seat, amount: int) -> State:
    """Power from the pool onto a House card (unopposed, dominance, opposed titles)."""
    player = state.players[seat]
    state = state.with_player(seat, house_power=player.house_power + amount)
    return replace(state, power_issued=state.power_issued + amount)


def in_play(state: State, card: object, ed: Components) -> InPlay:
    """The card in play with id `card`; refused (`not_in_play`) naming it."""
    for c in state.cards:
        if c.id == card:
            return c
    raise IllegalAction("not_in_play", M("{card} is not in play", card=thing(state, card, ed)),
                        card=card)


def update_card(state: State, card: InPlay) -> State:
    """The state with a card in play replaced by `card` (same id)."""
    return replace(state, cards=tuple(card if c.id == card.id else c for c in state.cards))


def house_target(state: State, target: object, ed: Components) -> Seat | None:
    """The seat of a House card id ("house:1"), refused if no such player is in the game;
    None for anything else."""
    if isinstance(target, str) and target.startswith("house:") and target[6:].isdigit():
        seat = int(target[6:])
        require(seat < state.n and not state.players[seat].conceded, "not_in_play",
                M("{value} is not a House card in the game",
                  value=thing(state, target, ed) if seat < state.n else target))
        return seat
    return None


def leave_play(state: State, card: CardId, dest: str, ed: Components) -> State:
    """§7.8: a card leaves play for `dest` (dead, discard, hand, removed)."""
    ip = in_play(state, card, ed)
    for att in [c for c in state.cards if c.host == card]:
        state = leave_play(state, att.id, "discard", ed)
    if ip.power:
        state = add_power(state, card, -ip.power, ed)
    for dup in ip.duplicates:
        state = to_pile(state, dup, "discard")
    state = replace(state, cards=tuple(c for c in state.cards if c.id != card),
                    modifiers=tuple(m for m in state.modifiers if m.card != card))
    ch = state.challenge
    if ch is not None:
        state = replace(state, challenge=replace(
            ch, attackers=tuple(a for a in ch.attackers if a != card),
            defenders=tuple(d for d in ch.defenders if d != card),
            stealth=tuple(p for p in ch.stealth if card not in p)))
    return to_pile(state, card, dest)


def to_pile(state: State, card: CardId, dest: str) -> State:
    """`card` onto its owner's `dest` (hand, deck, dead, discard, removed); a conceded
    player's cards leave the game."""
    owner = owner_of(card)
    player = state.players[owner]
    if player.conceded:
        dest = "removed"
    if dest == "hand":
        return state.with_player(owner, hand=player.hand.add([card]))
    if dest == "deck":
        return state.with_player(owner, deck=player.deck.add([card]))
    field = {"dead": "dead", "discard": "discard", "removed": "removed"}[dest]
    pile: tuple[CardId, ...] = getattr(player, field)
    return state.with_player(owner, **{field: (*pile, card)})


def take_from_zone(state: State, card: CardId, zone: str, ed: Components) -> State:
    """`card` out of its owner's `zone` (hand, deck, discard, dead), refused if not there."""
    owner = owner_of(card)
    require(owner < state.n, "unknown_card", M("\"{card}\" belongs to no player", card=card))
    player = state.players[owner]
    where = M("{whose} {pile}", whose=whose(state, owner), pile=PILES[zone])
    if zone in ("hand", "deck"):
        bag = take(state, getattr(player, zone), [card], where, ed)
        return state.with_player(owner, **{zone: bag})
    pile = getattr(player, zone)
    require(card in pile, "not_available", M("{card} is not in {where}",
                                             card=thing(state, card, ed), where=where),
            card=card)
    rest = list(pile)
    rest.remove(card)
    return state.with_player(owner, **{zone: tuple(rest)})
