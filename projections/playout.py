"""Random legal play, for property tests, benchmarks and demo games.

Pure: the caller supplies `pick(n) -> index in [0, n)` and the seed for chance outcomes,
so the same arguments always give the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .rules import Action, Dealer, GameRules, State


@dataclass(frozen=True, slots=True)
class Playout:
    """A played game: the actions in order (chance filled) and the state after each."""

    created: Mapping[str, Any]
    actions: tuple[Action, ...]
    states: tuple[State, ...]  # states[0] is the initial state; states[i+1] after actions[i]

    @property
    def final(self) -> State:
        return self.states[-1]


#: which listed moves a player prefers (the others only when nothing preferred is offered)
Prefer = Callable[[Mapping[str, Any]], bool]


def next_action(rules: GameRules[Any], state: State, pick: Callable[[int], int], seed: str,
                step_no: int, prefer: Prefer | None = None) -> Action | None:
    """One random legal action with its chance filled, or None when nobody can act. With
    `prefer`, the pick is among the preferred moves whenever one is offered (the bench's
    playouts that never use an ability unless the rules leave no other move)."""
    auto = rules.auto_action(state)
    if auto is not None:
        proposal = auto
    else:
        options = rules.legal_actions(state, None)
        if prefer is not None:
            options = [o for o in options if prefer(o)] or options
        if not options:
            return None
        proposal = options[pick(len(options))]
    action = Action.of(proposal["type"], proposal["actor"], proposal["data"])
    if rules.chance_fields.get(action.type):
        data = rules.fill_chance(state, action, Dealer(seed, step_no))
        action = Action.of(action.type, action.actor, data)
    return action


def play(rules: GameRules[Any], created: Mapping[str, Any], pick: Callable[[int], int],
         seed: str = "playout", max_steps: int = 10_000, prefer: Prefer | None = None
         ) -> Playout:
    """Play random legal actions until the game has a result or `max_steps` is reached
    (`prefer`: see `next_action`)."""
    state = rules.initial_state(created)
    actions: list[Action] = []
    states: list[State] = [state]
    for step_no in range(1, max_steps + 1):
        if rules.result(state) is not None:
            break
        action = next_action(rules, state, pick, seed, step_no, prefer)
        if action is None:
            break
        state = rules.apply(state, action)
        actions.append(action)
        states.append(state)
    return Playout(created, tuple(actions), tuple(states))


def created_for(rules: GameRules[Any], players: int, mode: str = "digital",
                options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A game_created payload for `players` seats, as the recorder would write it."""
    return {
        "game": rules.slug,
        "players": [f"Player {i + 1}" for i in range(players)],
        "mode": mode,
        "options": {**rules.default_options, **(options or {})},
        "edition": {"name": "default", "sha256": ""},
        "seed_commitment": None,
    }
