"""Named ability functions of the Lannister cards (docs/games/thrones-abilities.md, "Named
functions"): where a card's data cannot say what it does. Each returns the §9 ops of one use
(the cost, targets, window and limit stay in the card's data), or refuses naming the card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...messages import M
from ...rules import IllegalAction, replace, require
from ..apply.deaths import guard_effect, killable
from ..state import State
from .registry import Use, ability, chance, chooser, lasting, marks, options, reveals

Ops = list[dict[str, Any]]


def _opponents(use: Use) -> list[int]:
    """The seats still in the game other than the user's, in seat order."""
    return [s for s in use.state.active if s != use.seat]


def _single(value: Any) -> Any:
    """An optional target's one value, sent alone or as a list of at most one."""
    if isinstance(value, list | tuple):
        return value[0] if value else None
    return value


def _owner(card: str) -> int:
    """The seat whose deck a card instance ("p1-054") came from."""
    return int(card[1:].split("-")[0])


# core_038 Tyrion Lannister ---------------------------------------------------------------
@ability("core_038", "draw_a_card")
def tyrion_draw(use: Use) -> Ops:
    """Tyrion answers a challenge you won that was an intrigue challenge *or* one he took
    part in: an "or" of two trigger conditions, which the window vocabulary cannot say
    without offering him twice on an intrigue challenge he joined."""
    ch = use.state.challenge
    kind = (use.trigger or {}).get("type") or (ch.type if ch is not None else None)
    took = (use.trigger or {}).get("participants")  # the won challenge's (triggers.py)
    took = took if isinstance(took, list | tuple) else \
        (() if ch is None else (*ch.attackers, *ch.defenders))
    joined = use.source in took
    require(kind == "intrigue" or joined, "condition_failed",
            lambda: M("{card}: he draws only after you win an intrigue challenge or a "
                      "challenge he took part in", card=use.card_name))
    return [{"op": "draw", "seat": use.seat, "cards": list(use.chance.get("drawn") or ())[:1]}]


@chance("core_038", "draw_a_card")
def tyrion_chance(use: Use) -> list[tuple[str, int, int]]:
    """Tyrion draws one card (ruling 34)."""
    return [("drawn", use.seat, 1)]


# core_042 The Hound ------------------------------------------------------------------------
@ability("core_042", "dominance_upkeep")
def hound_upkeep(use: Use) -> Ops:
    """The Hound's controller keeps him by discarding the top card of the deck (chance: the
    milled card) or lets him go to the discard pile; with an empty deck he must go."""
    keep = use.choices.get("keep")
    if keep == 1:
        milled = list(use.chance.get("milled") or ())[:1]
        require(bool(use.state.players[use.seat].deck) and bool(milled), "wrong_target",
                lambda: M("{card}: there is no top card to discard, so he must be discarded",
                          card=use.card_name))
        return [{"op": "discard_from_deck", "seat": use.seat, "cards": milled}]
    return [{"op": "discard_from_play", "cards": [use.source]}]


@chance("core_042", "dominance_upkeep")
def hound_chance(use: Use) -> list[tuple[str, int, int]]:
    """Kept, the Hound discards the top card of the deck (ruling 34)."""
    return [("milled", use.seat, 1)] if use.choices.get("keep") == 1 else []


# core_043 Chella, Daughter of Cheyk --------------------------------------------------------
@ability("core_043", "return_location")
def chella_return(use: Use) -> Ops:
    """The price is the chosen location's printed cost: a cost the data cannot name."""
    location = str(use.choices.get("location"))
    price = int(use.ed.card(location).cost or 0)
    gold = use.state.players[use.seat].gold
    if gold < price:
        raise IllegalAction("cannot_pay", M(
            "{card}: returning {location} costs {price} gold, and you have {gold}",
            card=use.card_name, location=use.ed.name(location), price=price, gold=gold))
    ops: Ops = [{"op": "pay_gold", "seat": use.seat, "amount": price}] if price else []
    return [*ops, {"op": "return_to_hand", "cards": [location]}]


# core_046 Raff the Sweetling --------------------------------------------------------------
@ability("core_046", "look_at_top_card")
def raff_look(use: Use) -> Ops:
    """Raff looks at the chosen opponent's top card (chance, `looked`: dealt in digital
    play, tapped at a table) and leaves it on top or puts it at the bottom: the card's
    place is kept as a pin (apply/pins.py, card ruling L12); the look moves no card."""
    from ..apply.pins import look_pool  # noqa: PLC0415 (this package imports no apply/ at load)
    foe = use.choices.get("foe")
    looked = list(use.chance.get("looked") or ())
    pool = look_pool(use.state, foe) if isinstance(foe, int) else []
    require(all(c in pool for c in looked), "wrong_card",
            lambda: M("{card}: that card is not the top card of that opponent's deck",
                      card=use.card_name))
    return []


