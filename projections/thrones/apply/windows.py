"""The window an event opens (rulings 35-38; docs/games/thrones-abilities.md, "Windows").

`windowed` is the one place the reducer's apply path meets the triggers: after any action
the triggers it caused (triggers.py) become the state's window; an answer to the window
(a response, interrupt or forced use, or a pass) adds its own triggers to it instead of
closing it. In table mode that is all: nobody is asked and no pass is recorded, and an
answer is accepted while its trigger is open (the same check as in digital play).

In digital play the rules then walk the window through its stages (ruling 36): the seats
holding a usable interrupt answer first, one at a time from the first player clockwise
(ruling 37), each using one or passing (`pass_window`); then the forced abilities apply, the
rules using those that ask nothing and asking the owner of one that gives a choice (who
must answer), while one that asks nothing but takes cards by chance (Ser Jacelyn Bywater's
random discards) waits for the server, which uses it for its owner with the chance dealt
(`dealt_forced`, legal.auto_action; ruling 39); then the responses, as the interrupts. A
stage nobody can answer is skipped without a prompt or an event.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any

from ...messages import M
from ...rules import Action, IllegalAction, replace, require
from ..abilities.schema import Ability
from ..edition import Components, Seat
from ..state import State, Window, order
from .abilities import (
    ANSWERS,
    STAGE_OF,
    begin,
    chance_needs,
    chooser,
    resolve_use,
    source_of,
    sources_of,
    stand_in_chance,
    target_options,
    usable,
)
from .checks import RULES_CHECK, checked
from .guards import who
from .revealed import begin_use, refresh_pick
from .victory import Handler, check_victory, rule

#: the stages of a digital window, in order (ruling 36)
NEXT_STAGE = {"interrupt": "forced", "forced": "response", "response": "done"}


def windowed(handler: Handler) -> Handler:
    """An apply function that leaves the state's window as the action made it."""

    @functools.wraps(handler)
    def apply(state: State, action: Action, ed: Components) -> State:
        return settle(state, action, handler(state, action, ed), ed)

    return apply


def settle(before: State, action: Action, after: State, ed: Components) -> State:
    """The window after `action`: its triggers (an answer's added to the open ones), then
    in digital play walked on to the next seat to answer."""
    after, new = checked(before, action, after, ed)  # the rules' own checks (checks.py)
    old = after.window
    answer = action.type == "pass_window" or (
        old is not None and before.window is not None and old.answered !=
        before.window.answered)
    if answer and old is not None:
        window: Window | None = replace(old, triggers=(*old.triggers, *new), stage="interrupt",
                                        passed=frozenset()) if new else old
    else:
        window = Window(new) if new else None
    state = replace(after, window=window)
    if state.mode != "digital" or window is None or state.winner is not None:
        return state
    state = check_victory(advance(state, ed), ed)
    if state.pick is None or state.winner is not None:
        return state
    refreshed = refresh_pick(state, ed)  # the window changed who chooses (ruling B24)
    if refreshed.pick is None:  # it applied: what it did opens its own window
        return settle(state, RULES_CHECK, refreshed, ed)
    return refreshed


def advance(state: State, ed: Components) -> State:
    """Digital play: the window's next seat to answer, its stages walked until one has a
    seat that can answer (the forced abilities that ask nothing applied on the way)."""
    for _ in range(len(NEXT_STAGE) + 1):
        window = state.window
        assert window is not None
        if window.stage == "done":
            return replace(state, window=replace(window, waiting=()))
        if window.stage == "forced":
            state = apply_forced(state, ed)
            window = state.window
            assert window is not None
        seat = next_answerer(state, window.stage, ed)
        if seat is not None:
            return replace(state, window=replace(window, waiting=(seat,)))
        state = replace(state, window=replace(window, stage=NEXT_STAGE[window.stage],
                                              passed=frozenset(), waiting=()))
    return state


def _probe(state: State, seat: Seat, stage: str) -> State:
    """The state as if the window waited on `seat` in `stage` (what it could answer)."""
    assert state.window is not None
    return replace(state, window=replace(state.window, stage=stage, waiting=(seat,)))


def _answers(state: State, seat: Seat, stage: str, ed: Components
             ) -> list[tuple[str, str, str]]:
    """(source, ability id, what it asks) of each ability `seat` could answer with now:
    "choice" (its owner chooses), "dealt" (a forced one that takes cards by chance and
    asks nothing: the server deals them, ruling 39) or "" (nothing)."""
    probe = _probe(state, seat, stage)
    out = []
    for ref in sources_of(probe, seat, ed):
        for ability in source_of(probe, ref, ed).abilities:
            if ability.kind in ANSWERS and STAGE_OF[ability.kind] == stage and \
                    usable(probe, seat, ref, ability, ed):
                out.append((ref, ability.id, _asks(probe, seat, ref, ability, ed)))
    return out


