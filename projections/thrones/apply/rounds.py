"""The round (§7): plots and initiative, titles, the draw phase, marshalling, dominance,
standing and taxation."""

from __future__ import annotations

from typing import Any

from ...messages import M, Mn, Seq
from ...rules import Action, Bag, replace, require
from ..edition import CardId, Components, PlotValues, Seat, owner_of
from ..state import InPlay, State, next_after, order
from ..words import A_TYPE_CARD, a_an
from .guards import per_seat, require_turn, seat_of, str_list, take, thing, who, whose
from .marks import pay_named_plots
from .pins import check_taken
from .values import (
    check_host,
    check_house_only,
    check_unique,
    controls_name,
    marshal_cost,
    play_index,
    strength,
    total_power,
)
from .victory import rule
from .zones import gain_house_power


def set_phase(state: State, phase: str) -> State:
    """Enter `phase`; "until end of phase" modifiers, reductions and extras expire."""
    players = tuple(replace(p, reductions=(), extra=(0, 0, 0)) for p in state.players)
    mods = tuple(m for m in state.modifiers if m.until != "phase")
    return replace(state, phase=phase, players=players, modifiers=mods)


def take_draws(state: State, draws: Any, counts: dict[Seat, int], ed: Components) -> State:
    """Each seat draws exactly its count, the cards named in `draws` (setup draw, §6.4, and
    the draw phase, §7.2); a seat that does not draw now may not be named."""
    for seat, need in counts.items():
        cards = str_list(per_seat(draws, seat) or [],
                         M("the draw of {player}", player=who(state, seat)))
        require(len(cards) == need and len(set(cards)) == need, "wrong_draw_count",
                Mn("{player} draws exactly {count} card, not {got}",
                   "{player} draws exactly {count} cards, not {got}", need,
                   player=who(state, seat), got=len(cards)), seat=seat)
        player = state.players[seat]
        check_taken(state, seat, cards)  # card ruling L12
        deck = take(state, player.deck, cards, M("{whose} deck", whose=whose(state, seat)), ed)
        state = state.with_player(seat, deck=deck, hand=player.hand.add(cards))
    for key in draws or {}:
        require(str(key) in {str(s) for s in counts}, "wrong_draw_count",
                M("{value} does not draw now",
                  value=who(state, int(key)) if str(key).isdigit() else key))
    return state


# ---------------------------------------------------------------------------
# Plot phase (§7.1)
# ---------------------------------------------------------------------------


def begin_plot_phase(state: State) -> State:
    """A new round: a used-up plot deck returns, plots are chosen again."""
    players = list(state.players)
    for seat, p in enumerate(players):
        if not p.conceded and not p.plot_deck:
            players[seat] = replace(p, plot_deck=Bag(p.used_plots), used_plots=())
    return replace(state, players=tuple(players), phase="plot", step="choose",
                   round=state.round + 1, first_player=None, turn=None,
                   initiative_winner=None, tied=(), dominance_done=False)


def plot_source(state: State, seat: Seat) -> Seat:
    """Whose plot deck `seat` chooses from (§9 swap_plot_decks)."""
    for a, b in state.swaps:
        if seat == a:
            return b
        if seat == b:
            return a
    return seat


@rule
def apply_choose_plot(state: State, action: Action, ed: Components) -> State:
    """§6.5, §7.1: each player chooses a plot face down; when all have, they are revealed."""
    seat = seat_of(state, action)
    require(state.phase == "plot" and state.step == "choose", "wrong_phase",
            M("plots are chosen at the start of the plot phase"))
    require(state.players[seat].chosen_plot is None, "already_chosen",
            M("{player} has already chosen a plot this round", player=who(state, seat)))
    plot = action.data["plot"]
    source = plot_source(state, seat)
    require(plot in state.players[source].plot_deck, "plot_not_available",
            M("{card} is not in {whose} plot deck", card=thing(state, plot, ed),
              whose=whose(state, source)),
            card=plot)
    only = ed.card(plot).house_only
    require(not only or only == state.players[seat].house, "house_only",
            M("plot is restricted to another House: {card} is House {only} only",
              card=ed.name(plot), only=only))
    state = state.with_player(seat, chosen_plot=plot)
    if all(state.players[s].chosen_plot for s in state.active):
        return reveal_plots(state, ed)
    return state


