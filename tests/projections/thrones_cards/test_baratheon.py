"""The Baratheon starter deck's cards (issue #30), each from its summary: used rightly it
does what the summary says (the expected values written by hand from the summary and §9 of
docs/games/thrones.md), and outside its window, on a wrong target, without its cost, past
its limit or from the wrong zone it is refused in a sentence naming the card."""

from __future__ import annotations

from typing import Any

import pytest

from projections.choices import Walker
from projections.rules import Action, IllegalAction, replace
from projections.thrones.apply.text import blank
from projections.thrones.apply.values import has_icon, has_keyword, marshal_cost, strength
from projections.thrones.state import State
from tests.projections.thrones_cards.harness import (
    ED,
    RULES,
    Board,
    card_name,
    needs,
    offered,
    refused,
    use,
)

# ---------------------------------------------------------------------------
# Vocabulary added for these cards (docs/games/thrones-abilities.md, "Filter fields of
# lasting effects"): `house_any`, `lacks_icon`, `bearer`.
# ---------------------------------------------------------------------------


def _record(state: State, seat: int, *ops: dict[str, Any]) -> State:
    """A ruling's free-form effect (table mode), to plant a lasting effect directly."""
    after: State = RULES.apply(state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": list(ops), "reason": "a test plants it"}))
    return after


def test_vocab_house_any_matches_a_card_of_either_house() -> None:
    b = Board(houses=("Baratheon", "Stark"), phase="marshalling", mode="table")
    b.play(0, "core_095")
    state = _record(b.state, 0, {"op": "cost_reduction", "seat": 0, "amount": 2, "until":
                                 "phase", "filter": {"house_any": ["Stark", "Baratheon"],
                                                     "type": "character"}})
    stark = b.hand(0, "core_013")  # Bran Stark, cost 2 (+2 out of House, §7.3)
    robert = b.hand(0, "core_071")  # cost 4
    barristan = b.hand(0, "core_146")  # neutral, cost 4
    assert marshal_cost(state, 0, stark, ED)[0] == 2
    assert marshal_cost(state, 0, robert, ED)[0] == 2
    assert marshal_cost(state, 0, barristan, ED)[0] == 4


def test_vocab_bearer_and_lacks_icon_pick_the_host_of_the_source() -> None:
    b = Board(houses=("Baratheon", "Stark"), phase="marshalling", mode="table")
    robert = b.play(0, "core_071")  # STR 3, military and power icons
    other = b.play(0, "core_072")  # Stannis, STR 3, power icon
    bran = b.play(1, "core_013")  # STR 1, no power icon
    hat = b.play(0, "core_067", on=bran)  # any attachment as the source
    state = _record(b.state, 0,
                    {"op": "continuous", "source": hat, "filter": {"bearer": True,
                                                                   "lacks_icon": "power"},
                     "strength": 5, "when": "always"},
                    {"op": "continuous", "source": hat, "filter": {"bearer": True,
                                                                   "icon": "power"},
                     "strength": 7, "when": "always"})
    assert strength(state, bran, ED) == 6
    assert strength(state, robert, ED) == 3
    assert strength(state, other, ED) == 3


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------



def answer(state: State, seat: int, card: str, ability: str, trigger: dict[str, Any],
           **choices: Any) -> State:
    """A response, interrupt, forced or when-revealed ability used as the rules use it
    when its trigger happens (the window is the trigger's; zone, condition, limit,
    targets and cost are checked as for any use)."""
    from projections.thrones.apply.abilities import resolve_use

    after: State = resolve_use(state, seat, {"card": card, "ability": ability,
                                             "choices": choices}, ED, trigger=trigger)
    return after


def answer_refused(state: State, seat: int, card: str, ability: str, trigger: dict[str, Any],
                   *, code: str, **choices: Any) -> None:
    from projections.rules import IllegalAction

    with pytest.raises(IllegalAction) as err:
        answer(state, seat, card, ability, trigger, **choices)
    assert err.value.code == code, err.value.message
    name = card_name(card) if not card.startswith("plot:") else None
    if name:
        assert name in err.value.message, err.value.message


def card(state: State, ident: str) -> Any:
    """The card in play `ident`."""
    return next(c for c in state.cards if c.id == ident)


def in_play(state: State, ident: str) -> bool:
    return any(c.id == ident for c in state.cards)


def baratheon(**kw: Any) -> Board:
    return Board(houses=("Baratheon", "Stark"), **kw)


# ---------------------------------------------------------------------------
# Plain cards: nothing to use, and what they do is read from their data fields
# ---------------------------------------------------------------------------

PLAIN = ("core_069", "core_076", "core_085", "core_087", "core_089", "core_094", "core_095",
         "core_096", "core_097", "core_148", "core_211")


@pytest.mark.parametrize("number", PLAIN)
def test_plain_cards_declare_no_ability(number: str) -> None:
    printed = ED.by_number[int(number[5:])]
    assert printed.plain and printed.abilities == ()


def test_core_069_stinking_drunk_weakens_a_participating_bearer_by_four() -> None:
    b = baratheon(phase="challenges")
    host = b.play(1, "core_017")  # Winterfell Honor Guard, STR 4
    b.play(0, "core_069", on=host)
    assert strength(b.state, host, ED) == 4
    b.challenge("military", attacker=1, defender=0, attackers=[host])
    assert strength(b.state, host, ED) == 0


def test_core_085_army_of_the_faithful_costs_one_less_per_asshai() -> None:
    b = baratheon(phase="marshalling")
    army = b.hand(0, "core_085")  # cost 6
    b.play(0, "core_084")  # Old Red Priest, Asshai
    b.play(0, "core_074")  # Melisandre, Asshai
    assert marshal_cost(b.state, 0, army, ED)[0] == 4


def test_core_095_to_097_core_148_gold_locations_have_income() -> None:
    for number, income in (("core_095", 1), ("core_096", 1), ("core_097", 1), ("core_148", 1)):
        assert ED.by_number[int(number[5:])].income_bonus == income
    assert ED.by_number[148].influence_bonus == 1


def test_core_094_chambers_core_076_brienne_core_087_core_089_core_211_read_by_data() -> None:
    assert ED.by_number[94].may_attach_to_own_house_card
    assert "stealth" in ED.by_number[87].keywords
    assert "no_attachments" in ED.by_number[89].keywords
    assert "renown" in ED.by_number[76].keywords
    assert ED.by_number[211].type == "house"


# ---------------------------------------------------------------------------
# Attachments
# ---------------------------------------------------------------------------


# core_066 Shadow's Blessing: "Bearer is 2 STR stronger if it has a power icon and 2 STR
# weaker if it does not."
def test_core_066_shadows_blessing_strengthens_a_power_bearer_and_weakens_others() -> None:
    b = baratheon(phase="marshalling")
    robert = b.play(0, "core_071")  # STR 3, power icon
    devan = b.play(0, "core_080")  # STR 2, no power icon
    stannis = b.play(0, "core_072")  # STR 3, power icon, no attachment
    b.play(0, "core_066", on=robert)
    blessing = b.play(0, "core_066", on=devan)
    assert strength(b.state, robert, ED) == 5
    assert strength(b.state, devan, ED) == 0
    assert strength(b.state, stannis, ED) == 3
    refused(b.state, 0, blessing, "power_icon_strength", code="applies_by_itself")


# core_067 Motley: "Goes on an opponent's character; its controller must hand you 1 gold
# every time they declare it or use its ability."
def test_core_067_motley_takes_a_gold_when_its_bearer_is_declared() -> None:
    b = baratheon(phase="challenges")
    foe = b.play(1, "core_017")
    motley = b.play(0, "core_067", on=foe)
    b.gold(1, 3)
    b.challenge("military", attacker=1, defender=0, attackers=[foe],
                step="attackers_declared")
    trig = {"type": "military", "attacker": 1, "defender": 0}
    after = answer(b.state, 0, motley, "toll_attack", trig)
    assert after.players[1].gold == 2 and after.players[0].gold == 1
    # a defender's declaration of others costs nothing
    assert answer(b.state, 0, motley, "toll_defend", trig).players[1].gold == 3
    b.gold(1, 0)
    assert answer(b.state, 0, motley, "toll_attack", trig).players[1].gold == 0
    refused(b.state, 0, motley, "toll_attack", code="outside_window")
    assert ED.by_number[67].attach_rules.controller == "opponent"


# core_068 Lightbringer: "Baratheon-character weapon; kneel it to save the bearer from death."
def test_core_068_lightbringer_kneels_to_save_its_bearer() -> None:
    b = baratheon(phase="challenges")
    robert = b.play(0, "core_071")
    sword = b.play(0, "core_068", on=robert)
    trig = {"card": robert, "seat": 0}
    after = answer(b.state, 0, sword, "save_bearer", trig)
    assert card(after, sword).knelt
    answer_refused(after, 0, sword, "save_bearer", trig, code="cannot_pay")
    refused(b.state, 0, sword, "save_bearer", code="outside_window")
    assert ED.by_number[68].attach_rules.character_house == "Baratheon"


def test_core_068_lightbringer_puts_its_bearer_back_exactly_as_before() -> None:
    b = baratheon(phase="challenges", mode="table")
    robert = b.play(0, "core_071", power=1)
    sword = b.play(0, "core_068", on=robert)
    b.set(power_issued=1)
    before = b.state
    dead = _record(before, 0, {"op": "kill", "cards": [robert]})
    assert robert in dead.players[0].dead and sword in dead.players[0].discard
    saved = use(dead, 0, sword, "save_bearer")
    assert saved.cards == tuple(replace(c, knelt=True) if c.id == sword else c
                                for c in before.cards)
    assert saved.players == before.players and saved.power_issued == 1
    refused(saved, 0, sword, "save_bearer", code="outside_window")  # saved already


# core_145 Milk of the Poppy: "Bearer's text box counts as blank (traits remain)."
# (card ruling B18: the bearer's text is read as blank while Milk is on it)
def test_core_145_milk_of_the_poppy_blanks_its_bearer_while_attached() -> None:
    b = baratheon(phase="marshalling", mode="table")
    pup = b.play(1, "core_019")  # Direwolf Pup: keyword no_attachments
    master = b.play(1, "core_020")  # Kennel Master: +1 STR per Direwolf in play
    poppy = b.play(0, "core_145", on=master)
    state = b.state
    assert blank(state, master, ED) and not blank(state, pup, ED)
    assert strength(state, master, ED) == 2  # printed 2, no Direwolf bonus while blank
    refused(state, 0, poppy, "blank_bearer", code="applies_by_itself")
    gone = _record(state, 0, {"op": "discard_from_play", "cards": [poppy]})
    assert not blank(gone, master, ED) and strength(gone, master, ED) == 3


# ---------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------


# core_070 Selyse Baratheon: "Challenges: pay 1 influence to give a unique character an
# intrigue icon until phase end."
def test_core_070_selyse_gives_a_unique_character_an_intrigue_icon_for_influence() -> None:
    b = baratheon(phase="challenges")
    selyse = b.play(0, "core_070")
    robert = b.play(0, "core_071")  # unique, no intrigue icon
    guard = b.play(0, "core_089")  # Host of Storm's End, not unique
    fief = b.play(0, "core_092")  # influence 1
    from projections.thrones.apply.values import has_icon
    after = use(b.state, 0, selyse, "give_intrigue", character=robert, influence=[fief])
    assert has_icon(after, robert, "intrigue", ED)
    assert card(after, fief).knelt
    refused(b.state, 0, selyse, "give_intrigue", code="wrong_target", character=guard,
            influence=[fief])
    refused(after, 0, selyse, "give_intrigue", code="cannot_pay", character=robert,
            influence=[fief])  # the Fiefdoms are knelt
    refused(b.state, 0, selyse, "give_intrigue", code="cannot_pay", character=robert)
    b.set(phase="marshalling")
    refused(b.state, 0, selyse, "give_intrigue", code="outside_window", character=robert,
            influence=[fief])


# core_071 / core_090 Robert Baratheon: "Gains 2 power instead of 1 from renown."
@pytest.mark.parametrize("number", ["core_071", "core_090"])
def test_core_071_core_090_robert_gains_one_more_power_from_renown(number: str) -> None:
    b = baratheon(phase="challenges")
    robert = b.play(0, number, power=1)  # the 1 of renown already gained
    b.challenge("power", attacker=0, attackers=[robert], step="resolved", winner=0)
    trig = {"type": "power", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
            "margin": 3, "unopposed": True}
    after = answer(b.state, 0, robert, "double_renown", trig)
    assert card(after, robert).power == 2
    refused(b.state, 0, robert, "double_renown", code="outside_window")


@needs("challenge_won")
def test_core_071_robert_gains_two_power_when_his_side_wins() -> None:
    b = baratheon(phase="challenges")
    robert = b.play(0, "core_071")
    b.challenge("power", attacker=0, attackers=[robert])
    after = RULES.apply(b.state, Action.of("resolve_challenge", 0, {}))
    assert card(after, robert).power == 2


def defenders_offered(state: State, seat: int) -> set[str]:
    """Every character the choices offer `seat` as a defender now (the Walker)."""
    walker = Walker(RULES, table=state.mode == "table")
    return {c for move in walker.moves(state, "declare_defenders", seat, limit=500)
            for c in move["data"]["defenders"]}


def declare_defenders(state: State, seat: int, *defenders: str) -> State:
    after: State = RULES.apply(state, Action.of("declare_defenders", seat,
                                                {"defenders": list(defenders)}))
    return after


def refused_defence(state: State, seat: int, defender: str, source: str) -> None:
    """Declaring `defender` is refused `cannot_defend`, naming it and the card that forbids."""
    with pytest.raises(IllegalAction) as err:
        declare_defenders(state, seat, defender)
    assert err.value.code == "cannot_defend", err.value.message
    assert card_name(defender) in err.value.message and source in err.value.message


# core_072 Stannis Baratheon: "While he attacks, a defending player who controls no Lord
# may not declare defenders."
def test_core_072_stannis_attacking_forbids_defenders_to_a_player_without_a_lord() -> None:
    b = baratheon(phase="challenges")
    stannis = b.play(0, "core_072")
    guard = b.play(1, "core_017")  # Stark, no Lord, military icon
    b.challenge("military", attackers=[stannis], step="attackers_declared")
    refused_defence(b.state, 1, guard, "Stannis Baratheon")
    assert defenders_offered(b.state, 1) == set()
    assert declare_defenders(b.state, 1).challenge.step == "defenders_declared"
    with_lord = Board(("Baratheon", "Stark"), phase="challenges")
    stannis2 = with_lord.play(0, "core_072")
    guard2 = with_lord.play(1, "core_017")
    with_lord.play(1, "core_013", knelt=True)  # Bran Stark, a Lord (knelt: still controlled)
    with_lord.challenge("military", attackers=[stannis2], step="attackers_declared")
    assert guard2 in declare_defenders(with_lord.state, 1, guard2).challenge.defenders
    other = baratheon(phase="challenges")
    other.play(0, "core_072")  # in play but not attacking
    knight3 = other.play(0, "core_081")
    guard3 = other.play(1, "core_017")
    other.challenge("military", attackers=[knight3], step="attackers_declared")
    assert guard3 in defenders_offered(other.state, 1)
    refused(b.state, 0, stannis, "lordless_cannot_defend", code="applies_by_itself")


# core_073 Renly Baratheon: "Pay 1 influence to stand him."
def test_core_073_renly_stands_for_one_influence() -> None:
    b = baratheon(phase="challenges")
    renly = b.play(0, "core_073", knelt=True)
    fief = b.play(0, "core_092")
    after = use(b.state, 0, renly, "stand", influence=[fief])
    assert not card(after, renly).knelt and card(after, fief).knelt
    refused(after, 0, renly, "stand", code="condition_failed", influence=[])  # standing
    refused(b.state, 0, renly, "stand", code="cannot_pay")
    other = Board(houses=("Stark", "Baratheon"), phase="challenges")
    theirs = other.play(1, "core_073", knelt=True)
    refused(other.state, 0, theirs, "stand", code="not_your_card")


# core_074 Melisandre: "While standing: Asshai characters get +1 STR and power on
# opponents' characters does not count for them."
def test_core_074_melisandre_strengthens_asshai_while_standing() -> None:
    b = baratheon(phase="marshalling")
    priest = b.play(0, "core_084")  # Asshai, STR 1
    robert = b.play(0, "core_071")  # STR 3, not Asshai
    mel = b.play(0, "core_074")  # Asshai, STR 3
    assert strength(b.state, priest, ED) == 2
    assert strength(b.state, mel, ED) == 4
    assert strength(b.state, robert, ED) == 3
    knelt = replace(b.state, cards=tuple(replace(c, knelt=True) if c.id == mel else c
                                         for c in b.state.cards))
    assert strength(knelt, priest, ED) == 1
    refused(b.state, 0, mel, "asshai_strength", code="applies_by_itself")


def test_core_074_melisandre_uncounts_opponents_character_power() -> None:
    from projections.thrones.apply.values import total_power
    b = baratheon(phase="marshalling")
    mel = b.play(0, "core_074", power=1)
    b.play(1, "core_017", power=3)
    b.house_power(1, 2)
    after = answer(b.state, 0, mel, "opponents_power_uncounted", {"card": mel, "seat": 0})
    assert total_power(after, 1) == 2
    assert total_power(after, 0) == 1
    knelt = replace(after, cards=tuple(replace(c, knelt=True) if c.id == mel else c
                                       for c in after.cards))
    assert total_power(knelt, 1) == 5
    refused(b.state, 0, mel, "opponents_power_uncounted", code="outside_window")


# core_075 Ser Davos Seaworth: "May save himself from death; then either pay 1 gold or
# send him back to hand." (ruling B12)
def test_core_075_davos_saves_himself_to_the_hand_or_for_a_gold() -> None:
    b = baratheon(phase="challenges", gold=1)
    davos = b.play(0, "core_075")
    trig = {"card": davos, "seat": 0}
    after = answer(b.state, 0, davos, "save_to_hand", trig)
    assert davos in after.players[0].hand and not in_play(after, davos)
    paid = answer(b.state, 0, davos, "save_for_gold", trig)
    assert paid.players[0].gold == 0 and in_play(paid, davos)
    answer_refused(paid, 0, davos, "save_for_gold", trig, code="cannot_pay")
    refused(b.state, 0, davos, "save_to_hand", code="outside_window")


def test_core_075_davos_paying_a_gold_stays_in_play_as_he_was() -> None:
    b = baratheon(phase="challenges", mode="table", gold=1)
    davos = b.play(0, "core_075", knelt=True)
    before = b.state
    dead = _record(before, 0, {"op": "kill", "cards": [davos]})
    assert davos in dead.players[0].dead
    saved = use(dead, 0, davos, "save_for_gold")
    assert saved.cards == before.cards and davos not in saved.players[0].dead
    assert saved.players[0].gold == 0
    refused(saved, 0, davos, "save_for_gold", code="outside_window")
    broke = replace(dead, players=(replace(dead.players[0], gold=0), dead.players[1]))
    refused(broke, 0, davos, "save_for_gold", code="cannot_pay")


# core_077 Maester Cressen: "Marshalling: kneel him to discard a Condition attachment in
# play."
def test_core_077_cressen_discards_a_condition() -> None:
    b = baratheon(phase="marshalling")
    cressen = b.play(0, "core_077")
    robert = b.play(0, "core_071")
    drunk = b.play(1, "core_069", on=robert)  # a Condition
    sword = b.play(0, "core_068", on=robert)  # a Weapon
    second = b.play(1, "core_145", on=robert)  # Milk of the Poppy, a Condition
    after = use(b.state, 0, cressen, "discard_condition", condition=drunk)
    assert drunk in after.players[1].discard and not in_play(after, drunk)
    assert card(after, cressen).knelt
    refused(b.state, 0, cressen, "discard_condition", code="wrong_target", condition=sword)
    refused(after, 0, cressen, "discard_condition", code="cannot_pay", condition=second)
    b.set(phase="challenges")
    refused(b.state, 0, cressen, "discard_condition", code="outside_window", condition=drunk)


# core_078 Ser Axell Florent: "Stands again after you win a power challenge by 4 or more
# STR."
def test_core_078_axell_stands_after_a_big_power_win() -> None:
    b = baratheon(phase="challenges")
    axell = b.play(0, "core_078", knelt=True)
    trig = {"type": "power", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
            "margin": 4, "unopposed": False}
    after = answer(b.state, 0, axell, "stand_again", trig)
    assert not card(after, axell).knelt
    answer_refused(after, 0, axell, "stand_again", trig, code="condition_failed")
    refused(b.state, 0, axell, "stand_again", code="outside_window")


# core_079 Edric Storm: "After winning a power challenge as attacker by 4+, sacrifice him
# to start one more power challenge (one such response a round)."
def test_core_079_edric_storm_is_sacrificed_for_another_power_challenge() -> None:
    b = baratheon(phase="challenges")
    edric = b.play(0, "core_079")
    trig = {"type": "power", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
            "margin": 5, "unopposed": False}
    after = answer(b.state, 0, edric, "another_power_challenge", trig)
    assert edric in after.players[0].discard and not in_play(after, edric)
    assert after.players[0].extra == (0, 0, 1)
    back = replace(after, cards=(*after.cards, replace(card(b.state, edric))))
    answer_refused(back, 0, edric, "another_power_challenge", trig, code="limit_reached")
    refused(b.state, 0, edric, "another_power_challenge", code="outside_window")


# core_080 Devan Seaworth: "Has stealth while any character you control carries power."
def test_core_080_devan_has_stealth_while_a_character_you_control_holds_power() -> None:
    b = baratheon(phase="challenges")
    devan = b.play(0, "core_080")
    b.play(1, "core_017", power=2)  # the opponent's power does not count
    assert not has_keyword(b.state, devan, "stealth", ED)
    robert = b.play(0, "core_071", power=1)
    assert has_keyword(b.state, devan, "stealth", ED)
    lost = replace(b.state, cards=tuple(replace(c, power=0) if c.id == robert else c
                                        for c in b.state.cards))
    assert not has_keyword(lost, devan, "stealth", ED)
    himself = replace(lost, cards=tuple(replace(c, power=1) if c.id == devan else c
                                        for c in lost.cards))
    assert has_keyword(himself, devan, "stealth", ED)  # Devan is a character you control
    refused(b.state, 0, devan, "stealth_with_power", code="applies_by_itself")


# core_081 Knight of the Rainwood: "Can never be discarded from play."
def test_core_081_rainwood_cannot_be_discarded_from_play() -> None:
    b = baratheon(phase="challenges", mode="table")
    knight = b.play(0, "core_081")
    other = b.play(0, "core_071")
    with pytest.raises(IllegalAction) as err:
        _record(b.state, 0, {"op": "discard_from_play", "cards": [knight]})
    assert err.value.code == "cannot_be_discarded"
    assert "Knight of the Rainwood" in err.value.message
    after = _record(b.state, 0, {"op": "discard_from_play", "cards": [other]})
    assert other in after.players[0].discard
    killed = _record(b.state, 0, {"op": "kill", "cards": [knight]})  # a kill is no discard
    assert knight in killed.players[0].dead
    refused(b.state, 0, knight, "never_discarded", code="applies_by_itself")


# core_082 Stannis's Northern Cavalry: "Cannot be killed or discarded during a phase in which
# its STR was changed." (ruling B22)
def test_core_082_cavalry_cannot_be_killed_or_discarded_once_its_str_changed() -> None:
    b = baratheon(phase="challenges", mode="table")
    cavalry = b.play(0, "core_082")  # STR 3
    killed = _record(b.state, 0, {"op": "kill", "cards": [cavalry]})
    assert cavalry in killed.players[0].dead  # its STR has not changed: it dies
    weaker = _record(b.state, 0, {"op": "adjust_strength", "card": cavalry, "amount": -1,
                                  "until": "round"})
    for op in ({"op": "kill", "cards": [cavalry]},
               {"op": "discard_from_play", "cards": [cavalry]}):
        with pytest.raises(IllegalAction) as err:
            _record(weaker, 0, op)
        assert err.value.code in ("cannot_be_killed", "cannot_be_discarded")
        assert "Stannis's Northern Cavalry" in err.value.message
    refused(b.state, 0, cavalry, "steadfast", code="applies_by_itself")


def test_core_082_cavalry_is_not_a_claim_victim_and_dies_again_next_phase() -> None:
    from projections.thrones.apply.claims import claim_victims
    from projections.thrones.apply.rounds import set_phase

    b = baratheon(phase="challenges", mode="table")
    cavalry = b.play(1, "core_082")
    other = b.play(1, "core_075")
    b.challenge("military", attacker=1, defender=0, attackers=[cavalry, other])
    weaker = _record(b.state, 0, {"op": "adjust_strength", "card": cavalry, "amount": 1,
                                  "until": "round"})
    assert weaker.challenge is not None
    assert claim_victims(weaker, weaker.challenge, 1, ED) == [other]
    next_phase = set_phase(weaker, "dominance")  # STR still +1, but unchanged this phase
    assert cavalry in _record(next_phase, 0, {"op": "kill",
                                             "cards": [cavalry]}).players[1].dead


def test_core_081_rainwood_takes_only_weapons() -> None:
    b = baratheon(phase="marshalling")
    knight = b.play(0, "core_081")
    assert "no_attachments_except_weapon" in ED.by_number[81].keywords
    from projections.rules import IllegalAction
    from projections.thrones.apply.values import check_host
    drunk = b.hand(1, "core_069")
    with pytest.raises(IllegalAction):
        check_host(b.state, 1, drunk, knight, ED)


# core_083 Highgarden Honor Guard: "During challenges you may place it into play for an
# opponent; you regain it after that opponent wins a challenge it joined."
def test_core_083_honor_guard_is_lent_to_an_opponent_and_comes_home() -> None:
    b = baratheon(phase="challenges")
    guard = b.hand(0, "core_083")
    after = use(b.state, 0, guard, "lend", rival=1)
    assert card(after, guard).controller == 1 and guard not in after.players[0].hand
    trig = {"type": "military", "winner": 1, "loser": 0, "attacker": 1, "defender": 0,
            "margin": 2, "unopposed": False}
    home = answer(after, 1, guard, "come_home", trig)
    assert card(home, guard).controller == 0
    refused(b.state, 0, guard, "lend", code="wrong_target", rival=0)
    b.set(phase="marshalling")
    refused(b.state, 0, guard, "lend", code="outside_window", rival=1)
    refused(after, 0, guard, "lend", code="not_your_card", rival=1)  # in play, theirs


# core_084 Old Red Priest: "When it dies you must kneel one of your standing locations."
def test_core_084_old_red_priest_dying_kneels_a_location_of_yours() -> None:
    b = baratheon(phase="challenges")
    priest = b.dead(0, "core_084")
    garden = b.play(0, "core_095")
    knelt = b.play(0, "core_148", knelt=True)
    theirs = b.play(1, "core_095")
    trig = {"card": priest, "seat": 0}
    after = answer(b.state, 0, priest, "kneel_location", trig, location=garden)
    assert card(after, garden).knelt
    answer_refused(b.state, 0, priest, "kneel_location", trig, code="wrong_target",
                   location=knelt)
    answer_refused(b.state, 0, priest, "kneel_location", trig, code="wrong_target",
                   location=theirs)
    alive = baratheon(phase="challenges")
    living = alive.play(0, "core_084")
    alive.play(0, "core_095")
    answer_refused(alive.state, 0, living, "kneel_location", {"card": living, "seat": 0},
                   code="not_in_zone", location=garden)


# core_086 Renly's Courtier: "Kneel: treat a non-unique character's text as blank (traits
# stay) until phase end." (card ruling B18)
def test_core_086_courtier_kneels_to_blank_a_non_unique_character() -> None:
    b = baratheon(phase="marshalling")
    courtier = b.play(0, "core_086")
    guard = b.play(1, "core_020")  # Kennel Master: not unique
    bran = b.play(1, "core_013")  # unique
    after = use(b.state, 0, courtier, "blank_text", character=guard)
    assert card(after, courtier).knelt and blank(after, guard, ED)
    assert not blank(after, bran, ED) and not blank(after, courtier, ED)
    refused(b.state, 0, courtier, "blank_text", code="wrong_target", character=bran)
    refused(after, 0, courtier, "blank_text", code="cannot_pay", character=guard)


# core_088 House Tyrell Guard: "When one of your House Baratheon characters dies, put this
# card into play from your hand."
def test_core_088_tyrell_guard_enters_play_from_hand_when_a_baratheon_dies() -> None:
    b = baratheon(phase="challenges")
    guard = b.hand(0, "core_088")
    dead = b.dead(0, "core_071")
    after = answer(b.state, 0, guard, "step_in", {"card": dead, "seat": 0})
    assert card(after, guard).controller == 0 and guard not in after.players[0].hand
    placed = b.play(0, "core_088")
    answer_refused(b.state, 0, placed, "step_in", {"card": dead, "seat": 0},
                   code="not_in_zone")
    refused(b.state, 0, guard, "step_in", code="outside_window")


@needs("killed")
def test_core_088_tyrell_guard_answers_only_a_baratheon_death() -> None:
    b = baratheon(phase="marshalling", mode="table")
    guard = b.hand(0, "core_088")
    bran = b.play(0, "core_013")  # a Stark character: no window for the Guard
    after = RULES.apply(b.state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": [{"op": "kill", "cards": [bran]}],
        "reason": "a test kills a Stark character"}))
    assert after.players[0].dead == (bran,) and guard in after.players[0].hand