def _asks(state: State, seat: Seat, ref: str, ability: Ability, ed: Components) -> str:
    """What an answer asks before it can be used: its owner's choice, the server's deal
    (a forced one only: a response or interrupt is its owner's to give or pass), or
    nothing."""
    if ability.targets or ability.influence:
        return "choice"
    if ability.kind != "forced":
        return ""
    _, _, ctx, _ = begin(state, seat, {"card": ref, "ability": ability.id}, ed,
                         targets=False)
    return "dealt" if chance_needs(ctx) else ""


def next_answerer(state: State, stage: str, ed: Components) -> Seat | None:
    """The first seat from the first player clockwise (ruling 37) that has not passed and
    holds an answer for the stage (in the forced stage, one that gives a choice or waits
    for the server's deal)."""
    window = state.window
    assert window is not None
    for seat in order(state):
        if seat in window.passed:
            continue
        found = _answers(state, seat, stage, ed)
        if any(asks or stage != "forced" for _, _, asks in found):
            return seat
    return None


def dealt_forced(state: State, ed: Components) -> tuple[Seat, dict[str, Any]] | None:
    """Ruling 39: the forced ability the window waits on that asks nothing but takes cards
    by chance: its owner and the use the server makes for it, its chance left to the
    server's deal (fill_chance). None when the window waits for no such use."""
    window = state.window
    if state.mode != "digital" or window is None or window.stage != "forced" or \
            not window.waiting:
        return None
    seat = window.waiting[0]
    for ref, ident, asks in _answers(state, seat, "forced", ed):
        if asks == "dealt":
            return seat, {"card": ref, "ability": ident}
    return None


def apply_forced(state: State, ed: Components) -> State:
    """The forced abilities that ask nothing, applied by the rules (ruling 38), in the
    order of their triggers, then of the seats from the first player, then of the cards;
    one that cannot be applied without what a seat must give is left to ask."""
    for _ in range(64):  # each use is an answer recorded, so the walk ends
        used = False
        for seat in order(state):
            for ref, ident, asks in _answers(state, seat, "forced", ed):
                if asks:
                    continue
                try:
                    state = resolve_use(_probe(state, seat, "forced"), seat,
                                        {"card": ref, "ability": ident}, ed)
                except IllegalAction:
                    continue
                used = True
                break
            if used:
                break
        if not used:
            break
    window = state.window
    assert window is not None
    return replace(state, window=replace(window, waiting=()))


def _choice_sets(ctx: Any, targets: Any) -> Iterator[dict[str, Any]]:
    """Candidate choices for the targets, in order: each option of a single target (or the
    least of a many), and nothing for an optional one."""
    per: list[list[tuple[str, Any]]] = []
    choices: dict[str, Any] = {}
    for target in targets:
        options = target_options(replace(ctx, choices=choices), target)
        values: list[Any] = [options[:target.least]] if target.many else list(options[:8])
        left_out = not values or target.least == 0
        per.append([(target.name, v) for v in values]
                   + ([(target.name, None)] if left_out else []))
        if values:
            choices[target.name] = values[0]
    for combo in itertools.product(*per):
        yield {name: v for name, v in combo if v is not None}


def forced_moves(state: State, seat: Seat, ed: Components) -> list[dict[str, Any]]:
    """The listed legal moves of a seat the forced stage waits on (legal_actions may be a
    sample): each forced ability it must answer, with the first choices that resolve (an
    optional target left out too: Daario Naharis when no pool has gold)."""
    out = []
    for ref, ident, _ in _answers(state, seat, "forced", ed):
        data: dict[str, Any] = {"card": ref, "ability": ident}
        _, ability, ctx, _ = begin(state, seat, data, ed, targets=False)
        own = [t for t in ability.targets if chooser(ctx, t) == "you"]
        trial = resolve_use if len(own) == len(ability.targets) else begin_use
        for choices in itertools.islice(_choice_sets(ctx, own), 64):
            chance = stand_in_chance(ctx.state, chance_needs(replace(ctx, choices=choices)))
            try:  # listed without its chance, which the server deals (ruling 34); a part
                # others choose waits for them (ruling 33: Snowed Under)
                trial(state, seat, {**data, "choices": choices, **chance}, ed)
            except IllegalAction:
                continue
            out.append({**data, "choices": choices})
            break
    return out


@rule
def apply_pass_window(state: State, action: Action, ed: Components) -> State:
    """Ruling 35: in digital play the seat the window waits on answers nothing more; at a
    table no pass is recorded (an answer is checked against its trigger when used)."""
    require(state.mode == "digital", "no_pass_at_table",
            M("at a table no pass is recorded: an answer is checked when it is used, "
              "against what just happened (ruling 35)"))
    window = state.window
    seat = action.actor
    require(window is not None and bool(window.waiting) and window.waiting[0] == seat,
            "nothing_to_answer", M("the game does not wait on {player} to answer anything "
                                   "now (ruling 35)", player=who(state, seat)))
    assert window is not None and isinstance(seat, int)
    require(window.stage != "forced", "forced_must_answer",
            M("{player} must answer: a forced ability that gives a choice is not passed "
              "(ruling 38)", player=who(state, seat)))
    return replace(state, window=replace(window, passed=window.passed | {seat},
                                         waiting=()))


__all__ = ["apply_pass_window", "dealt_forced", "forced_moves", "settle", "windowed"]
