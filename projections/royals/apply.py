"""Royals: one function per action type, each checking its rules then building the next state.

Spec: docs/games/royals.md §3 (setup), §5 (a turn), §6 (automatic consequences). The
unknown-type and game-over refusals come before any of these (`GameRules.admissible`).
The draws and the refill are also run by `chance.py`, with a `Pick` that deals or traces
the cards instead of reading the ones named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..messages import M, Message, Mn, Ordinal, Seq
from ..rules import (
    Action,
    Bag,
    IllegalAction,
    possessive,
    replace,
    require,
    seat_name,
    thaw,
    with_item,
)
from . import scoring, words
from .edition import Components, Portrait, intrigue_id, intrigue_pair
from .state import AWAITING_SETUP, DRAW, OVER, PLAY, Seat, State

#: picks one card from a pile (a Counter of card ids): the named card, a dealt one, a trace
Pick = Callable[[Counter[str]], str]
Entry = tuple[str, str, Any]  # (kind, source, card) of one draw


# ---------------------------------------------------------------------------
# Setup (spec §3)
# ---------------------------------------------------------------------------


def apply_setup(state: State, action: Action, components: Components) -> State:
    """Colours, the start player and the display (spec §3 steps 5-7); then the first draw."""
    require(action.actor == "table", "not_your_turn",
            lambda: M("The table makes the setup, not {actor}", actor=_who(state, action.actor)))
    require(state.phase == AWAITING_SETUP, "already_set_up",
            lambda: M("The game is already set up"))
    data = action.data
    _check_setup_repeats(state, data)
    colours = _check_colours(state, data.get("colours"), components)
    raw = data.get("start_player")
    given = M("none was named") if raw is None else M("not {value}", value=words.shown(raw))
    require(isinstance(raw, int) and not isinstance(raw, bool)
            and 0 <= raw < state.players, "bad_start_player",
            lambda: M("The start player is one of the {players} players (a seat from 0 to {last}); "
              "{given}", players=state.players, last=state.players - 1, given=given))
    start = raw if isinstance(raw, int) else 0  # checked just above
    display = _country_list(data.get("display") or (), components)
    size = components.display_size
    require(len(display) == size, "wrong_display_size",
            lambda: M("The setup turns {cards} face up for the display; {named}",
              cards=Mn("{count} card", "{count} cards", size),
              named=Mn("{count} card was named", "{count} cards were named", len(display))))
    deck = _take(state.deck, display, "not_available", M("the prepared deck"), components)
    return replace(state, phase=DRAW, colours=colours, start_player=start, current=start,
                   supply=tuple(components.cube_counts[c] for c in colours), deck=deck,
                   display=Bag(display))


def _check_setup_repeats(state: State, data: Mapping[str, Any]) -> None:
    """Ruling R7: a setup that repeats the player count or the variant must agree."""
    players = data.get("players")
    require(players is None or players == state.players, "setup_disagrees",
            lambda: M("The setup says {given} players but the game was created for {players}",
              given=words.shown(players), players=state.players))
    variant = (data.get("variants") or {}).get("period3_finish_round")
    on = {True: M("on"), False: M("off")}
    require(variant is None or bool(variant) == state.finish_round, "setup_disagrees",
            lambda: M("The setup turns the variant “{variant}” {setup}, but the game was "
                      "created with it {created}", variant=words.VOCABULARY["period3_finish_round"],
              setup=on[bool(variant)], created=on[state.finish_round]))


def _check_colours(state: State, given: Any, components: Components) -> tuple[str, ...]:
    """One cube colour each, all different; black and white with 2 players (spec §3)."""
    colours = tuple(given or ())
    require(len(colours) == state.players, "wrong_colours",
            lambda: Mn("Every player takes one colour: {count} colour needed, {given} given",
               "Every player takes one colour: {count} colours needed, {given} given",
               state.players, given=len(colours)))
    for colour in colours:
        require(colour in components.cube_counts, "unknown_colour",
                M("{colour} is not a cube colour; the colours are {colours}",
                  colour=words.shown(colour),
                  colours=Seq(words.colour_word(c) for c in components.cube_counts)),
                colour=colour)
    twice = sorted({str(c) for c in colours if colours.count(c) > 1})
    require(not twice, "duplicate_colour",
            lambda: Mn("Each player takes a different colour; {colours} is named more than once",
               "Each player takes a different colour; {colours} are named more than once",
               len(twice), colours=Seq(words.colour_word(c) for c in twice)))
    pair = components.two_player_colours
    require(state.players != 2 or set(colours) == set(pair), "two_player_colours",
            lambda: M("With 2 players the colours are {pair}, not {colours}",
              pair=Seq(words.colour_word(c) for c in pair),
              colours=Seq(words.colour_word(str(c)) for c in colours)))
    return tuple(str(c) for c in colours)


# ---------------------------------------------------------------------------
# Draw (spec §5.1)
# ---------------------------------------------------------------------------


def apply_draw_cards(state: State, action: Action, components: Components) -> State:
    """The turn's draw: from the display, the deck and the intrigue pile (spec §5.1)."""
    _require_turn(state, action, M("draw"))
    require(state.phase == DRAW, "already_drawn",
            lambda: M("{player} has already drawn this turn (§4: one draw per turn)",
              player=_who(state, action.actor)))
    entries = parse_draws(action.data)
    _check_draw_counts(state, entries, components)
    new_state, _ = run_draws(state, entries, None, components)
    return new_state


