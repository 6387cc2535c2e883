"""marshmallow schemas of every API request and response: the source of /openapi.json.

Request bodies are parsed by the API itself (so malformed or hostile JSON is a clean 400,
never a 500) and validated by the recorder's schemas in `events.schemas`; the request
schemas here re-export those for the OpenAPI document.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from events.recorder import (
    MAX_DEPTH,
    MAX_INT,
    MAX_SEAT,
    ActionSchema,
    ActorField,
    NewGameSchema,
)
from projections import GAMES, get_rules
from projections.errors import ChronicleError

__all__ = ["ActionSchema", "NewGameSchema"]

#: every game chronicle knows, by slug (the registry in projections is the one list)
GAME_SLUGS = sorted(GAMES)


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
    state = fields.Nested(StateSchema, metadata={
        "description": "the state after the event; left out under `Prefer: return=minimal`"})
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
    games = fields.List(fields.Dict(), required=True, metadata={
        "description": "per game: whether its legality, result or states changed, and "
                       "`rulings`, every change in effect recorded outside card text "
                       "(`{seq, actor, reason, message}`, as in the verify report)"})
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


_FILTER = ("a game's slug: " + ", ".join(GAME_SLUGS) + " (another value matches no game)")


class GameQuerySchema(Schema):
    game = fields.String(load_default=None, metadata={"description": _FILTER})
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
    at_least = fields.Integer(metadata={
        "description": "optional, with count null: the fewest picks the rules accept"})
    label = fields.String(required=True)
    groups = fields.List(fields.Dict(), metadata={
        "description": "optional: the options for two taps, [{label, items: [{label, values}]}]"
                       " (GameRules.chance_slots)"})


class LegalSchema(Schema):
    actions = fields.List(fields.Nested(ActionSchema), required=True)
    chance_slots = fields.Dict(keys=fields.String(), values=fields.List(
        fields.Nested(ChanceSlotSchema)), metadata={
        "description": "table mode, recorder: by action index, the chance outcomes to pick"})


class Whole(validate.Regexp):
    """A pattern the whole string must match, as JSON Schema reads `^...$`: Python's `$`
    also matches before a final newline, which the document's pattern refuses."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


#: the longest `picks` query (characters); see ChoicesQuerySchema
PICKS_MAX = 2_500


class ChoicesQuerySchema(Schema):
    # the whole request line fits gunicorn's limit (api/serving.REQUEST_LINE_LIMIT, 8190
    # bytes) for every length documented here: an action type is a short snake_case name,
    # and picks are ASCII JSON (other characters escaped as \uXXXX), each character at most
    # 3 bytes percent-encoded; the longest picks of the recorded games are 1,576 characters
    type = fields.String(validate=Whole(r"^[a-z][a-z0-9_]{0,59}$"), metadata={
        "description": "the action type to build; without it, the types open now"})
    actor = fields.String(validate=Whole(r"^([0-9]{1,3}|table)$"), metadata={
        "description": "a seat number or `table`; default: the only actor of the token's "
                       "scope to whom the move is open"})
    picks = fields.String(load_default="[]", validate=[
        validate.Length(max=PICKS_MAX), Whole(r"^[ -~]*$")], metadata={
        "description": "the answers so far, a JSON array in ASCII (escape other characters as "
                       "`\\uXXXX`): each `{\"choice\": id, \"value\": v}` (an option's value) "
                       "or `{\"choice\": id, \"end\": true}` (ends a list)"})


class OptionSchema(Schema):
    value = fields.Raw(required=True, metadata={"description": "what a pick of it answers"})
    label = fields.String(required=True, metadata={"description": "what its button says"})
    detail = fields.String(metadata={"description": "the printed values beside it"})
    group = fields.String(metadata={"description": "the heading it is shown under"})


