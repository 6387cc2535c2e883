"""The changes of an `effect` that change values for a while, move power and gold, or
change this round's plots and challenges (§9)."""

from __future__ import annotations

from ...messages import M
from ...rules import replace, require
from ..edition import Components, owner_of
from ..state import TYPES, Modifier, Reduction, State
from .deaths import mark_strength
from .fields import (
    Op,
    actor_seat,
    amount,
    card_filter,
    character,
    integer,
    items,
    op_seat,
    seats,
    text,
    until,
)
from .guards import thing, who, whose
from .rounds import plot_source, settle_initiative
from .zones import add_power, house_target, in_play


def _add_mod(state: State, mod: Modifier) -> State:
    return replace(state, modifiers=(*state.modifiers, mod))


def adjust_strength_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ip = character(state, op, ed)
    return mark_strength(state, _add_mod(state, Modifier(
        "strength", ip.id, until(state, op), amount=integer(op, "amount"))), ip.id, ed)


def no_strength_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ip = character(state, op, ed)
    return mark_strength(state, _add_mod(state, Modifier("no_strength", ip.id,
                                                         until(state, op))), ip.id, ed)


def _icon_mod(state: State, op: Op, kind: str, ed: Components) -> State:
    ip = character(state, op, ed)
    icon = text(op, "icon")
    require(icon in TYPES, "bad_op", M("an icon is military, intrigue or power, not \"{icon}\"",
                                       icon=icon))
    return _add_mod(state, Modifier(kind, ip.id, until(state, op), value=icon))


def gain_icon_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _icon_mod(state, op, "gain_icon", ed)


def lose_icon_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _icon_mod(state, op, "lose_icon", ed)


def _keyword_mod(state: State, op: Op, kind: str, ed: Components) -> State:
    ip = in_play(state, text(op, "card"), ed)
    return _add_mod(state, Modifier(kind, ip.id, until(state, op), value=text(op, "keyword")))


def gain_keyword_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _keyword_mod(state, op, "gain_keyword", ed)


def lose_keyword_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _keyword_mod(state, op, "lose_keyword", ed)


def continuous_op(state: State, actor: object, op: Op, ed: Components) -> State:
    source = in_play(state, text(op, "source"), ed)
    when = text(op, "when", "always")
    require(when in ("always", "participating", "attacking", "defending",
                     "dominance_phase"), "bad_op",
            M("a lasting effect applies always, while participating, attacking, defending or "
              "in the dominance phase, not \"{when}\"", when=when))
    icons = tuple(items(op, "icons", ()))
    require(all(i in TYPES for i in icons), "bad_op",
            M("an icon is military, intrigue or power"))
    mod = Modifier("continuous", source.id, "source", amount=integer(op, "strength", 0),
                   # "self" is the recording seat; for the table's ruling, the source's
                   seat=actor_seat(actor) if isinstance(actor, int) else source.controller,
                   filter=card_filter(op), icons=icons,
                   keywords=tuple(items(op, "keywords", ())), when=when,
                   standing=bool(op.get("requires_source_standing")))
    return _add_mod(state, mod)


def exclude_character_power_op(state: State, actor: object, op: Op, ed: Components) -> State:
    source = in_play(state, text(op, "source"), ed)
    players = items(op, "players")
    require(all(isinstance(s, int) and 0 <= s < state.n for s in players), "bad_seat",
            M("the players of the effect must be seats of the game"))
    return _add_mod(state, Modifier("exclude_power", source.id, "source",
                                    players=tuple(players),
                                    standing=bool(op.get("requires_source_standing"))))


def no_stand_op(state: State, actor: object, op: Op, ed: Components) -> State:
    card = text(op, "card")
    if house_target(state, card, ed) is None:
        in_play(state, card, ed)
    return _add_mod(state, Modifier("no_stand", card, "round"))


# ---------------------------------------------------------------------------
# Challenge participation
# ---------------------------------------------------------------------------


def join_challenge_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ch = state.challenge
    require(ch is not None and ch.step != "resolved", "no_open_challenge",
            M("a card joins only an open challenge that is not yet resolved"))
    assert ch is not None
    ip = character(state, op, ed)
    require(ip.id not in ch.attackers + ch.defenders, "already_participating",
            M("{card} is already participating", card=ed.name(ip.id)))
    side = text(op, "side")
    if side in ("attacker", "attacking", "attackers"):
        return replace(state, challenge=replace(ch, attackers=(*ch.attackers, ip.id)))
    require(side in ("defender", "defending", "defenders"), "bad_op",
            M("a card joins the attacker or the defender, not \"{side}\"", side=side))
    return replace(state, challenge=replace(ch, defenders=(*ch.defenders, ip.id)))


def remove_from_challenge_op(state: State, actor: object, op: Op, ed: Components) -> State:
    ch = state.challenge
    card = text(op, "card")
    require(ch is not None and card in ch.attackers + ch.defenders, "not_participating",
            M("{card} is not participating in a challenge", card=ed.name(card)))
    assert ch is not None
    return replace(state, challenge=replace(
        ch, attackers=tuple(a for a in ch.attackers if a != card),
        defenders=tuple(d for d in ch.defenders if d != card),
        stealth=tuple(p for p in ch.stealth if card not in p)))


# ---------------------------------------------------------------------------
# Power and gold
# ---------------------------------------------------------------------------


def _power_target(state: State, op: Op, key: str, ed: Components) -> str:
    """A power holder: a card in play or a House card, written one way ("house:1")."""
    target = text(op, key)
    seat = house_target(state, target, ed)
    if seat is None:
        in_play(state, target, ed)
        return target
    return f"house:{seat}"


