"""The reducer of A Game of Thrones: one apply function per action type
(`apply_<type>`, which actions.ACTIONS declares).

Spec: docs/games/thrones.md. Card abilities are not coded: players record them as generic
`effect` events (§9); the reducer enforces the structural rules (§5-§8, §10) and checks each
effect's basic validity. Every apply function checks that no winner is waiting to be chosen,
refuses malformed data by name and checks victory after the event (§7.7; see victory.py).

The parts: setup.py (§5, §6.1-§6.4), rounds.py (§7), challenges.py and claims.py (§8),
effects.py with card_ops.py and lasting_ops.py (§9), concede.py (§6.17), victory.py
(§7.7); values.py holds a card's current values, zones.py power and the piles, guards.py
and fields.py what every check shares.
"""

from __future__ import annotations

from .challenges import (
    apply_assign_stealth,
    apply_declare_challenge,
    apply_declare_defenders,
    apply_end_challenges,
    apply_redirect_challenge,
    apply_resolve_challenge,
    apply_take_challenge,
)
from .claims import apply_apply_claim, apply_apply_deadly, apply_choose_claim_targets
from .revealed import (
    apply_choose_first_player,
    apply_concede,
    apply_effect,
    apply_use_ability,
)
from .rounds import (
    apply_break_initiative_tie,
    apply_choose_plot,
    apply_choose_title,
    apply_draw_phase,
    apply_end_marshalling,
    apply_end_round,
    apply_marshal_card,
    apply_resolve_dominance,
)
from .setup import apply_mulligan, apply_setup_cards, apply_setup_draw, apply_start_game
from .victory import apply_choose_winner

__all__ = [
    "apply_apply_claim",
    "apply_apply_deadly",
    "apply_assign_stealth",
    "apply_break_initiative_tie",
    "apply_choose_claim_targets",
    "apply_choose_first_player",
    "apply_choose_plot",
    "apply_choose_title",
    "apply_choose_winner",
    "apply_concede",
    "apply_declare_challenge",
    "apply_declare_defenders",
    "apply_draw_phase",
    "apply_effect",
    "apply_end_challenges",
    "apply_end_marshalling",
    "apply_end_round",
    "apply_marshal_card",
    "apply_mulligan",
    "apply_redirect_challenge",
    "apply_resolve_challenge",
    "apply_resolve_dominance",
    "apply_setup_cards",
    "apply_setup_draw",
    "apply_start_game",
    "apply_take_challenge",
    "apply_use_ability",
]
