"""Royals: its five actions (spec §3, §5), each declared once: the data a recorder sends
(a marshmallow schema), the choices that build it, its chance fields, its rule, who sees it
and its sentence (docs/design.md, "Actions and choices").

Actions: `setup` (actor "table"; chance: `start_player`, `display`), `draw_cards` (chance:
`draws`: the cards of the deck and the intrigue pile; the kinds, sources and display cards
are the player's choice), `claim_noble`, `usurp_noble`, `end_turn` (chance: `refill`).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..choices import ActionType, public
from ..messages import M
from . import apply, legal, views, words
from .edition import Components
from .state import State


class SetupData(Schema):
    colours = fields.List(fields.String(), required=True)
    start_player = fields.Integer()
    display = fields.List(fields.String())
    players = fields.Integer()  # optional repeat of the player count: must agree
    variants = fields.Dict(keys=fields.String(), values=fields.Boolean())


class DrawEntry(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["country", "intrigue"]))
    source = fields.String(validate=validate.OneOf(["display", "deck"]))
    card = fields.Raw()  # a country id, or a pair of country ids for an intrigue card


class DrawCardsData(Schema):
    draws = fields.List(fields.Nested(DrawEntry), required=True)


class ClaimNobleData(Schema):
    portrait = fields.String(required=True)
    country_cards = fields.List(fields.String(), required=True)


class UsurpNobleData(Schema):
    portrait = fields.String(required=True)
    country_cards = fields.List(fields.String(), required=True)
    intrigue_cards = fields.List(fields.List(fields.String()), required=True)


class EndTurnData(Schema):
    discard_country = fields.List(fields.String(), load_default=list)
    discard_intrigue = fields.List(fields.List(fields.String()), load_default=list)
    refill = fields.List(fields.String())


ACTIONS: tuple[ActionType[State, Components], ...] = (
    ActionType("setup", M("Set up the game"), SetupData, legal.setup_steps,
               ("start_player", "display"), apply.apply_setup, public, words.setup_sentence),
    ActionType("draw_cards", M("Draw cards"), DrawCardsData, legal.draw_cards_steps, ("draws",),
               apply.apply_draw_cards, views.redact_draw, words.draw_cards_sentence),
    ActionType("claim_noble", M("Claim a noble"), ClaimNobleData, legal.claim_noble_steps, (),
               apply.apply_claim_noble, public, words.claim_noble_sentence),
    ActionType("usurp_noble", M("Usurp a noble"), UsurpNobleData, legal.usurp_noble_steps, (),
               apply.apply_usurp_noble, public, words.usurp_noble_sentence),
    ActionType("end_turn", M("End the turn"), EndTurnData, legal.end_turn_steps, ("refill",),
               apply.apply_end_turn, public, words.end_turn_sentence),
)