def reveal_plots(state: State, ed: Components) -> State:
    """§7.1: every chosen plot is revealed at once; Dragonstone Port's named plots pay
    (card ruling B20); then initiative is settled."""
    for seat in state.active:
        plot = state.players[seat].chosen_plot
        assert plot is not None
        owner = owner_of(plot)
        state = state.with_player(owner, plot_deck=state.players[owner].plot_deck.take(
            [plot]))
        state = state.with_player(seat, revealed_plot=plot, chosen_plot=None)
    return settle_initiative(pay_named_plots(state, ed), ed)  # Dragonstone Port first


def plot_value(state: State, seat: Seat, field: str, ed: Components) -> int:
    """A revealed plot's income, initiative or claim, as effects changed it (§9)."""
    plot = state.players[seat].revealed_plot
    value = _printed_plot(plot, ed).get(field) if plot else 0
    for who_, fld, mode, amount, _ in state.plot_mods:
        if who_ == seat and fld == field:
            value = amount if mode == "set" else value + amount
    return max(0, value)


def _printed_plot(plot: CardId, ed: Components) -> PlotValues:
    values = ed.card(plot).plot
    if values is None:
        raise KeyError("plot")
    return values


def _initiative(state: State, seat: Seat, ed: Components) -> int:
    bonus = sum(ed.card(c.id).initiative_bonus for c in state.cards if c.controller == seat)
    return plot_value(state, seat, "initiative", ed) + bonus


def settle_initiative(state: State, ed: Components) -> State:
    """§7.1.4: highest initiative, then lowest total power, then a random tie-break."""
    seats = state.active
    best = max(_initiative(state, s, ed) for s in seats)
    tied = [s for s in seats if _initiative(state, s, ed) == best]
    low = min(total_power(state, s) for s in tied)
    tied = [s for s in tied if total_power(state, s) == low]
    if len(tied) > 1:
        return replace(state, step="tie", tied=tuple(tied), initiative_winner=None)
    return replace(state, step="first_player", tied=(), initiative_winner=tied[0])


@rule
def apply_break_initiative_tie(state: State, action: Action, ed: Components) -> State:
    """§6.6: the table's random pick among the players tied for initiative."""
    require(action.actor == "table", "not_your_turn", M("the table breaks an initiative tie"))
    require(state.phase == "plot" and state.step == "tie", "wrong_phase",
            M("no initiative tie is waiting to be broken"))
    winner = action.data.get("winner")
    require(winner in state.tied, "not_tied",
            M("{player} is not tied for initiative; the tie is between {players}",
              player=who(state, winner),
              players=Seq(who(state, s) for s in state.tied)), winner=winner)
    return replace(state, step="first_player", tied=(), initiative_winner=winner)


@rule
def apply_choose_title(state: State, action: Action, ed: Components) -> State:
    """§6.8: in turn from the first player, each player takes a title not yet taken."""
    require(state.phase == "plot" and state.step == "titles", "wrong_phase",
            M("titles are chosen after the first player, in a melee"))
    require_turn(state, action, state.turn, M("choose a title"))
    seat = state.turn
    assert seat is not None
    title = action.data["title"]
    require(title in ed.titles, "unknown_title", M("\"{title}\" is not a title", title=title))
    require(title not in state.titles, "title_taken",
            M("{name} is already taken this round", name=ed.titles[title].name))
    state = replace(state, titles=(*state.titles[:seat], title, *state.titles[seat + 1:]))
    nxt = next_after(state, seat)
    return replace(state, turn=nxt) if nxt is not None else begin_draw_phase(state)


# ---------------------------------------------------------------------------
# Draw and marshalling (§7.2, §7.3, §6.10, §6.11)
# ---------------------------------------------------------------------------


def begin_draw_phase(state: State) -> State:
    """§7.2: the draw phase, which the table deals."""
    return set_phase(replace(state, turn=None, step=""), "draw")


def draw_counts(state: State, ed: Components) -> dict[Seat, int]:
    """§7.2: each player draws two cards, the Master of Laws one more."""
    base = ed.constants.draw_phase_cards
    return {s: min(base + (state.titles[s] == "master_of_laws"),
                   len(state.players[s].deck)) for s in state.active}


@rule
def apply_draw_phase(state: State, action: Action, ed: Components) -> State:
    """§6.9, §7.2: every player draws; marshalling begins with the first player's income."""
    require(action.actor == "table", "not_your_turn", M("the table deals the draw phase"))
    require(state.phase == "draw", "wrong_phase", M("it is not the draw phase"))
    state = take_draws(state, action.data.get("draws"), draw_counts(state, ed), ed)
    state = set_phase(state, "marshalling")
    return begin_marshal_turn(state, order(state)[0], ed)


