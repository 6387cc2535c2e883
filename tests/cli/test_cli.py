"""The CLI: thin commands over the recorder, exit codes 0/1/2, --json for scripts."""

from __future__ import annotations

import json

from ..conftest import FIXTURES


def _new_digital(runner, seed="cli-1"):
    result = runner(["new", "adaman", "--player", "Ann", "--mode", "digital", "--seed", seed])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_new_prints_only_the_id_on_stdout(runner):
    result = runner(["new", "adaman", "--player", "Ann"])
    assert result.exit_code == 0
    assert len(result.stdout.split()) == 1
    assert "recorder token" in result.stderr


def test_a_digital_game_played_with_legal_json_exports_and_verifies(runner, tmp_path):
    game_id = _new_digital(runner)
    for _ in range(40):
        state = json.loads(runner(["state", game_id, "--json"]).stdout)
        if state["status"] == "finished":
            break
        options = json.loads(runner(["legal", game_id, "--json"]).stdout)
        choice = next((a for a in options if a["type"] != "abandon"), options[0])
        result = runner(["act", game_id, choice["type"], "--actor", str(choice["actor"]),
                         "--data", json.dumps(choice["data"])])
        assert result.exit_code == 0, result.output
    assert state["status"] == "finished"
    assert set(state) >= {"game_id", "game", "seq", "status", "view", "result"}
    out = tmp_path / "game.jsonl"
    assert runner(["export", game_id, "-o", str(out)]).exit_code == 0
    verified = runner(["verify", str(out), "--json"])
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["ok"] is True

    lines = out.read_text().splitlines()
    lines[2] = lines[2].replace('"control"', '"contro1"')
    out.write_text("\n".join(lines) + "\n")
    failed = runner(["verify", str(out)])
    assert failed.exit_code == 1
    assert "seq 2" in failed.stderr


def test_an_illegal_move_exits_1_names_the_rule_and_appends_nothing(runner):
    game_id = runner(["import", str(FIXTURES / "adaman" / "lost_no_move.jsonl")]).stdout.strip()
    runner(["undo", game_id])
    before = json.loads(runner(["state", game_id, "--json"]).stdout)["seq"]
    result = runner(["act", game_id, "control", "--actor", "0", "--data",
                     '{"target": "lunatic", "spend": ["ace_leaves"], "drawn": []}'])
    assert result.exit_code == 1
    assert "spend_card_shares_no_suit" in result.stderr
    assert json.loads(runner(["state", game_id, "--json"]).stdout)["seq"] == before


def test_usage_errors_exit_2(runner):
    assert runner(["act", "x", "control", "--data", "{not json"]).exit_code == 2
    assert runner(["new"]).exit_code == 2
    assert runner(["nonsense"]).exit_code == 2


def test_an_unknown_game_id_is_refused_with_exit_1(runner):
    result = runner(["state", "no-such-game"])
    assert result.exit_code == 1
    assert "no-such-game" in result.stderr


def test_undo_redo_and_log_mark_the_undone_event(runner):
    game_id = runner(["import", str(FIXTURES / "adaman" / "with_undo.jsonl")]).stdout.strip()
    log = json.loads(runner(["log", game_id, "--json"]).stdout)
    assert log["annotations"]["3"]["undone"] is True
    assert log["annotations"]["5"]["undone"] is False
    assert runner(["undo", game_id]).exit_code == 0
    assert runner(["redo", game_id, "--json"]).exit_code == 0
    assert runner(["redo", game_id]).exit_code == 1


def test_replay_prints_one_step_and_steps_with_keys(runner):
    game_id = runner(["import", str(FIXTURES / "adaman" / "won.jsonl")]).stdout.strip()
    one = runner(["replay", game_id, "--at", "1"])
    assert one.exit_code == 0
    assert "step 1" in one.stdout and "dealt the layout" in one.stdout
    stepping = runner(["replay", game_id], input="fnnpq")
    assert stepping.exit_code == 0
    assert "step 0" in stepping.stdout and "step 2" in stepping.stdout


def test_state_as_a_seat_and_at_a_step(runner):
    game_id = runner(["import", str(FIXTURES / "adaman" / "won.jsonl")]).stdout.strip()
    doc = json.loads(runner(["state", game_id, "--at", "1", "--as", "0", "--json"]).stdout)
    assert doc["seq"] == 1 and doc["status"] == "in_progress"
    assert doc["view"]["deck_count"] == 23


def test_editions_list_and_add(runner, tmp_path):
    listed = json.loads(runner(["editions", "adaman", "--json"]).stdout)
    assert [e["name"] for e in listed] == ["default"]
    content = json.loads((FIXTURES.parent / "projections/data/adaman.json").read_text())
    content["layout"]["court_count_that_loses"] = 7
    path = tmp_path / "house.json"
    path.write_text(json.dumps(content))
    added = runner(["editions", "add", str(path), "--name", "house-rule"])
    assert added.exit_code == 0, added.output
    game = runner(["new", "adaman", "--player", "Ann", "--edition", "house-rule"])
    assert game.exit_code == 0, game.output
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"slug": "adaman", "cards": "nope"}))
    refused = runner(["editions", "add", str(broken)])
    assert refused.exit_code == 1
    assert "cards" in refused.stderr


def test_games_lists_and_filters(runner):
    runner(["import", str(FIXTURES / "adaman" / "won.jsonl")])
    runner(["new", "adaman", "--player", "Bo"])
    listed = json.loads(runner(["games", "--json", "--status", "finished"]).stdout)
    assert [g["id"] for g in listed["games"]] == ["adaman-won"]
    assert json.loads(runner(["games", "--json", "--player", "bo"]).stdout)["total"] == 1
