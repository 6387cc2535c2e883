"""After a challenge is won (§8.6): the claim and deadly, each a choice of the seat due, in
turn; and the challenge's end (§8.7)."""

from __future__ import annotations

from typing import Any

from ...messages import M, Mn, Seq
from ...rules import Action, replace, require
from ..edition import CardId, Components, Seat
from ..state import Challenge, State
from .card_ops import discard_from_hand
from .deaths import killable
from .effects import remove_cards
from .guards import require_turn, who
from .rounds import plot_value
from .titles import supports
from .values import play_index
from .victory import rule

#: a pending choice of §8.6: what waits for it, and what the seat due does
PENDING_WAITS = {"targets": M("the Master of Whispers to name further opponents"),
                 "claim": M("a claim to be applied"), "deadly": M("deadly to be applied")}
PENDING_TURNS = {"targets": M("name further opponents for the claim"),
                 "claim": M("apply the claim"), "deadly": M("apply deadly")}


def claim_value(state: State, seat: Seat, ed: Components) -> int:
    """The claim on `seat`'s revealed plot, as effects changed it."""
    return plot_value(state, seat, "claim", ed)


def pending_need(state: State, ch: Challenge, kind: str, seat: Seat, ed: Components) -> int:
    """How many cards (or targets) a pending choice needs now; 0 means skip it."""
    if kind == "targets":
        claim = claim_value(state, ch.attacker, ed)
        return int(claim > 0 and bool(extra_opponent_options(state, ch, ed)))
    if kind == "claim":
        claim = claim_value(state, ch.attacker, ed)
        if ch.type == "intrigue":
            return min(claim, len(state.players[seat].hand))
        return min(claim, len(claim_victims(state, ch, seat, ed)))
    return min(ch.deadly, len(deadly_victims(state, ch, seat, ed)))


def participants_of(state: State, ch: Challenge, seat: Seat) -> list[CardId]:
    """The cards of `seat` still taking part in the challenge."""
    index = play_index(state)
    return [c for c in dict.fromkeys((*ch.attackers, *ch.defenders))
            if c in index and index[c].controller == seat]


def claim_victims(state: State, ch: Challenge, seat: Seat, ed: Components) -> list[CardId]:
    """Who a military claim may kill: participating characters, or (option) any (§4),
    that may be killed now (deaths.py: Stannis's Northern Cavalry)."""
    if state.option("military_claim_scope") == "any":
        return killable(state, [c.id for c in state.cards if c.controller == seat
                                and c.host is None and ed.is_character(c.id)], ed)
    return killable(state, participants_of(state, ch, seat), ed)


def deadly_victims(state: State, ch: Challenge, seat: Seat, ed: Components) -> list[CardId]:
    """Who deadly may kill: `seat`'s participating characters that may be killed now."""
    return killable(state, participants_of(state, ch, seat), ed)


def extra_opponent_options(state: State, ch: Challenge, ed: Components) -> list[Seat]:
    """The opponents the Master of Whispers may add to an intrigue claim (§2.5)."""
    return [s for s in state.active if s not in (ch.attacker, ch.defender)
            and not supports(state, ch.attacker, s, ed)]


def advance_pending(state: State, ed: Components) -> State:
    """Skip the pending choices that need nothing now; with none left the challenge ends."""
    ch = state.challenge
    assert ch is not None
    pending = list(ch.pending)
    while pending and pending_need(state, ch, *pending[0], ed) == 0:
        pending.pop(0)
    if not pending:
        return close_challenge(state)
    return replace(state, challenge=replace(ch, pending=tuple(pending)))


def close_challenge(state: State) -> State:
    """§8.7: the challenge ends; "until challenge" modifiers expire."""
    return replace(state, challenge=None,
                   modifiers=tuple(m for m in state.modifiers if m.until != "challenge"),
                   plot_mods=tuple(p for p in state.plot_mods if p[4] != "challenge"))