class ChoiceSchema(Schema):
    id = fields.String(required=True, metadata={"description": "the place in the data it "
                                                 "fills, e.g. `spend` or `draws.0.card`"})
    prompt = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["one", "subset", "sequence",
                                                                 "tally"]))
    options = fields.List(fields.Nested(OptionSchema), required=True, metadata={
        "description": "exactly the options that can still complete a legal move"})
    can_end = fields.Boolean(metadata={"description": "a list: what is picked may end it now"})
    fewest = fields.Integer(allow_none=True)
    most = fields.Integer(allow_none=True)


class OpeningSchema(Schema):
    type = fields.String(required=True)
    actor = Actor(required=True)
    label = fields.String(required=True, metadata={"description": "what its button says"})


class ChoicesSchema(Schema):
    actions = fields.List(fields.Nested(OpeningSchema), metadata={
        "description": "without `type`: the action types open now to the token's scope"})
    type = fields.String()
    actor = Actor()
    label = fields.String()
    picks = fields.List(fields.Dict())
    choice = fields.Nested(ChoiceSchema, allow_none=True, metadata={
        "description": "what is asked next; null once the move is complete"})
    complete = fields.Boolean()
    move = fields.Nested(ActionSchema, allow_none=True, metadata={
        "description": "the move ready to POST to /events: once complete, or when ending "
                       "the open list now would complete it"})
    sentence = fields.String(allow_none=True, metadata={
        "description": "the sentence the move will be recorded as"})


class ProblemSchema(Schema):
    seq = fields.Integer(allow_none=True)
    code = fields.String()
    message = fields.String()


class RulingSchema(Schema):
    """One change recorded outside card text (issue #30): at a Thrones table, a free-form
    `effect` the recorder recorded as a ruling, with its reason."""

    seq = fields.Integer(required=True, metadata={"description": "the event's step"})
    actor = fields.Raw(required=True, metadata={
        "description": 'who ruled: "table" (the recorder), or a seat index for an effect a '
                       "seat recorded before rulings were the table's"})
    reason = fields.String(allow_none=True, required=True, metadata={
        "description": "the reason the recorder gave, as typed (\"\" when none); null for a "
                       "viewer who may not see every card while the game runs"})
    message = fields.String(metadata={
        "description": "the ruling in a sentence, in the request's language"})


class VerifySchema(Schema):
    ok = fields.Boolean(required=True)
    first_bad_seq = fields.Integer(allow_none=True, required=True)
    problems = fields.List(fields.Nested(ProblemSchema), required=True)
    events = fields.Integer()
    checked = fields.Integer()
    result = fields.Dict(allow_none=True)
    rulings = fields.List(fields.Nested(RulingSchema), metadata={
        "description": "every change in effect recorded outside card text, in log order: "
                       "the rules' rulings (its length is their count); a ruling is not a "
                       "problem, the record still verifies"})


class EditionSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    sha256 = fields.String(required=True)
    added_at = fields.String()


class EditionListSchema(Schema):
    editions = fields.List(fields.Nested(EditionSchema), required=True)


class EditionQuerySchema(Schema):
    """The editions of one game: the server refuses a slug it does not know (422)."""

    game = fields.String(load_default=None, metadata={"enum": GAME_SLUGS})


class GameFilterSchema(Schema):
    """Statistics and re-audits of one game: a filter, so any slug is a question."""

    game = fields.String(load_default=None, metadata={"description": _FILTER})


class NewEditionSchema(Schema):
    """An edition file's content under "content", with an optional name."""

    content = fields.Dict(required=True)
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=80))


# -- what marshmallow cannot say: refinements of the request documents ---------------------
# Each fact comes from where the server checks it (events.schemas, projections.GAMES), so the
# document cannot drift from the checks: a request the document allows is one the server
# takes, and what the server refuses for its shape the document forbids.

#: If-Match as `if_match()` reads it: "*", or the ETag (a seq of 1 to 18 ASCII digits), its
#: quotes and a W/ prefix optional; blanks around it are ignored
IF_MATCH_PATTERN = r'^\s*(\*|(W/)?"*[0-9]{1,18}"*)\s*$'
IDEMPOTENCY_KEY_MAX = 200


