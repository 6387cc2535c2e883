"""The generic `effect` event (spec §9) and leaving play (§7.8)."""

from __future__ import annotations

from typing import Any

from ..rules import Action, freeze, plural, require, words_list
from .model import TYPES, CardId, InPlay, Modifier, Reduction, Seat, State, bad, owner_of, replace
from .words import PILES, a_an, words

UNTILS = ("challenge", "phase", "round")
FILTER_KEYS = ("controller", "type", "house", "trait", "icon", "crest", "keyword", "name",
               "unique")


def _op(op: Any) -> str:
    """An op in words ("the move power effect"), as a refusal names it."""
    return f"the {words(str(op.get('op')))} effect"


def _get(op: Any, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in op or op[key] is None:
        if default is ...:
            raise bad("bad_op", f"{_op(op)} needs its {words(key)}", field=key)
        return default
    value = op[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    require(ok, "bad_op", f"{_op(op)}: its {words(key)} has the wrong type", field=key)
    return value


def _amount(op: Any, key: str = "amount") -> int:
    value = _get(op, key, int)
    require(value >= 0, "bad_op", f"{_op(op)}: its {words(key)} must not be negative ({value})")
    return value


def _ids(op: Any, key: str) -> list[str]:
    value = _get(op, key, (list, tuple))
    require(all(isinstance(v, str) for v in value) and len(set(value)) == len(value),
            "bad_op", f"{_op(op)}: its {words(key)} must list each card once")
    return list(value)


class EffectsMixin:
    # -- power ----------------------------------------------------------------
    def add_power(self: Any, state: State, target: str, delta: int) -> State:
        """Power on a card or a House card (`house:<seat>`), from or to the pool."""
        if target.startswith("house:"):
            seat = int(target[6:])
            player = state.players[seat]
            require(player.house_power + delta >= 0, "not_enough_power",
                    f"{self.whose(state, seat)} House card holds {player.house_power} power, "
                    f"not {-delta}")
            state = state.with_player(seat, house_power=player.house_power + delta)
        else:
            card = self.in_play(state, target)
            require(card.power + delta >= 0, "not_enough_power",
                    f"{self.name(target)} holds {card.power} power, not {-delta}")
            state = self.update_card(state, replace(card, power=card.power + delta))
        return replace(state, power_issued=state.power_issued + delta)

    def power_on(self: Any, state: State, target: str) -> int:
        if target.startswith("house:"):
            return state.players[int(target[6:])].house_power
        return self.in_play(state, target).power

    # -- zones ----------------------------------------------------------------
    def in_play(self: Any, state: State, card: Any) -> InPlay:
        for c in state.cards:
            if c.id == card:
                return c
        raise bad("not_in_play", f"{self.thing(state, card)} is not in play", card=card)

    @staticmethod
    def update_card(state: State, card: InPlay) -> State:
        return replace(state, cards=tuple(card if c.id == card.id else c for c in state.cards))

    def house_target(self, state: State, target: Any) -> Seat | None:
        if isinstance(target, str) and target.startswith("house:") and target[6:].isdigit():
            seat = int(target[6:])
            require(seat < state.n and not state.players[seat].conceded, "not_in_play",
                    f"{self.thing(state, target) if seat < state.n else target} is not a House "
                    "card in the game")
            return seat
        return None

    def leave_play(self: Any, state: State, card: CardId, dest: str) -> State:
        """§7.8: a card leaves play for `dest` (dead, discard, hand, removed)."""
        ip = self.in_play(state, card)
        for att in [c for c in state.cards if c.host == card]:
            state = self.leave_play(state, att.id, "discard")
        if ip.power:
            state = self.add_power(state, card, -ip.power)
        for dup in ip.duplicates:
            state = self.to_pile(state, dup, "discard")
        state = replace(state, cards=tuple(c for c in state.cards if c.id != card),
                        modifiers=tuple(m for m in state.modifiers if m.card != card))
        ch = state.challenge
        if ch is not None:
            state = replace(state, challenge=replace(
                ch, attackers=tuple(a for a in ch.attackers if a != card),
                defenders=tuple(d for d in ch.defenders if d != card),
                stealth=tuple(p for p in ch.stealth if card not in p)))
        return self.to_pile(state, card, dest)

    def to_pile(self: Any, state: State, card: CardId, dest: str) -> State:
        owner = owner_of(card)
        player = state.players[owner]
        if player.conceded:
            dest = "removed"
        if dest == "hand":
            return state.with_player(owner, hand=player.hand.add([card]))
        if dest == "deck":
            return state.with_player(owner, deck=player.deck.add([card]))
        field = {"dead": "dead", "discard": "discard", "removed": "removed"}[dest]
        return state.with_player(owner, **{field: (*getattr(player, field), card)})

    def apply_saves(self: Any, state: State, actor: Any, cards: list[CardId], saves: Any
                    ) -> tuple[State, set[CardId]]:
        """§8.6 saves: a duplicate is discarded, or a recorded ability's costs are paid."""
        saved: set[CardId] = set()
        for entry in saves or ():
            card, by = entry.get("card"), entry.get("by")
            require(card in cards and card not in saved, "bad_save",
                    f"a save must name a card being removed, once; {self.thing(state, card)} "
                    "is not one")
            if by == "duplicate":
                ip = self.in_play(state, card)
                require(bool(ip.duplicates), "no_duplicate",
                        f"{self.name(card)} has no duplicate to discard")
                state = self.update_card(state, replace(ip, duplicates=ip.duplicates[:-1]))
                state = self.to_pile(state, ip.duplicates[-1], "discard")
            elif by == "effect":
                for op in entry.get("costs") or ():
                    state = self.apply_op(state, actor, op)
            else:
                raise bad("bad_save", f'a save is by "duplicate" or "effect", not "{by}"')
            saved.add(card)
        return state, saved

    def remove_cards(self: Any, state: State, actor: Any, cards: list[CardId], dest: str,
                     saves: Any = (), redirect: Any = None) -> State:
        state, saved = self.apply_saves(state, actor, cards, saves)
        redirect = redirect or {}
        for card in redirect:
            require(card in cards and redirect[card] in ("discard", "hand"), "bad_redirect",
                    "a redirect sends a removed card to the discard pile or the hand; "
                    f"{self.thing(state, card)} cannot go there")
        for card in cards:
            if card not in saved:
                state = self.leave_play(state, card, redirect.get(card, dest))
        return state

    # -- the event (§9) ---------------------------------------------------------------
    def _apply_effect(self: Any, state: State, action: Action) -> State:
        require(state.phase not in ("start", "setup", "setup_draw"), "wrong_phase",
                "effects are recorded after the setup reveal")
        actor = action.actor
        require(actor == "table" or (isinstance(actor, int) and 0 <= actor < state.n
                                     and not state.players[actor].conceded),
                "not_your_turn", "an effect is recorded by a player in the game or the "
                f"table, not {self.who(state, actor)}")
        source = action.data.get("source")
        event_card = self._event_source(state, actor, source)
        for op in action.data.get("costs") or ():
            state = self.apply_op(state, actor, op)
        for op in action.data.get("ops") or ():
            state = self.apply_op(state, actor, op)
        if event_card and event_card in state.players[actor].hand:
            player = state.players[actor]
            state = state.with_player(actor, hand=player.hand.take([event_card]),
                                      discard=(*player.discard, event_card))
        return state

    def _event_source(self: Any, state: State, actor: Any, source: Any) -> CardId | None:
        if source is None:
            return None
        if source.startswith(("plot:", "title:", "house:")):
            return None
        require(self.is_known(source), "unknown_source",
                f'the effect\'s source "{source}" is not a card, a plot ("plot:<seat>") or a '
                'title ("title:<id>")')
        if (isinstance(actor, int) and self.card(source)["type"] == "event"
                and source in state.players[actor].hand):
            self.check_house_only(state, actor, source)
            return source
        return None

    def apply_op(self: Any, state: State, actor: Any, op: Any) -> State:
        require(hasattr(op, "get") and isinstance(op.get("op"), str), "bad_op",
                'each change of an effect is an object with an "op" field naming it')
        handler = getattr(self, "_op_" + op["op"], None)
        if handler is None:
            raise bad("unknown_op", f'there is no effect op "{op["op"]}" (§9)', op=op["op"])
        return handler(state, actor, op)

    def _actor_seat(self, actor: Any) -> int:
        return actor if isinstance(actor, int) else -1

    def op_seat(self, state: State, op: Any, key: str = "seat") -> Seat:
        seat = _get(op, key, int)
        require(0 <= seat < state.n and not state.players[seat].conceded, "bad_seat",
                f"{_op(op)}: {self.who(state, seat)} is not a player in the game")
        return seat

    # -- kneel, stand, leave play ------------------------------------------------------
    def _op_kneel(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._set_knelt(state, _get(op, "card", str), True)

    def _op_stand(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._set_knelt(state, _get(op, "card", str), False)

    def _set_knelt(self: Any, state: State, card: str, knelt: bool) -> State:
        word = "standing" if knelt else "knelt"
        seat = self.house_target(state, card)
        if seat is not None:
            require(state.players[seat].house_knelt != knelt, "bad_state",
                    f"{self.whose(state, seat)} House card is not {word}")
            return state.with_player(seat, house_knelt=knelt)
        ip = self.in_play(state, card)
        require(ip.knelt != knelt, "bad_state", f"{self.name(card)} is not {word}", card=card)
        return self.update_card(state, replace(ip, knelt=knelt))

    def _op_kill(self: Any, state: State, actor: Any, op: Any) -> State:
        cards = _ids(op, "cards")
        for card in cards:
            ip = self.in_play(state, card)
            require(self.is_character(card) and ip.host is None, "not_a_character",
                    f"only characters can be killed; {self.name(card)} is not one", card=card)
        return self.remove_cards(state, actor, cards, "dead", op.get("saves"),
                                 op.get("redirect"))

    def _op_discard_from_play(self: Any, state: State, actor: Any, op: Any) -> State:
        cards = _ids(op, "cards")
        for card in cards:
            self.in_play(state, card)
        return self.remove_cards(state, actor, cards, "discard", op.get("saves"))

    def _op_return_to_hand(self: Any, state: State, actor: Any, op: Any) -> State:
        for card in _ids(op, "cards"):
            self.in_play(state, card)
            state = self.leave_play(state, card, "hand")
        return state

    def _op_take_control(self: Any, state: State, actor: Any, op: Any) -> State:
        ip = self.in_play(state, _get(op, "card", str))
        seat = self.op_seat(state, op, "controller")
        require(seat != ip.controller, "bad_state",
                f"{self.who(state, seat)} already controls {self.name(ip.id)}: control passes "
                "to another player (§9)")
        data = self.card(ip.id)
        require(not data["unique"] or self.controls_name(state, seat, data["name"]) is None,
                "unique_in_play", f"unique card already in play: {self.who(state, seat)} "
                f"already controls {data['name']}")
        return self.update_card(state, replace(ip, controller=seat))

    # -- put into play ------------------------------------------------------------------
    def _op_put_into_play(self: Any, state: State, actor: Any, op: Any) -> State:
        card = _get(op, "card", str)
        zone = _get(op, "from", str)
        require(zone in ("hand", "deck", "discard", "dead"), "bad_op",
                "put into play takes a card from the hand, the draw deck, the discard pile "
                f'or the dead pile, not "{zone}"')
        require(self.is_known(card), "unknown_card", f'"{card}" is not a card of this set')
        state = self.take_from_zone(state, card, zone)
        return self.enter_play(state, actor, card, op)

    def take_from_zone(self: Any, state: State, card: CardId, zone: str) -> State:
        owner = owner_of(card)
        require(owner < state.n, "unknown_card", f'"{card}" belongs to no player')
        player = state.players[owner]
        where = f"{self.whose(state, owner)} {PILES[zone]}"
        if zone in ("hand", "deck"):
            bag = self.take(state, getattr(player, zone), [card], where)
            return state.with_player(owner, **{zone: bag})
        pile = getattr(player, zone)
        require(card in pile, "not_available", f"{self.thing(state, card)} is not in {where}",
                card=card)
        rest = list(pile)
        rest.remove(card)
        return state.with_player(owner, **{zone: tuple(rest)})

    def enter_play(self: Any, state: State, actor: Any, card: CardId, op: Any) -> State:
        seat = self.op_seat(state, op, "controller") if op.get("controller") is not None \
            else owner_of(card)
        kind = self.card(card)["type"]
        require(kind in ("character", "location", "attachment", "event"), "not_marshallable",
                f"{self.name(card)} is {a_an(words(kind))} and cannot enter play")
        self.check_house_only(state, seat, card)
        pay = _amount(op, "pay_gold") if op.get("pay_gold") is not None else 0
        require(pay <= state.players[seat].gold, "not_enough_gold",
                f"not enough gold: {self.who(state, seat)} has {state.players[seat].gold}, "
                f"pays {pay}")
        state = state.with_player(seat, gold=state.players[seat].gold - pay)
        if op.get("as_duplicate"):
            base = self.controls_name(state, seat, self.name(card)) \
                if self.card(card)["unique"] else None
            require(base is not None, "no_duplicate_base",
                    f"a duplicate needs a {self.name(card)} in play that "
                    f"{self.who(state, seat)} controls")
            return self.update_card(state, replace(base, duplicates=(*base.duplicates, card)))
        self.check_unique(state, seat, card)
        host = op.get("attach_to")
        if kind == "attachment" or host is not None:
            require(isinstance(host, str), "illegal_attachment_target",
                    f"illegal attachment target: {self.name(card)} needs a card to attach to")
            self.check_host(state, seat, card, host)
            host = f"house:{owner_of(card)}" if host == "house" else host
        ip = InPlay(id=card, controller=seat, host=host, knelt=bool(op.get("knelt")))
        return replace(state, cards=(*state.cards, ip))

    def _op_move_attachment(self: Any, state: State, actor: Any, op: Any) -> State:
        ip = self.in_play(state, _get(op, "card", str))
        target = _get(op, "to", str)
        require(ip.host is not None and self.card(ip.id)["type"] == "attachment",
                "not_an_attachment", f"{self.name(ip.id)} is not an attachment in play")
        require(target != ip.host, "illegal_attachment_target",
                f"illegal attachment target: {self.name(ip.id)} is already on "
                f"{self.thing(state, target)}; it moves to another character (§9)")
        moved = replace(state, cards=tuple(c for c in state.cards if c.id != ip.id))
        self.check_host(moved, ip.controller, ip.id, target)
        return self.update_card(state, replace(ip, host=target))

    # -- modifiers ------------------------------------------------------------------------
    def _until(self, state: State, op: Any) -> str:
        until = _get(op, "until", str, "round")
        require(until in UNTILS, "bad_op",
                f'a change lasts until the end of the challenge, phase or round, not "{until}"')
        require(until != "challenge" or state.challenge is not None, "no_open_challenge",
                "a change until the end of the challenge needs an open challenge")
        return until

    def _character(self: Any, state: State, op: Any) -> InPlay:
        ip = self.in_play(state, _get(op, "card", str))
        require(self.is_character(ip.id) and ip.host is None, "not_a_character",
                f"{self.name(ip.id)} is not a character", card=ip.id)
        return ip

    def _add_mod(self, state: State, mod: Modifier) -> State:
        return replace(state, modifiers=(*state.modifiers, mod))

    def _op_adjust_strength(self: Any, state: State, actor: Any, op: Any) -> State:
        ip = self._character(state, op)
        return self._add_mod(state, Modifier("strength", ip.id, self._until(state, op),
                                             amount=_get(op, "amount", int)))

    def _op_no_strength(self: Any, state: State, actor: Any, op: Any) -> State:
        ip = self._character(state, op)
        return self._add_mod(state, Modifier("no_strength", ip.id, self._until(state, op)))

    def _icon_mod(self: Any, state: State, op: Any, kind: str) -> State:
        ip = self._character(state, op)
        icon = _get(op, "icon", str)
        require(icon in TYPES, "bad_op", f'an icon is military, intrigue or power, not "{icon}"')
        return self._add_mod(state, Modifier(kind, ip.id, self._until(state, op), value=icon))

    def _op_gain_icon(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._icon_mod(state, op, "gain_icon")

    def _op_lose_icon(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._icon_mod(state, op, "lose_icon")

    def _keyword_mod(self: Any, state: State, op: Any, kind: str) -> State:
        ip = self.in_play(state, _get(op, "card", str))
        return self._add_mod(state, Modifier(kind, ip.id, self._until(state, op),
                                             value=_get(op, "keyword", str)))

    def _op_gain_keyword(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._keyword_mod(state, op, "gain_keyword")

    def _op_lose_keyword(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._keyword_mod(state, op, "lose_keyword")

    def _filter(self, op: Any) -> tuple[tuple[str, Any], ...]:
        flt = _get(op, "filter", dict, {})
        unknown = set(flt) - set(FILTER_KEYS)
        require(not unknown, "bad_op",
                f"a filter has no field {words_list(sorted(unknown), 'or')} (§9)")
        return tuple(sorted(freeze(dict(flt)).items()))

    def _op_continuous(self: Any, state: State, actor: Any, op: Any) -> State:
        source = self.in_play(state, _get(op, "source", str))
        when = _get(op, "when", str, "always")
        require(when in ("always", "participating", "attacking", "defending",
                         "dominance_phase"), "bad_op",
                f'a lasting effect applies always, while participating, attacking, defending '
                f'or in the dominance phase, not "{when}"')
        icons = tuple(_get(op, "icons", (list, tuple), ()))
        require(all(i in TYPES for i in icons), "bad_op",
                "an icon is military, intrigue or power")
        mod = Modifier("continuous", source.id, "source", amount=_get(op, "strength", int, 0),
                       seat=self._actor_seat(actor), filter=self._filter(op), icons=icons,
                       keywords=tuple(_get(op, "keywords", (list, tuple), ())), when=when,
                       standing=bool(op.get("requires_source_standing")))
        return self._add_mod(state, mod)

    def _op_exclude_character_power(self: Any, state: State, actor: Any, op: Any) -> State:
        source = self.in_play(state, _get(op, "source", str))
        seats = _get(op, "players", (list, tuple))
        require(all(isinstance(s, int) and 0 <= s < state.n for s in seats), "bad_seat",
                "the players of the effect must be seats of the game")
        return self._add_mod(state, Modifier("exclude_power", source.id, "source",
                                             players=tuple(seats),
                                             standing=bool(op.get("requires_source_standing"))))

    def _op_no_stand(self: Any, state: State, actor: Any, op: Any) -> State:
        card = _get(op, "card", str)
        if self.house_target(state, card) is None:
            self.in_play(state, card)
        return self._add_mod(state, Modifier("no_stand", card, "round"))

    # -- challenge participation --------------------------------------------------------------
    def _op_join_challenge(self: Any, state: State, actor: Any, op: Any) -> State:
        ch = state.challenge
        require(ch is not None and ch.step != "resolved", "no_open_challenge",
                "a card joins only an open challenge that is not yet resolved")
        assert ch is not None
        ip = self._character(state, op)
        require(ip.id not in ch.attackers + ch.defenders, "already_participating",
                f"{self.name(ip.id)} is already participating")
        side = _get(op, "side", str)
        if side in ("attacker", "attacking", "attackers"):
            return replace(state, challenge=replace(ch, attackers=(*ch.attackers, ip.id)))
        require(side in ("defender", "defending", "defenders"), "bad_op",
                f'a card joins the attacker or the defender, not "{side}"')
        return replace(state, challenge=replace(ch, defenders=(*ch.defenders, ip.id)))

    def _op_remove_from_challenge(self: Any, state: State, actor: Any, op: Any) -> State:
        ch = state.challenge
        card = _get(op, "card", str)
        require(ch is not None and card in ch.attackers + ch.defenders, "not_participating",
                f"{self.name(card)} is not participating in a challenge")
        assert ch is not None
        return replace(state, challenge=replace(
            ch, attackers=tuple(a for a in ch.attackers if a != card),
            defenders=tuple(d for d in ch.defenders if d != card),
            stealth=tuple(p for p in ch.stealth if card not in p)))

    # -- power and gold ---------------------------------------------------------------------
    def _power_target(self: Any, state: State, op: Any, key: str) -> str:
        """A power holder: a card in play or a House card, written one way ("house:1")."""
        target = _get(op, key, str)
        seat = self.house_target(state, target)
        if seat is None:
            self.in_play(state, target)
            return target
        return f"house:{seat}"

    def _op_gain_power(self: Any, state: State, actor: Any, op: Any) -> State:
        return self.add_power(state, self._power_target(state, op, "target"), _amount(op))

    def _op_lose_power(self: Any, state: State, actor: Any, op: Any) -> State:
        return self.add_power(state, self._power_target(state, op, "target"), -_amount(op))

    def _op_move_power(self: Any, state: State, actor: Any, op: Any) -> State:
        source = self._power_target(state, op, "from")
        target = self._power_target(state, op, "to")
        # §9 move_power takes power from one holder to another; a move onto the holder it
        # comes from would be recorded as a move while nothing moves (issue #19.4)
        require(source != target, "same_source_and_target",
                f"power moves between two holders (§9 move power); {self.thing(state, source)} "
                "cannot give power to itself")
        amount = _amount(op)
        return self.add_power(self.add_power(state, source, -amount), target, amount)

    def _op_gain_gold(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        return state.with_player(seat, gold=state.players[seat].gold + _amount(op))

    def _pay(self, state: State, seat: Seat, amount: int) -> State:
        gold = state.players[seat].gold
        require(gold >= amount, "not_enough_gold",
                f"not enough gold: {self.who(state, seat)} has {gold}, needs {amount}")
        return state.with_player(seat, gold=gold - amount)

    def _op_pay_gold(self: Any, state: State, actor: Any, op: Any) -> State:
        return self._pay(state, self.op_seat(state, op), _amount(op))

    def _op_give_gold(self: Any, state: State, actor: Any, op: Any) -> State:
        giver, taker, amount = self.op_seat(state, op, "from"), self.op_seat(state, op, "to"), \
            _amount(op)
        # §9 give_gold passes gold from one player to another (issue #19.4, as move_power)
        require(giver != taker, "same_source_and_target",
                f"gold is given to another player (§9 give gold); {self.who(state, giver)} "
                "cannot give gold to themself")
        state = self._pay(state, giver, amount)
        return state.with_player(taker, gold=state.players[taker].gold + amount)

    # -- cards between zones ------------------------------------------------------------------
    def _op_draw(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        cards = _ids(op, "cards")
        player = state.players[seat]
        cap = state.option("draw_cap")
        require(cap is None or player.draws_this_round + len(cards) <= cap, "draw_cap",
                f"the draw cap is {plural(cap or 0, 'card')} per round; "
                f"{self.who(state, seat)} has drawn {player.draws_this_round}")
        deck = self.take(state, player.deck, cards, f"{self.whose(state, seat)} deck")
        return state.with_player(seat, deck=deck, hand=player.hand.add(cards),
                                 draws_this_round=player.draws_this_round + len(cards))

    def _op_discard_from_hand(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        cards = _ids(op, "cards")
        player = state.players[seat]
        hand = self.take(state, player.hand, cards, f"{self.whose(state, seat)} hand",
                         "card_not_in_hand")
        return state.with_player(seat, hand=hand, discard=(*player.discard, *cards))

    def _op_discard_from_deck(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        cards = _ids(op, "cards")
        player = state.players[seat]
        deck = self.take(state, player.deck, cards, f"{self.whose(state, seat)} deck")
        return state.with_player(seat, deck=deck, discard=(*player.discard, *cards))

    def _op_search_deck(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        card = _get(op, "card", str)
        to = _get(op, "to", str)
        require(to in ("hand", "play"), "bad_op",
                f'a card found in a deck goes to the hand or into play, not "{to}"')
        require(self.is_known(card) and owner_of(card) == seat, "not_available",
                f"{self.thing(state, card)} is not in {self.whose(state, seat)} deck")
        state = self.take_from_zone(state, card, "deck")
        if to == "hand":
            return self.to_pile(state, card, "hand")
        return self.enter_play(state, actor, card, op)

    def _op_return_from_pile(self: Any, state: State, actor: Any, op: Any) -> State:
        card = _get(op, "card", str)
        zone, to = _get(op, "from", str), _get(op, "to", str)
        require(zone in ("discard", "dead") and to in ("hand", "deck"), "bad_op",
                "a card returns from the discard or dead pile to the hand or the draw deck")
        require(self.is_known(card), "unknown_card", f'"{card}" is not a card of this set')
        return self.to_pile(self.take_from_zone(state, card, zone), card, to)

    def _op_shuffle_pile_into_deck(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        pile = _get(op, "pile", str)
        require(pile in ("discard", "dead", "hand"), "bad_op",
                f'the pile shuffled in is the discard pile, the dead pile or the hand, not '
                f'"{pile}"')
        player = state.players[seat]
        cards = list(getattr(player, pile))
        empty = type(player.hand)() if pile == "hand" else ()
        return state.with_player(seat, deck=player.deck.add(cards), **{pile: empty})

    # -- plots and round flags ---------------------------------------------------------------
    def _op_reveal_new_plot(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        plot = _get(op, "plot", str)
        source = self.plot_source(state, seat)
        player = state.players[seat]
        require(plot in state.players[source].plot_deck, "plot_not_available",
                f"{self.thing(state, plot)} is not in {self.whose(state, source)} plot deck")
        state = state.with_player(source, plot_deck=state.players[source].plot_deck.take([plot]))
        if player.revealed_plot:
            owner = owner_of(player.revealed_plot)
            state = state.with_player(owner, used_plots=(*state.players[owner].used_plots,
                                                         player.revealed_plot))
        state = state.with_player(seat, revealed_plot=plot)
        if state.phase == "plot" and state.step in ("tie", "first_player"):
            state = self.settle_initiative(state)
        return state

    def _op_modify_plot(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        field = _get(op, "field", str)
        require(field in ("income", "initiative", "claim"), "bad_op",
                f'a plot value is income, initiative or claim, not "{field}"')
        has_delta, has_set = op.get("delta") is not None, op.get("set") is not None
        require(has_delta != has_set, "bad_op",
                "a plot change either adds (delta) or sets (set) a value, exactly one of them")
        value = _get(op, "delta", int) if has_delta else _amount(op, "set")
        until = _get(op, "until", str, "round")
        require(until in ("challenge", "round"), "bad_op",
                'a plot change lasts until the end of the challenge or the round, not '
                f'"{until}"')
        require(until != "challenge" or state.challenge is not None, "no_open_challenge",
                "a change until the end of the challenge needs an open challenge")
        entry = (seat, field, "delta" if has_delta else "set", value, until)
        return replace(state, plot_mods=(*state.plot_mods, entry))

    def _seats(self, state: State, op: Any, key: str = "seats", size: int | None = None
               ) -> list[Seat]:
        seats = list(_get(op, key, (list, tuple)))
        require(all(isinstance(s, int) and 0 <= s < state.n for s in seats)
                and len(set(seats)) == len(seats), "bad_seat",
                f"{_op(op)} names each player once, by seat")
        require(size is None or len(seats) == size, "bad_op",
                f"{_op(op)} names {plural(size or 0, 'player')}")
        return seats

    def _op_suppress_income_bonuses(self: Any, state: State, actor: Any, op: Any) -> State:
        return replace(state, suppress_income=state.suppress_income | set(self._seats(state, op)))

    def _op_forbid_challenge(self: Any, state: State, actor: Any, op: Any) -> State:
        a, b = self._seats(state, op, size=2)
        kind = _get(op, "type", str)
        require(kind in TYPES, "bad_op",
                f'a challenge is military, intrigue or power, not "{kind}"')
        return replace(state, forbids=(*state.forbids, (a, b, kind)))

    def _op_extra_challenge(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        kind = _get(op, "type", str)
        require(kind in TYPES, "bad_op",
                f'a challenge is military, intrigue or power, not "{kind}"')
        extra = list(state.players[seat].extra)
        extra[TYPES.index(kind)] += 1
        return state.with_player(seat, extra=tuple(extra))

    def _op_skip_taxation(self: Any, state: State, actor: Any, op: Any) -> State:
        return replace(state, skip_taxation=state.skip_taxation | {self.op_seat(state, op)})

    def _op_swap_plot_decks(self: Any, state: State, actor: Any, op: Any) -> State:
        require(self.is_melee(state), "melee_only", "plot decks are swapped only in a melee")
        a, b = self._seats(state, op, size=2)
        return replace(state, swaps=(*state.swaps, (a, b)))

    def _op_cost_reduction(self: Any, state: State, actor: Any, op: Any) -> State:
        seat = self.op_seat(state, op)
        red = Reduction(_amount(op), self._filter(op))
        return state.with_player(seat, reductions=(*state.players[seat].reductions, red))

    def _op_note(self: Any, state: State, actor: Any, op: Any) -> State:
        return state