def _pending_head(state: State, action: Action, kind: str) -> Challenge:
    ch = state.challenge
    require(ch is not None and ch.step == "resolved" and bool(ch.pending)
            and ch.pending[0][0] == kind, "wrong_step",
            M("nothing is waiting for {what} now (§8.6)", what=PENDING_WAITS[kind]))
    assert ch is not None
    require_turn(state, action, ch.pending[0][1], PENDING_TURNS[kind])
    return ch


@rule
def apply_choose_claim_targets(state: State, action: Action, ed: Components) -> State:
    """§2.5: the Master of Whispers names further opponents who also suffer the intrigue claim."""
    ch = _pending_head(state, action, "targets")
    extra = list(action.data["extra_opponents"])
    options = extra_opponent_options(state, ch, ed)
    require(len(set(extra)) == len(extra), "bad_seat", M("an opponent is named twice"))
    may = Seq(who(state, s) for s in options) or M("nobody")
    for seat in extra:
        require(seat in options, "illegal_claim_target",
                M("{player} cannot be named: the Master of Whispers names opponents other "
                  "than the attacker and defender whose title it does not support (§2.5); it "
                  "may name {may}", player=who(state, seat), may=may), seat=seat)
    rest = list(ch.pending[1:])
    at = 1 if rest and rest[0][0] == "claim" else 0
    rest[at:at] = [("claim", s) for s in extra]
    return advance_pending(replace(state, challenge=replace(ch, pending=tuple(rest))), ed)


@rule
def apply_apply_claim(state: State, action: Action, ed: Components) -> State:
    """§8.6: the loser discards at random (intrigue) or kills characters (military) as many as
    the claim."""
    ch = _pending_head(state, action, "claim")
    seat = ch.pending[0][1]
    need = pending_need(state, ch, "claim", seat, ed)
    data = action.data
    if ch.type == "intrigue":
        cards = list(data.get("discards") or ())
        require(len(cards) == need and len(set(cards)) == need, "wrong_claim_count",
                Mn("the intrigue claim discards exactly {count} card at random, not {got}",
                   "the intrigue claim discards exactly {count} cards at random, not {got}",
                   need, got=len(cards)), expected=need)
        state = discard_from_hand(state, seat, {"op": "discard_from_hand", "seat": seat,
                                                "cards": cards}, ed)
    else:
        state = _kill_chosen(state, seat, data, need, claim_victims(state, ch, seat, ed),
                             "military claim", ed)
    return _next_pending(state, ed)


def _next_pending(state: State, ed: Components) -> State:
    ch = state.challenge
    assert ch is not None
    return advance_pending(replace(state, challenge=replace(ch, pending=ch.pending[1:])), ed)


#: what kills the characters chosen, as a refusal names it
KILLERS = {"military claim": M("military claim"), "deadly": M("deadly")}


def _kill_chosen(state: State, seat: Seat, data: Any, need: int, eligible: list[CardId],
                 what: str, ed: Components) -> State:
    kills = list(data.get("kills") or ())
    require(len(kills) == need and len(set(kills)) == need, "wrong_claim_count",
            Mn("the {what} kills exactly {count} distinct character, not {got}",
               "the {what} kills exactly {count} distinct characters, not {got}", need,
               what=KILLERS.get(what, what), got=len(kills)),
            expected=need)
    for card in kills:
        require(card in eligible, "illegal_claim_target",
                M("{card} cannot be chosen for the {what}", card=ed.name(card),
                  what=KILLERS.get(what, what)), card=card)
    return remove_cards(state, seat, kills, "dead", ed, data.get("saves"),
                        data.get("redirect"))


@rule
def apply_apply_deadly(state: State, action: Action, ed: Components) -> State:
    """§8.6: the loser kills a participating character for each deadly character on the winning
    side."""
    ch = _pending_head(state, action, "deadly")
    seat = ch.pending[0][1]
    need = pending_need(state, ch, "deadly", seat, ed)
    state = _kill_chosen(state, seat, action.data, need, deadly_victims(state, ch, seat, ed),
                         "deadly", ed)
    return _next_pending(state, ed)
