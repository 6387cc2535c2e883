"""GET /games/<id>/choices: a move built choice by choice over HTTP (issue #29), in the
token's scope, narrowing with each pick, ending with the body ready to POST and the
sentence it will be recorded as."""

from __future__ import annotations

import json

from tests.api.conftest import auth


def _choices(client, game_id, token, **query):
    if "picks" in query:
        query["picks"] = json.dumps(query["picks"])
    return client.get(f"/games/{game_id}/choices", query_string=query, headers=auth(token))


def test_a_digital_seat_builds_a_control_pick_by_pick_and_posts_it(client, digital):
    game_id, _, seat = digital
    menu = _choices(client, game_id, seat)
    assert menu.status_code == 200
    assert {"type": "control", "actor": 0, "label": "Control a card"} in menu.json["actions"]
    first = _choices(client, game_id, seat, type="control").json
    assert first["choice"]["id"] == "target" and first["move"] is None
    target = first["choice"]["options"][0]
    assert target["label"] != target["value"] and "rank" in target["detail"]
    picks = [{"choice": "target", "value": target["value"]}]
    while True:
        answer = _choices(client, game_id, seat, type="control", picks=picks).json
        if answer["move"] is not None:
            break
        picks.append({"choice": "spend", "value": answer["choice"]["options"][0]["value"]})
    assert answer["sentence"].startswith("Ann controlled ")
    posted = client.post(f"/games/{game_id}/events", json=answer["move"], headers=auth(seat))
    assert posted.status_code == 201, posted.json


def test_a_pick_that_is_not_offered_is_422_and_a_bad_picks_parameter_400(client, digital):
    game_id, _, seat = digital
    bad = _choices(client, game_id, seat, type="control",
                   picks=[{"choice": "target", "value": "no-such-card"}])
    assert bad.status_code == 422 and bad.json["error"]["code"] == "not_offered"
    assert _choices(client, game_id, seat, type="control", picks="[").status_code == 400
    client_picks = client.get(f"/games/{game_id}/choices?type=control&picks=%7B%7D",
                              headers=auth(seat))
    assert client_picks.status_code == 400


def test_a_spectator_is_offered_nothing_and_the_digital_recorder_no_seat_move(client, digital):
    game_id, recorder, _ = digital
    assert client.get(f"/games/{game_id}/choices").json == {"actions": []}
    assert client.get(f"/games/{game_id}/choices?type=control").status_code == 422
    assert _choices(client, game_id, recorder).json["actions"] == []
    assert _choices(client, game_id, recorder, type="control").status_code == 422


def test_a_table_recorder_taps_the_deal_as_choices(client):
    made = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    game_id, recorder = made["id"], made["recorder_token"]
    picks = []
    answer = _choices(client, game_id, recorder, type="setup").json
    while answer["move"] is None:
        choice = answer["choice"]
        assert choice["id"] == "drawn" and choice["kind"] == "sequence"
        picks.append({"choice": "drawn", "value": choice["options"][0]["value"]})
        answer = _choices(client, game_id, recorder, type="setup", picks=picks).json
    assert answer["complete"] and len(answer["move"]["data"]["drawn"]) == len(picks)
    posted = client.post(f"/games/{game_id}/events", json=answer["move"],
                         headers=auth(recorder))
    assert posted.status_code == 201, posted.json
