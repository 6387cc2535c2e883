"""A small table harness for thrones tests: start a game, set up, step through phases."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from projections import get_rules
from projections.playout import created_for
from projections.rules import Action, IllegalAction
from projections.thrones.apply.rounds import draw_counts
from projections.thrones.apply.setup import deck_for, setup_draw_counts
from projections.thrones.apply.values import total_power

HOUSES = ("Stark", "Lannister", "Baratheon", "Targaryen")


class Table:
    """Applies actions through the real reducer; draws take the lowest ids (deterministic)."""

    def __init__(self, n: int = 2, options: dict[str, Any] | None = None,
                 decks: dict[str, Any] | None = None, hands: dict[int, list[str]] | None = None,
                 setup_first: int = 0, houses: tuple[str, ...] = HOUSES) -> None:
        self.rules = get_rules("thrones")
        self.created = created_for(self.rules, n, "table", options)
        self.state = self.rules.initial_state(self.created)
        self.actions: list[dict[str, Any]] = []
        players = [{"seat": s, "name": f"Player {s + 1}", "house": houses[s]} for s in range(n)]
        data: dict[str, Any] = {"players": players, "setup_first": setup_first}
        if decks:
            data["decks"] = decks
        hands = dict(hands or {})
        setup_hands = {}
        for seat in range(n):
            _, _plots, draw = deck_for(seat, houses[seat], (decks or {}).get(str(seat)),
                                       self.rules.components())
            from projections.thrones.edition import instance_ids
            deck = instance_ids(seat, draw)
            chosen = list(hands.get(seat, []))
            rest = sorted(c for c in deck if c not in chosen)
            setup_hands[str(seat)] = (chosen + rest)[:7]
        data["setup_hands"] = setup_hands
        self.do("start_game", "table", **data)

    # -- acting --------------------------------------------------------------
    def do(self, kind: str, actor: Any, **data: Any) -> Table:
        self.state = self.rules.apply(self.state, Action.of(kind, actor, data))
        self.actions.append({"type": kind, "actor": actor, "data": data})
        return self

    def refused(self, kind: str, actor: Any, **data: Any) -> IllegalAction:
        with pytest.raises(IllegalAction) as err:
            self.rules.apply(self.state, Action.of(kind, actor, data))
        return err.value

    def effect(self, actor: Any, *ops: dict[str, Any], source: str | None = None,
               costs: list[dict[str, Any]] | None = None) -> Table:
        """A free-form change, as the table's ruling (ruling 29: only the table's recorder
        records one, with its reason); `actor` names the seat the test has in mind."""
        return self.do("effect", "table", source=source, ops=list(ops), costs=costs or [],
                       reason=f"test ruling for {actor}")

    def draws(self, counts: dict[int, int]) -> dict[str, list[str]]:
        return {str(s): sorted(self.state.players[s].deck)[:k] for s, k in counts.items()}

    def setup(self, cards: dict[int, list[Any]] | None = None) -> Table:
        cards = cards or {}
        while self.state.phase == "setup":
            seat = self.state.turn
            entries = [c if isinstance(c, dict) else {"card": c} for c in cards.get(seat, [])]
            self.do("setup_cards", seat, cards=entries)
        counts = setup_draw_counts(self.state, self.rules.components())
        self.do("setup_draw", "table", draws=self.draws(counts))
        return self

    def plots(self, plots: dict[int, str], first: int = 0, titles: dict[int, str] | None = None,
              stop_at_tie: bool = False) -> Table:
        for seat, plot in plots.items():
            self.do("choose_plot", seat, plot=plot)
        if self.state.step == "tie":
            if stop_at_tie:
                return self
            self.do("break_initiative_tie", "table", winner=self.state.tied[0])
        self.do("choose_first_player", self.state.initiative_winner, first_player=first)
        while self.state.step == "titles":
            self.do("choose_title", self.state.turn, title=(titles or {})[self.state.turn])
        return self

    def draw_phase(self) -> Table:
        counts = draw_counts(self.state, self.rules.components())
        return self.do("draw_phase", "table", draws=self.draws(counts))

    def end_marshalling(self) -> Table:
        while self.state.phase == "marshalling":
            self.do("end_marshalling", self.state.turn)
        return self

    def end_challenges(self) -> Table:
        while self.state.phase == "challenges":
            self.do("end_challenges", self.state.turn)
        return self

    def put(self, seat: int, *cards: str, knelt: bool = False, host: str | None = None
            ) -> Table:
        """Put cards into play with legal `effect` events (from wherever they are)."""
        for card in cards:
            player = self.state.players[int(card[1:card.index("-")])]
            zone = "hand" if card in player.hand else "deck"
            op = {"op": "put_into_play", "card": card, "from": zone, "controller": seat,
                  "knelt": knelt}
            if host:
                op["attach_to"] = host
            self.effect("table", op)
        return self

    def power(self, seat: int) -> int:
        return total_power(self.state, seat)

    @property
    def p(self):
        return self.state.players


def zones(state: Any) -> dict[int, list[str]]:
    """Every card instance by owner, one entry per zone it is in (conservation)."""
    out: dict[int, list[str]] = {s: [] for s in range(state.n)}

    def add(cards: Any) -> None:
        for card in cards:
            out[int(card[1:card.index("-")])].append(card)

    for p in state.players:
        add(p.deck)
        add(p.hand)
        add(p.plot_deck)
        add(p.used_plots)
        add(p.discard)
        add(p.dead)
        add(p.removed)
        add(c for c, _ in p.setup_cards)
        if p.revealed_plot:
            add([p.revealed_plot])
    for c in state.cards:
        add([c.id, *c.duplicates])
    return out


# ---------------------------------------------------------------------------
# Fixtures step by step, and what a person may read (issue #20)
# ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "thrones").glob("*.jsonl"))
#: the edition read straight from its file: the oracle of every name the tests expect
EDITION = json.loads((ROOT / "projections" / "data" / "thrones.json").read_text("utf-8"))
CARD_NAMES = {int(c["number"]): c["name"] for c in EDITION["cards"]}
TITLE_NAMES = {t["id"]: t["name"] for t in EDITION["titles"]}
EDITION_HOUSES = tuple(h["id"] for h in EDITION["houses"])
INSTANCE = re.compile(r"\bp(\d)-(\d{3})(?:-\d+)?\b")


@dataclass(frozen=True)
class Step:
    """One recorded action of a fixture, with the states around it."""

    fixture: str
    names: tuple[str, ...]
    seq: int
    action: Action
    before: Any
    after: Any


def fixture_steps(every: int = 1) -> Iterator[Step]:
    """Each action of every Thrones fixture (every `every`-th one, and always the last)."""
    rules = get_rules("thrones")
    for path in FIXTURES:
        envs = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        created = envs[0]["data"]
        state = rules.initial_state(created)
        for i, env in enumerate(envs[1:], start=1):
            action = Action.of(env["type"], env["actor"], env["data"])
            after = rules.apply(state, action)
            if i % every == 0 or i == len(envs) - 1:
                yield Step(path.stem, tuple(created["players"]), env["seq"], action, state,
                           after)
            state = after


def unreadable(text: str, names: tuple[str, ...]) -> list[str]:
    """What in a sentence a person should not have to read: a seat number of a player, an
    instance id of a card of the set, snake_case outside quotes, `None`, a Python repr."""
    problems = []
    bare = re.sub(r'"[^"]*"', '""', text)  # what the recorder typed is quoted as typed
    for match in re.finditer(r"\bseat (\d+)\b", bare):
        if int(match.group(1)) < len(names):
            problems.append(f"seat number {match.group(0)!r}")
    for match in INSTANCE.finditer(bare):
        if int(match.group(2)) in CARD_NAMES:
            problems.append(f"instance id {match.group(0)!r}")
    problems += [f"snake_case {w!r}" for w in re.findall(r"\b[a-z]+_[a-z_]+\b", bare)]
    problems += [f"repr {w!r}" for w in ("None", "FrozenDict", "{'", "['", "('", "True",
                                        "False") if w in bare]
    problems += [f"list {w!r}" for w in re.findall(r"\[\d[\d, ]*\]|\[\]", bare)]
    return problems
