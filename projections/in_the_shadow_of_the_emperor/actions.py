"""In the Shadow of the Emperor: its 24 action types, each declared once (docs/design.md,
"Actions and choices"): the shape of its `data`, checked before a rule reads it, the choices
that build it (legal.py), its chance field, its rule (apply.py), who sees it (views.py) and
its sentence (words.py).

Spec: docs/games/in_the_shadow_of_the_emperor.md, §2 (reference formats) and §6 (fields).
Schema-shaped but wrong values (an electorate that does not exist) are the rules' refusals.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..choices import ActionType, public
from ..messages import M
from . import apply, legal, views, words
from .edition import Components
from .state import State


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
    #: written by chronicle: the seat cast it with its own token at a table, so the table's
    #: recorder does not see it either until the reveal (ruling 21)
    sealed = fields.Boolean()


class RevealVotesData(Schema):
    votes = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class FormerEmperorData(Schema):
    electorate = fields.String(allow_none=True, required=True)
    push_knight_owner = _push()


class EmperorCityData(Schema):
    mode = fields.String(required=True)
    from_ = fields.String(data_key="from", allow_none=True, load_default=None)
    to = fields.String(allow_none=True, load_default=None)


#: spec §8: a ballot is sealed and then revealed; neither can be taken back in digital play
#: (`never_undoable`); the setup's `emperor` is its only chance field (§11)
ACTIONS: tuple[ActionType[State, Components], ...] = (
    ActionType("setup", M("Set up the game"), SetupData,
               legal.setup_steps, ("emperor",), apply.apply_setup,
               public, words.setup_sentence),
    ActionType("place_start_empire_city", M("Place the first empire city"), ElectorateData,
               legal.place_start_empire_city_steps, (), apply.apply_place_start_empire_city,
               public, words.place_start_empire_city_sentence),
    ActionType("place_start_elector", M("Place a starting elector"), ElectorateData,
               legal.place_start_elector_steps, (), apply.apply_place_start_elector,
               public, words.place_start_elector_sentence),
    ActionType("place_start_aristocrat", M("Place a starting aristocrat"), ElectorateData,
               legal.place_start_aristocrat_steps, (), apply.apply_place_start_aristocrat,
               public, words.place_start_aristocrat_sentence),
    ActionType("place_start_knight", M("Place a starting knight"), KnightPlaceData,
               legal.place_start_knight_steps, (), apply.apply_place_start_knight,
               public, words.place_start_knight_sentence),
    ActionType("fill_throne", M("Refill the throne"), ThroneData,
               legal.fill_throne_steps, (), apply.apply_fill_throne,
               public, words.fill_throne_sentence),
    ActionType("place_son", M("Place a son"), PlaceSonData,
               legal.place_son_steps, (), apply.apply_place_son,
               public, words.place_son_sentence),
    ActionType("propose_marriage", M("Propose a marriage"), ProposeData,
               legal.propose_marriage_steps, (), apply.apply_propose_marriage,
               public, words.propose_marriage_sentence),
    ActionType("answer_proposal", M("Answer the proposal"), AnswerData,
               legal.answer_proposal_steps, (), apply.apply_answer_proposal,
               public, words.answer_proposal_sentence),
    ActionType("send_to_convent", M("Send the daughter to the convent"), EmptyData,
               legal.send_to_convent_steps, (), apply.apply_send_to_convent,
               public, words.send_to_convent_sentence),
    ActionType("buy_card", M("Buy a card"), BuyCardData,
               legal.buy_card_steps, (), apply.apply_buy_card,
               public, words.buy_card_sentence),
    ActionType("use_privilege", M("Use a privilege"), UsePrivilegeData,
               legal.use_privilege_steps, (), apply.apply_use_privilege,
               public, words.use_privilege_sentence),
    ActionType("knight_action", M("Place or move a knight"), KnightActionData,
               legal.knight_action_steps, (), apply.apply_knight_action,
               public, words.knight_action_sentence),
    ActionType("pass", M("Pass"), EmptyData,
               legal.pass_steps, (), apply.apply_pass,
               public, words.pass_sentence),
    ActionType("break_tie", M("Break the tie"), BreakTieData,
               legal.break_tie_steps, (), apply.apply_break_tie,
               public, words.break_tie_sentence),
    ActionType("appoint_elector", M("Appoint the elector"), AppointData,
               legal.appoint_elector_steps, (), apply.apply_appoint_elector,
               public, words.appoint_elector_sentence),
    ActionType("place_former_elector", M("Place the former elector"), FormerElectorData,
               legal.place_former_elector_steps, (), apply.apply_place_former_elector,
               public, words.place_former_elector_sentence),
    ActionType("choose_church_influence_target", M("Name the Church Influence target"), TargetData,
               legal.choose_church_influence_target_steps, (),
               apply.apply_choose_church_influence_target,
               public, words.choose_church_influence_target_sentence),
    ActionType("choose_excommunication_target", M("Name the Excommunication target"), TargetData,
               legal.choose_excommunication_target_steps, (),
               apply.apply_choose_excommunication_target,
               public, words.choose_excommunication_target_sentence),
    ActionType("cast_vote", M("Cast a sealed ballot"), CastVoteData,
               legal.cast_vote_steps, (), apply.apply_cast_vote,
               views.redact_cast_vote, words.cast_vote_sentence, never_undoable=True),
    ActionType("reveal_votes", M("Reveal the election cards"), RevealVotesData,
               legal.reveal_votes_steps, (), apply.apply_reveal_votes,
               public, words.reveal_votes_sentence, never_undoable=True),
    ActionType("seat_emperor", M("Seat the new Emperor"), ThroneData,
               legal.seat_emperor_steps, (), apply.apply_seat_emperor,
               public, words.seat_emperor_sentence),
    ActionType("place_former_emperor", M("Place the former Emperor's tile"), FormerEmperorData,
               legal.place_former_emperor_steps, (), apply.apply_place_former_emperor,
               public, words.place_former_emperor_sentence),
    ActionType("emperor_city_action", M("Place or move an empire city"), EmperorCityData,
               legal.emperor_city_action_steps, (), apply.apply_emperor_city_action,
               public, words.emperor_city_action_sentence),
)
