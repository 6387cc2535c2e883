"""In the Shadow of the Emperor: the state of a game and its parts, and the state before setup.

Spec: docs/games/in_the_shadow_of_the_emperor.md. Frozen dataclasses: the electorates
(their elector, court, knights and cities), the players (supplies, thalers, cards taken), the
decision the game waits for (`Pending`) and where the round's procedure stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..rules import Bag
from .edition import Components

Seat = int
Tile = tuple[int, str, int]  # (owner, side, age)
EMPIRE = -1  # an empire city on a city space
SINGLE, COUPLE = "single", "couple"
NO_VP = Bag()
VOTE_CHOICES = ("emperor", "rival")  # what a ballot names (spec §8)


class _Sortable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


#: what the sorted tuples of the board hold: tiles, seats (knights, cities), card ids
Piece = TypeVar("Piece", bound=_Sortable)


@dataclass(frozen=True, slots=True)
class Electorate:
    id: str
    elector: Tile | None = None
    tiles: tuple[Tile, ...] = ()  # tiles on the aristocrat spaces (the court), sorted
    knights: tuple[Seat, ...] = ()  # knights on aristocrat spaces
    castles: tuple[Seat, ...] = ()  # knights on castle spaces
    cities: tuple[Seat, ...] = ()  # seats, EMPIRE for an empire city
    used: bool = False  # the privilege was used this round


@dataclass(frozen=True, slots=True)
class Player:
    thalers: int
    vp: int = 0
    tiles: int = 0  # aristocrat tiles in supply
    knights: int = 0
    cities: int = 0
    area: tuple[str, ...] = ()  # play area (cards taken this round), sorted
    passed: bool = False
    chip: int = 0  # thalers when phase IV began (the colour chip; no rules effect, §3.1)
    vp_sources: Bag = NO_VP  # VP by source (spec §9), for the result's breakdown


@dataclass(frozen=True, slots=True)
class Pending:
    kind: str
    actor: Seat
    electorate: str | None = None
    seats: tuple[Seat, ...] = ()  # tied seats / voters
    tile: Tile | None = None  # marriage target
    at: str | None = None  # marriage target's place
    other: Seat | None = None  # the proposer
    side: str | None = None  # setup aristocrat side
    age: int | None = None  # setup aristocrat age


@dataclass(frozen=True, slots=True)
class State:
    status: str  # awaiting_setup | playing | over
    n: int
    mode: str
    electorates: tuple[Electorate, ...]
    players: tuple[Player, ...]
    display: Bag
    empire_reserve: int
    round: int = 1
    phase: int = 0  # 0 = setup, then I..VIII
    cursor: int = 0  # setup step / phase III player offset / phase V electorate index
    step: str = ""  # sub-step inside phases VI and VII
    emperor: Seat = 0
    throne: Tile | None = None
    turn: Seat = 0
    rival: Seat | None = None
    ci_target: str | None = None
    ex_target: str | None = None
    ci_done: bool = False
    ex_done: bool = False
    ballots: tuple[tuple[Seat, str], ...] = ()
    #: voters whose ballot is sealed from the table's recorder too (ruling 21)
    sealed: tuple[Seat, ...] = ()
    last_election: tuple[tuple[Seat, str], ...] = ()
    last_totals: tuple[int, int] | None = None
    refill_throne: bool = False
    held: Tile | None = None  # a displaced elector or former Emperor waiting for a place
    pending: Pending | None = None
    # the players' names, for messages only: never in the view (it feeds the state digests)
    names: tuple[str, ...] = ()


def plus(items: tuple[Piece, ...], item: Piece) -> tuple[Piece, ...]:
    """`items` with one more `item`, kept sorted (courts, knights, cities, play areas)."""
    return tuple(sorted((*items, item)))


def minus(items: tuple[Piece, ...], item: Piece) -> tuple[Piece, ...]:
    """`items` with one `item` fewer (it is there: the callers checked)."""
    out = list(items)
    out.remove(item)
    return tuple(out)


def ref_of(tile: Tile, at: str) -> dict[str, Any]:
    return {"owner": tile[0], "at": at, "side": tile[1], "age": tile[2]}


def tile_json(tile: Tile | None) -> dict[str, Any] | None:
    return None if tile is None else {"owner": tile[0], "side": tile[1], "age": tile[2]}


def initial_state(created: Mapping[str, Any], components: Components) -> State:
    """Every piece in its owner's supply, the display built; setup names the Emperor."""
    c, n = components, len(created["players"])
    player = Player(thalers=c.thalers_start, tiles=c.tiles, knights=c.knights, cities=c.cities)
    return State(status="awaiting_setup", n=n, mode=str(created.get("mode", "table")),
                 electorates=tuple(Electorate(e) for e in c.eids),
                 players=(player,) * n, display=c.displays[n], empire_reserve=c.empire_cities,
                 names=tuple(str(name) for name in created["players"]))
