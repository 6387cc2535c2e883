"""A card's current values and the checks of the printed card (§3, §6.14, §7.3, §10).

Current STR, icons and keywords (printed, plus attachments' grants and recorded effects),
each player's total power, costs, uniqueness and where an attachment may go.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...messages import M, Seq
from ...rules import require
from ..edition import Card, CardId, Components, Seat, owner_of
from ..state import Filter, InPlay, Modifier, State
from ..words import house_card_of, words
from .guards import thing, who, whose
from .text import Text, blanked, text_of

Index = dict[CardId, InPlay]


def play_index(state: State) -> Index:
    """The cards in play by id."""
    return {c.id: c for c in state.cards}


def participating(state: State) -> tuple[set[CardId], set[CardId]]:
    """(attackers, defenders) of the open challenge."""
    ch = state.challenge
    if ch is None:
        return set(), set()
    return set(ch.attackers), set(ch.defenders)


def surcharge(card: Card, house: str, ed: Components) -> int:
    """§7.3: a card of another House costs more."""
    in_house = not card.houses or house in card.houses
    return 0 if in_house else ed.constants.out_of_house_surcharge


# ---------------------------------------------------------------------------
# Derived values (§3)
# ---------------------------------------------------------------------------


def _grant_active(when: str, card: CardId, state: State) -> bool:
    if when == "participating":
        att, dfn = participating(state)
        return card in att or card in dfn
    if when == "dominance_phase":
        return state.phase == "dominance"
    return True


def _continuous_active(mod: Modifier, card: InPlay, state: State, index: Index,
                       ed: Components, source: InPlay | None = None) -> bool:
    source = source or index.get(mod.card)
    if source is None or (mod.standing and source.knelt):
        return False
    return _reaches(mod, card, source, state, ed)


def _reaches(mod: Modifier, card: InPlay, source: InPlay, state: State,
             ed: Components) -> bool:
    """Whether an active lasting effect of `source` applies to `card` now."""
    if not ed.is_character(card.id) or not matches(mod, card, ed):
        return False
    for key, want in mod.filter:
        if key == "bearer" and bool(want) != (source.host == card.id):
            return False  # "bearer": the character the source is attached to
        if key == "itself" and bool(want) != (source.id == card.id):
            return False  # "itself": the source alone (vocab, issue #30 item 2)
    if mod.when == "always":
        return True
    if mod.when == "dominance_phase":
        return state.phase == "dominance"
    att, dfn = participating(state)
    return {"participating": card.id in att | dfn, "attacking": card.id in att,
            "defending": card.id in dfn}.get(mod.when, False)


class _Values:
    """The running sums of `values`: STR, icons and keywords gained and lost."""

    __slots__ = ("blank", "icons", "keywords", "lost_icons", "lost_keywords", "strength")

    def __init__(self, card: Card, text: Text) -> None:
        self.strength = card.strength
        self.icons, self.keywords = set(card.icons), set(text.keywords)
        self.lost_icons: set[str] = set()
        self.lost_keywords: set[str] = set()
        self.blank = False

    def gain(self, strength: int, icons: tuple[str, ...], keywords: tuple[str, ...]) -> None:
        self.strength += strength
        self.icons.update(icons)
        self.keywords.update(keywords)

    def modify(self, mod: Modifier) -> None:
        """A recorded effect on this card (§9)."""
        if mod.kind == "strength":
            self.strength += mod.amount
        elif mod.kind == "no_strength":
            self.blank = True
        elif mod.kind == "gain_icon":
            self.icons.add(mod.value)
        elif mod.kind == "lose_icon":
            self.lost_icons.add(mod.value)
        elif mod.kind == "gain_keyword":
            self.keywords.add(mod.value)
        elif mod.kind == "lose_keyword":
            self.lost_keywords.add(mod.value)


def _constant_gain(out: _Values, source: InPlay, card: InPlay, state: State, index: Index,
                   ed: Components) -> None:
    """What a constant ability of `source` gives `card` now (issue #30): each `continuous`
    that reaches it while its `while` holds, its STR times its `strength_per` count."""
    for const in constant_effects(source, ed):
        mod = const.mod
        if not _continuous_active(mod, card, state, index, ed, source):
            continue
        if const.cond and not constant_holds(const.cond, source, state, ed):
            continue
        amount = mod.amount if const.per is None else \
            mod.amount * _per_count(const.per, source, card, state, ed)
        out.gain(amount, mod.icons, mod.keywords)


@dataclass(frozen=True, slots=True)
class Constant:
    """One `continuous` of a card's constant ability, as the modifier a recorded one would
    add, with what its STR is counted by (`strength_per`) and what it holds while."""

    mod: Modifier
    per: Mapping[str, Any] | None = None
    cond: Mapping[str, Any] = field(default_factory=dict)


_CONSTANTS: dict[tuple[int, CardId, Seat], tuple[Constant, ...]] = {}


def constant_effects(source: InPlay, ed: Components) -> tuple[Constant, ...]:
    """The lasting effects a card's constant abilities give while it is in play (issue #30,
    docs/games/thrones-abilities.md "Constant abilities"), its controller the seat "self" in
    the filter. Memoised by edition, card and controller: values() is the hot path."""
    key = (id(ed), source.id, source.controller)
    found = _CONSTANTS.get(key)
    if found is not None:
        return found
    out = tuple(_constant_of(op, source) for ability in ed.card(source.id).constants
                for op in ability.ops if op.get("op") == "continuous")
    if len(_CONSTANTS) > 4096:
        _CONSTANTS.clear()
    _CONSTANTS[key] = out
    return out


def _constant_of(op: Mapping[str, Any], source: InPlay) -> Constant:
    flt = tuple(sorted((k, v) for k, v in (op.get("filter") or {}).items()))
    mod = Modifier("continuous", source.id, "source", amount=int(op.get("strength") or 0),
                   seat=source.controller, filter=flt, icons=tuple(op.get("icons") or ()),
                   keywords=tuple(op.get("keywords") or ()),
                   when=str(op.get("when") or "always"),
                   standing=bool(op.get("requires_source_standing")))
    return Constant(mod, op.get("strength_per"), op.get("while") or {})


def counted(ip: InPlay, flt: Mapping[str, Any], ed: Components) -> bool:
    """Whether a card in play meets a counted filter (a constant's `strength_per` and
    `while`): printed keys, and `has_power` (it holds power now)."""
    data = ed.card(ip.id)
    for key, want in flt.items():
        if key == "has_power":
            if (ip.power > 0) != bool(want):
                return False
        elif not PRINTED[key](data, want):
            return False
    return True


def _per_count(per: Mapping[str, Any], source: InPlay, card: InPlay, state: State,
               ed: Components) -> int:
    """What a constant's +STR is multiplied by: the gold in its controller's pool, the
    cards in play meeting a filter, or the attachments on the card it reaches."""
    if "gold_pool" in per:
        return state.players[source.controller].gold
    if "in_play" in per:
        return sum(1 for c in state.cards if counted(c, per["in_play"], ed))
    return sum(1 for c in state.cards if c.host == card.id and counted(c, per["attachments"], ed))


def constant_holds(cond: Mapping[str, Any], source: InPlay, state: State,
                   ed: Components) -> bool:
    """Whether a constant's `while` holds now, about its source and its controller (docs:
    "Constant abilities"; the controller of a plot is its player)."""
    return all(_WHILE[key](state, source, want, ed) for key, want in cond.items())


def _fewer_characters(state: State, source: InPlay, want: object, ed: Components) -> bool:
    counts = {s: 0 for s in state.active}
    for c in state.cards:
        if c.host is None and c.controller in counts and ed.is_character(c.id):
            counts[c.controller] += 1
    mine = counts.get(source.controller, 0)
    return any(n > mine for s, n in counts.items() if s != source.controller) == bool(want)


def _sole_attachment(state: State, source: InPlay, want: object, ed: Components) -> bool:
    alone = source.host is not None and not any(
        c.host == source.host and c.id != source.id for c in state.cards)
    return alone == bool(want)


def _defender_controls_none(state: State, source: InPlay, want: Any, ed: Components) -> bool:
    ch = state.challenge
    return ch is not None and not any(c.controller == ch.defender and counted(c, want, ed)
                                      for c in state.cards)


#: the mark (a Modifier kind, ending with the phase) on a card whose STR changed this phase,
#: which Stannis's Northern Cavalry's `while: strength_changed` reads (apply/deaths.py)
STRENGTH_CHANGED = "strength_changed"


def _strength_changed(state: State, source: InPlay, want: object, ed: Components) -> bool:
    marked = any(m.kind == STRENGTH_CHANGED and m.card == source.id for m in state.modifiers)
    return marked == bool(want)


#: each `while` key of a constant -> whether it holds (state, source, wanted, edition)
_WHILE: dict[str, Callable[[State, InPlay, Any, Components], bool]] = {
    "you_control": lambda state, source, want, ed: any(
        c.controller == source.controller and counted(c, want, ed) for c in state.cards),
    "in_play": lambda state, source, want, ed: any(counted(c, want, ed) for c in state.cards),
    "source_carries": lambda state, source, want, ed: any(
        c.host == source.id and counted(c, want, ed) for c in state.cards),
    "sole_attachment": _sole_attachment,
    "fewer_characters": _fewer_characters,
    "source_attacking": lambda state, source, want, ed: (
        source.id in participating(state)[0]) == bool(want),
    "defender_controls_none": _defender_controls_none,
    "strength_changed": _strength_changed,
}


def values(state: State, card: CardId, ed: Components, index: Index | None = None
           ) -> tuple[int, frozenset[str], frozenset[str], bool]:
    """(current STR, icons, keywords, no_strength) of a card in play (§3). A blank card's
    text (its keywords, an attachment's grants, a card's constants) is not read (text.py)."""
    index = index if index is not None else play_index(state)
    blanks = blanked(state, ed)
    out = _Values(ed.card(card), text_of(state, card, ed, blanks))
    ip = index[card]
    constant_cards = ed.constant_cards
    for a in state.cards:
        if a.host == card:
            for g in text_of(state, a.id, ed, blanks).grants:
                if _grant_active(g.when, card, state):
                    out.gain(g.strength, g.icons, g.keywords)
        if ed.card(a.id).number in constant_cards and a.id not in blanks:
            _constant_gain(out, a, ip, state, index, ed)
    _plot_constants(state, ip, index, ed, out)
    for mod in state.modifiers:
        if mod.kind == "continuous":
            if _continuous_active(mod, ip, state, index, ed):
                out.gain(mod.amount, mod.icons, mod.keywords)
        elif mod.card == card:
            out.modify(mod)
    return (max(0, out.strength), frozenset(out.icons - out.lost_icons),
            frozenset(out.keywords - out.lost_keywords), out.blank)


def _plot_constants(state: State, ip: InPlay, index: Index, ed: Components,
                    out: _Values) -> None:
    """A revealed plot's constant abilities apply while it is revealed, as a card's do
    while it is in play (Tourney for the Hand); the plot stands as a source that never
    kneels, its owner the seat "self" of the filter."""
    constant_cards = ed.constant_cards
    if not constant_cards:
        return
    for seat, player in enumerate(state.players):
        plot = player.revealed_plot
        if plot is None or ed.card(plot).number not in constant_cards:
            continue
        _constant_gain(out, InPlay(plot, seat), ip, state, index, ed)


def strength(state: State, card: CardId, ed: Components, index: Index | None = None) -> int:
    """A card's current STR (0 while it counts no STR)."""
    value, _, _, blank = values(state, card, ed, index)
    return 0 if blank else value


