"""Recorded sample games of Adaman (the spec's appendix games, an undo, a digital game).

Used by fixtures/build.py to write fixtures/adaman/ and by the tests.
"""

from __future__ import annotations

from typing import Any

from projections import get_rules

Game = tuple[dict[str, Any], list[dict[str, Any]]]


def _spec_game(game_id: str) -> Game:
    games = {g["id"]: g for g in get_rules("adaman").edition["examples"]["games"]}
    return {"players": ["Ann"], "mode": "table"}, [dict(e) for e in games[game_id]["events"]]


def game_won() -> Game:
    """Spec Appendix: win_with_cards_left (score 79)."""
    return _spec_game("win_with_cards_left")


def game_won_after_deck_ran_out() -> Game:
    """Spec Appendix: win_after_deck_runs_out (score 80)."""
    return _spec_game("win_after_deck_runs_out")


def game_lost_no_move() -> Game:
    """Spec Appendix: stuck_after_three_plays (score 8)."""
    return _spec_game("stuck_after_three_plays")


def game_lost_utterly_sixth_court_card() -> Game:
    """Spec Appendix: court_overflow_after_play."""
    return _spec_game("court_overflow_after_play")


def game_with_undo() -> Game:
    """A table game where the recorder mistypes a control, undoes it and records the right one."""
    request, events = _spec_game("win_with_cards_left")
    wrong = {"type": "control", "actor": 0,
             "data": {"target": "sailor", "spend": ["journey", "ace_leaves"],
                      "drawn": ["battle", "sea"]}}
    fixed = [*events[:2], wrong, {"type": "undo", "actor": "table"}, *events[2:]]
    return request, fixed


def game_digital() -> Game:
    """A digital game: the server deals from the seed; choices by seeded random play.

    An int in place of the action list asks fixtures/build.py for random legal play
    through the recorder with that rng seed (so the choices follow the server's deals).
    """
    return {"players": ["Ann"], "mode": "digital", "seed": "chronicle-sample-7"}, 7  # type: ignore[return-value]


#: action types random sample play avoids (it would end the game at once)
RANDOM_PLAY_AVOID = frozenset({"abandon"})
