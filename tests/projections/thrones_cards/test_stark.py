"""The Stark cards (and the neutral House Martell and House Greyjoy cards, and the six
titles), each from its summary in projections/data/thrones.json: used rightly it does what
the summary says (values written by hand from the summary and §9 of the spec), and outside
its window, on a wrong target, without its cost, past its limit or from the wrong zone it is
refused in a sentence naming the card.

Responses, interrupts, forced and when-revealed abilities answer triggers the engine emits
(apply/triggers.py); a test that needs a trigger the engine does not emit yet is skipped
while it is not emitted (`needs`), and runs as soon as it is.
"""

from __future__ import annotations

from typing import Any

import pytest

from projections.rules import Action, IllegalAction, replace
from projections.thrones.apply.abilities import usable_abilities
from projections.thrones.apply.claims import claim_value
from projections.thrones.apply.values import has_icon, has_keyword, strength
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


def card(state: State, ident: str) -> Any:
    return next(c for c in state.cards if c.id == ident)


def in_play(state: State, ident: str) -> bool:
    return any(c.id == ident for c in state.cards)


def stand(state: State, ident: str) -> State:
    return replace(state, cards=tuple(replace(c, knelt=False) if c.id == ident else c
                                      for c in state.cards))


def act(state: State, kind: str, seat: int | str, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, seat, data))
    return after


def marshal(state: State, seat: int, ident: str, **data: Any) -> State:
    return act(state, "marshal_card", seat, card=ident, **data)


# -- core_002 Nymeria --------------------------------------------------------------
def test_core_002_nymeria_gives_arya_one_strength_and_stealth_only_as_her_bearer() -> None:
    b = Board()
    arya = b.play(0, "core_007")  # STR 2
    robb = b.play(0, "core_008")  # STR 2
    nymeria = b.play(0, "core_002", on=robb)
    assert strength(b.state, arya, ED) == 2 and not has_keyword(b.state, arya, "stealth", ED)
    assert strength(b.state, robb, ED) == 2 and not has_keyword(b.state, robb, "stealth", ED)
    b.set(cards=tuple(replace(c, host=arya) if c.id == nymeria else c for c in b.state.cards))
    assert strength(b.state, arya, ED) == 3 and has_keyword(b.state, arya, "stealth", ED)
    refused(b.state, 0, nymeria, "arya_stealth", code="applies_by_itself")


def test_core_002_nymeria_saves_only_when_a_death_is_waiting() -> None:
    b = Board(phase="marshalling")
    robb = b.play(0, "core_008")
    nymeria = b.play(0, "core_002", on=robb)
    refused(b.state, 0, nymeria, "save_bearer", code="outside_window")


@needs("would_be_killed")
def test_core_002_nymeria_kneels_to_save_her_bearer_from_death() -> None:
    b = Board(phase="marshalling", mode="table")
    robb = b.play(1, "core_008")  # STR 2
    nymeria = b.play(1, "core_002", on=robb)
    ilyn = b.play(0, "core_041")
    waiting = use(b.state, 0, ilyn, "kill_weakling", victim=robb)
    after = use(waiting, 1, nymeria, "save_bearer")
    assert in_play(after, robb) and robb not in after.players[1].dead
    assert card(after, nymeria).knelt


# -- core_003 Summer -----------------------------------------------------------------
def test_core_003_summer_gives_bran_stealth_and_any_bearer_two_strength() -> None:
    b = Board()
    bran = b.play(0, "core_013")  # STR 1, no icons
    robb = b.play(0, "core_008")  # STR 2
    summer = b.play(0, "core_003", on=bran)
    assert strength(b.state, bran, ED) == 3
    assert has_icon(b.state, bran, "military", ED) and has_keyword(b.state, bran, "stealth", ED)
    assert strength(b.state, robb, ED) == 2
    b.set(cards=tuple(replace(c, host=robb) if c.id == summer else c for c in b.state.cards))
    assert strength(b.state, robb, ED) == 4 and not has_keyword(b.state, robb, "stealth", ED)
    assert strength(b.state, bran, ED) == 1 and not has_keyword(b.state, bran, "stealth", ED)
    refused(b.state, 0, summer, "bran_stealth", code="applies_by_itself")


# -- core_004 Ser Rodrik Cassel -----------------------------------------------------
def test_core_004_ser_rodrik_is_two_stronger_while_defending_only() -> None:
    b = Board()
    rodrik = b.play(1, "core_004")  # STR 2
    foe = b.play(0, "core_042")
    assert strength(b.state, rodrik, ED) == 2
    b.challenge("military", attacker=0, attackers=[foe], defenders=[rodrik])
    assert strength(b.state, rodrik, ED) == 4
    b.challenge("power", attacker=1, defender=0, attackers=[rodrik], defenders=[])
    assert strength(b.state, rodrik, ED) == 2
    refused(b.state, 1, rodrik, "defending_strength", code="applies_by_itself")


def test_core_004_ser_rodrik_stays_standing_when_he_defends() -> None:
    b = Board(phase="challenges", mode="table")
    rodrik = b.play(1, "core_004")
    hound = b.play(0, "core_042")
    after = act(b.state, "declare_challenge", 0, type="military", defender=1, attackers=[hound])
    after = act(after, "declare_defenders", 1, defenders=[rodrik], not_kneeling=[rodrik])
    assert not card(after, rodrik).knelt


# -- core_005 Eddard Stark ----------------------------------------------------------
def test_core_005_eddard_is_not_used_by_hand() -> None:
    b = Board()
    ned = b.play(0, "core_005")
    refused(b.state, 0, ned, "enters_with_power", code="outside_window")


@needs("enters_play")
def test_core_005_eddard_gains_one_power_when_he_enters_play() -> None:
    b = Board(phase="marshalling", gold=4)
    ned = b.hand(0, "core_005")
    after = marshal(b.state, 0, ned)
    assert card(after, ned).power == 1


# -- core_006 Catelyn Stark ---------------------------------------------------------
def test_core_006_catelyn_answers_only_her_own_defence() -> None:
    b = Board()
    cat = b.play(0, "core_006")
    refused(b.state, 0, cat, "ignore_strength", code="outside_window")


