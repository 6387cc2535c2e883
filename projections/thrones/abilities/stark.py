"""Named ability functions of the Stark cards (docs/games/thrones-abilities.md, "Named
functions"): where a card's data cannot say what it does. Each returns the §9 ops of one
use, computed from the state and the targets already checked against the data; a use the
card does not allow raises IllegalAction naming the card.

The rules modules (`..apply`) import this one, so what it reads of them is imported when a
function runs, not at import time.
"""

from __future__ import annotations

from typing import Any

from ...messages import M, Message
from ...rules import IllegalAction, require
from ..apply.deaths import killable
from ..edition import owner_of
from .registry import Use, ability, chooser, options, reveals

Ops = list[dict[str, Any]]
#: the keywords Arya Stark takes (core_007)
ARYA_KEYWORDS = ("stealth", "renown")
#: the crests Distinct Mastery asks for (core_177)
MASTERY_CRESTS = ("holy", "learned", "noble", "war")


def _characters(use: Use) -> list[str]:
    """The characters in play (not attachments), in table order."""
    return [c.id for c in use.state.cards if c.host is None and use.ed.is_character(c.id)]


# -- core_007 Arya Stark ------------------------------------------------------------
def _arya_keywords(use: Use, card: str) -> list[str]:
    from ..apply.values import has_keyword  # noqa: PLC0415 (apply imports this module)
    return [k for k in ARYA_KEYWORDS if has_keyword(use.state, card, k, use.ed)]


@options("core_007", "take_keywords", "victim")
def arya_victims(use: Use) -> list[str]:
    """Another character that has stealth or renown now."""
    return [c for c in _characters(use) if c != use.source and _arya_keywords(use, c)]


@ability("core_007", "take_keywords")
def arya_takes_keywords(use: Use) -> Ops:
    """Which of the two keywords move depends on the victim's current keywords, which the
    data's ops cannot test: each one it has is lost by it and gained by Arya this phase."""
    victim = str(use.choices["victim"])
    taken = _arya_keywords(use, victim)
    require(bool(taken), "wrong_target",
            lambda: M("{card}: {victim} has neither stealth nor renown", card=use.card_name,
                      victim=use.ed.name(victim)))
    out: Ops = []
    for keyword in taken:
        out.append({"op": "lose_keyword", "card": victim, "keyword": keyword, "until": "phase"})
        out.append({"op": "gain_keyword", "card": use.source, "keyword": keyword,
                    "until": "phase"})
    return out


# -- core_017 Winterfell Honor Guard ----------------------------------------------
@ability("core_017", "lend")
def honor_guard_lent(use: Use) -> Ops:
    """Its owner puts it into play (its "House Stark only" is the owner's: ruling), and the
    chosen opponent takes control of it."""
    rival = int(use.choices["rival"])
    return [{"op": "put_into_play", "card": use.source, "from": "hand"},
            {"op": "take_control", "card": use.source, "controller": rival}]


@ability("core_017", "regain")
def honor_guard_returns(use: Use) -> Ops:
    """Control goes back to the card's owner, a seat no placeholder names; a forced ability
    of a card its owner controls changes nothing (no op), rather than stopping the win."""
    owner = owner_of(use.source)
    if owner == use.seat:
        return []
    return [{"op": "take_control", "card": use.source, "controller": owner}]


# -- core_023 Winterfell Reserves --------------------------------------------------
@options("core_023", "recover_discard", "pile_of")
def reserves_piles(use: Use) -> list[int]:
    """The players whose discard pile holds a card."""
    return [s for s in use.state.active if use.state.players[s].discard]


@ability("core_023", "recover_discard")
def reserves_recover(use: Use) -> Ops:
    """The top card of the chosen discard pile (the last one put there) is read from the
    state at the moment of use."""
    seat = int(use.choices["pile_of"])
    pile = use.state.players[seat].discard
    require(bool(pile), "wrong_target",
            lambda: M("{card}: that discard pile is empty", card=use.card_name))
    return [{"op": "return_from_pile", "card": pile[-1], "from": "discard", "to": "deck"}]


# -- core_135 Benjen Stark ---------------------------------------------------------
@ability("core_135", "dead_piles_reshuffled")
def benjen_reshuffles(use: Use) -> Ops:
    """One op per player in the game: the number of seats is the table's."""
    return [{"op": "shuffle_pile_into_deck", "seat": s, "pile": "dead"}
            for s in use.state.active]


# -- core_136 Jon Snow --------------------------------------------------------------
@ability("core_136", "gain_power")
def jon_snow_gains_power(use: Use) -> Ops:
    """Jon or a Ghost of his controller took part in the challenge won: an either-or no
    trigger condition says."""
    ch = use.state.challenge
    taking_part = set() if ch is None else set(ch.attackers) | set(ch.defenders)
    took = (use.trigger or {}).get("participants")  # the won challenge's (triggers.py)
    taking_part = set(took) if isinstance(took, list | tuple) else taking_part
    ghosts = {c.id for c in use.state.cards if c.controller == use.seat
              and use.ed.card(c.id).name == "Ghost"}
    require(use.source in taking_part or bool(ghosts & taking_part), "condition_failed",
            lambda: M("{card}: neither Jon Snow nor Ghost took part in the challenge",
                      card=use.card_name))
    return [{"op": "gain_power", "target": use.source, "amount": 1}]


# -- core_156 Winter is Coming -----------------------------------------------------
def _kneel_pair(use: Use) -> Ops:
    """The two Stark characters the card kneels (core_157, core_158), one kneel op each, a
    list target that a cost template (one card per op) cannot take; applied first, and a
    knelt one refuses the whole use."""
    return [{"op": "kneel", "card": c} for c in use.choices["pair"]]


