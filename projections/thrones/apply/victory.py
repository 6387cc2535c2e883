"""Victory (§7.7): checked after every event; when several players reach the goal together,
the first player chooses the winner before anything else happens.

`rule` makes a handler an apply function: it refuses any other action while a winner is
to be chosen, turns malformed data into one readable refusal (`bad_data`) and checks
victory on the state the handler returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ...messages import M
from ...rules import Action, IllegalAction, replace, require
from ..edition import Components, Seat
from ..state import State, order
from ..words import ACTION_NAMES, FIELD_NAMES, words
from .guards import require_turn, seats_words, who
from .values import total_powers

Handler = Callable[[State, Action, Components], State]
#: the actions a seat may send while a window waits on it (ruling 35), and those that
#: never wait (a concession, the simultaneous winner's choice)
ANSWERING = ("use_ability", "pass_window", "concede", "choose_winner")


def rule(handler: Handler) -> Handler:
    """The apply function of one action type: `handler` between the checks every action
    shares (a winner to choose first, well-formed data) and the victory check (§7.7)."""

    @functools.wraps(handler)
    def apply(state: State, action: Action, ed: Components) -> State:
        if state.pending_winner and action.type not in ("choose_winner", "concede"):
            raise IllegalAction("awaiting_winner_choice",
                                M("{players} reached {victory_power} power together; the "
                                  "first player, {player}, must choose the winner first",
                                  players=seats_words(state, state.pending_winner),
                                  victory_power=ed.constants.victory_power,
                                  player=who(state, chooser(state))))
        waiting_problem(state, action, ed)
        window = state.window
        if window is not None and window.waiting and action.type not in ANSWERING:
            raise IllegalAction("awaiting_answer", M(
                "the game waits for {player} to answer what just happened first: use a card "
                "that answers it (ruling 35)", player=who(state, window.waiting[0]))
                if window.stage == "forced" else M(
                "the game waits for {player} to answer what just happened first: use a card "
                "that answers it, or pass (ruling 35)", player=who(state, window.waiting[0])))
        try:
            return check_victory(handler(state, action, ed), ed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            missing = isinstance(err, KeyError) and err.args
            field = str(err.args[0]) if missing else ""
            what = M("its {field} is missing", field=FIELD_NAMES.get(field) or words(field)) \
                if missing else M("a field has the wrong type or shape")
            raise IllegalAction("bad_data", M("the {action} data is malformed: {problem}",
                                              action=ACTION_NAMES.get(action.type)
                                              or words(action.type), problem=what)) from None

    return apply


#: what may be done while a revealed plot resolves (ruling 32): its use, and what any
#: moment allows
WHILE_REVEALING = ("use_ability", "concede", "choose_winner", "effect")


def waiting_problem(state: State, action: Action, ed: Components) -> None:
    """Ruling 32: while a revealed plot's ability waits for a choice, nothing else."""
    if not (state.revealing or state.pick) or action.type in WHILE_REVEALING or \
            (state.window is not None and state.window.waiting):  # the answer comes first
        return
    seat = state.pick.waiting[0][0] if state.pick else state.revealing[0]
    if state.pick is not None and not state.pick.source.startswith("plot:"):
        raise IllegalAction("awaiting_choice", M(
            "{card} waits for {player} to choose for it first", player=who(state, seat),
            card=ed.name(state.pick.source) if ed.is_known(state.pick.source) else
            M("an ability")))
    plot = state.players[state.pick.seat if state.pick else seat].revealed_plot
    what = ed.name(plot) if plot else M("a revealed plot")
    raise IllegalAction("awaiting_when_revealed",
                        M("{plot} is being revealed: {player} chooses for it first", plot=what,
                          player=who(state, seat)))


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
            M("no players reached the power goal together, so there is no winner to choose"))
    require_turn(state, action, chooser(state), M("choose the winner"))
    winner = action.data.get("winner")
    require(winner in state.pending_winner, "not_a_candidate",
            M("{player} did not reach {victory_power} power; choose {players}",
              player=who(state, winner), victory_power=ed.constants.victory_power,
              players=seats_words(state, state.pending_winner, 'or')), winner=winner)
    return replace(state, winner=winner, pending_winner=(), end_reason="power",
                   phase="over")
