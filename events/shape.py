"""What an action sent to a table game must look like, and what the log itself forbids of
it, checked with nothing but the rules, the players and the state.

The server runs these checks before every write (writing.py, checks.py), and the offline
recorder runs this same module in the browser (api/offline/table.py; the rules archive
packs it with schemas.py and errors.py), so a move is refused offline exactly when, and in
the words in which, the server would refuse it (issue #31: an unknown field accepted
offline and refused when sent; a missing field refused with a Python KeyError).
This module imports only marshmallow, projections and those two modules of events/.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from marshmallow import Schema

from projections.replay import META_TYPES
from projections.rules import Action, GameRules, IllegalAction

from . import schemas
from .errors import InvalidEvent

#: types a client may never send: the log writes them itself
RESERVED_TYPES = frozenset({"game_created", "seed_revealed"})


@cache
def schema_of(cls: type[Schema]) -> Schema:
    """One instance per schema class: building a marshmallow Schema deep-copies its
    declared fields, which cost more than the load itself; loading is stateless."""
    return cls()


def check_type_and_seat(players: Sequence[str], action: Mapping[str, Any]) -> None:
    """A type only chronicle writes, or a seat the game does not have, is refused."""
    if action["type"] in RESERVED_TYPES:
        raise IllegalAction("reserved_type",
                            f"{action['type'].replace('_', ' ')} is written by chronicle itself")
    actor = action["actor"]
    if isinstance(actor, int) and actor >= len(players):
        raise IllegalAction("no_such_seat", f"seat {actor} does not exist: this game has "
                            f"seats 0..{len(players) - 1} ({', '.join(players)})", actor=actor)


def check_not_server(action: Mapping[str, Any]) -> None:
    if action["actor"] == "server":
        raise IllegalAction("server_only", "only chronicle itself acts as the server")


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


def check_data(rules: GameRules[Any], state: Any, action: Mapping[str, Any]) -> dict[str, Any]:
    """The data to store for a table-mode action (a digital deal is the server's, in
    writing.py): a correction, a claimed result, a log event as given, and a game's move
    admissible now and exactly of its schema's shape."""
    kind, data = action["type"], dict(action["data"])
    if kind == "correction":
        return check_correction(rules, action)
    if kind == "claim_result":
        if rules.result(state) is None:
            raise IllegalAction("game_not_over", "a claimed result is written down when "
                                "the game is over; this one is still running")
        return schemas.load(schemas.ClaimSchema(), data, "the claimed result")
    if kind in META_TYPES:
        return data
    # the rules' own refusals of an unknown type and of a game over, before the shape
    rules.admissible(state, Action.of(kind, action["actor"], data))
    return schemas.check_exact(schema_of(rules.action_schemas[kind]), data, f"the {kind} data")


def table_action(rules: GameRules[Any], players: Sequence[str], state: Any,
                 raw: Any) -> dict[str, Any]:
    """An action as the table's recorder sends it, checked as the server checks it before
    the rules fold it: {"type", "actor", "data"} with the data to store."""
    schemas.check_json_text(raw, "the action")
    action = schemas.load_action(raw)
    check_type_and_seat(players, action)
    check_not_server(action)
    return {**action, "data": check_data(rules, state, action)}