# core_091 Dragonstone Port: "Opens an action window between choosing and revealing plots;
# name a plot and gain 1 House power per opponent who reveals it." (card ruling B20)
FILLER = "core_199"  # Snowed Under: no when-revealed ability


def _act(state: State, kind: str, actor: Any, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, actor, data))
    return after


def _plots(b: Board, plots: dict[int, str]) -> dict[int, str]:
    """Each seat's plot put in its plot deck (a filler where none is named)."""
    return {seat: b.plot_deck(seat, plots.get(seat, FILLER)) for seat in range(b.state.n)}


def _choose_all(state: State, chosen: dict[int, str]) -> State:
    """Each seat chooses its plot: the last choice reveals them all (§7.1); an initiative
    tie is broken for the first seat tied."""
    for seat, plot in chosen.items():
        state = _act(state, "choose_plot", seat, plot=plot)
    if state.step == "tie":
        state = _act(state, "break_initiative_tie", "table", winner=state.tied[0])
    return state


PLANNING = "Planning Ahead"  # core_190's printed name


def test_core_091_dragonstone_port_pays_one_power_per_opponent_revealing_the_plot() -> None:
    b = Board(houses=("Baratheon", "Stark", "Lannister"), phase="plot", step="choose",
              mode="table")
    port = b.play(0, "core_091")
    chosen = _plots(b, {1: "core_190", 2: "core_190"})
    named = use(b.state, 0, port, "name_a_plot", plot=PLANNING)
    assert named.players[0].house_power == 0  # nothing until the reveal
    after = _choose_all(named, chosen)
    assert after.players[0].house_power == 2  # both opponents revealed it
    assert after.players[1].house_power == after.players[2].house_power == 0
    assert after.marks == ()  # the name is spent at the reveal


