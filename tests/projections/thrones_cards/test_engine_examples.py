"""The engine's example cards (issue #30), each from its summary: used rightly it does
what the summary says (values written by hand from the summary and §9), and outside its
window, on a wrong target, without its cost, past its limit or from the wrong zone it is
refused in a sentence naming the card."""

from __future__ import annotations

from projections.thrones.apply.values import strength
from tests.projections.thrones_cards.harness import ED, Board, offered, refused, use


# core_001 Ice: "Stark-character weapon; while its bearer is in a challenge, sacrifice Ice
# to kill another participant."
def test_core_001_ice_kills_another_participant_and_is_sacrificed() -> None:
    b = Board(phase="challenges")
    robb = b.play(0, "core_013")
    ice = b.play(0, "core_001", on=robb)
    foe = b.play(1, "core_041")
    b.challenge("military", attacker=0, attackers=[robb], defenders=[foe])
    after = use(b.state, 0, ice, "kill_participant", victim=foe)
    assert after.players[1].dead == (foe,)
    assert ice in after.players[0].discard and ice not in {c.id for c in after.cards}
    # the bearer is no "other" participant
    refused(b.state, 0, ice, "kill_participant", code="wrong_target", victim=robb)


def test_core_001_ice_refused_when_its_bearer_is_not_in_the_challenge() -> None:
    b = Board(phase="challenges")
    robb = b.play(0, "core_013")
    other = b.play(0, "core_021")
    ice = b.play(0, "core_001", on=robb)
    foe = b.play(1, "core_041")
    b.challenge("military", attacker=0, attackers=[other], defenders=[foe])
    refused(b.state, 0, ice, "kill_participant", code="condition_failed", victim=foe)
    b.set(challenge=None)
    refused(b.state, 0, ice, "kill_participant", code="outside_window", victim=foe)


# core_013 Bran Stark: "Plot phase: kneel him to replace your revealed plot with another from
# your plot deck (3 times a round at most)."
def test_core_013_bran_replaces_the_plot_three_times_a_round_at_most() -> None:
    b = Board(phase="plot", step="first_player")
    b.set(initiative_winner=0)
    bran = b.play(0, "core_013")
    first = b.revealed_plot(0, "core_181")
    b.revealed_plot(1, "core_183")  # initiative 0: Anna keeps the initiative
    plots = [b.plot_deck(0, c) for c in ("core_184", "core_186", "core_188", "core_204")]
    state = use(b.state, 0, bran, "replace_plot", plot=plots[0])
    assert state.players[0].revealed_plot == plots[0]
    assert first in state.players[0].used_plots
    assert next(c for c in state.cards if c.id == bran).knelt
    refused(state, 0, bran, "replace_plot", code="cannot_pay", plot=plots[1])  # knelt
    for plot in plots[1:3]:
        state = _stand(state, bran)
        state = use(state, 0, bran, "replace_plot", plot=plot)
    state = _stand(state, bran)
    refused(state, 0, bran, "replace_plot", code="limit_reached", plot=plots[3])
    b.set(phase="marshalling", step="")
    refused(b.state, 0, bran, "replace_plot", code="outside_window", plot=plots[0])


def _stand(state, card):  # type: ignore[no-untyped-def]
    from projections.rules import replace
    return replace(state, cards=tuple(replace(c, knelt=False) if c.id == card else c
                                      for c in state.cards))


# core_021 House Tully Recruiter: "Kneel: the next House Stark character you marshal this
# phase costs 1 less."
def test_core_021_recruiter_makes_the_next_stark_character_cheaper() -> None:
    b = Board(phase="marshalling", gold=1)
    recruiter = b.play(0, "core_021")
    bran = b.hand(0, "core_013")  # cost 2
    state = use(b.state, 0, recruiter, "stark_discount")
    from projections.rules import Action
    from tests.projections.thrones_cards.harness import RULES
    after = RULES.apply(state, Action.of("marshal_card", 0, {"card": bran}))
    assert after.players[0].gold == 0  # 2 - 1 paid from 1 gold
    refused(state, 0, recruiter, "stark_discount", code="cannot_pay")  # already knelt
    b.set(phase="challenges")
    refused(b.state, 0, recruiter, "stark_discount", code="outside_window")


