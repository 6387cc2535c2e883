"""/openapi.json says exactly what the server accepts (issue #25).

Each test holds the document against the server's own answers, never against the code that
builds the document: a request the document allows is taken, one it forbids is refused.
"""

from __future__ import annotations

import re

import pytest

from api import create_app

from .conftest import auth

GAME_SCOPED = "/games/{game_id}"
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def spec(client) -> dict:
    return client.get("/openapi.json").json


def new_game_branches(client) -> dict[str, dict]:
    """The NewGame document's branch of each game, by slug."""
    branches = spec(client)["components"]["schemas"]["NewGame"]["oneOf"]
    return {b["properties"]["game"]["enum"][0]: b for b in branches}


def create(client, game: str, players: int, **extra):
    names = [f"Player {n + 1}" for n in range(players)]
    return client.post("/games", json={"game": game, "players": names, **extra})


def test_a_405_keeps_the_allow_header_with_the_json_error_body(client, app):
    for path, method in (("/stats", "TRACE"), ("/editions", "PUT"), ("/games/abc", "DELETE"),
                         ("/games/import", "GET")):
        r = client.open(path, method=method)
        assert r.status_code == 405 and r.json["error"]["code"] == "method_not_allowed"
        # the oracle: the methods Flask routes for that path
        adapter = app.url_map.bind("localhost")
        expected = set(adapter.allowed_methods(path))
        assert set(r.headers["Allow"].replace(" ", "").split(",")) == expected, path
        assert r.mimetype == "application/json"


def test_options_advertises_only_the_documented_methods(client):
    paths = spec(client)["paths"]
    for path, concrete in (("/games/import", "/games/import"), ("/games", "/games"),
                           (GAME_SCOPED, "/games/abc")):
        allow = client.options(concrete).headers["Allow"].replace(" ", "").split(",")
        documented = {m.upper() for m in paths[path] if m in METHODS}
        assert set(allow) - {"HEAD", "OPTIONS"} == documented, path


def test_each_game_takes_exactly_the_player_counts_its_branch_documents(client):
    for slug, branch in new_game_branches(client).items():
        low = branch["properties"]["players"]["minItems"]
        high = branch["properties"]["players"]["maxItems"]
        for n in (low, high):
            assert create(client, slug, n).status_code == 201, (slug, n)
        for n in (low - 1, high + 1):
            if n >= 1:
                r = create(client, slug, n)
                assert r.status_code == 422, (slug, n, r.json)
                assert r.json["error"]["code"] == "wrong_player_count"


def test_the_game_slug_is_an_enum_of_the_games_the_server_takes(client):
    props = spec(client)["components"]["schemas"]["NewGame"]["properties"]
    slugs = props["game"]["enum"]
    assert set(slugs) == set(new_game_branches(client))
    listed = spec(client)["paths"]["/editions"]["get"]["parameters"]
    (game,) = [p for p in listed if p["name"] == "game"]
    assert game["schema"]["enum"] == slugs
    for slug in slugs:
        assert client.get(f"/editions?game={slug}").status_code == 200
    for bad in ("", "chess", slugs[0].upper()):
        assert client.get(f"/editions?game={bad}").status_code == 422, bad
        r = client.post("/games", json={"game": bad, "players": ["A", "B", "C"]})
        assert r.status_code in (400, 422), bad


def test_every_option_switch_the_document_pins_is_refused_and_every_other_is_taken(client):
    """A boolean option is either pinned to its default (the rules refuse the other value)
    or open (both values start a game); the document says which."""
    seen = 0
    for slug, branch in new_game_branches(client).items():
        low = branch["properties"]["players"]["minItems"]
        for name, value_doc in branch["properties"]["options"]["properties"].items():
            nested = value_doc.get("anyOf", [{}])[0].get("properties")
            switches = nested.items() if nested else [(None, value_doc)]
            for inner, doc in switches:
                for value in (True, False):
                    option = {name: {inner: value} if inner else value}
                    r = create(client, slug, low, options=option)
                    pinned = doc.get("enum")
                    allowed = pinned is None or value in pinned
                    assert (r.status_code == 201) == allowed, (slug, option, r.json)
                    seen += 1
        unknown = create(client, slug, low, options={"no_such_option": True})
        assert unknown.status_code == 422 and unknown.json["error"]["code"] == "unknown_option"
    assert seen >= 2 * 6  # Royals' two variants and Thrones' switches at least


