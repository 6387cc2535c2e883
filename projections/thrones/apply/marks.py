"""What an ability leaves for a later moment (`State.marks`, card rulings B19 and B20):
Good for the Gander's copied plot and Dragonstone Port's named plot.

Good for the Gander (core_185) copies the when-revealed ability of an opponent's revealed
plot. While it resolves, its plot (`plot:<seat>`) is used as the copied plot's when-revealed
ability by the Gander's owner: its targets, functions, options and choosers are those of the
copied card, its choices its owner's. The plot copied is the one opponent's plot that has
such an ability (the marker ("copies", owner, seat) is then set by itself); in a melee with
more than one, the owner chooses it (`copy_plot`), which sets the marker; with none, the
Gander does nothing. A Gander copies no other Gander (it has nothing of its own to copy).

Dragonstone Port (core_091) names a plot while plots are chosen ("names_plot", user, name);
at the reveal its user gains 1 House power for each opponent who reveals a plot of that name,
and the markers end.
"""

from __future__ import annotations

from ...rules import replace
from ..abilities.registry import COPIERS
from ..abilities.schema import Ability
from ..edition import Card, Components, Seat
from ..state import State
from .zones import gain_house_power


def is_copier(card: Card) -> bool:
    """Whether the plot copies an opponent's when-revealed ability (registry.copier)."""
    return any((card.id, a.id) in COPIERS for a in card.abilities)


def copyable(card: Card) -> Ability | None:
    """The when-revealed ability of a plot a Gander may copy (a copier has none of its
    own to give)."""
    return next((a for a in card.abilities if a.kind == "when_revealed"
                 and (card.id, a.id) not in COPIERS), None)


def candidates(state: State, seat: Seat, ed: Components) -> list[Seat]:
    """The opponents still in the game whose revealed plot has an ability to copy."""
    out: list[Seat] = []
    for other in state.active:
        plot = state.players[other].revealed_plot
        if other != seat and plot is not None and copyable(ed.card(plot)) is not None:
            out.append(other)
    return out


def copied(state: State, seat: Seat) -> Seat | None:
    """The seat whose plot `seat`'s Gander copies this round, once known."""
    return next((int(v) for k, s, v in state.marks if k == "copies" and s == seat), None)


def plot_as_used(state: State, seat: Seat, card: Card, ed: Components
                 ) -> tuple[Card, tuple[Ability, ...]]:
    """The card and abilities `plot:<seat>` is used as: its own, or for a Gander whose
    copy is known the copied plot's when-revealed ability (nothing if that plot is gone)."""
    foe = copied(state, seat)
    if foe is None or not is_copier(card):
        return card, card.abilities
    theirs = state.players[foe].revealed_plot
    other = ed.card(theirs) if theirs is not None else None
    ability = copyable(other) if other is not None else None
    return (other, (ability,)) if other is not None and ability is not None else (card, ())


def settle_copy(state: State, seat: Seat, ed: Components) -> State:
    """A Gander with exactly one opponent's plot to copy copies it unasked."""
    plot = state.players[seat].revealed_plot
    if plot is None or not is_copier(ed.card(plot)) or copied(state, seat) is not None:
        return state
    found = candidates(state, seat, ed)
    if len(found) != 1:
        return state
    return replace(state, marks=(*state.marks, ("copies", seat, str(found[0]))))


def copies_nothing(state: State, seat: Seat, ed: Components) -> bool:
    """A Gander no opponent's plot gives anything to copy: it does nothing."""
    plot = state.players[seat].revealed_plot
    return plot is not None and is_copier(ed.card(plot)) and copied(state, seat) is None \
        and not candidates(state, seat, ed)


def chose_copy(before: State, after: State, seat: Seat) -> bool:
    """Whether a use just chose the plot a Gander copies (the copy then resolves)."""
    return copied(before, seat) is None and copied(after, seat) is not None


def forget_copies(state: State) -> State:
    """A new reveal: last round's copies are over."""
    return replace(state, marks=tuple(m for m in state.marks if m[0] != "copies"))


def pay_named_plots(state: State, ed: Components) -> State:
    """The reveal (§7.1): each Dragonstone Port's user gains 1 House power per opponent
    whose revealed plot bears the name it named; the markers end."""
    for kind, seat, name in state.marks:
        if kind != "names_plot" or state.players[seat].conceded:
            continue
        count = sum(1 for other in state.active if other != seat
                    and (plot := state.players[other].revealed_plot) is not None
                    and ed.card(plot).name == name)
        if count:
            state = gain_house_power(state, seat, count)
    return replace(state, marks=tuple(m for m in state.marks if m[0] != "names_plot"))