def _income(state: State, seat: Seat, ed: Components) -> int:
    total = plot_value(state, seat, "income", ed)
    if seat not in state.suppress_income:
        total += sum(ed.card(c.id).income_bonus for c in state.cards if c.controller == seat)
    if state.titles and state.titles[seat] == "master_of_coin":
        amount = ed.titles["master_of_coin"].amount
        if amount is None:
            raise KeyError("amount")
        total += amount
    return total


def begin_marshal_turn(state: State, seat: Seat, ed: Components) -> State:
    """§7.3: a player's marshalling turn starts with the income of their plot and cards."""
    return replace(state.with_player(seat, gold=state.players[seat].gold +
                                     _income(state, seat, ed)), turn=seat)


@rule
def apply_marshal_card(state: State, action: Action, ed: Components) -> State:
    """§7.3, §6.10: the player whose turn it is pays for a card from the hand and puts it into
    play."""
    require(state.phase == "marshalling", "wrong_phase", M("it is not the marshalling phase"))
    require_turn(state, action, state.turn, M("marshal"))
    assert state.turn is not None
    seat, data = state.turn, action.data
    card = data["card"]
    player = state.players[seat]
    require(ed.is_known(card) and card in player.hand, "card_not_in_hand",
            M("{card} is not in {whose} hand", card=thing(state, card, ed),
              whose=whose(state, seat)), card=card)
    kind = ed.card(card).type
    require(kind in ("character", "location", "attachment"), "not_marshallable",
            M("{card} is {type} and cannot be marshalled (§6.10)", card=ed.name(card),
              type=A_TYPE_CARD.get(kind) or f"{a_an(kind)} card"))
    check_house_only(state, seat, card, ed)
    if data.get("as_duplicate"):
        return _marshal_duplicate(state, seat, card, data, ed)
    return _marshal_normal(state, seat, card, data, ed)


def _marshal_duplicate(state: State, seat: Seat, card: CardId, data: Any, ed: Components
                       ) -> State:
    name = ed.name(card)
    base = controls_name(state, seat, name, ed) if ed.card(card).unique else None
    require(base is not None, "no_duplicate_base",
            M("a duplicate needs a unique card of the same name in play; {player} controls "
              "no {name}", player=who(state, seat), name=name), card=card)
    require(data.get("declared_cost") in (None, 0), "cost_mismatch",
            M("cost mismatch (expected 0): duplicates cost 0"))
    assert base is not None
    cards = tuple(replace(c, duplicates=(*c.duplicates, card)) if c.id == base.id else c
                  for c in state.cards)
    player = state.players[seat]
    return replace(state.with_player(seat, hand=player.hand.take([card])), cards=cards)


def _marshal_normal(state: State, seat: Seat, card: CardId, data: Any, ed: Components
                    ) -> State:
    player = state.players[seat]
    check_unique(state, seat, card, ed)
    limited = "limited" in ed.card(card).keywords
    require(not (limited and player.limited_played), "limited_per_round",
            M("only one limited card per round; {player} already marshalled one",
              player=who(state, seat)),
            card=card)
    host = _marshal_host(state, seat, card, data.get("attach_to"), ed)
    cost, used = marshal_cost(state, seat, card, ed)
    require(cost <= player.gold, "not_enough_gold",
            M("not enough gold: {card} costs {cost}, {player} has {gold}", card=ed.name(card),
              cost=cost, player=who(state, seat), gold=player.gold), cost=cost, gold=player.gold)
    declared = data.get("declared_cost")
    require(declared is None or declared == cost, "cost_mismatch",
            M("cost mismatch (expected {cost}), declared {declared}", cost=cost,
              declared=declared), expected=cost)
    reductions = tuple(r for i, r in enumerate(player.reductions) if i not in used)
    state = state.with_player(seat, hand=player.hand.take([card]), gold=player.gold - cost,
                              reductions=reductions,
                              limited_played=player.limited_played or limited)
    return replace(state, cards=(*state.cards, InPlay(id=card, controller=seat, host=host)))


