"""Auditing beyond replay: corrections, two recorders, re-audit, claimed results, stats."""

from __future__ import annotations

import json
from functools import cached_property

import pytest

import projections
from events import IllegalAction, Recorder
from events.audit import compare, reaudit, statistics
from projections.adaman import Adaman

from ..conftest import FIXTURES


def _import(rec: Recorder, slug: str, name: str, new_id: str | None = None) -> str:
    lines = (FIXTURES / slug / f"{name}.jsonl").read_text("utf-8").splitlines()
    if new_id:  # a second copy of the same record: same content under another id
        envs = [json.loads(x) for x in lines]
        from events.model import GENESIS, seal

        prev, out = GENESIS, []
        for env in envs:
            env = seal(new_id, env["seq"], env["type"], env["actor"], env["data"], prev,
                       env["idempotency_key"], env["recorded_at"], env["salt"])
            prev = env["hash"]
            out.append(json.dumps(env))
        lines = out
    return rec.import_lines(lines).id


def _table_copy(rec: Recorder, slug: str, name: str, upto: int | None = None,
                replace: dict | None = None) -> str:
    """Re-record a fixture's actions in a new table game (optionally changing one)."""
    envs = [json.loads(x) for x in (FIXTURES / slug / f"{name}.jsonl").read_text().splitlines()]
    created = envs[0]["data"]
    game = rec.create_game({"game": slug, "players": created["players"],
                            "options": created["options"]})
    for env in envs[1:upto]:
        action = {"type": env["type"], "actor": env["actor"], "data": env["data"]}
        if replace and env["seq"] in replace:
            action = replace[env["seq"]]
        if env["type"] in ("undo", "redo"):
            getattr(rec, env["type"])(game.id)
        elif env["type"] != "seed_revealed":
            rec.record(game.id, action)
    return game.id


def test_a_correction_replaces_an_event_and_names_the_later_event_it_makes_illegal(rec):
    game_id = _table_copy(rec, "adaman", "won")
    original = rec.store.event(game_id, 2)
    fixed = {"type": "control", "actor": 0,
             "data": {**original["data"], "drawn": ["sailor", "ace_leaves", "sea"]}}
    recorded = rec.record(game_id, {"type": "correction", "actor": "table",
                                    "data": {"target_seq": 2, "action": fixed}})
    report = recorded.correction_report
    assert report[0] == {"seq": 3, "status": "illegal", "message": report[0]["message"]}
    assert "card_not_in_deck" in report[0]["message"] and "the Sea" in report[0]["message"]
    verify = rec.verify(game_id)
    assert not verify["ok"]
    assert verify["first_bad_seq"] == 3
    assert verify["problems"][0]["code"] == "invalidated_by_correction"
    assert [e["seq"] for e in rec.store.events(game_id)][2] == 2, "the original stays"
    _, notes = rec.history(game_id)
    assert notes[2]["corrected_by"] == recorded.event["seq"]
    assert "the Sea" in notes[3]["invalid"]


def test_a_correction_that_is_itself_illegal_is_refused_and_stores_nothing(rec):
    game_id = _table_copy(rec, "adaman", "won")
    last = rec.last_seq(game_id)
    bad = {"type": "control", "actor": 0,
           "data": {"target": "bard", "spend": ["ace_knots"], "drawn": []}}
    with pytest.raises(IllegalAction) as err:
        rec.record(game_id, {"type": "correction", "actor": "table",
                             "data": {"target_seq": 2, "action": bad}})
    assert "itself illegal at seq 2" in err.value.message
    assert rec.last_seq(game_id) == last


def test_undoing_a_correction_restores_the_original_history(rec):
    game_id = _table_copy(rec, "adaman", "won")
    before = rec.state(game_id)
    original = rec.store.event(game_id, 2)
    fixed = {"type": "control", "actor": 0,
             "data": {**original["data"], "drawn": ["sailor", "ace_leaves", "sea"]}}
    rec.record(game_id, {"type": "correction", "actor": "table",
                         "data": {"target_seq": 2, "action": fixed}})
    rec.undo(game_id)
    after = rec.state(game_id)
    assert (after["view"], after["result"]) == (before["view"], before["result"])
    assert rec.verify(game_id)["ok"]


def test_corrections_are_refused_in_digital_play(rec):
    game_id = _import(rec, "adaman", "digital")
    with pytest.raises(IllegalAction) as err:
        rec.record(game_id, {"type": "correction", "actor": "table", "data": {
            "target_seq": 2, "action": {"type": "abandon", "actor": 0, "data": {}}}})
    assert err.value.code == "corrections_table_only"


