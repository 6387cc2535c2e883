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

    @property
    def card_name(self) -> Any:
        """The source's name as its card gives it (the edition's Name, which a message
        renders in the reader's language), or the source reference."""
        return self.card.name if self.card is not None else self.source


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
#: (card id, ability id) -> what a use leaves in the state beyond its §9 ops, given the
#: use and the state after its ops: a lasting effect the rules read later (a blank text,
#: a toll, how a card entered play) or where an event card goes instead of the discard
#: pile (I'm You Writ Small). §9 has no op for these; the function says exactly one thing.
LastingFn = Callable[[Use, Any], Any]
LASTING: dict[tuple[str, str], LastingFn] = {}


#: a lasting marker (kind, seat, value) one use leaves for a later moment (apply/marks.py)
Mark = tuple[str, int, str]
MarkFn = Callable[[Use], Sequence[Mark]]
#: (card id, ability id) -> the markers a use leaves: a choice the ops cannot keep until
#: the moment it pays (Dragonstone Port's named plot, Good for the Gander's copied plot)
MARKS: dict[tuple[str, str], MarkFn] = {}
#: the when-revealed abilities that copy an opponent's (Good for the Gander, card ruling
#: B19): their plot is used as the copied plot (apply/marks.py)
COPIERS: set[tuple[str, str]] = set()

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


def lasting(card: str, ident: str) -> Callable[[LastingFn], LastingFn]:
    """Register what a use of ability `ident` of `card` leaves in the state (LASTING)."""

    def register(fn: LastingFn) -> LastingFn:
        if (card, ident) in LASTING:
            raise ValueError(f"{card} {ident}: a lasting effect is registered twice")
        LASTING[(card, ident)] = fn
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


def marks(card: str, ident: str) -> Callable[[MarkFn], MarkFn]:
    """Register the markers a use of ability `ident` of `card` leaves (apply/marks.py)."""

    def register(fn: MarkFn) -> MarkFn:
        MARKS[(card, ident)] = fn
        return fn

    return register


def copier(card: str, ident: str) -> None:
    """Declare that when-revealed ability `ident` of `card` copies an opponent's."""
    COPIERS.add((card, ident))