def parse_draws(data: Mapping[str, Any]) -> list[Entry]:
    """The draws of a draw_cards action as (kind, source, card), kinds and sources checked."""
    entries = []
    for draw in data.get("draws") or ():
        kind, source, card = draw.get("kind"), draw.get("source"), draw.get("card")
        if kind == "intrigue":
            entries.append(("intrigue", "pile", card))
            continue
        if kind != "country":
            raise IllegalAction("bad_draw", M("A card is drawn as a country card or an "
                                              "intrigue card, not as {kind}",
                                              kind=words.shown(kind)))
        if source not in ("display", "deck"):
            raise IllegalAction("bad_draw", M("A country card comes from the display or "
                                              "the deck, not from {source}",
                                              source=words.shown(source)))
        entries.append(("country", source, card))
    return entries


def allowed_draw_shapes(state: State, components: Components) -> set[tuple[int, int]]:
    """(country, intrigue) counts a draw may have now (spec §5.1); shorter only when cards
    run out (ruling R4: min(required, available) per option)."""
    country = len(state.deck) + len(state.discard) + len(state.display)
    intrigue = len(state.intrigue_deck) + len(state.intrigue_discard)
    if state.turn_no < state.players:
        wanted = components.first_round_draws(state.players)[state.turn_no]
        return {(min(wanted, country), 0)}
    return {(min(c, country), min(i, intrigue)) for c, i in components.draw_shapes}


def _check_draw_counts(state: State, entries: Sequence[Entry], components: Components) -> None:
    country = sum(1 for e in entries if e[0] == "country")
    intrigue = len(entries) - country
    shapes = allowed_draw_shapes(state, components)
    if (country, intrigue) in shapes:
        return
    who, drawn = _who(state, state.current), words.draw_counts(country, intrigue)
    if state.turn_no < state.players:
        (wanted, _), = shapes
        position = state.turn_no
        # review ruling 6: positions count from 0, "the 2nd player" counts from 1
        raise IllegalAction(
            "wrong_draw_count",
            M("In round 1 the player in position {position} (the {nth} player) draws exactly "
              "{wanted} (§5.1); {whose} draw has {drawn}", position=position,
              nth=Ordinal(position + 1), wanted=words.draw_counts(wanted, 0),
              whose=possessive(who), drawn=drawn), position=position)
    (c3, i3), (c1, i1) = components.draw_shapes
    raise IllegalAction(
        "wrong_draw_count",
        M("{player} draws {one}, or {other} (§5.1); this draw has {drawn}", player=who,
          one=words.draw_counts(c3, i3), other=words.draw_counts(c1, i1), drawn=drawn),
        country=country, intrigue=intrigue)