def _marshal_host(state: State, seat: Seat, card: CardId, host: Any, ed: Components
                  ) -> str | None:
    """Where a marshalled card goes: an attachment onto a legal host (§6.14)."""
    if ed.card(card).type == "attachment" or host is not None:
        require(host is not None, "illegal_attachment_target",
                M("illegal attachment target: {card} needs a character to attach to",
                  card=ed.name(card)))
        check_host(state, seat, card, host, ed)
        return f"house:{seat}" if host == "house" else str(host)
    return None


@rule
def apply_end_marshalling(state: State, action: Action, ed: Components) -> State:
    """§6.11: the player is done marshalling; the next one's turn, or the challenges phase."""
    require(state.phase == "marshalling", "wrong_phase", M("it is not the marshalling phase"))
    require_turn(state, action, state.turn, M("end marshalling"))
    assert state.turn is not None
    nxt = next_after(state, state.turn)
    if nxt is not None:
        return begin_marshal_turn(state, nxt, ed)
    state = set_phase(state, "challenges")
    return replace(state, turn=order(state)[0], passed=frozenset())


# ---------------------------------------------------------------------------
# Dominance, standing, taxation (§7.5, §7.6)
# ---------------------------------------------------------------------------


def dominance_total(state: State, seat: Seat, ed: Components) -> int:
    """§7.5: the STR of a player's standing characters plus their gold."""
    index = play_index(state)
    str_sum = sum(strength(state, c.id, ed, index) for c in state.cards
                  if c.controller == seat and c.host is None and not c.knelt
                  and ed.is_character(c.id))
    return str_sum + state.players[seat].gold


@rule
def apply_resolve_dominance(state: State, action: Action, ed: Components) -> State:
    """§7.5: the single highest total of standing STR and gold gains power."""
    require(action.actor == "table", "not_your_turn", M("the table resolves dominance"))
    require(state.phase == "dominance" and not state.dominance_done, "wrong_phase",
            M("dominance is resolved once, in the dominance phase"))
    winner, _ = dominance_outcome(state, ed)
    state = replace(state, dominance_done=True)
    if winner is not None:
        state = gain_house_power(state, winner, ed.constants.dominance_power)
    return state


def dominance_outcome(state: State, ed: Components) -> tuple[Seat | None, dict[Seat, int]]:
    """§7.5: (the single highest total's seat, or None on a tie, every active seat's total)."""
    totals = {s: dominance_total(state, s, ed) for s in state.active}
    best = max(totals.values())
    winners = [s for s, t in totals.items() if t == best]
    return (winners[0] if len(winners) == 1 else None), totals  # a tie gains nothing (seed)


def check_end_round(state: State, action: Action) -> None:
    """§7.6: the table ends the round after dominance (or once the standing phase's
    abilities are answered: apply/standing.py)."""
    require(action.actor == "table", "not_your_turn", M("the table ends the round"))
    require((state.phase == "dominance" and state.dominance_done) or
            state.phase == "standing", "wrong_phase",
            M("the round ends after dominance is resolved"))


def finish_round(state: State) -> State:
    """§7.6 from standing on: cards stand, gold is taxed, this round's effects end."""
    state = replace(_stand_and_tax(state), modifiers=tuple(
        m for m in state.modifiers if m.until not in ("round", "phase", "challenge")),
        titles=(None,) * state.n, title_uses=frozenset(), forbids=(),
        suppress_income=frozenset(), skip_taxation=frozenset(), swaps=(), plot_mods=(),
        passed=frozenset())
    return begin_plot_phase(set_phase(state, "plot"))


def _stand_and_tax(state: State) -> State:
    """§7.6: cards stand (unless an effect says not), gold returns to the treasury, the
    revealed plots are used."""
    no_stand = {m.card for m in state.modifiers if m.kind == "no_stand"}
    cards = tuple(replace(c, knelt=c.knelt and c.id in no_stand) for c in state.cards)
    players = list(state.players)
    for seat, p in enumerate(players):
        gold = p.gold if seat in state.skip_taxation else 0
        players[seat] = replace(p, gold=gold, house_knelt=p.house_knelt and
                                f"house:{seat}" in no_stand, revealed_plot=None, used=(0, 0, 0),
                                power_defenders=(), limited_played=False,
                                draws_this_round=0)
    for p in state.players:
        if p.revealed_plot:
            owner = owner_of(p.revealed_plot)
            players[owner] = replace(players[owner], used_plots=(
                *players[owner].used_plots, p.revealed_plot))
    return replace(state, cards=cards, players=tuple(players))
