"""The Lannister starter deck's cards (issue #30), each from its summary: used rightly it does
what the summary says (expected values written by hand from the summary and §9), and outside
its window, on a wrong target, without its cost, past its limit or from the wrong zone it is
refused in a sentence naming the card.

Abilities that answer a trigger (response, interrupt, forced, when revealed) are tested two
ways: their effect through `answer` (the engine's `resolve_use` given the trigger, so the
cost, targets, condition and ops run as the rules will run them), and their window through
the real rules; the latter tests are skipped only while the engine does not emit the trigger
yet (`needs`, reading the engine's own list), so they run as soon as it lands.
"""

from __future__ import annotations

from typing import Any

import pytest

from projections.choices import Pick
from projections.rules import Action, Dealer, IllegalAction, replace
from projections.thrones.apply.abilities import resolve_use
from projections.thrones.apply.rounds import set_phase
from projections.thrones.apply.values import has_keyword, marshal_cost, strength, values
from projections.thrones.state import State, Trigger
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

# -- helpers ----------------------------------------------------------------------------

def answer(state: State, seat: int, card: str, ability: str, trigger: dict[str, Any],
           *, chance: dict[str, Any] | None = None, **choices: Any) -> State:
    """The state after `seat` answers `trigger` with `ability` of `card`."""
    data = {"card": card, "ability": ability, "choices": choices, **(chance or {})}
    return resolve_use(state, seat, data, ED, trigger=trigger)


def answer_refused(state: State, seat: int, card: str, ability: str, trigger: dict[str, Any],
                   *, code: str, chance: dict[str, Any] | None = None,
                   **choices: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        answer(state, seat, card, ability, trigger, chance=chance, **choices)
    assert err.value.code == code, f"{err.value.code}: {err.value.message}"
    if not card.startswith("plot:"):
        assert card_name(card) in err.value.message, err.value.message
    return err.value


def act(state: State, kind: str, actor: Any, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, actor, data))
    return after


def card_of(state: State, ident: str) -> Any:
    return next(c for c in state.cards if c.id == ident)


def knelt(state: State, ident: str) -> bool:
    return bool(card_of(state, ident).knelt)


def in_play(state: State, ident: str) -> bool:
    return any(c.id == ident for c in state.cards)


def declared(card: str) -> Any:
    return ED.by_number[int(card.split("_")[1])]


def lannister(phase: str = "marshalling", **kw: Any) -> Board:
    return Board(houses=("Lannister", "Stark"), phase=phase, **kw)


WON = {"type": "military", "winner": 0, "loser": 1, "attacker": 0, "defender": 1,
       "margin": 2, "unopposed": False}


# -- plain cards: keywords, icons, income and the data fields the rules read --------------
@pytest.mark.parametrize("card", ["core_034", "core_037", "core_051", "core_052", "core_053",
                                  "core_060", "core_061", "core_062", "core_063", "core_140",
                                  "core_143", "core_210"])
def test_plain_lannister_cards_declare_no_ability(card: str) -> None:
    data = declared(card)
    assert data.plain and data.abilities == ()


# core_034 Gutter Rat's Cunning: "Bearer gets +2 STR and stealth."
def test_core_034_gutter_rats_cunning_gives_two_strength_and_stealth() -> None:
    b = lannister()
    bran = b.play(1, "core_013")  # STR 1, no stealth
    b.play(0, "core_034", on=bran)
    assert strength(b.state, bran, ED) == 3
    assert has_keyword(b.state, bran, "stealth", ED)


# core_037 Ser Jaime Lannister: "Does not kneel when attacking or defending in military
# challenges."
def test_core_037_jaime_does_not_kneel_attacking_in_a_military_challenge() -> None:
    b = lannister(phase="challenges")
    jaime = b.play(0, "core_037")
    hound = b.play(0, "core_042")
    after = act(b.state, "declare_challenge", 0, type="military", defender=1,
                attackers=[jaime, hound], not_kneeling=[jaime])
    assert not knelt(after, jaime) and knelt(after, hound)
    with pytest.raises(IllegalAction):  # the Hound has no such exemption
        act(b.state, "declare_challenge", 0, type="military", defender=1,
            attackers=[jaime, hound], not_kneeling=[hound])


# core_051 Lurkers at Harrenhal: "No ability beyond its keywords."
def test_core_051_lurkers_have_stealth_and_deadly() -> None:
    b = lannister()
    lurkers = b.play(0, "core_051")
    assert has_keyword(b.state, lurkers, "stealth", ED)
    assert has_keyword(b.state, lurkers, "deadly", ED)


# core_052 Lannisport Steward, core_053 Lannisport Weaponsmith, core_061-063 The Goldroad,
# core_143 Crossroads: "Only a gold bonus" / "Plain gold-producing location".
def test_core_052_053_061_143_gold_bonuses_add_to_income() -> None:
    from projections.thrones.apply.rounds import _income
    b = lannister()
    b.revealed_plot(0, "core_190")  # income 3
    base = _income(b.state, 0, ED)
    for card, bonus in (("core_052", 2), ("core_053", 1), ("core_061", 1), ("core_062", 1),
                        ("core_063", 1), ("core_143", 1)):
        b.play(0, card)
        base += bonus
        assert _income(b.state, 0, ED) == base, card
    assert base == 3 + 7


# core_060 Queen Cersei's Chambers: "May be placed as an attachment on your own House card."
def test_core_060_chambers_may_go_on_the_own_house_card() -> None:
    b = lannister(gold=1)
    chambers = b.hand(0, "core_060")
    after = act(b.state, "marshal_card", 0, card=chambers, attach_to="house:0")
    assert card_of(after, chambers).host == "house:0"
    with pytest.raises(IllegalAction):
        act(b.state, "marshal_card", 0, card=chambers, attach_to="house:1")


# core_140 Lordship: "Bearer becomes a Lord with a power icon and is 4 STR stronger in the
# dominance phase (one per character)."
def test_core_140_lordship_gives_a_power_icon_and_four_strength_at_dominance() -> None:
    b = lannister()
    arya = b.play(1, "core_007")  # STR 2, no Lordship
    bran = b.play(1, "core_013")
    b.play(0, "core_140", on=bran)
    assert "power" in values(b.state, bran, ED)[1]
    assert strength(b.state, bran, ED) == 1
    b.set(phase="dominance")
    assert strength(b.state, bran, ED) == 5
    assert strength(b.state, arya, ED) == 2
    b.set(phase="marshalling")
    b.gold(0, 1)
    second = b.hand(0, "core_140")
    with pytest.raises(IllegalAction) as err:  # one per character
        act(b.state, "marshal_card", 0, card=second, attach_to=bran)
    assert err.value.code == "illegal_attachment_target"
    assert card_of(act(b.state, "marshal_card", 0, card=second, attach_to=arya),
                   second).host == arya


# core_210 House Lannister: the House card holds power (no ability).
def test_core_210_house_lannister_is_plain() -> None:
    assert declared("core_210").type == "house" and declared("core_210").plain


# -- Gilded Plate --------------------------------------------------------------------------
# core_035: "Pay 1 gold and sacrifice it to save the bearer from being killed or discarded."
def test_core_035_gilded_plate_costs_a_gold_and_itself() -> None:
    b = lannister(phase="challenges", gold=1)
    jaime = b.play(0, "core_037")
    plate = b.play(0, "core_035", on=jaime)
    after = answer(b.state, 0, plate, "save_from_kill", {"card": jaime, "seat": 0})
    assert after.players[0].gold == 0
    assert plate in after.players[0].discard and not in_play(after, plate)
    assert in_play(after, jaime)
    b.gold(0, 0)
    answer_refused(b.state, 0, plate, "save_from_kill", {"card": jaime, "seat": 0},
                   code="cannot_pay")
    answer_refused(b.state, 0, plate, "save_from_discard", {"card": jaime, "seat": 0},
                   code="cannot_pay")


def test_core_035_gilded_plate_is_refused_when_nothing_threatens_its_bearer() -> None:
    b = lannister(phase="challenges", gold=1)
    jaime = b.play(0, "core_037")
    plate = b.play(0, "core_035", on=jaime)
    refused(b.state, 0, plate, "save_from_kill", code="outside_window")
    refused(b.state, 1, plate, "save_from_kill", code="not_your_card")


@needs("would_be_killed")
def test_core_035_gilded_plate_saves_its_bearer_from_ser_ilyn() -> None:
    b = Board(houses=("Lannister", "Lannister"), phase="marshalling", gold=1)
    ilyn = b.play(1, "core_041")
    tyrion = b.play(0, "core_038")  # STR 3: too strong; use a weak bearer
    attendant = b.play(0, "core_050")  # STR 1
    plate = b.play(0, "core_035", on=attendant)
    b.set(turn=1)
    state = use(b.state, 1, ilyn, "kill_weakling", victim=attendant)
    state = use(state, 0, plate, "save_from_kill")
    assert in_play(state, attendant) and attendant not in state.players[0].dead
    assert plate in state.players[0].discard and in_play(state, tyrion)


# -- Joffrey Baratheon ---------------------------------------------------------------------
# core_036: "Places 1 power on himself whenever a Lord or Lady dies (up to 3 times a round)."
def test_core_036_joffrey_gains_a_power_three_times_a_round_at_most() -> None:
    b = lannister(phase="challenges")
    joffrey = b.play(0, "core_036")
    bran = b.dead(1, "core_013")  # a Lord
    state = b.state
    for n in (1, 2, 3):
        state = answer(state, 0, joffrey, "power_on_death", {"card": bran, "seat": 1})
        assert card_of(state, joffrey).power == n
    answer_refused(state, 0, joffrey, "power_on_death", {"card": bran, "seat": 1},
                   code="limit_reached")
    refused(b.state, 0, joffrey, "power_on_death", code="outside_window")


