"""Palais Royal (Xavier Georges, Hans im Glück 2008; English edition Royal Palace).

Spec: docs/games/palais_royal.md (data: data/palais_royal.json; seed text
seeds/004_3341a1aacc65eba1.txt). Players: 2-4, seats 0..n-1 clockwise.
Actions: `setup` (actor "table"; chance: court_layout, garden, set_aside, start_player),
`initial_placement`, `play_privilege_card`, `place_at_gate`, `move_servants`,
`court_placements`, `recruit_noble`, `draw_privilege_cards` (chance: cards),
`keep_privilege_cards`, `end_turn`.

This class only wires the modules beside it to the engine: the state (state.py), the
action data (actions.py), the rules of each action (apply.py), who may do what
(legal.py), chance (chance.py), scoring (scoring.py), the views (views.py), the words
(words.py) and the edition (edition.py). Rulings: docs/rulings/palais_royal.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import Action, Actor, Applier, Dealer, GameRules, Seat, Viewer
from . import apply, chance, legal, scoring, views, words
from .actions import ACTION_SCHEMAS, CHANCE_FIELDS
from .edition import (
    CardId,
    CardType,
    Components,
    Noble,
    NobleId,
    SpaceId,
    TileId,
    edition_problems,
    load_components,
)
from .state import State, initial_state, nobles_left

__all__ = ["PalaisRoyal"]


class PalaisRoyal(GameRules[State]):
    slug: ClassVar[str] = "palais_royal"
    title: ClassVar[str] = "Palais Royal"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = CHANCE_FIELDS
    default_options: ClassVar[Mapping[str, Any]] = {}
    # keeping turns the unkept cards face up on the discard pile (spec §5.9): undoing it
    # would hide again what every seat has seen
    never_undoable: ClassVar[frozenset[str]] = frozenset({"keep_privilege_cards"})
    appliers: ClassVar[Mapping[str, Applier]] = apply.APPLY

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        self._components = load_components(edition)

    def components(self) -> Components:
        return self._components

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content)

    # -- the Game protocol --------------------------------------------------
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

    def labels(self) -> dict[str, str]:
        return words.labels(self._components)

    # -- the edition's pieces and the rules' numbers, as tests and tools ask them ----
    @property
    def tile_ids(self) -> tuple[TileId, ...]:
        return self._components.tile_ids

    @property
    def tile_index(self) -> Mapping[TileId, int]:
        return self._components.tile_index

    @property
    def space_ids(self) -> tuple[SpaceId, ...]:
        return self._components.space_ids

    @property
    def space_index(self) -> Mapping[SpaceId, int]:
        return self._components.space_index

    @property
    def nobles(self) -> Mapping[NobleId, Noble]:
        return self._components.nobles

    @property
    def cards(self) -> Mapping[CardId, CardType]:
        return self._components.cards

    @property
    def per_colour(self) -> int:
        return self._components.per_colour

    def has_advantage(self, state: State, seat: Seat, tile: TileId) -> bool:
        return apply.has_advantage(state, seat, tile, self._components)

    def gate_allowance(self, state: State, seat: Seat) -> int:
        return apply.gate_allowance(state, seat, self._components)

    def move_allowance(self, state: State, seat: Seat) -> int:
        return apply.move_allowance(state, seat, self._components)

    def mint_income(self, state: State, seat: Seat) -> int:
        return apply.mint_income(state, seat, self._components)

    def draw_allowance(self, state: State, seat: Seat) -> int:
        return apply.draw_allowance(state, seat, self._components)

    def recruit_price(self, state: State, space: SpaceId, noble: Noble) -> int:
        return apply.recruit_price(state, space, noble, self._components)

    def nobles_left(self, state: State) -> int:
        return nobles_left(state)

    def garden_edge_points(self, state: State) -> list[dict[str, int]]:
        return scoring.garden_edge_points(state, self._components)

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return scoring.score_breakdown(state, self._components)
