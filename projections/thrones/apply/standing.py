"""The start of the standing phase (§7.6; card ruling S21): where an ability answers it.

§7.6 makes standing the first step of `end_round`, so nothing is knelt any more once the
event is done. An ability "at the start of the standing phase" (Snowed Under: each player
returns one of its knelt characters or locations to hand) must see the cards still knelt
and its plot still revealed, so when one could answer now, `end_round` stops there: the
phase becomes `standing` (the trigger `phase_begins` with phase standing, apply/triggers.py)
and the abilities are answered as in any window; the table's next `end_round` then stands
the cards and taxes as §7.6 says. With nothing to answer, `end_round` is one event as it
always was (and a game recorded before the rules resolved plots, ruling 32, never stops).
"""

from __future__ import annotations

from ...messages import M
from ...rules import Action, replace, require
from ..edition import Components
from ..state import State, Trigger, Window
from . import abilities as ab
from .rounds import check_end_round, finish_round, set_phase
from .victory import rule

#: the trigger the start of the standing phase emits (apply/triggers.py PHASES)
BEGINS = Trigger("phase_begins", (("phase", "standing"),))


@rule
def apply_end_round(state: State, action: Action, ed: Components) -> State:
    """§7.6: the standing phase begins; it stops there while an ability answers its start
    (ruling S21), else the cards stand, gold is taxed and a new plot phase begins."""
    check_end_round(state, action)
    if state.phase == "standing":
        require(state.pick is None, "awaiting_answer",
                M("the standing phase waits for a choice of an ability first"))
        return finish_round(state)
    begun = set_phase(state, "standing")
    if state.when_revealed and _answered_at_start(begun, ed):
        return begun
    return finish_round(state)


def _answered_at_start(state: State, ed: Components) -> bool:
    """Whether some seat holds an ability it could use to answer the standing phase's
    start now (checked as at a table: the seat asked first is the window's business)."""
    probe = replace(state, window=Window((BEGINS,)), mode="table")
    for seat in state.active:
        for ref in ab.sources_of(probe, seat, ed):
            for ability in ab.source_of(probe, ref, ed).abilities:
                if ability.kind in ab.ANSWERS and ability.window.trigger == BEGINS.name \
                        and ab.usable(probe, seat, ref, ability, ed):
                    return True
    return False


__all__ = ["apply_end_round"]
