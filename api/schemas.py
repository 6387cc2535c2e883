"""marshmallow schemas of every API request and response: the source of /openapi.json.

Request bodies are parsed by the API itself (so malformed or hostile JSON is a clean 400,
never a 500) and validated by the recorder's schemas in `events.schemas`; the request
schemas here re-export those for the OpenAPI document.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from events.schemas import ActionSchema, ActorField, NewGameSchema

__all__ = ["ActionSchema", "NewGameSchema"]


class Actor(ActorField):
    """Documented as a seat number or "table"/"server"."""

    def _jsonschema_type_mapping(self) -> dict[str, Any]:
        return {"oneOf": [{"type": "integer", "minimum": 0},
                          {"type": "string", "enum": ["table", "server"]}]}


class ErrorBody(Schema):
    kind = fields.String()
    code = fields.String(required=True)
    message = fields.String(required=True)
    details = fields.Dict()


class ErrorSchema(Schema):
    """Every error: {"error": {"code", "message", "details"}}."""

    error = fields.Nested(ErrorBody, required=True)


class EnvelopeSchema(Schema):
    """A stored event exactly as hashed (a redacted one has replaced data and no salt)."""

    game_id = fields.String(required=True)
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Raw(required=True, metadata={"description": 'seat number, "table" or '
                                                 '"server"'})
    data = fields.Dict(required=True)
    recorded_at = fields.String(required=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True)
    salt = fields.String()
    idempotency_key = fields.String(allow_none=True)


class ResultSchema(Schema):
    scores = fields.List(fields.Raw(), required=True)
    winners = fields.List(fields.Integer(), required=True)
    reason = fields.String(allow_none=True)
    breakdown = fields.Dict()


class StateSchema(Schema):
    """The state document (the same as `chronicle state --json`)."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seq = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    view = fields.Dict(required=True)
    result = fields.Nested(ResultSchema, allow_none=True, required=True)
    to_act = fields.List(fields.Raw())
    mode = fields.String()
    players = fields.List(fields.String())
    can_undo = fields.Boolean()
    can_redo = fields.Boolean()
    last_seq = fields.Integer()
    audit = fields.String(allow_none=True, metadata={
        "description": '"ok" or "failed" after the last verify (null: never verified)'})


class RecordedSchema(Schema):
    event = fields.Nested(EnvelopeSchema, required=True)
    state = fields.Nested(StateSchema, required=True)
    correction = fields.List(fields.Dict(), metadata={
        "description": "after a correction: later events now illegal or changed"})


class CompareSchema(Schema):
    agree = fields.Boolean(required=True)
    index = fields.Integer(allow_none=True)
    a = fields.Dict(allow_none=True)
    b = fields.Dict(allow_none=True)
    message = fields.String(required=True)


class StatsSchema(Schema):
    games = fields.Dict(required=True)
    total_games = fields.Integer(required=True)


class ReauditSchema(Schema):
    games = fields.List(fields.Dict(), required=True)
    changed = fields.Integer(required=True)


class CreatedSchema(Schema):
    id = fields.String(required=True)
    recorder_token = fields.String(required=True)
    seat_tokens = fields.List(fields.String(), required=True)


class ForkSchema(Schema):
    at = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                        metadata={"description": "the step (seq) to explore from"})


class GameSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    rules_version = fields.String()
    players = fields.List(fields.String(), required=True)
    mode = fields.String()
    edition_name = fields.String()
    edition_sha256 = fields.String()
    created_at = fields.String()
    title = fields.String(allow_none=True)
    notes = fields.String(allow_none=True)
    status = fields.String()
    result = fields.Dict(allow_none=True)
    audit = fields.String(allow_none=True)
    origin = fields.Dict(allow_none=True, metadata={
        "description": "a fork's origin: {game_id, seq, hash, copied} (null otherwise)"})
    last_seq = fields.Integer()


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema), required=True)
    total = fields.Integer(required=True)
    next = fields.String(allow_none=True, required=True)


class GameQuerySchema(Schema):
    game = fields.String(load_default=None)
    player = fields.String(load_default=None)
    status = fields.String(load_default=None,
                           validate=validate.OneOf(["in_progress", "finished"]))
    created_from = fields.String(load_default=None, data_key="from")
    created_to = fields.String(load_default=None, data_key="to")
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=10**9))


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=-1, validate=validate.Range(min=-1, max=2**62))
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=5000))


class EventListSchema(Schema):
    events = fields.List(fields.Nested(EnvelopeSchema), required=True)
    annotations = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)
    next = fields.String(allow_none=True, required=True)


class StateQuerySchema(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=0, max=2**62))


class ChanceSlotSchema(Schema):
    field = fields.String(required=True)
    path = fields.List(fields.Raw(), required=True)
    options = fields.List(fields.Raw(), required=True)
    many = fields.Boolean(required=True)
    count = fields.Integer(allow_none=True, required=True)
    label = fields.String(required=True)
    groups = fields.List(fields.Dict(), metadata={
        "description": "optional: the options for two taps, [{label, items: [{label, values}]}]"
                       " (GameRules.chance_slots)"})


class LegalSchema(Schema):
    actions = fields.List(fields.Nested(ActionSchema), required=True)
    chance_slots = fields.Dict(keys=fields.String(), values=fields.List(
        fields.Nested(ChanceSlotSchema)), metadata={
        "description": "table mode, recorder: by action index, the chance outcomes to pick"})


class ProblemSchema(Schema):
    seq = fields.Integer(allow_none=True)
    code = fields.String()
    message = fields.String()


class VerifySchema(Schema):
    ok = fields.Boolean(required=True)
    first_bad_seq = fields.Integer(allow_none=True, required=True)
    problems = fields.List(fields.Nested(ProblemSchema), required=True)
    events = fields.Integer()
    checked = fields.Integer()
    result = fields.Dict(allow_none=True)


class EditionSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    sha256 = fields.String(required=True)
    added_at = fields.String()


class EditionListSchema(Schema):
    editions = fields.List(fields.Nested(EditionSchema), required=True)


class EditionQuerySchema(Schema):
    game = fields.String(load_default=None)


class NewEditionSchema(Schema):
    """An edition file's content under "content", with an optional name."""

    content = fields.Dict(required=True)
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=80))