@needs("killed")
def test_core_036_joffrey_gains_power_when_ser_ilyn_kills_a_lord_but_not_an_ally() -> None:
    b = lannister()
    joffrey = b.play(0, "core_036")
    ilyn = b.play(0, "core_041")
    bran = b.play(1, "core_013")  # Lord, STR 1
    after = use(b.state, 0, ilyn, "kill_weakling", victim=bran)
    assert card_of(after, joffrey).power == 1
    b2 = lannister()
    joffrey2 = b2.play(0, "core_036")
    ilyn2 = b2.play(0, "core_041")
    master = b2.play(1, "core_020")  # Kennel Master: an Ally
    after = use(b2.state, 0, ilyn2, "kill_weakling", victim=master)
    assert card_of(after, joffrey2).power == 0


# -- Tyrion Lannister ----------------------------------------------------------------------
# core_038: "After you win an intrigue challenge, or any challenge he joined, pay 1 gold to
# draw a card."
def test_core_038_tyrion_draws_after_an_intrigue_win_for_a_gold() -> None:
    b = lannister(gold=1)
    tyrion = b.play(0, "core_038")
    other = b.play(0, "core_053")
    top = b.deck(0, "core_039")
    b.challenge("intrigue", attackers=[other], winner=0, step="resolved")
    won = dict(WON, type="intrigue")
    after = answer(b.state, 0, tyrion, "draw_a_card", won, chance={"drawn": [top]})
    assert top in after.players[0].hand and after.players[0].gold == 0
    b.gold(0, 0)
    answer_refused(b.state, 0, tyrion, "draw_a_card", won, code="cannot_pay",
                   chance={"drawn": [top]})


def test_core_038_tyrion_draws_after_a_military_win_only_if_he_joined() -> None:
    b = lannister(gold=1)
    tyrion = b.play(0, "core_038")
    other = b.play(0, "core_053")
    top = b.deck(0, "core_039")
    b.challenge("military", attackers=[other], winner=0, step="resolved")
    answer_refused(b.state, 0, tyrion, "draw_a_card", WON, code="condition_failed",
                   chance={"drawn": [top]})
    b.challenge("military", attackers=[tyrion], winner=0, step="resolved")
    after = answer(b.state, 0, tyrion, "draw_a_card", WON, chance={"drawn": [top]})
    assert top in after.players[0].hand
    refused(b.state, 0, tyrion, "draw_a_card", code="outside_window")


# -- Cersei Lannister ----------------------------------------------------------------------
# core_039: "Dominance: kneel her and pay 2 gold to kneel a character and keep it from
# standing this round."
def test_core_039_cersei_kneels_a_character_that_does_not_stand() -> None:
    b = lannister(phase="dominance", gold=2)
    cersei = b.play(0, "core_039")
    eddard = b.play(1, "core_005")
    after = use(b.state, 0, cersei, "kneel_and_hold", victim=eddard)
    assert knelt(after, eddard) and knelt(after, cersei) and after.players[0].gold == 0
    ended = act(replace(after, dominance_done=True), "end_round", "table")
    assert knelt(ended, eddard) and not knelt(ended, cersei)


def test_core_039_cersei_refused_outside_dominance_without_gold_or_on_a_knelt_target() -> None:
    b = lannister(phase="dominance", gold=1)
    cersei = b.play(0, "core_039")
    eddard = b.play(1, "core_005")
    sleeping = b.play(1, "core_006", knelt=True)
    refused(b.state, 0, cersei, "kneel_and_hold", code="cannot_pay", victim=eddard)
    b.gold(0, 2)
    refused(b.state, 0, cersei, "kneel_and_hold", code="wrong_target", victim=sleeping)
    b.set(phase="marshalling")
    refused(b.state, 0, cersei, "kneel_and_hold", code="outside_window", victim=eddard)


# -- Tywin Lannister -----------------------------------------------------------------------
# core_040: "At each marshalling phase start he stores 2 gold that you may spend like pool
# gold." (card ruling L1: the 2 gold go to the pool)
def test_core_040_tywin_gives_two_gold_at_the_start_of_marshalling() -> None:
    b = lannister(gold=3)
    tywin = b.play(0, "core_040")
    after = answer(b.state, 0, tywin, "marshalling_gold", {"phase": "marshalling"})
    assert after.players[0].gold == 5
    refused(b.state, 0, tywin, "marshalling_gold", code="outside_window")


@needs("phase_begins")
def test_core_040_tywin_gold_arrives_when_the_marshalling_phase_begins() -> None:
    b = lannister(phase="draw")
    b.play(0, "core_040")
    b.revealed_plot(0, "core_190")  # income 3
    b.revealed_plot(1, "core_184")
    after = act(b.state, "draw_phase", "table", draws={"0": [], "1": []})
    assert after.phase == "marshalling"
    assert after.players[0].gold == 3 + 2


# -- The Hound -----------------------------------------------------------------------------
# core_042: "Goes to the discard pile instead of the dead pile when killed; each dominance
# phase mill your top card or lose him."
def test_core_042_the_hound_mills_the_top_card_to_stay() -> None:
    b = lannister(phase="dominance")
    hound = b.play(0, "core_042")
    top = b.deck(0, "core_050")
    after = answer(b.state, 0, hound, "dominance_upkeep", {"phase": "dominance"}, keep=1,
                   chance={"milled": [top]})
    assert top in after.players[0].discard and in_play(after, hound)


def test_core_042_the_hound_is_discarded_when_he_is_not_kept_or_the_deck_is_empty() -> None:
    b = lannister(phase="dominance")
    hound = b.play(0, "core_042")
    after = answer(b.state, 0, hound, "dominance_upkeep", {"phase": "dominance"}, keep=0)
    assert hound in after.players[0].discard and not in_play(after, hound)
    answer_refused(b.state, 0, hound, "dominance_upkeep", {"phase": "dominance"},
                   code="wrong_target", keep=1)  # nothing to mill
    answer_refused(b.state, 0, hound, "dominance_upkeep", {"phase": "dominance"},
                   code="wrong_target", keep=2)
    refused(b.state, 0, hound, "dominance_upkeep", code="outside_window", keep=0)


def _killed(state: State, *cards: str) -> State:
    """A kill the table records (a ruling's effect), as any kill op the rules apply."""
    after: State = RULES.apply(state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": [{"op": "kill", "cards": list(cards)}],
        "reason": "a test kills"}))
    return after


# ruling L13: killed, The Hound goes to his owner's discard pile, and he was killed.
def test_core_042_the_hound_killed_goes_to_the_discard_pile_and_was_killed() -> None:
    b = lannister(phase="challenges", mode="table")
    hound = b.play(0, "core_042")
    after = _killed(b.state, hound)
    assert hound in after.players[0].discard and hound not in after.players[0].dead
    assert not in_play(after, hound)
    assert after.window is not None
    assert [t.name for t in after.window.triggers] == ["would_be_killed", "killed",
                                                       "leaves_play"]
    refused(b.state, 0, hound, "killed_to_discard", code="applies_by_itself")


def test_core_042_the_hound_discarded_from_play_is_not_killed() -> None:
    b = lannister(phase="challenges", mode="table")
    hound = b.play(0, "core_042")
    after: State = RULES.apply(b.state, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": [{"op": "discard_from_play", "cards": [hound]}],
        "reason": "a test discards"}))
    assert hound in after.players[0].discard
    assert after.window is not None
    assert [t.name for t in after.window.triggers] == ["would_be_discarded", "leaves_play"]


# -- Chella, Daughter of Cheyk -------------------------------------------------------------
# core_043: "After a win involving a Clansman, pay a location's printed cost to return it to
# its owner's hand."
def test_core_043_chella_pays_the_printed_cost_to_return_a_location() -> None:
    b = lannister(gold=3)
    chella = b.play(0, "core_043")  # a Clansman
    castle = b.play(1, "core_025")  # Winterfell Castle, printed cost 3
    b.challenge("military", attackers=[chella], winner=0, step="resolved")
    after = answer(b.state, 0, chella, "return_location", WON, location=castle)
    assert castle in after.players[1].hand and not in_play(after, castle)
    assert after.players[0].gold == 0
    b.gold(0, 2)
    answer_refused(b.state, 0, chella, "return_location", WON, code="cannot_pay",
                   location=castle)
    b.gold(0, 3)
    bran = b.play(1, "core_013")
    answer_refused(b.state, 0, chella, "return_location", WON, code="wrong_target",
                   location=bran)


def test_core_043_chella_needs_a_clansman_in_the_win() -> None:
    b = lannister(gold=3)
    chella = b.play(0, "core_043")
    other = b.play(0, "core_053")
    castle = b.play(1, "core_025")
    b.challenge("military", attackers=[other], winner=0, step="resolved")
    answer_refused(b.state, 0, chella, "return_location", WON, code="condition_failed",
                   location=castle)
    refused(b.state, 0, chella, "return_location", code="outside_window", location=castle)


# core_044 Bronn: "Pay 2 gold and pick a character: this phase, if it would die while Bronn
# is knelt, Bronn stands instead." (ruling L23)
def test_core_044_bronn_stands_instead_of_the_guarded_character_dying() -> None:
    b = lannister(phase="challenges", mode="table", gold=2)
    bronn = b.play(0, "core_044", knelt=True)
    hound = b.play(0, "core_042")
    guarded = use(b.state, 0, bronn, "death_guard", ward=hound)
    assert guarded.players[0].gold == 0
    after = _killed(guarded, hound)
    assert in_play(after, hound) and not card_of(after, bronn).knelt
    assert hound not in after.players[0].discard and hound not in after.players[0].dead
    again = _killed(after, hound)  # Bronn stands now: the next kill goes through
    assert not in_play(again, hound)