def run_draws(state: State, entries: Sequence[Entry], pick: Pick | None,
              components: Components) -> tuple[State, list[Entry]]:
    """Process the draws in order (spec §5.1); `pick` None means "the named card"."""
    piles, hand, intrigues, filled = _draw_all(state, entries, pick, components)
    seat = state.current
    return piles.into(state, phase=PLAY, hands=with_item(state.hands, seat, Bag(hand)),
                      intrigues=with_item(state.intrigues, seat, Bag(intrigues))), filled


def drawn_cards(state: State, entries: Sequence[Entry], pick: Pick,
                components: Components) -> list[Entry]:
    """The draws as `run_draws` makes them, without building the next state: a deal and
    its check need only the cards (the state follows when the event is applied)."""
    return _draw_all(state, entries, pick, components)[3]


def _draw_all(state: State, entries: Sequence[Entry], pick: Pick | None,
              components: Components
              ) -> tuple[Piles, Counter[str], Counter[str], list[Entry]]:
    piles = Piles(state)
    seat = state.current
    hand, intrigues = counter_of(state.hands[seat]), counter_of(state.intrigues[seat])
    filled: list[Entry] = []
    for kind, source, card in entries:
        if kind == "intrigue":
            got = piles.draw_intrigue(pick or _named_intrigue(card, components))
            if got is None:
                raise IllegalAction("not_available", M(
                    "No intrigue card is left to draw: the intrigue pile and its discards are "
                    "empty"))
            intrigues[got] += 1
        elif source == "display":
            got = _take_from_display(state, piles, card, components)
            hand[got] += 1
        else:
            got = piles.draw_country(pick or _named_country(card, components))
            if got is None:
                raise IllegalAction("deck_empty", M(
                    "The draw pile and the discard pile are empty: no card can be drawn from "
                    "the deck"))
            hand[got] += 1
        filled.append((kind, source, got))
    return piles, hand, intrigues, filled


def _take_from_display(state: State, piles: Piles, card: Any, components: Components) -> str:
    """A face-up card chosen from the display (spec §5.1): it must still be there."""
    got = _country(card, components)
    require(piles.display[got] > 0, "not_in_display",
            lambda: M("No {country} card is face up in the display any more",
              country=_cname(got, components)) if state.display.count(got) else
            M("No {country} card is face up in the display", country=_cname(got, components)),
            card=got)
    piles.display[got] -= 1
    return got


def _named_country(card: Any, components: Components) -> Pick:
    def pick(pile: Counter[str]) -> str:
        require(card is not None, "missing_card", lambda: M(
            "Name the card drawn from the deck (in digital play the server fills it in)"))
        named = _country(card, components)
        require(pile[named] > 0, "not_available",
                lambda: M("No {country} card remains in the draw pile",
                  country=_cname(named, components)), card=named)
        return named
    return pick


def _named_intrigue(card: Any, components: Components) -> Pick:
    def pick(pile: Counter[str]) -> str:
        require(card is not None, "missing_card", lambda: M(
            "Name the intrigue card drawn (in digital play the server fills it in)"))
        named = _intrigue(card, components)
        require(pile[named] > 0, "not_available",
                lambda: M("No {card} intrigue card remains in the intrigue pile",
                  card=components.intrigue_name(named)), card=intrigue_pair(named))
        return named
    return pick


# ---------------------------------------------------------------------------
# Claim and usurp (spec §5.2, §5.3)
# ---------------------------------------------------------------------------


def apply_claim_noble(state: State, action: Action, components: Components) -> State:
    """A cube on a vacant portrait, paid in country cards (spec §5.2)."""
    seat = _require_play(state, action, M("claim a noble"))
    portrait = _portrait(action.data.get("portrait"), components)
    holder = state.board[components.portrait_index[portrait.id]]
    who, noble = _who(state, seat), words.portrait_phrase(components, portrait)
    # issue #19.4: a cube "moved" to where it already stands is no move (§5.2, §5.3)
    require(holder != seat, "own_noble",
            lambda: M("{player} already holds {noble}: a claim places a cube on a vacant portrait "
              "(§5.2) and nobody usurps their own noble (§5.3), so the cube would stay where "
              "it stands", player=who, noble=noble), holder=holder)
    require(holder is None, "portrait_occupied",
            lambda: M("{noble} is held by {holder}: a claim needs a vacant portrait (§5.2); "
                      "{player} may usurp it instead (§5.3)", noble=words.capital(noble),
              holder=_who(state, holder), player=who), holder=holder)
    cards = _country_list(action.data.get("country_cards") or (), components)
    _check_country_payment(state, seat, portrait, cards, components)
    return _place(state, seat, portrait, cards, (), components)


