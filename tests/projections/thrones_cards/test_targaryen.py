"""The Targaryen starter deck's cards (issue #30), each from its summary: used rightly it
does what the summary says (the expected values written by hand from the summary and §9,
never read back from the data), and outside its window, on a wrong target, without its
cost, past its limit or from the wrong zone it is refused in a sentence naming the card.

Responses, interrupts, forced and when-revealed abilities answer triggers the engine emits
(docs/games/thrones-abilities.md, "Triggers"). Their ops are tested here through the engine's
`resolve_use` with the trigger given; what needs the rules to emit the trigger (the trigger
condition, the prompt) is skipped only while that trigger is not yet emitted (`needs`).
"""

from __future__ import annotations

from typing import Any

import pytest

from projections.choices import Choice, Made, Walker
from projections.rules import Action, IllegalAction, replace
from projections.thrones.apply.abilities import resolve_use
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

TARG = ("Targaryen", "Stark")


# -- helpers ------------------------------------------------------------------------

def answer(state: State, seat: int, card: str, ability: str, trigger: dict[str, Any],
           chance: dict[str, Any] | None = None, **choices: Any) -> State:
    """The state after `seat` answers `trigger` with `ability` of `card`."""
    data = {"card": card, "ability": ability, "choices": choices, **(chance or {})}
    return resolve_use(state, seat, data, ED, trigger=trigger)


