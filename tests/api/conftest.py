"""API fixtures: an app on a temporary database and its test client.

Every API test runs on each backend: a SQLite file, and a fresh PostgreSQL schema when
CHRONICLE_TEST_POSTGRES is set (skipped, saying why, when it is not).
"""

from __future__ import annotations

import pytest

from api import create_app


@pytest.fixture
def app(store_url):
    app = create_app({"TESTING": True, "DATABASE": store_url, "STREAM_SECONDS": 0.5})
    yield app
    store = getattr(app.extensions["chronicle_local"], "opened", None)
    if store is not None:  # the test client runs requests in this thread
        store.close()


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def digital(client):
    """A digital Adaman game: (id, recorder token, seat 0 token)."""
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                    "seed": "api-seed"})
    assert r.status_code == 201
    return r.json["id"], r.json["recorder_token"], r.json["seat_tokens"][0]