def test_core_044_bronn_guards_only_while_knelt_this_phase_and_for_gold() -> None:
    b = lannister(phase="challenges", mode="table", gold=2)
    bronn = b.play(0, "core_044")  # standing
    hound = b.play(0, "core_042")
    guarded = use(b.state, 0, bronn, "death_guard", ward=hound)
    assert not in_play(_killed(guarded, hound), hound)
    b2 = lannister(phase="marshalling", mode="table", gold=2)
    bronn2 = b2.play(0, "core_044", knelt=True)
    hound2 = b2.play(0, "core_042")
    later = use(b2.state, 0, bronn2, "death_guard", ward=hound2)
    later = set_phase(later, "challenges")  # the marshalling phase ended
    assert not in_play(_killed(later, hound2), hound2)
    b.gold(0, 1)
    refused(b.state, 0, bronn, "death_guard", code="cannot_pay", ward=hound)
    sword = b.play(0, "core_068", on=hound)  # an attachment: not a character
    b.gold(0, 2)
    refused(b.state, 0, bronn, "death_guard", code="wrong_target", ward=sword)


# core_141 Littlefinger: "+1 STR for each gold in your pool."
def test_core_141_littlefinger_gets_one_strength_per_gold_in_your_pool() -> None:
    b = lannister(gold=0)
    finger = b.play(0, "core_141")  # printed STR 3
    assert strength(b.state, finger, ED) == 3
    b.gold(0, 4)
    assert strength(b.state, finger, ED) == 3 + 4
    b.gold(1, 6)  # the opponent's gold is not his controller's pool
    assert strength(b.state, finger, ED) == 7
    spent = b.state.with_player(0, gold=1)
    assert strength(spent, finger, ED) == 4
    refused(b.state, 0, finger, "gold_strength", code="applies_by_itself")
    taken = replace(b.state, cards=tuple(replace(c, controller=1) if c.id == finger else c
                                         for c in b.state.cards))
    assert strength(taken, finger, ED) == 3 + 6  # under Bo's control: Bo's pool


# -- Raff the Sweetling --------------------------------------------------------------------
# core_046: "Pay 1 gold to look at an opponent's top card and leave it on top or put it at
# the bottom." Card ruling L12: the card looked at is pinned; the opponent's next card
# taken from the deck is the top one, the bottom one comes only with all the others.
def _raff(mode: str = "table", gold: int = 1) -> tuple[Board, str, list[str]]:
    b = lannister(gold=gold, mode=mode)
    raff = b.play(0, "core_046")
    deck = [b.deck(1, c) for c in ("core_005", "core_006", "core_007")]
    return b, raff, deck


def _draws(state: State, cards: list[str]) -> State:
    """The draw phase in which Bo draws `cards` (Anna's deck is empty)."""
    drawing = replace(state, phase="draw")
    after: State = RULES.apply(drawing, Action.of("draw_phase", "table",
                                                  {"draws": {"0": [], "1": cards}}))
    return after


def _raff_looks(state: State, raff: str, looked: str, bottom: int) -> State:
    """Raff used as each mode records it: at a table one move, the card tapped and the
    place chosen; in digital play the look first (the card dealt), then the place, chosen
    once Anna has seen it (card ruling L12)."""
    if state.mode != "digital":
        return use(state, 0, raff, "look_at_top_card", foe=1, bottom=bottom,
                   chance={"looked": [looked]})
    seen = use(state, 0, raff, "look_at_top_card", foe=1, chance={"looked": [looked]})
    assert seen.pick is not None and seen.pick.waiting == ((0, "bottom"),)
    return use(seen, 0, raff, "look_at_top_card", bottom=bottom)


@pytest.mark.parametrize("mode", ["table", "digital"])
def test_core_046_raff_pays_a_gold_and_the_card_left_on_top_is_drawn_next(mode: str) -> None:
    b, raff, (top, second, third) = _raff(mode)
    after = _raff_looks(b.state, raff, top, 0)
    assert after.players[0].gold == 0 and after.pick is None
    assert after.players[1].deck == b.state.players[1].deck  # a look moves no card
    assert set(_draws(after, [top, second]).players[1].hand) == {top, second}
    with pytest.raises(IllegalAction) as err:
        _draws(after, [second, third])
    assert err.value.code == "wrong_card" and "Raff the Sweetling" in err.value.message


def test_core_046_in_digital_play_raff_chooses_top_or_bottom_after_seeing_the_card() -> None:
    """Card ruling L12 in digital play: the server deals the card looked at with the use;
    only then is Anna asked where it goes, in words, the card named in the prompt for her
    alone; nothing else may happen meanwhile, and the gold is paid with the choice."""
    from projections.choices import Walker
    from projections.messages import render

    b, raff, (top, second, _) = _raff("digital")
    refused(b.state, 0, raff, "look_at_top_card", code="wrong_target", foe=1, bottom=1,
            chance={"looked": [top]})  # the place is not chosen blind
    move = Action.of("use_ability", 0, {"card": raff, "ability": "look_at_top_card",
                                        "choices": {"foe": 1}})
    data = RULES.fill_chance(b.state, move, Dealer("raff", 3))
    (looked,) = data["looked"]
    assert looked in (top, second, _)
    seen = RULES.apply(b.state, Action.of("use_ability", 0, data))
    assert RULES.to_act(seen) == (0,) and seen.players[0].gold == 1
    assert RULES.redact(Action.of("use_ability", 0, data), 1, b.state)["looked"] == \
        {"count": 1}  # Bo learns that a card was looked at, not which
    walker = Walker(RULES, table=False)
    picks: list[Pick] = []
    walk = walker.walk(seen, "use_ability", 0, picks)
    while walk.choice is not None and walk.choice.id != "choices.bottom":
        picks.append(Pick(walk.choice.id, walk.choice.options[0].value))
        walk = walker.walk(seen, "use_ability", 0, picks)
    assert walk.choice is not None
    labels = {o.value: (render(o.label, "en"), render(o.label, "zh_Hans"))
              for o in walk.choice.options}
    assert labels == {0: ("leave it on top", "留在顶部"),
                      1: ("put it at the bottom", "置于底部")}
    assert ED.name(looked) in render(walk.choice.prompt, "en")
    with pytest.raises(IllegalAction) as err:  # nothing else until Anna has chosen
        RULES.apply(seen, Action.of("end_marshalling", 0, {}))
    assert err.value.code == "awaiting_choice" and "Raff the Sweetling" in err.value.message
    after = use(seen, 0, raff, "look_at_top_card", bottom=1)
    assert after.players[0].gold == 0 and after.pick is None
    rest = sorted(set(b.state.players[1].deck) - {looked})
    assert set(_draws(after, rest).players[1].hand) == set(rest)


def test_core_046_without_the_gold_raff_does_not_look() -> None:
    b, raff, (top, _, _) = _raff("digital", gold=0)
    refused(b.state, 0, raff, "look_at_top_card", code="cannot_pay", foe=1,
            chance={"looked": [top]})


def test_core_046_raff_offers_top_or_bottom_in_words_never_as_a_player_or_a_number() -> None:
    """A number target with `values` reads as what each value does: Raff's 0 and 1 were
    shown as the players "Anna" and "Bo" (a small number read as a seat)."""
    from projections.choices import Walker
    from projections.messages import render
    from projections.thrones.words import use_ability_sentence

    b, raff, _ = _raff("table")
    walker = Walker(RULES, table=True)
    picks: list[Pick] = []
    walk = walker.walk(b.state, "use_ability", 0, picks)
    while walk.choice is not None and walk.choice.id != "choices.bottom":
        choice = walk.choice
        value = next(o.value for o in choice.options
                     if o.value in (raff, "look_at_top_card", 1))
        picks.append(Pick(choice.id, value))
        walk = walker.walk(b.state, "use_ability", 0, picks)
    assert walk.choice is not None
    labels = {o.value: (render(o.label, "en"), render(o.label, "zh_Hans"))
              for o in walk.choice.options}
    assert labels == {0: ("leave it on top", "留在顶部"),
                      1: ("put it at the bottom", "置于底部")}
    assert "where the card goes" in render(walk.choice.prompt, "en")
    said = use_ability_sentence(Action.of("use_ability", 0, {
        "card": raff, "ability": "look_at_top_card", "choices": {"foe": 1, "bottom": 1}}),
        ("Anna", "Bo"), ED)
    assert "put it at the bottom" in render(said, "en") and "bottom: 1" not in render(said, "en")


def test_core_046_raff_puts_the_card_at_the_bottom_and_it_comes_last() -> None:
    b, raff, (bottom, second, third) = _raff()
    after = use(b.state, 0, raff, "look_at_top_card", foe=1, bottom=1,
                chance={"looked": [bottom]})
    assert set(_draws(after, [second, third]).players[1].hand) == {second, third}
    with pytest.raises(IllegalAction) as err:
        _draws(after, [bottom, second])
    assert err.value.code == "wrong_card" and "Raff the Sweetling" in err.value.message


def test_core_046_raff_looks_again_at_the_card_he_left_on_top() -> None:
    b, raff, (top, second, _) = _raff(gold=2)
    after = use(b.state, 0, raff, "look_at_top_card", foe=1, bottom=0,
                chance={"looked": [top]})
    refused(after, 0, raff, "look_at_top_card", code="wrong_card", foe=1, bottom=0,
            chance={"looked": [second]})


def test_core_046_a_shuffle_forgets_what_raff_saw() -> None:
    b, raff, (top, second, third) = _raff()
    after = use(b.state, 0, raff, "look_at_top_card", foe=1, bottom=0,
                chance={"looked": [top]})
    shuffle = {"op": "shuffle_pile_into_deck", "seat": 1, "pile": "discard"}
    shuffled: State = RULES.apply(after, Action.of("effect", "table", {
        "source": None, "costs": [], "ops": [shuffle], "reason": "a ruling shuffles"}))
    assert set(_draws(shuffled, [second, third]).players[1].hand) == {second, third}


def test_core_046_the_digital_dealer_deals_the_pinned_card_first() -> None:
    b, raff, (_, _, third) = _raff("digital")
    after = _raff_looks(b.state, raff, third, 0)
    for index in range(6):  # whatever the shuffle, the known top card is drawn
        data = RULES.fill_chance(replace(after, phase="draw"),
                                 Action.of("draw_phase", "table", {}), Dealer("raff", index))
        assert third in data["draws"]["1"]


