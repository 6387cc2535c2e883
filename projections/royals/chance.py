"""Royals: the chance outcomes of an action: dealt by the server in digital play
(`fill_chance`), picked at the table in table mode (`chance_slots`), and what a player
chooses without them (`strip_chance`).

Digital mode (ruling R13): every pick is uniform over the cards of the pile as a multiset
(sorted, then `dealer.choice`), card by card, through the same draws and refill the rules
run, so a deal and its check cannot disagree.

Table mode: slots by action:

- `setup`: `start_player` (one seat) and `display` (the cards turned face up, a list of
  exactly `display_size` cards from the prepared deck);
- `draw_cards`: one slot per card of the deck or the intrigue pile, at `draws[i].card`;
  display cards are a choice, already named in the listed action;
- `end_turn`: `refill`, the cards turned up in order, as many as the refill turns (0 when the
  display is full or the game ends).

Every pick of one action is taken from one pool (a card picked in one slot is gone from the
others). Where a pile runs out during the action (spec §6.4), its last cards are all taken
before the reshuffled discards: a pick after the run-out is offered both piles, which is
exact once the picks before it are made, since those take every card of the emptied pile.
The refill is then given card by card (`refill[i]`) rather than as one list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import repeat
from typing import Any

from ..messages import M, Mn, Ordinal
from ..rules import Action, Dealer, IllegalAction, possessive, seat_name, thaw
from .actions import ACTIONS
from .apply import Entry, drawn_cards, parse_draws, refill_cards
from .edition import Components, intrigue_pair
from .state import AWAITING_SETUP, OVER, State

Slot = dict[str, Any]


def fill_chance(state: State, action: Action, dealer: Dealer,
                components: Components) -> dict[str, Any]:
    """Digital mode (ruling R13): the action's data with its outcomes dealt by `dealer`."""
    data: dict[str, Any] = dict(thaw(action.data))

    def pick(pile: Counter[str]) -> str:
        return nth_card(pile, dealer.below(sum(n for n in pile.values() if n > 0)))

    if action.type == "setup":
        data["start_player"] = dealer.below(state.players)
        data["display"] = dealer.shuffled(state.deck)[: components.display_size]
    elif action.type == "draw_cards":
        entries = parse_draws(action.data)
        data["draws"] = [_entry_json(e) for e in drawn_cards(state, entries, pick, components)]
    elif action.type == "end_turn":
        data["refill"] = refill_cards(state, action, pick, components)
    return data


def nth_card(pile: Counter[str], index: int) -> str:
    """The card at `index` of the pile's cards in sorted order (`sorted(pile.elements())`
    without listing them): a pick is uniform over the cards as a multiset (ruling R13)."""
    for card in sorted(pile):
        index -= max(pile[card], 0)
        if index < 0:
            return card
    raise IndexError("a pick beyond the pile")


def _entry_json(entry: Entry) -> dict[str, Any]:
    kind, source, card = entry
    if kind == "intrigue":
        return {"kind": "intrigue", "card": intrigue_pair(card)}
    return {"kind": "country", "source": source, "card": card}


#: the chance fields of each action type, as its record declares them
_CHANCE = {record.name: record.chance for record in ACTIONS}


def strip_chance(action: Action, components: Components) -> dict[str, Any]:
    """What a player chooses: a draw keeps its kinds and sources (and a display card, which
    is a choice); the cards from the deck and the intrigue pile are the chance outcome. (The
    engine's default drops the whole `draws` field, which also holds the choices.)"""
    chance = _CHANCE.get(action.type, ())
    data = {k: thaw(v) for k, v in action.data.items() if k not in chance}
    draws = action.data.get("draws", ())
    if action.type == "draw_cards" and isinstance(draws, tuple | list) and all(
            isinstance(d, Mapping) for d in draws):
        data["draws"] = [{k: v for k, v in thaw(d).items()
                          if k != "card" or d.get("source") == "display"} for d in draws]
    elif action.type == "draw_cards" and "draws" in action.data:
        data["draws"] = thaw(draws)  # malformed: left for the schema to refuse
    return data


