"""In the Shadow of the Emperor built choice by choice over HTTP (issue #29): a table's
recorder taps the first Emperor by the player's name, enters the whole setup from the
choices alone, and a phase-IV buy asks for the card first, then where its effect goes."""

from __future__ import annotations

import json

from tests.api.conftest import auth

PLAYERS = ["Anna", "Bo", "Cleo"]


def _choices(client, game_id, token, **query):
    if "picks" in query:
        query["picks"] = json.dumps(query["picks"])
    answer = client.get(f"/games/{game_id}/choices", query_string=query, headers=auth(token))
    assert answer.status_code == 200, answer.json
    return answer.json


def _build(client, game_id, token, kind, pick_last=False):
    """Walk one move of `kind` to its end, picking the first (or last) option each time."""
    picks: list[dict] = []
    answer = _choices(client, game_id, token, type=kind)
    while answer["move"] is None:
        options = answer["choice"]["options"]
        chosen = options[-1] if pick_last else options[0]
        picks.append({"choice": answer["choice"]["id"], "value": chosen["value"]})
        answer = _choices(client, game_id, token, type=kind, picks=picks)
    return answer


def test_a_table_enters_the_emperor_s_setup_from_the_choices_alone(client):
    made = client.post("/games", json={"game": "in_the_shadow_of_the_emperor",
                                       "players": PLAYERS}).json
    game_id, recorder = made["id"], made["recorder_token"]
    setup = _choices(client, game_id, recorder, type="setup")
    assert [o["label"] for o in setup["choice"]["options"]] == PLAYERS
    answer = _build(client, game_id, recorder, "setup", pick_last=True)
    assert answer["sentence"] == ("The table set up the game for 3 players with Cleo as the "
                                  "first Emperor")
    moves = 0
    while True:
        assert client.post(f"/games/{game_id}/events", json=answer["move"],
                           headers=auth(recorder)).status_code == 201
        moves += 1
        menu = _choices(client, game_id, recorder)["actions"]
        kinds = {m["type"] for m in menu}
        if "buy_card" in kinds:
            break
        assert len(menu) == 1, menu  # the setup waits for one placement at a time
        answer = _build(client, game_id, recorder, menu[0]["type"])
    # spec §4: the empire city, 2 electors, 3 aristocrats and a knight each: 14 events
    assert moves == 1 + 1 + 2 + 3 * 3 + 3
    emperor = next(m for m in menu if m["type"] == "buy_card")["actor"]
    assert emperor == 2
    first = _choices(client, game_id, recorder, type="buy_card", actor=emperor)["choice"]
    assert first["id"] == "card" and first["prompt"] == "Which card to buy"
    doctor = next(o for o in first["options"] if o["value"] == "doctor")
    assert doctor["label"] == "Doctor" and doctor["detail"].startswith("1 thaler")
    picks = [{"choice": "card", "value": "doctor"}]
    target = _choices(client, game_id, recorder, type="buy_card", actor=emperor,
                      picks=picks)["choice"]
    assert target["id"] == "target"
    assert all("aged" in o["label"] and ("older" in o["detail"] or "younger" in o["detail"])
               for o in target["options"])
