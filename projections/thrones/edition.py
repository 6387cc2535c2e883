"""The edition of A Game of Thrones as the rules read it: typed, immutable card data, and the
check that an edition's content can serve (spec docs/games/thrones.md §3, data/thrones.json).

Card instance ids (`p<seat>-NNN[-k]`, §3) name a seat's copy of a card of the edition, so
they live here too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from marshmallow import fields, validate

from ..messages import Name
from ..rules import OpenSchema, schema_problems
from .abilities.schema import RESTRICTION_OPS, Ability, AbilityError, parse_abilities

CardId = str
Seat = int


class _EditionCard(OpenSchema):
    number = fields.Integer(required=True)
    name = fields.String(required=True)
    type = fields.String(required=True)
    houses = fields.List(fields.String(), required=True)
    unique = fields.Boolean(required=True)
    cost = fields.Integer(allow_none=True, required=True)
    strength = fields.Integer(allow_none=True, required=True)
    icons = fields.List(fields.String(), required=True)
    crests = fields.List(fields.String(), required=True)
    traits = fields.List(fields.String(), required=True)
    keywords = fields.List(fields.String(), required=True)
    house_only = fields.String(allow_none=True, required=True)
    income_bonus = fields.Integer(required=True)
    initiative_bonus = fields.Integer(required=True)


class _Edition(OpenSchema):
    slug = fields.String(required=True, validate=validate.Equal("thrones"))
    constants = fields.Dict(required=True)
    houses = fields.List(fields.Dict(), required=True)
    starter_decks = fields.Dict(required=True)
    titles = fields.List(fields.Dict(), required=True)
    cards = fields.List(fields.Nested(_EditionCard()), required=True,
                        validate=validate.Length(min=1))


CONSTANTS = ("victory_power", "setup_hand_size", "setup_gold", "setup_max_limited",
             "draw_phase_cards", "out_of_house_surcharge", "unopposed_bonus_power",
             "dominance_power", "opposes_bonus_power", "plot_deck_size")


def edition_problems(content: Mapping[str, Any]) -> list[str]:
    """Why `content` cannot serve as an edition of Thrones (empty: it can)."""
    problems = schema_problems(_Edition(), dict(content))
    if problems:
        return problems
    missing = [f"constants: missing {k}" for k in CONSTANTS if k not in content["constants"]]
    if missing:
        return missing
    try:  # the abilities (docs/games/thrones-abilities.md): a fault names the card
        components_of(content)
    except AbilityError as err:
        return [str(err)]
    return []


# ---------------------------------------------------------------------------
# Typed card data
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grant:
    """What an attachment gives its host while `when` holds (card data `grants`)."""

    when: str
    strength: int
    icons: tuple[str, ...]
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AttachRules:
    """Where an attachment may go beyond "a character in play" (card data `attach_rules`)."""

    controller: str | None = None
    character_house: str | None = None
    character_traits_any: tuple[str, ...] = ()
    max_per_character: bool = False


@dataclass(frozen=True, slots=True)
class SelfReduction:
    """A card's own cost reduction (card data `self_cost_reduction`, §7.3): `amount` if a
    card named `if_in_play_name` is in play, else `amount` per controlled `trait` character."""

    amount: int
    if_in_play_name: str | None = None
    per_controlled_trait: str | None = None


@dataclass(frozen=True, slots=True)
class PlotValues:
    income: int
    initiative: int
    claim: int

    def get(self, name: str) -> int:
        """One value by its name ("income", "initiative", "claim")."""
        return {"income": self.income, "initiative": self.initiative, "claim": self.claim}[name]


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set as printed, with the ability data the reducer automates."""

    number: int
    id: str
    name: str
    type: str
    houses: tuple[str, ...]
    unique: bool
    cost: int
    strength: int
    icons: tuple[str, ...]
    crests: tuple[str, ...]
    traits: tuple[str, ...]
    keywords: tuple[str, ...]
    house_only: str | None
    income_bonus: int
    initiative_bonus: int
    plot: PlotValues | None = None
    #: the printed influence (§2.2): what kneeling it pays toward an influence cost (ruling 27)
    influence_bonus: int = 0
    grants: tuple[Grant, ...] = ()
    attach_rules: AttachRules = AttachRules()
    self_cost_reduction: SelfReduction | None = None
    kneel_exempt_attack: tuple[str, ...] = ()
    kneel_exempt_defend: tuple[str, ...] = ()
    may_attach_to_own_house_card: bool = False
    cannot_attack: bool = False
    stealth_immune: bool = False
    #: its abilities as data (docs/games/thrones-abilities.md); `declared`: the card says
    #: what it does (an `abilities` list, empty with `plain`), which the coverage test reads
    abilities: tuple[Ability, ...] = ()
    declared: bool = False
    plain: bool = False

    @property
    def constants(self) -> tuple[Ability, ...]:
        """Its constant abilities, which apply by themselves while it is in play."""
        return tuple(a for a in self.abilities if a.kind == "constant")

    def ability(self, ident: str) -> Ability | None:
        """Its ability named `ident`, or None."""
        return next((a for a in self.abilities if a.id == ident), None)

    def kneel_exempt(self, side: str) -> tuple[str, ...]:
        """The challenge types in which this card need not kneel to `side` ("attack",
        "defend")."""
        return self.kneel_exempt_attack if side == "attack" else self.kneel_exempt_defend


