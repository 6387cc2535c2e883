"""marshmallow schemas for what comes in: an action to record and a new-game request.

They check the shape only; the rules are the reducer's business. Failures become
`InvalidEvent` with field-keyed messages (the marshmallow / flask-smorest convention).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from .errors import InvalidEvent

SNAKE = validate.Regexp(r"^[a-z][a-z0-9_]{0,63}$", error="must be a snake_case action type")
MAX_SEAT = 64
MAX_DEPTH = 64
MAX_INT = 2**63


def check_json_text(value: Any, what: str) -> None:
    """Refuse what JSON cannot carry faithfully: lone surrogates, NaN and infinities,
    integers beyond 64 bits, non-string keys, nesting deeper than MAX_DEPTH.

    Raises InvalidEvent naming the path.
    """
    problem = _json_problem(value, what, 0)
    if problem is not None:
        raise InvalidEvent("malformed", problem, fields={})


def check_depth(value: Any, what: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH, before anything else walks it (a body
    is checked for depth as soon as it is parsed; its fields later, by `check_json_text`)."""
    if _deeper_than_allowed(value, 0):
        raise InvalidEvent("malformed", _too_deep(what))


def _opens_too_deep(value: Any, depth: int) -> bool:
    """A list or object at `depth` (0: the outermost) would be level depth + 1."""
    return depth >= MAX_DEPTH and isinstance(value, Mapping | list | tuple)


def _deeper_than_allowed(value: Any, depth: int) -> bool:
    if _opens_too_deep(value, depth):
        return True
    if isinstance(value, Mapping):
        return any(_deeper_than_allowed(item, depth + 1) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_deeper_than_allowed(item, depth + 1) for item in value)
    return False


def _too_deep(path: str) -> str:
    return f"{path} is nested deeper than {MAX_DEPTH} levels"


def _json_problem(value: Any, path: str, depth: int) -> str | None:
    if _opens_too_deep(value, depth):
        return _too_deep(path)
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has a key that is not a string"
            found = _scalar_problem(key, f"{path} key") or _json_problem(
                item, f"{path}.{key}" if len(key) < 40 else f"{path}.<key>", depth + 1)
            if found:
                return found
        return None
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _json_problem(item, f"{path}[{index}]", depth + 1)
            if found:
                return found
        return None
    return _scalar_problem(value, path)


def _scalar_problem(value: Any, path: str) -> str | None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return f"{path} holds text that is not valid Unicode (a lone surrogate)"
    elif isinstance(value, float) and (value != value or abs(value) == float("inf")):
        return f"{path} holds NaN or an infinity, which JSON cannot represent"
    elif isinstance(value, int) and not -MAX_INT <= value < MAX_INT:
        return f"{path} holds an integer beyond 64 bits, which JSON readers cannot keep exact"
    return None


def is_actor(value: Any) -> bool:
    """A seat index (0 <= int < MAX_SEAT, not a bool), "table" or "server"."""
    if isinstance(value, bool):
        return False
    return (isinstance(value, int) and 0 <= value < MAX_SEAT) or value in ("table", "server")


class ActorField(fields.Field[Any]):
    """A seat index (int >= 0), "table" or "server"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise ValidationError('must be a seat number, "table" or "server"')
        if is_actor(value):
            return value
        raise ValidationError('must be a seat number (0-based), "table" or "server"')

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class SeedField(fields.Field[Any]):
    """A client's extra entropy for a digital game's seed: a string, or an integer (kept as
    its canonical decimal string). It is mixed with the server's own randomness, never used
    alone (README, "Deals")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise ValidationError("must be a string or an integer")
        if isinstance(value, int):
            value = str(value)
        if not isinstance(value, str):
            raise ValidationError("must be a string or an integer")
        if len(value) > 200:
            raise ValidationError("must be at most 200 characters")
        return value

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class ActionSchema(Schema):
    """An action as a client sends it: {"type", "actor", "data"}."""

    type = fields.String(required=True, validate=SNAKE)
    actor = ActorField(required=True)
    data = fields.Dict(keys=fields.String(), load_default=dict)


_ACTION = ActionSchema()
_ACTION_KEYS = frozenset({"type", "actor", "data"})
_SNAKE: re.Pattern[str] = SNAKE.regex  # type: ignore[assignment]  # the validator's own