@chance("core_046", "look_at_top_card")
def raff_chance(use: Use) -> list[tuple[str, int, int]]:
    """Raff looks at one card: the top of the opponent's deck (ruling 34, card ruling L12)."""
    foe = use.choices.get("foe")
    return [("looked", foe, 1)] if isinstance(foe, int) and foe != use.seat else []


# card ruling L12: in digital play the user chooses top or bottom once it has seen the card
chooser("core_046", "look_at_top_card", "bottom", "seen")


@marks("core_046", "look_at_top_card")
def raff_pins(use: Use) -> list[tuple[str, int, str]]:
    """The card looked at stays on top or goes to the bottom (card ruling L12)."""
    looked = list(use.chance.get("looked") or ())
    place = "bottom" if use.choices.get("bottom") == 1 else "top"
    return [(place, int(use.choices["foe"]), str(looked[0]))] if looked else []


# core_047 Ser Jacelyn Bywater --------------------------------------------------------------
@ability("core_047", "random_discard")
def jacelyn_discards(use: Use) -> Ops:
    """Every opponent (one op each, also in a melee) discards a random card: the chance
    field `random` lists one card per opponent with a card in hand, in seat order."""
    dealt = list(use.chance.get("random") or ())
    ops: Ops = []
    for seat in _opponents(use):
        if not use.state.players[seat].hand:
            continue
        require(bool(dealt), "wrong_target",
                lambda: M("{card}: the random card of each opponent with a hand is dealt",
                          card=use.card_name))
        ops.append({"op": "discard_from_hand", "seat": seat, "cards": [dealt.pop(0)],
                    "random": True})
    return ops


@chance("core_047", "random_discard")
def jacelyn_chance(use: Use) -> list[tuple[str, int, int]]:
    """One random card of each opponent with a hand, in seat order (ruling 34)."""
    return [("random", s, 1) for s in _opponents(use) if use.state.players[s].hand]


# core_054 Lannisport Honor Guard -----------------------------------------------------------
@ability("core_054", "regain")
def honor_guard_regain(use: Use) -> Ops:
    """It goes back to its owner, a seat the data has no placeholder for; in its owner's
    own hands the win changes nothing."""
    owner = _owner(use.source)
    return [] if owner == use.seat else [{"op": "take_control", "card": use.source,
                                          "controller": owner}]


# core_161 I Never Bet Against My Family ----------------------------------------------------
@ability("core_161", "cut_claim")
def cut_claim(use: Use) -> Ops:
    """The attacker's claim goes down by the X paid: a negated choice."""
    ch = use.state.challenge
    assert ch is not None  # the window is an open challenge
    return [{"op": "modify_plot", "seat": ch.attacker, "field": "claim",
             "delta": -int(use.choices.get("x") or 0), "until": "challenge"}]


# core_056 Lannisport Brothel --------------------------------------------------------------
@options("core_056", "kneel_again", "victim")
def stood_in_standing(use: Use) -> Sequence[str]:
    """The characters that stood in the standing phase and stand still (ruling L25): the
    open `stands` triggers of the window, any player's; the data cannot name them."""
    window = use.state.window
    stood = [t.get("card") for t in (window.triggers if window is not None else ())
             if t.name == "stands" and t.get("phase") == "standing"]
    return [c.id for c in use.state.cards if c.id in stood and not c.knelt
            and use.ed.is_character(c.id)]


# core_164 Call Their Bluff -----------------------------------------------------------------
@options("core_164", "name_a_card", "named")
def card_names(use: Use) -> Sequence[str]:
    """Any card name a deck may hold (not plots, House cards or titles)."""
    return sorted({c.name for c in use.ed.cards if c.type not in ("plot", "house")})


# its opponents show their hands: it reveals cards (Grand Maester Pycelle, ruling L26)
reveals("core_164", "name_a_card")


@ability("core_164", "name_a_card")
def call_their_bluff(use: Use) -> Ops:
    """Every opponent shows the hand and discards each copy of the named card."""
    named = use.choices.get("named")
    ops: Ops = []
    for seat in _opponents(use):
        copies = sorted(c for c in set(use.state.players[seat].hand)
                        if use.ed.name(c) == named)
        if copies:
            ops.append({"op": "discard_from_hand", "seat": seat, "cards": copies})
    return ops


# core_167 You've Killed the Wrong Dwarf! ---------------------------------------------------
@options("core_167", "kneel_commoner", "victim")
def standing_commoners(use: Use) -> Sequence[str]:
    """Standing characters without the Noble crest (the filter vocabulary has no "without
    a crest")."""
    return [c.id for c in use.state.cards if c.host is None and not c.knelt
            and use.ed.is_character(c.id) and "noble" not in use.ed.card(c.id).crests]


