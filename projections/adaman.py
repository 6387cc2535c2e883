"""Adaman, a Decktet patience for one player (P. D. Magnus).

Spec: shared/games/adaman.md (data: data/adaman.json). One seat, seat 0.
Actions: `setup` (actor "table", chance: `drawn`), `control` (seat 0, chance: `drawn`),
`abandon` (seat 0; designed, spec §5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import combinations
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from .rules import (
    Action,
    Dealer,
    GameRules,
    IllegalAction,
    Viewer,
    ordinal,
    plural,
    possessive,
    require,
    seat_name,
    words_list,
)

CardId = str


@dataclass(frozen=True, slots=True)
class Card:
    id: CardId
    name: str
    rank: int
    suits: frozenset[str]
    personality: bool


@dataclass(frozen=True, slots=True)
class State:
    status: str  # awaiting_setup | in_progress | won | lost | lost_utterly (spec §7)
    deck: frozenset[CardId]
    capital: tuple[CardId, ...] = ()
    court: tuple[CardId, ...] = ()
    resources: tuple[CardId, ...] = ()
    discard: tuple[CardId, ...] = ()
    controlled: tuple[CardId, ...] = ()
    end_reason: str | None = None
    win_resources: tuple[CardId, ...] = ()  # the resource row when the last personality fell
    plays: int = 0  # controls made so far
    #: the player's name, for messages only (not in the view, so state digests stay put)
    names: tuple[str, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.status in ("won", "lost", "lost_utterly")


class SetupData(Schema):
    drawn = fields.List(fields.String(), required=True)


class ControlData(Schema):
    target = fields.String(required=True)
    spend = fields.List(fields.String(), required=True)
    drawn = fields.List(fields.String(), required=True)


class AbandonData(Schema):
    pass


class _EditionCard(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, validate=validate.Range(min=0))
    suits = fields.List(fields.String(), required=True)
    personality = fields.Boolean(required=True)


class _EditionLayout(Schema):
    capital_target_size = fields.Integer(required=True, validate=validate.Range(min=1))
    resources_target_size = fields.Integer(required=True, validate=validate.Range(min=1))
    court_count_that_loses = fields.Integer(required=True, validate=validate.Range(min=1))


class _Edition(Schema):
    class Meta:
        unknown = "include"

    slug = fields.String(required=True, validate=validate.Equal("adaman"))
    cards = fields.List(fields.Nested(_EditionCard(unknown="include")), required=True,
                        validate=validate.Length(min=1))
    layout = fields.Nested(_EditionLayout(unknown="include"), required=True)


class _Deal:
    """Consumes chance cards one at a time, refusing what the deck cannot hold."""

    def __init__(self, cards: Sequence[CardId], deck: frozenset[CardId],
                 name: Callable[[CardId], str]) -> None:
        self.cards = list(cards)
        self.used = 0
        self.deck = set(deck)
        self.name = name

    def has_more_in_deck(self) -> bool:
        return bool(self.deck)

    def next(self) -> CardId:
        require(self.used < len(self.cards), "drawn_too_short",
                "the deal needs more cards: "
                f"{plural(len(self.cards), 'card was', 'cards were')} recorded as turned up "
                f"while the deck still holds {plural(len(self.deck), 'card')}")
        card = self.cards[self.used]
        self.used += 1
        self.deck.discard(card)
        return card

    def finish(self) -> None:
        extra = self.cards[self.used:]
        require(not extra, "drawn_too_long",
                f"the deal stopped after {plural(self.used, 'card')}; "
                f"{words_list(self.name(c) for c in extra)} would not be turned up", extra=extra)


class Adaman(GameRules):
    slug: ClassVar[str] = "adaman"
    title: ClassVar[str] = "Adaman"
    player_counts: ClassVar[tuple[int, ...]] = (1,)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = {
        "setup": SetupData, "control": ControlData, "abandon": AbandonData,
    }
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "setup": ("drawn",), "control": ("drawn",),
    }

    # -- edition ------------------------------------------------------------
    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        try:
            _Edition().load(dict(content))
        except ValidationError as err:
            return [f"{key}: {msg}" for key, msg in sorted(err.normalized_messages().items())]
        return []

    @cached_property
    def cards(self) -> dict[CardId, Card]:
        return {c["id"]: Card(c["id"], c["name"], c["rank"], frozenset(c["suits"]),
                              bool(c["personality"])) for c in self.edition["cards"]}

    @cached_property
    def excluded(self) -> frozenset[CardId]:
        return frozenset(c["id"] for c in self.edition.get("excluded_cards", ()))

    @cached_property
    def personalities(self) -> frozenset[CardId]:
        return frozenset(c.id for c in self.cards.values() if c.personality)

    @cached_property
    def personality_rank_sum(self) -> int:
        # spec §2.4: compute the sum (66); the 2012 sheet's 70 is a slip
        return sum(self.cards[c].rank for c in self.personalities)

    def _layout(self, key: str) -> int:
        return int(self.edition["layout"][key])

    # -- protocol -----------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        """Before setup: every card in the deck."""
        return State(status="awaiting_setup", deck=frozenset(self.cards),
                     names=tuple(str(n) for n in created.get("players", ())))

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action (spec §3, §5)."""
        handler = {"setup": self._apply_setup, "control": self._apply_control,
                   "abandon": self._apply_abandon}.get(action.type)
        if handler is None:
            raise IllegalAction("unknown_action", f"adaman has no action {action.type!r}; "
                                "it knows setup, control and abandon")
        return handler(state, action)

    def to_act(self, state: State) -> tuple[Any, ...]:
        if state.status == "awaiting_setup":
            return ("table",)
        return () if state.is_over else (0,)

    def legal_actions(self, state: State, seat: Any = None) -> list[dict[str, Any]]:
        if state.status == "awaiting_setup":
            return [{"type": "setup", "actor": "table", "data": {}}] if seat in (None, "table") \
                else []
        if state.is_over or seat not in (None, 0):
            return []
        controls = [{"type": "control", "actor": 0,
                     "data": {"target": target, "spend": list(spend)}}
                    for target, spend in self.legal_controls(state)]
        return [*controls, {"type": "abandon", "actor": 0, "data": {}}]

    def result(self, state: State) -> dict[str, Any] | None:
        if not state.is_over:
            return None
        controlled = sum(self.cards[c].rank for c in state.controlled)
        resources = sum(self.cards[c].rank for c in state.win_resources)
        score = {"won": self.personality_rank_sum + resources, "lost": controlled,
                 "lost_utterly": 0}[state.status]
        breakdown = {"status": state.status, "controlled_personalities": controlled}
        if state.status == "won":
            breakdown = {"status": "won", "all_personalities": self.personality_rank_sum,
                         "resources_left": resources}
        return {"scores": [score], "winners": [0] if state.status == "won" else [],
                "reason": state.end_reason, "breakdown": breakdown}

    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        # spec §8: everything is face up but the deck, shown as a count and the unseen set
        return {
            "status": state.status,
            "end_reason": state.end_reason,
            "capital": list(state.capital),
            "court": list(state.court),
            "resources": list(state.resources),
            "discard": list(state.discard),
            "controlled": list(state.controlled),
            "deck_count": len(state.deck),
            "plays": state.plays,
            "unseen": sorted(state.deck),
            "score": (self.result(state) or {"scores": [None]})["scores"][0],
        }

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        order = dealer.shuffled(state.deck)
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in action.data.items()}
        if action.type == "setup":
            data["drawn"] = order[: self._deal_length(self._empty_table(state), order)]
        elif action.type == "control":
            moved = self._after_payment(state, action.data["target"], action.data["spend"])
            data["drawn"] = [] if self._is_won(moved) else order[: self._deal_length(moved, order)]
        return data

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        # how many cards a deal turns up depends on what turns up (§5), so no count; a
        # winning control turns up nothing
        count = None
        if action.type == "control":
            try:
                moved = self._after_payment(state, action.data["target"], action.data["spend"])
            except (IllegalAction, KeyError, TypeError):
                return []
            count = 0 if self._is_won(moved) else None
        elif action.type != "setup":
            return []
        label = "the layout, in the order dealt" if action.type == "setup" \
            else "cards turned up, in order"
        return [{"field": "drawn", "path": [], "options": sorted(state.deck), "many": True,
                 "count": count, "label": label}]

    def auto_action(self, state: State) -> dict[str, Any] | None:
        if state.status == "awaiting_setup":
            return {"type": "setup", "actor": "table", "data": {}}
        return None

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        """"Ann controlled the Sailor with the Mill, then turned up the Bard and the Pact"."""
        who = seat_name(names, action.actor)
        data = action.data
        if action.type == "setup":
            drawn = data.get("drawn") or ()
            text = f"{who} dealt the layout" + (f" ({plural(len(drawn), 'card')})" if drawn
                                                 else "")
        elif action.type == "control" and isinstance(data.get("target"), str):
            text = f"{who} controlled {self._name(data['target'])}"
            spend = [self._name(c) for c in data.get("spend") or ()]
            drawn = [self._name(c) for c in data.get("drawn") or ()]
            text += f" with {words_list(spend)}" if spend else ""
            text += f", then turned up {words_list(drawn)}" if drawn else ""
        elif action.type == "abandon":
            text = f"{who} abandoned the game"
        else:
            text = f"{who} made a move Adaman does not know ({action.type.replace('_', ' ')})"
        return text[:1].upper() + text[1:]

    def labels(self) -> dict[str, str]:
        """The cards' and suits' printed names, and words for the statuses and the ways a
        game ends, which the boards and results show (spec §7)."""
        loses = self._layout("court_count_that_loses")
        words = {
            "awaiting_setup": "waiting for the deal", "in_progress": "in progress",
            "won": "won", "lost": "lost", "lost_utterly": "lost utterly",
            "all_personalities_controlled": "every personality controlled",
            "no_legal_move": "no legal move left", "abandoned": "abandoned",
            "court_overflow": f"a {ordinal(loses)} personality reached the court",
        }
        return {**words, **super().labels()}

    # -- handlers -----------------------------------------------------------
    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn",
                "the setup deal is the table's, not "
                f"{possessive(seat_name(state.names, action.actor))}")
        require(state.status == "awaiting_setup", "game_already_set_up",
                "the layout has already been dealt")
        drawn = list(action.data["drawn"])
        self._check_ids(drawn)
        return self._check_stuck(self._deal(self._empty_table(state), drawn))

    def _apply_control(self, state: State, action: Action) -> State:
        self._require_player(state, action, "control a card")
        self._require_running(state)
        target, spend = action.data["target"], list(action.data["spend"])
        self._check_control(state, target, spend)
        drawn = list(action.data["drawn"])
        self._check_ids(drawn)
        moved = replace(self._after_payment(state, target, spend), plays=state.plays + 1)
        if self._is_won(moved):
            # spec §6 step 3 and §10.4: victory ends the game before any refill
            require(not drawn, "drawn_after_victory",
                    "the last personality was controlled, so the game is won and no card "
                    f"is turned up, yet {words_list(self._name(c) for c in drawn)} "
                    f"{'was' if len(drawn) == 1 else 'were'} recorded as turned up")
            return replace(moved, status="won", end_reason="all_personalities_controlled",
                           win_resources=moved.resources)
        for card in drawn:
            require(card in state.deck, "card_not_in_deck",
                    f"{self._name(card)} is not in the deck; it was already turned up",
                    card=card)
        return self._check_stuck(self._deal(moved, drawn))

    def _apply_abandon(self, state: State, action: Action) -> State:
        self._require_player(state, action, "abandon it")
        self._require_running(state)
        return replace(state, status="lost", end_reason="abandoned")

    # -- rules helpers ------------------------------------------------------
    def _require_player(self, state: State, action: Action, what: str) -> None:
        """One seat plays Adaman (seat 0); anyone else is refused by name."""
        if action.actor != 0:
            raise IllegalAction("not_your_turn",
                                f"only {seat_name(state.names, 0)} plays this patience, so "
                                f"{seat_name(state.names, action.actor)} may not {what}",
                                expected=0, actor=action.actor)

    def _require_running(self, state: State) -> None:
        require(state.status != "awaiting_setup", "game_not_started",
                "the layout has not been dealt yet (setup comes first)")
        require(not state.is_over, "game_over",
                f"the game is over: {seat_name(state.names, 0)} "
                f"{self.labels().get(state.status, state.status)}")

    def _name(self, card: CardId) -> str:
        """The card's printed name ("the Sailor"); an id no edition knows stays quoted."""
        if card in self.cards:
            return self.cards[card].name
        excluded = {c["id"]: c["name"] for c in self.edition.get("excluded_cards", ())}
        return excluded.get(card, repr(card))

    def _suits(self, card: CardId) -> str:
        names = {s["id"]: s["name"] for s in self.edition.get("suits", ())}
        return words_list(names.get(s, s) for s in sorted(self.cards[card].suits))

    def _check_ids(self, cards: Sequence[CardId]) -> None:
        for card in cards:
            self._require_known(card)
        seen: set[CardId] = set()
        for card in cards:
            require(card not in seen, "duplicate_card", f"{self._name(card)} appears twice",
                    card=card)
            seen.add(card)

    def _require_known(self, card: CardId) -> None:
        if card in self.excluded:
            raise IllegalAction("card_not_in_basic_deck",
                                f"{self._name(card)} is an extended Decktet card; Adaman uses "
                                "the basic 36-card deck only", card=card)
        require(card in self.cards, "unknown_card", f"{card!r} is not a Decktet card", card=card)

    def _check_control(self, state: State, target: CardId, spend: list[CardId]) -> None:
        """Spec §5 checks 2-5, in order."""
        self._require_known(target)
        require(target in state.capital or target in state.court,
                "target_not_in_capital_or_court",
                f"{self._name(target)} is not in the capital or the court, so it cannot be "
                "controlled", card=target)
        require(bool(spend), "spend_empty", "spend at least one resource card")
        self._check_ids(spend)
        for card in spend:
            require(card in state.resources, "spend_card_not_in_resources",
                    f"{self._name(card)} is not in the resource row", card=card)
        goal = self.cards[target]
        for card in spend:
            require(bool(self.cards[card].suits & goal.suits), "spend_card_shares_no_suit",
                    f"{self._name(card)} ({self._suits(card)}) shares no suit with "
                    f"{goal.name} ({self._suits(target)}); every spent card must", card=card)
        total = sum(self.cards[c].rank for c in spend)
        require(total >= goal.rank, "spend_total_too_low",
                f"{goal.name} has rank {goal.rank}; the spent cards add up to {total}",
                total=total, rank=goal.rank)

    def _after_payment(self, state: State, target: CardId, spend: Sequence[CardId]) -> State:
        """Spec §6 steps 1-2: spent cards to the discard, the target to discard or resources."""
        resources = tuple(c for c in state.resources if c not in spend)
        capital = tuple(c for c in state.capital if c != target)
        court = tuple(c for c in state.court if c != target)
        discard = (*state.discard, *spend)
        controlled = state.controlled
        if self.cards[target].personality:
            discard, controlled = (*discard, target), (*controlled, target)
        else:
            resources = (*resources, target)
        return replace(state, resources=resources, capital=capital, court=court,
                       discard=discard, controlled=controlled)

    def _is_won(self, state: State) -> bool:
        return self.personalities <= set(state.controlled)

    def _empty_table(self, state: State) -> State:
        return replace(state, status="in_progress")

    def _deal(self, state: State, drawn: Sequence[CardId]) -> State:
        """Spec §3 and §6 steps 4-6: capital first, then resources with personalities to court."""
        deal = _Deal(drawn, state.deck, self._name)
        capital, court, resources = list(state.capital), list(state.court), list(state.resources)
        status, reason = state.status, state.end_reason
        for row, card in self._routing(deal, capital, court, resources):
            row.append(card)
            if row is court and len(court) >= self._layout("court_count_that_loses"):
                status, reason = "lost_utterly", "court_overflow"
                break
        deal.finish()
        return replace(state, deck=frozenset(deal.deck), capital=tuple(capital),
                       court=tuple(court), resources=tuple(resources), status=status,
                       end_reason=reason)

    def _routing(self, deal: _Deal, capital: list[CardId], court: list[CardId],
                 resources: list[CardId]) -> Iterator[tuple[list[CardId], CardId]]:
        while len(capital) < self._layout("capital_target_size") and deal.has_more_in_deck():
            yield capital, deal.next()
        while len(resources) < self._layout("resources_target_size") and deal.has_more_in_deck():
            card = deal.next()
            yield (court if self.cards[card].personality else resources), card

    def _deal_length(self, state: State, order: Sequence[CardId]) -> int:
        """How many cards of `order` the deal turns up (digital mode fills `drawn` with them)."""
        try:
            dealt = self._deal(state, order)
        except IllegalAction as err:
            if err.code != "drawn_too_long":
                raise
            return len(order) - len(err.details["extra"])
        return len(state.deck) - len(dealt.deck)

    def _check_stuck(self, state: State) -> State:
        """Spec §6 step 7: a running game with no legal control is lost."""
        if state.is_over or any(True for _ in self.legal_controls(state)):
            return state
        return replace(state, status="lost", end_reason="no_legal_move")

    def legal_controls(self, state: State) -> Iterator[tuple[CardId, tuple[CardId, ...]]]:
        """Every (target, spend) pair legal now (spec §12: each qualifying subset is a move)."""
        if state.status != "in_progress":
            return
        for target in (*state.capital, *state.court):
            goal = self.cards[target]
            matching = [c for c in state.resources if self.cards[c].suits & goal.suits]
            if sum(self.cards[c].rank for c in matching) < goal.rank:
                continue
            for size in range(1, len(matching) + 1):
                for spend in combinations(matching, size):
                    if sum(self.cards[c].rank for c in spend) >= goal.rank:
                        yield target, spend
