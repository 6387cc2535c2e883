"""Case: random legal playouts of every registered game, games per second.

Thrones (issue #30) is played in digital play at 2, 3 and 4 players twice in the same run,
game by game in turn: "after", random legal play as the rules list it (abilities used,
windows answered, the revealed plots resolved by the rules), against "before", the move
set of before the abilities work: a seat never picks `use_ability` while the rules offer
anything else (a window is passed), and the plots are left to the table. Only a forced
answer that gives a choice, which the rules never let a seat pass (ruling 38), is still
used there; the notes count it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from projections import GAMES, get_rules
from projections.playout import created_for, play
from projections.rules import GameRules, plural

from . import Config, Row

THRONES = "thrones"
THRONES_PLAYERS = (2, 3, 4)


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    rows = []
    for slug, cls in sorted(GAMES.items()):
        if slug == THRONES:
            rows += [_thrones_row(cfg, n) for n in THRONES_PLAYERS]
            continue
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


@dataclass
class Tally:
    """What one way of playing did over its games."""

    seconds: float = 0.0
    games: int = 0
    actions: int = 0
    uses: int = 0  # use_ability actions (the server's forced uses among them)

    def add(self, seconds: float, types: list[str]) -> None:
        self.seconds += seconds
        self.games += 1
        self.actions += len(types)
        self.uses += types.count("use_ability")

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    def words(self, uses: str) -> str:
        share = self.uses / self.actions if self.actions else 0.0
        return (f"{self.actions / self.games:.1f} actions a game, {share:.1%} {uses} "
                f"({self.uses / self.games:.1f} a game), {self.actions / self.seconds:,.0f} "
                "actions/s")


def _no_ability(move: Mapping[str, Any]) -> bool:
    return move["type"] != "use_ability"


def _one(rules: GameRules[Any], created: Mapping[str, Any], i: int, tally: Tally,
         abilities: bool) -> None:
    rng = random.Random(i)
    start = time.perf_counter()
    game = play(rules, created, rng.randrange, seed=f"bench-{i}",
                prefer=None if abilities else _no_ability)
    tally.add(time.perf_counter() - start, [a.type for a in game.actions])


def _thrones_row(cfg: Config, players: int) -> Row:
    """Abilities used against never chosen, the same seeds, game by game in turn."""
    rules = get_rules(THRONES)
    after_game = created_for(rules, players, "digital")
    before_game = created_for(rules, players, "digital", {"when_revealed": "table"})
    before, after = Tally(), Tally()
    for i in range(cfg.playout_games):
        _one(rules, before_game, i, before, abilities=False)
        _one(rules, after_game, i, after, abilities=True)
    title = GAMES[THRONES].title
    return Row(f"random legal playouts: {title} ({plural(players, 'player')}), digital, "
               "abilities used", "games/s", after.rate,
               baseline=f"never an ability move (windows passed, plots left to the table): "
                        f"{before.rate:,.2f} games/s",
               baseline_value=before.rate, ratio=after.rate / before.rate,
               notes=[f"abilities used: {after.words('use_ability')}",
                      f"never chosen: {before.words('forced answers the rules require')}"])