def if_match_header() -> dict[str, Any]:
    return {"in": "header", "name": "If-Match", "required": False,
            "description": 'the ETag of the state the client saw (its last seq, e.g. "12"); '
                           "a stale one is refused with 409 and nothing is stored",
            "schema": {"type": "string", "pattern": IF_MATCH_PATTERN, "example": '"12"'}}


def prefer_header() -> dict[str, Any]:
    """RFC 7240's Prefer header, as POST /events honours it."""
    return {"name": "Prefer", "in": "header", "required": False,
            "description": "`return=minimal`: answer `{\"event\"}` alone, without the state "
                           "document (the answer says `Preference-Applied: return=minimal`)",
            "schema": {"type": "string", "maxLength": 200}}


def idempotency_header() -> dict[str, Any]:
    return {"in": "header", "name": "Idempotency-Key", "required": False,
            "description": "a retry with the same key answers the stored action instead of "
                           "recording it twice",
            "schema": {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX,
                       "pattern": r"^\S(.*\S)?$"}}


#: any value JSON carries faithfully (events.schemas.check_json_text): integers within 64 bits
JSON_VALUE_REF = {"$ref": "#/components/schemas/JsonValue"}


def json_value_schema() -> dict[str, Any]:
    """The JsonValue component: what the server stores of a value it does not interpret."""
    return {"description": "any JSON value chronicle keeps exact: integers within 64 bits, "
                           f"nesting up to {MAX_DEPTH} levels, text without lone surrogates",
            "nullable": True,
            "anyOf": [{"type": "boolean"}, {"type": "string"},
                      {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT - 1},
                      {"type": "number", "not": {"type": "integer"}},
                      {"type": "array", "items": JSON_VALUE_REF},
                      {"type": "object", "additionalProperties": JSON_VALUE_REF}]}


def _any_value(description: str) -> dict[str, Any]:
    return {"allOf": [JSON_VALUE_REF], "description": description}


def actor_schema() -> dict[str, Any]:
    """A seat index below MAX_SEAT, "table" or "server" (events.schemas.ActorField)."""
    return {"description": 'a seat number (0-based), "table" or "server"',
            "oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEAT - 1},
                      {"type": "string", "enum": ["table", "server"]}]}


