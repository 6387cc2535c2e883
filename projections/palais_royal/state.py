"""Palais Royal state: component records, the turn flags and the game state (spec §12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .rules import Bag

Seat = int
TileId = str
SpaceId = str
NobleId = str
CardId = str

DONE = 6  # open_step after step 5 (spec §4.1: open_step ∈ {1..5, done})
SUPPLY = "supply"
# tile roles the reducer needs by name (spec §2.1); their numbers come from the edition
GATE, PARADE, STAIRWAY, MINT = "gate", "parade_ground", "stairway", "mint"
KINGS, POMPADOUR, OFFICE, BACK_DOOR, CARDINAL = (
    "kings_chamber", "pompadour", "office", "back_door", "cardinal")


@dataclass(frozen=True, slots=True)
class Noble:
    id: NobleId
    gold: int
    purple: int
    blue: int
    points: int
    privilege: str | None


@dataclass(frozen=True, slots=True)
class CardType:
    id: CardId
    count: int
    cost: int
    window: frozenset[int]
    effect: Mapping[str, Any]
    to_played_area: bool


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
    phase: str  # awaiting_setup | initial_placement | play | over
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
