"""Hostile HTTP: oversized bodies, deep nesting, huge integers, unicode edge cases, bad
tokens and bad headers each get a 4xx with the one error body, never a 500, and store
nothing.
"""

from __future__ import annotations

import json

import pytest

from api import create_app

from .conftest import count

GAME = "{game}"


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory):
    app = create_app({"TESTING": True, "STREAM_SECONDS": 0.05,
                      "DATABASE": tmp_path_factory.mktemp("hostile") / "h.db"})
    client = app.test_client()
    created = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    return app, created


def _raw(text: str) -> dict:
    return {"data": text.encode("utf-8", "surrogatepass"),
            "headers": {"Content-Type": "application/json"}}


NOTE = '{"type": "note", "actor": "table", "data": {"x": %s}}'
BODIES = {
    "oversized": {"data": b'{"type": "note", "actor": "table", "data": {"x": "' + b"a" * (2 << 20)
                  + b'"}}', "headers": {"Content-Type": "application/json"}},
    "deep nesting (100000)": _raw("[" * 100_000 + "]" * 100_000),
    "deep nesting in data (200)": _raw(NOTE % ("[" * 200 + "]" * 200)),
    "deep object nesting": _raw(NOTE % ('{"a":' * 500 + "1" + "}" * 500)),
    "huge integer (5000 digits)": _raw(NOTE % ("9" * 5000)),
    "integer beyond 64 bits": _raw(NOTE % str(2**70)),
    "huge negative integer": _raw(NOTE % ("-" + "9" * 30)),
    "huge exponent float": _raw(NOTE % "1e999999"),
    "NaN": _raw(NOTE % "NaN"),
    "Infinity": _raw(NOTE % "-Infinity"),
    "lone high surrogate": _raw(NOTE % '"\\ud800"'),
    "lone low surrogate in a key": _raw('{"type": "note", "actor": "table", '
                                        '"data": {"\\udfff": 1}}'),
    "raw surrogate bytes": {"data": b'{"type": "note", "actor": "table", '
                                    b'"data": {"x": "\xed\xa0\x80"}}',
                            "headers": {"Content-Type": "application/json"}},
    "invalid UTF-8": {"data": b'{"type": "note\xff\xfe", "actor": "table"}',
                      "headers": {"Content-Type": "application/json"}},
    "NUL in the type": _raw('{"type": "note\\u0000", "actor": "table", "data": {}}'),
    "RTL override in the type": _raw('{"type": "\\u202enote", "actor": "table", "data": {}}'),
    "actor a huge integer": _raw('{"type": "control", "actor": ' + "9" * 40 + ', "data": {}}'),
    "actor a float": _raw('{"type": "control", "actor": 0.0, "data": {}}'),
    "actor true": _raw('{"type": "control", "actor": true, "data": {}}'),
    "actor server": _raw('{"type": "note", "actor": "server", "data": {}}'),
    "reserved type": _raw('{"type": "game_created", "actor": "table", "data": {}}'),
    "data a list": _raw('{"type": "note", "actor": "table", "data": [1, 2]}'),
    "body a string": _raw('"hello"'),
    "body null": _raw("null"),
    "empty body": _raw(""),
    "duplicate keys": _raw('{"type": "note", "type": "control", "actor": 0, "data": {}}'),
    "BOM": {"data": b'\xef\xbb\xbf{"type": "note", "actor": "table", "data": {}}',
            "headers": {"Content-Type": "application/json"}, "ok": True},
    "form encoded": {"data": "type=note&actor=table",
                     "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
}

HEADERS = {
    "If-Match garbage": {"If-Match": "garbage"},
    "If-Match negative": {"If-Match": '"-1"'},
    "If-Match huge": {"If-Match": '"' + "9" * 40 + '"'},
    "If-Match stale": {"If-Match": '"0"'},
    "If-Match future": {"If-Match": '"99"'},
    "If-Match list": {"If-Match": '"1", "2"'},
    "If-Match unicode": {"If-Match": '"\u0661"'},
    "Idempotency-Key huge": {"Idempotency-Key": "k" * 100_000},
    "Idempotency-Key empty": {"Idempotency-Key": ""},
    "Bearer garbage": {"Authorization": "Bearer garbage"},
    "Bearer empty": {"Authorization": "Bearer "},
    "Basic scheme": {"Authorization": "Basic dXNlcjpwYXNz"},
    "token 100 kB": {"Authorization": "Bearer " + "t" * 100_000},
    "token latin-1": {"Authorization": "Bearer \u00e9\u00e8\u00ff"},
    "token of another game": {"Authorization": "Bearer {other}"},
    "no token": {},
}


def _error_4xx(response) -> None:
    assert 400 <= response.status_code < 500, (response.status_code,
                                                response.get_data(as_text=True)[:300])
    body = response.get_json(silent=True)
    assert body is not None and set(body["error"]) >= {"code", "message", "details"}, body


def _stored(client, game_id: str) -> tuple[int, int]:
    return (client.get(f"/games/{game_id}").json["last_seq"], client.get("/games").json["total"])


@pytest.mark.parametrize("case", sorted(BODIES))
def test_hostile_bodies_are_4xx_and_store_nothing(hostile_app, case):
    app, created = hostile_app
    client = app.test_client()
    spec = dict(BODIES[case])
    ok = spec.pop("ok", False)
    auth = {"Authorization": f"Bearer {created['recorder_token']}"}
    before = _stored(client, created["id"])
    for url in (f"/games/{created['id']}/events", "/games", "/games/import", "/editions"):
        count("hostile HTTP requests tried")
        r = client.post(url, data=spec["data"], headers={**spec["headers"], **auth})
        if ok and url.endswith("/events"):
            assert r.status_code == 201
            continue
        if url == "/games/import" and r.status_code == 201:
            pytest.fail(f"{case} imported as a game")
        _error_4xx(r)
    if not ok:
        assert _stored(client, created["id"]) == before


@pytest.mark.parametrize("case", sorted(HEADERS))
def test_hostile_headers_are_4xx_and_store_nothing(hostile_app, case):
    app, created = hostile_app
    client = app.test_client()
    other = client.post("/games", json={"game": "adaman", "players": ["Bo"]}).json
    headers = {k: v.replace("{other}", other["recorder_token"]) for k, v in HEADERS[case].items()}
    if "Authorization" not in headers and case.startswith(("If-", "Idem")):
        headers["Authorization"] = f"Bearer {created['recorder_token']}"
    before = _stored(client, created["id"])
    note = {"type": "note", "actor": "table", "data": {}}
    for method, url, body in (("post", "events", note), ("post", "undo", None),
                              ("post", "redo", None)):
        count("hostile HTTP requests tried")
        r = getattr(client, method)(f"/games/{created['id']}/{url}", json=body, headers=headers)
        _error_4xx(r)
    assert _stored(client, created["id"])[0] == before[0]
    for url in ("state", "events", "legal-actions", "export", "verify", "events/stream", ""):
        count("hostile HTTP requests tried")
        r = client.get(f"/games/{created['id']}/{url}".rstrip("/"), headers=headers)
        assert r.status_code < 500, (url, r.status_code)


QUERIES = ["state?at=-1", "state?at=abc", "state?at=" + "9" * 40, "state?at=1e3", "state?at=",
           "events?after=" + "9" * 40, "events?limit=0", "events?limit=-5", "events?after=x",
           "events?limit=1&limit=2", "events/stream?after=" + "9" * 5000,
           "events/stream?after=%00"]
PATHS = ["/games/%00", "/games/" + "x" * 10_000, "/games/%F0%9F%82%A1/state", "/games/../games",
         "/games/%ED%A0%80", "/games?limit=0", "/games?limit=" + "9" * 40, "/games?status=won",
         "/games?offset=-1", "/games?from=%00", "/editions?game=%00", "/nope",
         "/games/{game}/nope"]


@pytest.mark.parametrize("query", QUERIES + PATHS)
def test_hostile_paths_and_queries_are_4xx(hostile_app, query):
    app, created = hostile_app
    client = app.test_client()
    url = query.replace(GAME, created["id"])
    url = url if url.startswith("/") else f"/games/{created['id']}/{url}"
    count("hostile HTTP requests tried")
    r = client.get(url)
    if r.status_code == 200:
        return  # a lenient reading is fine; a crash is not
    _error_4xx(r)


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_unsupported_methods_are_405_with_the_error_body(hostile_app, method):
    app, created = hostile_app
    count("hostile HTTP requests tried")
    r = getattr(app.test_client(), method)(f"/games/{created['id']}/events", data="{}")
    assert r.status_code == 405
    _error_4xx(r)


def test_a_mangled_export_is_refused_on_import(hostile_app):
    app, created = hostile_app
    client = app.test_client()
    lines = client.get(f"/games/{created['id']}/export").get_data(as_text=True).splitlines()
    env = json.loads(lines[0])
    mangled = [
        {**env, "data": [1, 2]}, {**env, "data": "x"}, {**env, "seq": "0"}, {**env, "seq": None},
        {**env, "type": 5}, {**env, "data": {**env["data"], "edition": "x"}},
        {**env, "data": {**env["data"], "game": None}}, {**env, "prev_hash": 7},
        {**env, "hash": None}, {k: v for k, v in env.items() if k != "data"}, [env], 5,
    ]
    for bad in mangled:
        count("hostile HTTP requests tried")
        r = client.post("/games/import", data=json.dumps(bad) + "\n")
        _error_4xx(r)


@pytest.mark.parametrize("data", ["9" * 5000, "[" * 100_000, '{"x": NaN}', '{"x": "\\ud800"}',
                                  '{"x": ' + str(2**64) + "}"])
def test_the_cli_refuses_hostile_data_with_exit_code_2_or_1(runner, data):
    gid = runner(["new", "adaman", "--player", "Ann"]).stdout.strip()
    assert runner(["state", gid, "--json"]).exit_code == 0
    count("hostile CLI invocations tried")
    result = runner(["act", gid, "note", "--actor", "table", "--data", data])
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