@needs("defenders_declared")
def test_core_006_catelyn_defending_makes_an_attackers_strength_not_count() -> None:
    b = Board(phase="challenges", mode="table")
    cat = b.play(1, "core_006")
    hound = b.play(0, "core_042")  # STR 4, military
    other = b.play(0, "core_044")
    after = act(b.state, "declare_challenge", 0, type="power", defender=1, attackers=[other])
    after = act(after, "declare_defenders", 1, defenders=[cat])
    after = use(after, 1, cat, "ignore_strength", victim=other)
    assert strength(after, other, ED) == 0
    refused(after, 1, cat, "ignore_strength", victim=hound)


# -- core_007 Arya Stark ------------------------------------------------------------
def test_core_007_arya_takes_stealth_from_a_character_for_one_influence() -> None:
    b = Board(houses=("Stark", "Lannister"), phase="marshalling")
    arya = b.play(0, "core_007")
    fiefdom = b.play(0, "core_026")  # influence 1
    tyrion = b.play(1, "core_038")  # stealth
    after = use(b.state, 0, arya, "take_keywords", victim=tyrion, influence=[fiefdom])
    assert has_keyword(after, arya, "stealth", ED)
    assert not has_keyword(after, tyrion, "stealth", ED)
    assert card(after, fiefdom).knelt
    # until the end of the phase
    later = act(act(after, "end_marshalling", 0), "end_marshalling", 1)
    assert later.phase == "challenges"
    assert has_keyword(later, tyrion, "stealth", ED) and not has_keyword(later, arya,
                                                                        "stealth", ED)


def test_core_007_arya_takes_renown_and_is_refused_a_character_without_either() -> None:
    b = Board(houses=("Stark", "Lannister"), phase="marshalling")
    arya = b.play(0, "core_007")
    fiefdom = b.play(0, "core_026")
    ned = b.play(1, "core_005", controller=1)  # renown
    hound = b.play(1, "core_042")  # neither
    after = use(b.state, 0, arya, "take_keywords", victim=ned, influence=[fiefdom])
    assert has_keyword(after, arya, "renown", ED) and not has_keyword(after, ned, "renown", ED)
    refused(b.state, 0, arya, "take_keywords", code="wrong_target", victim=hound,
            influence=[fiefdom])
    refused(b.state, 0, arya, "take_keywords", code="cannot_pay", victim=ned, influence=[])
    b.set(cards=tuple(replace(c, knelt=True) if c.id == fiefdom else c for c in b.state.cards))
    refused(b.state, 0, arya, "take_keywords", code="cannot_pay", victim=ned,
            influence=[fiefdom])


def test_core_007_arya_is_used_from_play_only() -> None:
    b = Board(phase="marshalling")
    arya = b.hand(0, "core_007")
    fiefdom = b.play(0, "core_026")
    tyrion = b.play(1, "core_038")
    refused(b.state, 0, arya, "take_keywords", code="not_in_zone", victim=tyrion,
            influence=[fiefdom])


# -- core_008 Robb Stark -----------------------------------------------------------
def test_core_008_robb_answers_only_a_won_challenge() -> None:
    b = Board(phase="challenges")
    robb = b.play(0, "core_008")
    foe = b.play(1, "core_042")
    refused(b.state, 0, robb, "kill_loser_character", code="outside_window", victim=foe)


@needs("challenge_won")
def test_core_008_robb_kills_a_character_of_the_loser_after_a_military_win() -> None:
    b = Board(mode="table")
    robb = b.play(0, "core_008")
    war_host = b.play(0, "core_016")  # STR 11
    foe = b.play(1, "core_050")  # STR 1, intrigue: cannot defend military
    b.challenge("military", attacker=0, attackers=[robb, war_host], defenders=[])
    after = act(b.state, "resolve_challenge", 0)
    refused(after, 0, robb, "kill_loser_character", code="wrong_target", victim=war_host)
    after = use(after, 0, robb, "kill_loser_character", victim=foe)
    assert foe in after.players[1].dead


# -- core_009 Sansa Stark ----------------------------------------------------------
def test_core_009_sansa_draws_only_after_an_attachment() -> None:
    b = Board()
    sansa = b.play(0, "core_009")
    refused(b.state, 0, sansa, "draw_on_attach", code="outside_window")


@needs("enters_play")
def test_core_009_sansa_lets_her_controller_draw_after_attaching_to_her() -> None:
    b = Board(phase="marshalling", gold=2, mode="table")
    sansa = b.play(0, "core_009")
    nymeria = b.hand(0, "core_002")
    top = b.deck(0, "core_018")
    after = marshal(b.state, 0, nymeria, attach_to=sansa)
    after = use(after, 0, sansa, "draw_on_attach", chance={"drawn": [top]})
    assert top in after.players[0].hand


# -- core_010 Greatjon Umber -------------------------------------------------------
def test_core_010_greatjon_kneels_to_join_a_military_challenge_on_either_side() -> None:
    b = Board(mode="table")
    jon = b.play(0, "core_010")
    robb = b.play(0, "core_008")
    foe = b.play(1, "core_042")
    b.challenge("military", attacker=0, attackers=[robb], defenders=[foe])
    after = use(b.state, 0, jon, "join_attacker")
    assert jon in after.challenge.attackers and card(after, jon).knelt
    refused(after, 0, jon, "join_defender", code="condition_failed")  # already in it
    other = use(b.state, 0, jon, "join_defender")
    assert jon in other.challenge.defenders


def test_core_010_greatjon_is_refused_knelt_or_outside_a_military_or_power_challenge() -> None:
    b = Board(mode="table")
    jon = b.play(0, "core_010")
    robb = b.play(0, "core_008")
    foe = b.play(1, "core_042")
    refused(b.state, 0, jon, "join_attacker", code="outside_window")
    b.challenge("intrigue", attacker=0, attackers=[robb], defenders=[foe])
    refused(b.state, 0, jon, "join_attacker", code="outside_window")
    b.challenge("power", attacker=0, attackers=[robb], defenders=[foe])
    assert jon in use(b.state, 0, jon, "join_attacker").challenge.attackers
    b.set(cards=tuple(replace(c, knelt=True) if c.id == jon else c for c in b.state.cards))
    refused(b.state, 0, jon, "join_attacker", code="cannot_pay")


# -- core_011 Shaggydog: "+3 STR and immune to events while you control a Stark Lord." --
def _victims(state: State, seat: int) -> set[str]:
    """The cards the choices offer `seat` as an ability's target (any choice's value)."""
    return {str(v) for move in offered(state, seat)
            for v in move["data"]["choices"].values()}