def test_core_046_only_raff_sees_the_card_he_looked_at() -> None:
    b, raff, (top, _, _) = _raff()
    move = Action.of("use_ability", 0, {"card": raff, "ability": "look_at_top_card",
                                        "choices": {"foe": 1, "bottom": 0}, "looked": [top]})
    shown = RULES.redact(move, 1, b.state)  # Bo knows Raff looked, not at what
    assert shown is not None and top not in str(shown) and shown["looked"] == {"count": 1}
    assert RULES.redact(move, 0, b.state) is None  # Raff's own seat sees it


def test_core_046_raff_is_refused_without_gold_a_foe_or_the_top_card() -> None:
    b, raff, (top, _, _) = _raff()
    refused(b.state, 0, raff, "look_at_top_card", code="wrong_target", foe=0, bottom=0)
    refused(b.state, 0, raff, "look_at_top_card", code="chance_missing", foe=1, bottom=0)
    mine = b.hand(1, "core_013")
    refused(b.state, 0, raff, "look_at_top_card", code="wrong_card", foe=1, bottom=0,
            chance={"looked": [mine]})
    b.gold(0, 0)
    refused(b.state, 0, raff, "look_at_top_card", code="cannot_pay", foe=1, bottom=0,
            chance={"looked": [top]})


def test_core_046_raff_is_refused_outside_his_window() -> None:
    b, raff, (top, _, _) = _raff("digital")
    b.state = replace(b.state, turn=1)  # digital play: Bo's marshalling turn, not Anna's
    refused(b.state, 0, raff, "look_at_top_card", code="outside_window", foe=1, bottom=0,
            chance={"looked": [top]})


# -- Ser Jacelyn Bywater -------------------------------------------------------------------
# core_047: "When he dies, every opponent discards one random card from hand."
def test_core_047_jacelyn_dying_makes_each_opponent_discard_a_random_card() -> None:
    b = Board(houses=("Lannister", "Stark", "Baratheon"), phase="challenges")
    jacelyn = b.dead(0, "core_047")
    c1 = b.hand(1, "core_013")
    b.hand(1, "core_020")
    c2 = b.hand(2, "core_021")
    after = answer(b.state, 0, jacelyn, "random_discard", {"card": jacelyn, "seat": 0},
                   chance={"random": [c1, c2]})
    assert after.players[1].discard == (c1,) and after.players[2].discard == (c2,)
    assert len(after.players[1].hand) == 1 and len(after.players[2].hand) == 0
    answer_refused(b.state, 0, jacelyn, "random_discard", {"card": jacelyn, "seat": 0},
                   code="chance_missing", chance={"random": [c1]})  # ruling 34


def _jacelyn_killed(mode: str) -> tuple[State, str, list[str], str]:
    """Bo's Host of Storm's End (STR 6, claim 2) wins a military challenge against Anna,
    whose only defender is Ser Jacelyn (STR 3): the claim kills him, through the real rules.
    Bo holds two cards, Cy one, Anna one of her own."""
    b = Board(houses=("Lannister", "Baratheon", "Stark"), phase="challenges", mode=mode)
    jacelyn = b.play(0, "core_047")
    host = b.play(1, "core_089")
    b.revealed_plot(1, "core_200")  # claim 2
    theirs = [b.hand(1, "core_085"), b.hand(1, "core_089"), b.hand(2, "core_013")]
    mine = b.hand(0, "core_050")
    b.challenge("military", attacker=1, defender=0, attackers=[host], defenders=[jacelyn])
    won = act(b.state, "resolve_challenge", 1)
    dead = act(won, "apply_claim", 0, kills=[jacelyn])
    assert jacelyn in dead.players[0].dead
    return dead, jacelyn, theirs, mine


def test_core_047_in_digital_play_the_rules_use_jacelyn_with_the_servers_deal() -> None:
    """Ruling 39 (L18): nobody chooses anything, so the server uses him for Anna at his
    death, dealing one random card of each opponent's hand; each discards exactly that
    card, Anna none, and he is used once."""
    dead, jacelyn, (bo1, bo2, cy), mine = _jacelyn_killed("digital")
    move = RULES.auto_action(dead)
    assert move == {"type": "use_ability", "actor": 0,
                    "data": {"card": jacelyn, "ability": "random_discard"}}
    for seed in ("one", "two", "three"):
        data = RULES.fill_chance(dead, Action.of("use_ability", 0, move["data"]),
                                 Dealer(seed, 1))
        (bo_card, cy_card) = data["random"]
        assert bo_card in (bo1, bo2) and cy_card == cy
        after = act(dead, "use_ability", 0, **data)
        assert after.players[1].discard == (bo_card,) and after.players[2].discard == (cy,)
        assert set(after.players[1].hand) == {bo1, bo2} - {bo_card}
        assert not after.players[2].hand and set(after.players[0].hand) == {mine}
        assert RULES.auto_action(after) is None  # once: the death is answered
    with pytest.raises(IllegalAction) as err:  # the deal is the server's, ruling 34
        act(dead, "use_ability", 0, **move["data"])
    assert err.value.code == "chance_missing" and "Ser Jacelyn Bywater" in err.value.message


def test_core_047_at_a_table_jacelyn_is_recorded_with_the_cards_tapped() -> None:
    """Ruling 39 at a table: the rules use nothing by themselves; the recorder is offered
    his use while his death is open, and records it with the random cards seen."""
    dead, jacelyn, (bo1, _bo2, cy), _ = _jacelyn_killed("table")
    assert RULES.auto_action(dead) is None
    assert {(m["data"]["card"], m["data"]["ability"]) for m in offered(dead, 0)} == {
        (jacelyn, "random_discard")}
    slots = RULES.chance_slots(dead, Action.of("use_ability", 0, {
        "card": jacelyn, "ability": "random_discard", "choices": {}}))
    assert [s["field"] for s in slots or []] == ["random", "random"]
    after = act(dead, "use_ability", 0, card=jacelyn, ability="random_discard",
                random=[bo1, cy])
    assert after.players[1].discard == (bo1,) and after.players[2].discard == (cy,)


def test_core_047_jacelyn_in_play_answers_nothing() -> None:
    b = lannister(phase="challenges")
    jacelyn = b.play(0, "core_047")
    refused(b.state, 0, jacelyn, "random_discard", code="not_in_zone")


# -- Enemy Informer ------------------------------------------------------------------------
# core_048: "When you play it from hand, kneel a character of your choice."
def test_core_048_enemy_informer_kneels_a_character_when_marshalled() -> None:
    b = lannister()
    informer = b.play(0, "core_048")
    eddard = b.play(1, "core_005")
    after = answer(b.state, 0, informer, "kneel_on_marshal", {"card": informer, "seat": 0},
                   victim=eddard)
    assert knelt(after, eddard)
    b.play(1, "core_006", knelt=True)
    answer_refused(after, 0, informer, "kneel_on_marshal", {"card": informer, "seat": 0},
                   code="wrong_target", victim=eddard)  # already knelt
    refused(b.state, 0, informer, "kneel_on_marshal", code="outside_window", victim=eddard)


@needs("marshalled")
def test_core_048_enemy_informer_answers_its_own_marshalling() -> None:
    b = lannister(gold=3)
    informer = b.hand(0, "core_048")
    eddard = b.play(1, "core_005")
    state = act(b.state, "marshal_card", 0, card=informer)
    after = use(state, 0, informer, "kneel_on_marshal", victim=eddard)
    assert knelt(after, eddard)


# -- Qyburn's Informers --------------------------------------------------------------------
# core_049: "After you win an intrigue challenge they joined, draw 2 cards."
def test_core_049_qyburns_informers_draw_two() -> None:
    b = lannister()
    informers = b.play(0, "core_049")
    one, two = b.deck(0, "core_050"), b.deck(0, "core_052")
    b.challenge("intrigue", attackers=[informers], winner=0, step="resolved")
    after = answer(b.state, 0, informers, "draw_two", dict(WON, type="intrigue"),
                   chance={"drawn": [one, two]})
    assert {one, two} <= set(after.players[0].hand)
    refused(b.state, 0, informers, "draw_two", code="outside_window")


@needs("challenge_won")
def test_core_049_qyburns_informers_only_answer_an_intrigue_win_they_joined() -> None:
    b = lannister(phase="challenges")
    informers = b.play(0, "core_049")
    other = b.play(0, "core_053")
    b.deck(0, "core_050")
    b.revealed_plot(0, "core_190")
    b.revealed_plot(1, "core_184")
    b.challenge("intrigue", attackers=[other])
    after = act(b.state, "resolve_challenge", 0)
    refused(after, 0, informers, "draw_two", code="outside_window")


# -- Cersei's Attendant --------------------------------------------------------------------
# core_050: "When Cersei or one of these attendants dies, kneel a character of your choice."
def test_core_050_attendant_kneels_a_character_when_cersei_or_an_attendant_dies() -> None:
    b = lannister(phase="challenges")
    attendant = b.play(0, "core_050")
    cersei = b.dead(0, "core_039")
    fallen = b.dead(0, "core_050")
    eddard = b.play(1, "core_005")
    after = answer(b.state, 0, attendant, "cersei_died", {"card": cersei, "seat": 0},
                   victim=eddard)
    assert knelt(after, eddard)
    after = answer(b.state, 0, attendant, "attendant_died", {"card": fallen, "seat": 0},
                   victim=eddard)
    assert knelt(after, eddard)
    after = answer(b.state, 0, fallen, "self_died", {"card": fallen, "seat": 0},
                   victim=eddard)
    assert knelt(after, eddard)
    answer_refused(b.state, 0, attendant, "self_died", {"card": attendant, "seat": 0},
                   code="not_in_zone", victim=eddard)
    answer_refused(b.state, 0, attendant, "cersei_died", {"card": cersei, "seat": 0},
                   code="wrong_target", victim=b.play(1, "core_006", knelt=True))
    refused(b.state, 0, attendant, "cersei_died", code="outside_window", victim=eddard)


