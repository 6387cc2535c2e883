"""Sample Palais Royal games for the fixture recorder: (created, actions) per player count.

Each game is seeded random legal play (projections.playout) in digital mode, so the chance
fields are filled by the documented Dealer from the seed named here. The expected final
scores are asserted in test_palais_royal.py.
"""

from __future__ import annotations

import random
from typing import Any

from projections import get_rules
from projections.playout import created_for, play


def _game(players: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rules = get_rules("palais_royal")
    created = created_for(rules, players)
    created["players"] = ["Anne", "Bastien", "Claire", "Denis"][:players]
    game = play(rules, created, random.Random(seed).randrange, f"palais-royal-{seed}")
    return dict(created), [a.to_json() for a in game.actions]


def two_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A complete two-player game."""
    return _game(2, 2008)


def three_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A complete three-player game."""
    return _game(3, 1682)


def four_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A complete four-player game."""
    return _game(4, 1789)


#: name -> (function, final scores per seat, winners)
SAMPLE_GAMES = {
    "two_players": (two_players, [68, 27], [0]),
    "three_players": (three_players, [38, 28, 15], [0]),
    "four_players": (four_players, [26, 22, 13, 12], [0]),
}


def _digital(players: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The sample as a digital game: the server deals from the same seed as the playout."""
    created, actions = _game(players, seed)
    return {"players": created["players"], "mode": "digital",
            "seed": f"palais-royal-{seed}", "options": created["options"]}, actions


# fixtures/build.py records every `game_*` into fixtures/palais_royal/
def game_2_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _digital(2, 2008)


def game_3_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _digital(3, 1682)


def game_4_players() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _digital(4, 1789)
