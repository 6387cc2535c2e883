"""Named ability functions of the Targaryen cards (docs/games/thrones-abilities.md, "Named
functions"): where a card's data cannot say what it does — an amount read from the state
(a whole gold pool), a choice that decides which ops follow (pay or be discarded), or a
rule over every card in play (discard every character). Each returns §9 ops and never
takes ops from the caller; a use the card does not allow is refused naming the card.
"""

from __future__ import annotations

from typing import Any

from ...messages import M
from ...rules import IllegalAction, require
from ..apply.restrictions import discardable
from ..apply.values import strength
from ..edition import owner_of
from ..state import State
from .registry import Use, ability, chooser, options

Ops = list[dict[str, Any]]


def _characters(state: State, use: Use) -> list[str]:
    """Every character in play (not an attachment), in table order."""
    return [c.id for c in state.cards if c.host is None and use.ed.is_character(c.id)]


def _loser(use: Use) -> Any:
    """The loser of the challenge just won: from the trigger, else the open challenge."""
    if use.trigger and use.trigger.get("loser") is not None:
        return use.trigger["loser"]
    ch = use.state.challenge
    return None if ch is None else ch.loser


@ability("core_106", "take_gold_pool")
def take_gold_pool(use: Use) -> Ops:
    """Daenerys Targaryen: the amount is the loser's whole pool when she wins, and "alone"
    is about the other attackers, which no condition key says."""
    ch = use.state.challenge
    require(ch is not None and tuple(ch.attackers) == (use.source,), "condition_failed",
            lambda: M("{card}: she takes the gold pool only when she attacked alone",
                      card=use.card_name))
    loser = _loser(use)
    require(isinstance(loser, int), "condition_failed",
            lambda: M("{card}: there is no losing opponent to take gold from", card=use.card_name))
    gold = use.state.players[loser].gold
    return [] if gold <= 0 else [{"op": "give_gold", "from": loser, "to": use.seat,
                                  "amount": gold}]


@ability("core_111", "scorch")
def scorch(use: Use) -> Ops:
    """Drogon: the kill depends on the STR the -1 leaves (a character at 1 STR dies)."""
    victim = use.choices["victim"]
    ops: Ops = [{"op": "adjust_strength", "card": victim, "amount": -1, "until": "phase"}]
    if strength(use.state, victim, use.ed) - 1 <= 0:
        ops.append({"op": "kill", "cards": [victim]})
    return ops


@ability("core_114", "wages")
def wages(use: Use) -> Ops:
    """Daario Naharis: the choice (a pool, or none) decides which op follows."""
    pool = use.choices.get("pool")
    if pool is None:
        return [{"op": "discard_from_play", "cards": [use.source]}]
    require(use.state.players[pool].gold >= 1, "wrong_target",
            lambda: M("{card}: that gold pool is empty; choose another or discard him",
                      card=use.card_name))
    return [{"op": "pay_gold", "seat": pool, "amount": 1}]


@ability("core_119", "regain")
def regain(use: Use) -> Ops:
    """Dothraki Honor Guard: control goes back to its owner, which no placeholder names."""
    owner = owner_of(use.source)
    return [] if owner == use.seat else [{"op": "take_control", "card": use.source,
                                          "controller": owner}]


@ability("core_124", "return_after_big_win")
def guildmaster_returns(use: Use) -> Ops:
    """Pentoshi Guildmaster: the second step (pay 3 gold to put it into play) is optional."""
    ops: Ops = [{"op": "return_from_pile", "card": use.source, "from": "discard",
                 "to": "hand"}]
    if use.choices.get("into_play"):
        ops.append({"op": "put_into_play", "card": use.source, "from": "hand",
                    "pay_gold": 3})
    return ops


@ability("core_176", "bleed")
def westeros_bleeds(use: Use) -> Ops:
    """Westeros Bleeds: every character in play, whatever it is, which no target lists."""
    victims = discardable(use.state, _characters(use.state, use), use.ed)
    return [{"op": "discard_from_play", "cards": victims}] if victims else []


@ability("core_180", "recover_attachment")
def recover_attachment(use: Use) -> Ops:
    """Lady Daenerys's Chambers: the cost bound is the marshalled character's printed cost,
    a value of the trigger that no filter compares with."""
    marshalled = (use.trigger or {}).get("card")
    require(isinstance(marshalled, str) and use.ed.is_known(marshalled), "condition_failed",
            lambda: M("{card}: it answers a Targaryen character you marshal", card=use.card_name))
    attachment = use.choices["attachment"]
    bound = use.ed.card(marshalled).cost or 0
    require((use.ed.card(attachment).cost or 0) <= bound, "wrong_target",
            lambda: M("{card}: {attachment} costs more than {marshalled} ({bound})",
                      card=use.card_name, attachment=use.ed.name(attachment),
                      marshalled=use.ed.name(marshalled), bound=bound))
    return [{"op": "return_from_pile", "card": attachment, "from": "discard", "to": "hand"}]


