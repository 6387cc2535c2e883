"""Palais Royal (Xavier Georges, Hans im Glück 2008; English edition Royal Palace).

Spec: docs/games/palais_royal.md (data: data/palais_royal.json; seed text
seeds/004_3341a1aacc65eba1.txt). Players: 2-4, seats 0..n-1 clockwise.
Actions: `setup` (actor "table"; chance: court_layout, garden, set_aside, start_player),
`initial_placement`, `play_privilege_card`, `place_at_gate`, `move_servants`,
`court_placements`, `recruit_noble`, `draw_privilege_cards` (chance: cards),
`keep_privilege_cards`, `end_turn`.

Each action is one record in actions.py (its data, choices, chance fields, rule,
redaction and sentence); this class only names the game and binds its parts (the state,
who may act, chance, scoring, views, words, edition) to an edition. Rulings:
docs/rulings/palais_royal.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..choices import ActionType
from ..rules import GameRules, Parts, Seat
from . import apply, chance, legal, scoring, views, words
from .actions import ACTIONS
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

PARTS: Parts[State, Components] = Parts(
    load=load_components, initial_state=initial_state, to_act=legal.to_act,
    legal_actions=legal.legal_actions, result=scoring.result, view=views.view,
    edition_problems=edition_problems, auto_action=legal.auto_action,
    fill_chance=chance.fill_chance, chance_slots=chance.chance_slots, labels=words.labels,
)


class PalaisRoyal(GameRules[State]):
    slug: ClassVar[str] = "palais_royal"
    title: ClassVar[str] = "Palais Royal"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    default_options: ClassVar[Mapping[str, Any]] = {}
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ACTIONS
    parts: ClassVar[Parts[Any, Any] | None] = PARTS
    #: the setup lays the 9 court tiles and the 36 nobles at random (spec §3, §9, §10 item 16): a
    #: tablet may deal them, and the table lays them as its board shows
    dealable_types: ClassVar[frozenset[str]] = frozenset({"setup"})

    def components(self) -> Components:
        bound: Components = self._bound
        return bound

    # -- the edition's pieces and the rules' numbers, as tests and tools ask them ----
    @property
    def tile_ids(self) -> tuple[TileId, ...]:
        return self.components().tile_ids

    @property
    def tile_index(self) -> Mapping[TileId, int]:
        return self.components().tile_index

    @property
    def space_ids(self) -> tuple[SpaceId, ...]:
        return self.components().space_ids

    @property
    def space_index(self) -> Mapping[SpaceId, int]:
        return self.components().space_index

    @property
    def nobles(self) -> Mapping[NobleId, Noble]:
        return self.components().nobles

    @property
    def cards(self) -> Mapping[CardId, CardType]:
        return self.components().cards

    @property
    def per_colour(self) -> int:
        return self.components().per_colour

    def has_advantage(self, state: State, seat: Seat, tile: TileId) -> bool:
        return apply.has_advantage(state, seat, tile, self.components())

    def gate_allowance(self, state: State, seat: Seat) -> int:
        return apply.gate_allowance(state, seat, self.components())

    def move_allowance(self, state: State, seat: Seat) -> int:
        return apply.move_allowance(state, seat, self.components())

    def mint_income(self, state: State, seat: Seat) -> int:
        return apply.mint_income(state, seat, self.components())

    def draw_allowance(self, state: State, seat: Seat) -> int:
        return apply.draw_allowance(state, seat, self.components())

    def recruit_price(self, state: State, space: SpaceId, noble: Noble) -> int:
        return apply.recruit_price(state, space, noble, self.components())

    def nobles_left(self, state: State) -> int:
        return nobles_left(state)

    def garden_edge_points(self, state: State) -> list[dict[str, int]]:
        return scoring.garden_edge_points(state, self.components())

    def score_breakdown(self, state: State) -> list[dict[str, int]]:
        return scoring.score_breakdown(state, self.components())
