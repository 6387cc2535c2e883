"""In the Shadow of the Emperor (Ralf Burkert, Hans im Glück 2004), for 3, 4 and 5 players.

Spec: docs/games/in_the_shadow_of_the_emperor.md (data: data/in_the_shadow_of_the_emperor.json;
seed: seeds/003_4990f66342a4f8fd.txt). Rulings: docs/rulings/in_the_shadow_of_the_emperor.md.

Actions (spec §6): `setup` (table; `emperor` is the only chance-like field, §11),
`place_start_empire_city`, `place_start_elector`, `place_start_aristocrat`, `place_start_knight`,
`fill_throne`, `place_son`, `propose_marriage`, `answer_proposal`, `send_to_convent`,
`buy_card`, `use_privilege`, `knight_action`, `pass`, `break_tie`, `appoint_elector`,
`place_former_elector`, `choose_church_influence_target`, `choose_excommunication_target`,
`cast_vote` (sealed), `reveal_votes` (table), `seat_emperor`, `place_former_emperor`,
`emperor_city_action`.

This class only wires the modules: the state (state.py), the action schemas (actions.py),
one rule per action and the round's procedure (apply.py), the decisions and their options
(legal.py), the Emperor's seat as chance (chance.py), the counts and the result
(scoring.py), the views (views.py), the words (words.py) and the edition (edition.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from marshmallow import Schema

from ..rules import Action, Actor, Applier, Dealer, GameRules, Viewer
from . import apply, chance, legal, scoring, views, words
from .actions import ACTION_SCHEMAS, CHANCE_FIELDS
from .edition import PLAYER_COUNTS, Components, edition_problems, load_components
from .state import Seat, State, initial_state

__all__ = ["InTheShadowOfTheEmperor"]


class InTheShadowOfTheEmperor(GameRules[State]):
    slug: ClassVar[str] = "in_the_shadow_of_the_emperor"
    title: ClassVar[str] = "In the Shadow of the Emperor"
    player_counts: ClassVar[tuple[int, ...]] = PLAYER_COUNTS
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = CHANCE_FIELDS
    default_options: ClassVar[Mapping[str, Any]] = {}
    # spec §8: a ballot is sealed and then revealed; neither can be taken back in digital play
    never_undoable: ClassVar[frozenset[str]] = frozenset({"cast_vote", "reveal_votes"})
    appliers: ClassVar[Mapping[str, Applier]] = apply.APPLY

    def __init__(self, edition: Mapping[str, Any]) -> None:
        super().__init__(edition)
        self._components = load_components(edition, super().labels())

    def components(self) -> Components:
        return self._components

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content, cls.player_counts)

    # -- the Game protocol ----------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        return initial_state(created, self._components)

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        return views.view(state, seat, self._components)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        return legal.to_act(state, self._components)

    def legal_actions(self, state: State, seat: Actor | None = None) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat, self._components)

    def result(self, state: State) -> dict[str, Any] | None:
        return scoring.result(state, self._components)

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        return chance.fill_chance(state, action, dealer, self._components)

    def strip_chance(self, action: Action) -> dict[str, Any]:
        return chance.strip_chance(action, self._components)

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        return chance.chance_slots(state, action, self._components)

    def auto_action(self, state: State) -> dict[str, Any] | None:
        return legal.auto_action(state, self._components)

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        return views.redact(action, seat, state_before, self._components)

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        return words.describe(action, names, self._components)

    def labels(self) -> dict[str, str]:
        """The edition's names (electorates, cards), an `elector:<id>` label for each elector
        space, and `GAME_LABELS` for what has no printed name; an edition's own `labels`
        mapping still wins."""
        return words.labels(self._components)

    # -- what tests and tools ask of a position ---------------------------------
    def settle(self, state: State) -> State:
        """Run the automatic procedure up to the next real decision (a built position)."""
        return apply.settle(state, self._components)

    def income(self, state: State, seat: Seat) -> int:
        return scoring.income(state, seat, self._components)

    def influence(self, state: State, eid: str) -> list[int]:
        return scoring.influence(state, eid, self._components)

    def votes(self, state: State) -> list[int]:
        return scoring.votes(state, self._components)

    def child(self, state: State, seat: Seat) -> str | None:
        return scoring.child(state, seat, self._components)

    @property
    def eids(self) -> tuple[str, ...]:
        return self._components.eids

    @property
    def eindex(self) -> Mapping[str, int]:
        return self._components.eindex

    @property
    def einfo(self) -> dict[str, Mapping[str, Any]]:
        """The edition's electorates by id, as printed."""
        return {e["id"]: e for e in self.edition["electorates"]}

    @property
    def cards(self) -> dict[str, Mapping[str, Any]]:
        """The edition's action cards by id, as printed."""
        return {c["id"]: c for c in self.edition["action_cards"]}