def test_core_091_dragonstone_port_counts_only_opponents() -> None:
    b = baratheon(phase="plot", step="choose", mode="table")
    port = b.play(0, "core_091")
    chosen = _plots(b, {0: "core_190"})  # its own player reveals it
    named = use(b.state, 0, port, "name_a_plot", plot=PLANNING)
    after = _choose_all(named, chosen)
    assert after.players[0].house_power == 0


def test_core_091_dragonstone_port_refusals_name_it() -> None:
    b = baratheon(phase="plot", step="choose", mode="table")
    port = b.play(0, "core_091")
    refused(b.state, 0, port, "name_a_plot", code="wrong_target", plot="Robert Baratheon")
    refused(b.state, 1, port, "name_a_plot", code="not_your_card", plot=PLANNING)
    once = use(b.state, 0, port, "name_a_plot", plot=PLANNING)
    refused(once, 0, port, "name_a_plot", code="limit_reached", plot="Blockade")
    b.set(step="first_player")
    refused(b.state, 0, port, "name_a_plot", code="outside_window", plot=PLANNING)
    b.set(phase="marshalling", step="")
    refused(b.state, 0, port, "name_a_plot", code="outside_window", plot=PLANNING)


def test_core_091_dragonstone_port_offers_the_set_s_plot_names_not_the_choices_made() -> None:
    """§11: an opponent's chosen plot is face down; the names offered are every plot name of
    the set, the same whatever the opponent chose (nothing of its choice leaks)."""
    every_plot = sorted({c.name for c in ED.cards if c.type == "plot"})
    seen = []
    for theirs in ("core_190", "core_193"):
        b = baratheon(phase="plot", step="choose", mode="digital")
        port = b.play(0, "core_091")
        plot = b.plot_deck(1, theirs)
        state = _act(b.state, "choose_plot", 1, plot=plot)
        moves = offered(state, 0)
        seen.append(sorted(m["data"]["choices"]["plot"] for m in moves
                           if m["data"]["card"] == port))
    assert seen[0] == seen[1] == every_plot


