"""Start of game, setup and the round (spec §5, §6.1-§6.11, §7): handlers as a mixin."""

from __future__ import annotations

from typing import Any

from ..rules import Action, Bag, IllegalAction, plural, require, words_list
from .model import CardId, InPlay, Player, Seat, State, bad, instance_ids, owner_of, replace
from .words import OPTIONS, a_an, words


def per_seat(data: Any, seat: Seat) -> Any:
    """`data[str(seat)]` (JSON object keys are strings), or None."""
    if not data:
        return None
    return data.get(str(seat), data.get(seat)) if hasattr(data, "get") else None


def str_list(value: Any, what: str) -> list[str]:
    require(isinstance(value, list | tuple) and all(isinstance(v, str) for v in value),
            "bad_data", f"{what} must be a list of cards")
    return list(value)


def setting(value: Any) -> str:
    """An option's value in words: "on", "off", "3", "participating characters"."""
    if value is None or value is False:
        return "off"
    if value is True:
        return "on"
    return OPTIONS.get(str(value), words(str(value)))


class RoundsMixin:
    # -- turn order (§3) -----------------------------------------------------
    @staticmethod
    def order(state: State, start: Seat | None = None) -> list[Seat]:
        """Active seats clockwise from `start` (default: the first player)."""
        first = state.first_player if start is None else start
        first = 0 if first is None else first
        seats = [(first + i) % state.n for i in range(state.n)]
        return [s for s in seats if not state.players[s].conceded]

    def next_after(self, state: State, current: Seat, start: Seat | None = None) -> Seat | None:
        first = state.first_player if start is None else start
        first = 0 if first is None else first
        seats = [(first + i) % state.n for i in range(state.n)]
        later = seats[seats.index(current) + 1:]
        return next((s for s in later if not state.players[s].conceded), None)

    # -- start_game (§6.1) -------------------------------------------------------
    def _apply_start_game(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table starts the game")
        require(state.phase == "start", "already_started", "the game has already started")
        data = action.data
        houses = self._start_houses(state, data["players"])
        for key, value in (data.get("options") or {}).items():
            require(state.option(key) == value, "option_mismatch",
                    f"the game was created with {OPTIONS.get(key, words(key))} "
                    f"{setting(state.option(key))}, not {setting(value)}", option=key)
        decks = data.get("decks") or {}
        require(bool(decks) or len(set(houses)) == len(houses), "duplicate_house",
                "without custom decks every player needs a House of their own; got "
                f"{words_list(houses)}")
        first = data.get("setup_first")
        require(isinstance(first, int) and 0 <= first < state.n, "bad_setup_first",
                f"the player who sets up first must be one of the {state.n} players")
        players = []
        lists = [self._deck_for(seat, house, per_seat(decks, seat))
                 for seat, house in enumerate(houses)]
        for seat, (house, (_, plots, draw)) in enumerate(zip(houses, lists, strict=True)):
            ids = instance_ids(seat, [*draw, *plots])
            deck, plot_ids = ids[:len(draw)], ids[len(draw):]
            hand = str_list(per_seat(data.get("setup_hands"), seat) or [], "setup_hands")
            need = min(int(self.const["setup_hand_size"]), len(deck))
            require(len(hand) == need and len(set(hand)) == need, "bad_setup_hand",
                    f"{self.whose(state, seat)} setup hand needs {plural(need, 'distinct card')}"
                    f", got {len(hand)}")
            rest = self.take(state, Bag(deck), hand, f"{self.whose(state, seat)} deck")
            players.append(Player(house=house, deck=rest, hand=Bag(hand),
                                  plot_deck=Bag(plot_ids)))
        return replace(state, players=tuple(players), phase="setup", setup_first=first,
                       turn=first, titles=(None,) * state.n)

    def _start_houses(self: Any, state: State, entries: Any) -> list[str]:
        require(len(entries) == state.n, "player_count_mismatch",
                f"the game was created for {state.n} players; start_game lists {len(entries)}")
        houses: list[str | None] = [None] * state.n
        for entry in entries:
            seat, house = entry.get("seat"), entry.get("house")
            valid = isinstance(seat, int) and 0 <= seat < state.n
            require(valid and houses[seat] is None, "bad_seat",
                    f"{self.who(state, seat)} is listed twice" if valid else
                    f"each player needs a seat from 0 to {state.n - 1}, not {seat}")
            require(house in self.house_ids, "unknown_house",
                    f'"{house}" is not a House of this set ({words_list(self.house_ids)})')
            name = entry.get("name")
            require(name is None or name == state.names[seat], "player_name_mismatch",
                    f"this seat is {state.names[seat]} in the created game, not {name}")
            houses[seat] = house
        return [h for h in houses if h is not None]

    def _deck_for(self: Any, seat: Seat, house: str, custom: Any
                  ) -> tuple[int, list[int], list[int]]:
        """(house card, plots, draw deck) of a starter or validated custom deck (§2.3)."""
        if custom is None:
            require(house in self.starter, "no_starter_deck",
                    f"House {house} has no starter deck in this box; supply a custom deck")
            deck = self.starter[house]
            return int(deck["house_card"]), list(deck["plots"]), list(deck["draw_deck"])
        try:
            house_card = int(custom["house_card"])
            plots = [int(x) for x in custom["plots"]]
            draw = [int(x) for x in custom["draw_deck"]]
        except (KeyError, TypeError, ValueError):
            raise bad("bad_deck", f"a custom deck for House {house} lists its House card, "
                      "plots and draw deck as card numbers") from None
        for num in [house_card, *plots, *draw]:
            require(num in self.by_number, "unknown_card", f"card number {num} is not in the set")
        require(house_card == self.house_ids[house], "bad_deck",
                f"House {house}'s deck needs its own House card, "
                f"{self.by_number[self.house_ids[house]]['name']} (number "
                f"{self.house_ids[house]})")
        require(len(plots) == int(self.const["plot_deck_size"]) and all(
            self.by_number[p]["type"] == "plot" for p in plots), "bad_deck",
            f"a deck needs exactly {self.const['plot_deck_size']} plots; House {house}'s deck "
            f"has {len(plots)}")
        require(all(self.by_number[p].get("house_only") in (None, house) for p in plots),
                "bad_deck", f"House {house}'s plots include one restricted to another House")
        require(bool(draw) and all(self.by_number[d]["type"] in
                                   ("character", "location", "attachment", "event")
                                   for d in draw), "bad_deck",
                f"House {house}'s draw deck needs at least one card, and only characters, "
                "locations, attachments and events")
        return house_card, plots, draw

    # -- mulligan, setup (§5, §6.2-§6.4) ----------------------------------------------
    def _apply_mulligan(self: Any, state: State, action: Action) -> State:
        seat = self.seat_of(state, action)
        require(bool(state.option("allow_mulligan")), "mulligan_off",
                "mulligans are off in this game (option: mulligan allowed)")
        player = state.players[seat]
        require(state.phase == "setup" and not player.set_up and not player.mulliganed,
                "wrong_phase", "a mulligan is allowed once, before the player sets up")
        pool = player.deck.add(player.hand)
        new = str_list(action.data.get("new_hand") or [], "new_hand")
        need = min(int(self.const["setup_hand_size"]), len(pool))
        require(len(new) == need and len(set(new)) == need, "bad_setup_hand",
                f"a new hand holds {plural(need, 'distinct card')}, got {len(new)}")
        deck = self.take(state, pool, new, f"{self.whose(state, seat)} deck")
        return state.with_player(seat, deck=deck, hand=Bag(new), mulliganed=True)

    def _apply_setup_cards(self: Any, state: State, action: Action) -> State:
        require(state.phase == "setup", "wrong_phase", "setup is over")
        self.require_turn(state, action, state.turn, "set up")
        seat, player = state.turn, state.players[state.turn]
        entries = [(e.get("card"), e.get("attach_to")) for e in action.data["cards"]]
        cards = [c for c, _ in entries]
        self.check_setup(state, seat, entries)
        hand = self.take(state, player.hand, cards, f"{self.whose(state, seat)} hand",
                         "card_not_in_hand")
        state = state.with_player(seat, hand=hand, setup_cards=tuple(entries), set_up=True)
        nxt = self.next_after(state, seat, state.setup_first)
        if nxt is not None:
            return replace(state, turn=nxt)
        return self._reveal_setup(state)

    def check_setup(self: Any, state: State, seat: Seat, entries: list[tuple[Any, Any]]
                    ) -> None:
        """§5.3 / §6.3: what may be placed face down at setup."""
        player = state.players[seat]
        cards = [c for c, _ in entries]
        require(len(set(cards)) == len(cards), "duplicate_card", "a card is listed twice")
        total, limited, names = 0, 0, set()
        for card, attach in entries:
            require(self.is_known(card) and card in player.hand, "card_not_in_hand",
                    f"{self.thing(state, card)} is not in {self.whose(state, seat)} hand",
                    card=card)
            data = self.card(card)
            setup_ok = data["type"] in ("character", "location") or "setup" in data["keywords"]
            require(setup_ok, "setup_card_type", f"{data['name']} is {a_an(data['type'])}; "
                    "setup takes characters and locations only", card=card)
            require(attach is None or (attach == "house" and
                                       data.get("may_attach_to_own_house_card")),
                    "illegal_attachment_target", f"{data['name']} cannot attach to "
                    f"{self.thing(state, attach)} in setup")
            self.check_house_only(state, seat, card)
            total += int(data.get("cost") or 0) + self.surcharge(card, player.house)
            limited += "limited" in data["keywords"]
            if data["unique"]:
                require(data["name"] not in names, "unique_twice",
                        f"two copies of unique {data['name']} in setup", card=card)
                names.add(data["name"])
        gold = int(self.const["setup_gold"])
        require(total <= gold, "setup_over_gold",
                f"setup may cost at most {gold} gold; these cards cost {total}", total=total)
        most = int(self.const["setup_max_limited"])
        require(limited <= most, "setup_two_limited",
                f"setup may hold at most {plural(most, 'limited card')}; these hold {limited}")

    def _reveal_setup(self: Any, state: State) -> State:
        """§5.4: every face-down card enters play standing, all at once."""
        cards = list(state.cards)
        players = list(state.players)
        for seat, player in enumerate(players):
            for card, attach in player.setup_cards:
                cards.append(self.new_in_play(card, seat, f"house:{seat}" if attach else None))
            players[seat] = replace(player, setup_cards=())
        return replace(state, cards=tuple(cards), players=tuple(players), phase="setup_draw",
                       turn=None)

    @staticmethod
    def new_in_play(card: CardId, seat: Seat, host: str | None = None,
                    knelt: bool = False) -> InPlay:
        return InPlay(id=card, controller=seat, host=host, knelt=knelt)

    def _take_draws(self: Any, state: State, draws: Any, counts: dict[Seat, int]) -> State:
        for seat, need in counts.items():
            cards = str_list(per_seat(draws, seat) or [], f"the draw of {self.who(state, seat)}")
            require(len(cards) == need and len(set(cards)) == need, "wrong_draw_count",
                    f"{self.who(state, seat)} draws exactly {plural(need, 'card')}, not "
                    f"{len(cards)}", seat=seat)
            player = state.players[seat]
            deck = self.take(state, player.deck, cards, f"{self.whose(state, seat)} deck")
            state = state.with_player(seat, deck=deck, hand=player.hand.add(cards))
        for key in draws or {}:
            require(str(key) in {str(s) for s in counts}, "wrong_draw_count",
                    f"{self.who(state, int(key)) if str(key).isdigit() else key} does not "
                    "draw now")
        return state

    def setup_draw_counts(self: Any, state: State) -> dict[Seat, int]:
        size = int(self.const["setup_hand_size"])
        return {s: min(max(0, size - len(state.players[s].hand)), len(state.players[s].deck))
                for s in state.active}

    def _apply_setup_draw(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table deals the setup draw")
        require(state.phase == "setup_draw", "wrong_phase", "the setup draw comes after setup")
        state = self._take_draws(state, action.data.get("draws"), self.setup_draw_counts(state))
        return self.begin_plot_phase(state)

    # -- plot phase (§7.1) --------------------------------------------------------------
    def begin_plot_phase(self: Any, state: State) -> State:
        players = list(state.players)
        for seat, p in enumerate(players):
            if not p.conceded and not p.plot_deck:
                players[seat] = replace(p, plot_deck=Bag(p.used_plots), used_plots=())
        return replace(state, players=tuple(players), phase="plot", step="choose",
                       round=state.round + 1, first_player=None, turn=None,
                       initiative_winner=None, tied=(), dominance_done=False)

    def plot_source(self, state: State, seat: Seat) -> Seat:
        """Whose plot deck `seat` chooses from (§9 swap_plot_decks)."""
        for a, b in state.swaps:
            if seat == a:
                return b
            if seat == b:
                return a
        return seat

    def _apply_choose_plot(self: Any, state: State, action: Action) -> State:
        seat = self.seat_of(state, action)
        require(state.phase == "plot" and state.step == "choose", "wrong_phase",
                "plots are chosen at the start of the plot phase")
        require(state.players[seat].chosen_plot is None, "already_chosen",
                f"{self.who(state, seat)} has already chosen a plot this round")
        plot = action.data["plot"]
        source = self.plot_source(state, seat)
        require(plot in state.players[source].plot_deck, "plot_not_available",
                f"{self.thing(state, plot)} is not in {self.whose(state, source)} plot deck",
                card=plot)
        only = self.card(plot).get("house_only")
        require(not only or only == state.players[seat].house, "house_only",
                f"plot is restricted to another House: {self.name(plot)} is House {only} only")
        state = state.with_player(seat, chosen_plot=plot)
        if all(state.players[s].chosen_plot for s in state.active):
            return self._reveal_plots(state)
        return state

    def _reveal_plots(self: Any, state: State) -> State:
        for seat in state.active:
            plot = state.players[seat].chosen_plot
            owner = owner_of(plot)
            state = state.with_player(owner, plot_deck=state.players[owner].plot_deck.take(
                [plot]))
            state = state.with_player(seat, revealed_plot=plot, chosen_plot=None)
        return self.settle_initiative(state)

    def plot_value(self: Any, state: State, seat: Seat, field: str) -> int:
        plot = state.players[seat].revealed_plot
        value = int(self.card(plot)["plot"][field]) if plot else 0
        for who, fld, mode, amount, _ in state.plot_mods:
            if who == seat and fld == field:
                value = amount if mode == "set" else value + amount
        return max(0, value)

    def initiative(self: Any, state: State, seat: Seat) -> int:
        bonus = sum(int(self.card(c.id).get("initiative_bonus") or 0) for c in state.cards
                    if c.controller == seat)
        return self.plot_value(state, seat, "initiative") + bonus

    def settle_initiative(self: Any, state: State) -> State:
        """§7.1.4: highest initiative, then lowest total power, then a random tie-break."""
        seats = state.active
        best = max(self.initiative(state, s) for s in seats)
        tied = [s for s in seats if self.initiative(state, s) == best]
        low = min(self.total_power(state, s) for s in tied)
        tied = [s for s in tied if self.total_power(state, s) == low]
        if len(tied) > 1:
            return replace(state, step="tie", tied=tuple(tied), initiative_winner=None)
        return replace(state, step="first_player", tied=(), initiative_winner=tied[0])

    def _apply_break_initiative_tie(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table breaks an initiative tie")
        require(state.phase == "plot" and state.step == "tie", "wrong_phase",
                "no initiative tie is waiting to be broken")
        winner = action.data.get("winner")
        require(winner in state.tied, "not_tied",
                f"{self.who(state, winner)} is not tied for initiative; the tie is between "
                f"{words_list(self.who(state, s) for s in state.tied)}", winner=winner)
        return replace(state, step="first_player", tied=(), initiative_winner=winner)

    def _apply_choose_first_player(self: Any, state: State, action: Action) -> State:
        require(state.phase == "plot" and state.step == "first_player", "wrong_phase",
                "the first player is chosen once initiative is settled")
        self.require_turn(state, action, state.initiative_winner, "choose the first player")
        first = action.data["first_player"]
        require(first in state.active, "bad_seat",
                f"the first player must be a player still in the game, not "
                f"{self.who(state, first)}")
        state = replace(state, first_player=first)
        if self.is_melee(state):
            return replace(state, step="titles", turn=first)
        return self.begin_draw_phase(state)

    def is_melee(self, state: State) -> bool:
        return state.n > 2

    def _apply_choose_title(self: Any, state: State, action: Action) -> State:
        require(state.phase == "plot" and state.step == "titles", "wrong_phase",
                "titles are chosen after the first player, in a melee")
        self.require_turn(state, action, state.turn, "choose a title")
        title = action.data["title"]
        require(title in self.title_data, "unknown_title", f'"{title}" is not a title')
        require(title not in state.titles, "title_taken",
                f"{self.title_data[title]['name']} is already taken this round")
        state = replace(state, titles=(*state.titles[:state.turn], title,
                                      *state.titles[state.turn + 1:]))
        nxt = self.next_after(state, state.turn)
        return replace(state, turn=nxt) if nxt is not None else self.begin_draw_phase(state)

    # -- draw and marshalling (§7.2, §7.3, §6.10, §6.11) --------------------------------------
    def begin_draw_phase(self: Any, state: State) -> State:
        return self.set_phase(replace(state, turn=None, step=""), "draw")

    def draw_counts(self: Any, state: State) -> dict[Seat, int]:
        base = int(self.const["draw_phase_cards"])
        return {s: min(base + (state.titles[s] == "master_of_laws"),
                       len(state.players[s].deck)) for s in state.active}

    def _apply_draw_phase(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table deals the draw phase")
        require(state.phase == "draw", "wrong_phase", "it is not the draw phase")
        state = self._take_draws(state, action.data.get("draws"), self.draw_counts(state))
        state = self.set_phase(state, "marshalling")
        return self.begin_marshal_turn(state, self.order(state)[0])

    def income(self: Any, state: State, seat: Seat) -> int:
        total = self.plot_value(state, seat, "income")
        if seat not in state.suppress_income:
            total += sum(int(self.card(c.id).get("income_bonus") or 0) for c in state.cards
                         if c.controller == seat)
        if state.titles and state.titles[seat] == "master_of_coin":
            total += int(self.title_data["master_of_coin"]["ability"]["amount"])
        return total

    def begin_marshal_turn(self: Any, state: State, seat: Seat) -> State:
        return replace(state.with_player(seat, gold=state.players[seat].gold +
                                         self.income(state, seat)), turn=seat)

    def _apply_marshal_card(self: Any, state: State, action: Action) -> State:
        require(state.phase == "marshalling", "wrong_phase", "it is not the marshalling phase")
        self.require_turn(state, action, state.turn, "marshal")
        seat, data = state.turn, action.data
        card = data["card"]
        player = state.players[seat]
        require(self.is_known(card) and card in player.hand, "card_not_in_hand",
                f"{self.thing(state, card)} is not in {self.whose(state, seat)} hand",
                card=card)
        kind = self.card(card)["type"]
        require(kind in ("character", "location", "attachment"), "not_marshallable",
                f"{self.name(card)} is {a_an(kind)} card and cannot be marshalled (§6.10)")
        self.check_house_only(state, seat, card)
        if data.get("as_duplicate"):
            return self._marshal_duplicate(state, seat, card, data)
        return self._marshal_normal(state, seat, card, data)

    def _marshal_duplicate(self: Any, state: State, seat: Seat, card: CardId, data: Any
                           ) -> State:
        name = self.name(card)
        base = self.controls_name(state, seat, name) if self.card(card)["unique"] else None
        require(base is not None, "no_duplicate_base",
                f"a duplicate needs a unique card of the same name in play; "
                f"{self.who(state, seat)} controls no {name}", card=card)
        require(data.get("declared_cost") in (None, 0), "cost_mismatch",
                "cost mismatch (expected 0): duplicates cost 0")
        assert base is not None
        cards = tuple(replace(c, duplicates=(*c.duplicates, card)) if c.id == base.id else c
                      for c in state.cards)
        player = state.players[seat]
        return replace(state.with_player(seat, hand=player.hand.take([card])), cards=cards)

    def _marshal_normal(self: Any, state: State, seat: Seat, card: CardId, data: Any) -> State:
        player = state.players[seat]
        self.check_unique(state, seat, card)
        limited = "limited" in self.card(card)["keywords"]
        require(not (limited and player.limited_played), "limited_per_round",
                f"only one limited card per round; {self.who(state, seat)} already "
                "marshalled one",
                card=card)
        host = data.get("attach_to")
        if self.card(card)["type"] == "attachment" or host is not None:
            require(host is not None, "illegal_attachment_target",
                    f"illegal attachment target: {self.name(card)} needs a character to "
                    "attach to")
            self.check_host(state, seat, card, host)
            host = f"house:{seat}" if host == "house" else host
        cost, used = self.marshal_cost(state, seat, card)
        require(cost <= player.gold, "not_enough_gold",
                f"not enough gold: {self.name(card)} costs {cost}, {self.who(state, seat)} has "
                f"{player.gold}", cost=cost, gold=player.gold)
        declared = data.get("declared_cost")
        require(declared is None or declared == cost, "cost_mismatch",
                f"cost mismatch (expected {cost}), declared {declared}", expected=cost)
        reductions = tuple(r for i, r in enumerate(player.reductions) if i not in used)
        state = state.with_player(seat, hand=player.hand.take([card]), gold=player.gold - cost,
                                  reductions=reductions,
                                  limited_played=player.limited_played or limited)
        return replace(state, cards=(*state.cards, self.new_in_play(card, seat, host)))

    def _apply_end_marshalling(self: Any, state: State, action: Action) -> State:
        require(state.phase == "marshalling", "wrong_phase", "it is not the marshalling phase")
        self.require_turn(state, action, state.turn, "end marshalling")
        nxt = self.next_after(state, state.turn)
        if nxt is not None:
            return self.begin_marshal_turn(state, nxt)
        state = self.set_phase(state, "challenges")
        return replace(state, turn=self.order(state)[0], passed=frozenset())

    # -- phases ----------------------------------------------------------------------------
    def set_phase(self: Any, state: State, phase: str) -> State:
        """Enter `phase`; "until end of phase" modifiers, reductions and extras expire."""
        players = tuple(replace(p, reductions=(), extra=(0, 0, 0)) for p in state.players)
        mods = tuple(m for m in state.modifiers if m.until != "phase")
        return replace(state, phase=phase, players=players, modifiers=mods)

    # -- dominance, standing, taxation (§7.5, §7.6) -------------------------------------------
    def dominance_total(self: Any, state: State, seat: Seat) -> int:
        index = self.play_index(state)
        str_sum = sum(self.strength(state, c.id, index) for c in state.cards
                      if c.controller == seat and c.host is None and not c.knelt
                      and self.is_character(c.id))
        return str_sum + state.players[seat].gold

    def _apply_resolve_dominance(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table resolves dominance")
        require(state.phase == "dominance" and not state.dominance_done, "wrong_phase",
                "dominance is resolved once, in the dominance phase")
        totals = {s: self.dominance_total(state, s) for s in state.active}
        best = max(totals.values())
        winners = [s for s, t in totals.items() if t == best]
        state = replace(state, dominance_done=True)
        if len(winners) == 1:  # §7.5: a tie for highest gains nothing (seed)
            state = self.gain_house_power(state, winners[0], int(self.const["dominance_power"]))
        return state

    def gain_house_power(self, state: State, seat: Seat, amount: int) -> State:
        player = state.players[seat]
        state = state.with_player(seat, house_power=player.house_power + amount)
        return replace(state, power_issued=state.power_issued + amount)

    def _apply_end_round(self: Any, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "the table ends the round")
        require(state.phase == "dominance" and state.dominance_done, "wrong_phase",
                "the round ends after dominance is resolved")
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
        state = replace(state, cards=cards, players=tuple(players),
                        modifiers=tuple(m for m in state.modifiers
                                        if m.until not in ("round", "phase", "challenge")),
                        titles=(None,) * state.n, title_uses=frozenset(), forbids=(),
                        suppress_income=frozenset(), skip_taxation=frozenset(), swaps=(),
                        plot_mods=(), passed=frozenset())
        return self.begin_plot_phase(self.set_phase(state, "plot"))

    def seat_of(self, state: State, action: Action) -> Seat:
        seat = action.actor
        require(isinstance(seat, int) and 0 <= seat < state.n, "not_your_turn",
                f"a player takes this action, not {self.who(state, seat)}")
        assert isinstance(seat, int)
        require(not state.players[seat].conceded, "conceded",
                f"{self.who(state, seat)} has conceded")
        return seat


__all__ = ["IllegalAction", "RoundsMixin", "per_seat", "str_list"]
