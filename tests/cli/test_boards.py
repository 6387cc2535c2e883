"""The terminal's words, piece by piece: the generic board, result sentences, score tables."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cli import render
from cli.boards import BoardContext, generic

CTX = BoardContext(names=("Anna", "Bernd", "Clara"),
                   labels={"paris": "Paris", "noble_house": "Noble house", "n07": "a noble"})


def text(renderable, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False).print(renderable)
    return out.getvalue()


def test_the_generic_board_names_seats_labels_ids_and_leaves_empty_fields_out():
    view = {"current": 1, "start_player": 2, "to_act": [1], "deck_count": 12,
            "display": ["paris", "n07"], "final_round": False, "challenge": None,
            "supply": [4, 5, 6], "holder": None, "discard": {"noble_house": 2}}
    shown = text(generic(view, CTX))
    assert "current: Bernd" in shown and "start player: Clara" in shown
    assert "display: Paris, a noble" in shown
    assert "final round: no" in shown
    assert "supply: Anna 4 · Bernd 5 · Clara 6" in shown
    assert "discard: Noble house 2" in shown
    assert "challenge" not in shown and "holder" not in shown and "None" not in shown
    assert "To act" not in shown and "to act" not in shown  # the panel says it in a sentence


def test_the_generic_board_heads_each_seats_entry_with_the_players_name():
    view = {"players": [{"seat": 0, "gold": 3, "hand": ["paris"]},
                        {"seat": 1, "gold": 1, "hand": []},
                        {"seat": 2, "gold": 0, "hand": None}]}
    shown = text(generic(view, CTX))
    for name in CTX.names:
        assert f"── {name}" in shown
    assert "seat:" not in shown, "the heading already says whose entry it is"
    assert "hand: Paris" in shown and "hand: none" in shown


def test_the_generic_board_says_how_many_more_a_long_list_holds():
    shown = text(generic({"deck": [f"c{i}" for i in range(30)]}, CTX))
    assert "c23 and 6 more" in shown and "c24" not in shown


@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_generic_board_fits_its_width(width):
    view = {"garden": {f"r{r}c{c}": f"n{r}{c}" for r in range(6) for c in range(6)},
            "electorates": [{"id": "paris", "court": [{"owner": 0, "age": 35}],
                             "influence": [0, 2, 1]}] * 3}
    assert max(len(line) for line in text(generic(view, CTX), width).splitlines()) <= width


def test_a_board_that_fails_on_a_view_falls_back_to_the_generic_tree(monkeypatch):
    def broken(view, ctx):
        return view["no such field"]

    monkeypatch.setattr(render, "board_for", lambda game: broken)
    shown = text(render.board("adaman", {"deck_count": 3}, CTX))
    assert "deck count: 3" in shown


@pytest.mark.parametrize(("result", "sentence"), [
    ({"scores": [42, 30, 12], "winners": [0], "reason": "period_3_scored"},
     "Anna wins with 42 points (period 3 scored)"),
    ({"scores": [20, 20, 12], "winners": [0, 1], "reason": None},
     "Anna and Bernd share the win with 20 points"),
    ({"scores": [1, 0, 0], "winners": [], "reason": "conceded"}, "Nobody wins (conceded)"),
])
def test_a_result_is_a_sentence_naming_the_winners(result, sentence):
    assert render.result_sentence(result, CTX) == sentence


def test_a_lone_player_who_did_not_win_loses_with_the_score():
    ctx = BoardContext(names=("Ann",), labels={"no_legal_move": "no legal move left"})
    result = {"scores": [1], "winners": [], "reason": "no_legal_move"}
    assert render.result_sentence(result, ctx) == "Ann loses with 1 point (no legal move left)"


def test_the_scores_table_has_a_column_per_player_and_a_row_per_category():
    result = {"scores": [42, 30, 12], "winners": [0],
              "breakdown": {"per_seat": [{"noble_house": 10, "city": 32, "edges": {"n": 2}},
                                         {"noble_house": 0, "city": 30, "edges": {}},
                                         {"noble_house": 2, "city": 10, "edges": {"s": 1}}],
                            "markers": [[{"kind": "city"}]]}}
    lines = [line for line in text(render.scores_table(result, CTX)).splitlines()
             if line.strip()]
    assert "Anna ★" in lines[0] and "Bernd" in lines[0] and "Clara" in lines[0]
    assert [line.split()[0] for line in lines[2:]] == ["Noble", "city", "edges", "score"]
    assert lines[-1].split() == ["score", "42", "30", "12"]
    assert lines[4].split() == ["edges", "n", "2", "—", "s", "1"]
    assert "kind" not in "\n".join(lines), "a list that is not one value per player stays out"
