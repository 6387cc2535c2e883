"""Reading the fields of one change of an `effect` (§9), each refused by name when missing or
of the wrong type (`bad_op`), and the checks several changes share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...messages import M, Mn, Seq
from ...rules import IllegalAction, freeze, require
from ..edition import Components, Seat
from ..state import Filter, InPlay, State
from ..words import FIELD_NAMES, words
from .guards import who
from .zones import in_play

#: one change of an effect: {"op": name, ...its fields}
Op = Mapping[str, Any]
UNTILS = ("challenge", "phase", "round")
FILTER_KEYS = ("controller", "type", "house", "trait", "icon", "crest", "keyword", "name",
               "unique", "house_any", "lacks_icon", "bearer")
_REQUIRED: Any = ...


def op_words(op: Op) -> str:
    """An op in words ("the move power effect"), as a refusal names it."""
    return M("the {op} effect", op=words(str(op.get("op"))))


def _get(op: Op, key: str, kind: type | tuple[type, ...], default: Any = _REQUIRED) -> Any:
    if key not in op or op[key] is None:
        if default is _REQUIRED:
            raise IllegalAction("bad_op", M("{op} needs its {what}", op=op_words(op),
                                            what=FIELD_NAMES.get(key) or words(key)), field=key)
        return default
    value = op[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    require(ok, "bad_op", M("{op}: its {what} has the wrong type", op=op_words(op),
                            what=FIELD_NAMES.get(key) or words(key)), field=key)
    return value


def text(op: Op, key: str, default: str | None = None) -> str:
    """A string field (required unless a default is given)."""
    value: str = _get(op, key, str, _REQUIRED if default is None else default)
    return value


def integer(op: Op, key: str, default: int | None = None) -> int:
    """An integer field, not a boolean (required unless a default is given)."""
    value: int = _get(op, key, int, _REQUIRED if default is None else default)
    return value


def items(op: Op, key: str, default: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """A list field (required unless a default is given)."""
    value: tuple[Any, ...] = _get(op, key, (list, tuple), _REQUIRED if default is None
                                  else default)
    return value


def amount(op: Op, key: str = "amount") -> int:
    """A count of power or gold: an integer, not negative."""
    value = integer(op, key)
    require(value >= 0, "bad_op",
            M("{op}: its {what} must not be negative ({value})", op=op_words(op),
              what=words(key), value=value))
    return value


def ids(op: Op, key: str) -> list[str]:
    """A list of card ids, each once."""
    value = items(op, key)
    require(all(isinstance(v, str) for v in value) and len(set(value)) == len(value),
            "bad_op", M("{op}: its {what} must list each card once", op=op_words(op),
                        what=words(key)))
    return list(value)


def op_seat(state: State, op: Op, key: str = "seat") -> Seat:
    """A seat of a player still in the game."""
    seat = integer(op, key)
    require(0 <= seat < state.n and not state.players[seat].conceded, "bad_seat",
            M("{op}: {player} is not a player in the game", op=op_words(op),
              player=who(state, seat)))
    return seat


def seats(state: State, op: Op, key: str = "seats", size: int | None = None) -> list[Seat]:
    """Seats of the game, each once (exactly `size` of them if given)."""
    value = list(items(op, key))
    require(all(isinstance(s, int) and 0 <= s < state.n for s in value)
            and len(set(value)) == len(value), "bad_seat",
            M("{op} names each player once, by seat", op=op_words(op)))
    require(size is None or len(value) == size, "bad_op",
            Mn("{op} names {count} player", "{op} names {count} players", size or 0,
               op=op_words(op)))
    return value


def until(state: State, op: Op) -> str:
    """How long a change lasts; "challenge" only while one is open."""
    value = text(op, "until", "round")
    require(value in UNTILS, "bad_op",
            M("a change lasts until the end of the challenge, phase or round, not \"{value}\"",
              value=value))
    require(value != "challenge" or state.challenge is not None, "no_open_challenge",
            M("a change until the end of the challenge needs an open challenge"))
    return value


def character(state: State, op: Op, ed: Components) -> InPlay:
    """The op's `card`: a character in play."""
    ip = in_play(state, text(op, "card"), ed)
    require(ed.is_character(ip.id) and ip.host is None, "not_a_character",
            M("{card} is not a character", card=ed.name(ip.id)), card=ip.id)
    return ip


def card_filter(op: Op) -> Filter:
    """A filter of printed values (§9), its keys those chronicle knows."""
    flt = _get(op, "filter", dict, {})
    unknown = set(flt) - set(FILTER_KEYS)
    require(not unknown, "bad_op",
            M("a filter has no field {fields} (§9)", fields=Seq(sorted(unknown), "or")))
    return tuple(sorted(freeze(dict(flt)).items()))


def actor_seat(actor: object) -> int:
    """The seat that recorded an effect, -1 for the table."""
    return actor if isinstance(actor, int) else -1
