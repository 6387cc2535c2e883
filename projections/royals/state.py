"""Royals: the state of a game, and the state before its setup event (spec §3).

Spec: docs/games/royals.md. Everything here is data; the rules live in `apply.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..messages import M, Seq
from ..rules import Bag, require
from . import words
from .edition import Components, Marker

Seat = int

#: phases of a game: before setup, a turn's draw step, its play step, game over
AWAITING_SETUP, DRAW, PLAY, OVER = "awaiting_setup", "draw", "play", "over"
PLAYER_COUNTS = (2, 3, 4, 5)
#: the options of game_created, with their defaults
DEFAULT_OPTIONS: Mapping[str, Mapping[str, bool]] = {
    "variants": {"period3_finish_round": False, "edition_arcane_wonders_deck": False},
}


@dataclass(frozen=True, slots=True)
class State:
    players: int
    mode: str
    finish_round: bool  # variant period3_finish_round (spec §9 ruling 5)
    deck: Bag
    removed: Bag
    intrigue_deck: Bag
    hands: tuple[Bag, ...]
    intrigues: tuple[Bag, ...]
    board: tuple[Seat | None, ...]  # per portrait, edition order
    cathedrals: tuple[tuple[int, ...], ...]  # per city, cubes per seat
    tiles: tuple[tuple[int, ...], ...]  # per title (rank order), cubes per seat
    holdings: tuple[tuple[Marker, ...], ...]  # per seat
    phase: str = AWAITING_SETUP
    colours: tuple[str, ...] = ()
    supply: tuple[int, ...] = ()
    start_player: Seat = 0
    current: Seat = 0
    turn_no: int = 0  # turns begun before this one; round 1 is turn_no < players
    period: int = 1
    period_ended: bool = False  # the country pile ran out during this turn (spec §6.4)
    final_round: bool = False  # variant: period 3 is over, the round is being finished
    display: Bag = field(default_factory=Bag)
    discard: Bag = field(default_factory=Bag)
    intrigue_discard: Bag = field(default_factory=Bag)
    out_of_game: tuple[Marker, ...] = ()  # markers nobody won (spec §6.5, §6.6)
    end_reason: str | None = None
    #: the players' names in seat order, for the sentences of refusals; never in a view, so
    #: the stored state digests (of the view) do not depend on them
    names: tuple[str, ...] = ()


def initial_state(created: Mapping[str, Any], components: Components) -> State:
    """Before the setup event: the prepared decks (spec §3 steps 3-4), nothing dealt."""
    players = len(created.get("players") or ())
    require(players in PLAYER_COUNTS, "wrong_player_count",
            lambda: f"Royals is played by 2 to 5 players, not {players}", players=players)
    variants = _variants(created.get("options") or {})
    deck, removed = components.prepared_deck(players)
    seats = range(players)
    return State(
        players=players, mode=str(created.get("mode", "table")),
        finish_round=variants["period3_finish_round"], deck=Bag(deck), removed=Bag(removed),
        intrigue_deck=Bag(components.intrigue_cards), hands=tuple(Bag() for _ in seats),
        intrigues=tuple(Bag() for _ in seats), board=(None,) * len(components.portraits),
        cathedrals=((0,) * players,) * len(components.cities),
        tiles=((0,) * players,) * len(components.titles),
        holdings=((),) * players, names=tuple(str(n) for n in created["players"]))


def _variants(options: Mapping[str, Any]) -> dict[str, bool]:
    """The variants a game is created with; ruling R1 refuses the Arcane Wonders deck."""
    defaults = DEFAULT_OPTIONS["variants"]
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    require(not unknown, "unknown_option", lambda: M(
        "Royals has no option {options}; its only option is the choice of variants",
        options=Seq(words.shown(o) for o in unknown)), options=unknown)
    variants = {**defaults, **(options.get("variants") or {})}
    extra = sorted(set(variants) - set(defaults))
    known = Seq(M("“{variant}”", variant=words.VOCABULARY[v]) for v in defaults)
    require(not extra, "unknown_option", lambda: M("Royals has no variant {variants}; its variants "
                                           "are {known}",
                                           variants=Seq(words.shown(v) for v in extra),
                                           known=known), options=extra)
    # ruling R1: the Arcane Wonders deck is an edition (other card counts), not an option
    require(not variants["edition_arcane_wonders_deck"], "unsupported_option",
            lambda: M("The Arcane Wonders deck (102 cards) has no known removal table; load it "
                      "as an edition with its own card counts instead"))
    return {k: bool(v) for k, v in variants.items()}
