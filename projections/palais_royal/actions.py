"""Palais Royal's action data: the shape of each action's `data` (spec §5), checked before
the rules see it, and which fields hold chance outcomes (spec §9)."""

from __future__ import annotations

from marshmallow import Schema, fields


class SetupData(Schema):
    player_count = fields.Integer(required=True)
    start_player = fields.Integer(required=True)
    court_layout = fields.List(fields.String(), required=True)
    garden = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    set_aside = fields.List(fields.String())


class InitialPlacementData(Schema):
    placements = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class _Seals(Schema):
    blue = fields.Integer(required=True)
    purple = fields.Integer(required=True)


class PlayPrivilegeCardData(Schema):
    card = fields.String(required=True)
    seals = fields.Nested(_Seals, allow_none=True)


class PlaceAtGateData(Schema):
    sources = fields.List(fields.String(), required=True)


class _Step(Schema):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)


class MoveServantsData(Schema):
    steps = fields.List(fields.Nested(_Step), required=True)


class _SealBonus(Schema):
    tile = fields.String(required=True)
    source = fields.String(required=True)


class CourtPlacementsData(Schema):
    kings_chamber_extra = fields.String(allow_none=True)
    pompadour_extra = fields.String(allow_none=True)
    seal_bonus = fields.List(fields.Nested(_SealBonus))


class RecruitNobleData(Schema):
    space = fields.String(required=True)
    noble = fields.String(required=True)


class DrawPrivilegeCardsData(Schema):
    count = fields.Integer(required=True)
    cards = fields.List(fields.String(), required=True)


class KeepPrivilegeCardsData(Schema):
    kept = fields.List(fields.String(), required=True)


class EndTurnData(Schema):
    pass


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "setup": SetupData,
    "initial_placement": InitialPlacementData,
    "play_privilege_card": PlayPrivilegeCardData,
    "place_at_gate": PlaceAtGateData,
    "move_servants": MoveServantsData,
    "court_placements": CourtPlacementsData,
    "recruit_noble": RecruitNobleData,
    "draw_privilege_cards": DrawPrivilegeCardsData,
    "keep_privilege_cards": KeepPrivilegeCardsData,
    "end_turn": EndTurnData,
}
#: the data fields that hold chance outcomes (spec §9)
CHANCE_FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("court_layout", "garden", "set_aside", "start_player"),
    "draw_privilege_cards": ("cards",),
}
