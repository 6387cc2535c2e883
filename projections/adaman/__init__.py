"""Adaman, a Decktet patience for one player (P. D. Magnus).

Spec: docs/games/adaman.md (data: data/adaman.json). One seat, seat 0.
Actions: `setup` (actor "table", chance: `drawn`), `control` (seat 0, chance: `drawn`),
`abandon` (seat 0; designed, spec §5). This class only wires the modules of the package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import Action, Actor, Applier, Dealer, GameRules, Viewer, replace
from . import chance, legal, scoring, views, words
from .actions import ACTION_SCHEMAS, CHANCE_FIELDS
from .apply import APPLY
from .edition import Card, Components, edition_problems, load_components
from .state import State, initial_state

__all__ = ["Adaman"]


class Adaman(GameRules[State]):
    slug: ClassVar[str] = "adaman"
    title: ClassVar[str] = "Adaman"
    player_counts: ClassVar[tuple[int, ...]] = (1,)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = CHANCE_FIELDS
    appliers: ClassVar[Mapping[str, Applier]] = APPLY

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        self._loaded = load_components(edition)
        # a reducer version that rules the score constant otherwise overrides the property
        self._components = replace(self._loaded, personality_rank_sum=self.personality_rank_sum)

    # -- the edition ----------------------------------------------------------------------
    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content)

    def components(self) -> Components:
        return self._components

    @property
    def cards(self) -> Mapping[str, Card]:
        return self._components.cards

    @property
    def personalities(self) -> frozenset[str]:
        return self._components.personalities

    @cached_property
    def personality_rank_sum(self) -> int:
        """What controlling every personality scores (spec §2.4: computed from the cards)."""
        return self._loaded.personality_rank_sum

    # -- the protocol ---------------------------------------------------------------------
    def over_words(self, state: State) -> str:
        return words.game_over(state, self.labels())

    def initial_state(self, created: Mapping[str, Any]) -> State:
        return initial_state(created, self._components)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        return legal.to_act(state, self._components)

    def legal_actions(self, state: State, seat: Actor | None = None) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat, self._components)

    def auto_action(self, state: State) -> dict[str, Any] | None:
        return legal.auto_action(state, self._components)

    def result(self, state: State) -> dict[str, Any] | None:
        return scoring.result(state, self._components)

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        return views.view(state, seat, self._components)

    def redact(self, action: Action, seat: Viewer, state_before: State
               ) -> dict[str, Any] | None:
        return views.redact(action, seat, state_before, self._components)

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        return chance.fill_chance(state, action, dealer, self._components)

    def strip_chance(self, action: Action) -> dict[str, Any]:
        return chance.strip_chance(action, self._components)

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        return chance.chance_slots(state, action, self._components)

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        return words.describe(action, names, self._components)

    def labels(self) -> dict[str, str]:
        """Adaman's words for statuses and end reasons, then the edition's printed names
        (and its own `labels`), which win."""
        return {**words.labels(self._components), **super().labels()}