def test_core_011_shaggydog_gets_three_strength_while_you_control_a_stark_lord() -> None:
    b = Board(("Stark", "Stark"))
    dog = b.play(0, "core_011")  # printed STR 1
    assert strength(b.state, dog, ED) == 1
    theirs = b.state
    b.play(1, "core_005")  # the opponent's Eddard Stark: not yours
    assert strength(b.state, dog, ED) == 1
    b.play(0, "core_010")  # Greatjon Umber, a Stark Lord of yours
    assert strength(b.state, dog, ED) == 1 + 3
    lordless = replace(b.state, cards=tuple(c for c in b.state.cards if c.id != "p0-010"))
    assert strength(lordless, dog, ED) == 1 and strength(theirs, dog, ED) == 1


def test_core_011_shaggydog_is_immune_to_events_while_you_control_a_stark_lord() -> None:
    b = Board(("Stark", "Targaryen"), mode="table")
    dog = b.play(0, "core_011")
    burn = b.hand(1, "core_174")  # Forever Burning: -1 STR on any character
    without = b.state
    assert dog in _victims(without, 1)
    assert strength(use(without, 1, burn, "burn", victim=dog), dog, ED) == 0
    lord = b.play(0, "core_005")  # Eddard Stark
    assert dog not in _victims(b.state, 1) and lord in _victims(b.state, 1)
    err = refused(b.state, 1, burn, "burn", code="immune", name="Shaggydog", victim=dog)
    assert "Forever Burning" in err.message
    drogon = b.play(1, "core_111")  # a character ability is not an event
    b.gold(1, 2)
    assert strength(use(b.state, 1, drogon, "scorch", victim=dog), dog, ED) == 1 + 3 - 1


# -- plain cards: core_012 Hodor, core_014 Grey Wind, core_016, core_018, core_019 ----
def test_core_012_hodor_cannot_attack_and_has_nothing_to_use() -> None:
    b = Board(phase="challenges")
    hodor = b.play(0, "core_012")
    assert ED.by_number[12].plain and offered(b.state, 0) == []
    with pytest.raises(IllegalAction) as err:
        act(b.state, "declare_challenge", 0, type="military", defender=1, attackers=[hodor])
    assert "Hodor" in str(err.value)


def test_core_012_hodor_cannot_be_bypassed_by_stealth() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="challenges", mode="table")
    tyrion = b.play(0, "core_038")  # stealth, intrigue
    hodor = b.play(1, "core_012")
    robb = b.play(1, "core_008")
    after = act(b.state, "declare_challenge", 0, type="intrigue", defender=1, attackers=[tyrion])
    assert act(after, "assign_stealth", 0, bypass={tyrion: robb}).challenge is not None
    with pytest.raises(IllegalAction) as err:
        act(after, "assign_stealth", 0, bypass={tyrion: hodor})
    assert "Hodor" in err.value.message


def test_core_014_grey_wind_costs_two_less_while_robb_is_in_play() -> None:
    b = Board(phase="marshalling", gold=2)
    wind = b.hand(0, "core_014")  # cost 4
    with pytest.raises(IllegalAction):
        marshal(b.state, 0, wind)
    b.play(0, "core_008")
    after = marshal(b.state, 0, wind)
    assert after.players[0].gold == 0 and in_play(after, wind)
    assert ED.by_number[14].plain


@pytest.mark.parametrize("ident", ["core_016", "core_018", "core_019", "core_029", "core_030",
                                   "core_031", "core_138"])
def test_plain_stark_cards_offer_nothing(ident: str) -> None:
    b = Board(phase="marshalling")
    b.play(0, ident)
    assert ED.by_number[int(ident[5:])].plain and offered(b.state, 0) == []


def test_core_019_direwolf_pup_is_house_stark_only() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=3)
    pup = b.hand(0, "core_019")
    with pytest.raises(IllegalAction) as err:
        marshal(b.state, 0, pup)
    assert "Stark" in str(err.value)


# -- core_015 Lady --------------------------------------------------------------------
def test_core_015_lady_gives_your_sansa_one_strength_and_renown() -> None:
    b = Board(houses=("Stark", "Stark"))
    sansa = b.play(0, "core_009")  # STR 2
    theirs = b.play(1, "core_009")
    lady = b.play(0, "core_015")
    assert strength(b.state, sansa, ED) == 3 and has_keyword(b.state, sansa, "renown", ED)
    assert strength(b.state, theirs, ED) == 2 and not has_keyword(b.state, theirs, "renown",
                                                                   ED)
    refused(b.state, 0, lady, "sansa_bonus", code="applies_by_itself")


def test_core_015_lady_costs_two_less_while_sansa_is_in_play() -> None:
    b = Board(phase="marshalling", gold=0)
    lady = b.hand(0, "core_015")  # cost 2
    with pytest.raises(IllegalAction):
        marshal(b.state, 0, lady)
    b.play(0, "core_009")
    assert in_play(marshal(b.state, 0, lady), lady)


# -- core_017 Winterfell Honor Guard --------------------------------------------------
def test_core_017_honor_guard_is_put_into_play_for_an_opponent_during_challenges() -> None:
    b = Board(phase="challenges")
    guard = b.hand(0, "core_017")
    after = use(b.state, 0, guard, "lend", rival=1)
    assert card(after, guard).controller == 1 and guard not in after.players[0].hand
    refused(b.state, 0, guard, "lend", code="wrong_target", rival=0)
    b.set(phase="marshalling")
    refused(b.state, 0, guard, "lend", code="outside_window", rival=1)


def test_core_017_honor_guard_is_lent_from_the_hand_only() -> None:
    b = Board(phase="challenges")
    guard = b.play(0, "core_017")
    refused(b.state, 0, guard, "lend", code="not_in_zone", rival=1)


@needs("challenge_won")
def test_core_017_honor_guard_goes_back_after_its_borrower_wins_with_it() -> None:
    b = Board(mode="digital")  # ruling 38: the rules apply a forced ability in digital play
    guard = b.play(0, "core_017", controller=1)  # Anna's, lent to Bo
    b.challenge("military", attacker=1, defender=0, attackers=[guard], defenders=[])
    after = act(b.state, "resolve_challenge", 1)
    assert card(after, guard).controller == 0


@needs("challenge_won")
def test_core_017_honor_guard_stays_with_its_owner_who_wins_with_it() -> None:
    b = Board(mode="digital")
    guard = b.play(0, "core_017")
    b.challenge("military", attacker=0, defender=1, attackers=[guard], defenders=[])
    after = act(b.state, "resolve_challenge", 0)
    assert card(after, guard).controller == 0


