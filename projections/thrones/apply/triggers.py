"""The triggers an event caused (docs/games/thrones-abilities.md, "Triggers"; rulings 35-38).

One pure function, `emitted`, reads what happened from the action and the states before and
after it, whatever op did it: a character that went from play to a dead pile was killed (by
a kill op, a claim, deadly or a ruling), a card that appeared in play entered it. So no op
announces anything, and a new op that kills is seen without code of its own. The window
those triggers open, who answers it and the forced abilities it applies are windows.py's.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...rules import Action
from ..edition import CardId, Components
from ..state import InPlay, Restore, State, Trigger
from .challenges import challenge_outcome
from .deaths import died_elsewhere
from .rounds import dominance_outcome
from .seen import seen

#: the triggers the rules emit now; a card test marked `needs(trigger)` runs once its
#: trigger is here (tests/projections/thrones_cards/harness.py). `plot_revealed` is the
#: when-revealed work's (the plot reveal); `claim_applied`, `leaves_play`, `stands`,
#: `event_played` and `cards_revealed` are seen.py's.
EMITTED: tuple[str, ...] = (
    "would_be_killed", "would_be_discarded", "killed", "challenge_won", "enters_play",
    "marshalled", "attackers_declared", "defenders_declared", "dominance_won",
    "phase_begins", "claim_applied", "leaves_play", "stands", "event_played",
    "cards_revealed",
)

#: what is not entering play: the setup reveal (§13 ruling 15)
SETUP_ACTIONS = ("start_game", "mulligan", "setup_cards", "setup_draw")
#: the phases whose beginning abilities answer (the window vocabulary's phases)
PHASES = ("plot", "draw", "marshalling", "challenges", "dominance", "standing")


def emitted(before: State, action: Action, after: State, ed: Components) -> tuple[Trigger, ...]:
    """Every trigger `action` caused, interrupts first (they answer before the event is
    done: ruling 36), then the event's own in the order it happened."""
    if action.type in SETUP_ACTIONS or after.phase == "over":
        return ()
    left = list(_left_play(before, after))
    out = [t for t in left if t.name.startswith("would_be")]
    out.extend(_declared(action, after))
    out.extend(_won(before, action, ed))
    out.extend(t for t in left if not t.name.startswith("would_be"))
    out.extend(_entered(before, action, after))
    out.extend(seen(before, action, after, ed))
    if before.phase != after.phase and after.phase in PHASES:
        out.append(Trigger("phase_begins", (("phase", after.phase),)))
    return tuple(out)


def _left_play(before: State, after: State) -> Iterator[Trigger]:
    """A character gone from play to a dead pile was killed, and so was one a `killed_to`
    constant sent to another pile (its triggers carry that `pile`); a card (not an
    attachment leaving with its host) gone to a discard pile was discarded from play: each
    first `would_be_...` (what a save restores), then `killed` for a death."""
    now = {c.id for c in after.cards}
    for ip in before.cards:
        if ip.id in now or (ip.host is not None and ip.host not in now):
            continue
        pile = _pile_gained(before, after, ip.id)
        if pile is None:
            continue
        died = pile == "dead" or died_elsewhere(after, ip.id, pile)  # The Hound (L13)
        fields = (("card", ip.id), ("seat", ip.controller),
                  *((("pile", pile),) if died and pile != "dead" else ()))
        restore = Restore(before.cards, before.modifiers, before.challenge, pile)
        yield Trigger("would_be_killed" if died else "would_be_discarded", fields, restore)
        if died:
            yield Trigger("killed", fields)


def _pile_gained(before: State, after: State, card: CardId) -> str | None:
    """The pile of its owner `card` went to (dead or discard), or None."""
    owner = next((s for s, p in enumerate(after.players)
                  if card in p.dead or card in p.discard), None)
    if owner is None:
        return None
    was, now = before.players[owner], after.players[owner]
    if now.dead.count(card) > was.dead.count(card):
        return "dead"
    if now.discard.count(card) > was.discard.count(card):
        return "discard"
    return None


def _declared(action: Action, after: State) -> Iterator[Trigger]:
    ch = after.challenge
    names = {"declare_challenge": "attackers_declared",
             "declare_defenders": "defenders_declared"}
    if action.type in names and ch is not None:
        yield Trigger(names[action.type], (("type", ch.type), ("attacker", ch.attacker),
                                           ("defender", ch.defender)))
    if action.type == "marshal_card":
        yield Trigger("marshalled", (("card", action.data.get("card")),
                                     ("seat", action.actor)))


def _won(before: State, action: Action, ed: Components) -> Iterator[Trigger]:
    """challenge_won from the resolution's own outcome (§8.6), with who took part (for
    `source_participated`); dominance_won from dominance's (§7.5)."""
    ch = before.challenge
    if action.type == "resolve_challenge" and ch is not None:
        winner, att, dfn = challenge_outcome(before, ch, ed)
        if winner is not None:
            loser = ch.defender if winner == ch.attacker else ch.attacker
            yield Trigger("challenge_won", (
                ("type", ch.type), ("winner", winner), ("loser", loser),
                ("attacker", ch.attacker), ("defender", ch.defender),
                ("margin", abs(att - dfn)),
                ("unopposed", winner == ch.attacker and dfn == 0),
                ("participants", (*ch.attackers, *ch.defenders))))
    if action.type == "resolve_dominance":
        seat = dominance_outcome(before, ed)[0]
        if seat is not None:
            yield Trigger("dominance_won", (("seat", seat),))


def _entered(before: State, action: Action, after: State) -> Iterator[Trigger]:
    was = {c.id for c in before.cards}
    marshalled = action.data.get("card") if action.type == "marshal_card" else None
    for ip in after.cards:
        if ip.id not in was:
            yield _entry(ip, "marshal" if ip.id == marshalled else "effect")


def _entry(ip: InPlay, by: str) -> Trigger:
    return Trigger("enters_play", (("card", ip.id), ("seat", ip.controller), ("by", by)))


__all__ = ["EMITTED", "Trigger", "emitted"]
