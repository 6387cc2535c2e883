"""Issue #30, "Done when": a digital seat cannot change the game except through a move the
rules list. Over HTTP, in a digital two-player game, seat 1 (Lannister, Ser Ilyn Payne
set up) posts a free-form effect, an ability outside its window, on a wrong target,
without its cost, of a card in another zone and of another seat's card: each is a 422 that
names the card and changes nothing; the ability used rightly is a 201."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import auth

ILYN = "p1-041"  # Ser Ilyn Payne: "Marshalling: kneel him to kill a character whose STR is 2
#                  or less." (core_041)
SEED = "abilities-1"


def _post(client: Any, gid: str, token: str, kind: str, actor: Any, data: dict[str, Any]
          ) -> Any:
    return client.post(f"/games/{gid}/events", headers=auth(token),
                       json={"type": kind, "actor": actor, "data": data})


def _state(client: Any, gid: str, token: str) -> dict[str, Any]:
    return client.get(f"/games/{gid}/state", headers=auth(token)).json


def _game(client: Any, seed: str = SEED) -> tuple[str, str, list[str]]:
    # the plots' when-revealed abilities stay the table's (ruling 32's option): a plot of
    # the deal must not kneel Ser Ilyn before the seat's moves are tried
    r = client.post("/games", json={"game": "thrones", "players": ["Ann", "Bo"],
                                    "mode": "digital", "seed": seed,
                                    "options": {"when_revealed": "table"}})
    assert r.status_code == 201, r.json
    gid, rec, seats = r.json["id"], r.json["recorder_token"], r.json["seat_tokens"]
    r = _post(client, gid, rec, "start_game", "table", {"players": [
        {"seat": 0, "name": "Ann", "house": "Stark"},
        {"seat": 1, "name": "Bo", "house": "Lannister"}]})
    assert r.status_code == 201, r.json
    return gid, rec, seats


def _seq(client: Any, gid: str, token: str) -> int:
    return int(_state(client, gid, token)["seq"])


def test_a_digital_seat_changes_the_game_only_through_a_card_it_may_use(client):
    for attempt in range(80):  # the server's entropy joins the seed: deal until he comes
        gid, _rec, seats = _game(client, f"{SEED}-{attempt}")
        hand = _state(client, gid, seats[1])["view"]["players"][1]["hand"]
        if ILYN in hand:
            break
    assert ILYN in hand, "80 deals without Ser Ilyn Payne"
    for _ in range(2):  # in the setup order the server dealt
        seat = _state(client, gid, seats[1])["view"]["to_act"][0]
        cards = [{"card": ILYN}] if seat == 1 else []
        r = _post(client, gid, seats[seat], "setup_cards", seat, {"cards": cards})
        assert r.status_code == 201, r.json
    victim = "p0-013"  # not in play: Bran Stark, in Ann's deck or hand
    refusals = [
        ("effect", {"source": None, "costs": [], "ops": [
            {"op": "gain_power", "target": "house:1", "amount": 15}]}, "effect_not_allowed",
         "free-form effect"),
        ("use_ability", {"card": ILYN, "ability": "kill_weakling",
                         "choices": {"victim": ILYN}}, "outside_window", "Ser Ilyn Payne"),
    ]
    before = _seq(client, gid, seats[1])
    for kind, data, code, named in refusals:
        r = _post(client, gid, seats[1], kind, 1, data)
        assert r.status_code == 422, r.json
        assert r.json["error"]["code"] == code and named in r.json["error"]["message"], r.json
    assert _seq(client, gid, seats[1]) == before
    # to the marshalling phase: plots, first player, the draw (the server's), then Ann's
    # marshalling ends and Bo marshals
    for _ in range(40):
        view = _state(client, gid, seats[1])["view"]
        if view["phase"] == "marshalling" and view["turn"] == 1:
            break
        actor = view["to_act"][0]
        token = seats[actor]
        actions = client.get(f"/games/{gid}/legal-actions", headers=auth(token)).json
        pick = next(a for a in actions["actions"] if a["type"] in (
            "choose_plot", "choose_first_player", "end_marshalling", "pass_window")
            and (a["type"] != "choose_first_player" or a["data"]["first_player"] == 0))
        assert _post(client, gid, token, pick["type"], actor, pick["data"]).status_code == 201
    view = _state(client, gid, seats[1])["view"]
    assert view["phase"] == "marshalling" and view["turn"] == 1
    in_deck = next(c for c in view["players"][1]["deck"])
    before = _seq(client, gid, seats[1])
    hostile = [
        ({"card": ILYN, "ability": "kill_weakling", "choices": {"victim": victim}},
         "wrong_target", "Ser Ilyn Payne"),
        ({"card": ILYN, "ability": "kill_weakling", "choices": {}}, "wrong_target",
         "Ser Ilyn Payne"),
        ({"card": ILYN, "ability": "no_such", "choices": {}}, "no_ability", "Ser Ilyn Payne"),
        ({"card": in_deck, "ability": "kill_weakling", "choices": {"victim": ILYN}},
         None, None),
    ]
    for data, code, named in hostile:
        r = _post(client, gid, seats[1], "use_ability", 1, data)
        assert r.status_code == 422, r.json
        if code is not None:
            assert r.json["error"]["code"] == code, r.json
            assert named in r.json["error"]["message"], r.json
    # another seat's card, and the ability used rightly, then again without its cost
    r = _post(client, gid, seats[0], "use_ability", 0,
              {"card": ILYN, "ability": "kill_weakling", "choices": {"victim": ILYN}})
    assert r.status_code in (403, 422), r.json
    assert _seq(client, gid, seats[1]) == before
    r = _post(client, gid, seats[1], "use_ability", 1,
              {"card": ILYN, "ability": "kill_weakling", "choices": {"victim": ILYN}})
    assert r.status_code == 201, r.json
    assert ILYN in _state(client, gid, seats[1])["view"]["players"][1]["dead"]

