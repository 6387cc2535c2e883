"""In the Shadow of the Emperor: the shape of every action's `data`, checked before a rule
reads it.

Spec: docs/games/in_the_shadow_of_the_emperor.md, §2 (reference formats) and §6 (fields).
Schema-shaped but wrong values (an electorate that does not exist) are the rules' refusals.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class AristocratRef(Schema):
    owner = fields.Integer(required=True)
    at = fields.String(required=True)
    side = fields.String(required=True)
    age = fields.Integer(required=True)


class KnightLoc(Schema):
    electorate = fields.String(required=True)
    slot = fields.String(required=True)


def _push() -> fields.Integer:
    return fields.Integer(allow_none=True, load_default=None)


class SetupData(Schema):
    players = fields.Integer(required=True)
    emperor = fields.Integer(required=True)


class ElectorateData(Schema):
    electorate = fields.String(required=True)


class KnightPlaceData(Schema):
    electorate = fields.String(required=True)
    slot = fields.String(required=True)


class EffectFields(Schema):
    """The effect fields shared by `buy_card` and the Trier privilege (spec §6.3)."""

    card = fields.String()
    target = fields.Nested(AristocratRef)
    direction = fields.String()
    aristocrat = fields.Nested(AristocratRef)
    to = fields.String()
    electorate = fields.String(allow_none=True)
    push_knight_owner = _push()


class BuyCardData(EffectFields):
    card = fields.String(required=True)


class UsePrivilegeData(EffectFields):
    privilege = fields.String(required=True)


class KnightActionData(Schema):
    from_ = fields.Nested(KnightLoc, data_key="from", allow_none=True, load_default=None)
    to = fields.Nested(KnightLoc, required=True)


class EmptyData(Schema):
    pass


class ThroneData(Schema):
    aristocrat = fields.Nested(AristocratRef, allow_none=True, required=True)


class PlaceSonData(Schema):
    electorate = fields.String(allow_none=True, required=True)
    push_knight_owner = _push()


class ProposeData(Schema):
    target = fields.Nested(AristocratRef, required=True)


class AnswerData(Schema):
    accept = fields.Boolean(required=True)


class BreakTieData(Schema):
    electorate = fields.String(required=True)
    winner = fields.Integer(required=True)


class AppointData(Schema):
    electorate = fields.String(required=True)
    aristocrat = fields.Nested(AristocratRef, required=True)


class FormerElectorData(Schema):
    electorate = fields.String(required=True)
    to = fields.String(required=True, validate=validate.OneOf(["court", "supply"]))
    push_knight_owner = _push()


class TargetData(Schema):
    electorate = fields.String(allow_none=True, required=True)


class CastVoteData(Schema):
    choice = fields.String(required=True)


class RevealVotesData(Schema):
    votes = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class FormerEmperorData(Schema):
    electorate = fields.String(allow_none=True, required=True)
    push_knight_owner = _push()


class EmperorCityData(Schema):
    mode = fields.String(required=True)
    from_ = fields.String(data_key="from", allow_none=True, load_default=None)
    to = fields.String(allow_none=True, load_default=None)


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "setup": SetupData,
    "place_start_empire_city": ElectorateData,
    "place_start_elector": ElectorateData,
    "place_start_aristocrat": ElectorateData,
    "place_start_knight": KnightPlaceData,
    "fill_throne": ThroneData,
    "place_son": PlaceSonData,
    "propose_marriage": ProposeData,
    "answer_proposal": AnswerData,
    "send_to_convent": EmptyData,
    "buy_card": BuyCardData,
    "use_privilege": UsePrivilegeData,
    "knight_action": KnightActionData,
    "pass": EmptyData,
    "break_tie": BreakTieData,
    "appoint_elector": AppointData,
    "place_former_elector": FormerElectorData,
    "choose_church_influence_target": TargetData,
    "choose_excommunication_target": TargetData,
    "cast_vote": CastVoteData,
    "reveal_votes": RevealVotesData,
    "seat_emperor": ThroneData,
    "place_former_emperor": FormerEmperorData,
    "emperor_city_action": EmperorCityData,
}

#: spec §11: no randomness; the digital server may pick the starting Emperor
CHANCE_FIELDS: dict[str, tuple[str, ...]] = {"setup": ("emperor",)}
