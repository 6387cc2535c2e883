"""The HTTP API: every endpoint's success path and every error code (docs/design.md, "CLI
and HTTP")."""

from __future__ import annotations

import json

import pytest

from events import InvalidEvent

from ..conftest import FIXTURES
from .conftest import auth

SETUP = ["castle", "huntress", "ace_wyrms", "sailor", "cave", "mountain", "diplomat",
         "ace_suns", "forest", "mill", "battle"]


def _table(client):
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"]})
    gid, token = r.json["id"], r.json["recorder_token"]
    r = client.post(f"/games/{gid}/events", headers=auth(token),
                    json={"type": "setup", "actor": "table", "data": {"drawn": SETUP}})
    assert r.status_code == 201, r.json
    return gid, token


def test_post_games_returns_the_id_and_tokens_once(client):
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "table"})
    assert r.status_code == 201
    assert set(r.json) == {"id", "recorder_token", "seat_tokens"}
    assert len(r.json["seat_tokens"]) == 1


def test_post_games_errors(client):
    assert client.post("/games", data="not json").status_code == 400
    assert client.post("/games", json=[1, 2]).status_code == 400
    r = client.post("/games", json={"game": "adaman"})
    assert r.status_code == 400 and "players" in r.json["error"]["details"]["fields"]
    r = client.post("/games", json={"game": "go", "players": ["A", "B"]})
    assert r.status_code == 422 and r.json["error"]["code"] == "unknown_game"
    r = client.post("/games", json={"game": "adaman", "players": ["A", "B"]})
    assert r.status_code == 422 and r.json["error"]["code"] == "wrong_player_count"


def test_a_whole_digital_game_over_http_with_legal_actions_and_undo(client, digital):
    gid, _recorder_token, seat = digital
    undone = False
    for _ in range(60):
        state = client.get(f"/games/{gid}/state", headers=auth(seat)).json
        if state["status"] == "finished":
            break
        actions = client.get(f"/games/{gid}/legal-actions", headers=auth(seat)).json["actions"]
        choice = next((a for a in actions if a["type"] != "abandon"), actions[0])
        r = client.post(f"/games/{gid}/events", headers=auth(seat), json=choice)
        assert r.status_code == 201, r.json
        if not undone and r.json["event"]["data"].get("drawn") == []:
            assert client.post(f"/games/{gid}/undo", headers=auth(seat)).status_code == 201
            assert client.post(f"/games/{gid}/redo", headers=auth(seat)).status_code == 201
            undone = True
        elif not undone:
            r = client.post(f"/games/{gid}/undo", headers=auth(seat))
            assert r.status_code == 422
            assert r.json["error"]["code"] == "undo_reveals_hidden"
    assert state["status"] == "finished"
    report = client.get(f"/games/{gid}/verify").json
    assert report["ok"] is True


def test_an_illegal_action_is_422_naming_the_rule_and_stores_nothing(client):
    gid, token = _table(client)
    r = client.post(f"/games/{gid}/events", headers=auth(token), json={
        "type": "control", "actor": 0,
        "data": {"target": "huntress", "spend": ["mountain", "forest"], "drawn": []}})
    assert r.status_code == 422
    assert r.json["error"]["code"] == "spend_total_too_low"
    assert "Huntress" in r.json["error"]["message"]
    assert client.get(f"/games/{gid}/state").json["seq"] == 1


def test_a_malformed_action_is_400_with_fields(client):
    gid, token = _table(client)
    r = client.post(f"/games/{gid}/events", headers=auth(token),
                    json={"type": "control", "actor": 0, "data": {"target": 3}})
    assert r.status_code == 400
    assert "spend" in r.json["error"]["details"]["fields"]


