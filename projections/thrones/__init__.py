"""A Game of Thrones: The Card Game, first edition (Core Set, 2008), 2-4 players (slug
`thrones`).

Spec: docs/games/thrones.md (data: data/thrones.json). Every card's abilities are data
beside the card (docs/games/thrones-abilities.md); a seat uses one with `use_ability`, and a
free-form `effect` is only the table recorder's ruling (§9, ruling 29).

Actions: start_game, mulligan, setup_cards, setup_draw, choose_plot, break_initiative_tie,
choose_first_player, choose_title, draw_phase, marshal_card, end_marshalling,
declare_challenge, assign_stealth, redirect_challenge, declare_defenders, take_challenge,
resolve_challenge, choose_claim_targets, apply_claim, apply_deadly, end_challenges,
resolve_dominance, end_round, use_ability, effect, choose_winner, concede.

Each action is one record in actions.py (its data, choices, chance fields, rule,
redaction and sentence); each op of an effect one record in apply/effects.py. This class
names the game and binds its parts to an edition: state.py (the state), apply/ (the
reducer), legal.py (who acts, what they may do, the choices), chance.py (dealing and
tapping chance), scoring.py (the result), views.py (what each viewer sees), words.py
(what a person reads), edition.py (the typed edition).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..choices import ActionType
from ..messages import Name
from ..rules import Action, GameRules, Parts, replace
from . import chance, legal, scoring, views, words

# the named functions of the cards register themselves by card id (abilities/registry.py);
# imported here, not by the rules that call them, so no module imports itself back
from .abilities import baratheon, lannister, lasting, neutral, stark, targaryen  # noqa: F401
from .actions import ACTIONS
from .apply.challenges import challenge_outcome
from .apply.effects import OP_TYPES
from .apply.rounds import dominance_outcome
from .apply.turns import to_act
from .edition import Components, components_of, edition_problems
from .state import DEFAULT_OPTIONS, OPTION_LABELS, State, initial_state


def load_components(edition: Mapping[str, Any]) -> Components:
    """The typed edition with the effect ops' records bound to it (their clauses are the
    words of an effect's sentence, edition.Components)."""
    return replace(components_of(edition), ops=OP_TYPES)


PARTS: Parts[State, Components] = Parts(
    load=load_components, initial_state=initial_state, to_act=to_act,
    legal_actions=legal.legal_actions, result=scoring.result, view=views.view,
    edition_problems=edition_problems, auto_action=legal.auto_action,
    fill_chance=chance.fill_chance, chance_slots=chance.chance_slots,
)


class Thrones(GameRules[State]):
    slug: ClassVar[str] = "thrones"
    #: the game's name, in Chinese as the Chinese edition calls it (权力的游戏, 2010)
    title: ClassVar[str] = Name("A Game of Thrones: The Card Game (first edition)",
                                {"zh_Hans": "权力的游戏卡牌游戏（第一版）"})  # noqa: RUF001
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    option_labels: ClassVar[Mapping[str, Any]] = OPTION_LABELS
    option_values: ClassVar[Mapping[str, Mapping[str, Any]]] = words.OPTION_VALUES
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ACTIONS
    parts: ClassVar[Parts[Any, Any] | None] = PARTS

    def components(self) -> Components:
        bound: Components = self._bound
        return bound

    outcome_types: ClassVar[frozenset[str]] = frozenset({"resolve_challenge",
                                                          "resolve_dominance"})

    def outcome(self, before: State, action: Action, names: Sequence[str] = ()) -> str | None:
        """Who won the challenge resolved (§8.6) or dominance (§7.5), decided by the
        reducers' own functions on the state before the move."""
        ed = self.components()
        if action.type == "resolve_challenge" and before.challenge is not None:
            winner, att, dfn = challenge_outcome(before, before.challenge, ed)
            return words.challenge_outcome_words(winner, before.challenge.attacker, (att, dfn),
                                                 names)
        if action.type == "resolve_dominance":
            return words.dominance_outcome_words(*dominance_outcome(before, ed), names)
        return None

    def labels(self) -> dict[str, str]:
        """The game's vocabulary under the printed names and the edition's own labels,
        then each seat's copy of a card under its card's label (words.labels): the copies
        follow whatever the edition calls the card, so they are merged after the base."""
        return words.labels(self.components(), super().labels())

    def names_unseen(self, action: Action) -> bool:
        """Besides the chance fields: an effect that takes named cards from another seat's
        hand or deck (engine ruling 16); one's own hand and deck are in one's own view."""
        return super().names_unseen(action) or chance.names_others_hidden(action)

    def ruling(self, action: Action) -> str | None:
        """Every free-form `effect` is recorded outside card text (§9, ruling 29): at a
        table it is the recorder's ruling with its reason; one a seat recorded before
        issue #30 is one too, with no reason ("")."""
        if action.type != "effect":
            return None
        reason = action.data.get("reason")
        return reason.strip() if isinstance(reason, str) else ""

    def is_undoable_in_digital(self, action: Action) -> bool:
        return not chance.reveals_cards(action) and super().is_undoable_in_digital(action)


__all__ = ["Thrones"]