# core_092 / core_093 Stormlands Fiefdoms: "Kneel: the next House Baratheon card you
# marshal this phase costs 1 less."
@pytest.mark.parametrize("number", ["core_092", "core_093"])
def test_core_092_core_093_fiefdoms_make_the_next_baratheon_card_cheaper(number: str) -> None:
    b = baratheon(phase="marshalling")
    fief = b.play(0, number)
    robert = b.hand(0, "core_071")  # Baratheon character, cost 4
    sword = b.hand(0, "core_068")  # Baratheon attachment, cost 2
    barristan = b.hand(0, "core_146")  # neutral, cost 4
    after = use(b.state, 0, fief, "discount")
    assert marshal_cost(after, 0, robert, ED)[0] == 3
    assert marshal_cost(after, 0, sword, ED)[0] == 1
    assert marshal_cost(after, 0, barristan, ED)[0] == 4
    refused(after, 0, fief, "discount", code="cannot_pay")
    b.set(phase="challenges")
    refused(b.state, 0, fief, "discount", code="outside_window")


# core_098 Great Hall: "Kneel: the next House Baratheon character you marshal this phase
# costs 2 less."
def test_core_098_great_hall_makes_the_next_baratheon_character_two_cheaper() -> None:
    b = baratheon(phase="marshalling")
    hall = b.play(0, "core_098")
    robert = b.hand(0, "core_071")
    sword = b.hand(0, "core_068")  # an attachment: not a character
    after = use(b.state, 0, hall, "discount")
    assert marshal_cost(after, 0, robert, ED)[0] == 2
    assert marshal_cost(after, 0, sword, ED)[0] == 2
    refused(after, 0, hall, "discount", code="cannot_pay")
    b.set(phase="draw")
    refused(b.state, 0, hall, "discount", code="outside_window")


# core_099 Narrow Sea: "Discard it from play: the next Stark or Baratheon character you
# marshal this phase costs 2 less."
def test_core_099_narrow_sea_is_discarded_for_a_cheaper_stark_or_baratheon() -> None:
    b = baratheon(phase="marshalling")
    sea = b.play(0, "core_099")
    robert = b.hand(0, "core_071")  # cost 4
    barristan = b.hand(0, "core_146")  # neutral, cost 4
    after = use(b.state, 0, sea, "discount")
    assert sea in after.players[0].discard and not in_play(after, sea)
    assert marshal_cost(after, 0, robert, ED)[0] == 2
    assert marshal_cost(after, 0, barristan, ED)[0] == 4
    refused(after, 0, sea, "discount", code="not_in_zone")
    b.set(phase="challenges")
    refused(b.state, 0, sea, "discount", code="outside_window")


# core_146 Ser Barristan Selmy: "When he enters play, all players shuffle their discard
# piles into their decks."
def test_core_146_barristan_entering_play_shuffles_every_discard_pile() -> None:
    b = baratheon(phase="marshalling")
    barristan = b.play(0, "core_146")
    mine = b.discard(0, "core_071")
    theirs = b.discard(1, "core_013")
    after = answer(b.state, 0, barristan, "shuffle_discards", {"card": barristan, "seat": 0,
                                                                "by": "marshal"})
    assert after.players[0].discard == () and after.players[1].discard == ()
    assert mine in after.players[0].deck and theirs in after.players[1].deck
    refused(b.state, 0, barristan, "shuffle_discards", code="outside_window")


@needs("enters_play")
def test_core_146_barristan_marshalled_shuffles_the_discard_piles() -> None:
    b = baratheon(phase="marshalling", gold=4)
    barristan = b.hand(0, "core_146")
    mine = b.discard(0, "core_071")
    after = RULES.apply(b.state, Action.of("marshal_card", 0, {"card": barristan}))
    assert mine in after.players[0].deck