def test_tokens_401_and_403(client, digital):
    gid, _, seat = digital
    r = client.post(f"/games/{gid}/events", json={"type": "abandon", "actor": 0, "data": {}})
    assert r.status_code == 401
    r = client.get(f"/games/{gid}/state", headers=auth("forged-token"))
    assert r.status_code == 401
    r = client.get(f"/games/{gid}/state", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401
    other = client.post("/games", json={"game": "adaman", "players": ["Bo"]}).json
    # the seat's role is now known to the process (events/documents.py, KnownRoles)
    assert client.get(f"/games/{gid}/state", headers=auth(seat)).status_code == 200
    r = client.post(f"/games/{other['id']}/events", headers=auth(seat),
                    json={"type": "abandon", "actor": 0, "data": {}})
    assert r.status_code == 401, "a token of another game is not valid here"


def test_a_seat_token_may_not_act_for_another_seat(client):
    created = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    r = client.post(f"/games/{created['id']}/events", headers=auth(created["seat_tokens"][0]),
                    json={"type": "setup", "actor": "table", "data": {"drawn": SETUP}})
    assert r.status_code == 403
    assert r.json["error"]["code"] == "not_your_seat"


def test_unknown_game_and_step_are_404(client):
    assert client.get("/games/nope/state").status_code == 404
    gid, _ = _table(client)
    assert client.get(f"/games/{gid}/state?at=99").status_code == 404
    assert client.get(f"/games/{gid}/state?at=x").status_code == 400


def test_if_match_and_etag_give_optimistic_concurrency(client):
    gid, token = _table(client)
    r = client.get(f"/games/{gid}/state")
    assert r.headers["ETag"] == '"1"'
    move = {"type": "control", "actor": 0,
            "data": {"target": "sailor", "spend": ["mill"], "drawn": ["bard", "pact"]}}
    stale = client.post(f"/games/{gid}/events", headers={**auth(token), "If-Match": '"0"'},
                        json=move)
    assert stale.status_code == 409
    assert stale.json["error"]["code"] == "stale_sequence"
    ok = client.post(f"/games/{gid}/events", headers={**auth(token), "If-Match": '"1"'},
                     json=move)
    assert ok.status_code == 201
    assert ok.headers["ETag"] == '"2"'


def test_an_idempotency_key_returns_the_first_response_and_stores_nothing_new(client):
    gid, token = _table(client)
    move = {"type": "control", "actor": 0,
            "data": {"target": "sailor", "spend": ["mill"], "drawn": ["bard", "pact"]}}
    headers = {**auth(token), "Idempotency-Key": "abc-1"}
    first = client.post(f"/games/{gid}/events", headers=headers, json=move)
    again = client.post(f"/games/{gid}/events", headers={**headers, "If-Match": '"1"'},
                        json=move)
    assert again.json["event"] == first.json["event"]
    assert client.get(f"/games/{gid}/state").json["last_seq"] == 2


def test_an_idempotent_replay_answers_only_the_token_that_made_it(client):
    """Authentication comes before the stored answer is read: no token is 401, another
    token 409 with nothing of the stored event, and a different action under the same key
    409 too (docs/design.md, "Access and tokens")."""
    made = client.post("/games", json={"game": "royals", "players": ["Ann", "Bo"],
                                       "mode": "digital", "seed": "idem"}).json
    gid, seats = made["id"], made["seat_tokens"]
    state = client.get(f"/games/{gid}/state").json
    seat = state["to_act"][0]
    move = client.get(f"/games/{gid}/legal-actions", headers=auth(seats[seat])).json[
        "actions"][0]
    key = {"Idempotency-Key": "k-1"}
    first = client.post(f"/games/{gid}/events", json=move, headers={**auth(seats[seat]), **key})
    assert first.status_code == 201
    anyone = client.post(f"/games/{gid}/events", json=move, headers=key)
    assert anyone.status_code == 401 and "event" not in anyone.json
    other = client.post(f"/games/{gid}/events", json=move,
                        headers={**auth(seats[1 - seat]), **key})
    assert other.status_code in (403, 409) and "event" not in other.json
    assert first.json["event"]["salt"] not in other.get_data(as_text=True)
    again = client.post(f"/games/{gid}/events", json=move, headers={**auth(seats[seat]), **key})
    assert again.status_code == 201 and again.json["event"] == first.json["event"]
    different = client.post(f"/games/{gid}/events", json={**move, "type": "note", "data": {}},
                            headers={**auth(seats[seat]), **key})
    assert different.status_code == 409
    assert different.json["error"]["code"] == "idempotency_key_reused"


def test_a_seed_may_be_an_integer(client):
    """Issue #19.5: the CLI takes --seed N, so the API takes 7000 as well as "7000"."""
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                    "seed": 7000})
    assert r.status_code == 201
    bad = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                      "seed": [7000]})
    assert bad.status_code == 400


def test_the_digital_recorder_lists_only_the_tables_own_moves(client):
    """Issue #18.5: the recorder of a digital game sees what a spectator sees, plus the
    table's own legal actions; never a seat's (whose data would show hidden cards)."""
    made = client.post("/games", json={"game": "royals", "players": ["Ann", "Bo"],
                                       "mode": "digital", "seed": "rec"}).json
    listed = client.get(f"/games/{made['id']}/legal-actions",
                        headers=auth(made["recorder_token"])).json["actions"]
    assert all(a["actor"] == "table" for a in listed)
    seat_view = client.get(f"/games/{made['id']}/state",
                           headers=auth(made["recorder_token"])).json["view"]
    assert seat_view == client.get(f"/games/{made['id']}/state").json["view"]


