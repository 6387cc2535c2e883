"""Start of the game and setup (§5, §6.1-§6.4): houses and decks, mulligans, the face-down
setup cards and their reveal, the setup draw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...messages import M, Mn, Seq
from ...rules import Action, Bag, IllegalAction, replace, require
from ..edition import Card, CardId, Components, Seat, instance_ids
from ..state import InPlay, OptionValue, Player, State, next_after
from ..words import OPTIONS, a_card_type, words
from .guards import per_seat, require_turn, seat_of, str_list, take, thing, who, whose
from .rounds import begin_plot_phase, take_draws
from .values import check_house_only, surcharge
from .victory import rule

Deck = tuple[int, list[int], list[int]]  # (house card, plots, draw deck) as card numbers


def setting(value: object) -> str:
    """An option's value in words: "on", "off", "3", "participating characters"."""
    if value is None or value is False:
        return M("off")
    if value is True:
        return M("on")
    return OPTIONS.get(str(value), words(str(value)))


@rule
def apply_start_game(state: State, action: Action, ed: Components) -> State:
    """§6.1: the table seats each player with a House and a deck and deals the setup hands."""
    require(action.actor == "table", "not_your_turn", M("the table starts the game"))
    require(state.phase == "start", "already_started", M("the game has already started"))
    data = action.data
    houses = start_houses(state, data["players"], ed)
    _check_options(state, data.get("options") or {})
    decks = data.get("decks") or {}
    require(bool(decks) or len(set(houses)) == len(houses), "duplicate_house",
            M("without custom decks every player needs a House of their own; got {houses}",
              houses=Seq(houses)))
    first = data.get("setup_first")
    require(isinstance(first, int) and 0 <= first < state.n, "bad_setup_first",
            M("the player who sets up first must be one of the {n} players", n=state.n))
    lists = [deck_for(seat, house, per_seat(decks, seat), ed)
             for seat, house in enumerate(houses)]
    players = tuple(_dealt_player(state, seat, house, deck, data.get("setup_hands"), ed)
                    for seat, (house, deck) in enumerate(zip(houses, lists, strict=True)))
    return replace(state, players=players, phase="setup", setup_first=first, turn=first,
                   titles=(None,) * state.n)


def _check_options(state: State, options: Mapping[str, OptionValue]) -> None:
    for key, value in options.items():
        require(state.option(key) == value, "option_mismatch",
                M("the game was created with {option} {setting}, not {other}",
                  option=OPTIONS.get(key, words(key)), setting=setting(state.option(key)),
                  other=setting(value)), option=key)


def _dealt_player(state: State, seat: Seat, house: str, deck: Deck, hands: Any,
                  ed: Components) -> Player:
    """A player at the start: the setup hand dealt from the draw deck, the plot deck."""
    _, plots, draw = deck
    ids = instance_ids(seat, [*draw, *plots])
    cards, plot_ids = ids[:len(draw)], ids[len(draw):]
    hand = str_list(per_seat(hands, seat) or [], "setup_hands")
    need = min(ed.constants.setup_hand_size, len(cards))
    require(len(hand) == need and len(set(hand)) == need, "bad_setup_hand",
            Mn("{whose} setup hand needs {count} distinct card, got {got}",
               "{whose} setup hand needs {count} distinct cards, got {got}", need,
               whose=whose(state, seat), got=len(hand)))
    rest = take(state, Bag(cards), hand, M("{whose} deck", whose=whose(state, seat)), ed)
    return Player(house=house, deck=rest, hand=Bag(hand), plot_deck=Bag(plot_ids))


def start_houses(state: State, entries: Sequence[Mapping[str, Any]], ed: Components
                 ) -> list[str]:
    """Each seat's House from start_game's `players` (§6.1), refused unless every seat is
    listed once with a House of this set."""
    require(len(entries) == state.n, "player_count_mismatch",
            M("the game was created for {n} players; start_game lists {count}", n=state.n,
              count=len(entries)))
    houses: list[str | None] = [None] * state.n
    for entry in entries:
        seat, house = entry.get("seat"), entry.get("house")
        if not (isinstance(seat, int) and 0 <= seat < state.n):
            raise IllegalAction("bad_seat",
                                M("each player needs a seat from 0 to {value}, not {seat}",
                                  value=state.n - 1, seat=seat))
        require(houses[seat] is None, "bad_seat", M("{player} is listed twice",
                                                    player=who(state, seat)))
        require(house in ed.house_ids, "unknown_house",
                M("\"{house}\" is not a House of this set ({houses})", house=house,
                  houses=Seq(ed.house_names.get(h, h) for h in ed.house_ids)))
        name = entry.get("name")
        require(name is None or name == state.names[seat], "player_name_mismatch",
                M("this seat is {names} in the created game, not {name}",
                  names=state.names[seat], name=name))
        houses[seat] = str(house)
    return [h for h in houses if h is not None]


