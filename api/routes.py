"""The routes of docs/design.md, "CLI and HTTP": each reads the request, calls one service
function, dumps."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlencode

import swagger_ui_bundle
from flask import (
    Flask,
    Response,
    current_app,
    jsonify,
    request,
    send_from_directory,
    stream_with_context,
)
from flask.views import MethodView
from flask_smorest import Api, Blueprint
from marshmallow import Schema
from werkzeug.routing import BaseConverter

from events.recorder import (
    Access,
    GameFilter,
    InvalidEvent,
    Unauthorized,
    check_depth,
    load_request,
)
from projections.messages import localise

from . import schemas as s
from .i18n import reader_language
from .service import bearer, recorder
from .web import web

blp = Blueprint("games", __name__, description="Games, their event logs, states and audits")
editions_blp = Blueprint("editions", __name__, description="Editions: component data")

F = TypeVar("F", bound=Callable[..., Any])


def query_arguments(schema: Schema) -> Callable[[F], F]:
    """`blp.arguments(schema)` of the query string, documented and checked alike, but with
    no query string the view gets the schema's defaults without webargs' parse (what the
    parse would give: every field missing). Issue #34: a cached GET state asks with none,
    and the parse was a tenth of its time in the app."""
    def decorator(func: F) -> F:
        parsed = blp.arguments(schema, location="query", error_status_code=400)(func)
        if any(f.required for f in schema.fields.values()):
            return cast(F, parsed)  # an empty query string is webargs' to refuse

        @wraps(parsed)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if request.query_string:
                return parsed(*args, **kwargs)
            return func(*args, schema.load({}), **kwargs)
        return cast(F, wrapper)
    return decorator

#: one server-sent event (OpenAPI 3.0: the schema of a text/event-stream is each event's)
SSE_EVENT = {"type": "object", "properties": {
    "id": {"type": "string", "description": "the event's seq"},
    "event": {"type": "string", "enum": ["chronicle"]},
    "data": {"type": "string", "description": 'JSON: {"event": <envelope>, "annotation": {}}'},
    "retry": {"type": "integer"}}}

#: a game made by POST /games, POST /games/import or a fork leads to every operation on it, with
#: the recorder token that came with it: what API tools need to follow a game from its creation
_AS_RECORDER = "Bearer {$response.body#/recorder_token}"
_GAME_OPERATIONS = {
    "getGame": "its summary", "listEvents": "its event log", "recordAction": "record an action",
    "streamEvents": "its event stream", "undo": "undo its latest action",
    "redo": "redo the action last undone", "getState": "its state",
    "legalActions": "the actions legal now", "choices": "its moves, choice by choice",
    "exportGame": "its log as JSON Lines",
    "verifyGame": "audit it", "forkGame": "explore it from a step",
}
#: what a link gives besides the game and the token: a fork starts at a step the game has (its
#: creation, step 0, every game has)
_LINK_BODIES: dict[str, Any] = {"forkGame": {"at": 0}}
GAME_LINKS: dict[str, Any] = {
    **{op: {"operationId": op, "description": f"the new game: {what} (as its recorder)",
            "parameters": {"game_id": "$response.body#/id", "header.Authorization": _AS_RECORDER},
            **({"requestBody": _LINK_BODIES[op]} if op in _LINK_BODIES else {})}
       for op, what in _GAME_OPERATIONS.items()},
    "compareGames": {"operationId": "compareGames",
                     "description": "the new game compared with itself (they agree)",
                     "parameters": {"game_id": "$response.body#/id",
                                    "other_id": "$response.body#/id",
                                    "header.Authorization": _AS_RECORDER}},
}
#: JSON Lines as `chronicle export` writes them; the server reads the body as text whatever its
#: Content-Type says, so plain text is documented too (what most tools can send)
JSON_LINES = {"type": "string", "description": "one envelope per line, exactly as exported "
              "(GET /games/{game_id}/export): the file must verify to be imported"}


class GameIdConverter(BaseConverter):
    """A game id in /games/<id>: any one segment except the name of the route beside it, so
    GET /games/import is the 405 its Allow header says (not a lookup of a game "import")."""

    regex = r"(?!import$)[^/]+"


def _game_id_schema(converter: BaseConverter) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "description": "a game id (from POST /games)"}


# -- request helpers ------------------------------------------------------------------
def json_body() -> Any:
    """The request body as JSON, or a 400 naming what is wrong (never a 500)."""
    raw = request.get_data(cache=True)
    if not raw:
        raise InvalidEvent("malformed", "the request body is empty; send a JSON object")
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as err:
        raise InvalidEvent("malformed", f"the request body is not JSON ({_short(err)})"
                           ) from None
    check_depth(value, "the JSON")
    if not isinstance(value, dict):
        raise InvalidEvent("malformed", "the request body must be a JSON object")
    return value


def _short(err: Exception) -> str:
    return str(err).split("\n", 1)[0][:120]


def json_picks(text: str) -> list[Any]:
    """The `picks` query parameter: a JSON array of answers (400 when it is not one)."""
    try:
        picks = json.loads(text)
    except (ValueError, RecursionError):
        raise InvalidEvent("malformed", "picks must be a JSON array of answers") from None
    if not isinstance(picks, list):
        raise InvalidEvent("malformed", "picks must be a JSON array of answers")
    check_depth(picks, "picks")
    return picks


def access(game_id: str) -> Access:
    return recorder().access(game_id, bearer())


def if_match() -> int | None:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise InvalidEvent("malformed", "If-Match must be the ETag of the state: a seq "
                           'number in quotes, e.g. "12"')
    return int(text)


def prefers_minimal() -> bool:
    """RFC 7240: `Prefer: return=minimal` asks for the stored envelope without the state
    document (the default answer carries both). Other preferences are ignored."""
    for header in request.headers.getlist("Prefer"):
        for preference in header.split(","):
            asked = preference.split(";", 1)[0].strip().lower().replace(" ", "")
            if asked in ("return=minimal", 'return="minimal"'):
                return True
    return False


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise InvalidEvent("malformed", "Idempotency-Key must be 1 to 200 characters")
    return key


T = TypeVar("T")


def render_state(doc: dict[str, Any]) -> bytes:
    """A state document as the response body flask-smorest would write for it."""
    return bytes(jsonify(s.StateSchema().dump(doc)).get_data())


def with_etag(payload: Any, seq: int, status: int = 200) -> Any:
    return localised(payload), status, {"ETag": f'"{seq}"'}


def localised(payload: T) -> T:
    """The document with its sentences in the request's language, before a response schema
    dumps it (its String fields keep only the text, which is the English; api/i18n.py)."""
    shown: T = localise(payload, reader_language())
    return shown


# -- games ------------------------------------------------------------------------------
@blp.route("/games")
class Games(MethodView):
    @blp.doc(operationId="listGames")
    @query_arguments(s.GameQuerySchema())
    @blp.response(200, s.GameListSchema)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List games, newest first; filter by game, player name, status and date range."""
        rows, total = recorder().list_games(GameFilter(**query))
        end = query["offset"] + len(rows)
        nxt = None
        if end < total:
            args = {**{k: v for k, v in request.args.items()}, "offset": end}
            nxt = f"/games?{urlencode(args)}"
        return {"games": rows, "total": total, "next": nxt}

    @blp.doc(operationId="createGame", requestBody={"required": True, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/NewGame"}}}},
        responses={"201": {"links": GAME_LINKS}})
    @blp.response(201, s.CreatedSchema)
    @blp.alt_response(400, schema=s.ErrorSchema, description="malformed request")
    @blp.alt_response(422, schema=s.ErrorSchema, description="unknown game, wrong player count")
    def post(self) -> dict[str, Any]:
        """Create a game. The tokens are shown once: chronicle keeps only their hashes."""
        created = recorder().create_game(json_body())
        return {"id": created.id, "recorder_token": created.recorder_token,
                "seat_tokens": created.seat_tokens}


@blp.route("/games/import")
class ImportGame(MethodView):
    @blp.doc(operationId="importGame", requestBody={"required": True, "content": {
        "application/x-ndjson": {"schema": JSON_LINES}, "text/plain": {"schema": JSON_LINES}}},
        responses={"201": {"links": GAME_LINKS}})
    @blp.response(201, s.CreatedSchema)
    @blp.alt_response(400, schema=s.ErrorSchema, description="not JSON Lines")
    @blp.alt_response(409, schema=s.ErrorSchema, description="a game with this id exists")
    @blp.alt_response(422, schema=s.ErrorSchema, description="the file does not verify")
    def post(self) -> dict[str, Any]:
        """Import an exported game (JSON Lines); refused unless it verifies."""
        request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
        text = request.get_data(as_text=True)
        created = recorder().import_lines(text.splitlines())
        return {"id": created.id, "recorder_token": created.recorder_token,
                "seat_tokens": created.seat_tokens}


@blp.route("/games/<game_ref:game_id>")
class Game(MethodView):
    @blp.doc(operationId="getGame")
    @blp.response(200, s.GameSchema)
    @blp.alt_response(404, schema=s.ErrorSchema, description="unknown game")
    def get(self, game_id: str) -> dict[str, Any]:
        """One game's summary (players, mode, edition, status, result, audit)."""
        rec = recorder()
        access(game_id)
        return {**rec.game(game_id), "last_seq": rec.last_seq(game_id)}


@blp.route("/games/<game_id>/fork")
class Fork(MethodView):
    @blp.doc(operationId="forkGame", responses={"201": {"links": GAME_LINKS}})
    @blp.arguments(s.ForkSchema(), error_status_code=400)
    @blp.response(201, s.CreatedSchema)
    @blp.alt_response(403, schema=s.ErrorSchema, description="the game still hides cards from "
                      "this caller (fork a finished game, or a table game as its recorder)")
    @blp.alt_response(404, schema=s.ErrorSchema, description="unknown game")
    @blp.alt_response(422, schema=s.ErrorSchema, description="the game has no such step")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Explore "what if?" from a step: a new table game replaying this one up to `at`."""
        created = recorder().fork(game_id, body["at"], access(game_id))
        return {"id": created.id, "recorder_token": created.recorder_token,
                "seat_tokens": created.seat_tokens}


@blp.route("/games/<game_id>/events")
class Events(MethodView):
    @blp.doc(operationId="listEvents")
    @query_arguments(s.EventsQuerySchema())
    @blp.response(200, s.EventListSchema)
    @blp.alt_response(404, schema=s.ErrorSchema, description="unknown game")
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The event log after `after`, as the token may see it (hidden draws redacted)."""
        rec = recorder()
        events, notes = rec.history(game_id, query["after"], query["limit"], access(game_id))
        last = rec.last_seq(game_id)
        nxt = None
        if events and events[-1]["seq"] < last:
            nxt = f"/games/{game_id}/events?after={events[-1]['seq']}&limit={query['limit']}"
        return with_etag({"events": events, "annotations": {str(k): v for k, v in notes.items()},
                          "next": nxt}, last)

    @blp.doc(operationId="recordAction", requestBody={"required": True, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Action"}}}},
        parameters=[s.if_match_header(), s.idempotency_header(), s.prefer_header()])
    @blp.response(201, s.RecordedSchema)
    @blp.alt_response(400, schema=s.ErrorSchema, description="malformed action")
    @blp.alt_response(401, schema=s.ErrorSchema, description="no or bad token")
    @blp.alt_response(403, schema=s.ErrorSchema, description="another seat's action")
    @blp.alt_response(409, schema=s.ErrorSchema, description="stale If-Match")
    @blp.alt_response(422, schema=s.ErrorSchema, description="illegal action")
    def post(self, game_id: str) -> Any:
        """Record one action; refused (and nothing stored) unless the rules allow it now.

        The `type` and `data` are the game's; GET /games/{game_id}/choices builds them choice
        by choice. **A Thrones card's ability** is recorded as `use_ability`, data `{"card",
        "ability", "choices"}`: the source (a card id, `plot:<seat>`, `title:<id>` or
        `house:<seat>`), the ability's id on it and its targets and payments by name
        (`?type=use_ability` offers only those that can complete a legal move). The rules
        check that the source is the actor's and in its zone, that the ability's window is
        open, its condition holds, its limit is not reached, the targets match and the cost
        can be paid, then apply the card's own ops; each refusal is a 422 naming the card
        (`not_in_zone`, `outside_window`, `condition_failed`, `limit_reached`,
        `wrong_target`, `cannot_pay`). Triggered abilities (responses) are answered in
        their own windows as the rules open them. **A ruling**: what no card text covers is
        a free-form `effect`, which at a table only the recorder records (actor `"table"`,
        a required `reason`), read "Ruling by the table: ..." and counted and listed by GET
        /games/{game_id}/verify (`rulings`); in digital play it is refused
        (`effect_not_allowed`)."""
        who = access(game_id)
        minimal = prefers_minimal()
        recorded = recorder().record(game_id, json_body(), expected_seq=if_match(),
                                     idempotency_key=idempotency_key(), access=who,
                                     minimal=minimal)
        payload: dict[str, Any] = {"event": recorded.event}
        if not minimal:
            payload["state"] = recorded.state
        if recorded.correction_report is not None:
            payload["correction"] = recorded.correction_report
        headers = {"ETag": f'"{recorded.last_seq}"'}
        if minimal:
            headers["Preference-Applied"] = "return=minimal"
        return payload, 201, headers


@blp.route("/games/<game_id>/events/stream")
class Stream(MethodView):
    @blp.doc(operationId="streamEvents",
             responses={"200": {"description": "text/event-stream of envelopes",
                                "content": {"text/event-stream": {"schema": SSE_EVENT}}}})
    def get(self, game_id: str) -> Response:
        """Server-sent events: every new event as `event: chronicle`, then the stream closes.

        A stream lives at most STREAM_SECONDS (default 25 s) so no worker is held forever;
        browsers' EventSource reconnects by itself with Last-Event-ID and misses nothing.
        """
        who = access(game_id)
        after = _last_event_id()
        rec = recorder()
        rec.cursor(game_id)  # refuse now (unknown game, corrupt log), not mid-stream
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        return Response(stream_with_context(_stream(app, game_id, after, who)),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _last_event_id() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "-1"
    try:
        return max(-1, int(raw))
    except ValueError:
        raise InvalidEvent("malformed", "after / Last-Event-ID must be a seq number") from None


def _stream(app: Flask, game_id: str, after: int, who: Access) -> Iterator[str]:
    deadline = time.monotonic() + app.config["STREAM_SECONDS"]
    yield "retry: 1000\n\n"
    while True:
        rec = recorder()
        events, notes = rec.history(game_id, after, 200, who)
        for env in events:
            payload = {"event": env, "annotation": notes.get(env["seq"], {})}
            yield f"id: {env['seq']}\nevent: chronicle\ndata: {json.dumps(payload)}\n\n"
            after = env["seq"]
        if time.monotonic() >= deadline:
            return
        if not events:
            rec.wait_for_event(game_id, after, min(
                app.config["STREAM_POLL_SECONDS"] * 20, max(0.0, deadline - time.monotonic())))
            yield ": keep-alive\n\n"


@blp.route("/games/<game_id>/undo")
class Undo(MethodView):
    @blp.doc(operationId="undo", parameters=[s.if_match_header()])
    @blp.response(201, s.RecordedSchema)
    @blp.alt_response(409, schema=s.ErrorSchema, description="stale If-Match")
    @blp.alt_response(422, schema=s.ErrorSchema, description="nothing to undo, or the policy "
                      "refuses")
    def post(self, game_id: str) -> Any:
        """Retract the latest effective action (table: anything; digital: own, unrevealing)."""
        recorded = recorder().undo(game_id, access=_recording(game_id), expected_seq=if_match())
        return with_etag({"event": recorded.event, "state": recorded.state},
                         recorded.state["last_seq"], 201)


@blp.route("/games/<game_id>/redo")
class Redo(MethodView):
    @blp.doc(operationId="redo", parameters=[s.if_match_header()])
    @blp.response(201, s.RecordedSchema)
    @blp.alt_response(422, schema=s.ErrorSchema, description="nothing to redo")
    def post(self, game_id: str) -> Any:
        """Re-apply the most recently undone action."""
        recorded = recorder().redo(game_id, access=_recording(game_id), expected_seq=if_match())
        return with_etag({"event": recorded.event, "state": recorded.state},
                         recorded.state["last_seq"], 201)


def _recording(game_id: str) -> Access:
    who = access(game_id)
    if who.role == "spectator":
        recorder().game(game_id)  # an unknown game is a 404 first
        raise Unauthorized("token_required", "undo and redo need a recorder or seat token")
    return who


@blp.route("/games/<game_id>/state")
class State(MethodView):
    @blp.doc(operationId="getState")
    @query_arguments(s.StateQuerySchema())
    @blp.response(200, s.StateSchema)
    @blp.alt_response(404, schema=s.ErrorSchema, description="unknown game or step")
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The state at step `at` (default: now) as the token may see it; ETag = last seq.

        The answer is rendered once per (step, last seq, viewer's scope, reader's language)
        and kept until the log grows (events/documents.py): the same bytes the schema's dump
        of the localised document would give."""
        lang = reader_language()
        body, last = recorder().rendered_state(
            game_id, query["at"], access(game_id), f"json:{lang}",
            lambda doc: render_state(localise(doc, lang)))
        return Response(body, mimetype="application/json", headers={"ETag": f'"{last}"'})


@blp.route("/games/<game_id>/legal-actions")
class Legal(MethodView):
    @blp.doc(operationId="legalActions")
    @blp.response(200, s.LegalSchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """Legal actions now (a seat token: only its own; spectators: none).

        In table mode the recorder also gets `chance_slots`: by the index of an action, the
        chance outcomes it needs and what each may still be, so a tablet offers the cards
        to tap instead of a field to type ids in.
        """
        actions, slots = recorder().legal_with_slots(game_id, access(game_id))
        return localised({"actions": actions, "chance_slots": slots})


@blp.route("/games/<game_id>/choices")
class Choices(MethodView):
    @blp.doc(operationId="choices")
    @query_arguments(s.ChoicesQuerySchema())
    @blp.response(200, s.ChoicesSchema)
    @blp.alt_response(422, schema=s.ErrorSchema, description="a pick not offered, a move "
                      "not open to this token now")
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Build a move choice by choice (every legal move, and only legal ones).

        Without `type`: the action types open now to the token (a seat: its own; the
        digital recorder: the table's; the table recorder: every seat's). With `type` and
        the `picks` so far: what is asked next, each option labelled in words, and, once
        the move is complete, the move ready to POST and the sentence it will be recorded
        as. At a physical table the recorder also taps the chance outcomes (the cards
        seen) as choices. Reads only; stores nothing.
        """
        picks = json_picks(query["picks"])
        actor = query.get("actor")
        seat = int(actor) if actor is not None and actor.isdigit() else actor
        return localised(recorder().choices(game_id, access(game_id), query.get("type"), seat,
                                            picks))


@blp.route("/games/<game_id>/export")
class Export(MethodView):
    @blp.doc(operationId="exportGame", responses={"200": {"description": "JSON Lines of envelopes",
                                "content": {"application/x-ndjson": {"schema": {
                                    "type": "string"}}}}})
    def get(self, game_id: str) -> Response:
        """The log as JSON Lines, streamed (redacted for a seat while the game runs)."""
        who = access(game_id)
        rec = recorder()
        rec.game(game_id)
        return Response(stream_with_context(rec.export(game_id, who)),
                        mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})


@blp.route("/games/<game_id>/verify")
class Verify(MethodView):
    @blp.doc(operationId="verifyGame")
    @blp.response(200, s.VerifySchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """Audit: chain intact, every event re-applied, deals re-derived, result recomputed.

        `rulings` lists every change in effect recorded outside card text (a Thrones table's
        free-form `effect`, the recorder's ruling with its reason): counted and listed, not a
        problem."""
        return localised(recorder().verify(game_id, access(game_id)))


@blp.route("/games/<game_id>/compare/<other_id>")
class Compare(MethodView):
    @blp.doc(operationId="compareGames")
    @blp.response(200, s.CompareSchema)
    @blp.alt_response(422, schema=s.ErrorSchema, description="not records of the same game")
    def get(self, game_id: str, other_id: str) -> dict[str, Any]:
        """Align two records of the same physical game; the first event where they differ."""
        return localised(recorder().compare(game_id, other_id,
                                            (access(game_id), access(other_id))))


@blp.route("/stats")
class Stats(MethodView):
    @blp.doc(operationId="statistics")
    @blp.arguments(s.GameFilterSchema, location="query", error_status_code=400)
    @blp.response(200, s.StatsSchema)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Statistics across the archive (filter by game)."""
        return recorder().statistics(query["game"])


@blp.route("/reaudit")
class Reaudit(MethodView):
    @blp.doc(operationId="reaudit")
    @blp.arguments(s.GameFilterSchema, location="query", error_status_code=400)
    @blp.response(200, s.ReauditSchema)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Replay every stored game under today's reducers and report what changed."""
        reports = recorder().reaudit(query["game"])
        return {"games": reports, "changed": sum(r["changed"] for r in reports)}


# -- editions -----------------------------------------------------------------------------
@editions_blp.route("/editions")
class Editions(MethodView):
    @editions_blp.doc(operationId="listEditions")
    @editions_blp.arguments(s.EditionQuerySchema(), location="query", error_status_code=400)
    @editions_blp.response(200, s.EditionListSchema)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Every edition known (the shipped defaults and those registered)."""
        return {"editions": recorder().editions(query["game"])}

    @editions_blp.doc(operationId="addEdition", requestBody={"required": True, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/NewEdition"}}}})
    @editions_blp.response(201, s.EditionSchema)
    @editions_blp.alt_response(400, schema=s.ErrorSchema, description="not a usable edition")
    def post(self) -> dict[str, Any]:
        """Register an edition (checked against the game's schema)."""
        request.max_content_length = 16 * 1024 * 1024
        body = json_body()
        loaded = load_request(s.NewEditionSchema(), body, "the edition request")
        content = loaded["content"]
        if not isinstance(content.get("slug"), str):
            raise InvalidEvent("invalid_edition", 'an edition needs a "slug"')
        return recorder().add_edition(content["slug"], content, loaded["name"])


def register(app: Flask, api: Api) -> None:
    app.url_map.converters["game_ref"] = GameIdConverter
    api.register_converter(GameIdConverter, _game_id_schema)
    components = api.spec.components
    components.schema("JsonValue", s.json_value_schema())
    components.schema("NewGame", s.new_game_refinements(), schema=s.NewGameSchema)
    components.schema("Action", schema=s.ActionSchema)
    components.schema("NewEdition", schema=s.NewEditionSchema)
    s.refine_new_game(components.schemas["NewGame"])
    s.refine_action(components.schemas["Action"])
    s.refine_new_edition(components.schemas["NewEdition"])
    api.register_blueprint(blp)
    api.register_blueprint(editions_blp)

    @app.get("/docs/assets/<path:name>")
    def swagger_assets(name: str) -> Response:
        return send_from_directory(swagger_ui_bundle.swagger_ui_path, name)

    @app.after_request
    def audit_header(response: Response) -> Response:
        """Every game-scoped response says whether that game passed its last audit."""
        game_id = (request.view_args or {}).get("game_id")
        if game_id:
            try:
                flag = recorder().audit_flag(str(game_id))
            except Exception:  # the header is advisory; the response itself stands
                flag = None
            if flag:
                response.headers["X-Chronicle-Audit"] = flag
        return response

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    app.register_blueprint(web)
