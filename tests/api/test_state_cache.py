"""The kept state documents (events/documents.py, issue #34) never outlive the log they
were rendered from: after any append (an action, an undo, a redo, a note) every viewer's
state answer is the one a server with nothing kept gives. Which viewer gets which kept
document is judged by twins (tests/reliability/test_hidden_information.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api import create_app

from .conftest import auth

FIXTURE = Path(__file__).parents[1].parent / "fixtures" / "thrones" / "2_players.jsonl"


def test_no_kept_state_document_is_served_once_the_log_grew(app, client):
    """A table game imported up to event 20, then recorded on from the fixture, undone,
    redone and noted: after each append, every viewer's answer (rendered, then kept) is
    the answer of an app with nothing kept, at the end and at an earlier step."""
    lines = FIXTURE.read_text("utf-8").splitlines()
    made = client.post("/games/import", data="\n".join(lines[:21]) + "\n").json
    gid, recorder = made["id"], made["recorder_token"]
    viewers = {"recorder": auth(recorder), "spectator": {},
               **{f"seat {i}": auth(t) for i, t in enumerate(made["seat_tokens"])}}
    # the oracle: another app over the same database, its documents forgotten before each ask
    fresh = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})

    def answers(c: Any, at: str = "") -> dict[str, tuple[int, bytes, str | None]]:
        out = {}
        for name, headers in viewers.items():
            r = c.get(f"/games/{gid}/state{at}", headers=headers)
            out[name] = (r.status_code, r.data, r.headers.get("ETag"))
        return out

    def judged(step: str) -> None:
        kept = answers(client), answers(client)  # rendered, then the kept bytes
        fresh.extensions["chronicle_cache"].documents.clear()
        want = answers(fresh.test_client())
        assert kept[0] == want and kept[1] == want, step
        assert answers(client, "?at=3") == answers(fresh.test_client(), "?at=3"), step

    judged("imported")
    for line in lines[21:25]:
        env = json.loads(line)
        assert client.post(f"/games/{gid}/events", headers=auth(recorder), json={
            k: env[k] for k in ("type", "actor", "data")}).status_code == 201, env["seq"]
        judged(f"after {env['type']}")
    assert client.post(f"/games/{gid}/undo", headers=auth(recorder)).status_code == 201
    judged("after an undo")
    assert client.post(f"/games/{gid}/redo", headers=auth(recorder)).status_code == 201
    judged("after a redo")
    assert client.post(f"/games/{gid}/events", headers=auth(recorder), json={
        "type": "note", "actor": "table", "data": {"text": "tea break"}}).status_code == 201
    judged("after a note")


def test_an_append_drops_the_games_kept_documents(app, client, digital):
    gid, _recorder, seat = digital
    kept = app.extensions["chronicle_cache"].documents
    client.get(f"/games/{gid}/state", headers=auth(seat))
    client.get(f"/games/{gid}/state")
    assert len(kept) == 2
    legal = client.get(f"/games/{gid}/legal-actions", headers=auth(seat)).json["actions"]
    assert client.post(f"/games/{gid}/events", json=legal[0], headers=auth(seat)).status_code == 201
    assert len(kept) == 0