# -- core_020 Kennel Master ---------------------------------------------------------
def test_core_020_kennel_master_dodges_only_a_waiting_death() -> None:
    b = Board()
    master = b.play(0, "core_020")
    for wolf in ("core_011", "core_014", "core_019"):
        b.play(0, wolf)
    refused(b.state, 0, master, "dodge_death", code="outside_window")


# core_020 Kennel Master: "+1 STR per Direwolf in play" (any player's Direwolf card, ruling S2)
def test_core_020_kennel_master_gets_one_strength_per_direwolf_in_play() -> None:
    b = Board(("Stark", "Stark"))
    master = b.play(0, "core_020")  # printed STR 2
    assert strength(b.state, master, ED) == 2
    b.play(0, "core_011")  # Shaggydog, a Direwolf
    b.play(0, "core_014")  # Grey Wind, a Direwolf
    assert strength(b.state, master, ED) == 4
    b.play(1, "core_137")  # the opponent's Ghost: a Direwolf in play too
    assert strength(b.state, master, ED) == 5
    b.play(0, "core_010")  # Greatjon Umber: no Direwolf
    assert strength(b.state, master, ED) == 5
    gone = replace(b.state, cards=tuple(c for c in b.state.cards if c.id != "p0-014"))
    assert strength(gone, master, ED) == 4


@needs("would_be_killed")
def test_core_020_kennel_master_returns_to_hand_instead_of_dying_with_three_direwolves() -> None:
    b = Board(mode="table", phase="marshalling")
    master = b.play(1, "core_020")  # STR 2, +1 for each Direwolf: too strong for Ser Ilyn
    wolves = [b.play(1, w) for w in ("core_011", "core_014", "core_019")]

    def killed(state: State) -> State:  # the table's ruling kills him: any kill opens it
        after: State = RULES.apply(state, Action.of("effect", "table", {
            "source": None, "costs": [], "ops": [{"op": "kill", "cards": [master]}],
            "reason": "a test kills him"}))
        return after

    after = use(killed(b.state), 1, master, "dodge_death")
    assert master in after.players[1].hand and master not in after.players[1].dead
    fewer = replace(b.state, cards=tuple(c for c in b.state.cards if c.id != wolves[0]))
    refused(killed(fewer), 1, master, "dodge_death", code="condition_failed")


# -- core_022 Trident Reinforcements -------------------------------------------------
def test_core_022_trident_reinforcements_return_from_a_full_dead_pile_in_dominance() -> None:
    b = Board(phase="dominance")
    trident = b.dead(0, "core_022")
    b.dead(0, "core_018")
    after_two = b.state
    refused(after_two, 0, trident, "back_to_hand", code="condition_failed")
    b.dead(0, "core_019")
    after = use(b.state, 0, trident, "back_to_hand")
    assert trident in after.players[0].hand and trident not in after.players[0].dead
    b.set(phase="marshalling")
    refused(b.state, 0, trident, "back_to_hand", code="outside_window")


def test_core_022_trident_reinforcements_are_used_from_the_dead_pile_only() -> None:
    b = Board(phase="dominance")
    trident = b.hand(0, "core_022")
    for c in ("core_018", "core_019", "core_016"):
        b.dead(0, c)
    refused(b.state, 0, trident, "back_to_hand", code="not_in_zone")


# -- core_023 Winterfell Reserves --------------------------------------------------
def test_core_023_winterfell_reserves_answer_only_their_defence() -> None:
    b = Board(gold=1)
    reserves = b.play(0, "core_023")
    b.discard(1, "core_042")
    refused(b.state, 0, reserves, "recover_discard", code="outside_window", pile_of=1)


@needs("defenders_declared")
def test_core_023_winterfell_reserves_put_a_discarded_card_back_into_its_deck() -> None:
    b = Board(phase="challenges", mode="table")
    reserves = b.play(1, "core_023")
    hound = b.play(0, "core_042")
    lost = b.discard(0, "core_050")
    b.gold(1, 1)
    after = act(b.state, "declare_challenge", 0, type="military", defender=1, attackers=[hound])
    after = act(after, "declare_defenders", 1, defenders=[reserves])
    done = use(after, 1, reserves, "recover_discard", pile_of=0)
    assert lost in done.players[0].deck and lost not in done.players[0].discard
    assert done.players[1].gold == 0
    broke = replace(after, players=tuple(replace(p, gold=0) for p in after.players))
    refused(broke, 1, reserves, "recover_discard", code="cannot_pay", pile_of=0)


# -- cost reductions: core_026/027 Northern Fiefdoms, core_032 Godswood,
#    core_033 Narrow Sea, core_139 Street of Steel ---------------------------------
@pytest.mark.parametrize("number", [26, 27])
def test_core_026_core_027_northern_fiefdoms_make_the_next_stark_card_cheaper(number: int
                                                                               ) -> None:
    b = Board(phase="marshalling", gold=1)
    fief = b.play(0, f"core_{number:03d}")
    kennels = b.hand(0, "core_024")  # a Stark location, cost 2
    crossroads = b.hand(0, "core_138")  # neutral, cost 2
    state = use(b.state, 0, fief, "discount")
    assert card(state, fief).knelt
    with pytest.raises(IllegalAction):
        marshal(replace(state, players=tuple(replace(p, gold=1) for p in state.players)), 0,
                crossroads)  # not House Stark: no cheaper
    after = marshal(state, 0, kennels)
    assert after.players[0].gold == 0 and in_play(after, kennels)
    refused(state, 0, fief, "discount", code="cannot_pay")
    b.set(phase="challenges")
    refused(b.state, 0, fief, "discount", code="outside_window")


def test_core_032_godswood_makes_the_next_stark_character_two_cheaper() -> None:
    b = Board(phase="marshalling", gold=2)
    wood = b.play(0, "core_032")
    robb = b.hand(0, "core_008")  # cost 4
    state = use(b.state, 0, wood, "discount")
    after = marshal(state, 0, robb)
    assert after.players[0].gold == 0 and in_play(after, robb)
    refused(state, 0, wood, "discount", code="cannot_pay")
    b.set(phase="dominance")
    refused(b.state, 0, wood, "discount", code="outside_window")


def test_core_033_narrow_sea_is_discarded_for_a_stark_or_baratheon_character() -> None:
    b = Board(houses=("Stark", "Lannister"), phase="marshalling", gold=2)
    sea = b.play(0, "core_033")
    robb = b.hand(0, "core_008")  # cost 4
    state = use(b.state, 0, sea, "discount")
    assert not in_play(state, sea) and sea in state.players[0].discard
    after = marshal(state, 0, robb)
    assert after.players[0].gold == 0
    refused(state, 0, sea, "discount", code="not_in_zone")