# core_147 Knight of Flowers: "At the start of the dominance phase he gains 1 power if he
# is standing."
def test_core_147_knight_of_flowers_gains_power_at_dominance_if_standing() -> None:
    b = baratheon(phase="dominance")
    kof = b.play(0, "core_147")
    trig = {"phase": "dominance"}
    after = answer(b.state, 0, kof, "dominance_power", trig)
    assert card(after, kof).power == 1
    knelt = baratheon(phase="dominance")
    tired = knelt.play(0, "core_147", knelt=True)
    answer_refused(knelt.state, 0, tired, "dominance_power", trig, code="condition_failed")
    refused(b.state, 0, kof, "dominance_power", code="outside_window")


# core_149 Street of Sisters: "Kneel: the next character with a power icon you marshal this
# phase costs 1 less."
def test_core_149_street_of_sisters_makes_a_power_character_cheaper() -> None:
    b = baratheon(phase="marshalling")
    street = b.play(0, "core_149")
    robert = b.hand(0, "core_071")  # power icon, cost 4
    devan = b.hand(0, "core_080")  # no power icon, cost 2
    after = use(b.state, 0, street, "discount")
    assert marshal_cost(after, 0, robert, ED)[0] == 3
    assert marshal_cost(after, 0, devan, ED)[0] == 2
    refused(after, 0, street, "discount", code="cannot_pay")
    refused(b.state, 1, street, "discount", code="not_your_card")
    assert ED.by_number[149].id == "core_149"


# ---------------------------------------------------------------------------
# Events (from the hand; each goes to its owner's discard pile once played)
# ---------------------------------------------------------------------------


# core_168 Muster: "Kneel one of your Knights to find another Knight in your deck, show it
# and take it."
def test_core_168_muster_kneels_a_knight_to_fetch_another() -> None:
    b = baratheon(phase="challenges")
    muster = b.hand(0, "core_168")
    davos = b.play(0, "core_075")  # a Knight
    tired = b.play(0, "core_078", knelt=True)  # a knelt Knight
    robert = b.play(0, "core_071")  # a Lord, no Knight
    brienne = b.deck(0, "core_076")  # a Knight
    lord = b.deck(0, "core_072")  # Stannis, no Knight
    after = use(b.state, 0, muster, "find_knight", knight=davos, found=brienne)
    assert brienne in after.players[0].hand and brienne not in after.players[0].deck
    assert card(after, davos).knelt and muster in after.players[0].discard
    refused(b.state, 0, muster, "find_knight", code="wrong_target", knight=davos, found=lord)
    refused(b.state, 0, muster, "find_knight", code="wrong_target", knight=tired,
            found=brienne)
    refused(b.state, 0, muster, "find_knight", code="wrong_target", knight=robert,
            found=brienne)
    refused(after, 0, muster, "find_knight", code="not_in_zone", knight=davos, found=brienne)


# core_169 Prosperity and Plenty: "Pay 1 gold to re-attach an attachment from your discard
# pile to one of your characters."
def test_core_169_prosperity_and_plenty_reattaches_from_the_discard_pile() -> None:
    b = baratheon(phase="marshalling", gold=1)
    pnp = b.hand(0, "core_169")
    robert = b.play(0, "core_071")
    foe = b.play(1, "core_017")
    sword = b.discard(0, "core_068")  # Lightbringer
    lord = b.discard(0, "core_072")  # a character, not an attachment
    after = use(b.state, 0, pnp, "reattach", attachment=sword, host=robert)
    assert card(after, sword).host == robert and after.players[0].gold == 0
    assert sword not in after.players[0].discard and pnp in after.players[0].discard
    refused(b.state, 0, pnp, "reattach", code="wrong_target", attachment=lord, host=robert)
    refused(b.state, 0, pnp, "reattach", code="wrong_target", attachment=sword, host=foe)
    b.gold(0, 0)
    refused(b.state, 0, pnp, "reattach", code="cannot_pay", attachment=sword, host=robert)
    stark = Board(houses=("Stark", "Baratheon"), phase="marshalling", gold=1)
    theirs = stark.hand(0, "core_169")
    bran = stark.play(0, "core_013")
    ice = stark.discard(0, "core_001")
    refused(stark.state, 0, theirs, "reattach", attachment=ice, host=bran)  # House only


# core_170 Lords of the Narrow Sea: "Pay 3 influence or kneel a Noble: an opponent reveals
# a new plot; if its income is below yours, gain 1 House power."
def _lords_board(mode: str = "table") -> tuple[Board, str, dict[str, str]]:
    b = baratheon(phase="plot", step="first_player", mode=mode)
    b.set(initiative_winner=0)
    lords = b.hand(0, "core_170")
    b.revealed_plot(0, "core_181")  # Summoning Season, income 4
    b.revealed_plot(1, "core_184")  # Rains of Autumn, income 4
    plots = {"poorer": b.plot_deck(1, "core_182"),  # Mutual Cause, income 3
             "equal": b.plot_deck(1, "core_183"),  # Uneasy Truce, income 4
             "mine": b.plot_deck(0, "core_186")}
    return b, lords, plots


def test_core_170_lords_of_the_narrow_sea_kneel_a_noble_for_a_poorer_plot() -> None:
    b, lords, plots = _lords_board()
    robert = b.play(0, "core_071")  # Noble crest
    davos = b.play(0, "core_075")  # no Noble crest
    after = use(b.state, 0, lords, "by_noble", noble=robert, plot=plots["poorer"])
    assert after.players[1].revealed_plot == plots["poorer"]
    assert after.players[0].house_power == 1 and card(after, robert).knelt
    same = use(b.state, 0, lords, "by_noble", noble=robert, plot=plots["equal"])
    assert same.players[1].revealed_plot == plots["equal"] and same.players[0].house_power == 0
    refused(b.state, 0, lords, "by_noble", code="wrong_target", noble=davos,
            plot=plots["poorer"])
    refused(b.state, 0, lords, "by_noble", code="wrong_target", noble=robert,
            plot=plots["mine"])
    b.set(phase="marshalling", step="")
    refused(b.state, 0, lords, "by_noble", code="outside_window", noble=robert,
            plot=plots["poorer"])


def test_core_170_lords_of_the_narrow_sea_for_three_influence() -> None:
    b, lords, plots = _lords_board()
    fiefs = [b.play(0, "core_092"), b.play(0, "core_093"), b.play(0, "core_148")]
    after = use(b.state, 0, lords, "by_influence", plot=plots["poorer"], influence=fiefs)
    assert after.players[0].house_power == 1
    assert all(card(after, f).knelt for f in fiefs)
    refused(b.state, 0, lords, "by_influence", code="cannot_pay", plot=plots["poorer"],
            influence=fiefs[:2])


def test_core_170_ruling_b4_digital_play_offers_no_opponents_hidden_plot() -> None:
    """§11: the user may not see an opponent's plot deck; in digital play none is offered
    and naming one is refused (at a table the recorder taps the opponent's pick)."""
    from tests.projections.thrones_cards.harness import offered
    b, lords, plots = _lords_board(mode="digital")
    robert = b.play(0, "core_071")
    assert not [m for m in offered(b.state, 0) if m["data"]["card"] == lords]
    refused(b.state, 0, lords, "by_noble", code="wrong_target", noble=robert,
            plot=plots["poorer"])


# core_171 Retreat: "A killed unique character of yours goes to your hand instead of the
# dead pile."
def test_core_171_retreat_sends_a_dying_unique_character_to_the_hand() -> None:
    b = baratheon(phase="challenges")
    retreat = b.hand(0, "core_171")
    robert = b.play(0, "core_071")
    after = answer(b.state, 0, retreat, "to_hand", {"card": robert, "seat": 0})
    assert robert in after.players[0].hand and not in_play(after, robert)
    assert retreat in after.players[0].discard
    refused(b.state, 0, retreat, "to_hand", code="outside_window")
    answer_refused(after, 0, retreat, "to_hand", {"card": robert, "seat": 0},
                   code="not_in_zone")


@needs("would_be_killed")
def test_core_171_retreat_has_no_window_for_a_non_unique_death() -> None:
    b = baratheon(phase="marshalling", mode="table")
    retreat = b.hand(0, "core_171")
    host = b.play(0, "core_089")  # not unique
    after = RULES.apply(b.state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": [{"op": "kill", "cards": [host]}],
        "reason": "a test kills a non-unique character"}))
    assert after.players[0].dead == (host,) and retreat in after.players[0].hand


# core_172 Support of the Kingdom: "After winning a power challenge, take control of an
# opponent's gold- or influence-giving location."
def test_core_172_support_of_the_kingdom_takes_a_giving_location() -> None:
    b = baratheon(phase="challenges")
    support = b.hand(0, "core_172")
    garden = b.play(1, "core_095")  # income 1
    fief = b.play(1, "core_092")  # influence 1
    hall = b.play(1, "core_098")  # neither
    mine = b.play(0, "core_148")
    trig = {"type": "power", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
            "margin": 1, "unopposed": False}
    after = answer(b.state, 0, support, "take_location", trig, location=garden)
    assert card(after, garden).controller == 0 and support in after.players[0].discard
    assert card(answer(b.state, 0, support, "take_location", trig, location=fief),
                fief).controller == 0
    answer_refused(b.state, 0, support, "take_location", trig, code="wrong_target",
                   location=hall)
    answer_refused(b.state, 0, support, "take_location", trig, code="wrong_target",
                   location=mine)
    refused(b.state, 0, support, "take_location", code="outside_window", location=garden)