def has_icon(state: State, card: CardId, icon: str, ed: Components,
             index: Index | None = None) -> bool:
    """Whether a card in play has `icon` now."""
    return icon in values(state, card, ed, index)[1]


def has_keyword(state: State, card: CardId, keyword: str, ed: Components,
                index: Index | None = None) -> bool:
    """Whether a card in play has `keyword` now."""
    return keyword in values(state, card, ed, index)[2]


# ---------------------------------------------------------------------------
# Filters (§9): a lasting effect's or a cost reduction's, against printed values
# ---------------------------------------------------------------------------


#: a filter key -> whether a card's printed data meets the wanted value
PRINTED: dict[str, Callable[[Card, object], bool]] = {
    "type": lambda card, want: card.type == want,
    "house": lambda card, want: want in card.houses,
    "trait": lambda card, want: want in card.traits,
    "icon": lambda card, want: want in card.icons,
    "crest": lambda card, want: want in card.crests,
    "keyword": lambda card, want: want in card.keywords,
    "name": lambda card, want: card.name == want,
    "unique": lambda card, want: card.unique == bool(want),
    # vocab (issue #30): a card of one of these Houses (Narrow Sea: Stark or Baratheon)
    "house_any": lambda card, want: bool(set(_many(want)) & set(card.houses)),
    "lacks_icon": lambda card, want: want not in card.icons,
}


