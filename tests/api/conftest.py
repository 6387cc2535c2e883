"""API fixtures: an app on a temporary database and its test client."""

from __future__ import annotations

import pytest


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def digital(client):
    """A digital Adaman game: (id, recorder token, seat 0 token)."""
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                    "seed": "api-seed"})
    assert r.status_code == 201
    return r.json["id"], r.json["recorder_token"], r.json["seat_tokens"][0]
