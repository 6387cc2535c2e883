"""One error body for everything: {"error": {"kind", "code", "message", "details"}}.

No route catches ChronicleError itself; this module turns it (the rules' IllegalAction is
one of the family) and Werkzeug's HTTP errors into JSON with the status of the class.
Anything else is a bug: logged, answered with a 500 body that leaks nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from events.recorder import ChronicleError

log = logging.getLogger("chronicle.api")

_HTTP_CODES = {400: "malformed", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 406: "not_acceptable", 409: "conflict",
               412: "precondition_failed", 413: "too_large", 415: "unsupported_media_type",
               422: "illegal_action", 429: "too_many_requests"}


def body(status: int, kind: str, code: str, message: str,
         details: dict[str, Any] | None = None) -> tuple[Response, int]:
    return jsonify({"error": {"kind": kind, "code": code, "message": message,
                              "details": details or {}}}), status


def chronicle_error(err: ChronicleError) -> tuple[Response, int]:
    return body(err.status, err.kind, err.code, err.message, _jsonable(err.details))


def http_error(err: HTTPException) -> Any:
    status = err.code or 500
    data = getattr(err, "data", None) or {}
    details = {"fields": data["messages"]} if "messages" in data else {}
    message = err.description or err.name
    if status == 413:
        message = "the request body is too large"
    response, code = body(status, "http", _HTTP_CODES.get(status, "http_error"), message,
                          _jsonable(details))
    for key, value in _standard_headers(err):
        response.headers[key] = value
    for key, value in (data.get("headers") or {}).items():
        response.headers[key] = value
    return response, code


def _standard_headers(err: HTTPException) -> list[tuple[str, str]]:
    """The headers HTTP requires with this error (405 `Allow`, 429 `Retry-After`, 401
    `WWW-Authenticate`, 416 `Content-Range`): Werkzeug's own, minus its HTML Content-Type,
    since the body is ours."""
    return [(key, value) for key, value in err.get_headers()
            if key.lower() != "content-type"]


def unexpected(err: Exception) -> tuple[Response, int]:
    log.exception("unexpected error")
    return body(500, "internal", "internal_error", "an unexpected error occurred; nothing "
                "was recorded")


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def register(app: Flask) -> None:
    app.register_error_handler(ChronicleError, chronicle_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected)
