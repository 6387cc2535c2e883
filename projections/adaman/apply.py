"""Adaman's three actions (spec §5, §6): each checks its rules, then builds the next state.

A deal routes the cards turned up (spec §3, §6 steps 4-6) and a game with no legal control
left is lost (§6 step 7): the automatic consequences of setup and control, helpers named
after their rule. The engine refuses unknown types and moves after the end first
(`Adaman.admissible`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..messages import M, Mn
from ..rules import (
    Action,
    CardId,
    IllegalAction,
    possessive,
    replace,
    require,
    seat_name,
)
from .edition import Components
from .legal import legal_controls
from .state import State
from .words import card_name, card_names, suits_text


class _Deal:
    """Consumes chance cards one at a time, refusing what the deck cannot hold."""

    def __init__(self, cards: Sequence[CardId], deck: frozenset[CardId],
                 components: Components) -> None:
        self.cards = list(cards)
        self.used = 0
        self.deck = set(deck)
        self.components = components

    def has_more_in_deck(self) -> bool:
        return bool(self.deck)

    def next(self) -> CardId:
        require(self.used < len(self.cards), "drawn_too_short",
                M("the deal needs more cards: {recorded} recorded as turned up while the deck "
                  "still holds {held}",
                  recorded=Mn("{count} card was", "{count} cards were", len(self.cards)),
                  held=Mn("{count} card", "{count} cards", len(self.deck))))
        card = self.cards[self.used]
        self.used += 1
        self.deck.discard(card)
        return card

    def finish(self) -> None:
        extra = self.cards[self.used:]
        require(not extra, "drawn_too_long",
                M("the deal stopped after {used}; {cards} would not be turned up",
                  used=Mn("{count} card", "{count} cards", self.used),
                  cards=card_names(extra, self.components)), extra=extra)


# -- the actions ---------------------------------------------------------------------------
def apply_setup(state: State, action: Action, components: Components) -> State:
    """Spec §3: the table deals the layout."""
    require(action.actor == "table", "not_your_turn",
            M("the setup deal is the table's, not {whose}",
              whose=possessive(seat_name(state.names, action.actor))))
    require(state.status == "awaiting_setup", "game_already_set_up",
            M("the layout has already been dealt"))
    drawn = list(action.data["drawn"])
    _check_ids(drawn, components)
    return _lost_without_a_move(deal(in_progress(state), drawn, components), components)


def apply_control(state: State, action: Action, components: Components) -> State:
    """Spec §5-§6: pay for a card of the capital or court, then refill the layout."""
    _require_player(state, action, M("control a card"))
    _require_dealt(state)
    target, spend = action.data["target"], list(action.data["spend"])
    _check_control(state, target, spend, components)
    drawn = list(action.data["drawn"])
    _check_ids(drawn, components)
    moved = replace(after_payment(state, target, spend, components), plays=state.plays + 1)
    if is_won(moved, components):
        return _won(moved, drawn, components)
    for card in drawn:
        require(card in state.deck, "card_not_in_deck",
                M("{card} is not in the deck; it was already turned up",
                  card=card_name(card, components)),
                card=card)
    return _lost_without_a_move(deal(moved, drawn, components), components)


def apply_abandon(state: State, action: Action, components: Components) -> State:
    """Spec §5 (designed): the player gives up; an ordinary loss."""
    _require_player(state, action, M("abandon it"))
    _require_dealt(state)
    return replace(state, status="lost", end_reason="abandoned")



# -- guards --------------------------------------------------------------------------------
def _require_player(state: State, action: Action, what: str) -> None:
    """One seat plays Adaman (seat 0); anyone else is refused by name."""
    if action.actor != 0:
        raise IllegalAction("not_your_turn",
                            M("only {player} plays this patience, so {actor} may not {what}",
                              player=seat_name(state.names, 0),
                              actor=seat_name(state.names, action.actor), what=what),
                            expected=0, actor=action.actor)


def _require_dealt(state: State) -> None:
    require(state.status != "awaiting_setup", "game_not_started",
            M("the layout has not been dealt yet (setup comes first)"))


def _check_ids(cards: Sequence[CardId], components: Components) -> None:
    for card in cards:
        _require_known(card, components)
    seen: set[CardId] = set()
    for card in cards:
        require(card not in seen, "duplicate_card",
                M("{card} appears twice", card=card_name(card, components)), card=card)
        seen.add(card)


def _require_known(card: CardId, components: Components) -> None:
    if card in components.excluded:
        raise IllegalAction("card_not_in_basic_deck",
                            M("{card} is an extended Decktet card; Adaman uses the basic "
                              "36-card deck only", card=card_name(card, components)), card=card)
    require(card in components.cards, "unknown_card", M("{card} is not a Decktet card",
                                                  card=repr(card)),
            card=card)


def _check_control(state: State, target: CardId, spend: list[CardId],
                   components: Components) -> None:
    """Spec §5 checks 2-5, in order."""
    _require_known(target, components)
    require(target in state.capital or target in state.court,
            "target_not_in_capital_or_court",
            M("{card} is not in the capital or the court, so it cannot be controlled",
              card=card_name(target, components)), card=target)
    require(bool(spend), "spend_empty", M("spend at least one resource card"))
    _check_ids(spend, components)
    for card in spend:
        require(card in state.resources, "spend_card_not_in_resources",
                M("{card} is not in the resource row", card=card_name(card, components)),
                card=card)
    _check_payment(target, spend, components)


def _check_payment(target: CardId, spend: list[CardId], components: Components) -> None:
    """Spec §5 checks 4-5: every spent card shares a suit with the target, ranks add up."""
    goal = components.cards[target]
    for card in spend:
        require(bool(components.cards[card].suits & goal.suits), "spend_card_shares_no_suit",
                M("{card} ({suits}) shares no suit with {target} ({target_suits}); every "
                  "spent card must", card=card_name(card, components),
                  suits=suits_text(card, components), target=goal.name,
                  target_suits=suits_text(target, components)), card=card)
    total = sum(components.cards[c].rank for c in spend)
    require(total >= goal.rank, "spend_total_too_low",
            M("{card} has rank {rank}; the spent cards add up to {total}", card=goal.name,
              rank=goal.rank, total=total),
            total=total, rank=goal.rank)


# -- the rules that follow by themselves -----------------------------------------------------
def in_progress(state: State) -> State:
    """The table before the setup deal, with the game running."""
    return replace(state, status="in_progress")


def after_payment(state: State, target: CardId, spend: Sequence[CardId],
                  components: Components) -> State:
    """Spec §6 steps 1-2: spent cards to the discard, the target to discard or resources."""
    resources = tuple(c for c in state.resources if c not in spend)
    capital = tuple(c for c in state.capital if c != target)
    court = tuple(c for c in state.court if c != target)
    discard = (*state.discard, *spend)
    controlled = state.controlled
    if components.cards[target].personality:
        discard, controlled = (*discard, target), (*controlled, target)
    else:
        resources = (*resources, target)
    return replace(state, resources=resources, capital=capital, court=court,
                   discard=discard, controlled=controlled)


def is_won(state: State, components: Components) -> bool:
    """Spec §7: every personality controlled."""
    return components.personalities <= set(state.controlled)


def _won(moved: State, drawn: Sequence[CardId], components: Components) -> State:
    """Spec §6 step 3 and §10.4: victory ends the game before any refill."""
    require(not drawn, "drawn_after_victory",
            Mn("the last personality was controlled, so the game is won and no card is "
               "turned up, yet {cards} was recorded as turned up",
               "the last personality was controlled, so the game is won and no card is "
               "turned up, yet {cards} were recorded as turned up", len(drawn),
               cards=card_names(drawn, components)))
    return replace(moved, status="won", end_reason="all_personalities_controlled",
                   win_resources=moved.resources)


def deal(state: State, drawn: Sequence[CardId], components: Components) -> State:
    """Spec §3 and §6 steps 4-6: capital first, then resources with personalities to court;
    a court reaching its losing count ends the game at once."""
    dealing = _Deal(drawn, state.deck, components)
    capital, court, resources = list(state.capital), list(state.court), list(state.resources)
    status, reason = state.status, state.end_reason
    for row, card in _routing(dealing, capital, court, resources, components):
        row.append(card)
        if row is court and len(court) >= components.court_count_that_loses:
            status, reason = "lost_utterly", "court_overflow"
            break
    dealing.finish()
    return replace(state, deck=frozenset(dealing.deck), capital=tuple(capital),
                   court=tuple(court), resources=tuple(resources), status=status,
                   end_reason=reason)


def _routing(dealing: _Deal, capital: list[CardId], court: list[CardId],
             resources: list[CardId], components: Components
             ) -> Iterator[tuple[list[CardId], CardId]]:
    while len(capital) < components.capital_target_size and dealing.has_more_in_deck():
        yield capital, dealing.next()
    while len(resources) < components.resources_target_size and dealing.has_more_in_deck():
        card = dealing.next()
        yield (court if components.cards[card].personality else resources), card


def _lost_without_a_move(state: State, components: Components) -> State:
    """Spec §6 step 7: a running game with no legal control is lost."""
    if state.is_over or any(True for _ in legal_controls(state, components)):
        return state
    return replace(state, status="lost", end_reason="no_legal_move")
