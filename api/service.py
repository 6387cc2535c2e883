"""The recorder of the current request: one store connection per thread, one cursor cache per
process. Routes and pages take their service from here, so the app factory imports them
and nothing imports the factory back."""

from __future__ import annotations

from flask import current_app, g, request

from events.recorder import Recorder, Unauthorized, open_store


def recorder() -> Recorder:
    """The recorder for this request, over this thread's store connection."""
    if "recorder" not in g:
        local = current_app.extensions["chronicle_local"]
        store = getattr(local, "opened", None)
        if store is None:
            store = open_store(current_app.config["DATABASE"])
            local.opened = store
        g.recorder = Recorder(store, current_app.extensions["chronicle_cache"])
    found: Recorder = g.recorder
    return found


def bearer() -> str | None:
    """The request's bearer token (None: none sent, a spectator); a malformed
    Authorization header is refused, never read as no token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("bad_token", "use `Authorization: Bearer <token>`")
    return token.strip()
