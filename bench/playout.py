"""Case: random legal playouts of every registered game, games per second."""

from __future__ import annotations

import random
import time
from typing import Any

from projections import GAMES, get_rules
from projections.playout import created_for, play
from projections.rules import plural

from . import Config, Row


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    rows = []
    for slug, cls in sorted(GAMES.items()):
        rules = get_rules(slug)
        players = cls.player_counts[0]
        created = created_for(rules, players)
        steps = 0
        start = time.perf_counter()
        for i in range(cfg.playout_games):
            rng = random.Random(i)
            game = play(rules, created, rng.randrange, seed=f"bench-{i}")
            steps += len(game.actions)
        elapsed = time.perf_counter() - start
        rows.append(Row(f"random legal playouts: {cls.title} ({plural(players, 'player')})",
                        "games/s", cfg.playout_games / elapsed,
                        notes=[f"{steps / cfg.playout_games:.1f} actions a game, "
                               f"{steps / elapsed:,.0f} actions/s"]))
    return rows
