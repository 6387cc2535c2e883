"""Royals: the data of each action, as marshmallow schemas (spec §3, §5).

Actions: `setup` (actor "table"; chance: `start_player`, `display`), `draw_cards` (chance:
`draws`), `claim_noble`, `usurp_noble`, `end_turn` (chance: `refill`).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate


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


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "setup": SetupData, "draw_cards": DrawCardsData, "claim_noble": ClaimNobleData,
    "usurp_noble": UsurpNobleData, "end_turn": EndTurnData,
}
#: the data fields that hold chance outcomes (a draw's field also names its sources)
CHANCE_FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("start_player", "display"), "draw_cards": ("draws",), "end_turn": ("refill",),
}