def apply_usurp_noble(state: State, action: Action, components: Components) -> State:
    """Another player's cube replaced, paid in country and intrigue cards (spec §5.3)."""
    seat = _require_play(state, action, M("usurp a noble"))
    portrait = _portrait(action.data.get("portrait"), components)
    holder = state.board[components.portrait_index[portrait.id]]
    who, noble = _who(state, seat), words.portrait_phrase(components, portrait)
    require(holder is not None, "portrait_empty",
            lambda: M("{noble} is vacant: there is no cube to usurp (§5.3); {player} may claim it "
              "instead (§5.2)", noble=words.capital(noble), player=who))
    # issue #19.4: the actor's cube would replace itself: no move (§5.3)
    require(holder != seat, "own_noble",
            lambda: M("{player} already holds {noble}: nobody usurps their own noble (§5.3), "
                      "the cube would only replace itself", player=who, noble=noble))
    cards = _country_list(action.data.get("country_cards") or (), components)
    _check_country_payment(state, seat, portrait, cards, components)
    intrigues = [_intrigue(c, components) for c in action.data.get("intrigue_cards") or ()]
    _check_intrigue_payment(state, seat, portrait, intrigues, components)
    return _place(state, seat, portrait, cards, intrigues, components)


def _check_country_payment(state: State, seat: Seat, portrait: Portrait, cards: Sequence[str],
                           components: Components) -> None:
    """Exact payment with the 3-for-1 wild (spec §5.2, ruling 10)."""
    who = _who(state, seat)
    _check_holds(who, state.hands[seat], cards, lambda c: _cname(c, components), False)
    need, wild, offered = portrait.cost, components.country_wild, len(cards)
    matching = sum(1 for c in cards if c == portrait.country)
    spare = wild * need - offered
    ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(matching, need)
    country = _cname(portrait.country, components)
    noble = words.capital(words.portrait_phrase(components, portrait))
    require(ok, "wrong_payment",
            lambda: Mn("{noble} needs exactly {count} {country} card (any {wild} cards count as 1; "
               "§5.2); {player} offered {offer}",
               "{noble} needs exactly {count} {country} cards (any {wild} cards count as 1; "
               "§5.2); {player} offered {offer}", need, noble=noble, country=country, wild=wild,
               player=who, offer=words.country_offer(offered, matching, country)),
            needed=need, offered=offered, matching=matching)


def _check_intrigue_payment(state: State, seat: Seat, portrait: Portrait,
                            cards: Sequence[str], components: Components) -> None:
    """Exact payment with the 2-for-1 wild; a King needs 2 (spec §5.3, ruling 4)."""
    who = _who(state, seat)
    _check_holds(who, state.intrigues[seat], cards, components.intrigue_name, True)
    need, wild, offered = (components.intrigue_needed(portrait.title),
                           components.intrigue_wild, len(cards))
    showing = sum(1 for c in cards if portrait.country in intrigue_pair(c))
    spare = wild * need - offered
    ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(showing, need)
    country = _cname(portrait.country, components)
    title = components.title_names[portrait.title]
    require(ok, "wrong_intrigue_payment",
            lambda: Mn("A {title} needs {count} intrigue card showing {country} (any {wild} "
                       "intrigue cards count as 1; §5.3); {player} offered {offer}",
               "A {title} needs {count} intrigue cards showing {country} (any {wild} intrigue "
               "cards count as 1; §5.3); {player} offered {offer}", need, title=title,
               country=country, wild=wild, player=who,
               offer=words.intrigue_offer(offered, showing, country)),
            needed=need, offered=offered, showing=showing)


def _check_holds(who: str, hand: Bag, cards: Sequence[str], name: Callable[[str], str],
                 intrigue: bool) -> None:
    for card, count in sorted(Counter(cards).items()):
        held = hand.count(card)
        if held < count:
            raise IllegalAction("card_not_in_hand", _holds(who, held, name(card), count, intrigue),
                                card=card, held=held, offered=count)


