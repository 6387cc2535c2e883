"""Victory (§7.7): checked after every event; when several players reach the goal together,
the first player chooses the winner before anything else happens.

`rule` makes a handler an apply function: it refuses any other action while a winner is
to be chosen, turns malformed data into one readable refusal (`bad_data`) and checks
victory on the state the handler returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ...rules import Action, IllegalAction, replace, require
from ..edition import Components, Seat
from ..state import State, order
from ..words import words
from .guards import require_turn, seats_words, who
from .values import total_powers

Handler = Callable[[State, Action, Components], State]
#: the actions a seat may send while a window waits on it (ruling 30), and those that
#: never wait (a concession, the simultaneous winner's choice)
ANSWERING = ("use_ability", "pass_window", "concede", "choose_winner")


def rule(handler: Handler) -> Handler:
    """The apply function of one action type: `handler` between the checks every action
    shares (a winner to choose first, well-formed data) and the victory check (§7.7)."""

    @functools.wraps(handler)
    def apply(state: State, action: Action, ed: Components) -> State:
        if state.pending_winner and action.type not in ("choose_winner", "concede"):
            raise IllegalAction("awaiting_winner_choice",
                                f"{seats_words(state, state.pending_winner)} reached "
                                f"{ed.constants.victory_power} power together; the first "
                                f"player, {who(state, chooser(state))}, must choose "
                                "the winner first")
        window = state.window
        if window is not None and window.waiting and action.type not in ANSWERING:
            raise IllegalAction("awaiting_answer", f"the game waits for "
                                f"{who(state, window.waiting[0])} to answer what just "
                                "happened first: use a card that answers it"
                                + ("" if window.stage == "forced" else ", or pass")
                                + " (ruling 30)")
        try:
            return check_victory(handler(state, action, ed), ed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            missing = isinstance(err, KeyError) and err.args
            what = f"its {words(str(err.args[0]))} is missing" if missing else \
                "a field has the wrong type or shape"
            raise IllegalAction("bad_data", f"the {words(action.type)} data is malformed: "
                                f"{what}") from None

    return apply


def check_victory(state: State, ed: Components) -> State:
    """§7.7: one player at the power goal wins; several at once wait for the choice."""
    if state.winner is not None or state.pending_winner or not state.players:
        return state
    goal = ed.constants.victory_power
    powers = total_powers(state)
    reached = [s for s in state.active if powers[s] >= goal]
    if len(reached) == 1:
        return replace(state, winner=reached[0], end_reason="power", phase="over")
    if reached:
        return replace(state, pending_winner=tuple(reached))
    return state


def chooser(state: State) -> Seat:
    """§7.7: the first player, or the setup starter before one exists (designed)."""
    seat = state.first_player if state.first_player is not None else state.setup_first
    if state.players[seat].conceded:
        seat = order(state, seat)[0]
    return seat


@rule
def apply_choose_winner(state: State, action: Action, ed: Components) -> State:
    """§6.16, §7.7: the first player picks the winner among those who reached the goal together."""
    require(bool(state.pending_winner), "no_winner_choice",
            "no players reached the power goal together, so there is no winner to choose")
    require_turn(state, action, chooser(state), "choose the winner")
    winner = action.data.get("winner")
    require(winner in state.pending_winner, "not_a_candidate",
            f"{who(state, winner)} did not reach {ed.constants.victory_power} power; "
            f"choose {seats_words(state, state.pending_winner, 'or')}", winner=winner)
    return replace(state, winner=winner, pending_winner=(), end_reason="power",
                   phase="over")