def test_two_records_of_one_table_name_the_first_event_where_they_differ(rec):
    envs = [json.loads(x) for x in (FIXTURES / "adaman/won.jsonl").read_text().splitlines()]
    a = _table_copy(rec, "adaman", "won")
    alternative = {"type": "control", "actor": 0,
                   "data": {"target": "sailor", "spend": ["journey", "ace_leaves"],
                            "drawn": ["battle", "sea"]}}
    b = _table_copy(rec, "adaman", "won", upto=3, replace=None)
    rec.record(b, alternative)
    report = compare(rec, a, b)
    assert report["agree"] is False
    assert report["index"] == 2
    assert report["a"]["action"]["data"] == envs[3]["data"]
    assert report["b"]["action"] == alternative
    assert compare(rec, a, a)["agree"] is True


def test_compare_accepts_the_same_history_recorded_with_an_undo(rec):
    a = _table_copy(rec, "adaman", "won")
    b = _import(rec, "adaman", "with_undo")
    assert compare(rec, a, b)["agree"] is True


def test_compare_refuses_records_of_different_games(rec):
    a = _table_copy(rec, "adaman", "won")
    b = rec.create_game({"game": "adaman", "players": ["Somebody else"]}).id
    with pytest.raises(IllegalAction) as err:
        compare(rec, a, b)
    assert err.value.code == "not_the_same_game"


class AdamanWithTheSheetsSeventy(Adaman):
    """A test-only reducer version: the 2012 sheet's score constant (70, not 66)."""

    rules_version = "2-test"

    @cached_property
    def personality_rank_sum(self) -> int:
        return 70


def test_a_reaudit_under_a_changed_ruling_names_the_games_and_first_differing_event(
        rec, monkeypatch):
    won = _table_copy(rec, "adaman", "won")
    lost = _table_copy(rec, "adaman", "lost_no_move")
    unchanged = {r["game_id"]: r for r in reaudit(rec, "adaman")}
    assert not unchanged[won]["changed"] and not unchanged[lost]["changed"]
    monkeypatch.setitem(projections.GAMES, "adaman", AdamanWithTheSheetsSeventy)
    projections._bound.cache_clear()
    reports = {r["game_id"]: r for r in reaudit(rec, "adaman")}
    projections._bound.cache_clear()
    assert reports[won]["changed"] and reports[won]["result_changed"]
    assert reports[won]["current_result"]["scores"] == [83]
    assert reports[won]["first_differing_seq"] == rec.last_seq(won)
    assert reports[won]["pinned_rules_version"] == "1"
    assert not reports[lost]["changed"], "a lost game's score does not use the constant"


def test_a_claimed_score_that_disagrees_is_reported_by_seat_and_category(rec):
    game_id = _table_copy(rec, "adaman", "won")
    rec.record(game_id, {"type": "claim_result", "actor": "table", "data": {
        "scores": [80], "per_seat": [{"resources_left": 14}], "text": "counted twice"}})
    report = rec.verify(game_id)
    assert not report["ok"]
    problem = report["problems"][0]
    assert problem["code"] == "claimed_result_differs"
    assert {(d["seat"], d["category"], d["claimed"], d["computed"])
            for d in problem["differences"]} == {(0, "total", 80, 79),
                                                 (0, "resources_left", 14, 13)}


def test_a_claim_that_agrees_passes_and_a_claim_before_the_end_is_refused(rec):
    game_id = _table_copy(rec, "adaman", "won")
    rec.record(game_id, {"type": "claim_result", "actor": "table",
                         "data": {"scores": [79], "text": "79, a win"}})
    assert rec.verify(game_id)["ok"]
    running = _table_copy(rec, "adaman", "won", upto=4)
    with pytest.raises(IllegalAction) as err:
        rec.record(running, {"type": "claim_result", "actor": "table", "data": {"scores": [9]}})
    assert err.value.code == "game_not_over"


def test_statistics_across_the_archive(rec):
    for name in ("won", "lost_no_move", "lost_utterly_sixth_court_card"):
        _import(rec, "adaman", name)
    rec.create_game({"game": "adaman", "players": ["Ann"]})
    report = statistics(rec)
    adaman = report["games"]["adaman"]
    assert report["total_games"] == 4
    assert adaman["played"] == 4 and adaman["finished"] == 3
    assert adaman["win_rate_by_seat"] == {"0": round(1 / 3, 3)}
    assert adaman["scores"]["max"] == 79 and adaman["scores"]["min"] == 0
    assert adaman["most_frequent_actions"][0][0] == "control"


