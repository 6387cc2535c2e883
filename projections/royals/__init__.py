"""Royals (Peter Hawes; Abacusspiele 2014, Arcane Wonders 2016), for 2 to 5 players.

Spec: docs/games/royals.md (data: data/royals.json; rulings: docs/rulings/royals.md).
The rules object binds one edition and delegates to the package's modules: `state` (the
state), `actions` (action data), `apply` (one function per action), `legal`, `chance`,
`scoring`, `views`, `words`, `edition` (the typed components).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import Action, Actor, Applier, Dealer, GameRules, Viewer
from . import chance, legal, scoring, views, words
from .actions import ACTION_SCHEMAS, CHANCE_FIELDS
from .apply import APPLY
from .edition import SLUG, Components, edition_problems
from .state import DEFAULT_OPTIONS, PLAYER_COUNTS, State, initial_state

__all__ = ["Royals"]


class Royals(GameRules[State]):
    slug: ClassVar[str] = SLUG
    title: ClassVar[str] = "Royals"
    player_counts: ClassVar[tuple[int, ...]] = PLAYER_COUNTS
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = CHANCE_FIELDS
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    appliers: ClassVar[Mapping[str, Applier]] = APPLY

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        self._components = Components.load(edition)

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content)

    def components(self) -> Components:
        return self._components

    @property
    def board(self) -> Components:
        """The components under the name the tests and the boards have always used."""
        return self._components

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

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        return chance.fill_chance(state, action, dealer, self._components)

    def strip_chance(self, action: Action) -> dict[str, Any]:
        return chance.strip_chance(action, self._components)

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        return chance.chance_slots(state, action, self._components)

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        return views.view(state, seat, self._components)

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        return views.redact(action, seat, state_before, self._components)

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        return words.describe(action, names, self._components)

    def labels(self) -> dict[str, str]:
        """The edition's own `labels` (read by the base) win over the game's."""
        return {**words.labels(self._components), **super().labels()}
