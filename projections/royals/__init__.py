"""Royals (Peter Hawes; Abacusspiele 2014, Arcane Wonders 2016), for 2 to 5 players.

Spec: docs/games/royals.md (data: data/royals.json; rulings: docs/rulings/royals.md).
Actions (actions.py, one record each): `setup` (actor "table"), `draw_cards`,
`claim_noble`, `usurp_noble`, `end_turn`. The package's modules: `state` (the state),
`actions`, `apply` (one function per action), `legal` (who acts, the choices),
`chance`, `scoring`, `views`, `words`, `edition` (the typed components). This class only
names the game and binds its parts to an edition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..choices import ActionType
from ..rules import Action, GameRules, Parts
from . import chance, legal, scoring, views, words
from .actions import ACTIONS
from .edition import SLUG, Components, edition_problems
from .state import DEFAULT_OPTIONS, PLAYER_COUNTS, State, initial_state

__all__ = ["Royals"]

PARTS: Parts[State, Components] = Parts(
    load=Components.load, initial_state=initial_state, to_act=legal.to_act,
    legal_actions=legal.legal_actions, result=scoring.result, view=views.view,
    edition_problems=edition_problems, auto_action=legal.auto_action,
    fill_chance=chance.fill_chance, chance_slots=chance.chance_slots, labels=words.labels,
)


class Royals(GameRules[State]):
    slug: ClassVar[str] = SLUG
    title: ClassVar[str] = "Royals"
    player_counts: ClassVar[tuple[int, ...]] = PLAYER_COUNTS
    rules_version: ClassVar[str] = "1"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    option_labels: ClassVar[Mapping[str, Any]] = words.OPTION_LABELS
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ACTIONS
    parts: ClassVar[Parts[Any, Any] | None] = PARTS

    def components(self) -> Components:
        bound: Components = self._bound
        return bound

    @property
    def board(self) -> Components:
        """The components under the name the tests and the boards have always used."""
        return self.components()

    def strip_chance(self, action: Action) -> dict[str, Any]:
        """A draw's chance field also holds the player's choices (kinds, sources, display
        cards): only the cards of the deck and the intrigue pile are dropped."""
        return chance.strip_chance(action, self.components())