def _many(want: object) -> tuple[object, ...]:
    """A filter value that may be one value or a list of them."""
    return tuple(want) if isinstance(want, list | tuple) else (want,)


def _controller_holds(want: object, mod: Modifier, card: InPlay) -> bool:
    if want == "self":
        return card.controller == mod.seat
    if want == "opponents":
        return card.controller != mod.seat
    return bool(card.controller == want)


def matches(mod: Modifier, card: InPlay, ed: Components) -> bool:
    """A continuous filter (§9) against printed values (ruling: no recursion); a clause
    chronicle does not know holds."""
    data = ed.card(card.id)
    for key, want in mod.filter:
        if key == "controller":
            if not _controller_holds(want, mod, card):
                return False
            continue
        test = PRINTED.get(key)
        if test is not None and not test(data, want):
            return False
    return True


def reduction_matches(red_filter: Filter, card: CardId, ed: Components) -> bool:
    """A cost reduction's filter against the printed card; a key it does not know (and the
    controller: the reduction is the marshalling player's own) holds."""
    data = ed.card(card)
    return all(PRINTED[key](data, want) for key, want in red_filter if key in PRINTED)


# ---------------------------------------------------------------------------
# Power (§3)
# ---------------------------------------------------------------------------


def total_power(state: State, seat: Seat) -> int:
    """§3: the power on a player's House card and cards (as at concession, once conceded)."""
    player = state.players[seat]
    if player.conceded:
        return player.final_power
    excluded = _excluded_seats(state)
    on_cards = 0 if seat in excluded else sum(c.power for c in state.cards
                                               if c.controller == seat)
    return player.house_power + on_cards


