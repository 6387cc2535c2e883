"""The data of every Thrones action (shape only; the rules are checked by the reducer).

Spec: docs/games/thrones.md §6 (the actions and their fields). The schemas refuse fields
they do not declare (marshmallow's default), so a typo in a field name is caught before the
rules see it.
"""

from __future__ import annotations

from marshmallow import Schema, fields


class StartGameData(Schema):
    players = fields.List(fields.Dict(), required=True)
    decks = fields.Dict(load_default=None, allow_none=True)
    options = fields.Dict(load_default=None, allow_none=True)
    setup_first = fields.Integer(load_default=None, allow_none=True)
    setup_hands = fields.Dict(load_default=None, allow_none=True)


class MulliganData(Schema):
    new_hand = fields.List(fields.String(), load_default=None, allow_none=True)


class SetupCardsData(Schema):
    cards = fields.List(fields.Dict(), required=True)


class DrawsData(Schema):
    draws = fields.Dict(load_default=None, allow_none=True)


class PlotData(Schema):
    plot = fields.String(required=True)


class WinnerData(Schema):
    winner = fields.Integer(load_default=None, allow_none=True)


class FirstPlayerData(Schema):
    first_player = fields.Integer(required=True)


class TitleData(Schema):
    title = fields.String(required=True)


class MarshalData(Schema):
    card = fields.String(required=True)
    attach_to = fields.String(load_default=None, allow_none=True)
    as_duplicate = fields.Boolean(load_default=False)
    declared_cost = fields.Integer(load_default=None, allow_none=True)


class EmptyData(Schema):
    pass


class DeclareChallengeData(Schema):
    type = fields.String(required=True)
    defender = fields.Integer(required=True)
    attackers = fields.List(fields.String(), required=True)
    not_kneeling = fields.List(fields.String(), load_default=list)


class StealthData(Schema):
    bypass = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class RedirectData(Schema):
    new_defender = fields.Integer(required=True)


class DefendersData(Schema):
    defenders = fields.List(fields.String(), required=True)
    not_kneeling = fields.List(fields.String(), load_default=list)


class ClaimTargetsData(Schema):
    extra_opponents = fields.List(fields.Integer(), required=True)


class ClaimData(Schema):
    kills = fields.List(fields.String(), load_default=None, allow_none=True)
    discards = fields.List(fields.String(), load_default=None, allow_none=True)
    saves = fields.List(fields.Dict(), load_default=list)
    redirect = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)


class EffectData(Schema):
    source = fields.String(load_default=None, allow_none=True)
    costs = fields.List(fields.Dict(), load_default=list)
    ops = fields.List(fields.Dict(), load_default=list)
    text = fields.String(load_default=None, allow_none=True)


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "start_game": StartGameData, "mulligan": MulliganData, "setup_cards": SetupCardsData,
    "setup_draw": DrawsData, "choose_plot": PlotData, "break_initiative_tie": WinnerData,
    "choose_first_player": FirstPlayerData, "choose_title": TitleData,
    "draw_phase": DrawsData, "marshal_card": MarshalData, "end_marshalling": EmptyData,
    "declare_challenge": DeclareChallengeData, "assign_stealth": StealthData,
    "redirect_challenge": RedirectData, "declare_defenders": DefendersData,
    "take_challenge": EmptyData, "resolve_challenge": EmptyData,
    "choose_claim_targets": ClaimTargetsData, "apply_claim": ClaimData,
    "apply_deadly": ClaimData, "end_challenges": EmptyData, "resolve_dominance": EmptyData,
    "end_round": EmptyData, "effect": EffectData, "choose_winner": WinnerData,
    "concede": EmptyData,
}


#: the data fields that hold chance outcomes: hands and draws dealt, the initiative tie's
#: winner, the cards an intrigue claim discards at random
CHANCE_FIELDS: dict[str, tuple[str, ...]] = {
    "start_game": ("setup_hands", "setup_first"), "mulligan": ("new_hand",),
    "setup_draw": ("draws",), "draw_phase": ("draws",),
    "break_initiative_tie": ("winner",), "apply_claim": ("discards",),
}
