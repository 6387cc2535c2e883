"""The long game of the state, history and export cases: one Thrones game of 100,000 events.

No game chronicle knows lasts that long (a random game ends in 150-500 actions, a recorded
one in 160-400), and a long log of notes and undo loops is not a game. So the long game is
A Game of Thrones played on: four players in table mode, random legal play (chance dealt),
no concessions, under an edition whose only change to the shipped one is a victory total
nobody reaches (`victory_power` 10^9: a house rule a group could register). Every event is
an action the reducer applies. Once the decks are drawn out, rounds go on with plots,
challenges, claims and dominance and fewer cards marshalled; the row's notes give the mix.
A typo fix (an undo, then the next move) comes at the recorded samples' own rate of undo.

The events are sealed and stored in one transaction, as an import leaves a game (no
snapshots yet), once per run; each case works on a copy so it starts cold.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events import Recorder, open_store
from events.model import GENESIS, Envelope, seal
from projections import default_edition, get_rules
from projections.rules import thaw

from .workload import fixture_games, random_action

GAME_ID = "long-thrones"
PLAYERS = 4
EDITION_NAME = "unreachable victory (bench)"


def edition() -> dict[str, Any]:
    content = default_edition("thrones")
    content["constants"] = {**content["constants"], "victory_power": 10**9}
    return content


def fixtures_undo_rate() -> float:
    """Undos per action in the recorded samples (1 in ~5,000)."""
    games = fixture_games()
    actions = [a for g in games for a in g.actions]
    return sum(1 for a in actions if a["type"] == "undo") / len(actions)


@dataclass(frozen=True, slots=True)
class LongGame:
    path: Path  # the pristine database (copy it before use)
    game_id: str
    events: int
    mix: Counter[str]

    def copy(self, target: Path) -> Path:
        """A copy as stored (cold: no snapshots)."""
        shutil.copyfile(self.path, target)
        return target

    def keep_warm(self, path: Path) -> None:
        """`path` (closed) holds this game with its snapshots: later warm copies use it."""
        _warm[str(self.path)] = path

    def warm_copy(self, target: Path) -> Path:
        """A copy whose snapshots are written, as an import or the game's writes leave them
        (reads write nothing since issue #32, so a read cannot warm it)."""
        warm = _warm.get(str(self.path))
        if warm is None:
            warm = self.copy(self.path.with_suffix(".warm.db"))
            store = open_store(str(warm))
            Recorder(store).catch_up(self.game_id)  # a write's fold: it leaves snapshots
            store.close()
            _warm[str(self.path)] = warm
        shutil.copyfile(warm, target)
        return target

    def describe(self) -> str:
        total = sum(self.mix.values())
        top = ", ".join(f"{t} {n / total:.0%}" for t, n in self.mix.most_common(6))
        undo = self.mix["undo"]
        return (f"Thrones, {PLAYERS} players, random legal play, victory out of reach: "
                f"{top}; {undo} undo{'s' if undo != 1 else ''}")


def actions(events: int, seed: int = 7) -> list[tuple[str, Any, dict[str, Any]]]:
    """(type, actor, data) of events 1..events-1: random legal moves and, at the samples'
    rate, an undo of the last move (never of a plot choice) before the next one."""
    rules = get_rules("thrones", edition())
    rng = random.Random(seed)
    undo_rate = fixtures_undo_rate()
    created = {"game": "thrones", "players": [f"Player {i + 1}" for i in range(PLAYERS)],
               "mode": "table", "options": dict(rules.default_options)}
    state = rules.initial_state(created)
    before: Any = None  # the state before the last move, while it may be undone
    last_move: int | None = None
    out: list[tuple[str, Any, dict[str, Any]]] = []
    while len(out) < events - 1:
        seq = len(out) + 1
        if last_move is not None and rng.random() < undo_rate:
            out.append(("undo", "table", {"target_seq": last_move}))
            state, before, last_move = before, None, None
            continue
        action = random_action(rules, state, rng, f"long-{seed}", seq,
                                frozenset({"concede"}))
        if action is None or rules.result(state) is not None:
            raise RuntimeError(f"the long game ended at event {seq}")
        before, state = state, rules.apply(state, action)
        last_move = seq if action.type != "choose_plot" else None
        out.append((action.type, action.actor, thaw(action.data)))
    return out


def envelopes(game_id: str, sha: str, events: int) -> tuple[list[Envelope], Counter[str]]:
    created = {"game": "thrones", "players": [f"Player {i + 1}" for i in range(PLAYERS)],
               "mode": "table", "options": dict(get_rules("thrones").default_options),
               "edition": {"name": EDITION_NAME, "sha256": sha}, "seed_commitment": None,
               "rules_version": "1"}
    env = seal(game_id, 0, "game_created", "table", created, GENESIS)
    out, mix = [env], Counter[str]()
    for seq, (kind, actor, data) in enumerate(actions(events), start=1):
        env = seal(game_id, seq, kind, actor, data, env["hash"])
        out.append(env)
        mix[kind] += 1
    return out, mix


def build(workdir: str, events: int) -> LongGame:
    """The pristine database with the long game, built once per run (per size)."""
    path = Path(workdir) / f"long-{events}.db"
    cached = _built.get(str(path))
    if cached is not None:
        return cached
    store = open_store(str(path))
    rec = Recorder(store)
    sha = rec.add_edition("thrones", edition(), EDITION_NAME)["sha256"]
    envs, mix = envelopes(GAME_ID, sha, events)
    first = envs[0]
    row = {"id": GAME_ID, "game": "thrones", "rules_version": "1",
           "players": first["data"]["players"], "mode": "table",
           "edition_name": EDITION_NAME, "edition_sha256": sha,
           "created_at": first["recorded_at"], "status": "in_progress", "result": None}
    store.import_game(row, envs, {})
    store.close()  # the last connection checkpoints the WAL into the file
    game = LongGame(path, GAME_ID, events, mix)
    _built[str(path)] = game
    return game


_built: dict[str, LongGame] = {}
_warm: dict[str, Path] = {}