def total_powers(state: State) -> list[int]:
    """`total_power` of every seat in one pass over the cards in play (victory is checked
    after every event, and a seat-by-seat sum reads every card once per seat)."""
    on_cards: dict[Seat, int] = {}
    for card in state.cards:
        on_cards[card.controller] = on_cards.get(card.controller, 0) + card.power
    excluded = _excluded_seats(state)
    return [player.final_power if player.conceded else
            player.house_power + (0 if seat in excluded else on_cards.get(seat, 0))
            for seat, player in enumerate(state.players)]


def _excluded_seats(state: State) -> set[Seat]:
    index = None
    out: set[Seat] = set()
    for mod in state.modifiers:
        if mod.kind != "exclude_power":
            continue
        index = index or play_index(state)
        source = index.get(mod.card)
        if source is not None and not (mod.standing and source.knelt):
            out.update(mod.players)
    return out


# ---------------------------------------------------------------------------
# Uniqueness, House restriction, cost
# ---------------------------------------------------------------------------


def controls_name(state: State, seat: Seat, name: str, ed: Components) -> InPlay | None:
    """The card named `name` that `seat` controls: a character or location first, else an
    attachment."""
    for c in state.cards:
        if c.controller == seat and c.host is None and ed.card(c.id).name == name:
            return c
    for c in state.cards:
        if c.controller == seat and ed.card(c.id).name == name:
            return c
    return None


def check_unique(state: State, seat: Seat, card: CardId, ed: Components) -> None:
    """§10.1/§10.2: no second copy of a unique card in play or (option) in the dead pile."""
    data = ed.card(card)
    if not data.unique:
        return
    name = data.name
    require(controls_name(state, seat, name, ed) is None, "unique_in_play",
            M("unique card already in play: {player} already controls {name}",
              player=who(state, seat), name=name), card=card)
    if state.option("dead_pile_blocks_unique"):
        dead = state.players[owner_of(card)].dead
        require(all(ed.card(d).name != name for d in dead), "unique_in_dead_pile",
                M("unique card in dead pile: {name} is in {whose} dead pile", name=name,
                  whose=whose(state, owner_of(card))), card=card)


def check_house_only(state: State, seat: Seat, card: CardId, ed: Components) -> None:
    """Refuse a card restricted to another House than `seat`'s (`house_only`)."""
    only = ed.card(card).house_only
    require(not only or state.players[seat].house == only, "house_only",
            M("card is restricted to another House: {card} is House {only} only, and "
              "{player} plays House {house}", card=ed.name(card), only=only,
              player=who(state, seat), house=state.players[seat].house),
            card=card)


