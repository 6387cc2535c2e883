"""A harness for the card tests (docs/games/thrones-abilities.md, "Test harness"): a state
with given cards in given zones for given seats, built without playing a game, and the
use of an ability through the real rules (`GameRules.apply`, so the schema, the rule and
the victory check all run)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

import pytest

from projections import get_rules
from projections.choices import Made, Walker
from projections.rules import Action, Bag, IllegalAction, replace
from projections.thrones.state import Challenge, InPlay, Player, State, initial_state

RULES = get_rules("thrones")
ED = RULES.components()
NAMES = ("Anna", "Bo", "Cy", "Di")


def number_of(card: str) -> int:
    """"core_024" -> 24."""
    return int(card.split("_")[1])


class Board:
    """A game state in the making: `play`, `hand`, `deck`, ... put a copy of a card
    (by its edition id, "core_024") into a seat's zone and return its instance id."""

    def __init__(self, houses: Iterable[str] = ("Stark", "Lannister"), *,
                 phase: str = "marshalling", step: str = "", mode: str = "digital",
                 turn: int = 0, first_player: int = 0, round: int = 1,
                 gold: int = 0) -> None:
        houses = tuple(houses)
        # the rules resolve when-revealed plots (the option of ruling 32)
        created = {"players": list(NAMES[:len(houses)]), "mode": mode,
                   "options": {"when_revealed": "rules"}}
        base = initial_state(created, ED)
        players = tuple(Player(house=h, deck=Bag(), hand=Bag(), plot_deck=Bag(), gold=gold)
                        for h in houses)
        self.state: State = replace(base, phase=phase, step=step, players=players,
                                    turn=turn, first_player=first_player, round=round,
                                    titles=(None,) * len(houses))
        self._copies: dict[str, int] = {}

    # -- ids ----------------------------------------------------------------------
    def _instance(self, seat: int, card: str) -> str:
        num = number_of(card)
        key = f"p{seat}-{num:03d}"
        self._copies[key] = self._copies.get(key, 0) + 1
        n = self._copies[key]
        return key if n == 1 else f"{key}-{n}"

    def _player(self, seat: int, **changes: Any) -> None:
        self.state = self.state.with_player(seat, **changes)

    # -- zones --------------------------------------------------------------------
    def play(self, seat: int, card: str, *, on: str | None = None, knelt: bool = False,
             power: int = 0, controller: int | None = None) -> str:
        """A card in play (an attachment `on` a card in play)."""
        ident = self._instance(seat, card)
        ip = InPlay(ident, seat if controller is None else controller, knelt=knelt,
                    power=power, host=on)
        self.state = replace(self.state, cards=(*self.state.cards, ip))
        return ident

    def hand(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, hand=self.state.players[seat].hand.add([ident]))
        return ident

    def deck(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, deck=self.state.players[seat].deck.add([ident]))
        return ident

    def plot_deck(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, plot_deck=self.state.players[seat].plot_deck.add([ident]))
        return ident

    def revealed_plot(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, revealed_plot=ident)
        return ident

    def discard(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, discard=(*self.state.players[seat].discard, ident))
        return ident

    def dead(self, seat: int, card: str) -> str:
        ident = self._instance(seat, card)
        self._player(seat, dead=(*self.state.players[seat].dead, ident))
        return ident

    def gold(self, seat: int, amount: int) -> None:
        self._player(seat, gold=amount)

    def house_power(self, seat: int, amount: int) -> None:
        self._player(seat, house_power=amount)

    def set(self, **changes: Any) -> None:
        """Any field of the state (phase, step, turn, ...)."""
        self.state = replace(self.state, **changes)

    def challenge(self, kind: str, *, attacker: int = 0, defender: int = 1,
                  attackers: Iterable[str] = (), defenders: Iterable[str] = (),
                  step: str = "defenders_declared", winner: int | None = None) -> None:
        """An open challenge (the phase becomes challenges, the attacker's turn); the
        attacker's used count of that type goes up by one, as declaring it does."""
        used = list(self.state.players[attacker].used)
        used[("military", "intrigue", "power").index(kind)] += 1
        self._player(attacker, used=tuple(used))
        loser = None if winner is None else (defender if winner == attacker else attacker)
        ch = Challenge(kind, attacker, defender, tuple(attackers), tuple(defenders),
                       step=step, winner=winner, loser=loser)
        self.state = replace(self.state, phase="challenges", challenge=ch, turn=attacker)


# -- using an ability ---------------------------------------------------------------
def action(seat: int, card: str, ability: str, choices: dict[str, Any] | None = None,
           **chance: Any) -> Action:
    return Action.of("use_ability", seat, {"card": card, "ability": ability,
                                           "choices": choices or {}, **chance})


def use(state: State, seat: int, card: str, ability: str, *, chance: dict[str, Any] | None
        = None, **choices: Any) -> State:
    """The state after `seat` uses `ability` of `card` (an instance id, "plot:0", ...)
    with the targets named as keywords; IllegalAction when refused."""
    after: State = RULES.apply(state, action(seat, card, ability, choices, **(chance or {})))
    return after


def card_name(card: str) -> str:
    """The printed name of an instance or an edition id."""
    if card.startswith("core_"):
        return ED.by_number[number_of(card)].name
    return ED.name(card)


def refused(state: State, seat: int, card: str, ability: str, *, code: str | None = None,
            name: str | None = None, chance: dict[str, Any] | None = None,
            **choices: Any) -> IllegalAction:
    """Assert the use is refused (with `code`, if given) in a sentence naming the card
    (`name`: the card's printed name by default)."""
    with pytest.raises(IllegalAction) as err:
        use(state, seat, card, ability, chance=chance, **choices)
    refusal = err.value
    if code is not None:
        assert refusal.code == code, f"{refusal.code}: {refusal.message}"
    wanted = name or (card_name(card) if not card.startswith(("plot:", "title:", "house:"))
                      else None)
    if wanted:
        assert wanted in refusal.message, refusal.message
    return refusal


def offered(state: State, seat: int) -> list[dict[str, Any]]:
    """Every complete use_ability move the choices offer `seat` now (the Walker)."""
    walker = Walker(RULES, table=state.mode == "table")
    record = RULES.action_type("use_ability")
    if record.steps(state, seat, Made(), ED) is None:
        return []
    return list(walker.moves(state, "use_ability", seat, limit=2000))


def emitted_triggers() -> frozenset[str]:
    """The triggers the rules emit at this commit: `EMITTED` in apply/triggers.py, the
    engine's one list (docs/games/thrones-abilities.md, "Triggers"); none while that module
    does not exist yet."""
    try:
        module = importlib.import_module("projections.thrones.apply.triggers")
    except ImportError:
        return frozenset()
    return frozenset(str(t) for t in getattr(module, "EMITTED", ()))


def needs(trigger: str) -> pytest.MarkDecorator:
    """Skip a card's test while the rules do not emit `trigger`; it runs once they do."""
    return pytest.mark.skipif(trigger not in emitted_triggers(),
                              reason=f"the engine does not emit {trigger} yet")
