"""Moves built choice by choice for one caller (issue #29; docs/design.md, "Actions and
choices"): the HTTP `choices` route, `chronicle move` and the recorder pages ask here.

What a caller may build is its scope as for the legal actions (events/access.py): a seat
its own moves, the digital recorder the table's, the table recorder every seat's; only a
table game's recorder taps chance outcomes (the other hands and the deck are not a seat's
to see: docs/rulings/engine.md 15). A walk reads the game and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.choices import Pick, Walker, menu
from projections.rules import Action, IllegalAction, seat_name

from .access import legal_actor
from .errors import InvalidEvent
from .reading import GameReader


def choices(reader: GameReader, kind: str | None = None, actor: Any = None,
            picks: Iterable[Any] = ()) -> dict[str, Any]:
    """Without `kind`, the action types each actor of the caller's scope may take now;
    with it, where the picks stand, what is asked next and, once complete, the move ready
    to post and the sentence it will be recorded as."""
    state, rules, ctx = reader.latest.state, reader.rules, reader.ctx
    if reader.access.role == "spectator":
        if kind is None:
            return {"actions": []}
        raise IllegalAction("not_a_player", "a spectator makes no moves; open the game "
                            "with a seat's or the recorder's link")
    scope = legal_actor(reader.access, ctx.mode, actor)
    actors = [a for a in rules.to_act(state) if scope is None or a == scope]
    walker = Walker(rules, table=ctx.mode == "table" and reader.access.may_record)
    if kind is None:
        return {"actions": menu(walker, state, actors)}
    answers = [Pick.of(p) for p in picks]
    chosen = _actor(reader, walker, kind, actor, actors)
    walk = walker.walk(state, kind, chosen, answers)
    move = walk.move
    sentence = None if move is None else rules.describe(
        Action.of(move["type"], move["actor"], move["data"]), ctx.players)
    return {"type": kind, "actor": chosen, "label": rules.action_type(kind).label,
            "picks": [p.to_json() for p in answers],
            "choice": None if walk.choice is None else walk.choice.to_json(),
            "complete": walk.complete, "move": move, "sentence": sentence}


def _actor(reader: GameReader, walker: Walker, kind: str, actor: Any, actors: list[Any]
           ) -> Any:
    """Who makes the `kind` move: the one asked, if the caller may act for them now, else
    the only actor of the caller's scope to whom it is open."""
    names, state = reader.ctx.players, reader.latest.state
    what = reader.rules.action_type(kind).label
    what = what[:1].lower() + what[1:]
    open_to = [a for a in actors if any(r.name == kind for r in walker.opening(state, a))]
    if actor is not None:
        if actor not in open_to:
            raise IllegalAction("not_now", f"{seat_name(names, actor)} cannot {what} now",
                                type=kind, actor=actor)
        return actor
    if len(open_to) == 1:
        return open_to[0]
    if not open_to:
        raise IllegalAction("not_now", f"nobody this link acts for can {what} now",
                            type=kind)
    who = sorted(seat_name(names, a) for a in open_to)
    raise InvalidEvent("actor_needed", f"say who makes this move: {', '.join(who)}")
