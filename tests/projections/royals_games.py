"""Sample Royals games for 2, 3, 4 and 5 players, as (created, actions) for fixture files.

Each game is played by a simple greedy policy (claim or usurp the most influential noble it
can pay for, else end the turn; draws rotate through the listed options) with the chance
outcomes dealt by `Dealer(seed, seq)` exactly as the server does in digital mode, so the same
function always returns the same game. Their final scores are asserted in test_royals.py.
"""

from __future__ import annotations

from typing import Any

from projections import get_rules
from projections.playout import created_for
from projections.rules import Action, Dealer

Game = tuple[dict[str, Any], list[dict[str, Any]]]


def _choose(rules: Any, state: Any, step: int) -> dict[str, Any]:
    options = rules.legal_actions(state, None)
    plays = [o for o in options if o["type"] in ("claim_noble", "usurp_noble")]
    if plays:
        def worth(option: dict[str, Any]) -> tuple[int, int, str]:
            portrait = rules.board.portrait(option["data"]["portrait"])
            return (portrait.influence, portrait.rank, portrait.id)
        return max(plays, key=worth)
    return options[step % len(options)]


def greedy_game(players: int, seed: str, options: dict[str, Any] | None = None) -> Game:
    """A complete digital-mode game of `players` seats, dealt from `seed`."""
    rules = get_rules("royals")
    created = created_for(rules, players, mode="digital", options=options)
    state = rules.initial_state(created)
    actions: list[dict[str, Any]] = []
    while rules.result(state) is None:
        seq = len(actions) + 1  # seq 0 is game_created
        proposal = rules.auto_action(state) or _choose(rules, state, seq)
        action = Action.of(proposal["type"], proposal["actor"], proposal["data"])
        if rules.chance_fields.get(action.type):
            action = Action.of(action.type, action.actor,
                               rules.fill_chance(state, action, Dealer(seed, seq)))
        state = rules.apply(state, action)
        actions.append(action.to_json())
    return created, actions


def two_players() -> Game:
    return greedy_game(2, "royals-sample-2")


def three_players() -> Game:
    return greedy_game(3, "royals-sample-3")


def four_players() -> Game:
    return greedy_game(4, "royals-sample-4")


def five_players() -> Game:
    return greedy_game(5, "royals-sample-5")


def three_players_finishing_the_round() -> Game:
    """The variant period3_finish_round (spec §9 ruling 5)."""
    return greedy_game(3, "royals-sample-3v", {"variants": {"period3_finish_round": True,
                                                            "edition_arcane_wonders_deck": False}})


SAMPLES = {"two_players": two_players, "three_players": three_players,
           "four_players": four_players, "five_players": five_players,
           "three_players_finishing_the_round": three_players_finishing_the_round}


def _digital(players: int, seed: str, options: dict[str, Any] | None = None) -> Game:
    """The sample as a digital game: the server deals from `seed`, as greedy_game does."""
    created, actions = greedy_game(players, seed, options)
    return {"players": created["players"], "mode": "digital", "seed": seed,
            "options": created["options"]}, actions


# fixtures/build.py records every `game_*` into fixtures/royals/
def game_2_players() -> Game:
    return _digital(2, "royals-sample-2")


def game_3_players() -> Game:
    return _digital(3, "royals-sample-3")


def game_4_players() -> Game:
    return _digital(4, "royals-sample-4")


def game_5_players() -> Game:
    return _digital(5, "royals-sample-5")


def game_3_players_finishing_the_round() -> Game:
    return _digital(3, "royals-sample-3v", {"variants": {"period3_finish_round": True,
                                                         "edition_arcane_wonders_deck": False}})