class _Trace:
    """A pick for a dry run: takes any card (only the piles' sizes steer a draw), and notes
    for each pick the cards it could be. `kinds` names the pile of each pick in turn."""

    def __init__(self, kinds: Iterable[str]) -> None:
        self._kinds: Iterator[str] = iter(kinds)
        self._runs: dict[str, tuple[Counter[str], list[str], int]] = {}
        self.offered: list[list[str]] = []
        self.reshuffled: list[bool] = []  # the pick comes after its pile ran out

    def __call__(self, pile: Counter[str]) -> str:
        kind = next(self._kinds)
        run = self._runs.get(kind)
        if run is None:
            run = (pile, sorted(pile.elements()), 0)
        elif run[0] is not pile:
            # the emptied pile's cards were all picked before: offered again, so that one
            # pool of every pick of the action stays exact
            run = (pile, run[1] + sorted(pile.elements()), run[2] + 1)
        self._runs[kind] = run
        self.offered.append(list(run[1]))
        self.reshuffled.append(run[2] > 0)
        return next(pile.elements())


def chance_slots(state: State, action: Action, components: Components) -> list[Slot]:
    """Table mode: the start player and display of the setup, each card of a draw from the
    deck or the intrigue pile, the refill of the display; [] for an action that is not
    possible now (spec: GameRules.chance_slots), as every action is once the game is over."""
    if state.phase == OVER:
        return []
    try:
        if action.type == "setup":
            return _setup_slots(state, components)
        if action.type == "draw_cards":
            return _draw_slots(state, action, components)
        if action.type == "end_turn":
            return _refill_slots(state, action, components)
    except (IllegalAction, AttributeError, TypeError):
        return []
    return []


def _setup_slots(state: State, components: Components) -> list[Slot]:
    if state.phase != AWAITING_SETUP:
        return []
    return [
        {"field": "start_player", "path": [], "options": list(range(state.players)),
         "many": False, "count": None, "label": M("the start player"),
         "groups": seat_groups(state.names, state.players)},
        {"field": "display", "path": [], "options": list(state.deck), "many": True,
         "count": components.display_size,
         "label": Mn("the {count} card turned face up for the display",
                     "the {count} cards turned face up for the display",
                     components.display_size)},
    ]


def _draw_slots(state: State, action: Action, components: Components) -> list[Slot]:
    entries = parse_draws(action.data)
    hidden = [(index, kind) for index, (kind, source, _) in enumerate(entries)
              if source != "display"]
    trace = _Trace(kind for _, kind in hidden)
    drawn_cards(state, entries, trace, components)
    several = Counter(kind for _, kind in hidden)
    who = seat_name(state.names, state.current)
    slots, seen = [], Counter[str]()
    for (index, kind), offered, late in zip(hidden, trace.offered, trace.reshuffled,
                                            strict=True):
        seen[kind] += 1
        nth = Ordinal(seen[kind])
        if kind == "intrigue":
            options: list[Any] = [intrigue_pair(card) for card in offered]
            label = M("the {nth} intrigue card {player} drew", nth=nth, player=who) \
                if several[kind] > 1 else M("the intrigue card {player} drew", player=who)
        else:
            options = offered
            label = M("the {nth} card {player} drew from the deck", nth=nth, player=who) \
                if several[kind] > 1 else M("the card {player} drew from the deck", player=who)
        slots.append({"field": "draws", "path": [index, "card"], "options": options,
                      "many": False, "count": None, "label": _after_run_out(label, late)})
    return slots


def _refill_slots(state: State, action: Action, components: Components) -> list[Slot]:
    trace = _Trace(repeat("country"))
    refill_cards(state, action, trace, components)
    whose = possessive(seat_name(state.names, state.current))
    if not any(trace.reshuffled):
        return [{"field": "refill", "path": [], "options": trace.offered[0] if trace.offered
                 else [], "many": True, "count": len(trace.offered),
                 "label": M("the cards turned up to refill the display at the end of {whose} "
                            "turn, in order", whose=whose)}]
    # the pile ran out during the refill: card by card, the emptied pile's cards first
    return [{"field": "refill", "path": [i], "options": offered, "many": False, "count": None,
             "label": _after_run_out(M("the {nth} card turned up to refill the display at "
                                       "the end of {whose} turn", nth=Ordinal(i + 1),
                                       whose=whose), late)}
            for i, (offered, late) in enumerate(zip(trace.offered, trace.reshuffled,
                                                    strict=True))]


def _after_run_out(label: str, late: bool) -> str:
    if not late:
        return label
    return M("{label} (after the pile ran out and the discards were reshuffled)", label=label)


def seat_groups(names: tuple[str, ...], players: int) -> list[dict[str, Any]]:
    """The seats of a chance slot by their players' names (one item each, no heading)."""
    return [{"label": "", "items": [{"label": seat_name(names, seat), "values": [seat]}
                                    for seat in range(players)]}]
