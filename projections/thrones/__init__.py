"""A Game of Thrones: The Card Game, first edition (Core Set, 2008), 2-4 players (slug
`thrones`).

Spec: docs/games/thrones.md (data: data/thrones.json). Card abilities are not coded:
players record them as generic `effect` events (§9); the reducer enforces the structural
rules (§5-§8, §10) and checks each effect's basic validity.

Actions: start_game, mulligan, setup_cards, setup_draw, choose_plot, break_initiative_tie,
choose_first_player, choose_title, draw_phase, marshal_card, end_marshalling,
declare_challenge, assign_stealth, redirect_challenge, declare_defenders, take_challenge,
resolve_challenge, choose_claim_targets, apply_claim, apply_deadly, end_challenges,
resolve_dominance, end_round, effect, choose_winner, concede.

This class wires the modules: state.py (the state), actions.py (the data of each action),
apply/ (the reducer, one apply function per action), legal.py (who acts, what they may
do), chance.py (dealing and tapping chance), scoring.py (the result), views.py (what each
viewer sees), words.py (what a person reads), edition.py (the typed edition).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import Action, Actor, Applier, Dealer, GameRules, Viewer
from . import chance, legal, scoring, views, words
from .actions import ACTION_SCHEMAS, CHANCE_FIELDS
from .apply import APPLY
from .edition import Components, components_of, edition_problems
from .state import DEFAULT_OPTIONS, State, initial_state


class Thrones(GameRules[State]):
    slug: ClassVar[str] = "thrones"
    title: ClassVar[str] = "A Game of Thrones: The Card Game (first edition)"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = CHANCE_FIELDS
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    never_undoable: ClassVar[frozenset[str]] = frozenset({"choose_plot"})
    appliers: ClassVar[Mapping[str, Applier]] = APPLY

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        self._components = components_of(edition)

    def components(self) -> Components:
        return self._components

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content)

    def labels(self) -> dict[str, str]:
        return words.labels(self._components, super().labels())

    def initial_state(self, created: Mapping[str, Any]) -> State:
        return initial_state(created, self._components)

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        return views.view(state, seat, self._components)

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

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        return views.redact(action, seat, state_before, self._components)

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        return words.describe(action, names, self._components)

    def is_undoable_in_digital(self, action: Action) -> bool:
        return not chance.reveals_cards(action) and super().is_undoable_in_digital(action)


__all__ = ["Thrones"]