def _self_reduction(state: State, seat: Seat, card: CardId, ed: Components) -> int:
    rule = ed.card(card).self_cost_reduction
    if rule is None:
        return 0
    if rule.if_in_play_name is not None:
        present = any(ed.card(c.id).name == rule.if_in_play_name for c in state.cards)
        return rule.amount if present else 0
    trait = rule.per_controlled_trait
    count = sum(1 for c in state.cards if c.controller == seat and c.host is None
                and ed.is_character(c.id) and trait in ed.card(c.id).traits)
    return count * rule.amount


def marshal_cost(state: State, seat: Seat, card: CardId, ed: Components
                 ) -> tuple[int, list[int]]:
    """(cost, indices of pending reductions used) for marshalling `card` (§7.3)."""
    player = state.players[seat]
    base = ed.card(card).cost + surcharge(ed.card(card), player.house, ed)
    base -= _self_reduction(state, seat, card, ed)
    used = [i for i, r in enumerate(player.reductions)
            if reduction_matches(r.filter, card, ed)]
    base -= sum(player.reductions[i].amount for i in used)
    return max(0, base), used


# ---------------------------------------------------------------------------
# Hosts (§6.14)
# ---------------------------------------------------------------------------


def check_host(state: State, seat: Seat, card: CardId, host: object, ed: Components) -> None:
    """§6.14: is `host` a legal place for attachment (or Chambers) `card`?"""
    data = ed.card(card)
    if host == "house" or (isinstance(host, str) and host.startswith("house:")):
        require(data.may_attach_to_own_house_card, "illegal_attachment_target",
                M("illegal attachment target: {name} cannot go on a House card", name=data.name))
        require(host in ("house", f"house:{owner_of(card)}"), "illegal_attachment_target",
                M("illegal attachment target: {name} goes only on its owner's House card, "
                  "{house_card}", name=data.name,
                  house_card=house_card_of(state.names, owner_of(card))))
        return
    require(data.type == "attachment", "illegal_attachment_target",
            M("illegal attachment target: {name} is not an attachment", name=data.name))
    index = play_index(state)
    target = index.get(host) if isinstance(host, str) else None
    require(host != card, "illegal_attachment_target",
            M("illegal attachment target: {name} cannot attach to itself (§6.14: the host is "
              "a character in play)", name=data.name), host=host)
    require(target is not None and target.host is None and isinstance(host, str)
            and ed.is_character(host), "illegal_attachment_target",
            M("illegal attachment target: {card} is not a character in play",
              card=thing(state, host, ed)), host=host)
    assert target is not None
    _check_host_rules(state, seat, data, target, index, ed)


def _check_host_rules(state: State, seat: Seat, data: Card, target: InPlay, index: Index,
                      ed: Components) -> None:
    rules, host_data = data.attach_rules, ed.card(target.id)
    keywords = values(state, target.id, ed, index)[2]
    names = {"card": data.name, "host": host_data.name}
    require("no_attachments" not in keywords, "illegal_attachment_target",
            M("illegal attachment target: {card} on {host} (no attachments)", **names))
    require("no_attachments_except_weapon" not in keywords or "Weapon" in data.traits,
            "illegal_attachment_target",
            M("illegal attachment target: {card} on {host} (weapons only)", **names))
    require(rules.controller != "opponent" or target.controller != seat,
            "illegal_attachment_target",
            M("illegal attachment target: {card} on {host} (must be an opponent's character)",
              **names))
    house = rules.character_house
    require(not house or house in host_data.houses, "illegal_attachment_target",
            M("illegal attachment target: {card} on {host} (needs a {house} character)",
              house=ed.house_names.get(house or "", house), **names))
    traits = rules.character_traits_any
    require(not traits or bool(set(traits) & set(host_data.traits)),
            "illegal_attachment_target",
            M("illegal attachment target: {card} on {host} (needs trait {traits})",
              traits=Seq((words(t) for t in traits or ()), "or"), **names))
    if rules.max_per_character:
        require(all(ed.card(a.id).name != data.name
                    for a in state.cards if a.host == target.id),
                "illegal_attachment_target",
                M("illegal attachment target: {card} on {host} (one per character)", **names))