# -- Lannisport Honor Guard ----------------------------------------------------------------
# core_054: "During challenges you may place it into play for an opponent; you regain it
# after that opponent wins a challenge it joined."
def test_core_054_honor_guard_is_lent_to_an_opponent_during_challenges() -> None:
    b = lannister(phase="challenges")
    guard = b.hand(0, "core_054")
    after = use(b.state, 0, guard, "lend", to=1)
    assert card_of(after, guard).controller == 1 and guard not in after.players[0].hand
    refused(b.state, 0, guard, "lend", code="wrong_target", to=0)
    b.set(phase="marshalling")
    refused(b.state, 0, guard, "lend", code="outside_window", to=1)
    refused(after, 0, guard, "lend", code="not_your_card", to=1)


def test_core_054_honor_guard_returns_to_its_owner_after_the_borrower_wins_with_it() -> None:
    b = lannister(phase="challenges")
    guard = b.play(0, "core_054", controller=1)
    b.challenge("military", attacker=1, defender=0, attackers=[guard], winner=1,
                step="resolved")
    won = dict(WON, winner=1, loser=0, attacker=1, defender=0)
    after = answer(b.state, 1, guard, "regain", won)
    assert card_of(after, guard).controller == 0
    answer_refused(b.state, 0, guard, "regain", won, code="not_your_card")
    own = lannister(phase="challenges")
    mine = own.play(0, "core_054")
    assert answer(own.state, 0, mine, "regain", WON).cards == own.state.cards


# -- Lannisport ----------------------------------------------------------------------------
# core_055: "After you win an intrigue challenge, pay 1 gold to put 1 power on your House
# card (once per challenge)."
def test_core_055_lannisport_puts_a_power_on_the_house_once_per_challenge() -> None:
    b = lannister(gold=2)
    port = b.play(0, "core_055")
    b.challenge("intrigue", attackers=[b.play(0, "core_053")], winner=0, step="resolved")
    won = dict(WON, type="intrigue")
    after = answer(b.state, 0, port, "house_power", won)
    assert after.players[0].house_power == 1 and after.players[0].gold == 1
    answer_refused(after, 0, port, "house_power", won, code="limit_reached")
    b.gold(0, 0)
    answer_refused(b.state, 0, port, "house_power", won, code="cannot_pay")
    refused(b.state, 0, port, "house_power", code="outside_window")


@needs("challenge_won")
def test_core_055_lannisport_answers_an_intrigue_win() -> None:
    b = lannister(phase="challenges", gold=1)
    port = b.play(0, "core_055")
    tyrion = b.play(0, "core_038")
    b.revealed_plot(0, "core_190")
    b.revealed_plot(1, "core_184")
    b.challenge("intrigue", attackers=[tyrion])
    state = act(b.state, "resolve_challenge", 0)
    after = use(state, 0, port, "house_power")
    assert after.players[0].house_power == state.players[0].house_power + 1


# -- Golden Tooth Mines --------------------------------------------------------------------
# core_057: "You draw a card each time you reveal a plot."
def test_core_057_golden_tooth_mines_draws_a_card_on_a_reveal() -> None:
    b = lannister(phase="plot", step="first_player")
    mines = b.play(0, "core_057")
    top = b.deck(0, "core_050")
    after = answer(b.state, 0, mines, "draw_on_reveal", {"seat": 0, "plot": "p0-190"},
                   chance={"drawn": [top]})
    assert after.players[0].hand == (top,) or top in after.players[0].hand
    refused(b.state, 0, mines, "draw_on_reveal", code="outside_window")


# -- the marshalling discounts -------------------------------------------------------------
# core_058/059 Western Fiefdoms: "Kneel: the next House Lannister card you marshal this
# phase costs 1 less."
@pytest.mark.parametrize("card", ["core_058", "core_059"])
def test_core_058_059_western_fiefdoms_make_a_lannister_card_cost_one_less(card: str) -> None:
    b = lannister()
    fief = b.play(0, card)
    chambers = b.hand(0, "core_055")  # a Lannister location, cost 2
    neutral = b.hand(0, "core_143")  # Crossroads: neutral, cost 2
    after = use(b.state, 0, fief, "lannister_discount")
    assert knelt(after, fief)
    assert marshal_cost(after, 0, chambers, ED)[0] == 1
    assert marshal_cost(after, 0, neutral, ED)[0] == 2
    refused(after, 0, fief, "lannister_discount", code="cannot_pay")
    b.set(phase="challenges")
    refused(b.state, 0, fief, "lannister_discount", code="outside_window")


# core_064 Hall of Heroes: "Kneel: the next House Lannister character you marshal this
# phase costs 2 less."
def test_core_064_hall_of_heroes_makes_a_lannister_character_cost_two_less() -> None:
    b = lannister()
    hall = b.play(0, "core_064")
    tyrion = b.hand(0, "core_038")  # cost 4
    port = b.hand(0, "core_055")  # a location, cost 2
    after = use(b.state, 0, hall, "lannister_character_discount")
    assert marshal_cost(after, 0, tyrion, ED)[0] == 2
    assert marshal_cost(after, 0, port, ED)[0] == 2
    refused(after, 0, hall, "lannister_character_discount", code="cannot_pay")
    b.set(phase="dominance")
    refused(b.state, 0, hall, "lannister_character_discount", code="outside_window")


# core_065 Sunset Sea: "Discard it from play: the next Lannister or Greyjoy character you
# marshal this phase costs 2 less." (card ruling L2: the core set has no Greyjoy character)
def test_core_065_sunset_sea_is_discarded_for_two_less() -> None:
    b = lannister()
    sea = b.play(0, "core_065")
    tyrion = b.hand(0, "core_038")
    after = use(b.state, 0, sea, "character_discount")
    assert sea in after.players[0].discard and not in_play(after, sea)
    assert marshal_cost(after, 0, tyrion, ED)[0] == 2
    refused(after, 0, sea, "character_discount", code="not_in_zone")
    b.set(phase="challenges")
    refused(b.state, 0, sea, "character_discount", code="outside_window")


# core_144 Shadowblack Lane: "Kneel: the next character with an intrigue icon you marshal
# this phase costs 1 less."
def test_core_144_shadowblack_lane_makes_an_intrigue_character_cost_one_less() -> None:
    b = lannister()
    lane = b.play(0, "core_144")
    tyrion = b.hand(0, "core_038")  # intrigue icon, cost 4
    hound = b.hand(0, "core_042")  # military only, cost 2
    after = use(b.state, 0, lane, "intrigue_discount")
    assert marshal_cost(after, 0, tyrion, ED)[0] == 3
    assert marshal_cost(after, 0, hound, ED)[0] == 2
    refused(after, 0, lane, "intrigue_discount", code="cannot_pay")
    refused(b.state, 1, lane, "intrigue_discount", code="not_your_card")


# -- Varys ---------------------------------------------------------------------------------
# core_142: "Plot phase, melee only: kneel him to trade plot decks and used plots with an
# opponent for the round."
def test_core_142_varys_trades_plot_decks_in_a_melee() -> None:
    b = Board(houses=("Lannister", "Stark", "Baratheon"), phase="plot", step="choose")
    varys = b.play(0, "core_142")
    after = use(b.state, 0, varys, "trade_plot_decks", foe=2)
    assert knelt(after, varys)
    assert after != b.state
    refused(after, 0, varys, "trade_plot_decks", code="cannot_pay", foe=1)
    refused(b.state, 0, varys, "trade_plot_decks", code="wrong_target", foe=0)
    b.set(phase="marshalling", step="")
    refused(b.state, 0, varys, "trade_plot_decks", code="outside_window", foe=1)


def test_core_142_varys_is_refused_in_a_two_player_game() -> None:
    b = lannister(phase="plot", step="choose")
    varys = b.play(0, "core_142")
    refused(b.state, 0, varys, "trade_plot_decks", code="condition_failed", foe=1)
    assert offered(b.state, 0) == []


# -- I Never Bet Against My Family ---------------------------------------------------------
# core_161: "Pay X gold and kneel a Lannister character to cut an opponent's claim by X for
# this challenge." (card ruling L4: the defender cuts the attacker's claim)
def test_core_161_never_bet_cuts_the_attackers_claim_by_x() -> None:
    from projections.thrones.apply.rounds import plot_value
    b = Board(houses=("Stark", "Lannister"), phase="challenges", gold=0)
    b.gold(1, 2)
    b.revealed_plot(0, "core_182")  # claim 2
    b.revealed_plot(1, "core_190")
    bet = b.hand(1, "core_161")
    tyrion = b.play(1, "core_038")
    eddard = b.play(0, "core_005")
    b.challenge("military", attacker=0, defender=1, attackers=[eddard],
                step="attackers_declared")  # the defender acts (ruling 28)
    after = use(b.state, 1, bet, "cut_claim", x=2, kneeler=tyrion)
    assert plot_value(after, 0, "claim", ED) == 0
    assert after.players[1].gold == 0 and knelt(after, tyrion)
    assert bet in after.players[1].discard
    refused(b.state, 1, bet, "cut_claim", code="cannot_pay", x=3, kneeler=tyrion)
    refused(b.state, 1, bet, "cut_claim", code="wrong_target", x=1, kneeler=eddard)
    b.set(challenge=None)
    refused(b.state, 1, bet, "cut_claim", code="outside_window", x=1, kneeler=tyrion)


def test_core_161_never_bet_is_refused_to_the_attacker() -> None:
    b = lannister(phase="challenges", gold=2)
    b.revealed_plot(0, "core_190")
    b.revealed_plot(1, "core_182")
    bet = b.hand(0, "core_161")
    tyrion = b.play(0, "core_038")
    jaime = b.play(0, "core_037")
    b.challenge("military", attackers=[jaime])
    refused(b.state, 0, bet, "cut_claim", code="condition_failed", x=1, kneeler=tyrion)


