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
    require,
    thaw,
    with_item,
)
from . import scoring, views
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


def ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


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
            holdings=((),) * players)

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action (spec §3, §5); automatic consequences included (§6)."""
        handler = {"setup": self._apply_setup, "draw_cards": self._apply_draw_cards,
                   "claim_noble": self._apply_claim_noble,
                   "usurp_noble": self._apply_usurp_noble,
                   "end_turn": self._apply_end_turn}.get(action.type)
        if handler is None:
            raise IllegalAction("unknown_action", f"royals has no action {action.type!r}; it "
                                "knows setup, draw_cards, claim_noble, usurp_noble and end_turn")
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
        data = action.data
        if action.type == "setup":
            return f"set up the game; seat {data.get('start_player')} starts"
        if action.type == "draw_cards":
            return self._describe_draw(data)
        if action.type in ("claim_noble", "usurp_noble"):
            portrait = data.get("portrait", "?")
            name = (self.board.portrait(portrait).name if portrait in self.board.portrait_index
                    else portrait)
            text = f"the {name} with {len(data.get('country_cards', ()))} country cards"
            if action.type == "claim_noble":
                return f"placed a cube on {text}"
            return f"usurped {text} and {len(data.get('intrigue_cards', ()))} intrigue card(s)"
        if action.type == "end_turn":
            gone = len(data.get("discard_country", ())) + len(data.get("discard_intrigue", ()))
            return f"ended the turn, discarding {gone} card(s)"
        return super().describe(action, names)

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        """Spec §7: own hand shown, other hands as counts, piles as counts."""
        return views.view(self, state, seat)

    # -- setup (spec §3) -------------------------------------------------------
    def _variants(self, options: Mapping[str, Any]) -> dict[str, bool]:
        unknown = sorted(set(options) - set(self.default_options))
        require(not unknown, "unknown_option", f"Royals has no option {', '.join(unknown)}; "
                "it knows 'variants'", options=unknown)
        variants = {**self.default_options["variants"], **(options.get("variants") or {})}
        extra = sorted(set(variants) - set(self.default_options["variants"]))
        require(not extra, "unknown_option", f"Royals has no variant {', '.join(extra)}; it "
                "knows period3_finish_round and edition_arcane_wonders_deck", options=extra)
        # ruling R1: the Arcane Wonders deck is an edition (other card counts), not an option
        require(not variants["edition_arcane_wonders_deck"], "unsupported_option",
                "edition_arcane_wonders_deck: the Arcane Wonders deck (102 cards) has no known "
                "removal table; load it as an edition with its own card counts instead")
        return {k: bool(v) for k, v in variants.items()}

    def _default_colours(self, players: int) -> tuple[str, ...]:
        """Ruling R6: black and white for 2; else the most cubes first, then by name."""
        if players == 2:
            return self.board.two_player_colours
        counts = self.board.cube_counts
        return tuple(sorted(counts, key=lambda c: (-counts[c], c)))[:players]

    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn",
                f"the setup is made by the table, not by {action.actor!r}")
        require(state.phase == AWAITING_SETUP, "already_set_up", "the game is already set up")
        data = action.data
        self._check_setup_repeats(state, data)
        colours = self._check_colours(state, data.get("colours"))
        raw = data.get("start_player")
        require(isinstance(raw, int) and not isinstance(raw, bool)
                and 0 <= raw < state.players, "bad_start_player",
                f"start_player must be a seat from 0 to {state.players - 1}, not {raw!r}")
        start = raw if isinstance(raw, int) else 0  # checked just above
        display = self._country_list(data.get("display") or ())
        size = self.board.display_size
        require(len(display) == size, "wrong_display_size",
                f"setup turns {size} cards face up; display names {len(display)}")
        deck = self._take(state.deck, display, "not_available", "the prepared deck")
        return replace(state, phase=DRAW, colours=colours, start_player=start, current=start,
                       supply=tuple(self.board.cube_counts[c] for c in colours), deck=deck,
                       display=Bag(display))

    def _check_setup_repeats(self, state: State, data: Mapping[str, Any]) -> None:
        """Ruling R7: a setup that repeats the player count or the variant must agree."""
        players = data.get("players")
        require(players is None or players == state.players, "setup_disagrees",
                f"setup says {players} players but the game was created for {state.players}")
        variant = (data.get("variants") or {}).get("period3_finish_round")
        require(variant is None or bool(variant) == state.finish_round, "setup_disagrees",
                f"setup says period3_finish_round={variant} but the game was created with "
                f"{state.finish_round}")

    def _check_colours(self, state: State, given: Any) -> tuple[str, ...]:
        colours = tuple(given or ())
        require(len(colours) == state.players, "wrong_colours",
                f"every seat takes one colour: {state.players} colours needed, "
                f"{len(colours)} given")
        for colour in colours:
            require(colour in self.board.cube_counts, "unknown_colour",
                    f"{colour!r} is not a cube colour; the colours are "
                    f"{', '.join(self.board.cube_counts)}", colour=colour)
        require(len(set(colours)) == len(colours), "duplicate_colour",
                f"each seat takes a different colour: {', '.join(colours)}")
        pair = self.board.two_player_colours
        require(state.players != 2 or set(colours) == set(pair), "two_player_colours",
                f"with 2 players the colours are {' and '.join(pair)}, not {', '.join(colours)}")
        return tuple(str(c) for c in colours)

    # -- draw (spec §5.1) ------------------------------------------------------
    def _apply_draw_cards(self, state: State, action: Action) -> State:
        self._require_turn(state, action, "draw")
        require(state.phase == DRAW, "already_drawn", "You have already drawn this turn")
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
            require(kind == "country", "bad_draw", f"a draw is of kind country or intrigue, "
                    f"not {kind!r}")
            require(source in ("display", "deck"), "bad_draw",
                    f"a country card comes from the display or the deck, not {source!r}")
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
        if state.turn_no < state.players:
            (wanted, _), = shapes
            position = state.turn_no
            raise IllegalAction(
                "wrong_draw_count",
                f"In round 1 the player in position {position} (the {ordinal(position + 1)} "
                f"player) draws exactly {wanted} country cards and no intrigue card; you drew "
                f"{country} country and {intrigue} intrigue", position=position)
        (c3, _), (c1, i1) = self.board.draw_shapes
        raise IllegalAction(
            "wrong_draw_count",
            f"Draw {c3} country cards, or {c1} country card and {i1} intrigue card; you drew "
            f"{country} country and {intrigue} intrigue", country=country, intrigue=intrigue)

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
                    raise IllegalAction("not_available", "No intrigue card is left to draw")
                intrigues[got] += 1
            elif source == "display":
                got = self._country(card)
                require(piles.display[got] > 0, "not_in_display",
                        f"No {self._cname(got)} card is face up", card=got)
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
                    f"That intrigue card ({self.board.intrigue_name(named)}) is not in the "
                    "intrigue pile", card=intrigue_pair(named))
            return named
        return pick

    def _entry_json(self, entry: Entry) -> dict[str, Any]:
        kind, source, card = entry
        if kind == "intrigue":
            return {"kind": "intrigue", "card": intrigue_pair(card)}
        return {"kind": "country", "source": source, "card": card}

    def _describe_draw(self, data: Mapping[str, Any]) -> str:
        draws = data.get("draws", ())
        country = sum(1 for d in draws if d.get("kind") == "country")
        text = f"drew {country} country card{'s' if country != 1 else ''}"
        intrigue = len(draws) - country
        return text + (f" and {intrigue} intrigue card" if intrigue else "")

    # -- claim and usurp (spec §5.2, §5.3) -------------------------------------
    def _apply_claim_noble(self, state: State, action: Action) -> State:
        seat = self._require_play(state, action, "claim a noble")
        portrait = self._portrait(action.data.get("portrait"))
        holder = state.board[self.board.portrait_index[portrait.id]]
        require(holder is None, "portrait_occupied",
                f"{portrait.name} is held by seat {holder}: use usurp_noble", holder=holder)
        cards = self._country_list(action.data.get("country_cards") or ())
        self._check_country_payment(state, seat, portrait, cards)
        return self._place(state, seat, portrait, cards, ())

    def _apply_usurp_noble(self, state: State, action: Action) -> State:
        seat = self._require_play(state, action, "usurp a noble")
        portrait = self._portrait(action.data.get("portrait"))
        holder = state.board[self.board.portrait_index[portrait.id]]
        require(holder is not None, "portrait_empty",
                f"{portrait.name} is empty: use claim_noble")
        require(holder != seat, "own_noble", f"You cannot usurp your own noble ({portrait.name})")
        cards = self._country_list(action.data.get("country_cards") or ())
        self._check_country_payment(state, seat, portrait, cards)
        intrigues = [self._intrigue(c) for c in action.data.get("intrigue_cards") or ()]
        self._check_intrigue_payment(state, seat, portrait, intrigues)
        return self._place(state, seat, portrait, cards, intrigues)

    def _check_country_payment(self, state: State, seat: Seat, portrait: Portrait,
                               cards: Sequence[str]) -> None:
        """Exact payment with the 3-for-1 wild (spec §5.2, ruling 10)."""
        self._check_holds(state.hands[seat], cards, self._cname, "country")
        need, wild, offered = portrait.cost, self.board.country_wild, len(cards)
        matching = sum(1 for c in cards if c == portrait.country)
        spare = wild * need - offered
        ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(matching, need)
        country = self._cname(portrait.country)
        require(ok, "wrong_payment",
                f"{portrait.name} needs {need} {country} cards (any {wild} cards count as 1); "
                f"you offered {offered} cards with {matching} {country}",
                needed=need, offered=offered, matching=matching)

    def _check_intrigue_payment(self, state: State, seat: Seat, portrait: Portrait,
                                cards: Sequence[str]) -> None:
        """Exact payment with the 2-for-1 wild; a King needs 2 (spec §5.3, ruling 4)."""
        self._check_holds(state.intrigues[seat], cards, self.board.intrigue_name, "intrigue")
        need, wild, offered = (self.board.intrigue_needed(portrait.title),
                               self.board.intrigue_wild, len(cards))
        showing = sum(1 for c in cards if portrait.country in intrigue_pair(c))
        spare = wild * need - offered
        ok = spare >= 0 and spare % (wild - 1) == 0 and spare // (wild - 1) <= min(showing, need)
        country = self._cname(portrait.country)
        title = self.board.title_info[portrait.title]["name"]
        require(ok, "wrong_intrigue_payment",
                f"A {title} needs {need} intrigue card{'s' if need != 1 else ''} showing "
                f"{country} (any {wild} intrigue cards count as 1); you offered {offered} "
                f"card{'s' if offered != 1 else ''}, {showing or 'none'} showing {country}",
                needed=need, offered=offered, showing=showing)

    def _check_holds(self, hand: Bag, cards: Sequence[str], name: Callable[[str], str],
                     what: str) -> None:
        wanted = Counter(cards)
        for card, count in sorted(wanted.items()):
            held = hand.count(card)
            require(held >= count, "card_not_in_hand",
                    f"You hold only {held} {name(card)} {what} card{'s' if held != 1 else ''}; "
                    f"you offered {count}", card=card, held=held, offered=count)

    def _place(self, state: State, seat: Seat, portrait: Portrait, cards: Sequence[str],
               intrigues: Sequence[str]) -> State:
        """Pay, move the cubes (spec §5.2/§5.3 effects), then the bonuses of §6.1."""
        state = self._recycle_cubes(state, seat)
        have, need = state.supply[seat], self.board.cubes_per_claim
        require(have >= need, "no_cubes",
                f"You have only {have} cube{'s' if have != 1 else ''} left; a claim needs {need}",
                supply=have)
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
        limits = ((state.hands[seat], country, self.board.hand_limit_country, "country",
                   self._cname),
                  (state.intrigues[seat], intrigues, self.board.hand_limit_intrigue, "intrigue",
                   self.board.intrigue_name))
        for hand, cards, limit, what, name in limits:
            excess = max(0, len(hand) - limit)
            require(len(cards) == excess, "wrong_discard_count",
                    f"You hold {len(hand)} {what} cards (limit {limit}): discard exactly "
                    f"{excess}, not {len(cards)}", held=len(hand), limit=limit,
                    discarded=len(cards))
            self._check_holds(hand, cards, name, what)

    def _refill_display(self, state: State, pick: Pick | None,
                        named: list[Any]) -> tuple[State, list[str]]:
        """Turn cards up to the display size (spec §5.4, §6.4, review rulings 2-4)."""
        piles, turned = Piles(state), []
        names = iter(named)

        def from_list(pile: Counter[str]) -> str:
            card = next(names, None)
            require(card is not None, "refill_too_short",
                    f"The display needs {self.board.display_size} cards: refill lists "
                    f"{len(named)}, more are needed", listed=len(named))
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
                f"The refill turns {len(turned)} card(s); refill lists {len(named)}",
                turned=len(turned), listed=len(named))
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
                                f"It is seat {state.current}'s turn; {action.actor!r} cannot "
                                f"{what} now", expected=state.current, actor=action.actor)
        return state.current

    def _require_play(self, state: State, action: Action, what: str) -> Seat:
        seat = self._require_turn(state, action, what)
        if state.phase == DRAW:
            message = ("Draw before ending the turn" if what == "end the turn"
                       else "Draw before playing")
            raise IllegalAction("draw_first", message)
        return seat

    def _cname(self, country: str) -> str:
        return self.board.country_names.get(country, country)

    def _country(self, card: Any) -> str:
        require(isinstance(card, str) and card in self.board.country_names, "unknown_country",
                f"{card!r} is not a country card; the countries are "
                f"{', '.join(self.board.countries)}", card=_thaw(card))
        return str(card)

    def _country_list(self, cards: Sequence[Any]) -> list[str]:
        return [self._country(c) for c in cards]

    def _intrigue(self, card: Any) -> str:
        key = intrigue_id(card)
        require(key is not None and key in self.board.intrigue_cards, "unknown_intrigue_card",
                f"{_thaw(card)!r} is not an intrigue card; an intrigue card shows two "
                "different countries", card=_thaw(card))
        return str(key)

    def _portrait(self, portrait: Any) -> Portrait:
        require(isinstance(portrait, str) and portrait in self.board.portrait_index,
                "unknown_portrait", f"{portrait!r} is not a portrait on the board",
                portrait=portrait)
        return self.board.portrait(portrait)

    def _take(self, bag: Bag, cards: Sequence[str], code: str, where: str) -> Bag:
        counts = Counter(cards)
        for card, count in sorted(counts.items()):
            require(bag.count(card) >= count, code,
                    f"{where} holds only {bag.count(card)} {self._cname(card)} card(s), "
                    f"{count} named", card=card)
        return bag.take(cards)


def _thaw(value: Any) -> Any:
    return thaw(value)
