"""A request loads the game row, the rules and the cursor once (issue #21).

The store is wrapped so every call is counted: a GET of the state and a POST of an action,
each on a warm server (rules bound, cursor cached, as in steady play), must read the game
row and its last event once, together (`head`, issue #34), no edition (the bound reducer is
cached) and fold nothing; a token's row is read the first time the token is seen only.
"""

from __future__ import annotations

from collections import Counter

import pytest

from api import create_app

from .conftest import auth

COUNTED = ("head", "game", "last_event", "last_seq", "edition", "editions", "events", "event",
           "snapshot", "token_role", "event_by_key", "secret", "seed", "salt", "append_all")


@pytest.fixture
def counted(db_path, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE": str(db_path), "STREAM_SECONDS": 0.05})
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    calls: Counter[str] = Counter()
    made = client.post("/games", json={"game": "royals", "players": ["Ann", "Bo"],
                                       "mode": "digital", "seed": "count"}).json
    gid = made["id"]
    client.get(f"/games/{gid}/state")  # warm: the store is open, the reducer bound
    store = app.extensions["chronicle_local"].opened
    for name in COUNTED:
        real = getattr(store, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(store, name, spy)
    return client, gid, made, calls


def test_a_get_of_the_state_reads_the_row_once_and_folds_nothing(counted):
    client, gid, made, calls = counted
    seat = made["seat_tokens"][0]
    assert client.get(f"/games/{gid}/state", headers=auth(seat)).status_code == 200
    assert calls["head"] == 1, calls
    assert calls["game"] + calls["last_event"] + calls["last_seq"] == 0, calls
    assert calls["token_role"] == 1
    assert client.get(f"/games/{gid}/state", headers=auth(seat)).status_code == 200
    assert calls["head"] == 2 and calls["token_role"] == 1, "a known token's role is kept"
    assert calls["edition"] == calls["editions"] == 0, "the bound reducer is cached"
    assert calls["events"] == calls["snapshot"] == calls["event"] == 0, "nothing refolded"


def test_a_post_of_an_action_reads_the_row_once_and_writes_once(counted):
    client, gid, made, calls = counted
    state = client.get(f"/games/{gid}/state").json
    seat = state["to_act"][0]
    token = made["seat_tokens"][seat]
    action = client.get(f"/games/{gid}/legal-actions", headers=auth(token)).json["actions"][0]
    calls.clear()
    answer = client.post(f"/games/{gid}/events", json=action,
                         headers={**auth(token), "If-Match": f'"{state["last_seq"]}"',
                                  "Idempotency-Key": "count-1"})
    assert answer.status_code == 201, answer.json
    assert calls["head"] == 1, calls
    assert calls["game"] + calls["last_event"] + calls["last_seq"] == 0, calls
    assert calls["token_role"] == 0, "the seat's token was seen by legal-actions"
    assert calls["edition"] == calls["editions"] == 0
    assert calls["events"] == calls["snapshot"] == 0, "nothing refolded"
    assert calls["event_by_key"] == 1 and calls["append_all"] == 1
    assert calls["secret"] <= 1 and calls["seed"] == calls["salt"] == 0, calls