def test_a_body_over_the_limit_is_413(client):
    gid, token = _table(client)
    big = json.dumps({"type": "note", "actor": "table", "data": {"x": "a" * 2_000_000}})
    r = client.post(f"/games/{gid}/events", headers=auth(token), data=big,
                    content_type="application/json")
    assert r.status_code == 413
    assert r.json["error"]["code"] == "too_large"


def test_deep_nesting_and_huge_integers_are_400_not_500(client):
    gid, token = _table(client)
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(f"/games/{gid}/events", headers=auth(token), data=deep,
                    content_type="application/json")
    assert r.status_code == 400
    huge = '{"type": "control", "actor": ' + "9" * 5000 + ', "data": {}}'
    r = client.post(f"/games/{gid}/events", headers=auth(token), data=huge,
                    content_type="application/json")
    assert r.status_code == 400


def test_games_list_filters_and_paginates(client):
    for _ in range(3):
        client.post("/games", json={"game": "adaman", "players": ["Zed"]})
    client.post("/games", json={"game": "adaman", "players": ["Amy"]})
    r = client.get("/games?player=zed&limit=2")
    assert r.json["total"] == 3 and len(r.json["games"]) == 2
    assert r.json["next"] is not None
    page2 = client.get(r.json["next"]).json
    assert len(page2["games"]) == 1 and page2["next"] is None
    assert client.get("/games?status=finished").json["total"] == 0
    assert client.get("/games?limit=0").status_code == 400
    assert client.get("/games?from=2000-01-01&to=2999-01-01").json["total"] == 4


def test_events_paginate_and_carry_annotations(client):
    text = (FIXTURES / "adaman" / "with_undo.jsonl").read_text()
    gid = client.post("/games/import", data=text, content_type="application/x-ndjson").json["id"]
    r = client.get(f"/games/{gid}/events?limit=4")
    assert [e["seq"] for e in r.json["events"]] == [0, 1, 2, 3]
    assert r.json["annotations"]["3"]["undone"] is True
    r2 = client.get(r.json["next"])
    assert r2.json["events"][0]["seq"] == 4
    assert client.get(f"/games/{gid}").json["status"] == "finished"


def test_export_then_import_round_trips_and_a_duplicate_import_is_409(client):
    gid, _ = _table(client)
    text = client.get(f"/games/{gid}/export").get_data(as_text=True)
    assert len(text.splitlines()) == 2
    r = client.post("/games/import", data=text, content_type="application/x-ndjson")
    assert r.status_code == 409
    bad = text.replace('"setup"', '"setuq"')
    r = client.post("/games/import", data=bad.replace(gid, "other-id"),
                    content_type="application/x-ndjson")
    assert r.status_code == 422
    assert client.post("/games/import", data="not jsonl").status_code == 400


def test_verify_endpoint_reports_ok(client):
    gid, _ = _table(client)
    r = client.get(f"/games/{gid}/verify")
    assert r.status_code == 200 and r.json["ok"] is True and r.json["first_bad_seq"] is None


def test_editions_list_and_add(client):
    r = client.get("/editions?game=adaman")
    assert [e["name"] for e in r.json["editions"]] == ["default"]
    content = json.loads((FIXTURES.parent / "projections/data/adaman.json").read_text())
    content["layout"]["court_count_that_loses"] = 7
    r = client.post("/editions", json={"content": content, "name": "lenient"})
    assert r.status_code == 201 and r.json["name"] == "lenient"
    r = client.post("/editions", json={"content": {"slug": "adaman"}})
    assert r.status_code == 400
    r = client.post("/games", json={"game": "adaman", "players": ["A"], "edition": "lenient"})
    assert r.status_code == 201


def test_the_stream_sends_events_as_server_sent_events(client):
    gid, _ = _table(client)
    r = client.get(f"/games/{gid}/events/stream")
    text = r.get_data(as_text=True)
    assert r.mimetype == "text/event-stream"
    assert "id: 0\nevent: chronicle" in text and "id: 1\n" in text
    r = client.get(f"/games/{gid}/events/stream", headers={"Last-Event-ID": "0"})
    assert "id: 0\n" not in r.get_data(as_text=True)


