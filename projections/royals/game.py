"""Royals (Peter Hawes; Abacusspiele 2014, Arcane Wonders 2016), for 2 to 5 players.

Spec: shared/games/royals.md (data: data/royals.json; rulings: docs/rulings/royals.md).
Actions: `setup` (actor "table"; chance: `start_player`, `display`), `draw_cards` (chance:
`draws`), `claim_noble`, `usurp_noble`, `end_turn` (chance: `refill`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import (
    Action,
    Bag,
    Dealer,
    GameRules,
    IllegalAction,
    Viewer,
    ordinal,
    plural,
    possessive,
    require,
    seat_name,
    thaw,
    with_item,
    words_list,
)
from . import scoring, sentences, views, words
from .edition import Board, edition_problems
from .model import (
    AWAITING_SETUP,
    DRAW,
    OVER,
    PLAY,
    ClaimNobleData,
    DrawCardsData,
    EndTurnData,
    Piles,
    Portrait,
    Seat,
    SetupData,
    State,
    UsurpNobleData,
    counter_of,
    intrigue_id,
    intrigue_pair,
)
from .options import draw_options, end_turn_option, play_options
from .slots import chance_slots

Pick = Callable[[Counter[str]], str]
Entry = tuple[str, str, Any]  # (kind, source, card) of one draw


class Royals(GameRules):
    slug: ClassVar[str] = "royals"
    title: ClassVar[str] = "Royals"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = {
        "setup": SetupData, "draw_cards": DrawCardsData, "claim_noble": ClaimNobleData,
        "usurp_noble": UsurpNobleData, "end_turn": EndTurnData,
    }
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "setup": ("start_player", "display"), "draw_cards": ("draws",), "end_turn": ("refill",),
    }
    default_options: ClassVar[Mapping[str, Any]] = {
        "variants": {"period3_finish_round": False, "edition_arcane_wonders_deck": False},
    }

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content)

    @cached_property
    def board(self) -> Board:
        return Board(self.edition)

    # -- protocol -----------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        """Before the setup event: the prepared decks (spec §3 steps 3-4), nothing dealt."""
        players = len(created.get("players") or ())
        require(players in self.player_counts, "wrong_player_count",
                f"Royals is played by 2 to 5 players, not {players}", players=players)
        variants = self._variants(created.get("options") or {})
        deck, removed = self.board.prepared_deck(players)
        seats = range(players)
        return State(
            players=players, mode=str(created.get("mode", "table")),
            finish_round=variants["period3_finish_round"], deck=Bag(deck), removed=Bag(removed),
            intrigue_deck=Bag(self.board.intrigue_cards), hands=tuple(Bag() for _ in seats),
            intrigues=tuple(Bag() for _ in seats), board=(None,) * len(self.board.portraits),
            cathedrals=((0,) * players,) * len(self.board.cities),
            tiles=((0,) * players,) * len(self.board.titles),
            holdings=((),) * players, names=tuple(str(n) for n in created["players"]))

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action (spec §3, §5); automatic consequences included (§6)."""
        handler = {"setup": self._apply_setup, "draw_cards": self._apply_draw_cards,
                   "claim_noble": self._apply_claim_noble,
                   "usurp_noble": self._apply_usurp_noble,
                   "end_turn": self._apply_end_turn}.get(action.type)
        if handler is None:
            # the type as sent (the contract: a client can find what it misspelt)
            raise IllegalAction("unknown_action", f"Royals has no move “{action.type}”; its "
                                "moves are the setup, drawing cards, claiming a noble, "
                                "usurping a noble and ending the turn")
        return handler(state, action)

    def to_act(self, state: State) -> tuple[Any, ...]:
        if state.phase == AWAITING_SETUP:
            return ("table",)
        return () if state.phase == OVER else (state.current,)

    def legal_actions(self, state: State, seat: Any = None) -> list[dict[str, Any]]:
        """Legal actions now. Claims, usurps and hand-limit discards are a representative
        subset: one payment per portrait (matching cards first, then the most plentiful other
        cards as wilds) and one discard choice; every draw combination is listed."""
        actors = self.to_act(state)
        if not actors or (seat is not None and seat not in actors):
            return []
        if state.phase == AWAITING_SETUP:
            auto = self.auto_action(state)
            return [auto] if auto else []
        if state.phase == DRAW:
            return draw_options(self, state)
        return [*play_options(self, state), end_turn_option(self, state)]

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        return scoring.final_result(state, state.end_reason or "period_3_scored")

    def auto_action(self, state: State) -> dict[str, Any] | None:
        if state.phase != AWAITING_SETUP:
            return None
        return {"type": "setup", "actor": "table",
                "data": {"colours": list(self._default_colours(state.players))}}

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        """Digital mode (ruling R13): deal from the seeded dealer. Every pick is uniform over the
        cards of the pile as a multiset (sorted, then `dealer.choice`), card by card."""
        data = dict(_thaw(action.data))

        def pick(pile: Counter[str]) -> str:
            return str(dealer.choice(sorted(pile.elements())))

        if action.type == "setup":
            data["start_player"] = dealer.below(state.players)
            data["display"] = dealer.shuffled(state.deck)[: self.board.display_size]
        elif action.type == "draw_cards":
            entries = self._parse_draws(action.data)
            _, filled = self._run_draws(state, entries, pick)
            data["draws"] = [self._entry_json(e) for e in filled]
        elif action.type == "end_turn":
            _, refill = self._run_end_turn(state, action, pick)
            data["refill"] = refill
        return data

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        """Table mode: the start player and display of the setup, each card of a draw from
        the deck or the intrigue pile, the refill of the display (see `slots.py`)."""
        return chance_slots(self, state, action)

    def strip_chance(self, action: Action) -> dict[str, Any]:
        """A draw keeps its kinds and sources (and a display card, which is a choice); the
        cards from the deck and the intrigue pile are the chance outcome."""
        data = super().strip_chance(action)
        draws = action.data.get("draws", ())
        if action.type == "draw_cards" and isinstance(draws, tuple | list) and all(
                isinstance(d, Mapping) for d in draws):
            data["draws"] = [{k: v for k, v in _thaw(d).items()
                              if k != "card" or d.get("source") == "display"} for d in draws]
        elif action.type == "draw_cards" and "draws" in action.data:
            data["draws"] = _thaw(draws)  # malformed: left for the schema to refuse
        return data

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        """Spec §7, ruling R11: others see a draw's kinds and sources, not deck or intrigue
        cards."""
        if action.type != "draw_cards" or seat == "all" or seat == action.actor:
            return None
        draws = [_thaw(d) for d in action.data.get("draws", ())]
        hidden = False
        for draw in draws:
            if draw.get("kind") == "intrigue" or draw.get("source") == "deck":
                hidden = hidden or "card" in draw
                draw.pop("card", None)
        return {"draws": draws} if hidden else None

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        """A whole sentence naming the actor and every piece by its label (`sentences.py`)."""
        return sentences.describe(self.board, action, names)

    def labels(self) -> dict[str, str]:
        """Every component id a view, legal action or chance slot holds, with its label from
        the edition (`words.py`); the edition's own `labels` win."""
        return {**words.edition_labels(self.board), **super().labels()}

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        """Spec §7: own hand shown, other hands as counts, piles as counts."""
        return views.view(self, state, seat)

    # -- setup (spec §3) -------------------------------------------------------
    def _variants(self, options: Mapping[str, Any]) -> dict[str, bool]:
        unknown = sorted(set(options) - set(self.default_options))
        require(not unknown, "unknown_option", f"Royals has no option "
                f"{words_list(words.shown(o) for o in unknown)}; its only option is the choice "
                "of variants", options=unknown)
        variants = {**self.default_options["variants"], **(options.get("variants") or {})}
        extra = sorted(set(variants) - set(self.default_options["variants"]))
        known = words_list(f"“{words.VOCABULARY[v]}”" for v in self.default_options["variants"])
        require(not extra, "unknown_option", f"Royals has no variant "
                f"{words_list(words.shown(v) for v in extra)}; its variants are {known}",
                options=extra)
        # ruling R1: the Arcane Wonders deck is an edition (other card counts), not an option
        require(not variants["edition_arcane_wonders_deck"], "unsupported_option",
                "The Arcane Wonders deck (102 cards) has no known removal table; load it as an "
                "edition with its own card counts instead")
        return {k: bool(v) for k, v in variants.items()}

    def _default_colours(self, players: int) -> tuple[str, ...]:
        """Ruling R6: black and white for 2; else the most cubes first, then by name."""
        if players == 2:
            return self.board.two_player_colours
        counts = self.board.cube_counts
        return tuple(sorted(counts, key=lambda c: (-counts[c], c)))[:players]

    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn",
                f"The table makes the setup, not {self._who(state, action.actor)}")
        require(state.phase == AWAITING_SETUP, "already_set_up", "The game is already set up")
        data = action.data
        self._check_setup_repeats(state, data)
        colours = self._check_colours(state, data.get("colours"))
        raw = data.get("start_player")
        given = "none was named" if raw is None else f"not {words.shown(raw)}"
        require(isinstance(raw, int) and not isinstance(raw, bool)
                and 0 <= raw < state.players, "bad_start_player",
                f"The start player is one of the {state.players} players (a seat from 0 to "
                f"{state.players - 1}); {given}")
        start = raw if isinstance(raw, int) else 0  # checked just above
        display = self._country_list(data.get("display") or ())
        size = self.board.display_size
        require(len(display) == size, "wrong_display_size",
                f"The setup turns {plural(size, 'card')} face up for the display; "
                f"{plural(len(display), 'card')} {'was' if len(display) == 1 else 'were'} named")
        deck = self._take(state.deck, display, "not_available", "the prepared deck")
        return replace(state, phase=DRAW, colours=colours, start_player=start, current=start,
                       supply=tuple(self.board.cube_counts[c] for c in colours), deck=deck,
                       display=Bag(display))

    def _check_setup_repeats(self, state: State, data: Mapping[str, Any]) -> None:
        """Ruling R7: a setup that repeats the player count or the variant must agree."""
        players = data.get("players")
        require(players is None or players == state.players, "setup_disagrees",
                f"The setup says {words.shown(players)} players but the game was created for "
                f"{state.players}")
        variant = (data.get("variants") or {}).get("period3_finish_round")
        on = {True: "on", False: "off"}
        require(variant is None or bool(variant) == state.finish_round, "setup_disagrees",
                f"The setup turns the variant “{words.VOCABULARY['period3_finish_round']}” "
                f"{on[bool(variant)]}, but the game was created with it {on[state.finish_round]}")

    def _check_colours(self, state: State, given: Any) -> tuple[str, ...]:
        colours = tuple(given or ())
        require(len(colours) == state.players, "wrong_colours",
                f"Every player takes one colour: {plural(state.players, 'colour')} needed, "
                f"{len(colours)} given")
        for colour in colours:
            require(colour in self.board.cube_counts, "unknown_colour",
                    f"{words.shown(colour)} is not a cube colour; the colours are "
                    f"{words_list(self.board.cube_counts)}", colour=colour)
        twice = sorted({str(c) for c in colours if colours.count(c) > 1})
        require(not twice, "duplicate_colour",
                f"Each player takes a different colour; {words_list(twice)} "
                f"{'is' if len(twice) == 1 else 'are'} named more than once")
        pair = self.board.two_player_colours
        require(state.players != 2 or set(colours) == set(pair), "two_player_colours",
                f"With 2 players the colours are {' and '.join(pair)}, not "
                f"{words_list(colours)}")
        return tuple(str(c) for c in colours)

    # -- draw (spec §5.1) ------------------------------------------------------
    def _apply_draw_cards(self, state: State, action: Action) -> State:
        self._require_turn(state, action, "draw")
        require(state.phase == DRAW, "already_drawn",
                f"{self._who(state, action.actor)} has already drawn this turn (§4: one draw "
                "per turn)")
        entries = self._parse_draws(action.data)
        self._check_draw_counts(state, entries)
        new_state, _ = self._run_draws(state, entries, None)
        return new_state

    def _parse_draws(self, data: Mapping[str, Any]) -> list[Entry]:
        entries = []
        for draw in data.get("draws") or ():
            kind, source, card = draw.get("kind"), draw.get("source"), draw.get("card")
            if kind == "intrigue":
                entries.append(("intrigue", "pile", card))
                continue
            require(kind == "country", "bad_draw", "A card is drawn as a country card or an "
                    f"intrigue card, not as {words.shown(kind)}")
            require(source in ("display", "deck"), "bad_draw", "A country card comes from the "
                    f"display or the deck, not from {words.shown(source)}")
            entries.append(("country", source, card))
        return entries

    def allowed_draw_shapes(self, state: State) -> set[tuple[int, int]]:
        """(country, intrigue) counts a draw may have now (spec §5.1); shorter only when cards
        run out (ruling R4: min(required, available) per option)."""
        country = len(state.deck) + len(state.discard) + len(state.display)
        intrigue = len(state.intrigue_deck) + len(state.intrigue_discard)
        if state.turn_no < state.players:
            wanted = self.board.first_round_draws(state.players)[state.turn_no]
            return {(min(wanted, country), 0)}
        return {(min(c, country), min(i, intrigue)) for c, i in self.board.draw_shapes}

    def _check_draw_counts(self, state: State, entries: Sequence[Entry]) -> None:
        country = sum(1 for e in entries if e[0] == "country")
        intrigue = len(entries) - country
        shapes = self.allowed_draw_shapes(state)
        if (country, intrigue) in shapes:
            return
        who, drawn = self._who(state, state.current), _counted(country, intrigue)
        if state.turn_no < state.players:
            (wanted, _), = shapes
            position = state.turn_no
            # review ruling 6: positions count from 0, "the 2nd player" counts from 1
            raise IllegalAction(
                "wrong_draw_count",
                f"In round 1 the player in position {position} (the {ordinal(position + 1)} "
                f"player) draws exactly {_counted(wanted, 0)} (§5.1); {possessive(who)} draw "
                f"has {drawn}", position=position)
        (c3, i3), (c1, i1) = self.board.draw_shapes
        raise IllegalAction(
            "wrong_draw_count",
            f"{who} draws {_counted(c3, i3)}, or {_counted(c1, i1)} (§5.1); this draw has "
            f"{drawn}", country=country, intrigue=intrigue)

    def _run_draws(self, state: State, entries: Sequence[Entry],
                   pick: Pick | None) -> tuple[State, list[Entry]]:
        """Process the draws in order (spec §5.1); `pick` None means "the named card"."""
        piles = Piles(state)
        seat = state.current
        hand, intrigues = counter_of(state.hands[seat]), counter_of(state.intrigues[seat])
        filled: list[Entry] = []
        for kind, source, card in entries:
            if kind == "intrigue":
                got = piles.draw_intrigue(pick or self._named_intrigue(card))
                if got is None:
                    raise IllegalAction("not_available", "No intrigue card is left to draw: "
                                        "the intrigue pile and its discards are empty")
                intrigues[got] += 1
            elif source == "display":
                got = self._country(card)
                require(piles.display[got] > 0, "not_in_display",
                        f"No {self._cname(got)} card is face up in the display"
                        f"{' any more' if state.display.count(got) else ''}", card=got)
                piles.display[got] -= 1
                hand[got] += 1
            else:
                got = piles.draw_country(pick or self._named_country(card))
                if got is None:
                    raise IllegalAction("deck_empty", "The draw pile and the discard pile are "
                                        "empty: no card can be drawn from the deck")
                hand[got] += 1
            filled.append((kind, source, got))
        return piles.into(state, phase=PLAY, hands=with_item(state.hands, seat, Bag(hand)),
                          intrigues=with_item(state.intrigues, seat, Bag(intrigues))), filled

    def _named_country(self, card: Any) -> Pick:
        def pick(pile: Counter[str]) -> str:
            require(card is not None, "missing_card", "Name the card drawn from the deck "
                    "(in digital play the server fills it in)")
            named = self._country(card)
            require(pile[named] > 0, "not_available",
                    f"No {self._cname(named)} card remains in the draw pile", card=named)
            return named
        return pick

    def _named_intrigue(self, card: Any) -> Pick:
        def pick(pile: Counter[str]) -> str:
            require(card is not None, "missing_card", "Name the intrigue card drawn "
                    "(in digital play the server fills it in)")
            named = self._intrigue(card)
            require(pile[named] > 0, "not_available",
                    f"No {self.board.intrigue_name(named)} intrigue card remains in the "
                    "intrigue pile", card=intrigue_pair(named))
            return named
        return pick

    def _entry_json(self, entry: Entry) -> dict[str, Any]:
        kind, source, card = entry
        if kind == "intrigue":
            return {"kind": "intrigue", "card": intrigue_pair(card)}
        return {"kind": "country", "source": source, "card": card}

    # -- claim and usurp (spec §5.2, §5.3) -------------------------------------
    def _apply_claim_noble(self, state: State, action: Action) -> State:
        seat = self._require_play(state, action, "claim a noble")
        portrait = self._portrait(action.data.get("portrait"))
        holder = state.board[self.board.portrait_index[portrait.id]]
        who, noble = self._who(state, seat), words.portrait_phrase(self.board, portrait)
        # issue #19.4: a cube "moved" to where it already stands is no move (§5.2, §5.3)
        require(holder != seat, "own_noble",
                f"{who} already holds {noble}: a claim places a cube on a vacant portrait "
                "(§5.2) and nobody usurps their own noble (§5.3), so the cube would stay where "
                "it stands", holder=holder)
        require(holder is None, "portrait_occupied",
                f"{_capital(noble)} is held by {self._who(state, holder)}: a claim needs a "
                f"vacant portrait (§5.2); {who} may usurp it instead (§5.3)", holder=holder)
        cards = self._country_list(action.data.get("country_cards") or ())
        self._check_country_payment(state, seat, portrait, cards)
        return self._place(state, seat, portrait, cards, ())

    def _apply_usurp_noble(self, state: State, action: Action) -> State:
        seat = self._require_play(state, action, "usurp a noble")
        portrait = self._portrait(action.data.get("portrait"))
        holder = state.board[self.board.portrait_index[portrait.id]]
        who, noble = self._who(state, seat), words.portrait_phrase(self.board, portrait)
        require(holder is not None, "portrait_empty",
                f"{_capital(noble)} is vacant: there is no cube to usurp (§5.3); {who} may "
                "claim it instead (§5.2)")
        # issue #19.4: the actor's cube would replace itself: no move (§5.3)
        require(holder != seat, "own_noble",
                f"{who} already holds {noble}: nobody usurps their own noble (§5.3), the cube "
                "would only replace itself")
        cards = self._country_list(action.data.get("country_cards") or ())
        self._check_country_payment(state, seat, portrait, cards)
        intrigues = [self._intrigue(c) for c in action.data.get("intrigue_cards") or ()]
        self._check_intrigue_payment(state, seat, portrait, intrigues)
        return self._place(state, seat, portrait, cards, intrigues)

    def _check_country_payment(self, state: State, seat: Seat, portrait: Portrait,
                               cards: Sequence[str]) -> None:
        """Exact payment with the 3-for-1 wild (spec §5.2, ruling 10)."""
        who = self._who(state, seat)
        self._check_holds(who, state.hands[seat], cards, self._cname, "card")
        need, wild, offered = portrait.cost, self.board.country_wild, len(cards)
        matching = sum(1 for c in cards if c == portrait.country)
        spare = wild * need - offered
        ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(matching, need)
        country = self._cname(portrait.country)
        noble = _capital(words.portrait_phrase(self.board, portrait))
        require(ok, "wrong_payment",
                f"{noble} needs exactly {plural(need, country + ' card')} (any {wild} cards count "
                f"as 1; §5.2); {who} offered {_of_them(offered, matching, country)}",
                needed=need, offered=offered, matching=matching)

    def _check_intrigue_payment(self, state: State, seat: Seat, portrait: Portrait,
                                cards: Sequence[str]) -> None:
        """Exact payment with the 2-for-1 wild; a King needs 2 (spec §5.3, ruling 4)."""
        who = self._who(state, seat)
        self._check_holds(who, state.intrigues[seat], cards, self.board.intrigue_name,
                          "intrigue card")
        need, wild, offered = (self.board.intrigue_needed(portrait.title),
                               self.board.intrigue_wild, len(cards))
        showing = sum(1 for c in cards if portrait.country in intrigue_pair(c))
        spare = wild * need - offered
        ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(showing, need)
        country = self._cname(portrait.country)
        title = self.board.title_info[portrait.title]["name"]
        require(ok, "wrong_intrigue_payment",
                f"A {title} needs {plural(need, 'intrigue card')} showing {country} (any "
                f"{wild} intrigue cards count as 1; §5.3); {who} offered "
                f"{_showing(offered, showing, country)}",
                needed=need, offered=offered, showing=showing)

    def _check_holds(self, who: str, hand: Bag, cards: Sequence[str],
                     name: Callable[[str], str], what: str) -> None:
        wanted = Counter(cards)
        for card, count in sorted(wanted.items()):
            held = hand.count(card)
            holds = f"only {plural(held, name(card) + ' ' + what)}" if held else \
                f"no {name(card)} {what}"
            require(held >= count, "card_not_in_hand",
                    f"{who} holds {holds} and offered {count}", card=card, held=held,
                    offered=count)

    def _place(self, state: State, seat: Seat, portrait: Portrait, cards: Sequence[str],
               intrigues: Sequence[str]) -> State:
        """Pay, move the cubes (spec §5.2/§5.3 effects), then the bonuses of §6.1."""
        state = self._recycle_cubes(state, seat)
        have, need = state.supply[seat], self.board.cubes_per_claim
        require(have >= need, "no_cubes",
                f"{self._who(state, seat)} has only {plural(have, 'cube')} left; a claim needs "
                f"{need} (§5.2)", supply=have)
        index = self.board.portrait_index[portrait.id]
        city = self.board.cities.index(portrait.city)
        title = self.board.titles.index(portrait.title)
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
        return scoring.award_bonuses(self.board, state, seat, portrait)

    def _recycle_cubes(self, state: State, seat: Seat) -> State:
        """Spec ruling 11, review ruling 1, ruling R9: with fewer cubes than a claim needs, every
        redundant cathedral cube (another cube of the seat in that city) goes back to supply."""
        if state.supply[seat] >= self.board.cubes_per_claim:
            return state
        cathedrals, freed = list(state.cathedrals), 0
        for city_no, city in enumerate(self.board.cities):
            count = state.cathedrals[city_no][seat]
            on_portrait = any(state.board[i] == seat for i, p in enumerate(self.board.portraits)
                              if p.city == city)
            keep = 0 if on_portrait else min(count, 1)
            if count > keep:
                freed += count - keep
                cathedrals[city_no] = with_item(cathedrals[city_no], seat, keep)
        return replace(state, cathedrals=tuple(cathedrals),
                       supply=with_item(state.supply, seat, state.supply[seat] + freed))

    def cubes_available(self, state: State, seat: Seat) -> int:
        """The seat's supply after the automatic recycling (used by legal_actions)."""
        return self._recycle_cubes(state, seat).supply[seat]

    # -- end of turn (spec §5.4, §6.4-6.6) --------------------------------------
    def _apply_end_turn(self, state: State, action: Action) -> State:
        new_state, _ = self._run_end_turn(state, action, None)
        return new_state

    def _run_end_turn(self, state: State, action: Action,
                      pick: Pick | None) -> tuple[State, list[str]]:
        named = list(action.data.get("refill") or ())
        state, refill = self._refill_display(self._after_discards(state, action), pick, named)
        return self._finish_turn(state), refill

    def _after_discards(self, state: State, action: Action) -> State:
        """An end_turn's hand-limit discards made, before the refill (spec §5.4)."""
        seat = self._require_play(state, action, "end the turn")
        data = action.data
        country = self._country_list(data.get("discard_country") or ())
        intrigues = [self._intrigue(c) for c in data.get("discard_intrigue") or ()]
        self._check_discards(state, seat, country, intrigues)
        return replace(
            state, hands=with_item(state.hands, seat, state.hands[seat].take(country)),
            intrigues=with_item(state.intrigues, seat, state.intrigues[seat].take(intrigues)),
            discard=state.discard.add(country),
            intrigue_discard=state.intrigue_discard.add(intrigues))

    def _check_discards(self, state: State, seat: Seat, country: Sequence[str],
                        intrigues: Sequence[str]) -> None:
        """Spec §5.4, ruling 8: discard exactly down to the hand limits, never more."""
        who = self._who(state, seat)
        limits = ((state.hands[seat], country, self.board.hand_limit_country, "country card",
                   self._cname, "card"),
                  (state.intrigues[seat], intrigues, self.board.hand_limit_intrigue,
                   "intrigue card", self.board.intrigue_name, "intrigue card"))
        for hand, cards, limit, what, name, unit in limits:
            excess = max(0, len(hand) - limit)
            exactly = f"exactly {excess}" if excess else "nothing"
            require(len(cards) == excess, "wrong_discard_count",
                    f"{who} holds {plural(len(hand), what)} (the limit is {limit}): discard "
                    f"{exactly}, not {len(cards)} (§5.4)", held=len(hand), limit=limit,
                    discarded=len(cards))
            self._check_holds(who, hand, cards, name, unit)

    def _refill_display(self, state: State, pick: Pick | None,
                        named: list[Any]) -> tuple[State, list[str]]:
        """Turn cards up to the display size (spec §5.4, §6.4, review rulings 2-4)."""
        piles, turned = Piles(state), []
        names = iter(named)

        def from_list(pile: Counter[str]) -> str:
            card = next(names, None)
            require(card is not None, "refill_too_short",
                    f"The display is refilled to {plural(self.board.display_size, 'card')}: "
                    f"the refill names {plural(len(named), 'card')}, more are needed (§5.4)",
                    listed=len(named))
            return self._named_country(card)(pile)

        while sum(piles.display.values()) < self.board.display_size:
            if self.is_game_ending(state, piles.period_ended):
                break  # spec §5.4: no refill once the last period has ended
            card = piles.draw_country(pick or from_list)
            if card is None:
                break  # no card anywhere: the refill stops short
            piles.display[card] += 1
            turned.append(card)
        extra = named[len(turned):]
        require(pick is not None or not extra, "refill_too_long",
                f"The refill turns up {plural(len(turned), 'card') if turned else 'no card'}; "
                f"the refill names {len(named)} (§5.4)", turned=len(turned), listed=len(named))
        return piles.into(state), turned

    def is_game_ending(self, state: State, period_ended: bool) -> bool:
        """Whether the game ends at the end of this turn (spec §4, §6.6; variant: spec ruling 5,
        ruling R5 - the refill is skipped exactly when this holds)."""
        last = self.board.periods[-1]
        if not state.finish_round:
            return period_ended and state.period == last
        over = state.final_round or (period_ended and state.period == last)
        return over and state.current == (state.start_player - 1) % state.players

    def _finish_turn(self, state: State) -> State:
        last = self.board.periods[-1]
        if self.is_game_ending(state, state.period_ended):
            state = scoring.score_titles(self.board, scoring.score_period(self.board, state))
            return replace(state, phase=OVER, period_ended=False, end_reason="period_3_scored")
        if state.period_ended and state.period == last:
            # variant (ruling 5): the round is finished first; period 3 is scored at its end
            state = replace(state, final_round=True)
        elif state.period_ended:
            state = replace(scoring.score_period(self.board, state), period=state.period + 1)
        return replace(state, phase=DRAW, period_ended=False, turn_no=state.turn_no + 1,
                       current=(state.current + 1) % state.players)

    # -- guards and ids -------------------------------------------------------------
    def _require_turn(self, state: State, action: Action, what: str) -> Seat:
        require(state.phase != AWAITING_SETUP, "game_not_started",
                "The game is not set up yet: the setup event comes first")
        require(state.phase != OVER, "game_over", "The game is over")
        if action.actor != state.current:
            raise IllegalAction("not_your_turn",
                                f"It is {possessive(self._who(state, state.current))} turn: "
                                f"{self._who(state, action.actor)} cannot {what} now",
                                expected=state.current, actor=action.actor)
        return state.current

    def _require_play(self, state: State, action: Action, what: str) -> Seat:
        seat = self._require_turn(state, action, what)
        if state.phase == DRAW:
            doing = "ending the turn" if what == "end the turn" else "playing"
            raise IllegalAction("draw_first", f"{self._who(state, seat)} must draw before "
                                f"{doing} (§4: every turn begins with the draw)")
        return seat

    def _who(self, state: State, actor: Any) -> str:
        """The player's name for a seat (spec: messages name players, never seats)."""
        return seat_name(state.names, actor)

    def _cname(self, country: str) -> str:
        return self.board.country_names.get(country, country)

    def _country(self, card: Any) -> str:
        require(isinstance(card, str) and card in self.board.country_names, "unknown_country",
                f"{words.shown(card)} is not a country card; the countries are "
                f"{words_list(self.board.country_names.values())}", card=_thaw(card))
        return str(card)

    def _country_list(self, cards: Sequence[Any]) -> list[str]:
        return [self._country(c) for c in cards]

    def _intrigue(self, card: Any) -> str:
        key = intrigue_id(card)
        require(key is not None and key in self.board.intrigue_cards, "unknown_intrigue_card",
                f"{self._shown_pair(card)} is not an intrigue card; an intrigue card shows two "
                "different countries", card=_thaw(card))
        return str(key)

    def _portrait(self, portrait: Any) -> Portrait:
        require(isinstance(portrait, str) and portrait in self.board.portrait_index,
                "unknown_portrait", f"{words.shown(portrait)} is not a portrait on the board",
                portrait=portrait)
        return self.board.portrait(portrait)

    def _shown_pair(self, card: Any) -> str:
        """An intrigue card as someone named it, in words: "Spain and Spain"."""
        if isinstance(card, list | tuple) and all(isinstance(c, str) for c in card):
            return words_list([self._cname(c) if c in self.board.country_names
                               else words.shown(c) for c in card]) or "nothing"
        return words.shown(_thaw(card))

    def _take(self, bag: Bag, cards: Sequence[str], code: str, where: str) -> Bag:
        counts = Counter(cards)
        for card, count in sorted(counts.items()):
            held = plural(bag.count(card), f"{self._cname(card)} card")
            require(bag.count(card) >= count, code,
                    f"{_capital(where)} holds only {held}; {count} "
                    f"{'is' if count == 1 else 'are'} named", card=card)
        return bag.take(cards)


def _thaw(value: Any) -> Any:
    return thaw(value)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _counted(country: int, intrigue: int) -> str:
    """ "3 country cards and no intrigue card": the two counts of a draw in words."""
    return f"{plural(country, 'country card') if country else 'no country card'} and " \
           f"{plural(intrigue, 'intrigue card') if intrigue else 'no intrigue card'}"


def _showing(offered: int, showing: int, country: str) -> str:
    """ "1 card, none showing Spain" (the spec's words), "no intrigue card"."""
    if not offered:
        return "no intrigue card"
    return f"{plural(offered, 'card')}, {showing or 'none'} showing {country}"


def _of_them(offered: int, matching: int, country: str) -> str:
    """ "5 cards, 3 of them Spain", "1 card (not a Spain card)": what a payment held."""
    if offered == 0:
        return "no card"
    if offered == 1:
        return f"1 card ({'a' if matching else 'not a'} {country} card)"
    share = "none" if not matching else "all" if matching == offered else str(matching)
    return f"{offered} cards, {share} of them {country}"
