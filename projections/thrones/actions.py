"""Every Thrones action, declared once (docs/design.md, "Actions and choices"): the data a
recorder sends (shape only; the rules are checked by the reducer), the choices that build
it (legal.py), its chance fields, its rule (apply/), who sees it (views.py) and its
sentence (words.py).

Spec: docs/games/thrones.md §6 (the actions and their fields). The schemas refuse fields
they do not declare (marshmallow's default), so a typo in a field name is caught before the
rules see it. The changes an `effect` records (§9) are declared the same way, one record
per op, in apply/effects.py (`OPS`).
"""

from __future__ import annotations

from marshmallow import Schema, fields

from ..choices import ActionType, public
from ..messages import M
from . import apply, legal, views, words
from .edition import Components
from .state import State


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
    reason = fields.String(load_default=None, allow_none=True)


class UseAbilityData(Schema):
    """docs/games/thrones-abilities.md, "The action use_ability"."""

    card = fields.String(required=True)
    ability = fields.String(required=True)
    choices = fields.Dict(keys=fields.String(), load_default=dict)
    drawn = fields.List(fields.String(), load_default=None, allow_none=True)
    milled = fields.List(fields.String(), load_default=None, allow_none=True)
    random = fields.List(fields.String(), load_default=None, allow_none=True)
    looked = fields.List(fields.String(), load_default=None, allow_none=True)



#: the data fields that hold chance outcomes are each record's `chance`: hands and draws
#: dealt, the initiative tie's winner, the cards an intrigue claim discards at random, the
#: cards an ability draws, discards from a deck or from a hand at random (ruling 34)
ACTIONS: tuple[ActionType[State, Components], ...] = (
    ActionType("start_game", M("Start the game"), StartGameData,
               legal.start_game_steps, ("setup_hands", "setup_first"), apply.apply_start_game,
               views.redact_start_game, words.start_game_sentence),
    ActionType("mulligan", M("Take a mulligan"), MulliganData,
               legal.mulligan_steps, ("new_hand",), apply.apply_mulligan,
               views.redact_mulligan, words.mulligan_sentence),
    ActionType("setup_cards", M("Place setup cards"), SetupCardsData,
               legal.setup_cards_steps, (), apply.apply_setup_cards,
               views.redact_setup_cards, words.setup_cards_sentence),
    ActionType("setup_draw", M("Deal the setup draw"), DrawsData,
               legal.setup_draw_steps, ("draws",), apply.apply_setup_draw,
               views.redact_draws, words.setup_draw_sentence),
    ActionType("choose_plot", M("Choose a plot"), PlotData,
               legal.choose_plot_steps, (), apply.apply_choose_plot,
               views.redact_choose_plot, words.choose_plot_sentence, never_undoable=True),
    ActionType("break_initiative_tie", M("Break the initiative tie"), WinnerData,
               legal.break_initiative_tie_steps, ("winner",), apply.apply_break_initiative_tie,
               public, words.break_initiative_tie_sentence),
    ActionType("choose_first_player", M("Choose the first player"), FirstPlayerData,
               legal.choose_first_player_steps, (), apply.apply_choose_first_player,
               public, words.choose_first_player_sentence),
    ActionType("choose_title", M("Choose a title"), TitleData,
               legal.choose_title_steps, (), apply.apply_choose_title,
               public, words.choose_title_sentence),
    ActionType("draw_phase", M("Deal the draw phase"), DrawsData,
               legal.draw_phase_steps, ("draws",), apply.apply_draw_phase,
               views.redact_draws, words.draw_phase_sentence),
    ActionType("marshal_card", M("Marshal a card"), MarshalData,
               legal.marshal_card_steps, (), apply.apply_marshal_card,
               public, words.marshal_card_sentence),
    ActionType("end_marshalling", M("End marshalling"), EmptyData,
               legal.end_marshalling_steps, (), apply.apply_end_marshalling,
               public, words.end_marshalling_sentence),
    ActionType("declare_challenge", M("Declare a challenge"), DeclareChallengeData,
               legal.declare_challenge_steps, (), apply.apply_declare_challenge,
               public, words.declare_challenge_sentence),
    ActionType("assign_stealth", M("Assign stealth"), StealthData,
               legal.assign_stealth_steps, (), apply.apply_assign_stealth,
               public, words.assign_stealth_sentence),
    ActionType("redirect_challenge", M("Redirect the challenge"), RedirectData,
               legal.redirect_challenge_steps, (), apply.apply_redirect_challenge,
               public, words.redirect_challenge_sentence),
    ActionType("declare_defenders", M("Declare defenders"), DefendersData,
               legal.declare_defenders_steps, (), apply.apply_declare_defenders,
               public, words.declare_defenders_sentence),
    ActionType("take_challenge", M("Take the challenge"), EmptyData,
               legal.take_challenge_steps, (), apply.apply_take_challenge,
               public, words.take_challenge_sentence),
    ActionType("resolve_challenge", M("Resolve the challenge"), EmptyData,
               legal.resolve_challenge_steps, (), apply.apply_resolve_challenge,
               public, words.resolve_challenge_sentence),
    ActionType("choose_claim_targets", M("Name further claim targets"), ClaimTargetsData,
               legal.choose_claim_targets_steps, (), apply.apply_choose_claim_targets,
               public, words.choose_claim_targets_sentence),
    ActionType("apply_claim", M("Apply the claim"), ClaimData,
               legal.apply_claim_steps, ("discards",), apply.apply_apply_claim,
               public, words.apply_claim_sentence),
    ActionType("apply_deadly", M("Apply deadly"), ClaimData,
               legal.apply_deadly_steps, (), apply.apply_apply_deadly,
               public, words.apply_deadly_sentence),
    ActionType("end_challenges", M("End challenges"), EmptyData,
               legal.end_challenges_steps, (), apply.apply_end_challenges,
               public, words.end_challenges_sentence),
    ActionType("resolve_dominance", M("Resolve dominance"), EmptyData,
               legal.resolve_dominance_steps, (), apply.apply_resolve_dominance,
               public, words.resolve_dominance_sentence),
    ActionType("end_round", M("End the round"), EmptyData,
               legal.end_round_steps, (), apply.apply_end_round,
               public, words.end_round_sentence),
    ActionType("use_ability", M("Use a card's ability"), UseAbilityData,
               legal.use_ability_steps, ("drawn", "milled", "random", "looked"),
               apply.apply_use_ability,
               views.redact_use_ability, words.use_ability_sentence),
    ActionType("pass_window", M("Pass (answer nothing)"), EmptyData,
               legal.pass_window_steps, (), apply.apply_pass_window,
               public, words.pass_window_sentence),
    ActionType("effect", M("Record a card effect"), EffectData,
               legal.effect_steps, (), apply.apply_effect,
               views.redact_effect, words.effect_sentence),
    ActionType("choose_winner", M("Choose the winner"), WinnerData,
               legal.choose_winner_steps, (), apply.apply_choose_winner,
               public, words.choose_winner_sentence),
    ActionType("concede", M("Concede"), EmptyData,
               legal.concede_steps, (), apply.apply_concede,
               public, words.concede_sentence),
)
