"""Magister Illyrio's toll (core_152, card ruling T18): a lasting effect, this phase, by
which one opponent pays the user 1 gold for each challenge of a named type it declares.

The effect is kept as a modifier of kind `toll` (until the end of the phase) on the payer's
House card, so it lasts when Illyrio leaves play; `pay_tolls` applies it as the challenge
is declared (§8.2), in both modes, as a lasting effect applies by itself. A payer short of
gold gives what it has (as Uneasy Truce, ruling B3): the challenge is declared all the same.
"""

from __future__ import annotations

from ..edition import Seat
from ..state import Modifier, State

#: the modifier kind of a toll
TOLL = "toll"


def toll_effect(payer: Seat, payee: Seat, kind: str, amount: int = 1) -> Modifier:
    """The lasting effect: `payer` gives `payee` `amount` gold per `kind` challenge it
    declares, until the end of the phase."""
    return Modifier(TOLL, f"house:{payer}", "phase", amount=amount, value=kind, seat=payee,
                    players=(payer,))


def pay_tolls(state: State) -> State:
    """The open challenge was just declared: each toll on its attacker and its type is
    paid, the gold the attacker has at most, to a payee still in the game."""
    ch = state.challenge
    if ch is None or not any(m.kind == TOLL for m in state.modifiers):
        return state
    for mod in state.modifiers:
        if mod.kind != TOLL or mod.players != (ch.attacker,) or mod.value != ch.type:
            continue
        given = min(mod.amount, state.players[ch.attacker].gold)
        if given <= 0 or mod.seat not in state.active or mod.seat == ch.attacker:
            continue
        state = state.with_player(ch.attacker, gold=state.players[ch.attacker].gold - given)
        state = state.with_player(mod.seat, gold=state.players[mod.seat].gold + given)
    return state