def gain_power_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return add_power(state, _power_target(state, op, "target", ed), amount(op), ed)


def lose_power_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return add_power(state, _power_target(state, op, "target", ed), -amount(op), ed)


def move_power_op(state: State, actor: object, op: Op, ed: Components) -> State:
    source = _power_target(state, op, "from", ed)
    target = _power_target(state, op, "to", ed)
    # §9 move_power takes power from one holder to another; a move onto the holder it
    # comes from would be recorded as a move while nothing moves (issue #19.4)
    require(source != target, "same_source_and_target",
            M("power moves between two holders (§9 move power); {card} cannot give power to "
              "itself", card=thing(state, source, ed)))
    moved = amount(op)
    return add_power(add_power(state, source, -moved, ed), target, moved, ed)


def gain_gold_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    return state.with_player(seat, gold=state.players[seat].gold + amount(op))


def _pay(state: State, seat: int, gold_due: int) -> State:
    gold = state.players[seat].gold
    require(gold >= gold_due, "not_enough_gold",
            M("not enough gold: {player} has {gold}, needs {gold_due}", player=who(state, seat),
              gold=gold, gold_due=gold_due))
    return state.with_player(seat, gold=gold - gold_due)


def pay_gold_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return _pay(state, op_seat(state, op), amount(op))


def give_gold_op(state: State, actor: object, op: Op, ed: Components) -> State:
    giver, taker, given = op_seat(state, op, "from"), op_seat(state, op, "to"), amount(op)
    # §9 give_gold passes gold from one player to another (issue #19.4, as move_power)
    require(giver != taker, "same_source_and_target",
            M("gold is given to another player (§9 give gold); {player} cannot give gold to "
              "themself", player=who(state, giver)))
    state = _pay(state, giver, given)
    return state.with_player(taker, gold=state.players[taker].gold + given)


# ---------------------------------------------------------------------------
# Plots and this round's challenges
# ---------------------------------------------------------------------------


def reveal_new_plot_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    plot = text(op, "plot")
    source = plot_source(state, seat)
    player = state.players[seat]
    require(plot in state.players[source].plot_deck, "plot_not_available",
            M("{card} is not in {whose} plot deck", card=thing(state, plot, ed),
              whose=whose(state, source)))
    state = state.with_player(source, plot_deck=state.players[source].plot_deck.take([plot]))
    if player.revealed_plot:
        owner = owner_of(player.revealed_plot)
        state = state.with_player(owner, used_plots=(*state.players[owner].used_plots,
                                                     player.revealed_plot))
    state = state.with_player(seat, revealed_plot=plot)
    if state.phase == "plot" and state.step in ("choose", "tie", "first_player"):
        return settle_initiative(state, ed) if state.step != "choose" else state
    # ruling 32: revealed later, its when-revealed ability resolves now (apply/revealed.py)
    if state.when_revealed and seat not in state.revealing and any(
            a.kind == "when_revealed" for a in ed.card(plot).abilities):
        state = replace(state, revealing=(*state.revealing, seat))
    return state


def modify_plot_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    field = text(op, "field")
    require(field in ("income", "initiative", "claim"), "bad_op",
            M("a plot value is income, initiative or claim, not \"{field}\"", field=field))
    has_delta, has_set = op.get("delta") is not None, op.get("set") is not None
    require(has_delta != has_set, "bad_op",
            M("a plot change either adds (delta) or sets (set) a value, exactly one of them"))
    value = integer(op, "delta") if has_delta else amount(op, "set")
    lasts = text(op, "until", "round")
    require(lasts in ("challenge", "round"), "bad_op",
            M("a plot change lasts until the end of the challenge or the round, not \"{lasts}\"",
              lasts=lasts))
    require(lasts != "challenge" or state.challenge is not None, "no_open_challenge",
            M("a change until the end of the challenge needs an open challenge"))
    entry = (seat, field, "delta" if has_delta else "set", value, lasts)
    return replace(state, plot_mods=(*state.plot_mods, entry))


def suppress_income_bonuses_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return replace(state, suppress_income=state.suppress_income | set(seats(state, op)))


def forbid_challenge_op(state: State, actor: object, op: Op, ed: Components) -> State:
    a, b = seats(state, op, size=2)
    kind = text(op, "type")
    require(kind in TYPES, "bad_op",
            M("a challenge is military, intrigue or power, not \"{kind}\"", kind=kind))
    return replace(state, forbids=(*state.forbids, (a, b, kind)))


def extra_challenge_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    kind = text(op, "type")
    require(kind in TYPES, "bad_op",
            M("a challenge is military, intrigue or power, not \"{kind}\"", kind=kind))
    extra = list(state.players[seat].extra)
    extra[TYPES.index(kind)] += 1
    return state.with_player(seat, extra=tuple(extra))


def skip_taxation_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return replace(state, skip_taxation=state.skip_taxation | {op_seat(state, op)})


def swap_plot_decks_op(state: State, actor: object, op: Op, ed: Components) -> State:
    require(state.is_melee, "melee_only", M("plot decks are swapped only in a melee"))
    a, b = seats(state, op, size=2)
    return replace(state, swaps=(*state.swaps, (a, b)))


def cost_reduction_op(state: State, actor: object, op: Op, ed: Components) -> State:
    seat = op_seat(state, op)
    red = Reduction(amount(op), card_filter(op))
    return state.with_player(seat, reductions=(*state.players[seat].reductions, red))


def note_op(state: State, actor: object, op: Op, ed: Components) -> State:
    return state