# core_178 Shae -----------------------------------------------------------------------------
@options("core_178", "kneel_the_mighty", "victim")
def characters_of_the_mighty(use: Use) -> Sequence[str]:
    """Standing characters controlled by a player with more power than the user (§3)."""
    from ..apply.values import total_powers  # noqa: PLC0415 (this package imports no apply/ at load)
    powers = total_powers(use.state)
    mine = powers[use.seat]
    return [c.id for c in use.state.cards if c.host is None and not c.knelt
            and use.ed.is_character(c.id) and powers[c.controller] > mine]


# core_188 Drunken Allegations --------------------------------------------------------------
chooser("core_188", "both_kneel", "theirs", "$foe")  # ruling 33: the opponent kneels theirs


@ability("core_188", "both_kneel")
def drunken_allegations(use: Use) -> Ops:
    """Each of the two kneels one of its standing characters: optional only when it has
    none (a count the target vocabulary cannot make depend on the board)."""
    foe = use.choices.get("foe")
    ops: Ops = []
    for seat, name in ((use.seat, "mine"), (foe, "theirs")):
        if seat in use.waiting:
            continue  # the opponent's choice is still to come (ruling 33)
        standing = [c.id for c in use.state.cards if c.controller == seat and not c.knelt
                    and c.host is None and use.ed.is_character(c.id)]
        card = _single(use.choices.get(name))
        require(card is not None or not standing, "wrong_target",
                lambda: M("{card}: each of you kneels a standing character while you have one",
                          card=use.card_name))
        if card is not None:
            ops.append({"op": "kneel", "card": card})
    return ops


# core_189 Mutual Blackmail -----------------------------------------------------------------
@ability("core_189", "no_intrigue")
def mutual_blackmail(use: Use) -> Ops:
    """A melee card (card ruling L3): in a two-player game it does nothing."""
    if len(use.state.active) < 3:
        return []
    return [{"op": "forbid_challenge", "seats": [use.seat, use.choices.get("foe")],
             "type": "intrigue"}]


# core_191 Wildfire Assault -----------------------------------------------------------------
chooser("core_191", "keep_three", "keep", "each")  # ruling 33: each player keeps its own


@options("core_191", "keep_three", "keep")
def wildfire_keeps(use: Use) -> list[str]:
    """The characters of the players with more than 3: the others keep all of theirs."""
    own: dict[int, list[str]] = {}
    for c in use.state.cards:
        if c.host is None and use.ed.is_character(c.id):
            own.setdefault(c.controller, []).append(c.id)
    return [c for cards in own.values() if len(cards) > 3 for c in cards]


@ability("core_191", "keep_three")
def wildfire_assault(use: Use) -> Ops:
    """Each player keeps exactly 3 of its characters (all, with 3 or fewer); every other
    character is killed at once."""
    kept = set(use.choices.get("keep") or ())
    killed: list[str] = []
    for seat in range(use.state.n):
        own = [c.id for c in use.state.cards if c.controller == seat and c.host is None
               and use.ed.is_character(c.id)]
        keeps = [c for c in own if c in kept] if len(own) > 3 else own
        if seat in use.waiting:
            continue  # its own choice is still to come (ruling 33)
        require(len(keeps) == min(3, len(own)), "wrong_target",
                lambda: M("{card}: every player keeps 3 of their characters (all of them with "
                          "3 or fewer)", card=use.card_name))
        killed.extend(c for c in own if c not in keeps)
    killed = killable(use.state, killed, use.ed)  # one that cannot be killed stays (B23)
    return [{"op": "kill", "cards": killed}] if killed else []


# core_192 Hear Me Roar! --------------------------------------------------------------------
@ability("core_192", "weaken")
def hear_me_roar(use: Use) -> Ops:
    """-1 STR this round on each character in play without an intrigue icon (card ruling
    L5: a revealed plot is not a card in play, so its constant is applied at the reveal)."""
    from ..apply.values import has_icon  # noqa: PLC0415 (this package imports no apply/ at load)
    return [{"op": "adjust_strength", "card": c.id, "amount": -1, "until": "round"}
            for c in use.state.cards if c.host is None and use.ed.is_character(c.id)
            and not has_icon(use.state, c.id, "intrigue", use.ed)]


# core_193 Blockade -------------------------------------------------------------------------
@ability("core_193", "no_income")
def blockade(use: Use) -> Ops:
    """Every opponent's plot income is 0 this round (one op per opponent, also in a melee)."""
    return [{"op": "modify_plot", "seat": s, "field": "income", "set": 0, "until": "round"}
            for s in _opponents(use)]


@lasting("core_044", "death_guard")
def bronn_guard(use: Use, state: State) -> State:
    """Bronn: this phase, if the chosen character would be killed while Bronn is knelt, Bronn
    stands instead (a lasting effect §9 has no op for; deaths.kill applies it: ruling L23)."""
    mod = guard_effect(use.choices["ward"], use.source)
    return replace(state, modifiers=(*state.modifiers, mod))