@dataclass(frozen=True, slots=True)
class Title:
    """A title of the melee (§2.5)."""

    id: str
    name: str
    supports: tuple[str, ...]
    opposes: tuple[str, ...]
    amount: int | None  # its ability's amount (the Master of Coin's gold)
    abilities: tuple[Ability, ...] = ()

    def ability(self, ident: str) -> Ability | None:
        """Its declared ability named `ident`, or None."""
        return next((a for a in self.abilities if a.id == ident), None)


@dataclass(frozen=True, slots=True)
class StarterDeck:
    house_card: int
    plots: tuple[int, ...]
    draw_deck: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Constants:
    victory_power: int
    setup_hand_size: int
    setup_gold: int
    setup_max_limited: int
    draw_phase_cards: int
    out_of_house_surcharge: int
    unopposed_bonus_power: int
    dominance_power: int
    opposes_bonus_power: int
    plot_deck_size: int


@dataclass(frozen=True, slots=True)
class House:
    id: str
    house_card: int


class OpWords(Protocol):
    """What the sentence of an effect reads of an op's record (apply/effects.OpType): its
    clause, (op, names, components) -> words."""

    @property
    def sentence(self) -> Callable[[Any, Sequence[str], Any], str]: ...


@dataclass(frozen=True, slots=True)
class Components:
    """The typed edition, built once per bound rules object. `ops` are the records of the
    effect ops (apply/effects.OP_TYPES), bound when the rules load the edition, so the
    sentence of an effect (words.py, which the rules read) finds each op's clause without
    importing the rules."""

    cards: tuple[Card, ...]  # in the edition's order
    by_number: Mapping[int, Card]
    constants: Constants
    titles: Mapping[str, Title]  # in the edition's order
    starter: Mapping[str, StarterDeck]
    houses: tuple[House, ...]
    house_ids: Mapping[str, int]
    effect_ops: tuple[str, ...]
    ops: Mapping[str, OpWords] = field(default_factory=dict)
    #: the numbers of the cards whose constant abilities change values (a `continuous`):
    #: the hot path (apply/values.py) looks at these cards only
    constant_cards: frozenset[int] = frozenset()
    #: the numbers of the cards whose constants restrict what the rules allow (immunity,
    #: defenders, discards: apply/restrictions.py)
    restriction_cards: frozenset[int] = frozenset()
    #: the same numbers by restriction op: a check of one kind (`killed_at_zero`, asked
    #: after every event) looks at the cards that print it only
    restriction_kinds: Mapping[str, frozenset[int]] = field(default_factory=dict)
    #: the numbers of the cards whose constants hold while their STR changed this phase
    #: (Stannis's Northern Cavalry, ruling B22): the only ones marked after an event
    strength_watchers: frozenset[int] = frozenset()
    #: each house's name in each language the edition gives ("Stark", 史塔克)
    house_names: Mapping[str, str] = field(default_factory=dict)
    _memo: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)

    def card(self, card: CardId) -> Card:
        """The card an instance id is a copy of (KeyError for a number not in the set)."""
        memo = self._memo
        if card not in memo:
            memo[card] = self.by_number[int(card.split("-")[1])]
        return memo[card]

    def is_known(self, card: object) -> bool:
        """Whether `card` is a well-formed instance id of a card of the set."""
        if isinstance(card, str) and card in self._memo:
            return True
        parsed = parse_id(card)
        return parsed is not None and parsed[1] in self.by_number

    def name(self, card: object) -> str:
        """A card's printed name, or what was typed for anything else."""
        return self.card(card).name if isinstance(card, str) and self.is_known(card) \
            else str(card)

    def is_character(self, card: CardId) -> bool:
        return self.card(card).type == "character"


def components_of(edition: Mapping[str, Any]) -> Components:
    """The typed edition of checked content (see `edition_problems`)."""
    op_fields = {name: tuple((spec.get("fields") or {}) if isinstance(spec, Mapping) else ())
                 for name, spec in (edition.get("effect_ops") or {}).items()}
    cards = tuple(_card(c, op_fields) for c in edition["cards"])
    kinds = {op: _constant_numbers(cards, (op,)) for op in RESTRICTION_OPS}
    return Components(
        cards=cards, by_number={c.number: c for c in cards},
        constants=Constants(**{k: int(edition["constants"][k]) for k in CONSTANTS}),
        titles={t["id"]: _title(t, op_fields) for t in edition["titles"]},
        starter={house: StarterDeck(int(d["house_card"]), tuple(d["plots"]),
                                    tuple(d["draw_deck"]))
                 for house, d in edition["starter_decks"].items()},
        houses=tuple(House(h["id"], int(h.get("house_card") or 0)) for h in edition["houses"]),
        house_ids={h["id"]: int(h["house_card"]) for h in edition["houses"]},
        house_names={h["id"]: Name(h["id"], {"zh_Hans": h["name_zh"]} if h.get("name_zh")
                                   else {}) for h in edition["houses"]},
        effect_ops=tuple(edition.get("effect_ops") or ()),
        constant_cards=_constant_numbers(cards, ("continuous",)),
        restriction_cards=frozenset().union(*kinds.values()), restriction_kinds=kinds,
        strength_watchers=frozenset(
            c.number for c in cards for a in c.constants for op in a.ops
            if (op.get("while") or {}).get("strength_changed") is not None))