def _holds(who: str, held: int, card: str, offered: int, intrigue: bool) -> Message:
    """ "Ann holds only 2 Spain cards and offered 3", "Ann holds no Spain intrigue card..."."""
    args = {"player": who, "card": card, "offered": offered}
    if intrigue:
        return Mn("{player} holds only {count} {card} intrigue card and offered {offered}",
                  "{player} holds only {count} {card} intrigue cards and offered {offered}",
                  held, **args) if held else \
            M("{player} holds no {card} intrigue card and offered {offered}", **args)
    return Mn("{player} holds only {count} {card} card and offered {offered}",
              "{player} holds only {count} {card} cards and offered {offered}", held,
              **args) if held else \
        M("{player} holds no {card} card and offered {offered}", **args)


def _place(state: State, seat: Seat, portrait: Portrait, cards: Sequence[str],
           intrigues: Sequence[str], components: Components) -> State:
    """Pay, move the cubes (spec §5.2/§5.3 effects), then the bonuses of §6.1."""
    state = _recycle_cubes(state, seat, components)
    have, need = state.supply[seat], components.cubes_per_claim
    require(have >= need, "no_cubes",
            lambda: Mn("{player} has only {count} cube left; a claim needs {need} (§5.2)",
               "{player} has only {count} cubes left; a claim needs {need} (§5.2)", have,
               player=_who(state, seat), need=need), supply=have)
    index = components.portrait_index[portrait.id]
    city = components.cities.index(portrait.city)
    title = components.titles.index(portrait.title)
    victim = state.board[index]
    cathedrals = state.cathedrals
    if victim is not None:
        # spec §5.3: the victim's cube is buried in the city's cathedral; its tile cube stays
        row = state.cathedrals[city]
        cathedrals = with_item(cathedrals, city, with_item(row, victim, row[victim] + 1))
    tile = state.tiles[title]
    state = replace(
        state, hands=with_item(state.hands, seat, state.hands[seat].take(cards)),
        intrigues=with_item(state.intrigues, seat, state.intrigues[seat].take(intrigues)),
        discard=state.discard.add(cards),
        intrigue_discard=state.intrigue_discard.add(intrigues),
        board=with_item(state.board, index, seat), cathedrals=cathedrals,
        tiles=with_item(state.tiles, title, with_item(tile, seat, tile[seat] + 1)),
        supply=with_item(state.supply, seat, have - need))
    return scoring.award_bonuses(components, state, seat, portrait)


def _recycle_cubes(state: State, seat: Seat, components: Components) -> State:
    """Spec ruling 11, review ruling 1, ruling R9: with fewer cubes than a claim needs, every
    redundant cathedral cube (another cube of the seat in that city) goes back to supply."""
    if state.supply[seat] >= components.cubes_per_claim:
        return state
    cathedrals, freed = list(state.cathedrals), 0
    for city_no, city in enumerate(components.cities):
        count = state.cathedrals[city_no][seat]
        on_portrait = any(state.board[i] == seat for i, p in enumerate(components.portraits)
                          if p.city == city)
        keep = 0 if on_portrait else min(count, 1)
        if count > keep:
            freed += count - keep
            cathedrals[city_no] = with_item(cathedrals[city_no], seat, keep)
    return replace(state, cathedrals=tuple(cathedrals),
                   supply=with_item(state.supply, seat, state.supply[seat] + freed))


def cubes_available(state: State, seat: Seat, components: Components) -> int:
    """The seat's supply after the automatic recycling (what a claim may spend now)."""
    return _recycle_cubes(state, seat, components).supply[seat]


# ---------------------------------------------------------------------------
# End of turn (spec §5.4, §6.4-6.6)
# ---------------------------------------------------------------------------


def apply_end_turn(state: State, action: Action, components: Components) -> State:
    """Hand-limit discards, the refill of the display, then the end of the turn (§5.4)."""
    new_state, _ = run_end_turn(state, action, None, components)
    return new_state