def _words(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _count_schema(counts: Sequence[int]) -> dict[str, Any]:
    """minItems/maxItems when the counts run without a gap, else one branch per count."""
    low, high = min(counts), max(counts)
    if list(counts) == list(range(low, high + 1)):
        return {"minItems": low, "maxItems": high}
    return {"anyOf": [{"minItems": n, "maxItems": n} for n in counts]}


def _refusal(slug: str, options: Mapping[str, Any]) -> str | None:
    """Why the rules of `slug` refuse a new game with these options (None: they take it).

    The document asks the rules instead of repeating them: a switch they refuse to turn
    (Royals' Arcane Wonders deck is an edition, not an option) is documented as fixed."""
    cls = GAMES[slug]
    created = {"game": slug, "players": [f"p{n}" for n in range(min(cls.player_counts))],
               "mode": "table", "options": dict(options), "seed_commitment": None,
               "rules_version": cls.rules_version}
    try:
        get_rules(slug).initial_state(created)
    except ChronicleError as err:
        return err.message
    except (KeyError, TypeError, ValueError) as err:
        return str(err)
    return None


def _option_schema(slug: str, path: tuple[str, ...], default: Any) -> dict[str, Any]:
    """One option, as its default describes it. A nested mapping of defaults (Royals'
    variants) lists its keys (another key is refused like an unknown option); a switch the
    rules will not turn is documented at its default, with their reason."""
    if isinstance(default, Mapping):
        switches = {"type": "object", "additionalProperties": False,
                    "properties": {str(k): _option_schema(slug, (*path, str(k)), v)
                                   for k, v in default.items()}}
        return {"nullable": True, "anyOf": [switches, {"type": "boolean", "enum": [False]}],
                "description": f"default {_words(default)}; false or null: the defaults"}
    if isinstance(default, bool):
        refused = _refusal(slug, _with(GAMES[slug].default_options, path, not default))
        if refused is not None and _refusal(slug, GAMES[slug].default_options) is None:
            return {"type": "boolean", "enum": [default],
                    "description": f"only {_words(default)}: {refused}"}
    return _any_value(f"default {_words(default)}")


def _with(options: Mapping[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """`options` with the value at `path` replaced (nested mappings copied, never changed)."""
    head, *rest = path
    inner = value if not rest else _with(options.get(head) or {}, tuple(rest), value)
    return {**options, head: inner}


def _players_words(counts: Sequence[int]) -> str:
    low, high = min(counts), max(counts)
    if low == high:
        return f"{low} player" + ("" if low == 1 else "s")
    return f"{low} to {high} players"


def game_branch(slug: str) -> dict[str, Any]:
    """What one game takes at creation: its slug, its player counts, its options."""
    cls = GAMES[slug]
    options = dict(cls.default_options)
    known = ", ".join(f"{k} (default {_words(v)})" for k, v in options.items()) or "none"
    return {
        "title": cls.title,
        "description": f"{cls.title}: {_players_words(cls.player_counts)}; options: {known}",
        "properties": {
            "game": {"type": "string", "enum": [slug]},
            "players": _count_schema(cls.player_counts),
            "options": {"type": "object", "additionalProperties": False,
                        "properties": {k: _option_schema(slug, (k,), v)
                                       for k, v in options.items()}},
        },
    }


def new_game_refinements() -> dict[str, Any]:
    """Merged into the NewGame document marshmallow makes from events.schemas.NewGameSchema:
    one branch per game, and the rule that a seed is only for digital play."""
    return {
        "description": "A new game: which game, the players in seat order, table or digital "
                       "play. The player count and the options are the game's own (one "
                       "branch per game below).",
        "oneOf": [game_branch(slug) for slug in GAME_SLUGS],
        "anyOf": [{"title": "digital play", "required": ["mode"],
                   "properties": {"mode": {"type": "string", "enum": ["digital"]}}},
                  {"title": "no seed", "properties": {"seed": {
                      "type": "string", "nullable": True, "enum": [None]}}}],
    }


def refine_new_game(document: dict[str, Any]) -> None:
    """The property schemas marshmallow leaves loose: the game slug, the seed's range."""
    props = document["properties"]
    props["game"] = {"type": "string", "enum": GAME_SLUGS}
    props["options"]["description"] = "the game's options by name (see the branch of the game)"
    props["options"]["additionalProperties"] = JSON_VALUE_REF
    props["seed"]["oneOf"] = [{"type": "string", "maxLength": 200},
                              {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT - 1}]


def refine_action(document: dict[str, Any]) -> None:
    document["properties"]["actor"] = actor_schema()
    document["properties"]["data"]["additionalProperties"] = JSON_VALUE_REF
    document["description"] = ("One action: its type and data are the game's (GET "
                               "/games/{game_id}/choices builds them choice by choice, GET "
                               "/games/{game_id}/legal-actions lists those allowed now). A "
                               "Thrones card's ability: `use_ability` {card, ability, "
                               "choices}; a ruling by a Thrones table: `effect` by actor "
                               '"table" with its `reason` (POST /games/{game_id}/events)')


def refine_new_edition(document: dict[str, Any]) -> None:
    """An edition names its game: without a known slug the server cannot check it."""
    document["properties"]["content"] = {
        "type": "object", "required": ["slug"],
        "properties": {"slug": {"type": "string", "enum": GAME_SLUGS}},
        "description": "the edition file: the game's slug and its component data, checked "
                       "against that game's edition schema (400 naming each problem)"}