def test_openapi_and_docs_are_served(client):
    spec = client.get("/openapi.json").json
    assert "/games/{game_id}/events" in spec["paths"]
    assert client.get("/docs").status_code == 200


def test_unknown_routes_and_methods_use_the_error_body(client):
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    r = client.delete("/games")
    assert r.status_code == 405 and "error" in r.json


def test_a_table_recorder_is_offered_the_cards_still_unseen_to_pick(client, digital):
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "table"})
    gid, token, seat = r.json["id"], r.json["recorder_token"], r.json["seat_tokens"][0]
    listed = client.get(f"/games/{gid}/legal-actions", headers=auth(token)).json
    assert [a["type"] for a in listed["actions"]] == ["setup"]
    (slot,) = listed["chance_slots"]["0"]
    unseen = client.get(f"/games/{gid}/state", headers=auth(token)).json["view"]["unseen"]
    # the layout's length depends on what turns up; at least the capital's 5 and the
    # resources' 5 (adaman.json), which must come before the court's 6 can overflow
    assert slot == {"field": "drawn", "path": [], "options": unseen, "many": True,
                    "count": None, "at_least": 10, "label": "the layout, in the order dealt"}
    # a listed action stays ready to post as it is: the slots sit beside it
    assert set(listed["actions"][0]) == {"type", "actor", "data"}
    # only a table recorder enters chance outcomes: a seat or a digital game gets none
    assert client.get(f"/games/{gid}/legal-actions", headers=auth(seat)).json[
        "chance_slots"] == {}
    assert client.get(f"/games/{digital[0]}/legal-actions", headers=auth(digital[1])).json[
        "chance_slots"] == {}


def _nested(levels: int) -> str:
    """A note whose whole body is `levels` levels deep: the body, its data, then lists."""
    return '{"type": "note", "actor": "table", "data": {"x": ' + "[" * (levels - 2) \
        + "]" * (levels - 2) + "}}"


def test_the_body_and_the_action_are_held_to_one_depth_limit(client, rec):
    """64 levels are taken, 65 refused, with the same words at the HTTP door (the body as
    parsed) and at the service's (the action recorded): one limit, not two that drift."""
    gid, token = _table(client)
    for levels, status in ((64, 201), (65, 400)):
        r = client.post(f"/games/{gid}/events", headers=auth(token), data=_nested(levels),
                        content_type="application/json")
        assert r.status_code == status, (levels, r.json)
    assert r.json["error"]["message"] == "the JSON is nested deeper than 64 levels"
    game = rec.create_game({"game": "adaman", "players": ["Ann"]})
    rec.record(game.id, json.loads(_nested(64)))
    before = rec.last_seq(game.id)
    refusal = r"^the action\.data\.x(\[0\]){62} is nested deeper than 64 levels$"
    with pytest.raises(InvalidEvent, match=refusal):
        rec.record(game.id, json.loads(_nested(65)))
    assert rec.last_seq(game.id) == before


def test_prefer_return_minimal_answers_the_stored_envelope_alone(client):
    """RFC 7240 (issue #34): the envelope without the state document, said so in
    Preference-Applied; the default answer is unchanged; the stored event is the same."""
    made = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                       "seed": "minimal"}).json
    game_id, seat = made["id"], made["seat_tokens"][0]
    move = client.get(f"/games/{game_id}/legal-actions",
                      headers={"Authorization": f"Bearer {seat}"}).json["actions"][0]
    lean = client.post(f"/games/{game_id}/events", json=move, headers={
        "Authorization": f"Bearer {seat}", "Prefer": "respond-async, return=minimal"})
    assert lean.status_code == 201, lean.json
    assert set(lean.json) == {"event"}
    assert lean.headers["Preference-Applied"] == "return=minimal"
    last = client.get(f"/games/{game_id}/state", headers={"Authorization": f"Bearer {seat}"})
    assert lean.headers["ETag"] == last.headers["ETag"]
    stored = client.get(f"/games/{game_id}/events?after={lean.json['event']['seq'] - 1}",
                        headers={"Authorization": f"Bearer {seat}"}).json["events"][0]
    assert stored == lean.json["event"]
    move = client.get(f"/games/{game_id}/legal-actions",
                      headers={"Authorization": f"Bearer {seat}"}).json["actions"][0]
    full = client.post(f"/games/{game_id}/events", json=move,
                       headers={"Authorization": f"Bearer {seat}"})
    assert set(full.json) == {"event", "state"} and "Preference-Applied" not in full.headers