def test_cli_compare_reaudit_and_stats(runner):
    a = runner(["import", str(FIXTURES / "adaman/won.jsonl")]).stdout.strip()
    b = runner(["import", str(FIXTURES / "adaman/with_undo.jsonl")]).stdout.strip()
    assert runner(["compare", a, b]).exit_code == 0
    out = json.loads(runner(["reaudit", "--json"]).stdout)
    assert out["changed"] == 0 and len(out["games"]) == 2
    stats = json.loads(runner(["stats", "--json"]).stdout)
    assert stats["total_games"] == 2


def test_api_compare_and_stats(client):
    a = client.post("/games/import", data=(FIXTURES / "adaman/won.jsonl").read_text(),
                    content_type="application/x-ndjson").json["id"]
    b = client.post("/games/import", data=(FIXTURES / "adaman/with_undo.jsonl").read_text(),
                    content_type="application/x-ndjson").json["id"]
    assert client.get(f"/games/{a}/compare/{b}").json["agree"] is True
    assert client.get("/stats").json["total_games"] == 2
    assert client.get("/reaudit").json["changed"] == 0


# -- the same capabilities on a second game's recorded fixture (Royals, 2 players) ----------
def test_royals_two_records_of_one_table_name_the_first_event_where_they_differ(rec):
    a = _table_copy(rec, "royals", "2_players")
    b = _table_copy(rec, "royals", "2_players", upto=40)
    report = compare(rec, a, b)
    assert report["agree"] is False
    assert report["b"] is None and report["a"]["seq"] == 40
    assert compare(rec, a, _table_copy(rec, "royals", "2_players"))["agree"] is True


def test_royals_a_claimed_score_that_disagrees_is_reported_by_seat(rec):
    game_id = _import(rec, "royals", "2_players")
    result = rec.state(game_id)["result"]
    wrong = [result["scores"][0], result["scores"][1] + 5]
    rec.record(game_id, {"type": "claim_result", "actor": "table",
                         "data": {"scores": wrong, "text": "seat 1 added a title twice"}})
    problems = rec.verify(game_id)["problems"]
    assert problems[0]["code"] == "claimed_result_differs"
    assert problems[0]["differences"] == [{"seat": 1, "category": "total",
                                           "claimed": wrong[1],
                                           "computed": result["scores"][1]}]


def test_royals_a_correction_is_re_judged_and_reaudit_and_stats_cover_it(rec):
    game_id = _table_copy(rec, "royals", "2_players", upto=30)
    events = list(rec.store.events(game_id))
    end_turn = next(e for e in events[5:] if e["type"] == "end_turn")
    recorded = rec.record(game_id, {"type": "correction", "actor": "table", "data": {
        "target_seq": end_turn["seq"],
        "action": {"type": end_turn["type"], "actor": end_turn["actor"],
                   "data": end_turn["data"]}}})
    assert recorded.correction_report == [], "the same action again changes nothing"
    assert rec.verify(game_id)["ok"]
    assert not reaudit(rec, "royals")[0]["changed"]
    assert statistics(rec, "royals")["games"]["royals"]["played"] == 1


def test_a_correction_of_a_hidden_draw_shows_the_other_seats_no_more_than_the_draw_did(rec):
    """Engine ruling 14: a correction carries a whole action, so the other seat sees of it
    what it would see of that action: a Royals card drawn from the deck stays hidden (its
    data withheld, no salt to test guesses with); its owner and the recorder see it all."""
    lines = (FIXTURES / "royals" / "2_players.jsonl").read_text("utf-8").splitlines()
    moves = [json.loads(line) for line in lines[1:10]]  # setup .. Bo's draw from the deck
    made = rec.create_game({"game": "royals", "players": ["Ann", "Bo"], "mode": "table"})
    for move in moves:
        rec.record(made.id, {k: move[k] for k in ("type", "actor", "data")})
    draw = moves[-1]
    assert draw["seq"] == 9 and draw["data"]["draws"][0]["source"] == "deck"
    fixed = {**draw["data"], "draws": [{"card": "spain", "kind": "country", "source": "deck"},
                                       draw["data"]["draws"][1]]}
    rec.record(made.id, {"type": "correction", "actor": "table", "data": {
        "target_seq": 9, "action": {"type": "draw_cards", "actor": 1, "data": fixed}}})
    stored = rec.store.event(made.id, 10)

    def seen_by(token):
        events, _ = rec.history(made.id, access=rec.access(made.id, token))
        return next(e for e in events if e["seq"] == 10)

    ann, bo = made.seat_tokens
    for sees_all in (bo, made.recorder_token):
        assert seen_by(sees_all)["data"] == stored["data"] and "salt" in seen_by(sees_all)
    to_ann = seen_by(ann)
    assert to_ann["type"] == "correction" and "salt" not in to_ann
    assert "spain" not in json.dumps(to_ann["data"]), to_ann["data"]