def test_core_033_narrow_sea_does_not_make_a_lannister_character_cheaper() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=3)
    sea = b.play(0, "core_033")
    hound = b.hand(0, "core_042")  # Lannister, cost 2; out-of-house would be 2 less
    joffrey = b.hand(0, "core_036")  # cost 3
    state = use(b.state, 0, sea, "discount")
    after = marshal(state, 0, hound)
    assert after.players[0].gold == 1  # paid the full 2
    after = marshal(replace(state, players=tuple(replace(p, gold=3) for p in state.players)),
                    0, joffrey)
    assert after.players[0].gold == 0


def test_core_139_street_of_steel_makes_a_military_character_cheaper() -> None:
    b = Board(phase="marshalling", gold=3)
    street = b.play(0, "core_139")
    sansa = b.hand(0, "core_009")  # intrigue and power only, cost 2
    robb = b.hand(0, "core_008")  # military, cost 4
    state = use(b.state, 0, street, "discount")
    after = marshal(state, 0, sansa)
    assert after.players[0].gold == 1  # no cheaper
    after = marshal(replace(after, players=tuple(replace(p, gold=3) for p in after.players)),
                    0, robb)
    assert after.players[0].gold == 0
    refused(state, 0, street, "discount", code="cannot_pay")


# -- core_028 Lord Eddard's Chambers ------------------------------------------------
def test_core_028_chambers_go_on_your_own_house_card_and_offer_nothing() -> None:
    b = Board(phase="marshalling", gold=1)
    chambers = b.hand(0, "core_028")
    after = marshal(b.state, 0, chambers, attach_to="house")
    assert in_play(after, chambers) and ED.by_number[28].plain
    assert offered(after, 0) == []


# -- core_135 Benjen Stark -----------------------------------------------------------
def test_core_135_benjen_is_not_used_by_hand() -> None:
    b = Board()
    benjen = b.dead(0, "core_135")
    refused(b.state, 0, benjen, "dead_piles_reshuffled", code="outside_window")


@needs("killed")
def test_core_135_benjen_dying_shuffles_every_dead_pile_into_its_deck() -> None:
    b = Board(houses=("Stark", "Stark"), mode="table")
    benjen = b.play(1, "core_135")  # attacking Anna
    lethal = b.hand(0, "core_158")
    pair = [b.play(0, "core_008"), b.play(0, "core_005")]
    mine = b.dead(0, "core_018")
    theirs = b.dead(1, "core_019")
    b.challenge("military", attacker=1, defender=0, attackers=[benjen])
    after = use(b.state, 0, lethal, "kill_attackers", pair=pair)
    # ruling 38: at a table the forced ability is recorded, in the window of his death
    after = use(after, 1, benjen, "dead_piles_reshuffled")
    assert after.players[0].dead == () and after.players[1].dead == ()
    assert mine in after.players[0].deck and theirs in after.players[1].deck
    assert benjen in after.players[1].deck


# -- core_136 Jon Snow and core_137 Ghost --------------------------------------------
def test_core_136_jon_snow_gains_power_only_after_a_win() -> None:
    b = Board(phase="challenges")
    jon = b.play(0, "core_136")
    refused(b.state, 0, jon, "gain_power", code="outside_window")
    refused(b.state, 0, jon, "ghost_immune", code="applies_by_itself")


def test_core_136_jon_snow_takes_weapons_only() -> None:
    b = Board(phase="marshalling", gold=2)
    jon = b.play(0, "core_136")
    nymeria = b.hand(0, "core_002")  # a Creature, not a Weapon
    ice = b.hand(0, "core_001")  # a Weapon, for Stark characters only (Jon has no House)
    with pytest.raises(IllegalAction):
        marshal(b.state, 0, nymeria, attach_to=jon)
    del ice


@needs("challenge_won")
def test_core_136_jon_snow_gains_a_power_after_a_win_with_ghost_in_it() -> None:
    b = Board(mode="table")
    jon = b.play(0, "core_136")
    ghost = b.play(0, "core_137")  # STR 3
    b.challenge("military", attacker=0, attackers=[ghost], defenders=[])
    after = act(b.state, "resolve_challenge", 0)
    after = use(after, 0, jon, "gain_power")
    assert card(after, jon).power == 1


def test_core_136_core_137_jon_snow_and_ghost_make_each_other_immune_to_events() -> None:
    b = Board(("Stark", "Targaryen"), mode="table")
    jon = b.play(0, "core_136")
    burn = b.hand(1, "core_174")  # Forever Burning, an event
    assert jon in _victims(b.state, 1)  # no Ghost: Jon may be chosen
    ghost = b.play(0, "core_137")
    assert not {jon, ghost} & _victims(b.state, 1)
    refused(b.state, 1, burn, "burn", code="immune", name="Jon Snow", victim=jon)
    err = refused(b.state, 1, burn, "burn", code="immune", name="Ghost", victim=ghost)
    assert "Jon Snow" in err.message  # what makes Ghost immune
    theirs = Board(("Stark", "Targaryen"), mode="table")
    lone_ghost = theirs.play(0, "core_137")
    theirs.play(1, "core_136")  # the opponent's Jon Snow does not shield your Ghost
    theirs.hand(1, "core_174")
    assert lone_ghost in _victims(theirs.state, 1)
    drogon = b.play(1, "core_111")  # a character's ability: not an event
    b.gold(1, 2)
    assert strength(use(b.state, 1, drogon, "scorch", victim=jon), jon, ED) == 2


def test_core_137_ghost_saves_only_when_a_death_is_waiting() -> None:
    b = Board()
    ghost = b.play(0, "core_137")
    refused(b.state, 0, ghost, "save_from_death", code="outside_window")
    refused(b.state, 0, ghost, "jon_immune", code="applies_by_itself")


@needs("would_be_killed")
def test_core_137_ghost_kneels_to_save_a_nights_watch_character() -> None:
    b = Board(houses=("Stark", "Stark"), mode="table")
    ghost = b.play(1, "core_137")
    jon = b.play(1, "core_136")  # Night's Watch, attacking Anna
    robb = b.play(1, "core_008")  # not Night's Watch
    lethal = b.hand(0, "core_158")
    pair = [b.play(0, "core_008"), b.play(0, "core_005")]
    b.challenge("military", attacker=1, defender=0, attackers=[jon])
    waiting = use(b.state, 0, lethal, "kill_attackers", pair=pair)
    after = use(waiting, 1, ghost, "save_from_death")
    assert in_play(after, jon) and card(after, ghost).knelt
    b.challenge("military", attacker=1, defender=0, attackers=[robb])
    waiting = use(b.state, 0, lethal, "kill_attackers", pair=pair)
    refused(waiting, 1, ghost, "save_from_death")


