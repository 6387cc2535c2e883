"""The HTTP API: a thin Flask layer over the recorder service (docs/design.md, "CLI and HTTP").

`create_app(config)` is the factory. The store is opened once per thread and reused; a
per-process cursor cache keeps "state now" cheap between requests. Every error, ours or
Werkzeug's, leaves as one JSON body: {"error": {"kind", "code", "message", "details"}}.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask, g
from flask_smorest import Api

from events.recorder import CursorCache

from . import errors, i18n
from .routes import register
from .schemas import ErrorSchema
from .service import recorder

__all__ = ["create_app", "load_samples", "recorder"]

log = logging.getLogger("chronicle.api")


class ChronicleApi(Api):  # type: ignore[misc]  # flask-smorest ships no types
    """flask-smorest's Api with chronicle's error body documented and produced."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: Any) -> Any:
        return errors.http_error(error)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app. Config: DATABASE (path or URL), TESTING, LOAD_SAMPLES, STREAM_SECONDS."""
    app = Flask(__name__, instance_relative_config=False)
    app.config.update(
        DATABASE=os.environ.get("CHRONICLE_DB", "chronicle.db"),
        API_TITLE="chronicle",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        MAX_CONTENT_LENGTH=1024 * 1024,
        IMPORT_MAX_BYTES=256 * 1024 * 1024,
        STREAM_SECONDS=float(os.environ.get("CHRONICLE_STREAM_SECONDS", "25")),
        STREAM_POLL_SECONDS=0.25,
        LOAD_SAMPLES=False,
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(config)
    app.config["DATABASE"] = str(app.config["DATABASE"])
    app.extensions["chronicle_cache"] = CursorCache()
    app.extensions["chronicle_local"] = threading.local()
    i18n.init_app(app)

    api = ChronicleApi(app, spec_kwargs={"info": {"description": _DESCRIPTION}})
    register(app, api)
    errors.register(app)
    app.teardown_appcontext(_teardown)
    if app.config["LOAD_SAMPLES"]:
        load_samples(app)
    return app


_DESCRIPTION = (
    "Record table games as an append-only, hash-chained log; fold it into the state at any "
    "step; undo, redo, replay and audit. Authenticate with `Authorization: Bearer <token>` "
    "(the recorder token or a seat token from POST /games); without one you are a "
    "spectator. What each caller sees: a seat token, its own view (its hand, its draws) "
    "and nothing another seat hides, in the state and in every page of the history, the "
    "stream, the export and compare; no token, what is public; the recorder token of a "
    "table game, everything (it types every card); the recorder token of a digital game, "
    "exactly the spectator's view plus the table's own legal actions (it deals nothing and "
    "sees no hand); everyone, once a game is over. An idempotent retry answers only the "
    "token that made the action. Digital deals come from a server seed committed to "
    "(salted) in game_created and revealed when the game ends (README, \"Deals\"). Errors: "
    "{\"error\": {\"code\", \"message\", \"details\"}} with 400 malformed, 401/403 token, "
    "404 unknown, 409 stale seq, 413 too large, 422 illegal action."
)


def _teardown(exc: BaseException | None) -> None:
    g.pop("recorder", None)


def load_samples(app: Flask) -> int:
    """Import the sample games into an empty database."""
    with app.app_context():
        return recorder().load_samples()