# core_179 Distinct Mastery: "Stand a character bearing a Holy, Learned, Noble or War crest."
def test_core_179_distinct_mastery_stands_a_crested_character() -> None:
    b = baratheon(phase="challenges")
    mastery = b.hand(0, "core_179")
    robert = b.play(0, "core_071", knelt=True)  # Noble
    selyse = b.play(0, "core_070", knelt=True)  # Holy
    devan = b.play(0, "core_080", knelt=True)  # no crest
    upright = b.play(0, "core_072")  # Stannis, Noble, standing
    after = use(b.state, 0, mastery, "stand_crested", character=robert)
    assert not card(after, robert).knelt and mastery in after.players[0].discard
    assert not card(use(b.state, 0, mastery, "stand_crested", character=selyse),
                    selyse).knelt
    refused(b.state, 0, mastery, "stand_crested", code="wrong_target", character=devan)
    refused(b.state, 0, mastery, "stand_crested", code="wrong_target", character=upright)
    refused(after, 0, mastery, "stand_crested", code="not_in_zone", character=robert)


# ---------------------------------------------------------------------------
# Plots (when revealed: the rules use them at the reveal; here with its trigger)
# ---------------------------------------------------------------------------


def _revealed(number: str, players: int = 2, mode: str = "table") -> tuple[Board, str]:
    houses = ("Baratheon", "Stark", "Lannister", "Targaryen")[:players]
    b = Board(houses=houses, phase="plot", step="first_player", mode=mode)
    plot = b.revealed_plot(0, number)
    return b, plot


# core_181 Summoning Season: "You and one chosen opponent each fetch a character from your
# decks into hand."
def test_core_181_summoning_season_each_takes_a_character() -> None:
    b, plot = _revealed("core_181")
    robert = b.deck(0, "core_071")
    bran = b.deck(1, "core_013")
    ice = b.deck(1, "core_001")  # an attachment
    trig = {"seat": 0, "plot": plot}
    after = answer(b.state, 0, "plot:0", "fetch_characters", trig, mine=[robert], rival=1,
                   theirs=[bran])
    assert robert in after.players[0].hand and bran in after.players[1].hand
    answer_refused(b.state, 0, "plot:0", "fetch_characters", trig, code="wrong_target",
                   mine=[robert], rival=1, theirs=[ice])
    answer_refused(b.state, 0, "plot:0", "fetch_characters", trig, code="wrong_target",
                   mine=[bran], rival=1, theirs=[])
    refused(b.state, 0, "plot:0", "fetch_characters", code="outside_window",
            mine=[robert], rival=1, theirs=[bran])


def test_core_181_ruling_b6_the_user_names_no_card_of_an_opponents_deck() -> None:
    # ruling 33: the opponent picks its own character (test_when_revealed.py); the user
    # may not name one from a deck it does not see
    b, _ = _revealed("core_181", mode="digital")
    b.set(step="when_revealed", revealing=(0,))
    robert = b.deck(0, "core_071")
    bran = b.deck(1, "core_013")
    refused(b.state, 0, "plot:0", "fetch_characters", code="wrong_target",
            name="Summoning Season", mine=[robert], rival=1, theirs=[bran])


# core_182 Mutual Cause: "Melee: you and one chosen opponent may not start power challenges
# against each other this round."
def test_core_182_mutual_cause_forbids_power_challenges_in_a_melee_only() -> None:
    b, _ = _revealed("core_182", players=3)
    trig = {"seat": 0}
    after = answer(b.state, 0, "plot:0", "truce", trig, rival=2)
    assert set(after.forbids) - set(b.state.forbids) == {(0, 2, "power")}
    duel, _ = _revealed("core_182")
    assert answer(duel.state, 0, "plot:0", "truce", trig, rival=1).forbids == ()
    answer_refused(b.state, 0, "plot:0", "truce", trig, code="wrong_target", rival=0)


# core_183 Uneasy Truce: "Starting a military challenge costs the attacker 2 gold handed to
# the defender."
def test_core_183_uneasy_truce_makes_the_military_attacker_pay_the_defender() -> None:
    b, _ = _revealed("core_183")
    b.set(phase="challenges")
    b.gold(1, 3)
    trig = {"type": "military", "attacker": 1, "defender": 0}
    after = answer(b.state, 0, "plot:0", "military_toll", trig)
    assert (after.players[1].gold, after.players[0].gold) == (1, 2)
    b.gold(1, 1)
    after = answer(b.state, 0, "plot:0", "military_toll", trig)
    assert (after.players[1].gold, after.players[0].gold) == (0, 1)
    refused(b.state, 0, "plot:0", "military_toll", code="outside_window")


# core_184 Rains of Autumn: "No card provides an income bonus this round."
def test_core_184_rains_of_autumn_suppresses_every_income_bonus() -> None:
    b, _ = _revealed("core_184", players=3)
    after = answer(b.state, 0, "plot:0", "no_income_bonus", {"seat": 0})
    assert after.suppress_income == frozenset({0, 1, 2})
    refused(b.state, 0, "plot:0", "no_income_bonus", code="outside_window")
    refused(b.state, 1, "plot:0", "no_income_bonus", code="not_your_card")


# core_185 Good for the Gander: "Copy the when-revealed effect of an opponent's revealed
# plot." (card ruling B19: the copied ability is used by the Gander's owner, its choices
# asked of the owner; in a melee the owner picks which opponent's plot)
def _reveal(b: Board, plots: dict[int, str], first: int = 0) -> State:
    """Plots chosen and revealed through the real plot phase, the first player named."""
    chosen = _plots(b, plots)
    state = _choose_all(b.state, chosen)
    return _act(state, "choose_first_player", state.initiative_winner, first_player=first)


def _moved_on(state: State) -> bool:
    return not state.revealing and state.pick is None and state.step != "when_revealed"


def test_core_185_good_for_the_gander_copies_for_its_owner() -> None:
    b = Board(houses=("Baratheon", "Lannister"), phase="plot", step="choose", mode="table")
    # the opponent's Planning Ahead: "You skip the taxation phase this round"
    state = _reveal(b, {0: "core_185", 1: "core_190"})
    assert state.skip_taxation == frozenset({0, 1})  # the copy is the Gander's owner's
    assert _moved_on(state)


def test_core_185_good_for_the_gander_asks_its_owner_the_copied_choices() -> None:
    b = Board(houses=("Baratheon", "Lannister"), phase="plot", step="choose", mode="table")
    robert = b.play(0, "core_071")
    tyrion = b.play(1, "core_038")
    # Drunken Allegations: "You and one chosen opponent each kneel one of your standing
    # characters": copied, Anna kneels her own and names Bo, who kneels his
    state = _reveal(b, {0: "core_185", 1: "core_188"})
    assert RULES.to_act(state) == (0,) and state.revealing[0] == 0
    with pytest.raises(IllegalAction) as err:
        use(state, 1, "plot:0", "both_kneel", mine=tyrion, foe=0)
    assert err.value.code == "not_your_card" and "Good for the Gander" in err.value.message
    state = use(state, 0, "plot:0", "both_kneel", mine=robert, foe=1)
    assert RULES.to_act(state) == (1,)
    state = use(state, 1, "plot:0", "both_kneel", theirs=tyrion)
    assert {c.id for c in state.cards if c.knelt} == {robert, tyrion}
    assert state.revealing[:1] == (1,)  # then Bo's own Drunken Allegations


def test_core_185_good_for_the_gander_copied_draws_are_dealt_for_its_owner() -> None:
    """A copied Counting Favors ("You and one chosen opponent each draw 3 cards") in
    digital play: the server deals the Gander's owner's three and the opponent's three."""
    from projections.rules import Dealer
    b = Board(houses=("Baratheon", "Lannister"), phase="plot", step="choose",
              mode="digital")
    mine = [b.deck(0, c) for c in ("core_071", "core_072", "core_073", "core_074")]
    theirs = [b.deck(1, c) for c in ("core_037", "core_038", "core_039", "core_040")]
    state = _reveal(b, {0: "core_185", 1: "core_203"})
    assert RULES.to_act(state) == (0,)
    move = Action.of("use_ability", 0, {"card": "plot:0", "ability": "favors",
                                        "choices": {"other": 1}})
    data = RULES.fill_chance(state, move, Dealer("gander", 1))
    after = RULES.apply(state, Action.of("use_ability", 0, data))
    assert len(set(after.players[0].hand) & set(mine)) == 3
    assert len(set(after.players[1].hand) & set(theirs)) == 3


def test_core_185_good_for_the_gander_with_nothing_to_copy_does_nothing() -> None:
    b = baratheon(phase="plot", step="choose", mode="table")
    b.play(0, "core_071")
    before = b.state.cards
    state = _reveal(b, {0: "core_185", 1: FILLER})  # Snowed Under: no when-revealed
    assert _moved_on(state) and state.cards == before and state.skip_taxation == frozenset()


