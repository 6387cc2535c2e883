"""The HTTP API: a thin Flask layer over the recorder service (DESIGN.md, "Interfaces").

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

from events import Recorder, open_store, samples
from events.recorder import CursorCache

from . import errors

log = logging.getLogger("chronicle.api")


class ChronicleApi(Api):  # type: ignore[misc]  # flask-smorest ships no types
    """flask-smorest's Api with chronicle's error body documented and produced."""

    from .schemas import ErrorSchema as ERROR_SCHEMA

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

    api = ChronicleApi(app, spec_kwargs={"info": {"description": _DESCRIPTION}})
    from .routes import register

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
    "spectator. Errors: {\"error\": {\"code\", \"message\", \"details\"}} with 400 malformed, "
    "401/403 token, 404 unknown, 409 stale seq, 413 too large, 422 illegal action."
)


def recorder() -> Recorder:
    """The recorder for this request, over this thread's store connection."""
    from flask import current_app

    if "recorder" not in g:
        local = current_app.extensions["chronicle_local"]
        store = getattr(local, "store", None)
        if store is None:
            store = open_store(current_app.config["DATABASE"])
            local.store = store
        g.recorder = Recorder(store, current_app.extensions["chronicle_cache"])
    rec_: Recorder = g.recorder
    return rec_


def _teardown(exc: BaseException | None) -> None:
    g.pop("recorder", None)


def load_samples(app: Flask) -> int:
    """Import the sample games into an empty database."""
    with app.app_context():
        return samples.load_samples(recorder())
