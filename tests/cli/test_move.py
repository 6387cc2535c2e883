"""`chronicle move`: a move built choice by choice at the terminal (issue #29), from
`--pick` answers for scripts or by prompts for a person; `legal` shows the moves open."""

from __future__ import annotations

import json


def _new_digital(runner):
    result = runner(["new", "adaman", "--player", "Ann", "--mode", "digital"])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def _first_walk(runner, game_id):
    walk = json.loads(runner(["move", game_id, "control", "--dry-run", "--json",
                              "--pick", "1"]).stdout)
    return walk


def test_legal_lists_the_moves_open_now_by_their_labels(runner):
    game_id = _new_digital(runner)
    out = runner(["legal", game_id]).stdout
    assert "Moves open now" in out and "Control a card" in out and "Abandon the game" in out


def test_a_control_made_with_picks_by_label_is_recorded_as_its_sentence(runner):
    game_id = _new_digital(runner)
    state = json.loads(runner(["state", game_id, "--json"]).stdout)
    walk = _first_walk(runner, game_id)
    target = walk["picks"][0]["value"]
    picks = ["--pick", target]
    while walk["move"] is None:
        option = walk["choice"]["options"][0]
        picks += ["--pick", option["label"]]
        walk = json.loads(runner(["move", game_id, "control", "--dry-run", "--json",
                                  *picks]).stdout)
    result = runner(["move", game_id, "control", *picks, "--json"])
    assert result.exit_code == 0, result.output
    recorded = json.loads(result.stdout)["event"]
    assert recorded["type"] == "control" and recorded["data"]["target"] == target
    assert recorded["seq"] == state["seq"] + 1


def test_an_answer_that_is_no_option_is_refused_naming_the_choice(runner):
    game_id = _new_digital(runner)
    result = runner(["move", game_id, "control", "--pick", "the Moon itself"])
    assert result.exit_code == 1
    assert "is not one of the options of “Which card of the capital or court to control”" \
        in result.stderr


def test_an_incomplete_move_from_a_script_says_what_is_still_asked(runner):
    game_id = _new_digital(runner)
    result = runner(["move", game_id, "control"])
    assert result.exit_code == 1
    assert "the move is not complete: Which card of the capital or court to control" \
        in result.stderr


def test_a_person_answers_each_choice_at_the_prompt_and_may_take_one_back(runner):
    game_id = _new_digital(runner)
    walk = _first_walk(runner, game_id)
    options = walk["choice"]["options"]
    answers = ["1", "back", "1", *(["1"] * len(options)), "done"]
    result = runner(["move", game_id, "control", "--ask"], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Which card of the capital or court to control" in result.stdout
    assert "Resources to spend on" in result.stdout
    events = json.loads(runner(["log", game_id, "--json"]).stdout)["events"]
    assert events[-1]["type"] == "control"