def answer_refused(state: State, seat: int, card: str, ability: str,
                   trigger: dict[str, Any], code: str, **choices: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        answer(state, seat, card, ability, trigger, **choices)
    assert err.value.code == code, f"{err.value.code}: {err.value.message}"
    name = card_name(card) if not card.startswith("plot:") else None
    if name:
        assert name in err.value.message, err.value.message


def ip(state: State, card: str) -> Any:
    return next((c for c in state.cards if c.id == card), None)


def marshal(state: State, seat: int, card: str) -> State:
    from projections.rules import Action
    after: State = RULES.apply(state, Action.of("marshal_card", seat, {"card": card}))
    return after


def ability_of(card: str, ident: str) -> Any:
    return next(a for a in ED.by_number[int(card[5:])].abilities if a.id == ident)


WON = {"type": "military", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
       "margin": 1, "unopposed": False}


# -- plain cards ----------------------------------------------------------------------
@pytest.mark.parametrize("card", ["core_118", "core_122", "core_130", "core_131", "core_132",
                                  "core_153", "core_154", "core_212", "core_100"])
def test_plain_targaryen_cards_declare_no_ability(card: str) -> None:
    data = ED.by_number[int(card[5:])]
    assert data.plain and data.abilities == ()


def test_core_100_blood_of_the_dragon_gives_six_strength_while_participating() -> None:
    b = Board(TARG, phase="challenges")
    dany = b.play(0, "core_106")  # STR 3
    b.play(0, "core_100", on=dany)
    foe = b.play(1, "core_017")
    assert strength(b.state, dany, ED) == 3
    b.challenge("power", attackers=[dany], defenders=[foe])
    assert strength(b.state, dany, ED) == 9


def test_core_131_temple_of_the_graces_and_core_153_crossroads_give_their_gold() -> None:
    assert ED.by_number[131].income_bonus == 1 and ED.by_number[153].income_bonus == 1
    assert ED.by_number[153].influence_bonus == 1


# -- core_101 Poisoned Wine -----------------------------------------------------------
def test_core_101_poisoned_wine_weakens_and_moves_for_one_influence() -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    victim = b.play(1, "core_017")  # STR 4
    other = b.play(1, "core_020")  # STR 2
    wine = b.play(0, "core_101", on=victim)
    fief = b.play(0, "core_127")  # 1 influence
    assert strength(b.state, victim, ED) == 2
    after = use(b.state, 0, wine, "move_wine", new_bearer=other, influence=[fief])
    assert ip(after, wine).host == other
    assert strength(after, victim, ED) == 4 and strength(after, other, ED) == 0
    assert ip(after, fief).knelt
    refused(b.state, 0, wine, "move_wine", code="wrong_target", new_bearer=victim,
            influence=[fief])  # not another character
    refused(b.state, 0, wine, "move_wine", code="cannot_pay", new_bearer=other, influence=[])
    refused(b.state, 1, wine, "move_wine", code="not_your_card", new_bearer=other)


def test_core_101_poisoned_wine_is_offered_only_onto_characters_that_may_bear_it() -> None:
    """The choices offer a new bearer only where the move completes: Drogon (core_111)
    takes no attachments, so it is not offered although the influence is asked after it."""
    b = Board(TARG, phase="marshalling")
    victim = b.play(1, "core_017")
    other = b.play(1, "core_020")
    drogon = b.play(0, "core_111")
    wine = b.play(0, "core_101", on=victim)
    fief = b.play(0, "core_127")
    moves = [m["data"] for m in offered(b.state, 0) if m["data"]["card"] == wine]
    assert {m["choices"]["new_bearer"] for m in moves} == {other}
    assert all(m["choices"]["influence"] == [fief] for m in moves)
    step = RULES.action_type("use_ability").steps(
        b.state, 0, Made({"card": wine, "ability": "move_wine", "choices": {}}), ED)
    assert isinstance(step, Choice)
    assert {o.value for o in step.options} == {other}  # not Drogon: a dead end
    refused(b.state, 0, wine, "move_wine", new_bearer=drogon, influence=[fief])


def without(state: State, card: str) -> State:
    """The state with `card` gone from play."""
    return replace(state, cards=tuple(c for c in state.cards if c.id != card))


def _victims(state: State, seat: int, source: str) -> set[str]:
    return {str(v) for m in offered(state, seat) if m["data"]["card"] == source
            for v in m["data"]["choices"].values()}


# core_102 Aegon's Blade: "Bearer gains +2 STR if it has a military icon, stealth if it has an
# intrigue icon, renown if it has a power icon." (the bearer's printed icons, ruling 3)
def test_core_102_aegons_blade_gives_by_the_bearers_icons() -> None:
    b = Board(TARG, phase="challenges")
    ben = b.play(0, "core_118")  # Brown Ben Plumm: STR 2, military only
    maid = b.play(0, "core_121")  # Dany's Handmaiden: STR 2, intrigue only
    viserys = b.play(0, "core_108")  # Viserys: STR 1, power only
    plain = b.state
    blades = {host: b.play(0, "core_102", on=host) for host in (ben, maid, viserys)}
    state = b.state
    assert strength(state, ben, ED) == 4 and not has_keyword(state, ben, "stealth", ED)
    assert not has_keyword(state, ben, "renown", ED)
    assert strength(state, maid, ED) == 2 and has_keyword(state, maid, "stealth", ED)
    assert not has_keyword(state, maid, "renown", ED)
    assert strength(state, viserys, ED) == 1 and has_keyword(state, viserys, "renown", ED)
    assert not has_keyword(state, viserys, "stealth", ED)
    assert strength(without(state, blades[ben]), ben, ED) == 2
    assert strength(plain, ben, ED) == 2
    refused(state, 0, blades[ben], "blade_by_icons", code="applies_by_itself")


# core_103 Flame-Kissed: "a bearer with no other attachment is 2 STR weaker" (its death at 0
# STR waits for forced timing: `flame_kills`, not automated)
def test_core_103_flame_kissed_weakens_a_bearer_with_no_other_attachment() -> None:
    b = Board(TARG, phase="challenges")
    belwas = b.play(1, "core_113")  # STR 3
    viserys = b.play(1, "core_108")  # STR 1
    kiss = b.play(0, "core_103", on=belwas)
    b.play(0, "core_103", on=viserys)
    assert strength(b.state, belwas, ED) == 1
    assert strength(b.state, viserys, ED) == 0  # never below 0
    poppy = b.play(1, "core_145", on=belwas)  # another attachment: no longer weakened
    assert strength(b.state, belwas, ED) == 3
    assert strength(without(b.state, poppy), belwas, ED) == 1
    assert strength(without(b.state, kiss), belwas, ED) == 3
    refused(b.state, 0, kiss, "flame_weakens", code="applies_by_itself")


def _effect(state: State, *ops: dict[str, Any]) -> State:
    """A change the table records (a ruling's effect), through the real rules."""
    after: State = RULES.apply(state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": list(ops), "reason": "a test changes STR"}))
    return after


# core_103 Flame-Kissed: "... a bearer with no other attachment ... dies at 0 STR." (ruling
# T27: the rules kill it after the event that brings it to 0, with its would_be_killed)
def test_core_103_flame_kissed_kills_its_sole_bearer_at_zero_str() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    belwas = b.play(1, "core_113")  # STR 3, 1 with Flame-Kissed
    kiss = b.play(0, "core_103", on=belwas)
    weaker = {"op": "adjust_strength", "card": belwas, "amount": -1, "until": "phase"}
    after = _effect(b.state, weaker)
    assert belwas in after.players[1].dead and kiss in after.players[0].discard
    assert after.window is not None and "would_be_killed" in [
        t.name for t in after.window.triggers]
    half = _effect(b.state, {**weaker, "amount": 0})  # STR 1: not 0, stays
    assert any(c.id == belwas for c in half.cards)
    b.play(1, "core_145", on=belwas)  # another attachment: Flame-Kissed kills no more
    other = _effect(b.state, {**weaker, "amount": -3})
    assert any(c.id == belwas for c in other.cards) and strength(other, belwas, ED) == 0
    refused(b.state, 0, kiss, "flame_kills", code="applies_by_itself")


# core_115 Quaithe of the Shadow: "While she carries an attachment, opponents' events and
# character abilities cannot target her."
def test_core_115_quaithe_with_an_attachment_cannot_be_chosen_by_opponents() -> None:
    b = Board(("Targaryen", "Targaryen"), phase="marshalling", mode="table", gold=4)
    quaithe = b.play(0, "core_115")
    burn = b.hand(1, "core_174")  # Forever Burning, an event
    drogon = b.play(1, "core_111")  # Drogon: pay 2 gold, -1 STR on a character
    mine = b.hand(0, "core_174")
    bare = b.state
    assert quaithe in _victims(bare, 1, burn) and quaithe in _victims(bare, 1, drogon)
    b.play(0, "core_100", on=quaithe)  # Blood of the Dragon: any attachment (Milk of the
    # Poppy would blank her text, card ruling B18)
    assert quaithe not in _victims(b.state, 1, burn) | _victims(b.state, 1, drogon)
    err = refused(b.state, 1, burn, "burn", code="immune", name="Quaithe of the Shadow",
                  victim=quaithe)
    assert "Forever Burning" in err.message
    refused(b.state, 1, drogon, "scorch", code="immune", name="Quaithe of the Shadow",
            victim=quaithe)
    assert strength(use(b.state, 0, mine, "burn", victim=quaithe), quaithe, ED) == 1  # yours
    assert strength(use(bare, 1, burn, "burn", victim=quaithe), quaithe, ED) == 1


# core_117 Jhogo: "+2 STR while he carries a Weapon attachment."
def test_core_117_jhogo_gets_two_strength_while_he_carries_a_weapon() -> None:
    b = Board(TARG, phase="challenges")
    jhogo = b.play(0, "core_117")  # STR 3
    b.play(0, "core_100", on=jhogo)  # Blood of the Dragon: a Condition, not a Weapon (not
    # participating: no STR of its own)
    assert strength(b.state, jhogo, ED) == 3
    sword = b.play(0, "core_068", on=jhogo)  # Lightbringer: a Weapon
    assert strength(b.state, jhogo, ED) == 5
    assert strength(without(b.state, sword), jhogo, ED) == 3
    other = b.play(0, "core_118")  # another character carrying a Weapon gains nothing
    b.play(0, "core_068", on=other)
    assert strength(b.state, other, ED) == 2
    refused(b.state, 0, jhogo, "armed", code="applies_by_itself")


# core_123 Qartheen Fanatic: "+1 STR and a military icon while any Dragon character is in play."
def test_core_123_qartheen_fanatic_is_stronger_while_a_dragon_is_in_play() -> None:
    b = Board(TARG, phase="challenges")
    fanatic = b.play(0, "core_123")  # STR 2, intrigue only
    second = b.play(0, "core_123")
    assert strength(b.state, fanatic, ED) == 2 and not has_icon(b.state, fanatic, "military", ED)
    dragon = b.play(1, "core_111")  # the opponent's Drogon: any Dragon
    assert strength(b.state, fanatic, ED) == 3 and has_icon(b.state, fanatic, "military", ED)
    assert strength(b.state, second, ED) == 3  # each copy for itself, not +1 per Fanatic
    assert strength(b.state, dragon, ED) == 4
    assert strength(without(b.state, dragon), fanatic, ED) == 2
    refused(b.state, 0, fanatic, "dragon_zeal", code="applies_by_itself")


# core_204 Power and Wealth: "Each of your characters gets +1 STR per attachment on it."
def test_core_204_power_and_wealth_counts_the_attachments_on_each_of_your_characters() -> None:
    b = Board(TARG, phase="challenges")
    ben = b.play(0, "core_118")  # STR 2
    belwas = b.play(0, "core_113")  # STR 3, nothing attached
    foe = b.play(1, "core_017")  # the opponent's, STR 4
    for host in (ben, ben, foe):
        b.play(0, "core_145", on=host)  # Milk of the Poppy: no STR of its own
    assert strength(b.state, ben, ED) == 2
    b.revealed_plot(0, "core_204")
    assert strength(b.state, ben, ED) == 2 + 2 and strength(b.state, belwas, ED) == 3
    assert strength(b.state, foe, ED) == 4
    refused(b.state, 0, "plot:0", "wealth", code="applies_by_itself", name=card_name("core_204"))


# core_208 Herding the Masses: "Non-unique characters cannot be declared as defenders."
def test_core_208_herding_the_masses_forbids_non_unique_defenders() -> None:
    b = Board(("Stark", "Targaryen"), phase="challenges")
    attacker = b.play(0, "core_005")  # Eddard Stark
    guard = b.play(1, "core_119")  # Dothraki Honor Guard: non-unique, military
    belwas = b.play(1, "core_113")  # Strong Belwas: unique, military
    b.challenge("military", attackers=[attacker], step="attackers_declared")
    before = b.state
    b.revealed_plot(1, "core_208")  # the defender's own plot: any player's characters
    walker_moves = list(Walker(RULES, table=False).moves(b.state, "declare_defenders", 1,
                                                       limit=200))
    assert {c for m in walker_moves for c in m["data"]["defenders"]} == {belwas}
    with pytest.raises(IllegalAction) as err:
        RULES.apply(b.state, Action.of("declare_defenders", 1, {"defenders": [guard]}))
    assert err.value.code == "cannot_defend"
    assert "Dothraki Honor Guard" in err.value.message and "Herding the Masses" in \
        err.value.message
    ok = RULES.apply(b.state, Action.of("declare_defenders", 1, {"defenders": [belwas]}))
    assert ok.challenge.defenders == (belwas,)
    again = RULES.apply(before, Action.of("declare_defenders", 1, {"defenders": [guard]}))
    assert again.challenge.defenders == (guard,)
    refused(b.state, 1, "plot:1", "herded", code="applies_by_itself", name=card_name("core_208"))


# -- core_104 Bones of a Child --------------------------------------------------------
def test_core_104_bones_of_a_child_cuts_the_attackers_claim_by_one() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    dany = b.play(0, "core_106")
    bones = b.play(0, "core_104", on=dany)
    foe = b.play(1, "core_017")
    b.challenge("military", attacker=1, defender=0, attackers=[foe], defenders=[dany])
    after = use(b.state, 0, bones, "cut_claim")
    assert after.plot_mods == ((1, "claim", "delta", -1, "challenge"),)
    assert bones in after.players[0].discard and ip(after, bones) is None
    # the claim is the attacker's (§8.6 step 4): the attacker cannot cut its own
    b2 = Board(TARG, phase="challenges", mode="table")
    d2 = b2.play(0, "core_106")
    bones2 = b2.play(0, "core_104", on=d2)
    b2.challenge("military", attacker=0, attackers=[d2])
    refused(b2.state, 0, bones2, "cut_claim", code="condition_failed")
    b.set(challenge=None, phase="marshalling")
    refused(b.state, 0, bones, "cut_claim", code="outside_window")


# -- core_105 Captain Groleo ----------------------------------------------------------
def test_core_105_captain_groleo_gains_house_power_when_an_opponent_plays_an_attachment(
        ) -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    groleo = b.play(0, "core_105")
    host = b.play(1, "core_013")
    ice = b.play(1, "core_001", on=host)
    trig = {"card": ice, "seat": 1, "by": "marshal"}
    after = answer(b.state, 0, groleo, "power_on_attachment", trig)
    assert after.players[0].house_power == 1
    answer_refused(after, 0, groleo, "power_on_attachment", trig, "limit_reached")
    refused(b.state, 0, groleo, "power_on_attachment", code="outside_window")


@needs("enters_play")
def test_core_105_captain_groleo_ignores_his_own_attachments() -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    groleo = b.play(0, "core_105")
    wine = b.hand(0, "core_101")
    b.gold(0, 5)
    after = RULES.apply(b.state, _marshal_onto(0, wine, groleo))
    assert after.players[0].house_power == 0


def _marshal_onto(seat: int, card: str, host: str) -> Any:
    from projections.rules import Action
    return Action.of("marshal_card", seat, {"card": card, "attach_to": host})


# -- core_106 Daenerys Targaryen ------------------------------------------------------
def test_core_106_daenerys_alone_takes_the_losers_whole_gold_pool() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    dany = b.play(0, "core_106")
    b.gold(0, 1)
    b.gold(1, 4)
    b.challenge("power", attackers=[dany], step="resolved", winner=0)
    after = answer(b.state, 0, dany, "take_gold_pool", WON)
    assert after.players[0].gold == 5 and after.players[1].gold == 0
    # not alone: refused
    b.play(0, "core_105")
    other = b.state.cards[-1].id
    b.challenge("power", attackers=[dany, other], step="resolved", winner=0)
    answer_refused(b.state, 0, dany, "take_gold_pool", WON, "condition_failed")
    refused(b.state, 0, dany, "take_gold_pool", code="outside_window")


# -- core_107 Khal Drogo --------------------------------------------------------------
# "After you win a challenge, bring him from your hand into play; he goes back to hand at
# phase end." (card ruling T4)
def test_core_107_khal_drogo_enters_play_from_hand_after_a_win() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    drogo = b.hand(0, "core_107")
    after = answer(b.state, 0, drogo, "ride_in", WON)
    assert ip(after, drogo) is not None and drogo not in after.players[0].hand
    assert after.players[0].gold == 0  # no cost paid
    placed = b.play(0, "core_107")
    answer_refused(b.state, 0, placed, "ride_in", WON, "not_in_zone")


def _ridden_in(mode: str) -> tuple[State, str]:
    """Khal Drogo put into play by his own response in the challenges phase, no challenge
    open, seat 0's turn (seat 1 has passed)."""
    b = Board(TARG, phase="challenges", mode=mode)
    drogo = b.hand(0, "core_107")
    after = answer(b.state, 0, drogo, "ride_in", WON)
    return replace(after, passed=frozenset({1}), turn=1, first_player=1), drogo


def test_core_107_khal_drogo_goes_back_to_hand_when_the_phase_ends() -> None:
    """Digital play: the forced return applies by itself as the dominance phase begins."""
    state, drogo = _ridden_in("digital")
    state = RULES.apply(state, Action.of("end_challenges", 1, {}))
    state = RULES.apply(state, Action.of("end_challenges", 0, {}))
    assert state.phase == "dominance"
    assert ip(state, drogo) is None and drogo in state.players[0].hand


def test_core_107_khal_drogo_the_table_records_his_return() -> None:
    state, drogo = _ridden_in("table")
    state = RULES.apply(state, Action.of("end_challenges", 1, {}))
    state = RULES.apply(state, Action.of("end_challenges", 0, {}))
    assert ip(state, drogo) is not None  # the rules apply nothing unrecorded (ruling 38)
    after = use(state, 0, drogo, "back_to_hand")
    assert ip(after, drogo) is None and drogo in after.players[0].hand


def test_core_107_khal_drogo_stays_when_he_came_in_otherwise_or_the_phase_goes_on() -> None:
    state, drogo = _ridden_in("table")
    refused(state, 0, drogo, "back_to_hand", code="outside_window")  # no phase began
    dominance = {"phase": "dominance"}
    b = Board(TARG, phase="dominance", mode="table")
    marshalled = b.play(0, "core_107")  # marshalled: no mark
    answer_refused(b.state, 0, marshalled, "back_to_hand", dominance, "outside_window")
    early = replace(state, phase="challenges")
    answer_refused(early, 0, drogo, "back_to_hand", {"phase": "challenges"},
                   "outside_window")  # still the phase he came in


def test_core_107_khal_drogo_the_mark_leaves_play_with_him() -> None:
    state, drogo = _ridden_in("table")
    assert any(m.card == drogo for m in state.modifiers)
    from projections.thrones.apply.zones import leave_play

    back = leave_play(state, drogo, "hand", ED)
    assert not any(m.card == drogo for m in back.modifiers)


# -- core_108 Viserys Targaryen -------------------------------------------------------
def test_core_108_viserys_returns_to_hand_instead_of_dying_or_being_discarded() -> None:
    for ident in ("escape_death", "escape_discard"):
        b = Board(TARG, phase="challenges", mode="table")
        vis = b.play(0, "core_108")
        after = answer(b.state, 0, vis, ident, {"card": vis, "seat": 0})
        assert vis in after.players[0].hand and ip(after, vis) is None
        refused(b.state, 0, vis, ident, code="outside_window")


@needs("would_be_killed")
def test_core_108_viserys_escapes_only_his_own_death() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    vis = b.play(0, "core_108")
    other = b.play(0, "core_105")
    answer_refused(b.state, 0, vis, "escape_death", {"card": other, "seat": 0},
                   "outside_window")


# -- core_109 / core_110 Rhaegal ------------------------------------------------------
@pytest.mark.parametrize("card,copy", [("core_109", "core_110"), ("core_110", "core_109")])
def test_rhaegal_core_109_core_110_attaches_another_rhaegal_as_a_duplicate(
        card: str, copy: str) -> None:
    b = Board(TARG, phase="challenges", mode="table", gold=1)
    rhaegal = b.play(0, card)
    dup = b.deck(0, copy)
    plain = b.deck(0, "core_112")
    after = use(b.state, 0, rhaegal, "fetch_duplicate", copy=dup)
    assert ip(after, rhaegal).duplicates == (dup,)
    assert dup not in after.players[0].deck and after.players[0].gold == 0
    refused(b.state, 0, rhaegal, "fetch_duplicate", code="wrong_target", copy=plain)
    b.gold(0, 0)
    refused(b.state, 0, rhaegal, "fetch_duplicate", code="cannot_pay", copy=dup)


# -- core_111 Drogon ------------------------------------------------------------------
def test_core_111_drogon_weakens_a_character_and_kills_it_at_zero_once_a_phase() -> None:
    b = Board(TARG, phase="marshalling", gold=4)
    drogon = b.play(0, "core_111")
    bran = b.play(1, "core_013")  # STR 1: -1 brings it to 0
    guard = b.play(1, "core_017")  # STR 4
    after = use(b.state, 0, drogon, "scorch", victim=guard)
    assert strength(after, guard, ED) == 3 and ip(after, guard) is not None
    assert after.players[0].gold == 2
    refused(after, 0, drogon, "scorch", code="limit_reached", victim=bran)
    killed = use(b.state, 0, drogon, "scorch", victim=bran)
    assert killed.players[1].dead == (bran,)
    b.gold(0, 1)
    refused(b.state, 0, drogon, "scorch", code="cannot_pay", victim=guard)
    refused(b.state, 0, drogon, "scorch", code="wrong_target", victim=drogon + "x")


# -- core_112 Viserion ----------------------------------------------------------------
def test_core_112_viserion_kills_a_kneeling_character_in_dominance_for_four_gold() -> None:
    b = Board(TARG, phase="dominance", gold=8)
    viserion = b.play(0, "core_112")
    knelt = b.play(1, "core_017", knelt=True)
    standing = b.play(1, "core_020")
    after = use(b.state, 0, viserion, "kill_knelt", victim=knelt)
    assert after.players[1].dead == (knelt,) and after.players[0].gold == 4
    refused(b.state, 0, viserion, "kill_knelt", code="wrong_target", victim=standing)
    refused(replace(after, cards=tuple(replace(c, knelt=True) for c in after.cards)), 0,
            viserion, "kill_knelt", code="limit_reached", victim=standing)
    b.gold(0, 3)
    refused(b.state, 0, viserion, "kill_knelt", code="cannot_pay", victim=knelt)
    b.set(phase="marshalling")
    refused(b.state, 0, viserion, "kill_knelt", code="outside_window", victim=knelt)


# -- saves: core_113 Strong Belwas, core_150 Bodyguard, core_151 Maester Aemon --------
@needs("would_be_killed")
def test_core_113_strong_belwas_saves_a_noble_for_two_gold() -> None:
    b = Board(TARG, phase="challenges", mode="table", gold=2)
    belwas = b.play(0, "core_113")
    dany = b.play(0, "core_106")  # noble crest
    after = answer(b.state, 0, belwas, "save_noble", {"card": dany, "seat": 0})
    assert after.players[0].gold == 0
    bran = b.play(0, "core_105")  # no noble crest
    answer_refused(b.state, 0, belwas, "save_noble", {"card": bran, "seat": 0},
                   "outside_window")


def test_core_113_strong_belwas_pays_two_gold_and_only_when_a_death_is_coming() -> None:
    b = Board(TARG, phase="challenges", mode="table", gold=2)
    belwas = b.play(0, "core_113")
    dany = b.play(0, "core_106")
    after = answer(b.state, 0, belwas, "save_noble", {"card": dany, "seat": 0})
    assert after.players[0].gold == 0
    answer_refused(after, 0, belwas, "save_noble", {"card": dany, "seat": 0}, "cannot_pay")
    refused(b.state, 0, belwas, "save_noble", code="outside_window")


def test_core_150_bodyguard_is_sacrificed_to_save_its_bearer() -> None:
    for ident in ("guard_death", "guard_discard"):
        b = Board(TARG, phase="challenges", mode="table")
        vis = b.play(0, "core_108")
        guard = b.play(0, "core_150", on=vis)
        after = answer(b.state, 0, guard, ident, {"card": vis, "seat": 0})
        assert guard in after.players[0].discard and ip(after, guard) is None
        refused(b.state, 0, guard, ident, code="outside_window")


def test_core_150_bodyguard_goes_only_on_a_lord_or_lady_one_per_character() -> None:
    rules = ED.by_number[150].attach_rules
    assert set(rules.character_traits_any) == {"Lord", "Lady"}
    assert rules.max_per_character == 1


@needs("would_be_killed")
def test_core_150_bodyguard_saves_only_its_bearer() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    vis = b.play(0, "core_108")
    guard = b.play(0, "core_150", on=vis)
    other = b.play(0, "core_106")
    answer_refused(b.state, 0, guard, "guard_death", {"card": other, "seat": 0},
                   "outside_window")


def test_core_151_maester_aemon_kneels_to_save_a_brother() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    aemon = b.play(0, "core_151")
    jon = b.play(0, "core_136")
    after = answer(b.state, 0, aemon, "save_brother", {"card": jon, "seat": 0})
    assert ip(after, aemon).knelt
    answer_refused(after, 0, aemon, "save_brother", {"card": jon, "seat": 0}, "cannot_pay")
    refused(b.state, 0, aemon, "save_brother", code="outside_window")


@needs("would_be_killed")
def test_core_151_maester_aemon_saves_only_the_nights_watch() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    aemon = b.play(0, "core_151")
    dany = b.play(0, "core_106")
    answer_refused(b.state, 0, aemon, "save_brother", {"card": dany, "seat": 0},
                   "outside_window")


# -- core_114 Daario Naharis ----------------------------------------------------------
def test_core_114_daario_takes_a_gold_from_a_pool_or_is_discarded() -> None:
    b = Board(TARG, phase="dominance", mode="table")
    daario = b.play(0, "core_114")
    b.gold(1, 2)
    trig = {"phase": "dominance"}
    after = answer(b.state, 0, daario, "wages", trig, pool=1)
    assert after.players[1].gold == 1 and ip(after, daario) is not None
    gone = answer(b.state, 0, daario, "wages", trig)
    assert daario in gone.players[0].discard and ip(gone, daario) is None
    answer_refused(b.state, 0, daario, "wages", trig, "wrong_target", pool=0)  # empty pool
    refused(b.state, 0, daario, "wages", code="outside_window", pool=1)


# -- core_116 Xaro Xoan Daxos ---------------------------------------------------------
def test_core_116_xaro_must_return_one_of_your_characters_to_hand() -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    xaro = b.play(0, "core_116")
    mine = b.play(0, "core_105")
    theirs = b.play(1, "core_017")
    trig = {"card": xaro, "seat": 0}
    after = answer(b.state, 0, xaro, "send_home", trig, returned=mine)
    assert mine in after.players[0].hand and ip(after, mine) is None
    answer_refused(b.state, 0, xaro, "send_home", trig, "wrong_target", returned=theirs)
    answer_refused(b.state, 0, xaro, "send_home", trig, "wrong_target")  # not optional
    himself = answer(b.state, 0, xaro, "send_home", trig, returned=xaro)  # ruling T9
    assert xaro in himself.players[0].hand
    refused(b.state, 0, xaro, "send_home", code="outside_window", returned=mine)


# -- core_119 Dothraki Honor Guard ----------------------------------------------------
def test_core_119_honor_guard_is_lent_to_an_opponent_and_comes_back_after_their_win(
        ) -> None:
    b = Board(TARG, phase="challenges", mode="table")
    guard = b.hand(0, "core_119")
    lent = use(b.state, 0, guard, "lend", to=1)
    assert ip(lent, guard).controller == 1 and guard not in lent.players[0].hand
    # seat 1 controls it now and wins a challenge it joined: seat 0 regains it
    back = answer(lent, 1, guard, "regain", {**WON, "winner": 1, "loser": 0})
    assert ip(back, guard).controller == 0
    refused(b.state, 0, guard, "lend", code="wrong_target", to=0)
    b.set(phase="marshalling")
    refused(b.state, 0, guard, "lend", code="outside_window", to=1)


# -- core_120 The Titan's Bastard -----------------------------------------------------
def test_core_120_titans_bastard_jumps_in_and_out_with_the_dead() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    bastard = b.hand(0, "core_120")
    dead = b.dead(0, "core_105")
    inside = answer(b.state, 0, bastard, "jump_in", {"card": dead, "seat": 0})
    assert ip(inside, bastard) is not None and bastard not in inside.players[0].hand
    out = answer(inside, 0, bastard, "jump_out", {"card": "p1-017", "seat": 1})
    assert bastard in out.players[0].hand and ip(out, bastard) is None
    answer_refused(inside, 0, bastard, "jump_in", {"card": dead, "seat": 0}, "not_in_zone")
    refused(b.state, 0, bastard, "jump_in", code="outside_window")


# -- core_121 Dany's Handmaiden -------------------------------------------------------
def test_core_121_handmaiden_discards_an_attachment_when_daenerys_or_a_handmaiden_dies(
        ) -> None:
    b = Board(TARG, phase="challenges", mode="table")
    maid = b.play(0, "core_121")
    foe = b.play(1, "core_013")
    ice = b.play(1, "core_001", on=foe)
    dany = b.dead(0, "core_106")
    after = answer(b.state, 0, maid, "grief_daenerys", {"card": dany, "seat": 0},
                   attachment=ice)
    assert ice in after.players[1].discard and ip(after, ice) is None
    other = b.dead(0, "core_121")
    after = answer(b.state, 0, maid, "grief_handmaiden", {"card": other, "seat": 0},
                   attachment=ice)
    assert ip(after, ice) is None
    answer_refused(b.state, 0, maid, "grief_daenerys", {"card": dany, "seat": 0},
                   "wrong_target", attachment=foe)
    refused(b.state, 0, maid, "grief_daenerys", code="outside_window", attachment=ice)


# -- core_124 Pentoshi Guildmaster ----------------------------------------------------
def test_core_124_guildmaster_returns_from_the_discard_and_may_pay_three_to_enter() -> None:
    b = Board(TARG, phase="challenges", mode="table", gold=3)
    guild = b.discard(0, "core_124")
    trig = {**WON, "margin": 4}
    to_hand = answer(b.state, 0, guild, "return_after_big_win", trig, into_play=0)
    assert guild in to_hand.players[0].hand and guild not in to_hand.players[0].discard
    assert to_hand.players[0].gold == 3
    into = answer(b.state, 0, guild, "return_after_big_win", trig, into_play=1)
    assert ip(into, guild) is not None and into.players[0].gold == 0
    b.gold(0, 2)
    answer_refused(b.state, 0, guild, "return_after_big_win", trig, "not_enough_gold",
                   into_play=1)
    placed = b.play(0, "core_124")
    answer_refused(b.state, 0, placed, "return_after_big_win", trig, "not_in_zone",
                   into_play=0)


# -- cost reductions: core_125, core_127-129, core_133, core_134 -----------------------
@pytest.mark.parametrize("card,ident,amount,char_only", [
    ("core_125", "targaryen_discount", 1, True),
    ("core_127", "targaryen_card_discount", 1, False),
    ("core_128", "targaryen_card_discount", 1, False),
    ("core_129", "targaryen_card_discount", 1, False),
    ("core_133", "pyramid_discount", 2, True),
])
def test_kneel_discounts_core_125_core_127_core_128_core_129_core_133(
        card: str, ident: str, amount: int, char_only: bool) -> None:
    b = Board(TARG, phase="marshalling", gold=5)
    src = b.play(0, card)
    drogo = b.hand(0, "core_107")  # Targaryen character, cost 4
    tent = b.hand(0, "core_130")  # Targaryen location, cost 1
    stark = b.hand(0, "core_004")  # a Stark character: no House Targaryen card
    state = use(b.state, 0, src, ident)
    assert ip(state, src).knelt
    after = marshal(state, 0, drogo)
    assert after.players[0].gold == 5 - (4 - amount)
    loc = marshal(state, 0, tent)
    assert loc.players[0].gold == 5 - (1 if char_only else 0)
    refused(state, 0, src, ident, code="cannot_pay")  # already knelt
    # the reduction is not for a Stark card: it costs what it costs without the kneel
    assert marshal(state, 0, stark).players[0].gold == marshal(b.state, 0, stark).players[0].gold
    b.set(phase="challenges")
    refused(b.state, 0, src, ident, code="outside_window")


def test_core_134_summer_sea_is_discarded_for_two_off_a_targaryen_character() -> None:
    b = Board(TARG, phase="marshalling", gold=5)
    sea = b.play(0, "core_134")
    drogo = b.hand(0, "core_107")  # cost 4
    state = use(b.state, 0, sea, "sea_discount")
    assert sea in state.players[0].discard and ip(state, sea) is None
    assert marshal(state, 0, drogo).players[0].gold == 3
    refused(state, 0, sea, "sea_discount", code="not_in_zone")
    b.set(phase="dominance")
    refused(b.state, 0, sea, "sea_discount", code="outside_window")


# -- core_126 Xaro's Home -------------------------------------------------------------
def test_core_126_xaros_home_draws_a_card_for_an_influence_after_an_attachment() -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    home = b.play(0, "core_126")
    fief = b.play(0, "core_127")
    card = b.deck(0, "core_105")
    wine = b.play(0, "core_101", on=b.play(1, "core_017"))
    trig = {"card": wine, "seat": 0, "by": "marshal"}
    after = answer(b.state, 0, home, "draw_on_attachment", trig,
                   chance={"drawn": [card]}, influence=[fief])
    assert card in after.players[0].hand and ip(after, fief).knelt
    answer_refused(b.state, 0, home, "draw_on_attachment", trig, "cannot_pay", influence=[])
    refused(b.state, 0, home, "draw_on_attachment", code="outside_window", influence=[fief])


# -- core_152 Magister Illyrio --------------------------------------------------------
# "Kneel: name an opponent and a challenge type; this phase they pay you 1 gold per
# challenge of that type they start." (card ruling T18)
def _declare(state: State, seat: int, kind: str, attackers: list[str]) -> State:
    """`seat` declares a `kind` challenge against the other seat (the real rules)."""
    after: State = RULES.apply(replace(state, turn=seat), Action.of(
        "declare_challenge", seat, {"type": kind, "defender": 1 - seat,
                                    "attackers": attackers}))
    return after


def _illyrio_board(gold: int = 3) -> tuple[Board, str, list[str]]:
    b = Board(TARG, phase="challenges", gold=0)
    b.gold(1, gold)
    illyrio = b.play(0, "core_152")
    foes = [b.play(1, "core_017"), b.play(1, "core_016")]  # military; Honor Guard also power
    return b, illyrio, foes


def test_core_152_illyrio_tolls_each_named_challenge_the_opponent_starts() -> None:
    b, illyrio, (guard, host) = _illyrio_board(gold=3)
    after = use(b.state, 0, illyrio, "toll", payer=1, kind="military")
    assert ip(after, illyrio).knelt
    assert after.players[1].gold == 3 and after.players[0].gold == 0  # nothing yet
    first = _declare(after, 1, "military", [guard])
    assert first.players[1].gold == 2 and first.players[0].gold == 1
    again = replace(first, challenge=None).with_player(1, extra=(1, 0, 0))  # a 2nd military
    second = _declare(again, 1, "military", [host])
    assert second.players[1].gold == 1 and second.players[0].gold == 2  # 1 gold each


def test_core_152_illyrio_tolls_only_the_named_type_and_the_named_opponent() -> None:
    b, illyrio, (guard, _) = _illyrio_board(gold=3)
    after = use(b.state, 0, illyrio, "toll", payer=1, kind="military")
    power = _declare(after, 1, "power", [guard])
    assert power.players[1].gold == 3 and power.players[0].gold == 0
    mine = b.play(0, "core_105")  # Captain Groleo: military
    own = _declare(use(b.state, 0, illyrio, "toll", payer=1, kind="military"), 0,
                   "military", [mine])
    assert own.players[0].gold == 0  # the user's own challenges pay nothing


def test_core_152_illyrio_an_opponent_without_gold_pays_what_it_has() -> None:
    """T18, as Uneasy Truce (B3): the challenge is declared; an empty pool gives nothing."""
    b, illyrio, (guard, _) = _illyrio_board(gold=0)
    after = _declare(use(b.state, 0, illyrio, "toll", payer=1, kind="military"), 1,
                     "military", [guard])
    assert after.challenge is not None and after.challenge.attacker == 1
    assert after.players[1].gold == 0 and after.players[0].gold == 0


def test_core_152_illyrio_the_toll_lasts_the_phase_only() -> None:
    b, illyrio, (guard, _) = _illyrio_board(gold=3)
    after = use(b.state, 0, illyrio, "toll", payer=1, kind="military")
    gone = replace(after, cards=tuple(c for c in after.cards if c.id != illyrio))
    paid = _declare(gone, 1, "military", [guard])  # a lasting effect: Illyrio need not stay
    assert paid.players[0].gold == 1
    from projections.thrones.apply.rounds import set_phase

    later = replace(set_phase(after, "dominance"), phase="challenges")
    assert _declare(later, 1, "military", [guard]).players[0].gold == 0


def test_core_152_illyrio_refusals_name_the_card() -> None:
    b, illyrio, _ = _illyrio_board()
    after = use(b.state, 0, illyrio, "toll", payer=1, kind="power")
    refused(after, 0, illyrio, "toll", code="cannot_pay", payer=1, kind="power")
    refused(b.state, 0, illyrio, "toll", code="wrong_target", payer=0, kind="power")
    refused(b.state, 0, illyrio, "toll", code="wrong_target", payer=1, kind="diplomacy")
    b.set(phase="marshalling")
    refused(b.state, 0, illyrio, "toll", code="outside_window", payer=1, kind="power")


# -- core_173 Dance With Dragons ------------------------------------------------------
def test_core_173_dance_with_dragons_fetches_a_dragon_for_an_influence() -> None:
    b = Board(TARG, phase="marshalling")
    dance = b.hand(0, "core_173")
    fief = b.play(0, "core_127")
    dragon = b.deck(0, "core_112")
    plain = b.deck(0, "core_105")
    after = use(b.state, 0, dance, "find_dragon", dragon=dragon, influence=[fief])
    assert dragon in after.players[0].hand and dragon not in after.players[0].deck
    assert dance in after.players[0].discard
    refused(b.state, 0, dance, "find_dragon", code="wrong_target", dragon=plain,
            influence=[fief])
    refused(b.state, 0, dance, "find_dragon", code="cannot_pay", dragon=dragon, influence=[])
    refused(after, 0, dance, "find_dragon", code="not_in_zone", dragon=dragon,
            influence=[fief])


# -- core_174 Forever Burning ---------------------------------------------------------
def test_core_174_forever_burning_weakens_then_returns_from_the_dead_pile() -> None:
    b = Board(TARG, phase="marshalling")
    burn = b.hand(0, "core_174")
    guard = b.play(1, "core_017")  # STR 4
    after = use(b.state, 0, burn, "burn", victim=guard)
    assert strength(after, guard, ED) == 3 and burn in after.players[0].discard
    refused(b.state, 0, burn, "burn", code="wrong_target", victim="p0-127")
    b2 = Board(TARG, phase="dominance", gold=2)
    dead = b2.dead(0, "core_174")
    fief = b2.play(0, "core_127")
    back = use(b2.state, 0, dead, "rekindle_influence", influence=[fief])
    assert dead in back.players[0].hand and dead not in back.players[0].dead
    paid = use(b2.state, 0, dead, "rekindle_gold")
    assert dead in paid.players[0].hand and paid.players[0].gold == 0
    b2.gold(0, 1)
    refused(b2.state, 0, dead, "rekindle_gold", code="cannot_pay")
    b2.set(phase="marshalling")
    refused(b2.state, 0, dead, "rekindle_influence", code="outside_window",
            influence=[fief])
    refused(b.state, 0, burn, "rekindle_gold", code="not_in_zone")


# -- core_175 Seductive Promise -------------------------------------------------------
def test_core_175_seductive_promise_takes_a_non_unique_character_of_the_loser() -> None:
    b = Board(TARG, phase="challenges", mode="table")
    promise = b.hand(0, "core_175")
    guard = b.play(1, "core_017")  # non-unique
    bran = b.play(1, "core_013")  # unique
    trig = {**WON, "type": "power", "margin": 4}
    after = answer(b.state, 0, promise, "seduce", trig, victim=guard)
    assert ip(after, guard).controller == 0 and promise in after.players[0].discard
    answer_refused(b.state, 0, promise, "seduce", trig, "wrong_target", victim=bran)
    refused(b.state, 0, promise, "seduce", code="outside_window", victim=guard)


# -- core_176 Westeros Bleeds ---------------------------------------------------------
def test_core_176_westeros_bleeds_discards_every_character_for_four_influence() -> None:
    b = Board(TARG, phase="dominance")
    bleeds = b.hand(0, "core_176")
    fiefs = [b.play(0, c) for c in ("core_127", "core_128", "core_129", "core_153")]
    mine = b.play(0, "core_105")
    theirs = b.play(1, "core_017")
    wine = b.play(0, "core_101", on=theirs)
    after = use(b.state, 0, bleeds, "bleed", influence=fiefs)
    assert {c.id for c in after.cards} == set(fiefs)
    assert mine in after.players[0].discard and theirs in after.players[1].discard
    assert wine in after.players[0].discard
    refused(b.state, 0, bleeds, "bleed", code="cannot_pay", influence=fiefs[:3])
    b.set(phase="challenges")
    refused(b.state, 0, bleeds, "bleed", code="outside_window", influence=fiefs)


def test_core_176_ruling_b23_a_character_that_cannot_be_discarded_stays() -> None:
    b = Board(("Targaryen", "Baratheon"), phase="dominance")
    bleeds = b.hand(0, "core_176")
    fiefs = [b.play(0, c) for c in ("core_127", "core_128", "core_129", "core_153")]
    mine = b.play(0, "core_105")
    knight = b.play(1, "core_081")  # Knight of the Rainwood: never discarded from play
    after = use(b.state, 0, bleeds, "bleed", influence=fiefs)
    assert mine in after.players[0].discard
    assert any(c.id == knight for c in after.cards)


# -- core_180 Lady Daenerys's Chambers ------------------------------------------------
def test_core_180_chambers_return_an_attachment_no_dearer_than_the_character() -> None:
    b = Board(TARG, phase="marshalling", mode="table")
    chambers = b.play(0, "core_180")
    vis = b.play(0, "core_108")  # cost 1
    dany = b.play(0, "core_106")  # cost 3
    blade = b.discard(0, "core_102")  # cost 1
    blood = b.discard(0, "core_100")  # cost 3
    after = answer(b.state, 0, chambers, "recover_attachment", {"card": vis, "seat": 0},
                   attachment=blade)
    assert blade in after.players[0].hand and blade not in after.players[0].discard
    answer_refused(b.state, 0, chambers, "recover_attachment", {"card": vis, "seat": 0},
                   "wrong_target", attachment=blood)
    assert blood in answer(b.state, 0, chambers, "recover_attachment",
                           {"card": dany, "seat": 0}, attachment=blood).players[0].hand
    refused(b.state, 0, chambers, "recover_attachment", code="outside_window",
            attachment=blade)


# -- plots ----------------------------------------------------------------------------
def _plot_board(plot: str) -> Board:
    b = Board(TARG, phase="plot", step="first_player", mode="table")
    b.revealed_plot(0, plot)
    return b


def test_core_202_condemned_by_the_realm_the_opponent_kills_a_character_not_theirs() -> None:
    b = _plot_board("core_202")
    mine = b.play(0, "core_105")
    theirs = b.play(1, "core_017")
    trig = {"seat": 0, "plot": "p0-202"}
    after = answer(b.state, 0, "plot:0", "condemn", trig, judge=1, victim=mine)
    assert after.players[0].dead == (mine,)
    answer_refused(b.state, 0, "plot:0", "condemn", trig, "wrong_target", judge=1,
                   victim=theirs)
    answer_refused(b.state, 0, "plot:0", "condemn", trig, "wrong_target", judge=1)
    refused(b.state, 0, "plot:0", "condemn", code="outside_window", name="Condemned",
            judge=1, victim=mine)


def test_core_203_counting_favors_you_and_an_opponent_draw_three() -> None:
    b = _plot_board("core_203")
    mine = [b.deck(0, c) for c in ("core_105", "core_106", "core_107")]
    theirs = [b.deck(1, c) for c in ("core_013", "core_017", "core_020")]
    after = answer(b.state, 0, "plot:0", "favors", {"seat": 0},
                   chance={"drawn": mine + theirs}, other=1)
    assert sorted(after.players[0].hand) == sorted(mine)
    assert sorted(after.players[1].hand) == sorted(theirs)
    answer_refused(b.state, 0, "plot:0", "favors", {"seat": 0}, "wrong_target", other=0)
    refused(b.state, 0, "plot:0", "favors", code="outside_window", name="Counting Favors",
            other=1)


def test_core_205_mad_kings_legacy_discards_an_attachment_when_there_is_one() -> None:
    b = _plot_board("core_205")
    foe = b.play(1, "core_013")
    ice = b.play(1, "core_001", on=foe)
    trig = {"seat": 0}
    after = answer(b.state, 0, "plot:0", "discard_attachment", trig, attachment=ice)
    assert ice in after.players[1].discard and ip(after, ice) is None
    answer_refused(b.state, 0, "plot:0", "discard_attachment", trig, "wrong_target")
    answer_refused(b.state, 0, "plot:0", "discard_attachment", trig, "wrong_target",
                   attachment=foe)
    empty = _plot_board("core_205")
    assert answer(empty.state, 0, "plot:0", "discard_attachment", trig).cards == ()
    assert ED.by_number[205].house_only == "Targaryen"


def test_core_206_rule_by_decree_the_largest_hand_discards_down_to_four() -> None:
    b = _plot_board("core_206")
    big = [b.hand(1, c) for c in ("core_013", "core_017", "core_020", "core_021",
                                  "core_024", "core_025")]
    small = [b.hand(0, c) for c in ("core_105", "core_106")]
    trig = {"seat": 0}
    after = answer(b.state, 0, "plot:0", "decree", trig, discards=big[:2])
    assert len(after.players[1].hand) == 4 and set(big[:2]) <= set(after.players[1].discard)
    answer_refused(b.state, 0, "plot:0", "decree", trig, "wrong_target", discards=big[:1])
    answer_refused(b.state, 0, "plot:0", "decree", trig, "wrong_target",
                   discards=[*big[:2], small[0]])
    refused(b.state, 0, "plot:0", "decree", code="outside_window", name="Rule by Decree",
            discards=big[:2])
    # a tie of largest hands: each discards down to 4 (ruling T25)
    b.hand(0, "core_107")
    for c in ("core_108", "core_112", "core_113"):
        small.append(b.hand(0, c))
    both = answer(b.state, 0, "plot:0", "decree", trig,
                  discards=[*big[:2], *small[:2]])
    assert len(both.players[0].hand) == 4 and len(both.players[1].hand) == 4
    answer_refused(b.state, 0, "plot:0", "decree", trig, "wrong_target", discards=big[:2])


def test_core_207_noose_and_swordpoint_keeps_weak_characters_knelt() -> None:
    b = _plot_board("core_207")
    weak = b.play(1, "core_013", knelt=True)  # STR 1
    two = b.play(0, "core_108", knelt=True)  # STR 1
    strong = b.play(1, "core_017", knelt=True)  # STR 4
    after = answer(b.state, 0, "plot:0", "noose", {"seat": 0})
    held = {m.card for m in after.modifiers if m.kind == "no_stand"}
    assert held == {weak, two}
    assert strong not in held
    refused(b.state, 0, "plot:0", "noose", code="outside_window", name="Noose")


def test_keywords_of_targaryen_cards_are_read_by_the_rules() -> None:
    """core_122 Warlock's Servitors (deadly), core_107 Khal Drogo (stealth): the keywords the
    rules already read, so both are declared without an ability beyond them."""
    b = Board(TARG, phase="marshalling")
    servitors = b.play(0, "core_122")
    drogo = b.play(0, "core_107")
    assert has_keyword(b.state, servitors, "deadly", ED)
    assert has_keyword(b.state, drogo, "stealth", ED)


@pytest.mark.parametrize("phase", ["marshalling", "challenges", "dominance"])
def test_the_choices_reach_only_legal_uses_of_the_targaryen_actions(phase: str) -> None:
    """Every walk the choices offer ends in a use the rule accepts (no dead end): the
    action cards core_101, core_104, core_109, core_111, core_112, core_119, core_125,
    core_127, core_133, core_134, core_152, core_173, core_174, core_176 on one table."""
    import random

    from projections.choices import Walker
    from projections.rules import Action

    b = Board(TARG, phase=phase, gold=9)
    b.gold(1, 3)
    dany = b.play(0, "core_106")
    foe = b.play(1, "core_017", knelt=True)
    b.play(1, "core_013")
    for card in ("core_109", "core_111", "core_112", "core_125", "core_127", "core_128",
                 "core_133", "core_134", "core_152", "core_153"):
        b.play(0, card)
    b.play(0, "core_101", on=foe)
    b.play(0, "core_104", on=dany)
    for card in ("core_119", "core_173", "core_174", "core_176"):
        b.hand(0, card)
    b.dead(0, "core_174")
    b.deck(0, "core_110")
    b.deck(0, "core_112")
    walker = Walker(RULES, table=False)
    seen: set[str] = set()
    record = RULES.action_type("use_ability")
    if record.steps(b.state, 0, Made(), ED) is None:
        assert phase == "challenges"  # digital challenges: not seat 0's turn to act
        return
    for seed in range(12):
        _, move = walker.random_move(b.state, "use_ability", 0, random.Random(seed).randrange)
        RULES.apply(b.state, Action.of("use_ability", 0, move["data"]))
        seen.add(move["data"]["card"])
    assert len(seen) >= 3
