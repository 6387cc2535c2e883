"""The recorder of the current request: one store connection per thread, one cursor cache per
process. Routes and pages take their service from here, so the app factory imports them
and nothing imports the factory back."""

from __future__ import annotations

from flask import current_app, g

from events import Recorder, open_store


def recorder() -> Recorder:
    """The recorder for this request, over this thread's store connection."""
    if "recorder" not in g:
        local = current_app.extensions["chronicle_local"]
        store = getattr(local, "store", None)
        if store is None:
            store = open_store(current_app.config["DATABASE"])
            local.store = store
        g.recorder = Recorder(store, current_app.extensions["chronicle_cache"])
    found: Recorder = g.recorder
    return found