def _constant_numbers(cards: Sequence[Card], ops: Sequence[str]) -> frozenset[int]:
    """The numbers of the cards with a constant ability using one of `ops`."""
    return frozenset(c.number for c in cards
                     if any(op.get("op") in ops for a in c.constants for op in a.ops))


def _card(data: Mapping[str, Any], op_fields: Mapping[str, Sequence[str]]) -> Card:
    exempt = data.get("kneel_exempt") or {}
    plot = data.get("plot")
    return Card(
        number=int(data["number"]), id=str(data.get("id")), name=Name.of(data),
        type=data["type"], houses=tuple(data["houses"]), unique=bool(data["unique"]),
        cost=int(data.get("cost") or 0), strength=int(data.get("strength") or 0),
        icons=tuple(data["icons"]), crests=tuple(data["crests"]), traits=tuple(data["traits"]),
        keywords=tuple(data["keywords"]), house_only=data.get("house_only"),
        income_bonus=int(data.get("income_bonus") or 0),
        influence_bonus=int(data.get("influence_bonus") or 0),
        initiative_bonus=int(data.get("initiative_bonus") or 0),
        plot=None if plot is None else PlotValues(int(plot["income"]), int(plot["initiative"]),
                                                  int(plot["claim"])),
        grants=tuple(_grant(g) for g in data.get("grants", ())),
        attach_rules=_attach_rules(data.get("attach_rules") or {}),
        self_cost_reduction=_self_reduction(data.get("self_cost_reduction")),
        kneel_exempt_attack=tuple(exempt.get("attack", ())),
        kneel_exempt_defend=tuple(exempt.get("defend", ())),
        may_attach_to_own_house_card=bool(data.get("may_attach_to_own_house_card")),
        cannot_attack=bool(data.get("cannot_attack")),
        stealth_immune=bool(data.get("stealth_immune")),
        abilities=parse_abilities(str(data.get("id")), data["name"], data["type"],
                                  data.get("abilities"), op_fields),
        declared="abilities" in data, plain=bool(data.get("plain")))


def _grant(data: Mapping[str, Any]) -> Grant:
    return Grant(when=data.get("when", "always"), strength=int(data.get("strength") or 0),
                 icons=tuple(data.get("icons") or ()), keywords=tuple(data.get("keywords") or ()))


def _attach_rules(data: Mapping[str, Any]) -> AttachRules:
    return AttachRules(controller=data.get("controller"),
                       character_house=data.get("character_house"),
                       character_traits_any=tuple(data.get("character_traits_any") or ()),
                       max_per_character=bool(data.get("max_per_character")))


def _self_reduction(data: Mapping[str, Any] | None) -> SelfReduction | None:
    if not data:
        return None
    return SelfReduction(amount=int(data["amount"]), if_in_play_name=data.get("if_in_play_name"),
                         per_controlled_trait=data.get("per_controlled_trait"))


def _title(data: Mapping[str, Any], op_fields: Mapping[str, Sequence[str]]) -> Title:
    amount = (data.get("ability") or {}).get("amount")
    return Title(id=data["id"], name=Name.of(data), supports=tuple(data.get("supports") or ()),
                 opposes=tuple(data.get("opposes") or ()),
                 amount=None if amount is None else int(amount),
                 abilities=parse_abilities(f"title:{data['id']}", data["name"], "title",
                                           data.get("abilities"), op_fields))


# ---------------------------------------------------------------------------
# Instance ids (§3)
# ---------------------------------------------------------------------------


def owner_of(card: CardId) -> Seat:
    """The seat in an instance id `p<seat>-NNN[-k]` (§3)."""
    return int(card[1:card.index("-")])


def parse_id(card: object) -> tuple[Seat, int] | None:
    """(owner, number) of a well-formed instance id, else None."""
    if not isinstance(card, str) or not card.startswith("p"):
        return None
    parts = card[1:].split("-")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 3 and int(parts[2]) < 2:
        return None
    return int(parts[0]), int(parts[1])


def instance_ids(seat: Seat, numbers: Sequence[int]) -> list[CardId]:
    """Instance ids for a deck list: later copies of one number get -2, -3, ... (§3)."""
    seen: dict[int, int] = {}
    out = []
    for num in numbers:
        seen[num] = seen.get(num, 0) + 1
        suffix = "" if seen[num] == 1 else f"-{seen[num]}"
        out.append(f"p{seat}-{num:03d}{suffix}")
    return out
