"""What the log itself forbids, before the rules are asked (docs/design.md, "CLI and HTTP").

Who may act for whom, which types only chronicle writes, what a correction must hold, how
many players a game takes: the rules' reducers never see these, since they are about the
record, not the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import Schema

from projections.chance import server_move
from projections.replay import META_TYPES, Cursor
from projections.rules import GameRules, IllegalAction, seat_name

from . import schemas
from .access import Access
from .errors import AccessDenied, InvalidEvent
from .folding import GameContext
from .model import Envelope

#: types a client may never send: the log writes them itself
RESERVED_TYPES = frozenset({"game_created", "seed_revealed"})


@cache
def schema_of(cls: type[Schema]) -> Schema:
    """One instance per schema class: building a marshmallow Schema deep-copies its
    declared fields, which cost more than the load itself; loading is stateless."""
    return cls()


def check_new_game(cls: type[GameRules[Any]], req: Mapping[str, Any]) -> None:
    players = req["players"]
    if len(players) not in cls.player_counts:
        raise IllegalAction("wrong_player_count",
                            f"{cls.title} is played by {_counts(cls.player_counts)} "
                            f"players, not {len(players)}", players=len(players))
    unknown = sorted(set(req["options"]) - set(cls.default_options))
    if unknown:
        raise IllegalAction("unknown_option", f"{cls.title} has no option "
                            f"{', '.join(unknown)}; it knows "
                            f"{', '.join(sorted(cls.default_options)) or 'none'}")


def check_actor(ctx: GameContext, access: Access, action: Mapping[str, Any]) -> None:
    names = ctx.players
    if action["type"] in RESERVED_TYPES:
        raise IllegalAction("reserved_type",
                            f"{action['type'].replace('_', ' ')} is written by chronicle itself")
    actor = action["actor"]
    if isinstance(actor, int) and actor >= len(names):
        raise IllegalAction("no_such_seat", f"seat {actor} does not exist: this game has "
                            f"seats 0..{len(names) - 1} ({', '.join(names)})", actor=actor)
    if access.role == "seat" and actor != access.seat:
        raise AccessDenied("not_your_seat", f"this token is {seat_name(names, access.seat)}'s; "
                           f"it cannot act as {seat_name(names, actor)}")
    if actor == "server":
        raise IllegalAction("server_only", "only chronicle itself acts as the server")


def check_table_choice(ctx: GameContext, cursor: Cursor, action: Mapping[str, Any]) -> None:
    """In digital play the table's only own moves are its choices (docs/design.md, "Deals
    and fair seeds"; engine ruling 12: Thrones' start_game picks the houses); its deals and
    forced steps are the server's, which has already made any that is due."""
    if ctx.mode != "digital" or action["actor"] != "table" or action["type"] in META_TYPES:
        return
    if server_move(ctx.rules, cursor.state) is not None or \
            "table" not in ctx.rules.to_act(cursor.state):
        raise IllegalAction("server_deals", "in digital play the server makes the "
                            "table's moves (deals, layouts, forced steps) itself; the "
                            "recorder makes only the table's choices")


def check_correction(rules: GameRules[Any], action: Mapping[str, Any]) -> dict[str, Any]:
    """A correction's replacement action must be well-formed for this game."""
    if action["actor"] != "table":
        raise IllegalAction("corrections_by_recorder",
                            'a correction is the recorder\'s: its actor is "table"')
    data = dict(action["data"])
    inner = schemas.load(schemas.ActionSchema(), data.get("action"), "the corrected action")
    if inner["type"] not in rules.action_schemas:
        raise IllegalAction("unknown_action", f"{rules.title} has no move “{inner['type']}” "
                            "to correct with", known=sorted(rules.action_schemas))
    inner["data"] = schemas.check_exact(schema_of(rules.action_schemas[inner["type"]]),
                                        inner["data"], f"the corrected {inner['type']} data")
    target = data.get("target_seq")
    if not isinstance(target, int) or isinstance(target, bool):
        raise InvalidEvent("malformed", "a correction needs an integer target_seq",
                           fields={"target_seq": ["an integer seq is required"]})
    return {"target_seq": target, "action": inner}


def check_seat_meta(ctx: GameContext, access: Access, kind: str, cursor: Cursor,
                     target_event: Envelope | None) -> None:
    """A seat token undoes or redoes only its own actions, in table mode too."""
    if access.role != "seat" or kind not in ("undo", "redo") or target_event is None:
        return
    if target_event["actor"] != access.seat:
        names = ctx.players
        raise AccessDenied("not_your_seat", f"event {target_event['seq']} is "
                           f"{seat_name(names, target_event['actor'])}'s; "
                           f"{seat_name(names, access.seat)}'s token cannot {kind} it",
                           target_seq=target_event["seq"])


def meta_target(kind: str, cursor: Cursor) -> int | None:
    """The seq an undo (the latest action in effect) or a redo (the latest undone) aims at."""
    return cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)


def aimed(kind: str, data: Mapping[str, Any], cursor: Cursor) -> dict[str, Any]:
    """An undo's or redo's data naming the seq it retracts or re-applies: the log then says
    what each undo did without a fold, and a history page finds the events aimed at its
    seqs by that (events/paging.py). A target the caller named is kept (the fold refuses a
    wrong one); with nothing to aim at, the fold refuses the event anyway."""
    target = meta_target(kind, cursor)
    if data.get("target_seq") is not None or target is None:
        return dict(data)
    return {**data, "target_seq": target}


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


