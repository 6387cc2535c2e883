"""How a refusal names players and cards, and the guards every action shares (whose turn).

Every refusal names players by name and cards by their edition name, never by seat number or
instance id; what was typed and is not a card shows as it was typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...messages import M, Seq
from ...rules import Action, Bag, IllegalAction, possessive, require, seat_name
from ..edition import CardId, Components, Seat
from ..state import State
from ..words import house_card_of


def who(state: State, seat: object) -> str:
    """The player's name for a seat: every refusal names players, never seat numbers."""
    return M("nobody") if seat is None else seat_name(state.names, seat)


def whose(state: State, seat: object) -> str:
    """The possessive of a player's name ("Anna's")."""
    return possessive(who(state, seat))


def seats_words(state: State, seats: Iterable[object], conjunction: str = "and") -> str:
    """Players' names in a sentence ("Anna, Bo and Cy")."""
    return Seq([who(state, s) for s in seats], conjunction)


def thing(state: State, value: object, ed: Components) -> str:
    """How a message names what an action pointed at: a card by its name, a House card
    by its player; anything else (a typo, an unknown id) as it was typed."""
    if ed.is_known(value):
        return ed.name(value)
    if isinstance(value, str) and value.startswith("house:") and value[6:].isdigit() \
            and int(value[6:]) < state.n:
        return house_card_of(state.names, int(value[6:]))
    if value == "house":
        return M("the House card")
    return M("nothing") if value is None else M('"{value}"', value=str(value))


def take(state: State, bag: Bag, cards: Iterable[CardId], where: str, ed: Components,
         code: str = "not_available") -> Bag:
    """`bag` without `cards`; a missing card is refused by its name ("Ice is not in
    Anna's hand"), not by its instance id."""
    try:
        return bag.take(cards, code=code, where=where)
    except IllegalAction as err:
        card = err.details.get("card")
        raise IllegalAction(err.code, M("{card} is not in {where}", card=thing(state, card, ed),
                                        where=where),
                            card=card) from None


def require_turn(state: State, action: Action, seat: object, what: str) -> None:
    """Refuse an action whose actor is not `seat` (code `not_your_turn`), naming both."""
    if action.actor != seat:
        raise IllegalAction("not_your_turn", M("it is {whose} turn to {what}, not {other}",
                                               whose=whose(state, seat), what=what,
                                               other=whose(state, action.actor)),
                            expected=seat, actor=action.actor)


def seat_of(state: State, action: Action) -> Seat:
    """The acting player's seat; refused for the table, a seat not in the game, or a player
    who conceded."""
    seat = action.actor
    require(isinstance(seat, int) and 0 <= seat < state.n, "not_your_turn",
            M("a player takes this action, not {player}", player=who(state, seat)))
    assert isinstance(seat, int)
    require(not state.players[seat].conceded, "conceded",
            M("{player} has conceded", player=who(state, seat)))
    return seat


def per_seat(data: Any, seat: Seat) -> Any:
    """`data[str(seat)]` (JSON object keys are strings), or None."""
    if not data:
        return None
    return data.get(str(seat), data.get(seat)) if isinstance(data, Mapping) else None


def str_list(value: object, what: str) -> list[str]:
    """`value` as a list of card ids; refused (`bad_data`) if it is anything else."""
    require(isinstance(value, list | tuple) and all(isinstance(v, str) for v in value),
            "bad_data", M("{what} must be a list of cards", what=what))
    assert isinstance(value, list | tuple)
    return list(value)