# -- core_155 Distraction -------------------------------------------------------------
def test_core_155_distraction_kneels_a_military_character_in_marshalling() -> None:
    b = Board(phase="marshalling")
    trick = b.hand(0, "core_155")
    hound = b.play(1, "core_042")  # military
    cersei = b.play(1, "core_039")  # intrigue and power
    after = use(b.state, 0, trick, "kneel_military", victim=hound)
    assert card(after, hound).knelt and trick in after.players[0].discard
    refused(b.state, 0, trick, "kneel_military", code="wrong_target", victim=cersei)
    refused(after, 0, trick, "kneel_military", code="not_in_zone", victim=hound)
    b.set(phase="challenges")
    refused(b.state, 0, trick, "kneel_military", code="outside_window", victim=hound)


# -- core_156 Winter is Coming -----------------------------------------------------------
def test_core_156_winter_is_coming_raises_every_stark_claim_for_the_challenge() -> None:
    b = Board(houses=("Stark", "Lannister", "Stark"), mode="table")
    winter = b.hand(0, "core_156")
    again = b.hand(0, "core_156")
    for seat in range(3):
        b.revealed_plot(seat, "core_195")  # claim 1
    robb = b.play(0, "core_008")
    refused(b.state, 0, winter, "stark_claim", code="outside_window")
    b.challenge("military", attacker=0, attackers=[robb])
    after = use(b.state, 0, winter, "stark_claim")
    assert [claim_value(after, s, ED) for s in range(3)] == [2, 1, 2]
    assert winter in after.players[0].discard
    refused(after, 0, again, "stark_claim", code="limit_reached")


# -- core_157 Kings in the North -------------------------------------------------------
def test_core_157_kings_in_the_north_answers_only_a_dominance_win() -> None:
    b = Board(phase="dominance")
    kings = b.hand(0, "core_157")
    robb = b.play(0, "core_008")
    ned = b.play(0, "core_005")
    refused(b.state, 0, kings, "kneel_for_power", code="outside_window", pair=[robb, ned])


@needs("dominance_won")
def test_core_157_kings_in_the_north_kneels_two_stark_characters_for_a_power_each() -> None:
    b = Board(phase="dominance", mode="table")
    kings = b.hand(0, "core_157")
    robb = b.play(0, "core_008")
    ned = b.play(0, "core_005")
    after = act(b.state, "resolve_dominance", "table")
    after = use(after, 0, kings, "kneel_for_power", pair=[robb, ned])
    assert card(after, robb).knelt and card(after, ned).knelt
    assert card(after, robb).power == 1 and card(after, ned).power == 1


# -- core_158 Lethal Counterattack ------------------------------------------------------
def test_core_158_lethal_counterattack_kneels_two_stark_characters_to_kill_all_attackers(
        ) -> None:
    b = Board(mode="table")
    lethal = b.hand(1, "core_158")
    robb = b.play(1, "core_008")
    ned = b.play(1, "core_005")
    hound = b.play(0, "core_042")
    bronn = b.play(0, "core_044")
    b.challenge("military", attacker=0, defender=1, attackers=[hound, bronn])
    after = use(b.state, 1, lethal, "kill_attackers", pair=[robb, ned])
    assert set(after.players[0].dead) == {bronn}
    assert hound in after.players[0].discard  # ruling L13: The Hound's pile when killed
    assert card(after, robb).knelt and card(after, ned).knelt
    refused(b.state, 1, lethal, "kill_attackers", code="wrong_target", pair=[robb, robb])
    knelt = stand(replace(b.state, cards=tuple(replace(c, knelt=True) if c.id == ned else c
                                                for c in b.state.cards)), robb)
    refused(knelt, 1, lethal, "kill_attackers", code="wrong_target", pair=[robb, ned])
    b.challenge("intrigue", attacker=0, defender=1, attackers=[hound])
    refused(b.state, 1, lethal, "kill_attackers", code="outside_window", pair=[robb, ned])


def test_core_158_lethal_counterattack_is_the_defenders_once_a_challenge() -> None:
    b = Board(mode="table", houses=("Stark", "Stark"))
    mine = b.hand(0, "core_158")
    lethal = b.hand(1, "core_158")
    again = b.hand(1, "core_158")
    robb = b.play(1, "core_008")
    ned = b.play(1, "core_005")
    cat = b.play(1, "core_006")
    rodrik = b.play(1, "core_004")
    hound = b.play(0, "core_042")
    b.play(0, "core_008")
    b.play(0, "core_005")
    b.challenge("military", attacker=0, defender=1, attackers=[hound])
    refused(b.state, 0, mine, "kill_attackers", code="condition_failed")
    after = use(b.state, 1, lethal, "kill_attackers", pair=[robb, ned])
    refused(after, 1, again, "kill_attackers", code="limit_reached", pair=[cat, rodrik])


# -- core_159 Bran the Builder's Legacy ------------------------------------------------
def test_core_159_builders_legacy_puts_a_cheap_location_into_play_for_three_gold() -> None:
    b = Board(phase="dominance", gold=3)
    legacy = b.hand(0, "core_159")
    kennels = b.deck(0, "core_024")  # cost 2
    castle = b.deck(0, "core_025")  # cost 3
    after = use(b.state, 0, legacy, "build_location", location=kennels)
    assert in_play(after, kennels) and after.players[0].gold == 0
    refused(b.state, 0, legacy, "build_location", code="wrong_target", location=castle)
    b.gold(0, 2)
    refused(b.state, 0, legacy, "build_location", code="cannot_pay", location=kennels)
    b.set(phase="marshalling")
    refused(b.state, 0, legacy, "build_location", code="outside_window", location=kennels)