def deck_for(seat: Seat, house: str, custom: Any, ed: Components) -> Deck:
    """(house card, plots, draw deck) of a starter or validated custom deck (§2.3)."""
    if custom is None:
        require(house in ed.starter, "no_starter_deck",
                M("House {house} has no starter deck in this box; supply a custom deck",
                  house=house))
        deck = ed.starter[house]
        return deck.house_card, list(deck.plots), list(deck.draw_deck)
    try:
        house_card = int(custom["house_card"])
        plots = [int(x) for x in custom["plots"]]
        draw = [int(x) for x in custom["draw_deck"]]
    except (KeyError, TypeError, ValueError):
        raise IllegalAction("bad_deck", M("a custom deck for House {house} lists its House "
                                          "card, plots and draw deck as card numbers",
                                          house=house)) from None
    _check_custom_deck(house, house_card, plots, draw, ed)
    return house_card, plots, draw


def _check_custom_deck(house: str, house_card: int, plots: list[int], draw: list[int],
                       ed: Components) -> None:
    """§2.3: the House's own House card, the plot count, no other House's plots, a draw
    deck of cards that can be played."""
    for num in [house_card, *plots, *draw]:
        require(num in ed.by_number, "unknown_card", M("card number {num} is not in the set",
                                                       num=num))
    own = ed.house_ids[house]
    require(house_card == own, "bad_deck",
            M("House {house}'s deck needs its own House card, {name} (number {own})",
              house=house, name=ed.by_number[own].name, own=own))
    size = ed.constants.plot_deck_size
    require(len(plots) == size and all(ed.by_number[p].type == "plot" for p in plots),
            "bad_deck", M("a deck needs exactly {size} plots; House {house}'s deck has "
                          "{count}", size=size, house=house, count=len(plots)))
    require(all(ed.by_number[p].house_only in (None, house) for p in plots),
            "bad_deck", M("House {house}'s plots include one restricted to another House",
                          house=house))
    require(bool(draw) and all(ed.by_number[d].type in
                               ("character", "location", "attachment", "event")
                               for d in draw), "bad_deck",
            M("House {house}'s draw deck needs at least one card, and only characters, "
              "locations, attachments and events", house=house))


# ---------------------------------------------------------------------------
# Mulligan, setup (§5, §6.2-§6.4)
# ---------------------------------------------------------------------------


@rule
def apply_mulligan(state: State, action: Action, ed: Components) -> State:
    """§6.2 (option): a player takes a new setup hand once, before setting up."""
    seat = seat_of(state, action)
    require(bool(state.option("allow_mulligan")), "mulligan_off",
            M("mulligans are off in this game (option: mulligan allowed)"))
    player = state.players[seat]
    require(state.phase == "setup" and not player.set_up and not player.mulliganed,
            "wrong_phase", M("a mulligan is allowed once, before the player sets up"))
    pool = player.deck.add(player.hand)
    new = str_list(action.data.get("new_hand") or [], "new_hand")
    need = min(ed.constants.setup_hand_size, len(pool))
    require(len(new) == need and len(set(new)) == need, "bad_setup_hand",
            Mn("a new hand holds {count} distinct card, got {got}",
               "a new hand holds {count} distinct cards, got {got}", need, got=len(new)))
    deck = take(state, pool, new, M("{whose} deck", whose=whose(state, seat)), ed)
    return state.with_player(seat, deck=deck, hand=Bag(new), mulliganed=True)


