"""Real workloads: the recorded sample games of every game, and random legal play.

Every append case records the same stream of actions: each `fixtures/<slug>/*.jsonl`
game (all five games, as recorded) and complete random legal games of Thrones and
In the Shadow of the Emperor, all in table mode with their chance outcomes as dealt.
(The digital samples are replayed in table mode too: a digital game's seed is mixed with
the server's own randomness, so a new game cannot be dealt the same cards again; the
table enters what the server dealt.) The games are interleaved so each advances at the
same pace, so any stretch of the stream holds every game's mix of actions, and a run's
repeats are alike.
"""

from __future__ import annotations

import heapq
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events import Recorder
from projections import GAMES, get_rules
from projections.rules import Action, Dealer, GameRules, thaw

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
#: the log-level types the issue counted: the old bench's long logs were 80 % of these
META = frozenset({"undo", "redo", "note"})
EMPEROR = "in_the_shadow_of_the_emperor"


@dataclass(frozen=True, slots=True)
class RealGame:
    """One game to record: the new-game request and its actions in order."""

    name: str  # "royals/2_players" or "thrones/random-4p-1"
    request: dict[str, Any]
    actions: tuple[dict[str, Any], ...]  # {"type", "actor", "data"}

    @property
    def slug(self) -> str:
        return str(self.request["game"])


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the stream: which game (index into the stream's games) and what."""

    game: int
    action: dict[str, Any]
    first: bool  # the game's first action: the game must exist before it is recorded


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def fixture_paths() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.jsonl"))


def fixture_game(path: Path) -> RealGame:
    """A recorded sample as a table would record it: every event after game_created but
    the server's own (the revealed seed), chance outcomes included."""
    events = read_jsonl(path)
    created = events[0]["data"]
    request = {"game": created["game"], "players": list(created["players"]), "mode": "table",
               "options": created.get("options") or {}}
    actions = tuple({"type": e["type"], "actor": e["actor"], "data": e["data"]}
                    for e in events[1:] if e["actor"] != "server")
    return RealGame(f"{path.parent.name}/{path.stem}", request, actions)


def fixture_games() -> list[RealGame]:
    return [fixture_game(p) for p in fixture_paths()]


def random_game(rules: GameRules[Any], players: int, seed: int,
                avoid: frozenset[str] = frozenset({"concede"}),
                max_actions: int = 20_000) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(game_created options, actions) of one random legal game in table mode, chance dealt
    from `seed`. Concessions are avoided: a random player concedes far more often than a
    real one, and a conceded game is a short one."""
    rng = random.Random(seed)
    created = {"game": rules.slug, "players": [f"Player {i + 1}" for i in range(players)],
               "mode": "table", "options": dict(rules.default_options),
               "edition": {"name": "default", "sha256": ""}, "seed_commitment": None}
    state = rules.initial_state(created)
    actions: list[dict[str, Any]] = []
    for step in range(1, max_actions + 1):
        if rules.result(state) is not None:
            break
        action = random_action(rules, state, rng, f"bench-{seed}", step, avoid)
        if action is None:
            break
        state = rules.apply(state, action)
        actions.append({"type": action.type, "actor": action.actor, "data": thaw(action.data)})
    return created, actions


def random_action(rules: GameRules[Any], state: Any, rng: random.Random, seed: str,
                   step: int, avoid: frozenset[str]) -> Action | None:
    proposal = rules.auto_action(state)
    if proposal is None:
        options = rules.legal_actions(state, None)
        preferred = [o for o in options if o["type"] not in avoid] or options
        if not preferred:
            return None
        proposal = preferred[rng.randrange(len(preferred))]
    action = Action.of(proposal["type"], proposal["actor"], proposal["data"])
    if rules.chance_fields.get(action.type):
        action = Action.of(action.type, action.actor,
                           rules.fill_chance(state, action, Dealer(seed, step)))
    return action


def random_games(seed: int = 0) -> list[RealGame]:
    """One complete random legal game of Thrones and of the Emperor per player count."""
    games = []
    for slug in ("thrones", EMPEROR):
        rules = get_rules(slug)
        for players in type(rules).player_counts:
            created, actions = random_game(rules, players, seed * 100 + players)
            request = {"game": slug, "players": created["players"], "mode": "table",
                       "options": created["options"]}
            games.append(RealGame(f"{slug}/random-{players}p-{seed}", request, tuple(actions)))
    return games


def truncated(games: Iterable[RealGame], actions: int | None) -> list[RealGame]:
    """The games cut to their first `actions` actions (--quick); None keeps them whole."""
    if actions is None:
        return list(games)
    return [RealGame(g.name, g.request, g.actions[:actions]) for g in games]


def interleave(games: Sequence[RealGame]) -> list[Step]:
    """Every game's actions in order, the games taking turns so that each is always about
    as far through as the others: any stretch of the result holds every game's mix."""
    heap = [(1 / len(g.actions), i, 0) for i, g in enumerate(games) if g.actions]
    heapq.heapify(heap)
    steps = []
    while heap:
        _, i, done = heapq.heappop(heap)
        game = games[i]
        steps.append(Step(i, game.actions[done], done == 0))
        if done + 1 < len(game.actions):
            heapq.heappush(heap, ((done + 2) / len(game.actions), i, done + 1))
    return steps


def slices(steps: Sequence[Step], parts: int) -> list[list[Step]]:
    """`steps` cut into `parts` consecutive stretches of (nearly) equal length."""
    size, extra = divmod(len(steps), parts)
    out, at = [], 0
    for k in range(parts):
        end = at + size + (1 if k < extra else 0)
        out.append(list(steps[at:end]))
        at = end
    return out


@dataclass(frozen=True, slots=True)
class Workload:
    """The stream of every case that appends: its games and its interleaved steps."""

    games: tuple[RealGame, ...]
    steps: tuple[Step, ...]

    @classmethod
    def real(cls, actions_per_game: int | None = None, random_seed: int = 0) -> Workload:
        games = truncated(fixture_games() + random_games(random_seed), actions_per_game)
        return cls(tuple(games), tuple(interleave(games)))

    def mix(self) -> Counter[str]:
        return Counter(s.action["type"] for s in self.steps)

    def meta_share(self) -> float:
        """The share of undo, redo and note among the actions (the fixtures': < 1 %)."""
        mix = self.mix()
        return sum(mix[t] for t in META) / max(1, sum(mix.values()))

    def by_game(self) -> Counter[str]:
        return Counter(self.games[s.game].slug for s in self.steps)

    def describe(self) -> str:
        per_game = ", ".join(f"{GAMES[slug].title} {n / len(self.steps):.0%}"
                             for slug, n in self.by_game().most_common())
        return (f"{len(self.steps):,} actions of {len(self.games)} real games ({per_game}); "
                f"undo/redo/note {self.meta_share():.2%}")


class Player:
    """Records a stream into one recorder: creates each game just before its first step
    (outside the timed loop) and remembers the game ids."""

    def __init__(self, rec: Recorder, workload: Workload) -> None:
        self.rec = rec
        self.workload = workload
        self.ids: dict[int, str] = {}

    def create_games(self, steps: Iterable[Step]) -> None:
        for step in steps:
            if step.first and step.game not in self.ids:
                game = self.workload.games[step.game]
                self.ids[step.game] = self.rec.create_game(game.request).id

    def calls(self, steps: Iterable[Step]) -> Iterator[tuple[str, dict[str, Any]]]:
        """(game id, action) of each step, its game created."""
        ids = self.ids
        for step in steps:
            yield ids[step.game], step.action