# -- core_160 Guilty! -------------------------------------------------------------------
def test_core_160_guilty_kills_a_non_stark_character_for_three_influence() -> None:
    b = Board(phase="dominance")
    guilty = b.hand(0, "core_160")
    payers = [b.play(0, c) for c in ("core_026", "core_027", "core_028")]  # 1 each
    hound = b.play(1, "core_042")
    robb = b.play(1, "core_008")
    after = use(b.state, 0, guilty, "kill_by_influence", victim=hound, influence=payers)
    assert hound in after.players[1].discard  # killed: ruling L13, his pile
    assert all(card(after, p).knelt for p in payers)
    refused(b.state, 0, guilty, "kill_by_influence", code="wrong_target", victim=robb,
            influence=payers)
    refused(b.state, 0, guilty, "kill_by_influence", code="cannot_pay", victim=hound,
            influence=payers[:2])
    b.set(phase="challenges")
    refused(b.state, 0, guilty, "kill_by_influence", code="outside_window", victim=hound,
            influence=payers)


def test_core_160_guilty_kills_for_a_knelt_noble_instead() -> None:
    b = Board(phase="dominance")
    guilty = b.hand(0, "core_160")
    ned = b.play(0, "core_005")  # noble
    hodor = b.play(0, "core_012")  # no crest
    hound = b.play(1, "core_042")
    after = use(b.state, 0, guilty, "kill_by_noble", noble=ned, victim=hound)
    assert hound in after.players[1].discard and card(after, ned).knelt  # L13
    refused(b.state, 0, guilty, "kill_by_noble", code="wrong_target", noble=hodor,
            victim=hound)
    refused(after, 0, guilty, "kill_by_noble", code="not_in_zone", noble=ned, victim=hound)


# -- core_177 Distinct Mastery --------------------------------------------------------
def test_core_177_distinct_mastery_stands_a_crested_character() -> None:
    b = Board(phase="challenges", mode="table")
    mastery = b.hand(0, "core_177")
    ned = b.play(0, "core_005", knelt=True)  # noble
    hodor = b.play(0, "core_012", knelt=True)  # no crest
    umber = b.play(0, "core_010")  # war, standing
    after = use(b.state, 0, mastery, "stand_crested", victim=ned)
    assert not card(after, ned).knelt and mastery in after.players[0].discard
    refused(b.state, 0, mastery, "stand_crested", code="wrong_target", victim=hodor)
    refused(b.state, 0, mastery, "stand_crested", code="wrong_target", victim=umber)


# -- plots: core_195 .. core_201 --------------------------------------------------------
PLOT_WHEN_REVEALED = {"core_195": "fetch_locations", "core_196": "no_military",
                      "core_201": "kill_everyone"}


@pytest.mark.parametrize("plot", sorted(PLOT_WHEN_REVEALED))
def test_when_revealed_plots_are_not_used_by_hand(plot: str) -> None:
    number = int(plot[5:])
    b = Board(phase="marshalling")
    b.revealed_plot(0, f"core_{number:03d}")
    refused(b.state, 0, "plot:0", PLOT_WHEN_REVEALED[plot], code="outside_window",
            name=card_name(f"core_{number:03d}"))


# core_198 Calm Over Westeros: "Playing an event costs its player 1 gold paid to an
# opponent." (ruling S20: an opponent of the plot's owner pays the owner; the owner pays the
# next opponent clockwise; it is a cost, paid first)
def _calm(houses: tuple[str, ...] = ("Stark", "Lannister")) -> tuple[Board, str]:
    """Marshalling, seat 0's Calm Over Westeros revealed, a military character to kneel."""
    b = Board(houses, phase="marshalling", turn=1)
    b.revealed_plot(0, "core_198")
    jaime = b.play(1, "core_037")  # military icon
    return b, jaime


def test_core_198_calm_over_westeros_makes_an_opponents_event_pay_its_owner() -> None:
    b, jaime = _calm()
    distraction = b.hand(1, "core_155")  # Marshalling: kneel a character with a military icon
    b.gold(1, 3)
    after = use(b.state, 1, distraction, "kneel_military", victim=jaime)
    assert card(after, jaime).knelt
    assert (after.players[1].gold, after.players[0].gold) == (2, 1)


def test_core_198_calm_over_westeros_taxes_its_owners_events_to_an_opponent() -> None:
    b, jaime = _calm(("Stark", "Lannister", "Baratheon"))
    b.set(turn=0)
    distraction = b.hand(0, "core_155")
    b.gold(0, 2)
    after = use(b.state, 0, distraction, "kneel_military", victim=jaime)
    golds = tuple(p.gold for p in after.players)
    assert golds == (1, 1, 0)  # the next opponent clockwise is paid


def test_core_198_calm_over_westeros_refuses_an_event_its_player_cannot_pay_for() -> None:
    b, jaime = _calm()
    distraction = b.hand(1, "core_155")
    err = refused(b.state, 1, distraction, "kneel_military", code="cannot_pay", victim=jaime)
    assert "Calm Over Westeros" in err.message
    assert not any(m["data"]["ability"] == "kneel_military" for m in offered(b.state, 1))
    assert usable_abilities(b.state, 1, distraction, ED) == []  # no choice begins it
    # without the plot, the event costs nothing
    b.set(players=tuple(replace(p, revealed_plot=None) for p in b.state.players))
    assert card(use(b.state, 1, distraction, "kneel_military", victim=jaime), jaime).knelt
    # a card's ability is no event: it pays no tax
    b.revealed_plot(0, "core_198")
    kennels = b.play(1, "core_024")
    wolf = b.deck(1, "core_019")
    b.gold(1, 1)
    after = use(b.state, 1, kennels, "fetch_direwolf", wolf=wolf)
    assert (after.players[1].gold, after.players[0].gold) == (0, 0)
    refused(b.state, 0, "plot:0", "event_tax", code="applies_by_itself",
            name=card_name("core_198"))


# core_199 Snowed Under: "At the start of the standing phase, one knelt character or location
# per player goes back to hand." (ruling S21: end_round stops at the standing phase's start;
# each player chooses its own, in turn order from the first player)
def _snowed(first: int = 0) -> tuple[Board, dict[str, str]]:
    b = Board(("Stark", "Lannister"), phase="dominance", first_player=first)
    b.set(dominance_done=True)
    b.revealed_plot(0, "core_199")
    b.revealed_plot(1, "core_184")
    cards = {"eddard": b.play(0, "core_005", knelt=True),
             "kennels": b.play(0, "core_024", knelt=True),
             "bran": b.play(0, "core_013"),
             "jaime": b.play(1, "core_037", knelt=True),
             "tyrion": b.play(1, "core_038")}
    return b, cards


