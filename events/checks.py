"""What the log itself forbids, before the rules are asked (docs/design.md, "CLI and HTTP").

Who may act for whom, which types only chronicle writes, what a correction must hold, how
many players a game takes: the rules' reducers never see these, since they are about the
record, not the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.chance import server_move
from projections.messages import M, Seq
from projections.replay import META_TYPES, Cursor
from projections.rules import Action, GameRules, IllegalAction, seat_name

from .access import Access
from .errors import AccessDenied
from .folding import GameContext
from .model import Envelope
from .shape import (  # re-exported: the checks of a write are read here
    RESERVED_TYPES,
    check_correction,
    check_not_server,
    check_type_and_seat,
    schema_of,
)

__all__ = ["RESERVED_TYPES", "aimed", "check_actor", "check_correction", "check_new_game",
           "check_seat_meta", "check_table_choice", "meta_target", "schema_of"]

def check_new_game(cls: type[GameRules[Any]], req: Mapping[str, Any]) -> None:
    players = req["players"]
    if len(players) not in cls.player_counts:
        raise IllegalAction("wrong_player_count", M(
            "{game} is played by {counts} players, not {count}", game=cls.title,
            counts=_counts(cls.player_counts), count=len(players)), players=len(players))
    unknown = sorted(set(req["options"]) - set(cls.default_options))
    if unknown:
        known = Seq(sorted(cls.default_options))
        raise IllegalAction("unknown_option", M(
            "{game} has no option {options}; it knows {known}", game=cls.title,
            options=Seq(unknown), known=known) if cls.default_options else M(
            "{game} has no option {options}; it has none", game=cls.title,
            options=Seq(unknown)))


def check_actor(ctx: GameContext, access: Access, action: Mapping[str, Any]) -> None:
    names = ctx.players
    check_type_and_seat(names, action)
    actor = action["actor"]
    if access.role == "seat" and actor != access.seat:
        raise AccessDenied("not_your_seat", f"this token is {seat_name(names, access.seat)}'s; "
                           f"it cannot act as {seat_name(names, actor)}")
    check_not_server(action)


def check_typist(ctx: GameContext, access: Access, action: Mapping[str, Any]) -> None:
    """At a table the recorder types what chance brings (engine ruling 16; docs/design.md,
    "Deals and fair seeds": the recorder taps what was seen). A seat's own token records that
    seat's choices, sealed ones too, but not a card turned up unseen: the rules check such
    a card against piles the seat may not see, so their answer (refused, or recorded)
    would tell the seat what the piles hide (issue #32). Refused here, before the rules
    look at the cards, in words that name only the move and the player."""
    if ctx.mode != "table" or access.role != "seat" or action["type"] in META_TYPES or \
            action["type"] not in ctx.rules.action_schemas:
        return
    if ctx.rules.names_unseen(Action.of(action["type"], action["actor"], action["data"])):
        name = seat_name(ctx.players, access.seat)
        raise AccessDenied("recorded_by_the_table",
                           "at the table the recorder types what chance brings (cards turned "
                           "up unseen, a layout): ask them to record this "
                           f"{action['type'].replace('_', ' ')} for {name}; your token "
                           "records your own choices")


def sealed_by_typist(ctx: GameContext, access: Access, action: dict[str, Any]
                     ) -> dict[str, Any]:
    """A move the rules let a seat seal (`GameRules.sealed_types`), cast at a table with
    that seat's own token, is marked `"sealed": true`, so that the table's recorder sees it
    no more than the other seats do until the rules reveal it (issue #32). The mark is
    chronicle's: whatever a caller sent for it is replaced."""
    data = action.get("data")
    if action["type"] not in ctx.rules.sealed_types or not isinstance(data, Mapping):
        return action
    data = {k: v for k, v in data.items() if k != "sealed"}
    if ctx.mode == "table" and access.role == "seat":
        data["sealed"] = True
    return {**action, "data": data}


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


def _counts(counts: tuple[int, ...]) -> Any:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return M("{low} to {high}", low=counts[0], high=counts[-1])
    return Seq(map(str, counts), "or")