def _once_per_player(use: Use, per: str, what: Message) -> None:
    """An event's "one per round / challenge" is per player: the limit counts one source, and
    each copy is its own, so the other copies the user played in the period count here."""
    from ..apply.abilities import period  # noqa: PLC0415 (apply imports this module)
    stamp = period(use.state, per)
    card_id = use.card.id if use.card is not None else ""
    played = [k for k, a, s in use.state.ability_uses if k != use.source and a == use.ability.id
              and s == stamp and use.ed.is_known(k) and use.ed.card(k).id == card_id
              and owner_of(k) == use.seat]
    if played:
        raise IllegalAction("limit_reached",
                            M("{card}: you already played one {what}", card=use.card_name,
                              what=what))


@ability("core_156", "stark_claim")
def winter_is_coming(use: Use) -> Ops:
    """One per round per player, and the seats it raises are those playing House Stark."""
    _once_per_player(use, "round", M("this round"))
    return [{"op": "modify_plot", "seat": s, "field": "claim", "delta": 1, "until": "challenge"}
            for s in use.state.active if use.state.players[s].house == "Stark"]


# -- core_158 Lethal Counterattack -------------------------------------------------
@ability("core_158", "kill_attackers")
def lethal_counterattack(use: Use) -> Ops:
    """One per challenge per player; the attackers are the open challenge's, a list no
    placeholder gives."""
    _once_per_player(use, "challenge", M("in this challenge"))
    ch = use.state.challenge
    attackers = [] if ch is None else killable(use.state, list(ch.attackers), use.ed)
    require(bool(attackers), "condition_failed",
            lambda: M("{card}: there is no attacker to kill", card=use.card_name))
    return [*_kneel_pair(use), {"op": "kill", "cards": attackers}]


# -- core_157 Kings in the North ---------------------------------------------------
@ability("core_157", "kneel_for_power")
def kings_in_the_north(use: Use) -> Ops:
    """Each of the two characters knelt gains a power: one op per card of a list target."""
    return [*_kneel_pair(use),
            *({"op": "gain_power", "target": c, "amount": 1} for c in use.choices["pair"])]


# -- core_160 Guilty! and core_177 Distinct Mastery -------------------------------
def _non_stark(use: Use) -> list[str]:
    return [c for c in _characters(use) if "Stark" not in use.ed.card(c).houses]


options("core_160", "kill_by_influence", "victim")(_non_stark)
options("core_160", "kill_by_noble", "victim")(_non_stark)


@options("core_177", "stand_crested", "victim")
def mastery_victims(use: Use) -> list[str]:
    """A knelt character with one of the four crests (the filter names one crest)."""
    knelt = {c.id for c in use.state.cards if c.knelt}
    return [c for c in _characters(use) if c in knelt
            and set(use.ed.card(c).crests) & set(MASTERY_CRESTS)]


# -- core_195 Building Season ------------------------------------------------------
# ruling 33: the chosen opponent takes its own location, from a deck only it sees
chooser("core_195", "fetch_locations", "theirs", "$rival")
# the locations are shown: it reveals cards (Grand Maester Pycelle, ruling L26)
reveals("core_195", "fetch_locations")


@ability("core_195", "fetch_locations")
def building_season(use: Use) -> Ops:
    """The opponent's location must come from the chosen opponent's deck."""
    rival = int(use.choices["rival"])
    out: Ops = []
    mine, theirs = _single(use.choices.get("mine")), _single(use.choices.get("theirs"))
    if mine:
        out.append({"op": "search_deck", "seat": use.seat, "card": mine, "to": "hand",
                    "reveal": True})
    if theirs:
        require(owner_of(str(theirs)) == rival, "wrong_target",
                lambda: M("{card}: the second location comes from the chosen opponent's deck",
                          card=use.card_name))
        out.append({"op": "search_deck", "seat": rival, "card": theirs, "to": "hand",
                    "reveal": True})
    return out


def _single(value: Any) -> Any:
    """An optional target's one value, sent alone or as a list of at most one."""
    if isinstance(value, list | tuple):
        return value[0] if value else None
    return value


# -- core_201 Valar Morghulis ------------------------------------------------------
@ability("core_201", "kill_everyone")
def valar_morghulis(use: Use) -> Ops:
    """Every character in play at the moment of the reveal that may be killed: one that
    cannot be (Stannis's Northern Cavalry) stays, and the rest still die (ruling B23)."""
    victims = killable(use.state, _characters(use), use.ed)
    return [{"op": "kill", "cards": victims}] if victims else []


# -- core_199 Snowed Under ---------------------------------------------------------
# ruling 33: each player returns its own card, in turn order from the first player
chooser("core_199", "back_to_hand", "returned", "each")


def _knelt_returnable(use: Use, seat: int) -> list[str]:
    """The knelt characters and locations `seat` controls (not attachments)."""
    return [c.id for c in use.state.cards if c.controller == seat and c.knelt
            and c.host is None and use.ed.card(c.id).type in ("character", "location")]


@ability("core_199", "back_to_hand")
def snowed_under(use: Use) -> Ops:
    """Each player who has chosen its part returned exactly one of its knelt characters
    or locations if it controls one (ruling S21); the data cannot say "one per player"."""
    picked = [str(c) for c in use.choices.get("returned") or ()]
    for seat in use.state.active:
        if seat in use.waiting:
            continue
        own = _knelt_returnable(use, seat)
        mine = [c for c in picked if c in own]
        require(len(mine) == min(1, len(own)), "wrong_target",
                M("{card}: each player returns exactly one of its knelt characters or "
                          "locations, and {player} named {count}", card=use.card_name,
                          player=use.state.names[seat], count=len(mine)))
    return [{"op": "return_to_hand", "cards": picked}] if picked else []
