"""schemathesis against /openapi.json, in process (WSGI, no network): no 500 and no response
that violates the documented schema. Bounded: a few examples per operation by default,
many more with CHRONICLE_RELIABILITY=full. The app runs on an in-memory database.
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from api import create_app

from .conftest import count, fixture_games, size

# /games/import takes JSON Lines: plain text on the wire
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


def _app_with_games():
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "STREAM_SECONDS": 0.05})
    client = app.test_client()
    game = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    ids = [game["id"]]
    for path in fixture_games():
        ids.append(client.post("/games/import", data=path.read_bytes()).json["id"])
    return app, {"ids": ids, "token": game["recorder_token"]}


APP, TARGET = _app_with_games()
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=size(8, 150), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_never_answers_500_nor_off_its_schema(case):
    params = case.path_parameters or {}
    if "game_id" in params and hash(repr(case.body)) % 3:
        # most cases aim at a real game so they reach past the 404
        ids = TARGET["ids"]
        params["game_id"] = ids[hash(repr(case.query)) % len(ids)]
        if hash(repr(case.headers)) % 2:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TARGET['token']}"}
    count("schemathesis: requests")
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance,
                                   content_type_conformance])