def test_core_185_good_for_the_gander_in_a_melee_its_owner_picks_the_plot() -> None:
    b = Board(houses=("Baratheon", "Stark", "Lannister", "Targaryen"), phase="plot",
              step="choose", mode="table")
    state = _reveal(b, {0: "core_185", 1: "core_190", 2: "core_201"})
    assert RULES.to_act(state) == (0,)
    picks = sorted(m["data"]["choices"]["foe"] for m in offered(state, 0))
    assert picks == [1, 2]  # Di's Snowed Under has nothing to copy
    with pytest.raises(IllegalAction) as err:
        use(state, 0, "plot:0", "copy_plot", foe=3)
    assert err.value.code == "wrong_target" and "Good for the Gander" in err.value.message
    state = use(state, 0, "plot:0", "copy_plot", foe=1)
    assert 0 in state.skip_taxation  # Anna copied Bo's Planning Ahead


def test_core_185_good_for_the_gander_is_not_used_outside_its_reveal() -> None:
    b, _ = _revealed("core_185")
    refused(b.state, 0, "plot:0", "copy_plot", code="outside_window", name="Good for the "
            "Gander", foe=1)


# core_187 Fleeing to the Wall: "Every player keeps at most 3 of their locations; all
# others are discarded." (card ruling B21: each player with more than 3 chooses its own,
# ruling 33, in turn order)
LOCATIONS = ("core_091", "core_092", "core_093", "core_094", "core_098")


def test_core_187_fleeing_to_the_wall_each_player_keeps_three_of_its_choice() -> None:
    b = Board(houses=("Baratheon", "Stark", "Lannister"), phase="plot", step="choose",
              mode="table")
    mine = [b.play(0, c) for c in LOCATIONS[:4]]
    bos = [b.play(1, c) for c in LOCATIONS]
    cys = [b.play(2, c) for c in LOCATIONS[:2]]
    robert = b.play(0, "core_071")  # a character stays
    state = _reveal(b, {0: "core_187"}, first=1)
    assert RULES.to_act(state) == (1,)  # the first player first; Cy keeps his two unasked
    with pytest.raises(IllegalAction) as err:
        use(state, 0, "plot:0", "keep_three_locations", keep=mine[:3])
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        use(state, 1, "plot:0", "keep_three_locations", keep=bos[:2])
    assert err.value.code == "wrong_target" and "Fleeing to the Wall" in err.value.message
    state = use(state, 1, "plot:0", "keep_three_locations", keep=bos[2:])
    assert RULES.to_act(state) == (0,)
    state = use(state, 0, "plot:0", "keep_three_locations", keep=mine[1:])
    assert state.players[0].discard == (mine[0],)
    assert set(state.players[1].discard) == set(bos[:2]) and state.players[2].discard == ()
    in_play = {c.id for c in state.cards}
    assert {*mine[1:], *bos[2:], *cys, robert} == in_play and _moved_on(state)


def test_core_187_fleeing_to_the_wall_with_three_or_fewer_asks_nobody() -> None:
    b = baratheon(phase="plot", step="choose", mode="table")
    kept = [b.play(0, c) for c in LOCATIONS[:3]] + [b.play(1, LOCATIONS[0])]
    state = _reveal(b, {0: "core_187"})
    assert _moved_on(state) and {c.id for c in state.cards} == set(kept)


def test_core_187_fleeing_to_the_wall_refused_outside_its_reveal() -> None:
    b, _ = _revealed("core_187")
    refused(b.state, 0, "plot:0", "keep_three_locations", code="outside_window",
            name="Fleeing to the Wall")


# core_186 Tourney for the Hand: "Your Knights get +1 STR and are immune to opponents'
# character abilities." (the STR applies by itself while the plot is revealed — vocab: a
# revealed plot's constants; the immunity is declared, not automated)
def test_core_186_tourney_gives_your_knights_one_strength_while_revealed() -> None:
    b = baratheon(phase="challenges")
    davos = b.play(0, "core_075")  # a Knight, STR 3
    robert = b.play(0, "core_071")  # a Lord, STR 3
    foe = b.play(1, "core_017")  # STR 4, no Knight
    assert strength(b.state, davos, ED) == 3
    b.revealed_plot(0, "core_186")
    assert strength(b.state, davos, ED) == 4
    assert strength(b.state, robert, ED) == 3 and strength(b.state, foe, ED) == 4
    theirs = baratheon(phase="challenges")
    knight = theirs.play(0, "core_075")
    theirs.revealed_plot(1, "core_186")  # the opponent's Tourney: not your Knights
    assert strength(theirs.state, knight, ED) == 3
    refused(b.state, 0, "plot:0", "knights_strength", code="applies_by_itself")


# core_186 Tourney for the Hand: "... and are immune to opponents' character abilities."
def test_core_186_tourney_makes_your_knights_immune_to_opponents_character_abilities() -> None:
    b = Board(("Baratheon", "Baratheon"), phase="marshalling", mode="table")
    knight = b.play(0, "core_081")  # Knight of the Rainwood: a non-unique Knight
    lord = b.play(0, "core_082")  # Stannis's Northern Cavalry: non-unique, an Army
    theirs = b.play(1, "core_086")  # Renly's Courtier: kneel to blank a non-unique character
    mine = b.play(0, "core_086")
    before = b.state
    assert use(before, 1, theirs, "blank_text", character=knight) is not None
    b.revealed_plot(0, "core_186")
    err = refused(b.state, 1, theirs, "blank_text", code="immune", name="Knight of the Rainwood",
                  character=knight)
    assert "Tourney for the Hand" in err.message
    offered_now = {m["data"]["choices"]["character"] for m in offered(b.state, 1)
                   if m["data"]["card"] == theirs}
    assert knight not in offered_now and lord in offered_now
    assert use(b.state, 0, mine, "blank_text", character=knight) is not None  # your own
    b.revealed_plot(1, "core_186")  # Bo's Tourney shields Bo's Knights, not Anna's
    b.set(players=tuple(p if s else replace(p, revealed_plot=None)
                        for s, p in enumerate(b.state.players)))
    assert use(b.state, 1, theirs, "blank_text", character=knight) is not None


# Card rulings B7, B6, B13 (docs/rulings/thrones.md, "Card rulings (Baratheon)")
def test_core_074_ruling_b7_melisandre_strengthens_an_opponents_asshai_too() -> None:
    b = baratheon(phase="marshalling")
    theirs = b.play(1, "core_084")  # an opponent's Asshai, STR 1
    b.play(0, "core_074")
    assert strength(b.state, theirs, ED) == 2


def test_core_181_ruling_b6_summoning_season_may_fetch_nothing_for_one_side() -> None:
    b, plot = _revealed("core_181")
    bran = b.deck(1, "core_013")
    after = answer(b.state, 0, "plot:0", "fetch_characters", {"seat": 0, "plot": plot},
                   mine=[], rival=1, theirs=[bran])
    assert bran in after.players[1].hand and after.players[0].hand == b.state.players[0].hand


def test_core_084_ruling_b13_old_red_priest_with_no_standing_location_kneels_nothing() -> None:
    b = baratheon(phase="challenges")
    priest = b.dead(0, "core_084")
    b.play(0, "core_095", knelt=True)
    from projections.thrones.apply.abilities import prepare, target_options
    _, ability, ctx = prepare(b.state, 0, {"card": priest, "ability": "kneel_location"}, ED,
                              trigger={"card": priest, "seat": 0}, targets=False)
    assert target_options(ctx, ability.targets[0]) == []


def test_every_baratheon_use_the_choices_offer_is_accepted() -> None:
    """The choices (the Walker) offer the Baratheon abilities' moves, and each move they
    offer is one the rules accept (no offer the reducer refuses)."""
    from tests.projections.thrones_cards.harness import offered
    b = baratheon(phase="marshalling", gold=2)
    robert = b.play(0, "core_071", knelt=True)
    b.play(0, "core_070")
    b.play(0, "core_073", knelt=True)
    b.play(0, "core_075")
    b.play(0, "core_077")
    b.play(0, "core_092")
    b.play(0, "core_098")
    b.play(0, "core_099")
    b.play(0, "core_149")
    b.play(0, "core_086")
    b.play(1, "core_069", on=robert)
    b.hand(0, "core_168")
    b.hand(0, "core_169")
    b.hand(0, "core_179")
    b.hand(0, "core_083")
    b.deck(0, "core_076")
    b.discard(0, "core_068")
    b.play(1, "core_095")
    seen: set[str] = set()
    for phase in ("marshalling", "challenges"):
        state = replace(b.state, phase=phase)
        moves = offered(state, 0)
        for move in moves:
            seen.add(f"{move['data']['card']}:{move['data']['ability']}")
            RULES.apply(state, Action.of("use_ability", 0, move["data"]))
    assert {"p0-077:discard_condition", "p0-092:discount", "p0-099:discount",
            "p0-070:give_intrigue", "p0-073:stand", "p0-168:find_knight",
            "p0-169:reattach", "p0-179:stand_crested", "p0-083:lend"} <= seen


# The rules using the forced abilities at their moment (they run as soon as the engine
# emits the trigger).
@needs("phase_begins")
def test_core_147_knight_of_flowers_gains_power_as_dominance_begins() -> None:
    b = baratheon(phase="challenges")
    kof = b.play(0, "core_147")
    tired = b.play(1, "core_147", knelt=True)
    b.set(turn=1, passed=frozenset({0}))  # the last player ends the challenges phase
    after = RULES.apply(b.state, Action.of("end_challenges", 1, {}))
    assert after.phase == "dominance"
    assert card(after, kof).power == 1 and card(after, tired).power == 0


