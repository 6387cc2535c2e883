"""Who acts now in a game of Thrones (§3 turn order, §7-§8 phases and challenges).

Its own module below legal.py, because the rules of `use_ability` ask it too (ruling 28: in
digital play a seat uses an action while it is among the seats to act) and legal.py builds
on those rules.
"""

from __future__ import annotations

from typing import cast

from ...rules import Actor
from ..edition import CardId, Components, Seat
from ..state import Challenge, State
from .challenges import redirect_problem, take_problem
from .text import text_of
from .titles import holder
from .values import has_keyword, play_index
from .victory import chooser


def to_act(state: State, ed: Components) -> tuple[Actor, ...]:
    """The actors who may act now (seats and/or "table"); empty when over."""
    if state.winner is not None:
        return ()
    if state.pending_winner:
        return (chooser(state),)
    waiting = _waiting_actor(state)
    if waiting:
        return waiting
    phase = state.phase
    if phase in ("start", "setup_draw", "draw", "dominance", "standing"):
        return ("table",)
    if phase == "setup":
        return _seat(state.turn)
    if phase == "plot":
        if state.step == "choose":
            return tuple(s for s in state.active if state.players[s].chosen_plot is None)
        if state.step == "tie":
            return ("table",)
        return _seat(state.initiative_winner if state.step == "first_player" else state.turn)
    if phase == "challenges" and state.challenge is not None:
        return _challenge_actors(state, state.challenge, ed)
    return _seat(state.turn)


def _waiting_actor(state: State) -> tuple[Actor, ...]:
    """The one seat the game waits on, if any: ruling 33, the seat choosing its part of a
    plot's ability; ruling 32, the owner of the plot resolving; ruling 35, the seat a
    window waits on."""
    if state.window is not None and state.window.waiting:  # an answer to a plot's kill first
        return state.window.waiting
    if state.pick is not None:
        return _seat(state.pick.waiting[0][0])
    if state.revealing:
        return _seat(state.revealing[0])
    return ()


def _seat(seat: Seat | None) -> tuple[Actor, ...]:
    """The one seat to act, which the phase always sets."""
    return cast("tuple[Actor, ...]", (seat,))


def _challenge_actors(state: State, ch: Challenge, ed: Components) -> tuple[Actor, ...]:
    if ch.step == "resolved":
        return (ch.pending[0][1],)
    actors = [ch.defender] if ch.step == "attackers_declared" else [ch.attacker]
    if ch.step == "attackers_declared" and not ch.stealth and greedy_stealth(state, ch, ed):
        actors.append(ch.attacker)
    if state.is_melee:
        regent = holder(state, "crown_regent")
        if ch.step == "attackers_declared" and regent is not None and any(
                redirect_problem(state, ch, regent, s, ed) is None for s in state.active):
            actors.append(regent)
        lord = holder(state, "lord_commander_kingsguard")
        if ch.step == "defenders_declared" and lord is not None and \
                take_problem(state, ch, lord) is None:
            actors.append(lord)
    return tuple(dict.fromkeys(actors))


def greedy_stealth(state: State, ch: Challenge, ed: Components) -> dict[CardId, CardId]:
    """Each stealth attacker bypasses the next character of the defender it may (§8.3)."""
    index = play_index(state)
    targets = [c.id for c in state.cards if c.controller == ch.defender and c.host is None
               and ed.is_character(c.id) and not text_of(state, c.id, ed).stealth_immune
               and not has_keyword(state, c.id, "stealth", ed, index)]
    bypass = {}
    for att in ch.attackers:
        if targets and has_keyword(state, att, "stealth", ed, index):
            bypass[att] = targets.pop(0)
    return bypass
