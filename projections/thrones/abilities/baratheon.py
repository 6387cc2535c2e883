"""Named ability functions of the Baratheon cards (docs/games/thrones-abilities.md, "Named
functions"): where a card's data cannot say what it does. Each returns §9 ops computed from
the state and the chosen targets, never ops from the caller."""

from __future__ import annotations

from typing import Any

from ...messages import M
from ...rules import IllegalAction
from ..apply.restrictions import discardable
from ..apply.rounds import plot_value
from ..edition import owner_of
from .registry import Use, ability, chooser, copier, marks, options, reveals

Ops = list[dict[str, Any]]


def _others(use: Use) -> list[int]:
    """The seats still in the game other than the user's."""
    return [s for s in use.state.active if s != use.seat]


@ability("core_067", "toll_attack")
@ability("core_067", "toll_defend")
def motley_toll(use: Use) -> Ops:
    """Motley: when its bearer is declared as an attacker or a defender, the bearer's
    controller hands Motley's controller 1 gold. Data cannot ask "is the bearer among
    those just declared"; a controller without gold hands nothing (card ruling B2)."""
    state = use.state
    me = next((c for c in state.cards if c.id == use.source), None)
    ch = state.challenge
    if me is None or me.host is None or ch is None:
        return []
    declared = ch.attackers if use.ability.id == "toll_attack" else ch.defenders
    bearer = next((c for c in state.cards if c.id == me.host), None)
    if bearer is None or bearer.id not in declared or bearer.controller == use.seat:
        return []
    if state.players[bearer.controller].gold < 1:
        return []
    return [{"op": "give_gold", "from": bearer.controller, "to": use.seat, "amount": 1}]


@ability("core_074", "opponents_power_uncounted")
def melisandre_exclusion(use: Use) -> Ops:
    """Melisandre: while she stands, power on every opponent's characters does not count
    for them; the lasting op is set when she enters play (every opponent, so a melee too)."""
    return [{"op": "exclude_character_power", "source": use.source, "players": _others(use),
             "requires_source_standing": True}]


@ability("core_083", "come_home")
def honor_guard_home(use: Use) -> Ops:
    """Highgarden Honor Guard goes back to its owner (the seat in its id, which data has
    no placeholder for) once the opponent it was lent to wins a challenge it took part in."""
    owner = owner_of(use.source)
    if owner == use.seat:
        return []
    return [{"op": "take_control", "card": use.source, "controller": owner}]


@ability("core_146", "shuffle_discards")
def barristan_shuffle(use: Use) -> Ops:
    """Ser Barristan Selmy: every player in the game (however many) shuffles their discard
    pile into their deck."""
    return [{"op": "shuffle_pile_into_deck", "seat": s, "pile": "discard"}
            for s in use.state.active]


@ability("core_170", "by_influence")
@ability("core_170", "by_noble")
def lords_of_the_narrow_sea(use: Use) -> Ops:
    """Lords of the Narrow Sea: the chosen plot's owner reveals it as a new plot, and if its
    income is below the income of the user's revealed plot the user gains 1 House power (a
    comparison data cannot make). The new plot's printed income is compared with the
    user's plot's current income (§9 modify_plot counts)."""
    plot = use.choices["plot"]
    seat = owner_of(plot)
    ops: Ops = [{"op": "reveal_new_plot", "seat": seat, "plot": plot}]
    values = use.ed.card(plot).plot
    theirs = values.income if values is not None else 0
    if theirs < plot_value(use.state, use.seat, "income", use.ed):
        ops.append({"op": "gain_power", "target": f"house:{use.seat}", "amount": 1})
    return ops


# the characters are shown: it reveals cards (Grand Maester Pycelle, ruling L26)
reveals("core_181", "fetch_characters")


@ability("core_181", "fetch_characters")
def summoning_season(use: Use) -> Ops:
    """Summoning Season: the user and the chosen opponent each take a character from their
    own deck (shown); the opponent's card must come from that opponent's deck."""
    rival = use.choices["rival"]
    mine = list(use.choices.get("mine") or ())
    theirs = list(use.choices.get("theirs") or ())
    for card in theirs:
        if owner_of(card) != rival:
            raise IllegalAction("wrong_target",
                                M("{card}: {found} is not in the deck of the opponent chosen",
                                  card=use.card.name, found=use.ed.name(card)))
    return [*({"op": "search_deck", "seat": use.seat, "card": c, "to": "hand",
               "reveal": True} for c in mine),
            *({"op": "search_deck", "seat": rival, "card": c, "to": "hand", "reveal": True}
              for c in theirs)]


@ability("core_182", "truce")
def mutual_cause(use: Use) -> Ops:
    """Mutual Cause is a melee plot: with two players it does nothing (card ruling B5)."""
    if len(use.state.active) < 3:
        return []
    return [{"op": "forbid_challenge", "seats": [use.seat, use.choices["rival"]],
             "type": "power"}]


@ability("core_183", "military_toll")
def uneasy_truce(use: Use) -> Ops:
    """Uneasy Truce: whoever declares a military challenge hands the defender 2 gold; an
    attacker with less hands what they have (card ruling B3)."""
    trigger = use.trigger or {}
    attacker, defender = trigger.get("attacker"), trigger.get("defender")
    if not isinstance(attacker, int) or not isinstance(defender, int):
        return []
    amount = min(2, use.state.players[attacker].gold)
    if amount <= 0:
        return []
    return [{"op": "give_gold", "from": attacker, "to": defender, "amount": amount}]