@rule
def apply_setup_cards(state: State, action: Action, ed: Components) -> State:
    """§5.3, §6.3: the player whose turn it is places setup cards face down; the last reveals
    all."""
    require(state.phase == "setup", "wrong_phase", M("setup is over"))
    require_turn(state, action, state.turn, M("set up"))
    assert state.turn is not None
    seat, player = state.turn, state.players[state.turn]
    entries = [(e.get("card"), e.get("attach_to")) for e in action.data["cards"]]
    cards = [c for c, _ in entries]
    check_setup(state, seat, entries, ed)
    hand = take(state, player.hand, cards, M("{whose} hand", whose=whose(state, seat)), ed,
                "card_not_in_hand")
    state = state.with_player(seat, hand=hand, setup_cards=tuple(entries), set_up=True)
    nxt = next_after(state, seat, state.setup_first)
    if nxt is not None:
        return replace(state, turn=nxt)
    return reveal_setup(state)


def check_setup(state: State, seat: Seat, entries: list[tuple[object, object]],
                ed: Components) -> None:
    """§5.3 / §6.3: what may be placed face down at setup."""
    player = state.players[seat]
    cards = [c for c, _ in entries]
    require(len(set(cards)) == len(cards), "duplicate_card", M("a card is listed twice"))
    total, limited, names = 0, 0, set()
    for card, attach in entries:
        require(ed.is_known(card) and card in player.hand, "card_not_in_hand",
                M("{card} is not in {whose} hand", card=thing(state, card, ed),
                  whose=whose(state, seat)), card=card)
        assert isinstance(card, str)
        data = _setup_card(state, seat, card, attach, ed)
        total += data.cost + surcharge(data, player.house, ed)
        limited += "limited" in data.keywords
        if data.unique:
            require(data.name not in names, "unique_twice",
                    M("two copies of unique {name} in setup", name=data.name), card=card)
            names.add(data.name)
    gold = ed.constants.setup_gold
    require(total <= gold, "setup_over_gold",
            M("setup may cost at most {gold} gold; these cards cost {total}", gold=gold,
              total=total), total=total)
    most = ed.constants.setup_max_limited
    require(limited <= most, "setup_two_limited",
            Mn("setup may hold at most {count} limited card; these hold {limited}",
               "setup may hold at most {count} limited cards; these hold {limited}", most,
               limited=limited))


def _setup_card(state: State, seat: Seat, card: CardId, attach: object, ed: Components
                ) -> Card:
    """One card placed at setup: a character or location (or a card with the setup
    keyword), on nothing or, if it may, its owner's House card."""
    data = ed.card(card)
    setup_ok = data.type in ("character", "location") or "setup" in data.keywords
    require(setup_ok, "setup_card_type", M("{name} is {type}; setup takes characters and "
                                           "locations only", name=data.name,
                                           type=a_card_type(data.type)), card=card)
    require(attach is None or (attach == "house" and data.may_attach_to_own_house_card),
            "illegal_attachment_target", M("{name} cannot attach to {card} in setup",
                                           name=data.name, card=thing(state, attach, ed)))
    check_house_only(state, seat, card, ed)
    return data


def reveal_setup(state: State) -> State:
    """§5.4: every face-down card enters play standing, all at once."""
    cards = list(state.cards)
    players = list(state.players)
    for seat, player in enumerate(players):
        for card, attach in player.setup_cards:
            cards.append(InPlay(id=card, controller=seat,
                                host=f"house:{seat}" if attach else None))
        players[seat] = replace(player, setup_cards=())
    return replace(state, cards=tuple(cards), players=tuple(players), phase="setup_draw",
                   turn=None)


def setup_draw_counts(state: State, ed: Components) -> dict[Seat, int]:
    """§6.4: each player draws up to the setup hand size again."""
    size = ed.constants.setup_hand_size
    return {s: min(max(0, size - len(state.players[s].hand)), len(state.players[s].deck))
            for s in state.active}


@rule
def apply_setup_draw(state: State, action: Action, ed: Components) -> State:
    """§6.4: the table deals each player back up to the setup hand size; the first round begins."""
    require(action.actor == "table", "not_your_turn", M("the table deals the setup draw"))
    require(state.phase == "setup_draw", "wrong_phase", M("the setup draw comes after setup"))
    state = take_draws(state, action.data.get("draws"), setup_draw_counts(state, ed), ed)
    return begin_plot_phase(state)