chooser("core_202", "condemn", "victim", "$judge")  # ruling 33: the judge picks the victim
chooser("core_206", "decree", "discards", "each")  # ruling 33: each largest hand its own


@ability("core_202", "condemn")
def condemn(use: Use) -> Ops:
    """Condemned by the Realm: the victim is any character the chosen opponent does not
    control, and it must be named when there is one."""
    judge = use.choices["judge"]
    if judge in use.waiting:
        return []  # the judge's choice is still to come (ruling 33)
    victim = use.choices.get("victim")
    if isinstance(victim, list | tuple):  # an optional target: a list of at most one
        victim = victim[0] if victim else None
    allowed = [c for c in _characters(use.state, use)
               if next(ip for ip in use.state.cards if ip.id == c).controller != judge]
    if victim is None:
        require(not allowed, "wrong_target",
                lambda: M("{card}: the opponent must kill a character they do not control",
                          card=use.card_name))
        return []
    require(victim in allowed, "wrong_target",
            lambda: M("{card}: the opponent kills a character they do not control, and they "
                      "control {victim}", card=use.card_name, victim=use.ed.name(victim)))
    return [{"op": "kill", "cards": [victim]}]


@ability("core_205", "discard_attachment")
def mad_kings_legacy(use: Use) -> Ops:
    """Mad King's Legacy: the discard may be skipped only when no attachment is in play."""
    picked = use.choices.get("attachment")
    if isinstance(picked, list | tuple):  # an optional target: a list of at most one
        picked = picked[0] if picked else None
    if picked is None:
        require(not any(c.host is not None and use.ed.card(c.id).type == "attachment"
                        for c in use.state.cards), "wrong_target",
                lambda: M("{card}: an attachment is in play, so one is discarded",
                          card=use.card_name))
        return []
    return [{"op": "discard_from_play", "cards": [picked]}]


@ability("core_206", "decree")
def rule_by_decree(use: Use) -> Ops:
    """Rule by Decree: who discards and how many depend on every hand's size (ruling: tied
    largest hands all discard down to 4)."""
    state = use.state
    sizes = {s: len(state.players[s].hand) for s in state.active}
    most = max(sizes.values(), default=0)
    picked = list(use.choices.get("discards") or ())
    if most <= 4:
        require(not picked, "wrong_target",
                lambda: M("{card}: no hand holds more than 4 cards, so nobody discards",
                          card=use.card_name))
        return []
    ops: Ops = []
    for seat in sorted(s for s, n in sizes.items() if n == most):
        if seat in use.waiting:
            continue  # its own choice is still to come (ruling 33)
        hand = state.players[seat].hand
        mine = [c for c in picked if c in hand]
        require(len(mine) == most - 4, "wrong_target",
                M("{card}: {player} discards {count} cards down to 4", card=use.card_name,
                          player=state.names[seat], count=most - 4))
        ops.append({"op": "discard_from_hand", "seat": seat, "cards": mine})
    listed = {c for op in ops for c in op["cards"]}
    if set(picked) - listed:
        raise IllegalAction("wrong_target", M("{card}: only the largest hand discards",
                                               card=use.card_name))
    return ops


@options("core_206", "decree", "discards")
def rule_by_decree_options(use: Use) -> list[str]:
    """Only the cards of the largest hands (over 4) may be named: no other hand is offered.
    The choice is the discarding player's (ruling T25); the engine asks the plot's player."""
    state = use.state
    sizes = {s: len(state.players[s].hand) for s in state.active}
    most = max(sizes.values(), default=0)
    if most <= 4:
        return []
    return [c for s in sorted(sizes) if sizes[s] == most
            for c in sorted(set(state.players[s].hand))]


@ability("core_207", "noose")
def noose_and_swordpoint(use: Use) -> Ops:
    """Noose and Swordpoint: every character of STR 2 or less, which no target lists
    (ruling: STR as it is when the plot is revealed)."""
    return [{"op": "no_stand", "card": c} for c in _characters(use.state, use)
            if strength(use.state, c, use.ed) <= 2]
