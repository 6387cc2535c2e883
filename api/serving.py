"""The gunicorn worker `chronicle serve` runs: gthread, with its own refusals in JSON.

gunicorn refuses some requests before the application sees them (a request line longer
than `--limit-request-line`, headers too large, a line that is not HTTP) and answers those
with a small HTML page. Every other answer of the API is the one JSON error body
(api/errors.py), and /openapi.json documents no HTML: so these refusals are written in the
same body, with gunicorn's own status (414, 431, 400). Anything that is not the client's
fault is left to gunicorn (a 500 that leaks nothing).
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn.http import errors
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

#: gunicorn's limit on the request line, at its maximum: the documented lengths of every
#: path and query parameter fit in it (api/schemas.py, ChoicesQuerySchema)
REQUEST_LINE_LIMIT = 8190

#: the client's faults gunicorn answers itself: (status, reason, code, message)
_REFUSALS: list[tuple[type[Exception], int, str, str, str]] = [
    (errors.LimitRequestLine, 414, "URI Too Long", "uri_too_long",
     f"the request line is longer than {REQUEST_LINE_LIMIT} bytes"),
    (errors.LimitRequestHeaders, 431, "Request Header Fields Too Large", "headers_too_large",
     "the request's headers are too large"),
    (errors.InvalidRequestLine, 400, "Bad Request", "malformed", "not an HTTP request line"),
    (errors.InvalidRequestMethod, 400, "Bad Request", "malformed", "not an HTTP method"),
    (errors.InvalidHTTPVersion, 400, "Bad Request", "malformed", "not an HTTP version"),
    (errors.InvalidHeaderName, 400, "Bad Request", "malformed", "a header name is invalid"),
    (errors.InvalidHeader, 400, "Bad Request", "malformed", "a header is invalid"),
]


def refusal(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP response with the API's error body (the connection then closes)."""
    body = json.dumps({"error": {"kind": "http", "code": code, "message": message,
                                 "details": {}}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class Worker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
    """gunicorn's threaded worker, its refusals of a malformed request in JSON."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        for kind, status, reason, code, message in _REFUSALS:
            if isinstance(exc, kind):
                self.log.warning("Invalid request from ip=%s: %s",
                                 (addr or ("",))[0], exc)
                try:
                    write_nonblock(client, refusal(status, reason, code, message))
                except Exception:  # the client is gone: nothing to answer
                    self.log.debug("Failed to send error message.")
                return
        super().handle_error(req, client, addr, exc)
