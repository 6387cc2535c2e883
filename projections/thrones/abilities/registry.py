"""The named ability functions, registered by card id next to the data (docs/games/
thrones-abilities.md, "Named functions"): where a card's data cannot say what it does, a
small function computes its §9 ops from the state and the choices. It never takes ops from
the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .schema import Ability


@dataclass(frozen=True, slots=True)
class Use:
    """One use of an ability as a function sees it: the state before the ops (after the
    cost), the seat using it, the source reference, the printed card (None for a title),
    the ability, the chosen targets, the trigger it answers and the components."""

    state: Any
    seat: int
    source: str
    card: Any
    ability: Ability
    choices: Mapping[str, Any]
    trigger: Mapping[str, Any] | None
    ed: Any
    chance: Mapping[str, Any] = field(default_factory=dict)
    #: the seats whose part of a choice is still to come (ruling 33)
    waiting: frozenset[int] = frozenset()


AbilityFn = Callable[[Use], Sequence[Mapping[str, Any]]]
OptionsFn = Callable[[Use], Sequence[Any]]
#: (card id, ability id) -> the function computing its ops
FUNCTIONS: dict[tuple[str, str], AbilityFn] = {}
#: (card id, ability id, target name) -> the legal values of that target
OPTIONS: dict[tuple[str, str, str], OptionsFn] = {}
#: a named function's chance (ruling 34): (field, seat, count) for each op that takes
#: cards by chance, in op order ("drawn", "milled" or "random")
ChanceFn = Callable[[Use], Sequence[tuple[str, int, int]]]
CHANCE: dict[tuple[str, str], ChanceFn] = {}
#: (card id, ability id, target name) -> who chooses that target (ruling 33): "$<seat
#: target>" or "each"; declared beside the card's function (the target's data `chooser`
#: says the same; the edition's data is kept as recorded games were dealt from it)
CHOOSERS: dict[tuple[str, str, str], str] = {}
#: (card id, ability id) of the named functions whose ops show cards of a hidden zone (a
#: deck or a hand) to everyone: a use of one emits `cards_revealed` (card ruling L26)
REVEALS: set[tuple[str, str]] = set()


def ability(card: str, ident: str) -> Callable[[AbilityFn], AbilityFn]:
    """Register the function of ability `ident` of card `card` ("core_020")."""

    def register(fn: AbilityFn) -> AbilityFn:
        if (card, ident) in FUNCTIONS:
            raise ValueError(f"{card} {ident}: a function is registered twice")
        FUNCTIONS[(card, ident)] = fn
        return fn

    return register


def options(card: str, ident: str, target: str) -> Callable[[OptionsFn], OptionsFn]:
    """Register the legal values of target `target` of ability `ident` of `card`."""

    def register(fn: OptionsFn) -> OptionsFn:
        OPTIONS[(card, ident, target)] = fn
        return fn

    return register


def chance(card: str, ident: str) -> Callable[[ChanceFn], ChanceFn]:
    """Register what the named function of ability `ident` of `card` takes by chance."""

    def register(fn: ChanceFn) -> ChanceFn:
        CHANCE[(card, ident)] = fn
        return fn

    return register


def chooser(card: str, ident: str, target: str, who: str) -> None:
    """Declare that `who` ("$foe", "each") chooses `target` of ability `ident` of `card`."""
    CHOOSERS[(card, ident, target)] = who


def reveals(card: str, ident: str) -> None:
    """Declare that the named function of ability `ident` of `card` reveals cards."""
    REVEALS.add((card, ident))


def chooser_of(card: str, ident: str, target: Any) -> str:
    """Who chooses a target: its declaration here, else its data (default the user)."""
    return str(CHOOSERS.get((card, ident, target.name), target.chooser))
