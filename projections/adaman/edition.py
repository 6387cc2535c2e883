"""Adaman's component data (data/adaman.json): checked once, read as typed, frozen values.

The reducer reads every card, suit and layout number from `Components`, built once per
bound rules object, so no rule looks into the edition's JSON while a game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from marshmallow import fields, validate

from ..messages import Name
from ..rules import CardId, OpenSchema, schema_problems


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the basic Decktet as Adaman plays it (spec §2.4)."""

    id: CardId
    name: str
    rank: int
    suits: frozenset[str]
    personality: bool


@dataclass(frozen=True, slots=True)
class Components:
    """The edition as the rules read it."""

    cards: Mapping[CardId, Card]
    #: the extended deck's cards, refused by name (id -> printed name)
    excluded: Mapping[CardId, str]
    #: suit id -> printed name
    suit_names: Mapping[str, str]
    personalities: frozenset[CardId]
    #: what controlling every personality scores (spec §2.4: 66; the 2012 sheet's 70 is a slip)
    personality_rank_sum: int
    capital_target_size: int
    resources_target_size: int
    court_count_that_loses: int


class _EditionCard(OpenSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, validate=validate.Range(min=0))
    suits = fields.List(fields.String(), required=True)
    personality = fields.Boolean(required=True)


class _EditionLayout(OpenSchema):
    capital_target_size = fields.Integer(required=True, validate=validate.Range(min=1))
    resources_target_size = fields.Integer(required=True, validate=validate.Range(min=1))
    court_count_that_loses = fields.Integer(required=True, validate=validate.Range(min=1))


class _Edition(OpenSchema):
    slug = fields.String(required=True, validate=validate.Equal("adaman"))
    cards = fields.List(fields.Nested(_EditionCard()), required=True,
                        validate=validate.Length(min=1))
    layout = fields.Nested(_EditionLayout(), required=True)


def edition_problems(content: Mapping[str, Any]) -> list[str]:
    """Why `content` cannot serve as an Adaman edition, one line per field (empty: it can)."""
    return schema_problems(_Edition(), dict(content))


def _card(raw: Mapping[str, Any]) -> Card:
    return Card(raw["id"], Name.of(raw), raw["rank"], frozenset(raw["suits"]),
                bool(raw["personality"]))


def load_components(edition: Mapping[str, Any]) -> Components:
    """The typed components of a checked edition."""
    cards = {raw["id"]: _card(raw) for raw in edition["cards"]}
    personalities = frozenset(c.id for c in cards.values() if c.personality)
    layout = edition["layout"]
    return Components(
        cards=MappingProxyType(cards),
        excluded=MappingProxyType({c["id"]: Name.of({"name": repr(c["id"]), **c})
                                   for c in edition.get("excluded_cards", ())}),
        suit_names=MappingProxyType({s["id"]: Name.of({"name": s["id"], **s})
                                     for s in edition.get("suits", ())}),
        personalities=personalities,
        # spec §2.4: compute the sum (66); the 2012 sheet's 70 is a slip
        personality_rank_sum=sum(cards[c].rank for c in personalities),
        capital_target_size=int(layout["capital_target_size"]),
        resources_target_size=int(layout["resources_target_size"]),
        court_count_that_loses=int(layout["court_count_that_loses"]),
    )