@ability("core_184", "no_income_bonus")
def rains_of_autumn(use: Use) -> Ops:
    """Rains of Autumn: no card gives any player an income bonus this round."""
    return [{"op": "suppress_income_bonuses", "seats": list(range(use.state.n))}]


# core_091 Dragonstone Port ---------------------------------------------------------------
@options("core_091", "name_a_plot", "plot")
def plot_names(use: Use) -> list[str]:
    """Any plot name of the set (card ruling B20): never what the opponents chose, which is
    face down until the reveal (§11), so the choices leak none of it."""
    return sorted({c.name for c in use.ed.cards if c.type == "plot"})


@ability("core_091", "name_a_plot")
def dragonstone_port(use: Use) -> Ops:
    """Naming changes nothing now: the payoff waits for the reveal (its marker)."""
    return []


@marks("core_091", "name_a_plot")
def dragonstone_port_named(use: Use) -> list[tuple[str, int, str]]:
    """The plot named, paid at the reveal: 1 House power per opponent revealing it."""
    return [("names_plot", use.seat, str(use.choices["plot"]))]


# core_185 Good for the Gander -------------------------------------------------------------
copier("core_185", "copy_plot")  # its plot is used as the copied one (apply/marks.py)


@options("core_185", "copy_plot", "foe")
def gander_plots(use: Use) -> list[int]:
    """The opponents whose revealed plot has a when-revealed ability (another Gander's
    copies nothing of its own): card ruling B19."""
    from ..apply.marks import candidates  # noqa: PLC0415 (this package imports no apply/ at load)
    return candidates(use.state, use.seat, use.ed)


@ability("core_185", "copy_plot")
def good_for_the_gander(use: Use) -> Ops:
    """Choosing the plot copied changes nothing yet: the copied ability resolves next."""
    return []


@marks("core_185", "copy_plot")
def gander_copies(use: Use) -> list[tuple[str, int, str]]:
    """The seat whose plot is copied this round."""
    return [("copies", use.seat, str(use.choices["foe"]))]


# core_187 Fleeing to the Wall -------------------------------------------------------------
chooser("core_187", "keep_three_locations", "keep", "each")  # ruling 33: each keeps its own


def _locations(use: Use, seat: int) -> list[str]:
    """The locations `seat` controls in play (one on a House card too)."""
    return [c.id for c in use.state.cards if c.controller == seat
            and use.ed.card(c.id).type == "location"]


@options("core_187", "keep_three_locations", "keep")
def fleeing_keeps(use: Use) -> list[str]:
    """The locations of the players with more than 3: the others keep all of theirs."""
    return [c for s in use.state.active for c in _locations(use, s)
            if len(_locations(use, s)) > 3]


@ability("core_187", "keep_three_locations")
def fleeing_to_the_wall(use: Use) -> Ops:
    """Each player keeps exactly 3 of its locations (all, with 3 or fewer), chosen by
    itself; every other location is discarded from play (card ruling B21)."""
    kept = set(use.choices.get("keep") or ())
    gone: list[str] = []
    for seat in use.state.active:
        own = _locations(use, seat)
        keeps = [c for c in own if c in kept] if len(own) > 3 else own
        if seat in use.waiting:
            continue  # its own choice is still to come (ruling 33)
        if len(keeps) != min(3, len(own)):
            raise IllegalAction("wrong_target", M(
                "{card}: every player keeps 3 of their locations (all of them with 3 or "
                "fewer)", card=use.card.name))
        gone.extend(c for c in own if c not in keeps)
    gone = discardable(use.state, gone, use.ed)  # one that cannot be discarded stays (B23)
    return [{"op": "discard_from_play", "cards": gone}] if gone else []


@options("core_172", "take_location", "location")
def support_of_the_kingdom_locations(use: Use) -> list[str]:
    """An opponent's location that gives gold or influence (printed bonuses)."""
    ed = use.ed
    return [c.id for c in use.state.cards if c.controller != use.seat and c.host is None
            and ed.card(c.id).type == "location"
            and (ed.card(c.id).income_bonus > 0 or ed.card(c.id).influence_bonus > 0)]


CRESTS = ("holy", "learned", "noble", "war")


@options("core_179", "stand_crested", "character")
def distinct_mastery_characters(use: Use) -> list[str]:
    """A knelt character bearing a Holy, Learned, Noble or War crest."""
    ed = use.ed
    return [c.id for c in use.state.cards if c.knelt and c.host is None
            and ed.is_character(c.id) and set(ed.card(c.id).crests) & set(CRESTS)]


# -- an opponent's hidden cards (§11): named only at a table ---------------------------
# Lords of the Narrow Sea lets an opponent pick from their own plot deck, which the user
# may not see (§11). At a table the recorder taps the plot the opponent picked; in digital
# play none is offered (none leaks through the choices): card ruling B4. (Summoning
# Season's opponent now picks its own character, ruling 33.)


def _hidden_pile(use: Use, pile: str, kind: str | None) -> list[str]:
    state = use.state
    if state.mode != "table":
        return []
    out: list[str] = []
    for seat in _others(use):
        player = state.players[seat]
        cards = player.plot_deck if pile == "plot_deck" else player.deck
        out.extend(c for c in sorted(set(cards))
                   if kind is None or use.ed.card(c).type == kind)
    return out


@options("core_170", "by_influence", "plot")
@options("core_170", "by_noble", "plot")
def lords_plots(use: Use) -> list[str]:
    """The opponents' plots a new one may be revealed from (at a table only)."""
    return _hidden_pile(use, "plot_deck", None)


# ruling 33: the chosen opponent takes its own character, from a deck only it sees
chooser("core_181", "fetch_characters", "theirs", "$rival")