def test_a_seed_outside_digital_play_is_schema_invalid_and_refused(client):
    rule = spec(client)["components"]["schemas"]["NewGame"]["anyOf"]
    assert {"digital play", "no seed"} == {b["title"] for b in rule}
    assert create(client, "adaman", 1, seed="x").status_code == 400
    assert create(client, "adaman", 1, seed="x", mode="digital").status_code == 201
    assert create(client, "adaman", 1, seed=None).status_code == 201


IF_MATCH_SAMPLES = ['"1"', "1", 'W/"1"', "*", " * ", '"1"  ', '""1""', "", " ", '"-1"',
                    '"\u0661"', '"1", "2"', 'W/ "1"', '"' + "9" * 19 + '"', '"' + "9" * 18 + '"',
                    "**", "W/*", "'1'", '"1x"']


def test_if_match_is_refused_as_malformed_exactly_when_its_pattern_says(client):
    r = create(client, "adaman", 1)
    gid, token = r.json["id"], r.json["recorder_token"]
    params = spec(client)["paths"][GAME_SCOPED + "/events"]["post"]["parameters"]
    (doc,) = [p for p in params if p["name"] == "If-Match"]
    pattern = re.compile(doc["schema"]["pattern"])
    note = {"type": "note", "actor": "table", "data": {"text": "hello"}}
    for value in IF_MATCH_SAMPLES:
        answer = client.post(f"/games/{gid}/events", json=note,
                             headers={**auth(token), "If-Match": value})
        malformed = answer.status_code == 400
        assert malformed != bool(pattern.search(value)), (value, answer.json)
    undo = spec(client)["paths"][GAME_SCOPED + "/undo"]["post"]["parameters"]
    assert any(p["name"] == "If-Match" for p in undo)


def test_an_edition_without_a_known_slug_is_schema_invalid(client):
    content = spec(client)["components"]["schemas"]["NewEdition"]["properties"]["content"]
    assert content["required"] == ["slug"]
    assert set(content["properties"]["slug"]["enum"]) == set(new_game_branches(client))
    assert client.post("/editions", json={"content": {}}).status_code == 400


def test_every_game_scoped_operation_is_linked_from_a_new_imported_or_forked_game(client):
    document = spec(client)
    operations = {op["operationId"]: (path, op) for path, item in document["paths"].items()
                  for method, op in item.items() if method in METHODS}
    scoped = {op_id for op_id, (path, _) in operations.items() if path.startswith(GAME_SCOPED)}
    assert {"undo", "redo", "compareGames"} <= scoped
    for source in ("createGame", "importGame", "forkGame"):
        links = operations[source][1]["responses"]["201"]["links"]
        assert {link["operationId"] for link in links.values()} == scoped, source
        for link in links.values():
            path = operations[link["operationId"]][0]
            wanted = set(re.findall(r"{(\w+)}", path))
            given = {name.split(".")[-1] for name in link["parameters"]}
            assert wanted <= given, link
            assert link["parameters"]["header.Authorization"] == (
                "Bearer {$response.body#/recorder_token}")


def test_the_links_lead_to_the_new_game_as_its_recorder(client):
    """Following a link by hand, the way a tool does, reaches the game with its token."""
    created = create(client, "adaman", 1).json
    links = spec(client)["paths"]["/games"]["post"]["responses"]["201"]["links"]
    header = links["undo"]["parameters"]["header.Authorization"].replace(
        "{$response.body#/recorder_token}", created["recorder_token"])
    assert links["undo"]["parameters"]["game_id"] == "$response.body#/id"
    r = client.post(f"/games/{created['id']}/undo", headers={"Authorization": header})
    assert r.status_code == 422 and r.json["error"]["code"] == "nothing_to_undo"
    r = client.get(f"/games/{created['id']}/compare/{created['id']}")
    assert r.status_code == 200 and r.json["agree"] is True


@pytest.mark.parametrize("media_type", ["application/x-ndjson", "text/plain"])
def test_an_export_imports_under_each_documented_media_type(client, tmp_path, media_type):
    body = spec(client)["paths"]["/games/import"]["post"]["requestBody"]["content"]
    assert media_type in body
    created = create(client, "adaman", 1).json
    exported = client.get(f"/games/{created['id']}/export",
                          headers=auth(created["recorder_token"])).get_data()
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db")})
    r = other.test_client().post("/games/import", data=exported, content_type=media_type)
    assert r.status_code == 201 and r.json["id"] == created["id"], r.json
