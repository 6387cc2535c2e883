"""Adaman, a Decktet patience for one player (P. D. Magnus).

Spec: docs/games/adaman.md (data: data/adaman.json). One seat, seat 0. Actions
(actions.py, one record each): `setup` (actor "table", chance: `drawn`), `control` (seat 0,
chance: `drawn`), `abandon` (seat 0; designed, spec §5). This class only names the game and
binds its parts to an edition.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from ..choices import ActionType
from ..rules import Action, GameRules, Parts, replace
from . import chance, legal, scoring, views, words
from .actions import ACTIONS
from .edition import Card, Components, edition_problems, load_components
from .state import State, initial_state

__all__ = ["Adaman"]

PARTS: Parts[State, Components] = Parts(
    load=load_components, initial_state=initial_state, to_act=legal.to_act,
    legal_actions=legal.legal_actions, result=scoring.result, view=views.view,
    edition_problems=edition_problems, auto_action=legal.auto_action,
    fill_chance=chance.fill_chance, chance_slots=chance.chance_slots, labels=words.labels,
    over_words=words.game_over,
)


class Adaman(GameRules[State]):
    slug: ClassVar[str] = "adaman"
    title: ClassVar[str] = "Adaman"
    player_counts: ClassVar[tuple[int, ...]] = (1,)
    rules_version: ClassVar[str] = "1"
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ACTIONS
    parts: ClassVar[Parts[Any, Any] | None] = PARTS

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        # a reducer version that rules the score constant otherwise overrides the property
        self._bound = replace(self._bound, personality_rank_sum=self.personality_rank_sum)

    def components(self) -> Components:
        bound: Components = self._bound
        return bound

    @property
    def cards(self) -> Mapping[str, Card]:
        return self.components().cards

    @property
    def personalities(self) -> frozenset[str]:
        return self.components().personalities

    def names_unseen(self, action: Action) -> bool:
        """A patience: its one player's view is the whole table, so the deck holds exactly
        what that player has not seen, and a typed draw is checked against nothing hidden
        from them (engine ruling 16)."""
        return False

    @cached_property
    def personality_rank_sum(self) -> int:
        """What controlling every personality scores (spec §2.4: computed from the cards)."""
        return load_components(self.edition).personality_rank_sum
