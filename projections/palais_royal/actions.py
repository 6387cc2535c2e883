"""Palais Royal's ten actions (spec §5), each declared once: the shape of its `data`,
checked before the rules see it, the choices that build it, the fields holding chance
outcomes (spec §9), its rule, who sees it and its sentence (docs/design.md, "Actions and
choices")."""

from __future__ import annotations

from marshmallow import Schema, fields

from ..choices import ActionType, public
from ..messages import M
from . import apply, legal, views, words
from .edition import Components
from .state import State


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


ACTIONS: tuple[ActionType[State, Components], ...] = (
    ActionType("setup", M("Lay out the court and the garden"), SetupData, legal.setup_steps,
               ("court_layout", "garden", "set_aside", "start_player"), apply.apply_setup,
               public, words.setup_sentence),
    ActionType("initial_placement", M("Place the first servants"), InitialPlacementData,
               legal.initial_placement_steps, (), apply.apply_initial_placement, public,
               words.initial_placement_sentence),
    ActionType("play_privilege_card", M("Play a privilege card"), PlayPrivilegeCardData,
               legal.play_privilege_card_steps, (), apply.apply_play_privilege_card, public,
               words.play_privilege_card_sentence),
    ActionType("place_at_gate", M("Put servants on the Gate"), PlaceAtGateData,
               legal.place_at_gate_steps, (), apply.apply_place_at_gate, public,
               words.place_at_gate_sentence),
    ActionType("move_servants", M("Move servants"), MoveServantsData, legal.move_servants_steps,
               (), apply.apply_move_servants, public, words.move_servants_sentence),
    ActionType("court_placements", M("Place the extra seal servants"), CourtPlacementsData,
               legal.court_placements_steps, (), apply.apply_court_placements, public,
               words.court_placements_sentence),
    ActionType("recruit_noble", M("Recruit a noble"), RecruitNobleData,
               legal.recruit_noble_steps, (), apply.apply_recruit_noble, public,
               words.recruit_noble_sentence),
    ActionType("draw_privilege_cards", M("Draw privilege cards"), DrawPrivilegeCardsData,
               legal.draw_privilege_cards_steps, ("cards",), apply.apply_draw_privilege_cards,
               views.redact_draw_privilege_cards, words.draw_privilege_cards_sentence),
    # keeping turns the unkept cards face up on the discard pile (spec §5.9): undoing it
    # would hide again what every seat has seen (rulings #13)
    ActionType("keep_privilege_cards", M("Keep privilege cards"), KeepPrivilegeCardsData,
               legal.keep_privilege_cards_steps, (), apply.apply_keep_privilege_cards,
               views.redact_keep_privilege_cards, words.keep_privilege_cards_sentence,
               never_undoable=True),
    ActionType("end_turn", M("End the turn"), EndTurnData, legal.end_turn_steps, (),
               apply.apply_end_turn, public, words.end_turn_sentence),
)
