"""Palais Royal data shapes: each action's `data` (spec §5) and the edition's fields."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

# ---------------------------------------------------------------------------
# Action data shapes
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Edition schema (every field the reducer reads)
# ---------------------------------------------------------------------------


class _EdTile(Schema):
    id = fields.String(required=True)
    advantage = fields.String(allow_none=True, load_default=None)
    advantage_bonus = fields.Integer(validate=validate.Range(min=0))


class _EdGrid(Schema):
    rows = fields.Integer(required=True, validate=validate.Range(min=1))
    cols = fields.Integer(required=True, validate=validate.Range(min=1))


class _EdCourt(Schema):
    tiles = fields.List(fields.Nested(_EdTile(unknown="include")), required=True,
                        validate=validate.Length(min=1))
    grid = fields.Nested(_EdGrid(unknown="include"), required=True)


class _EdSpace(Schema):
    id = fields.String(required=True)
    row = fields.Integer(required=True, validate=validate.Range(min=0))
    col = fields.Integer(required=True, validate=validate.Range(min=0))
    edges = fields.List(fields.String(), required=True)
    edge_weight = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdGarden(Schema):
    spaces = fields.List(fields.Nested(_EdSpace(unknown="include")), required=True,
                         validate=validate.Length(min=1))
    adjacency = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                            required=True)
    edges = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                        required=True)


class _EdNoble(Schema):
    id = fields.String(required=True)
    gold = fields.Integer(required=True, validate=validate.Range(min=0))
    purple = fields.Integer(required=True, validate=validate.Range(min=0))
    blue = fields.Integer(required=True, validate=validate.Range(min=0))
    points = fields.Integer(required=True)
    privilege = fields.String(allow_none=True, required=True)


class _EdPrivilege(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r".*_\d+$|^diagonal_move$"))
    amount = fields.Integer(validate=validate.Range(min=0))


class _EdCard(Schema):
    id = fields.String(required=True)
    count = fields.Integer(required=True, validate=validate.Range(min=0))
    cost = fields.Integer(required=True, validate=validate.Range(min=0))
    window_open_steps = fields.List(fields.Raw(), required=True)
    effect_data = fields.Dict(required=True)
    goes_to = fields.String(required=True, validate=validate.OneOf(["discard", "played_area"]))


class _EdServants(Schema):
    per_colour = fields.Integer(required=True, validate=validate.Range(min=0))
    personal_at_start = fields.Integer(required=True, validate=validate.Range(min=0))
    general_supply_per_colour = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdSetup(Schema):
    fixed_initial_servants = fields.Dict(keys=fields.String(), values=fields.Integer(),
                                         required=True)
    free_initial_servants = fields.Integer(required=True, validate=validate.Range(min=0))
    starting_gold_by_player_count = fields.Dict(keys=fields.String(),
                                                values=fields.List(fields.Integer()),
                                                required=True)


class _EdEnd(Schema):
    garden_threshold = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdGardenEdge(Schema):
    first = fields.Integer(required=True)
    second = fields.Integer(required=True)
    minimum_to_score = fields.Integer(required=True)


class _EdHeld(Schema):
    points_each = fields.Integer(required=True)
    max_points = fields.Integer(required=True)


class _EdScoring(Schema):
    garden_edge = fields.Nested(_EdGardenEdge(unknown="include"), required=True)
    held_privilege_cards = fields.Nested(_EdHeld(unknown="include"), required=True)


class _Edition(Schema):
    class Meta:
        unknown = "include"

    slug = fields.String(required=True, validate=validate.Equal("palais_royal"))
    court = fields.Nested(_EdCourt(unknown="include"), required=True)
    garden = fields.Nested(_EdGarden(unknown="include"), required=True)
    nobles = fields.List(fields.Nested(_EdNoble(unknown="include")), required=True)
    nobles_placed = fields.Integer(required=True, validate=validate.Range(min=1))
    noble_privileges = fields.List(fields.Nested(_EdPrivilege(unknown="include")),
                                   required=True)
    privilege_cards = fields.List(fields.Nested(_EdCard(unknown="include")), required=True)
    servants = fields.Nested(_EdServants(unknown="include"), required=True)
    setup = fields.Nested(_EdSetup(unknown="include"), required=True)
    end = fields.Nested(_EdEnd(unknown="include"), required=True)
    scoring = fields.Nested(_EdScoring(unknown="include"), required=True)
