"""Card data and derived values: current STR, icons, keywords, costs, hosts (§3, §6.14, §7.3)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from ..rules import Action, Bag, IllegalAction, possessive, require, seat_name, words_list
from .model import CardId, InPlay, Modifier, Seat, State, owner_of, parse_id
from .words import house_card_of


class CardsMixin:
    edition: Any

    # -- edition ------------------------------------------------------------
    @cached_property
    def by_number(self) -> dict[int, dict[str, Any]]:
        return {int(c["number"]): c for c in self.edition["cards"]}

    @cached_property
    def const(self) -> dict[str, Any]:
        return dict(self.edition["constants"])

    @cached_property
    def title_data(self) -> dict[str, dict[str, Any]]:
        return {t["id"]: t for t in self.edition["titles"]}

    @cached_property
    def starter(self) -> dict[str, dict[str, Any]]:
        return dict(self.edition["starter_decks"])

    @cached_property
    def house_ids(self) -> dict[str, int]:
        return {h["id"]: int(h["house_card"]) for h in self.edition["houses"]}

    @cached_property
    def _memo(self) -> dict[str, Any]:
        return {}

    def card(self, card: CardId) -> dict[str, Any]:
        memo = self._memo
        if card not in memo:
            memo[card] = self.by_number[int(card.split("-")[1])]
        return memo[card]

    def is_known(self, card: Any) -> bool:
        if isinstance(card, str) and card in self._memo:
            return True
        parsed = parse_id(card)
        return parsed is not None and parsed[1] in self.by_number

    def name(self, card: CardId) -> str:
        return self.card(card)["name"] if self.is_known(card) else str(card)

    # -- words in messages ------------------------------------------------------
    @staticmethod
    def who(state: State, seat: Any) -> str:
        """The player's name for a seat: every refusal names players, never seat numbers."""
        return "nobody" if seat is None else seat_name(state.names, seat)

    def whose(self, state: State, seat: Any) -> str:
        return possessive(self.who(state, seat))

    def seats_words(self, state: State, seats: Any, conjunction: str = "and") -> str:
        return words_list([self.who(state, s) for s in seats], conjunction)

    def thing(self, state: State, value: Any) -> str:
        """How a message names what an action pointed at: a card by its name, a House card
        by its player; anything else (a typo, an unknown id) as it was typed."""
        if self.is_known(value):
            return self.name(value)
        if isinstance(value, str) and value.startswith("house:") and value[6:].isdigit() \
                and int(value[6:]) < state.n:
            return house_card_of(state.names, int(value[6:]))
        if value == "house":
            return "the House card"
        return "nothing" if value is None else f'"{value}"'

    def take(self, state: State, bag: Bag, cards: list[CardId], where: str,
             code: str = "not_available") -> Bag:
        """`bag` without `cards`; a missing card is refused by its name ("Ice is not in
        Anna's hand"), not by its instance id."""
        try:
            return bag.take(cards, code=code, where=where)
        except IllegalAction as err:
            card = err.details.get("card")
            raise IllegalAction(err.code, f"{self.thing(state, card)} is not in {where}",
                                card=card) from None

    def require_turn(self, state: State, action: Action, seat: Any, what: str) -> None:
        """Refuse an action whose actor is not `seat` (code `not_your_turn`), naming both."""
        if action.actor != seat:
            raise IllegalAction("not_your_turn", f"it is {self.whose(state, seat)} turn to "
                                f"{what}, not {self.whose(state, action.actor)}",
                                expected=seat, actor=action.actor)

    def in_house(self, card: CardId, house: str) -> bool:
        houses = self.card(card)["houses"]
        return not houses or house in houses

    def surcharge(self, card: CardId, house: str) -> int:
        return 0 if self.in_house(card, house) else int(self.const["out_of_house_surcharge"])

    # -- zones ----------------------------------------------------------------
    @staticmethod
    def play_index(state: State) -> dict[CardId, InPlay]:
        return {c.id: c for c in state.cards}

    @staticmethod
    def attachments_of(state: State, host: str) -> list[InPlay]:
        return [c for c in state.cards if c.host == host]

    def is_character(self, card: CardId) -> bool:
        return self.card(card)["type"] == "character"

    def participating(self, state: State) -> tuple[set[CardId], set[CardId]]:
        ch = state.challenge
        if ch is None:
            return set(), set()
        return set(ch.attackers), set(ch.defenders)

    # -- derived values (§3) ----------------------------------------------------
    def _grant_active(self, grant: dict[str, Any], card: CardId, state: State) -> bool:
        when = grant.get("when", "always")
        if when == "participating":
            att, dfn = self.participating(state)
            return card in att or card in dfn
        if when == "dominance_phase":
            return state.phase == "dominance"
        return True

    def _matches(self, mod: Modifier, card: InPlay, state: State) -> bool:
        """A continuous filter (§9) against printed values (ruling: no recursion)."""
        data = self.card(card.id)
        return all(_filter_holds(key, want, mod, card, data) for key, want in mod.filter)

    def _continuous_active(self, mod: Modifier, card: InPlay, state: State,
                           index: dict[CardId, InPlay]) -> bool:
        source = index.get(mod.card)
        if source is None or (mod.standing and source.knelt):
            return False
        if not self.is_character(card.id) or not self._matches(mod, card, state):
            return False
        if mod.when == "always":
            return True
        if mod.when == "dominance_phase":
            return state.phase == "dominance"
        att, dfn = self.participating(state)
        return {"participating": card.id in att | dfn, "attacking": card.id in att,
                "defending": card.id in dfn}.get(mod.when, False)

    def _boosts(self, state: State, card: InPlay, index: dict[CardId, InPlay]
                ) -> list[dict[str, Any]]:
        """Every active grant or modifier as a dict of strength/icons/keywords changes."""
        out = [g for a in state.cards if a.host == card.id
               for g in self.card(a.id).get("grants", ()) if self._grant_active(g, card.id,
                                                                                  state)]
        for mod in state.modifiers:
            if mod.kind == "continuous":
                if self._continuous_active(mod, card, state, index):
                    out.append({"strength": mod.amount, "icons": mod.icons,
                                "keywords": mod.keywords})
            elif mod.card == card.id:
                out.append({"mod": mod})
        return out

    def values(self, state: State, card: CardId, index: dict[CardId, InPlay] | None = None
               ) -> tuple[int, frozenset[str], frozenset[str], bool]:
        """(current STR, icons, keywords, no_strength) of a card in play (§3)."""
        index = index if index is not None else self.play_index(state)
        data = self.card(card)
        strength = int(data.get("strength") or 0)
        icons, keywords = set(data["icons"]), set(data["keywords"])
        lost_icons: set[str] = set()
        lost_keywords: set[str] = set()
        blank = False
        for boost in self._boosts(state, index[card], index):
            mod = boost.get("mod")
            if mod is None:
                strength += int(boost.get("strength") or 0)
                icons.update(boost.get("icons") or ())
                keywords.update(boost.get("keywords") or ())
            elif mod.kind == "strength":
                strength += mod.amount
            elif mod.kind == "no_strength":
                blank = True
            elif mod.kind == "gain_icon":
                icons.add(mod.value)
            elif mod.kind == "lose_icon":
                lost_icons.add(mod.value)
            elif mod.kind == "gain_keyword":
                keywords.add(mod.value)
            elif mod.kind == "lose_keyword":
                lost_keywords.add(mod.value)
        return (max(0, strength), frozenset(icons - lost_icons),
                frozenset(keywords - lost_keywords), blank)

    def strength(self, state: State, card: CardId, index: dict[CardId, InPlay] | None = None
                 ) -> int:
        value, _, _, blank = self.values(state, card, index)
        return 0 if blank else value

    def has_icon(self, state: State, card: CardId, icon: str,
                 index: dict[CardId, InPlay] | None = None) -> bool:
        return icon in self.values(state, card, index)[1]

    def has_keyword(self, state: State, card: CardId, keyword: str,
                    index: dict[CardId, InPlay] | None = None) -> bool:
        return keyword in self.values(state, card, index)[2]

    # -- power (§3) ---------------------------------------------------------------
    def total_power(self, state: State, seat: Seat) -> int:
        player = state.players[seat]
        if player.conceded:
            return player.final_power
        excluded = self._excluded_seats(state)
        on_cards = 0 if seat in excluded else sum(c.power for c in state.cards
                                                   if c.controller == seat)
        return player.house_power + on_cards

    def _excluded_seats(self, state: State) -> set[Seat]:
        index = None
        out: set[Seat] = set()
        for mod in state.modifiers:
            if mod.kind != "exclude_power":
                continue
            index = index or self.play_index(state)
            source = index.get(mod.card)
            if source is not None and not (mod.standing and source.knelt):
                out.update(mod.players)
        return out

    # -- uniqueness, cost, hosts ------------------------------------------------
    def controls_name(self, state: State, seat: Seat, name: str) -> InPlay | None:
        for c in state.cards:
            if c.controller == seat and c.host is None and self.card(c.id)["name"] == name:
                return c
        for c in state.cards:
            if c.controller == seat and self.card(c.id)["name"] == name:
                return c
        return None

    def check_unique(self, state: State, seat: Seat, card: CardId) -> None:
        """§10.1/§10.2: no second copy of a unique card in play or (option) in the dead pile."""
        data = self.card(card)
        if not data["unique"]:
            return
        name = data["name"]
        require(self.controls_name(state, seat, name) is None, "unique_in_play",
                f"unique card already in play: {self.who(state, seat)} already controls "
                f"{name}", card=card)
        if state.option("dead_pile_blocks_unique"):
            dead = state.players[owner_of(card)].dead
            require(all(self.card(d)["name"] != name for d in dead), "unique_in_dead_pile",
                    f"unique card in dead pile: {name} is in "
                    f"{self.whose(state, owner_of(card))} dead pile", card=card)

    def check_house_only(self, state: State, seat: Seat, card: CardId) -> None:
        only = self.card(card).get("house_only")
        require(not only or state.players[seat].house == only, "house_only",
                f"card is restricted to another House: {self.name(card)} is House {only} only, "
                f"and {self.who(state, seat)} plays House {state.players[seat].house}",
                card=card)

    def self_reduction(self, state: State, seat: Seat, card: CardId) -> int:
        rule = self.card(card).get("self_cost_reduction")
        if not rule:
            return 0
        if "if_in_play_name" in rule:
            present = any(self.card(c.id)["name"] == rule["if_in_play_name"]
                          for c in state.cards)
            return int(rule["amount"]) if present else 0
        trait = rule.get("per_controlled_trait")
        count = sum(1 for c in state.cards if c.controller == seat and c.host is None
                    and self.is_character(c.id) and trait in self.card(c.id)["traits"])
        return count * int(rule["amount"])

    def reduction_matches(self, red_filter: tuple[tuple[str, Any], ...], card: CardId) -> bool:
        data = self.card(card)
        for key, want in red_filter:
            if key == "type" and data["type"] != want:
                return False
            if key == "house" and want not in data["houses"]:
                return False
            if key in ("trait", "icon", "crest", "keyword") and want not in data[key + "s"]:
                return False
            if key == "name" and data["name"] != want:
                return False
            if key == "unique" and bool(data["unique"]) != bool(want):
                return False
        return True

    def marshal_cost(self, state: State, seat: Seat, card: CardId) -> tuple[int, list[int]]:
        """(cost, indices of pending reductions used) for marshalling `card` (§7.3)."""
        player = state.players[seat]
        base = int(self.card(card).get("cost") or 0) + self.surcharge(card, player.house)
        base -= self.self_reduction(state, seat, card)
        used = [i for i, r in enumerate(player.reductions)
                if self.reduction_matches(r.filter, card)]
        base -= sum(player.reductions[i].amount for i in used)
        return max(0, base), used

    def check_host(self, state: State, seat: Seat, card: CardId, host: Any) -> None:
        """§6.14: is `host` a legal place for attachment (or Chambers) `card`?"""
        data = self.card(card)
        if host == "house" or (isinstance(host, str) and host.startswith("house:")):
            require(bool(data.get("may_attach_to_own_house_card")), "illegal_attachment_target",
                    f"illegal attachment target: {data['name']} cannot go on a House card")
            require(host in ("house", f"house:{owner_of(card)}"), "illegal_attachment_target",
                    f"illegal attachment target: {data['name']} goes only on its owner's "
                    f"House card, {house_card_of(state.names, owner_of(card))}")
            return
        require(data["type"] == "attachment", "illegal_attachment_target",
                f"illegal attachment target: {data['name']} is not an attachment")
        index = self.play_index(state)
        target = index.get(host) if isinstance(host, str) else None
        require(host != card, "illegal_attachment_target",
                f"illegal attachment target: {data['name']} cannot attach to itself (§6.14: "
                "the host is a character in play)", host=host)
        require(target is not None and target.host is None and self.is_character(host),
                "illegal_attachment_target",
                f"illegal attachment target: {self.thing(state, host)} is not a character in "
                "play", host=host)
        assert target is not None
        self._check_host_rules(state, seat, card, target, index)

    def _check_host_rules(self, state: State, seat: Seat, card: CardId, target: InPlay,
                          index: dict[CardId, InPlay]) -> None:
        data, rules = self.card(card), self.card(card).get("attach_rules") or {}
        host_data = self.card(target.id)
        keywords = self.values(state, target.id, index)[2]
        msg = f"illegal attachment target: {data['name']} on {host_data['name']}"
        require("no_attachments" not in keywords, "illegal_attachment_target",
                msg + " (no attachments)")
        require("no_attachments_except_weapon" not in keywords or "Weapon" in data["traits"],
                "illegal_attachment_target", msg + " (weapons only)")
        require(rules.get("controller") != "opponent" or target.controller != seat,
                "illegal_attachment_target", msg + " (must be an opponent's character)")
        house = rules.get("character_house")
        require(not house or house in host_data["houses"], "illegal_attachment_target",
                msg + f" (needs a {house} character)")
        traits = rules.get("character_traits_any")
        require(not traits or bool(set(traits) & set(host_data["traits"])),
                "illegal_attachment_target", msg + f" (needs trait {' or '.join(traits or ())})")
        if rules.get("max_per_character"):
            require(all(self.card(a.id)["name"] != data["name"]
                        for a in state.cards if a.host == target.id),
                    "illegal_attachment_target", msg + " (one per character)")


def _controller_holds(want: Any, mod: Modifier, card: InPlay) -> bool:
    if want == "self":
        return bool(card.controller == mod.seat)
    if want == "opponents":
        return bool(card.controller != mod.seat)
    return bool(card.controller == want)


#: a filter key -> whether a card's printed data meets the wanted value
_PRINTED: dict[str, Any] = {
    "type": lambda data, want: data["type"] == want,
    "house": lambda data, want: want in data["houses"],
    "trait": lambda data, want: want in data["traits"],
    "icon": lambda data, want: want in data["icons"],
    "crest": lambda data, want: want in data["crests"],
    "keyword": lambda data, want: want in data["keywords"],
    "name": lambda data, want: data["name"] == want,
    "unique": lambda data, want: bool(data["unique"]) == bool(want),
}


def _filter_holds(key: str, want: Any, mod: Modifier, card: InPlay,
                  data: Mapping[str, Any]) -> bool:
    """One clause of a continuous filter; a clause chronicle does not know holds."""
    if key == "controller":
        return _controller_holds(want, mod, card)
    test = _PRINTED.get(key)
    return True if test is None else bool(test(data, want))