# -- Insidious Ways ------------------------------------------------------------------------
# core_163: "An attacking Lannister character gets +2 STR until phase end; draw 2 if you win
# that challenge." (ruling L27: the draw is its player's answer to the win of the challenge
# it was played in, from the discard pile)
def test_core_163_insidious_ways_gives_an_attacker_two_strength() -> None:
    b = lannister(phase="challenges")
    ways = b.hand(0, "core_163")
    jaime = b.play(0, "core_037")  # STR 3
    home = b.play(0, "core_038")
    b.challenge("military", attackers=[jaime])
    after = use(b.state, 0, ways, "attacker_strength", attacker=jaime)
    assert strength(after, jaime, ED) == 5 and ways in after.players[0].discard
    refused(b.state, 0, ways, "attacker_strength", code="wrong_target", attacker=home)
    b.set(challenge=None)
    refused(b.state, 0, ways, "attacker_strength", code="outside_window", attacker=jaime)


def _ways_in_a_challenge() -> tuple[Board, str, str, list[str]]:
    """Seat 0 attacks alone with Jaime (STR 3) against nobody, Insidious Ways in hand and
    two cards in the deck."""
    b = lannister(phase="challenges")
    ways = b.hand(0, "core_163")
    jaime = b.play(0, "core_037")
    top = [b.deck(0, "core_053"), b.deck(0, "core_041")]
    b.revealed_plot(0, "core_190")
    b.revealed_plot(1, "core_184")
    b.challenge("intrigue", attackers=[jaime], defenders=[])
    return b, ways, jaime, top


@needs("challenge_won")
def test_core_163_insidious_ways_draws_two_when_you_win_that_challenge() -> None:
    b, ways, jaime, top = _ways_in_a_challenge()
    played = use(b.state, 0, ways, "attacker_strength", attacker=jaime)
    won = act(played, "resolve_challenge", 0)
    assert won.window is not None and won.window.waiting == (0,)  # its player is asked
    after = use(won, 0, ways, "draw_on_win", chance={"drawn": top})
    assert set(top) <= set(after.players[0].hand)  # draw 2
    refused(after, 0, ways, "draw_on_win", code="outside_window", chance={"drawn": []})


@needs("challenge_won")
def test_core_163_insidious_ways_draws_only_for_the_challenge_it_was_played_in() -> None:
    b, ways, jaime, top = _ways_in_a_challenge()
    old = b.discard(0, "core_163")  # another copy, not played in this challenge
    won = act(b.state, "resolve_challenge", 0)
    assert won.window is None or not won.window.waiting  # nobody is asked
    answer_refused(won, 0, old, "draw_on_win", dict(WON, type="intrigue"),
                   code="condition_failed", chance={"drawn": top})
    refused(b.state, 0, old, "draw_on_win", code="outside_window", chance={"drawn": top})
    # played, but the challenge lost (the defender wins: Jaime knelt out of it)
    played = use(b.state, 0, ways, "attacker_strength", attacker=jaime)
    lost = replace(played, challenge=replace(played.challenge, attackers=()),
                   cards=tuple(replace(c, knelt=True) for c in played.cards))
    lost = act(lost, "resolve_challenge", 0)
    refused(lost, 0, ways, "draw_on_win", code="outside_window", chance={"drawn": top})


@needs("challenge_won")
def test_core_163_insidious_ways_draws_exactly_two_cards() -> None:
    b, ways, jaime, top = _ways_in_a_challenge()
    won = act(use(b.state, 0, ways, "attacker_strength", attacker=jaime),
              "resolve_challenge", 0)
    refused(won, 0, ways, "draw_on_win", code="chance_missing", chance={"drawn": top[:1]})


# -- Lannisport Brothel --------------------------------------------------------------------
# core_056: "When a knelt character stands in the standing phase, kneel the Brothel to knock
# that character down again." (ruling L25: any player's character, answered right after
# end_round stood it)
def _brothel_at_round_end() -> tuple[Board, str, str, str]:
    b = lannister(phase="dominance")
    b.set(dominance_done=True)
    brothel = b.play(0, "core_056", knelt=True)  # it stands too, then kneels as the cost
    eddard = b.play(1, "core_005", knelt=True)
    jaime = b.play(0, "core_037", knelt=True)
    return b, brothel, eddard, jaime


@needs("stands")
def test_core_056_brothel_kneels_again_a_character_that_stood() -> None:
    b, brothel, eddard, jaime = _brothel_at_round_end()
    stood = act(b.state, "end_round", "table")
    assert not knelt(stood, eddard) and not knelt(stood, brothel)
    assert stood.window is not None and stood.window.waiting == (0,)
    after = use(stood, 0, brothel, "kneel_again", victim=eddard)  # an opponent's character
    assert knelt(after, eddard) and knelt(after, brothel) and not knelt(after, jaime)
    mine = use(stood, 0, brothel, "kneel_again", victim=jaime)  # or its own
    assert knelt(mine, jaime)


@needs("stands")
def test_core_056_brothel_is_refused_outside_the_standing_phase_or_without_its_cost() -> None:
    b, brothel, eddard, _ = _brothel_at_round_end()
    refused(b.state, 0, brothel, "kneel_again", code="outside_window", victim=eddard)
    stood = act(b.state, "end_round", "table")
    refused(stood, 0, brothel, "kneel_again", code="wrong_target", victim=brothel)
    # a character that stood in another phase, though its trigger is open, is not offered
    tyrion = b.play(1, "core_038")
    other = Trigger("stands", (("card", tyrion), ("seat", 1), ("phase", "plot")))
    assert stood.window is not None
    late = replace(stood, cards=(*stood.cards, card_of(b.state, tyrion)),
                   window=replace(stood.window, triggers=(*stood.window.triggers, other)))
    refused(late, 0, brothel, "kneel_again", code="wrong_target", victim=tyrion)
    spent = replace(stood, cards=tuple(replace(c, knelt=c.id == brothel)
                                       for c in stood.cards))
    refused(spent, 0, brothel, "kneel_again", code="cannot_pay", victim=eddard)
    # a character stood by an ability, not by the standing phase, is not its to answer
    b.set(phase="marshalling")
    b.state = replace(b.state, cards=tuple(replace(c, knelt=False) for c in b.state.cards))
    answer_refused(b.state, 0, brothel, "kneel_again",
                   {"card": eddard, "seat": 1, "phase": "marshalling"},
                   code="outside_window", victim=eddard)


@needs("stands")
def test_core_056_brothel_answers_once_a_round() -> None:
    b, brothel, eddard, jaime = _brothel_at_round_end()
    assert knelt(b.state, jaime)
    stood = act(b.state, "end_round", "table")
    after = use(stood, 0, brothel, "kneel_again", victim=eddard)
    refused(after, 0, brothel, "kneel_again", code="outside_window", victim=jaime)
    # at a table, where nothing waits, the stood Jaime's trigger is open: the cost is spent
    b.set(mode="table")
    stood = act(b.state, "end_round", "table")
    after = use(stood, 0, brothel, "kneel_again", victim=eddard)
    refused(after, 0, brothel, "kneel_again", code="cannot_pay", victim=jaime)


# -- Grand Maester Pycelle -----------------------------------------------------------------
# core_045: "When an opponent's effect reveals cards, reveal your top card and take it (3 per
# phase at most)." (ruling L26: an effect reveals cards when it shows cards of a deck or a
# hand: a search shown, Call Their Bluff's hands)
def _kennels_search() -> tuple[Board, str, str, str, str]:
    """Seat 1 (Stark) may search its deck for a Direwolf with Winterfell Kennels and show
    it; seat 0 holds Pycelle and a deck."""
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", turn=1)
    pycelle = b.play(0, "core_045")
    top = b.deck(0, "core_053")
    kennels = b.play(1, "core_024")
    wolf = b.deck(1, "core_019")
    b.gold(1, 1)
    return b, pycelle, top, kennels, wolf


@needs("cards_revealed")
def test_core_045_pycelle_takes_his_top_card_when_an_opponent_reveals_cards() -> None:
    b, pycelle, top, kennels, wolf = _kennels_search()
    shown = use(b.state, 1, kennels, "fetch_direwolf", wolf=wolf)
    assert shown.window is not None and shown.window.waiting == (0,)
    after = use(shown, 0, pycelle, "take_top_card", chance={"drawn": [top]})
    assert top in after.players[0].hand and top not in after.players[0].deck


@needs("cards_revealed")
def test_core_045_pycelle_answers_only_an_opponents_reveal() -> None:
    b, pycelle, top, _, _ = _kennels_search()
    refused(b.state, 0, pycelle, "take_top_card", code="outside_window",
            chance={"drawn": [top]})
    # his own player's search is not an opponent's effect
    own = b.play(0, "core_024")
    pup = b.deck(0, "core_019")
    b.gold(0, 1)
    b.set(turn=0)
    shown = use(b.state, 0, own, "fetch_direwolf", wolf=pup)
    refused(shown, 0, pycelle, "take_top_card", code="outside_window",
            chance={"drawn": [top]})
    # a use that shows nothing (Distraction kneels a character) is no reveal
    b.set(turn=1)
    distraction = b.hand(1, "core_155")
    jaime = b.play(0, "core_037")
    knelt_now = use(b.state, 1, distraction, "kneel_military", victim=jaime)
    refused(knelt_now, 0, pycelle, "take_top_card", code="outside_window",
            chance={"drawn": [top]})


@needs("cards_revealed")
def test_core_045_pycelle_takes_three_cards_a_phase_at_most() -> None:
    b, pycelle, top, kennels, wolf = _kennels_search()
    shown = use(b.state, 1, kennels, "fetch_direwolf", wolf=wolf)
    stamp = f"r{shown.round}:{shown.phase}"
    thrice = replace(shown, ability_uses=((pycelle, "take_top_card", stamp),) * 3)
    refused(thrice, 0, pycelle, "take_top_card", code="limit_reached",
            chance={"drawn": [top]})
    twice = replace(shown, ability_uses=((pycelle, "take_top_card", stamp),) * 2)
    assert top in use(twice, 0, pycelle, "take_top_card", chance={"drawn": [top]}
                      ).players[0].hand