# core_024 Winterfell Kennels: "Kneel and pay 1 gold: find a Direwolf card in your deck, show
# it, take it into hand, reshuffle."
def test_core_024_kennels_fetch_a_direwolf_for_a_gold() -> None:
    b = Board(phase="marshalling", gold=1)
    kennels = b.play(0, "core_024")
    wolf = b.deck(0, "core_002")  # a Direwolf
    plain = b.deck(0, "core_021")
    after = use(b.state, 0, kennels, "fetch_direwolf", wolf=wolf)
    assert wolf in after.players[0].hand and wolf not in after.players[0].deck
    assert after.players[0].gold == 0
    refused(b.state, 0, kennels, "fetch_direwolf", code="wrong_target", wolf=plain)
    b.gold(0, 0)
    refused(b.state, 0, kennels, "fetch_direwolf", code="cannot_pay", wolf=wolf)


# core_025 Winterfell Castle: "Every House Stark character you control gets +1 STR."
def test_core_025_castle_gives_stark_characters_one_strength() -> None:
    b = Board(phase="marshalling")
    bran = b.play(0, "core_013")  # printed STR 1
    foe = b.play(1, "core_041")  # Lannister STR 2
    assert strength(b.state, bran, ED) == 1
    castle = b.play(0, "core_025")
    assert strength(b.state, bran, ED) == 2
    assert strength(b.state, foe, ED) == 2
    refused(b.state, 0, castle, "stark_strength", code="applies_by_itself")


# core_041 Ser Ilyn Payne: "Marshalling: kneel him to kill a character whose STR is 2 or less."
def test_core_041_ilyn_kills_a_weak_character() -> None:
    b = Board(phase="marshalling")
    ilyn = b.play(0, "core_041")
    bran = b.play(1, "core_013")  # STR 1
    strong = b.play(1, "core_020")  # Kennel Master, STR 2
    big = b.play(1, "core_017")  # Winterfell Honor Guard, STR 4
    after = use(b.state, 0, ilyn, "kill_weakling", victim=bran)
    assert after.players[1].dead == (bran,)
    assert next(c for c in after.cards if c.id == ilyn).knelt
    refused(b.state, 0, ilyn, "kill_weakling", code="wrong_target", victim=big)
    assert use(b.state, 0, ilyn, "kill_weakling", victim=strong).players[1].dead == (strong,)
    refused(b.state, 1, ilyn, "kill_weakling", code="not_your_card", victim=strong)
    b.set(phase="challenges")
    refused(b.state, 0, ilyn, "kill_weakling", code="outside_window", victim=bran)


# core_162 The Lion's Will: "Pay 2 gold to kneel a character." (an event, from the hand)
def test_core_162_lions_will_kneels_a_character_from_the_hand() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=2)
    will = b.hand(0, "core_162")
    bran = b.play(1, "core_013")
    after = use(b.state, 0, will, "kneel_character", victim=bran)
    assert next(c for c in after.cards if c.id == bran).knelt
    assert after.players[0].gold == 0
    assert will in after.players[0].discard and will not in after.players[0].hand
    refused(after, 0, will, "kneel_character", code="not_in_zone", victim=bran)
    b.gold(0, 1)
    refused(b.state, 0, will, "kneel_character", code="cannot_pay", victim=bran)


def test_the_choices_offer_exactly_the_legal_uses() -> None:
    b = Board(phase="marshalling")
    ilyn = b.play(0, "core_041")
    bran = b.play(1, "core_013")
    moves = offered(b.state, 0)
    victims = {m["data"]["choices"]["victim"] for m in moves if m["data"]["card"] == ilyn}
    assert victims == {ilyn, bran}  # STR 2 and STR 1; nothing else is in play
    assert offered(b.state, 1) == []
