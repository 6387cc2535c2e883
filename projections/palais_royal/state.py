"""Palais Royal state: the players, the turn flags and the game state (spec §12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..rules import Bag, Seat
from .edition import CardId, Components, NobleId, TileId

Phase = Literal["awaiting_setup", "initial_placement", "play", "over"]


@dataclass(frozen=True, slots=True)
class PlayerState:
    gold: int
    supply: int  # personal supply ("play area")
    general: int  # this colour's general supply, not yet the player's (spec §2.2)
    court: tuple[int, ...]  # own servants per court tile, in the edition's tile order
    nobles: tuple[NobleId, ...] = ()
    hand: Bag = field(default_factory=Bag)
    played: tuple[CardId, ...] = ()  # noble privilege cards laid face up


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn-scoped flags (spec §4.3), reset at each end_turn."""

    open_step: int = 1
    cardinal_active: bool = False
    gate_unlimited: bool = False
    gate_bonus: int = 0
    move_bonus: int = 0
    bonus_blue: int = 0
    bonus_purple: int = 0
    pending: tuple[CardId, ...] = ()  # drawn at the Back Door, not yet kept or discarded


@dataclass(frozen=True, slots=True)
class State:
    phase: Phase
    player_count: int
    players: tuple[PlayerState, ...] = ()
    court_layout: tuple[TileId, ...] = ()
    garden: tuple[NobleId | None, ...] = ()  # per garden space, edition order
    garden_servants: tuple[Seat | None, ...] = ()
    set_aside: tuple[NobleId, ...] = ()
    deck: Bag = field(default_factory=Bag)
    discard: Bag = field(default_factory=Bag)
    start_player: int = 0
    active: int = 0
    round: int = 0
    final_round: bool = False
    turn: Turn = field(default_factory=Turn)
    placements_done: int = 0  # initial_placement events so far
    turns_played: int = 0
    # the players' names, for the sentences a person reads; never in a view (the view
    # feeds the stored state digests)
    names: tuple[str, ...] = ()


def initial_state(created: Mapping[str, Any], components: Components) -> State:
    """Before the setup event: only the players are known (their names only for the
    sentences a person reads); the setup deals everything else (spec §3)."""
    names = tuple(str(n) for n in created["players"])
    return State(phase="awaiting_setup", player_count=len(names), names=names)


def placing_seat(state: State) -> Seat:
    """Who places next at setup: clockwise from the start player (spec §3 step 7)."""
    return (state.start_player + state.placements_done) % state.player_count


def nobles_left(state: State) -> int:
    """Nobles still in the garden (the end check of spec §6 counts them)."""
    return sum(1 for n in state.garden if n is not None)