def run_end_turn(state: State, action: Action, pick: Pick | None,
                 components: Components) -> tuple[State, list[str]]:
    """The end of a turn and the cards its refill turned up; `pick` None reads the refill
    the action names."""
    named = list(action.data.get("refill") or ())
    state, refill = refill_display(after_discards(state, action, components), pick, named,
                                   components)
    return _finish_turn(state, components), refill


def refill_cards(state: State, action: Action, pick: Pick, components: Components) -> list[str]:
    """The cards an end_turn's refill turns up, as `run_end_turn` turns them, without the
    next state or the scoring that follows: a deal and its check need only the cards."""
    return _refill(after_discards(state, action, components), pick, [], components)[1]


def after_discards(state: State, action: Action, components: Components) -> State:
    """An end_turn's hand-limit discards made, before the refill (spec §5.4)."""
    seat = _require_play(state, action, M("end the turn"))
    data = action.data
    country = _country_list(data.get("discard_country") or (), components)
    intrigues = [_intrigue(c, components) for c in data.get("discard_intrigue") or ()]
    _check_discards(state, seat, country, intrigues, components)
    if not country and not intrigues:
        return state  # within the limits: the usual end of turn changes no pile here
    return replace(
        state, hands=with_item(state.hands, seat, state.hands[seat].take(country)),
        intrigues=with_item(state.intrigues, seat, state.intrigues[seat].take(intrigues)),
        discard=state.discard.add(country),
        intrigue_discard=state.intrigue_discard.add(intrigues))


def _check_discards(state: State, seat: Seat, country: Sequence[str], intrigues: Sequence[str],
                    components: Components) -> None:
    """Spec §5.4, ruling 8: discard exactly down to the hand limits, never more."""
    limits = ((state.hands[seat], country, components.hand_limit_country, False,
               lambda c: _cname(c, components)),
              (state.intrigues[seat], intrigues, components.hand_limit_intrigue, True,
               components.intrigue_name))
    for hand, cards, limit, unit, name in limits:
        held = len(hand)
        excess = max(0, held - limit)
        if not cards and not excess:
            continue  # the usual end of turn: nothing to discard, nothing to say
        if len(cards) != excess:
            exactly = M("exactly {count}", count=excess) if excess else M("nothing")
            holding = Mn("{count} intrigue card", "{count} intrigue cards", held) if unit else \
                Mn("{count} country card", "{count} country cards", held)
            raise IllegalAction(
                "wrong_discard_count",
                M("{player} holds {cards} (the limit is {limit}): discard {exactly}, not "
                  "{discarded} (§5.4)", player=_who(state, seat), cards=holding, limit=limit,
                  exactly=exactly, discarded=len(cards)), held=held, limit=limit,
                discarded=len(cards))
        _check_holds(_who(state, seat), hand, cards, name, unit)


def refill_display(state: State, pick: Pick | None, named: list[Any],
                   components: Components) -> tuple[State, list[str]]:
    """Turn cards up to the display size (spec §5.4, §6.4, review rulings 2-4)."""
    piles, turned = _refill(state, pick, named, components)
    return piles.into(state), turned


def _refill(state: State, pick: Pick | None, named: list[Any],
            components: Components) -> tuple[Piles, list[str]]:
    piles, turned = Piles(state), []
    from_list = _refill_from(named, components)
    while sum(piles.display.values()) < components.display_size:
        if is_game_ending(state, piles.period_ended, components):
            break  # spec §5.4: no refill once the last period has ended
        card = piles.draw_country(pick or from_list)
        if card is None:
            break  # no card anywhere: the refill stops short
        piles.display[card] += 1
        turned.append(card)
    extra = named[len(turned):]
    require(pick is not None or not extra, "refill_too_long",
            lambda: M("The refill turns up {cards}; the refill names {named} (§5.4)",
              cards=Mn("{count} card", "{count} cards", len(turned)) if turned
              else M("no card"), named=len(named)), turned=len(turned), listed=len(named))
    return piles, turned


def _refill_from(named: list[Any], components: Components) -> Pick:
    """Picks the cards a recorded refill names, in order; refuses a refill that is short."""
    names = iter(named)

    def from_list(pile: Counter[str]) -> str:
        card = next(names, None)
        require(card is not None, "refill_too_short",
                lambda: M("The display is refilled to {size}: the refill names {named}, more are "
                  "needed (§5.4)", size=Mn("{count} card", "{count} cards",
                                            components.display_size),
                  named=Mn("{count} card", "{count} cards", len(named))),
                listed=len(named))
        return _named_country(card, components)(pile)
    return from_list