def load_action(payload: Any, what: str = "the action") -> dict[str, Any]:
    """`payload` loaded by ActionSchema. A well-formed action (nearly every one) is checked
    here directly — the schema's load was a tenth of a record's time — and anything else
    goes through the schema, so every refusal and its field messages stay the schema's."""
    if isinstance(payload, dict) and "actor" in payload and payload.keys() <= _ACTION_KEYS:
        kind, actor, data = payload.get("type"), payload["actor"], payload.get("data", {})
        if isinstance(kind, str) and _SNAKE.match(kind) and is_actor(actor) and \
                type(data) is dict and all(isinstance(key, str) for key in data):
            return {"type": kind, "actor": actor, "data": dict(data)}
    return load(_ACTION, payload, what)


class NewGameSchema(Schema):
    """A new-game request: {"game", "players", "mode", "seed"?, "options"?, "edition"?}."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.List(fields.String(validate=validate.Length(min=1, max=80)),
                          required=True, validate=validate.Length(min=1, max=MAX_SEAT))
    mode = fields.String(load_default="table", validate=validate.OneOf(["table", "digital"]))
    seed = SeedField(load_default=None, allow_none=True, metadata={
        "oneOf": [{"type": "string", "maxLength": 200}, {"type": "integer"}],
        "description": "digital mode only: extra entropy mixed into the server's own random "
                       "seed (a string, or an integer read as its decimal string); it never "
                       "chooses the deals"})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    edition = fields.String(load_default=None, allow_none=True)
    title = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))

    @validates_schema
    def _seed_only_digital(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        if data.get("seed") is not None and data.get("mode") != "digital":
            raise ValidationError("a seed is only used in digital mode", "seed")


def load(schema: Schema, payload: Any, what: str,
         partial: tuple[str, ...] | bool = False) -> dict[str, Any]:
    """Validate `payload` with `schema` or raise InvalidEvent naming each bad field."""
    if not isinstance(payload, Mapping):
        raise InvalidEvent("malformed", f"{what} must be a JSON object", fields={})
    try:
        loaded: dict[str, Any] = schema.load(dict(payload), partial=partial)
    except ValidationError as err:
        messages = err.normalized_messages()  # type: ignore[no-untyped-call]
        summary = "; ".join(f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}"
                            for k, v in sorted(messages.items(), key=lambda kv: str(kv[0])))
        raise InvalidEvent("malformed", f"{what} is malformed: {summary}",
                           fields=messages) from None
    return loaded


class ClaimSchema(Schema):
    """The result written down at the table: totals per seat, optional categories and text."""

    scores = fields.List(fields.Raw(allow_none=True), required=True,
                         validate=validate.Length(max=MAX_SEAT))
    per_seat = fields.List(fields.Dict(keys=fields.String()), load_default=None,
                           allow_none=True)
    winners = fields.List(fields.Integer(), load_default=None, allow_none=True)
    text = fields.String(load_default=None, allow_none=True,
                         validate=validate.Length(max=2000))


def check_exact(schema: Schema, payload: Any, what: str,
                partial: tuple[str, ...] | bool = False) -> dict[str, Any]:
    """Validate `payload` and return it unchanged: what is stored is exactly what was sent.

    A value the schema would have to coerce (the string "3" for an integer) is refused,
    so the log never holds data the reducer would read differently than it was written.
    """
    loaded = schema.dump(load(schema, payload, what, partial))
    coerced = {key: ["must be given exactly as its type (no conversion)"]
               for key, value in payload.items()
               if key in loaded and not _same(loaded[key], value)}
    dropped = {key: ["is not accepted here"] for key in payload if key not in loaded}
    problems = {**coerced, **dropped}
    if problems:
        raise InvalidEvent("malformed", f"{what} is malformed: "
                           + "; ".join(f"{k}: {v[0]}" for k, v in sorted(problems.items())),
                           fields=problems)
    return dict(payload)


def _same(loaded: Any, raw: Any) -> bool:
    if isinstance(raw, bool) or isinstance(loaded, bool):
        return type(raw) is type(loaded) and raw == loaded
    if isinstance(raw, list | tuple) and isinstance(loaded, list | tuple):
        return len(raw) == len(loaded) and all(_same(a, b) for a, b in zip(loaded, raw,
                                                                             strict=True))
    if isinstance(raw, Mapping) and isinstance(loaded, Mapping):
        return all(k in loaded and _same(loaded[k], v) for k, v in raw.items())
    return (bool(loaded == raw) and type(loaded) is type(raw)) or (
        isinstance(raw, int) and isinstance(loaded, float) and loaded == raw)