def test_core_199_snowed_under_each_player_returns_one_knelt_card_to_hand() -> None:
    b, c = _snowed()
    begun = act(b.state, "end_round", "table")
    assert begun.phase == "standing" and card(begun, c["eddard"]).knelt  # not stood yet
    assert begun.window is not None and begun.window.waiting == (0,)  # forced: its owner
    asked = use(begun, 0, "plot:0", "back_to_hand")
    assert asked.pick is not None and [s for s, _ in asked.pick.waiting] == [0, 1]
    mine = use(asked, 0, "plot:0", "back_to_hand", returned=[c["kennels"]])
    done = use(mine, 1, "plot:0", "back_to_hand", returned=[c["jaime"]])
    assert c["kennels"] in done.players[0].hand and c["jaime"] in done.players[1].hand
    assert in_play(done, c["eddard"]) and in_play(done, c["tyrion"])
    over = act(done, "end_round", "table")
    assert over.phase == "plot" and not card(over, c["eddard"]).knelt


def test_core_199_snowed_under_asks_in_turn_order_and_only_who_has_a_knelt_card() -> None:
    b, _ = _snowed(first=1)
    asked = use(act(b.state, "end_round", "table"), 0, "plot:0", "back_to_hand")
    assert asked.pick is not None and [s for s, _ in asked.pick.waiting] == [1, 0]
    b2, c2 = _snowed()
    b2.state = stand(b2.state, c2["jaime"])  # seat 1 has nothing knelt: not asked
    asked = use(act(b2.state, "end_round", "table"), 0, "plot:0", "back_to_hand")
    assert asked.pick is not None and [s for s, _ in asked.pick.waiting] == [0]


def test_core_199_snowed_under_with_nothing_knelt_lets_the_round_end() -> None:
    b, c = _snowed()
    for ident in c.values():
        b.state = stand(b.state, ident)
    over = act(b.state, "end_round", "table")
    assert over.phase == "plot"
    assert over.window is None or not over.window.waiting


def test_core_199_snowed_under_refuses_a_wrong_part() -> None:
    b, c = _snowed()
    begun = act(b.state, "end_round", "table")
    refused(begun, 0, "plot:0", "back_to_hand", code="wrong_target",  # not the user's part
            name=card_name("core_199"), returned=[c["kennels"]])
    asked = use(begun, 0, "plot:0", "back_to_hand")
    for wrong in ([c["bran"]], [c["jaime"]], [c["eddard"], c["kennels"]], []):
        refused(asked, 0, "plot:0", "back_to_hand", code="wrong_target",
                name=card_name("core_199"), returned=wrong)
    refused(asked, 1, "plot:0", "back_to_hand", code="not_your_turn",
            name=card_name("core_199"), returned=[c["jaime"]])


def test_core_199_snowed_under_answers_only_the_standing_phase_once() -> None:
    b, c = _snowed()
    refused(b.state, 0, "plot:0", "back_to_hand", code="outside_window",
            name=card_name("core_199"))
    begun = act(b.state, "end_round", "table")
    asked = use(begun, 0, "plot:0", "back_to_hand")
    done = use(use(asked, 0, "plot:0", "back_to_hand", returned=[c["eddard"]]), 1,
               "plot:0", "back_to_hand", returned=[c["jaime"]])
    refused(done, 0, "plot:0", "back_to_hand", code="outside_window",
            name=card_name("core_199"))


# core_197 Holding the Trident: "While you control fewer characters than some opponent, your
# characters get +2 STR."
def test_core_197_holding_the_trident_gives_two_strength_while_you_are_outnumbered() -> None:
    b = Board(("Stark", "Stark", "Stark"), phase="challenges")
    umber = b.play(0, "core_010")  # STR 3
    b.revealed_plot(0, "core_197")
    b.play(1, "core_018")
    assert strength(b.state, umber, ED) == 3  # one character each: not fewer
    foe = b.play(2, "core_017")  # STR 4
    b.play(2, "core_019")
    assert strength(b.state, umber, ED) == 3 + 2  # Cy controls two: some opponent has more
    assert strength(b.state, foe, ED) == 4  # the opponent's characters do not gain it
    b.play(0, "core_001", on=umber)  # an attachment is not a character
    assert strength(b.state, umber, ED) == 5
    b.play(0, "core_008")  # Robb Stark: two and two
    assert strength(b.state, umber, ED) == 3
    refused(b.state, 0, "plot:0", "outnumbered_strength", code="applies_by_itself",
            name=card_name("core_197"))
    gone = b.state.with_player(0, revealed_plot=None)
    assert strength(gone, umber, ED) == 3


def test_core_200_the_power_of_arms_gives_your_war_characters_two_strength() -> None:
    b = Board(houses=("Stark", "Stark"), phase="challenges")
    umber = b.play(0, "core_010")  # War, STR 3
    robb = b.play(0, "core_008")  # Noble, STR 2
    knight = b.play(1, "core_018")  # War, STR 2, the opponent's
    before = b.state
    b.revealed_plot(0, "core_200")
    assert strength(b.state, umber, ED) == 5
    assert strength(b.state, robb, ED) == 2 and strength(b.state, knight, ED) == 2
    assert strength(before, umber, ED) == 3
    refused(b.state, 0, "plot:0", "war_strength", code="applies_by_itself",
            name=card_name("core_200"))


# -- House cards: core_209 House Stark, core_213 House Martell, core_214 House Greyjoy --
@pytest.mark.parametrize("ident", ["core_209", "core_213", "core_214"])
def test_house_cards_are_plain(ident: str) -> None:
    data = ED.by_number[int(ident[5:])]
    assert data.type == "house" and data.plain and data.abilities == ()


# -- the six titles (melee): their rules are coded (§2.5), not used by hand -------------
TITLES = {"crown_regent": "redirect", "hand_of_the_king": "extra_power_challenge",
          "master_of_coin": "income", "master_of_laws": "extra_draw",
          "master_of_whispers": "intrigue_claim", "lord_commander_kingsguard": "take_defence"}


@pytest.mark.parametrize("title", sorted(TITLES))
def test_titles_are_applied_by_the_rules_not_used(title: str) -> None:
    b = Board(houses=("Stark", "Lannister", "Baratheon"), phase="challenges")
    b.set(titles=(title, None, None))
    ability = ED.titles[title].ability(TITLES[title])
    assert ability is not None and ability.kind == "title"
    refused(b.state, 0, f"title:{title}", TITLES[title], code="applies_by_itself",
            name=ED.titles[title].name)
    assert all(not m["data"]["card"].startswith("title:") for m in offered(b.state, 0))