# -- Call Their Bluff ----------------------------------------------------------------------
# core_164: "Dominance: pay 2 gold and name a card; opponents show their hands and discard
# every copy."
def test_core_164_call_their_bluff_discards_every_copy_of_the_named_card() -> None:
    b = lannister(phase="dominance", gold=2)
    bluff = b.hand(0, "core_164")
    wolf1, wolf2 = b.hand(1, "core_019"), b.hand(1, "core_019")  # Direwolf Pup twice
    kept = b.hand(1, "core_013")
    after = use(b.state, 0, bluff, "name_a_card", named="Direwolf Pup")
    assert set(after.players[1].discard) == {wolf1, wolf2}
    assert list(after.players[1].hand) == [kept]
    assert after.players[0].gold == 0 and bluff in after.players[0].discard
    refused(b.state, 0, bluff, "name_a_card", code="wrong_target", named="No Such Card")
    b.gold(0, 1)
    refused(b.state, 0, bluff, "name_a_card", code="cannot_pay", named="Direwolf Pup")
    b.set(phase="marshalling")
    refused(b.state, 0, bluff, "name_a_card", code="outside_window", named="Direwolf Pup")


# -- I'm You Writ Small --------------------------------------------------------------------
# core_165: "A character gains deadly until phase end; the card then stays on a Lannister
# character as a +2 STR boon." (card ruling L22)
def test_core_165_writ_small_gives_deadly_this_phase() -> None:
    b = lannister(phase="challenges")
    writ = b.hand(0, "core_165")
    tyrion = b.play(0, "core_038")
    bran = b.play(1, "core_013")
    after = use(b.state, 0, writ, "deadly_boon", victim=bran, host=tyrion)
    assert has_keyword(after, bran, "deadly", ED)
    refused(b.state, 0, writ, "deadly_boon", code="wrong_target", victim=tyrion, host=bran)
    refused(after, 0, writ, "deadly_boon", code="not_in_zone", victim=tyrion, host=tyrion)


def test_core_165_writ_small_stays_on_the_lannister_character_as_a_two_strength_boon() -> None:
    b = lannister(phase="challenges")
    writ = b.hand(0, "core_165")
    tyrion = b.play(0, "core_038")  # printed STR 3
    bran = b.play(1, "core_013")
    after = use(b.state, 0, writ, "deadly_boon", victim=bran, host=tyrion)
    assert writ not in after.players[0].hand and writ not in after.players[0].discard
    assert card_of(after, writ).host == tyrion and card_of(after, writ).controller == 0
    assert strength(after, tyrion, ED) == 3 + 2
    assert strength(after, bran, ED) == strength(b.state, bran, ED)  # only its bearer
    from projections.thrones.apply.rounds import set_phase

    later = set_phase(after, "dominance")  # the deadly ends with the phase, the boon stays
    assert not has_keyword(later, bran, "deadly", ED) and strength(later, tyrion, ED) == 5
    refused(after, 0, writ, "boon_strength", code="applies_by_itself")


def test_core_165_writ_small_goes_to_the_discard_pile_when_its_bearer_leaves_play() -> None:
    from projections.thrones.apply.zones import leave_play

    b = lannister(phase="challenges")
    writ = b.hand(0, "core_165")
    tyrion = b.play(0, "core_038")
    after = use(b.state, 0, writ, "deadly_boon", victim=tyrion, host=tyrion)
    gone = leave_play(after, tyrion, "dead", ED)
    assert writ in gone.players[0].discard and not any(c.id == writ for c in gone.cards)


def test_core_165_writ_small_on_an_opponent_s_lannister_character() -> None:
    """The host is any Lannister character (the summary names no controller); the card
    stays under its player's control, its bearer the opponent's."""
    b = Board(houses=("Lannister", "Lannister"), phase="challenges")
    writ = b.hand(0, "core_165")
    theirs = b.play(1, "core_038")
    after = use(b.state, 0, writ, "deadly_boon", victim=theirs, host=theirs)
    assert card_of(after, writ).host == theirs and strength(after, theirs, ED) == 5


# -- A Lannister Pays His Debts ------------------------------------------------------------
# core_166: "After losing a challenge, kneel a Lannister character to kill one winning
# participant."
def test_core_166_lannister_debts_kill_a_winning_participant() -> None:
    b = lannister(phase="challenges")
    debts = b.hand(0, "core_166")
    tyrion = b.play(0, "core_038")
    eddard = b.play(1, "core_005")
    bystander = b.play(1, "core_006")
    b.challenge("military", attacker=1, defender=0, attackers=[eddard], winner=1,
                step="resolved")
    lost = dict(WON, winner=1, loser=0, attacker=1, defender=0)
    after = answer(b.state, 0, debts, "kill_winner", lost, kneeler=tyrion, victim=eddard)
    assert eddard in after.players[1].dead and knelt(after, tyrion)
    assert debts in after.players[0].discard
    answer_refused(b.state, 0, debts, "kill_winner", lost, code="wrong_target",
                   kneeler=tyrion, victim=bystander)
    answer_refused(b.state, 0, debts, "kill_winner", lost, code="wrong_target",
                   kneeler=b.play(0, "core_143"), victim=eddard)
    refused(b.state, 0, debts, "kill_winner", code="outside_window", kneeler=tyrion,
            victim=eddard)


# -- You've Killed the Wrong Dwarf! --------------------------------------------------------
# core_167: "Kneel a character without the Noble crest; it then gains 1 power."
def test_core_167_wrong_dwarf_kneels_a_commoner_who_gains_a_power() -> None:
    b = lannister(phase="challenges")
    dwarf = b.hand(0, "core_167")
    arya = b.play(1, "core_007")  # no crest
    eddard = b.play(1, "core_005")  # noble
    after = use(b.state, 0, dwarf, "kneel_commoner", victim=arya)
    assert knelt(after, arya) and card_of(after, arya).power == 1
    refused(b.state, 0, dwarf, "kneel_commoner", code="wrong_target", victim=eddard)
    refused(after, 0, dwarf, "kneel_commoner", code="not_in_zone", victim=arya)
    stark = Board(houses=("Stark", "Lannister"), phase="challenges")
    foreign = stark.hand(0, "core_167")
    master = stark.play(1, "core_020")
    refused(stark.state, 0, foreign, "kneel_commoner", code="house_only", victim=master)


# -- Shae ----------------------------------------------------------------------------------
# core_178: "Kneel her to kneel a character controlled by a player who has more power than
# you."
def test_core_178_shae_kneels_a_character_of_a_stronger_player() -> None:
    b = lannister(phase="challenges")
    shae = b.play(0, "core_178")
    eddard = b.play(1, "core_005")
    b.house_power(1, 2)
    b.house_power(0, 1)
    after = use(b.state, 0, shae, "kneel_the_mighty", victim=eddard)
    assert knelt(after, eddard) and knelt(after, shae)
    catelyn = b.play(1, "core_006")
    refused(replace(after, cards=(*after.cards, card_of(b.state, catelyn))), 0, shae,
            "kneel_the_mighty", code="cannot_pay", victim=catelyn)
    b.house_power(0, 2)  # equal power: no longer "more"
    refused(b.state, 0, shae, "kneel_the_mighty", code="wrong_target", victim=eddard)


# -- the Lannister plots -------------------------------------------------------------------
# core_188 Drunken Allegations: "You and one chosen opponent each kneel one of your standing
# characters." (card ruling L6: the opponent chooses its own, ruling 33; the reveal in
# test_when_revealed.py)
def test_core_188_drunken_allegations_kneels_one_character_each() -> None:
    b = lannister(phase="plot", step="first_player")
    b.revealed_plot(0, "core_188")
    tyrion = b.play(0, "core_038")
    eddard = b.play(1, "core_005")
    after = answer(b.state, 0, "plot:0", "both_kneel", {"seat": 0}, mine=tyrion, foe=1,
                   theirs=eddard)
    assert knelt(after, tyrion) and knelt(after, eddard)
    answer_refused(b.state, 0, "plot:0", "both_kneel", {"seat": 0}, code="wrong_target",
                   mine=tyrion, foe=1, theirs=tyrion)
    answer_refused(b.state, 0, "plot:0", "both_kneel", {"seat": 0}, code="wrong_target",
                   mine=tyrion, foe=1)  # Eddard stands: the opponent must kneel one
    refused(b.state, 0, "plot:0", "both_kneel", code="outside_window", mine=tyrion, foe=1,
            theirs=eddard)


def test_core_188_drunken_allegations_skips_a_player_without_standing_characters() -> None:
    b = lannister(phase="plot", step="first_player")
    b.revealed_plot(0, "core_188")
    b.play(1, "core_005", knelt=True)
    after = answer(b.state, 0, "plot:0", "both_kneel", {"seat": 0}, foe=1)
    assert after.cards == b.state.cards


# core_189 Mutual Blackmail: "Melee: you and one chosen opponent may not start intrigue
# challenges against each other this round." (card ruling L3)
def test_core_189_mutual_blackmail_forbids_intrigue_between_two_in_a_melee() -> None:
    b = Board(houses=("Lannister", "Stark", "Baratheon"), phase="plot", step="first_player")
    b.revealed_plot(0, "core_189")
    after = answer(b.state, 0, "plot:0", "no_intrigue", {"seat": 0}, foe=1)
    assert after.forbids == ((0, 1, "intrigue"),)
    duel = lannister(phase="plot", step="first_player")
    duel.revealed_plot(0, "core_189")
    assert answer(duel.state, 0, "plot:0", "no_intrigue", {"seat": 0}, foe=1) == duel.state
    answer_refused(b.state, 0, "plot:0", "no_intrigue", {"seat": 0}, code="wrong_target",
                   foe=0)