def is_game_ending(state: State, period_ended: bool, components: Components) -> bool:
    """Whether the game ends at the end of this turn (spec §4, §6.6; variant: spec ruling 5,
    ruling R5 - the refill is skipped exactly when this holds)."""
    last = components.periods[-1]
    if not state.finish_round:
        return period_ended and state.period == last
    over = state.final_round or (period_ended and state.period == last)
    return over and state.current == (state.start_player - 1) % state.players


def _finish_turn(state: State, components: Components) -> State:
    """Score a period that ended (§6.5), the game's end (§6.6), else the next player's turn."""
    last = components.periods[-1]
    if is_game_ending(state, state.period_ended, components):
        state = scoring.score_titles(components, scoring.score_period(components, state))
        return replace(state, phase=OVER, period_ended=False, end_reason="period_3_scored")
    if state.period_ended and state.period == last:
        # variant (ruling 5): the round is finished first; period 3 is scored at its end
        state = replace(state, final_round=True)
    elif state.period_ended:
        state = replace(scoring.score_period(components, state), period=state.period + 1)
    return replace(state, phase=DRAW, period_ended=False, turn_no=state.turn_no + 1,
                   current=(state.current + 1) % state.players)


# ---------------------------------------------------------------------------
# The card piles of one event, with the run-out rules of spec §6.4
# ---------------------------------------------------------------------------


class Piles:
    """A scratch copy of the card piles for one event, with the run-out rules of spec §6.4.

    Local to one `apply` or `fill_chance` call; never stored.
    """

    def __init__(self, state: State) -> None:
        self._state = state
        #: the piles this event has read so far, as scratch Counters (a draw from the deck
        #: never touches the intrigue piles: they stay the state's Bags, uncopied)
        self._open: dict[str, Counter[str]] = {}
        self.period_ended = state.period_ended

    def pile(self, name: str) -> Counter[str]:
        """One pile (a `State` field name) as a scratch Counter, read when first needed."""
        pile = self._open.get(name)
        if pile is None:
            pile = self._open[name] = counter_of(getattr(self._state, name))
        return pile

    @property
    def display(self) -> Counter[str]:
        return self.pile("display")

    def _reshuffle(self, pile: str, discards: str) -> Counter[str]:
        """The discards become the pile, and the discard pile is empty."""
        self._open[pile], self._open[discards] = self.pile(discards), Counter()
        return self._open[pile]

    def draw_country(self, pick: Pick) -> str | None:
        """Take one card from the country pile, or None when no card exists at all."""
        deck = self.pile("deck")
        if not deck:
            # review ruling 2, ruling R2: a card is needed and the pile is empty: reshuffle
            # the discards in lazily; this ends no period
            deck = self._reshuffle("deck", "discard")
        if not deck:
            return None
        card = pick(deck)
        take_one(deck, card)
        if not deck and not self.period_ended:
            # spec §6.4: the last card left the pile: the period ends, the discards are the
            # new pile at once (ruling 7); at most one period ends per turn (review ruling 2)
            self.period_ended = True
            self._reshuffle("deck", "discard")
        return card

    def draw_intrigue(self, pick: Pick) -> str | None:
        """Take one intrigue card; spec §6.3 reshuffles the discards when the pile is empty."""
        deck = self.pile("intrigue_deck")
        if not deck:
            deck = self._reshuffle("intrigue_deck", "intrigue_discard")
        if not deck:
            return None
        card = pick(deck)
        take_one(deck, card)
        return card

    def bag(self, name: str) -> Bag:
        """One pile as a Bag, reusing the state's Bag when the pile did not change."""
        old: Bag = getattr(self._state, name)
        pile = self._open.get(name)
        if pile is None:
            return old  # never read, so unchanged
        new = {card: n for card, n in pile.items() if n > 0}
        return old if new == old.counts() else Bag(new)

    def into(self, state: State, **changes: Any) -> State:
        """`state` with these piles, the run-out flag and `changes`."""
        return replace(state, deck=self.bag("deck"), discard=self.bag("discard"),
                       display=self.bag("display"), intrigue_deck=self.bag("intrigue_deck"),
                       intrigue_discard=self.bag("intrigue_discard"),
                       period_ended=self.period_ended, **changes)


