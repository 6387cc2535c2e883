"""In the Shadow of the Emperor (Ralf Burkert, Hans im Glück 2004), for 3, 4 and 5 players.

Spec: docs/games/in_the_shadow_of_the_emperor.md (data: data/in_the_shadow_of_the_emperor.json;
seed: seeds/003_4990f66342a4f8fd.txt). Rulings: docs/rulings/in_the_shadow_of_the_emperor.md.

Actions (spec §6; actions.py, one record each): `setup` (table; `emperor` is the only
chance-like field, §11), `place_start_empire_city`, `place_start_elector`,
`place_start_aristocrat`, `place_start_knight`, `fill_throne`, `place_son`,
`propose_marriage`, `answer_proposal`, `send_to_convent`, `buy_card`, `use_privilege`,
`knight_action`, `pass`, `break_tie`, `appoint_elector`, `place_former_elector`,
`choose_church_influence_target`, `choose_excommunication_target`, `cast_vote` (sealed),
`reveal_votes` (table), `seat_emperor`, `place_former_emperor`, `emperor_city_action`.

This class only names the game and binds its parts to an edition: the state (state.py),
the action records (actions.py), one rule per action and the round's procedure (apply.py),
the decisions, their options and choices (legal.py), the Emperor's seat as chance
(chance.py), the counts and the result (scoring.py), the views (views.py), the words
(words.py) and the edition (edition.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..choices import ActionType
from ..rules import GameRules, Parts
from . import apply, chance, legal, scoring, views, words
from .actions import ACTIONS
from .edition import PLAYER_COUNTS, Components, edition_problems, load
from .state import Seat, State, initial_state

__all__ = ["InTheShadowOfTheEmperor"]

PARTS: Parts[State, Components] = Parts(
    load=load, initial_state=initial_state, to_act=legal.to_act,
    legal_actions=legal.legal_actions, result=scoring.result, view=views.view,
    edition_problems=edition_problems, auto_action=legal.auto_action,
    fill_chance=chance.fill_chance, chance_slots=chance.chance_slots, labels=words.labels,
)


class InTheShadowOfTheEmperor(GameRules[State]):
    slug: ClassVar[str] = "in_the_shadow_of_the_emperor"
    title: ClassVar[str] = "In the Shadow of the Emperor"
    player_counts: ClassVar[tuple[int, ...]] = PLAYER_COUNTS
    rules_version: ClassVar[str] = "1"
    default_options: ClassVar[Mapping[str, Any]] = {}
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ACTIONS
    parts: ClassVar[Parts[Any, Any] | None] = PARTS
    # spec §8: a ballot is sealed "in every per-player view"; at a table where a seat casts
    # it from its own phone, the recorder (a player too, as a rule) is one of them (ruling 21)
    sealed_types: ClassVar[frozenset[str]] = frozenset({"cast_vote"})

    def components(self) -> Components:
        bound: Components = self._bound
        return bound

    # -- what tests and tools ask of a position ---------------------------------
    def settle(self, state: State) -> State:
        """Run the automatic procedure up to the next real decision (a built position)."""
        return apply.settle(state, self.components())

    def income(self, state: State, seat: Seat) -> int:
        return scoring.income(state, seat, self.components())

    def influence(self, state: State, eid: str) -> list[int]:
        return scoring.influence(state, eid, self.components())

    def votes(self, state: State) -> list[int]:
        return scoring.votes(state, self.components())

    def child(self, state: State, seat: Seat) -> str | None:
        return scoring.child(state, seat, self.components())

    @property
    def eids(self) -> tuple[str, ...]:
        return self.components().eids

    @property
    def eindex(self) -> Mapping[str, int]:
        return self.components().eindex

    @property
    def einfo(self) -> dict[str, Mapping[str, Any]]:
        """The edition's electorates by id, as printed."""
        return {e["id"]: e for e in self.edition["electorates"]}

    @property
    def cards(self) -> dict[str, Mapping[str, Any]]:
        """The edition's action cards by id, as printed."""
        return {c["id"]: c for c in self.edition["action_cards"]}