@needs("attackers_declared")
def test_core_183_uneasy_truce_charges_a_declared_military_attacker() -> None:
    b = baratheon(phase="challenges", gold=3)
    b.revealed_plot(1, "core_183")
    robert = b.play(0, "core_071")
    b.play(1, "core_017")
    after = RULES.apply(b.state, Action.of("declare_challenge", 0, {
        "type": "military", "defender": 1, "attackers": [robert]}))
    assert (after.players[0].gold, after.players[1].gold) == (1, 5)


# ---------------------------------------------------------------------------
# Blank text (card ruling B18): Renly's Courtier (core_086) and Milk of the Poppy (core_145)
# blank a card's text box. Each place the rules read a card's text is tested: a blank
# card's X does not apply, and its traits, icons and STR stay.
# ---------------------------------------------------------------------------


def _blanked(b: Board, victim: str) -> State:
    """The state after seat 0's Renly's Courtier blanks `victim` (until phase end)."""
    courtier = b.play(0, "core_086")
    return use(b.state, 0, courtier, "blank_text", character=victim)


def test_core_086_a_blank_card_has_no_ability_to_use_or_be_offered() -> None:
    b = baratheon(phase="marshalling", mode="table")
    other = b.play(1, "core_086")  # seat 1's own Courtier, a non-unique character
    b.play(1, "core_017")  # something it could blank
    from projections.thrones.apply.abilities import sources_of

    assert any(m["data"]["card"] == other for m in offered(b.state, 1))
    state = _blanked(b, other)
    refused(state, 1, other, "blank_text", code="text_blank", character=other)
    assert not any(m["data"]["card"] == other for m in offered(state, 1))
    assert other in sources_of(b.state, 1, ED) and other not in sources_of(state, 1, ED)


@needs("would_be_killed")
def test_core_086_a_blank_card_cannot_answer_a_window() -> None:
    """Kennel Master's interrupt (with three Direwolves) saves him; blank, it is gone."""
    b = baratheon(phase="marshalling", mode="table")
    master = b.play(1, "core_020")
    for wolf in ("core_011", "core_014", "core_019"):
        b.play(1, wolf)
    kill = {"op": "kill", "cards": [master]}
    use(_record(b.state, 0, kill), 1, master, "dodge_death")  # the save, not blank
    state = _record(_blanked(b, master), 0, kill)
    refused(state, 1, master, "dodge_death", code="text_blank", name="Kennel Master")


def test_core_086_a_blank_card_s_constant_does_not_apply_its_traits_icons_str_stay() -> None:
    b = baratheon(phase="marshalling")
    master = b.play(1, "core_020")  # printed STR 2, +1 per Direwolf in play
    pup = b.play(1, "core_019")  # a Direwolf
    assert strength(b.state, master, ED) == 3
    state = _blanked(b, master)
    assert strength(state, master, ED) == 2  # its constant is text: gone
    blank_pup = _blanked(b, pup)
    # the Pup's trait is not text: Kennel Master still counts it; its icon and STR stay
    assert strength(blank_pup, master, ED) == 3 and strength(blank_pup, pup, ED) == 2
    assert has_icon(blank_pup, pup, "military", ED)


def test_core_086_a_blank_card_s_restriction_does_not_apply() -> None:
    """Knight of the Rainwood can never be discarded from play; blank, he can."""
    b = baratheon(phase="marshalling", mode="table")
    knight = b.play(1, "core_081")
    discard = {"op": "discard_from_play", "cards": [knight]}
    with pytest.raises(IllegalAction):
        _record(b.state, 0, discard)
    after = _record(_blanked(b, knight), 0, discard)
    assert not in_play(after, knight) and knight in after.players[1].discard


def test_core_086_a_blank_card_s_printed_keywords_are_gone_gained_ones_stay() -> None:
    b = baratheon(phase="marshalling", mode="table")
    lurkers = b.play(1, "core_051")  # stealth, deadly, no attachments
    state = _blanked(b, lurkers)
    for keyword in ("stealth", "deadly", "no_attachments"):
        assert has_keyword(b.state, lurkers, keyword, ED)
        assert not has_keyword(state, lurkers, keyword, ED)
    gained = _record(state, 0, {"op": "gain_keyword", "card": lurkers, "keyword": "renown",
                                "until": "phase"})
    assert has_keyword(gained, lurkers, "renown", ED)  # another card's effect still applies


def test_core_086_a_blank_character_loses_no_attachments_so_an_attachment_may_go_on_it(
        ) -> None:
    b = baratheon(phase="marshalling", gold=5)
    host = b.play(1, "core_016")  # War Host of the North: no attachments
    drunk = b.hand(0, "core_069")  # Stinking Drunk, an attachment for any character
    marshal = Action.of("marshal_card", 0, {"card": drunk, "attach_to": host})
    with pytest.raises(IllegalAction):
        RULES.apply(b.state, marshal)
    after = RULES.apply(_blanked(b, host), marshal)
    assert card(after, drunk).host == host


def test_core_145_a_blank_attachment_s_grants_do_not_apply() -> None:
    """Lordship grants its bearer a power icon; a lasting blank on Lordship (the one
    accessor reads an attachment's text too) takes it away."""
    from projections.thrones.apply.text import blank_effect

    b = baratheon(phase="marshalling")
    master = b.play(1, "core_020")  # military icon only
    lordship = b.play(1, "core_140", on=master)
    assert has_icon(b.state, master, "power", ED)
    state = replace(b.state, modifiers=(blank_effect(lordship),))
    assert not has_icon(state, master, "power", ED)


def test_core_145_milk_on_ser_rodrik_he_kneels_when_defending() -> None:
    """Ser Rodrik Cassel's printed "stays standing when declared as a defender" is text."""
    b = Board(houses=("Baratheon", "Stark"), phase="challenges")
    attacker = b.play(0, "core_089")  # Host of Storm's End
    rodrik = b.play(1, "core_004")
    b.challenge("military", attacker=0, defender=1, attackers=[attacker],
                step="attackers_declared")
    b.set(turn=1)
    defend = Action.of("declare_defenders", 1, {"defenders": [rodrik],
                                                "not_kneeling": [rodrik]})
    assert not card(RULES.apply(b.state, defend), rodrik).knelt
    b.play(0, "core_145", on=rodrik)
    with pytest.raises(IllegalAction) as err:
        RULES.apply(b.state, defend)
    assert err.value.code == "not_kneel_exempt"
    walker = Walker(RULES, table=False)
    moves = list(walker.moves(b.state, "declare_defenders", 1, limit=50))
    assert moves and all(not m["data"].get("not_kneeling") for m in moves)


def test_core_145_milk_on_hodor_he_may_attack_and_be_bypassed_by_stealth() -> None:
    """Hodor's "never declared as an attacker" and "cannot be bypassed by stealth" are text."""
    from projections.thrones.apply.challenges import can_attack
    from projections.thrones.apply.turns import greedy_stealth
    from projections.thrones.apply.values import play_index

    b = Board(houses=("Baratheon", "Stark"), phase="challenges")
    hodor = b.play(1, "core_012")
    sneak = b.play(0, "core_087")  # Bastard of Robert: stealth, power icon
    b.challenge("power", attacker=0, defender=1, attackers=[sneak],
                step="attackers_declared")
    bypass = Action.of("assign_stealth", 0, {"bypass": {sneak: hodor}})
    walker = Walker(RULES, table=False)

    def bypasses(state: State) -> list[Any]:
        return [m["data"]["bypass"] for m in walker.moves(state, "assign_stealth", 0)]

    assert not can_attack(b.state, 1, hodor, "military", play_index(b.state), ED)
    assert greedy_stealth(b.state, b.state.challenge, ED) == {}
    assert bypasses(b.state) == [{}]
    with pytest.raises(IllegalAction):
        RULES.apply(b.state, bypass)
    b.play(0, "core_145", on=hodor)
    state = b.state
    assert can_attack(state, 1, hodor, "military", play_index(state), ED)
    assert greedy_stealth(state, state.challenge, ED) == {sneak: hodor}
    assert {sneak: hodor} in bypasses(state)
    assert RULES.apply(state, bypass).challenge.stealth == ((sneak, hodor),)


def test_core_086_the_blank_ends_with_the_phase() -> None:
    b = baratheon(phase="marshalling")
    b.revealed_plot(0, "core_182")
    b.revealed_plot(1, "core_182")
    master = b.play(1, "core_020")
    b.play(1, "core_019")
    state = _blanked(b, master)
    for seat in (0, 1):
        state = RULES.apply(state, Action.of("end_marshalling", seat, {}))
    assert state.phase == "challenges"
    assert not blank(state, master, ED) and strength(state, master, ED) == 3


def test_core_086_a_blank_card_s_printed_income_is_not_text() -> None:
    """Ruling B18: gold, influence and initiative bonuses are printed outside the text
    box; a blank Lannisport Steward (printed +2 income) still gives its gold."""
    from projections.thrones.apply.rounds import _income

    b = baratheon(phase="marshalling")
    steward = b.play(1, "core_052")
    b.revealed_plot(1, "core_182")  # Mutual Cause: income 3
    state = _blanked(b, steward)
    assert blank(state, steward, ED)
    assert _income(state, 1, ED) == _income(b.state, 1, ED) == 3 + 2
