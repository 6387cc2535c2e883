"""The reducer of A Game of Thrones: one apply function per action type
(`apply_<type>`, which actions.ACTIONS declares).

Spec: docs/games/thrones.md. Card abilities are not coded: players record them as generic
`effect` events (§9); the reducer enforces the structural rules (§5-§8, §10) and checks each
effect's basic validity. Every apply function checks that no winner is waiting to be chosen,
refuses malformed data by name and checks victory after the event (§7.7; see victory.py).

Every apply function goes through windows.py `windowed` (the window an action opens,
rulings 35-38; triggers.py, saves.py). The parts: setup.py (§5, §6.1-§6.4), rounds.py
(§7), challenges.py and claims.py (§8), effects.py with card_ops.py and lasting_ops.py
(§9), abilities.py (use_ability), concede.py (§6.17), victory.py (§7.7); values.py holds
a card's current values, zones.py power and the piles, guards.py and fields.py what every
check shares.
"""

from __future__ import annotations

from . import challenges, claims, revealed, rounds, setup, standing, victory
from .windows import apply_pass_window as _pass_window
from .windows import windowed

#: every apply function goes through `windowed` (apply/windows.py): the one place the
#: triggers an action caused become the window (rulings 35-38)
apply_apply_claim = windowed(claims.apply_apply_claim)
apply_apply_deadly = windowed(claims.apply_apply_deadly)
apply_assign_stealth = windowed(challenges.apply_assign_stealth)
apply_break_initiative_tie = windowed(rounds.apply_break_initiative_tie)
apply_choose_claim_targets = windowed(claims.apply_choose_claim_targets)
apply_choose_first_player = windowed(revealed.apply_choose_first_player)
apply_choose_plot = windowed(rounds.apply_choose_plot)
apply_choose_title = windowed(rounds.apply_choose_title)
apply_choose_winner = windowed(victory.apply_choose_winner)
apply_concede = windowed(revealed.apply_concede)
apply_declare_challenge = windowed(challenges.apply_declare_challenge)
apply_declare_defenders = windowed(challenges.apply_declare_defenders)
apply_draw_phase = windowed(rounds.apply_draw_phase)
apply_effect = windowed(revealed.apply_effect)
apply_end_challenges = windowed(challenges.apply_end_challenges)
apply_end_marshalling = windowed(rounds.apply_end_marshalling)
apply_end_round = windowed(standing.apply_end_round)
apply_marshal_card = windowed(rounds.apply_marshal_card)
apply_mulligan = windowed(setup.apply_mulligan)
apply_redirect_challenge = windowed(challenges.apply_redirect_challenge)
apply_resolve_challenge = windowed(challenges.apply_resolve_challenge)
apply_resolve_dominance = windowed(rounds.apply_resolve_dominance)
apply_setup_cards = windowed(setup.apply_setup_cards)
apply_setup_draw = windowed(setup.apply_setup_draw)
apply_start_game = windowed(setup.apply_start_game)
apply_take_challenge = windowed(challenges.apply_take_challenge)
apply_use_ability = windowed(revealed.apply_use_ability)
apply_pass_window = windowed(_pass_window)

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
    "apply_pass_window",
    "apply_redirect_challenge",
    "apply_resolve_challenge",
    "apply_resolve_dominance",
    "apply_setup_cards",
    "apply_setup_draw",
    "apply_start_game",
    "apply_take_challenge",
    "apply_use_ability",
]