def take_one(counter: Counter[str], card: str) -> None:
    """Remove one `card` from a counter known to hold it, dropping empty entries."""
    counter[card] -= 1
    if counter[card] <= 0:
        del counter[card]


def counter_of(items: Mapping[str, int] | Bag) -> Counter[str]:
    """A Counter of these counts, filled as a dict (Counter(mapping) checks its argument
    against the Mapping ABC first, and every event makes five of them)."""
    counter: Counter[str] = Counter()
    dict.update(counter, items.counts() if isinstance(items, Bag) else items)
    return counter


# ---------------------------------------------------------------------------
# Guards, and the ids an action names
# ---------------------------------------------------------------------------


def _require_turn(state: State, action: Action, what: str) -> Seat:
    require(state.phase != AWAITING_SETUP, "game_not_started",
            lambda: M("The game is not set up yet: the setup event comes first"))
    if action.actor != state.current:
        raise IllegalAction("not_your_turn",
                            M("It is {whose} turn: {actor} cannot {what} now",
                              whose=possessive(_who(state, state.current)),
                              actor=_who(state, action.actor), what=what),
                            expected=state.current, actor=action.actor)
    return state.current


def _require_play(state: State, action: Action, what: str) -> Seat:
    seat = _require_turn(state, action, what)
    if state.phase == DRAW:
        doing = M("ending the turn") if what == "end the turn" else M("playing")
        raise IllegalAction("draw_first", M("{player} must draw before {doing} (§4: every "
                                            "turn begins with the draw)",
                                            player=_who(state, seat), doing=doing))
    return seat


def _who(state: State, actor: Any) -> str:
    """The player's name for a seat (spec: messages name players, never seats)."""
    return seat_name(state.names, actor)


def _cname(country: str, components: Components) -> str:
    return components.country_names.get(country, country)


def _country(card: Any, components: Components) -> str:
    if not (isinstance(card, str) and card in components.country_names):
        raise IllegalAction("unknown_country", M("{card} is not a country card; the "
                                                 "countries are {countries}",
                                                 card=words.shown(card),
                                                 countries=Seq(components.country_names.values())),
                            card=thaw(card))
    return str(card)


def _country_list(cards: Sequence[Any], components: Components) -> list[str]:
    return [_country(c, components) for c in cards]


def _intrigue(card: Any, components: Components) -> str:
    key = intrigue_id(card)
    require(key is not None and key in components.intrigue_cards, "unknown_intrigue_card",
            lambda: M("{card} is not an intrigue card; an intrigue card shows two different "
                      "countries",
              card=_shown_pair(card, components)), card=thaw(card))
    return str(key)


def _portrait(portrait: Any, components: Components) -> Portrait:
    require(isinstance(portrait, str) and portrait in components.portrait_index,
            "unknown_portrait", lambda: M("{portrait} is not a portrait on the board",
                                  portrait=words.shown(portrait)),
            portrait=portrait)
    return components.portrait(str(portrait))


def _shown_pair(card: Any, components: Components) -> str:
    """An intrigue card as someone named it, in words: "Spain and Spain"."""
    if isinstance(card, list | tuple) and all(isinstance(c, str) for c in card):
        if not card:
            return M("nothing")
        return Seq(_cname(c, components) if c in components.country_names
                   else words.shown(c) for c in card)
    return words.shown(thaw(card))


def _take(bag: Bag, cards: Sequence[str], code: str, where: str,
          components: Components) -> Bag:
    counts = Counter(cards)
    for card, count in sorted(counts.items()):
        held = Mn("{count} {country} card", "{count} {country} cards", bag.count(card),
                  country=_cname(card, components))
        require(bag.count(card) >= count, code,
                Mn("{where} holds only {held}; {count} is named",
                   "{where} holds only {held}; {count} are named", count,
                   where=words.capital(where), held=held), card=card)
    return bag.take(cards)