# core_190 Planning Ahead: "You skip the taxation phase this round and keep unspent gold."
def test_core_190_planning_ahead_keeps_the_gold_at_taxation() -> None:
    b = lannister(phase="plot", step="first_player", gold=0)
    b.revealed_plot(0, "core_190")
    after = answer(b.state, 0, "plot:0", "keep_gold", {"seat": 0})
    later = replace(after, phase="dominance", dominance_done=True)
    later = later.with_player(0, gold=4).with_player(1, gold=4)
    ended = act(later, "end_round", "table")
    assert ended.players[0].gold == 4 and ended.players[1].gold == 0


# core_191 Wildfire Assault: "Every player keeps at most 3 of their characters; all others
# are killed." (card ruling L6: each player chooses its own, ruling 33; the reveal in
# test_when_revealed.py)
def test_core_191_wildfire_assault_kills_all_but_three_of_each_player() -> None:
    b = lannister(phase="plot", step="first_player")
    b.revealed_plot(0, "core_191")
    mine = [b.play(0, c) for c in ("core_037", "core_038", "core_039", "core_040")]
    theirs = [b.play(1, c) for c in ("core_005", "core_006")]
    after = answer(b.state, 0, "plot:0", "keep_three", {"seat": 0}, keep=mine[:3])
    assert after.players[0].dead == (mine[3],) and after.players[1].dead == ()
    answer_refused(b.state, 0, "plot:0", "keep_three", {"seat": 0}, code="wrong_target",
                   keep=mine[:2])  # Anna must keep 3
    answer_refused(b.state, 0, "plot:0", "keep_three", {"seat": 0}, code="wrong_target",
                   keep=[*mine[:3], theirs[0]])  # Bo keeps both of his without a choice


# core_192 Hear Me Roar: "Lannister only; characters without an intrigue icon get -1 STR."
# (card ruling L5)
def test_core_192_hear_me_roar_weakens_characters_without_intrigue() -> None:
    b = lannister(phase="plot", step="first_player")
    b.revealed_plot(0, "core_192")
    hound = b.play(0, "core_042")  # military only, STR 4
    tyrion = b.play(0, "core_038")  # intrigue, STR 3
    eddard = b.play(1, "core_005")  # STR 3, no intrigue
    after = answer(b.state, 0, "plot:0", "weaken", {"seat": 0})
    assert (strength(after, hound, ED), strength(after, tyrion, ED),
            strength(after, eddard, ED)) == (3, 3, 2)
    assert declared("core_192").house_only == "Lannister"


# core_193 Blockade: "Every opponent's plot income becomes 0."
def test_core_193_blockade_sets_every_opponents_income_to_zero() -> None:
    from projections.thrones.apply.rounds import plot_value
    b = Board(houses=("Lannister", "Stark", "Baratheon"), phase="plot", step="first_player")
    b.revealed_plot(0, "core_193")
    b.revealed_plot(1, "core_184")  # income 4
    b.revealed_plot(2, "core_181")  # income 4
    after = answer(b.state, 0, "plot:0", "no_income", {"seat": 0})
    assert [plot_value(after, s, "income", ED) for s in range(3)] == [0, 0, 0]
    assert plot_value(b.state, 1, "income", ED) == 4
    refused(b.state, 0, "plot:0", "no_income", code="outside_window")


# core_194 The Power of Blood: "Noble-crest characters cannot be killed."
def test_core_194_power_of_blood_answers_a_noble_about_to_die() -> None:
    power = declared("core_194").abilities[0]
    assert power.kind == "forced" and power.window.trigger == "would_be_killed"
    assert dict(power.window.condition) == {"card_filter": {"crest": "noble"}}


@needs("would_be_killed")
def test_core_194_power_of_blood_keeps_a_noble_alive() -> None:
    b = lannister()
    b.revealed_plot(1, "core_194")
    ilyn = b.play(0, "core_041")
    sansa = b.play(1, "core_009")  # noble, STR 2
    arya = b.play(1, "core_007")  # no crest, STR 2
    after = use(b.state, 0, ilyn, "kill_weakling", victim=sansa)
    assert in_play(after, sansa)
    after = use(b.state, 0, ilyn, "kill_weakling", victim=arya)
    assert arya in after.players[1].dead


def test_core_192_hear_me_roar_is_chosen_only_by_house_lannister() -> None:
    b = Board(houses=("Stark", "Lannister"), phase="plot", step="choose")
    roar = b.plot_deck(0, "core_192")
    with pytest.raises(IllegalAction) as err:
        act(b.state, "choose_plot", 0, plot=roar)
    assert err.value.code == "house_only" and "Hear Me Roar" in err.value.message


def test_core_161_never_bet_offers_no_dead_end_and_only_affordable_x() -> None:
    from projections.choices import Walker
    b = Board(houses=("Stark", "Lannister"), phase="challenges")
    b.revealed_plot(0, "core_182")
    b.revealed_plot(1, "core_190")
    bet = b.hand(1, "core_161")
    b.play(1, "core_038")
    eddard = b.play(0, "core_005")
    b.challenge("military", attacker=0, defender=1, attackers=[eddard],
                step="attackers_declared")
    assert not [m for m in offered(b.state, 1) if m["data"]["card"] == bet]  # no gold
    b.gold(1, 2)
    xs = sorted(m["data"]["choices"]["x"] for m in offered(b.state, 1)
                if m["data"]["card"] == bet)
    assert xs == [1, 2]
    walker = Walker(RULES, table=False)
    for seed in range(5):
        walker.random_move(b.state, "use_ability", 1, __import__("random").Random(seed)
                           .randrange)


def test_vocab_melee_condition_holds_only_with_three_or_more_players() -> None:
    """The `melee` condition (docs/games/thrones-abilities.md, Conditions), planted both
    ways: true in a three-player game, false in a two-player one, and the reverse."""
    from projections.thrones.abilities.schema import parse_abilities
    from projections.thrones.apply.abilities import Context, condition_problem, source_of
    from projections.thrones.apply.effects import OP_TYPES
    fields = {name: record.fields for name, record in OP_TYPES.items()}
    (only_melee,) = parse_abilities("core_142", "Varys", "character", [
        {"id": "x", "label": "x", "kind": "action", "condition": {"melee": True}}], fields)
    (never_melee,) = parse_abilities("core_142", "Varys", "character", [
        {"id": "y", "label": "y", "kind": "action", "condition": {"melee": False}}], fields)
    for houses, melee in ((("Lannister", "Stark"), False),
                          (("Lannister", "Stark", "Baratheon"), True)):
        b = Board(houses=houses)
        varys = b.play(0, "core_142")
        source = source_of(b.state, varys, ED)
        for ability, wanted in ((only_melee, melee), (never_melee, not melee)):
            ctx = Context(b.state, 0, source, ability, {}, None, {}, ED)
            assert (condition_problem(ctx, ability.condition) is None) == wanted


def test_every_lannister_action_the_choices_offer_is_accepted_by_the_rules() -> None:
    """A board holding every Lannister action card, in each window they are used in: every
    use_ability move the choices offer is accepted (no walk ends in a refusal)."""
    import random

    from projections.choices import Walker
    walker = Walker(RULES, table=False)
    boards = []
    for phase, step in (("marshalling", ""), ("dominance", ""), ("plot", "choose"),
                        ("challenges", "attackers_declared"), ("challenges", "no_challenge")):
        b = Board(houses=("Lannister", "Stark", "Baratheon"), phase=phase, step=step,
                  gold=3)
        for card in ("core_039", "core_046", "core_058", "core_064", "core_065", "core_142",
                     "core_144", "core_178", "core_037"):
            b.play(0, card)
        for card in ("core_054", "core_161", "core_163", "core_164", "core_165", "core_167"):
            b.hand(0, card)
        for card in ("core_005", "core_006", "core_007", "core_013"):
            b.play(1, card)
        b.house_power(1, 3)
        for seat, plot in ((0, "core_190"), (1, "core_182"), (2, "core_184")):
            if phase != "plot":
                b.revealed_plot(seat, plot)
        if phase == "challenges" and step == "attackers_declared":
            b.challenge("military", attacker=1, defender=0,
                        attackers=[c.id for c in b.state.cards if c.id == "p1-005"],
                        step="attackers_declared")
        boards.append(b.state)
    seen: set[tuple[str, str]] = set()
    for state in boards:
        seat = 0
        moves = offered(state, seat)
        for move in moves:
            act(state, "use_ability", seat, **move["data"])
            seen.add((move["data"]["card"], move["data"]["ability"]))
        for seed in range(3):
            if moves:
                walker.random_move(state, "use_ability", seat, random.Random(seed).randrange)
    assert {ability for _, ability in seen} >= {
        "kneel_and_hold", "look_at_top_card", "lannister_discount",
        "lannister_character_discount", "character_discount", "trade_plot_decks",
        "intrigue_discount", "kneel_the_mighty", "lend", "cut_claim", "name_a_card",
        "deadly_boon", "kneel_commoner"}


def test_core_046_the_listed_moves_reach_both_of_raffs_steps_in_digital_play() -> None:
    """Random play and the seat pages list the look without the place, then the place:
    each listed move is accepted, and the two make one whole use (card ruling L12)."""
    b, raff, _ = _raff("digital")
    looks = [m for m in offered(b.state, 0) if m["data"].get("card") == raff]
    assert looks and all("bottom" not in m["data"]["choices"] for m in looks)
    move = Action.of("use_ability", 0, looks[0]["data"])
    seen = RULES.apply(b.state, Action.of("use_ability", 0,
                                          RULES.fill_chance(b.state, move, Dealer("l", 1))))
    places = [m for m in offered(seen, 0) if m["type"] == "use_ability"]
    assert sorted(m["data"]["choices"]["bottom"] for m in places) == [0, 1]
    assert not offered(seen, 1)
    # Bo is not walked towards the part at all: its prompt names the card Anna saw
    from projections.choices import Made
    assert RULES.action_type("use_ability").steps(seen, 1, Made(), ED) is None
    for place in places:
        after = RULES.apply(seen, Action.of("use_ability", 0, place["data"]))
        assert after.pick is None and after.players[0].gold == 0
