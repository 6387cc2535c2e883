"""When-revealed plots through the real plot phase (rulings 32-34, issue #30): each plot
chosen, revealed, the first player named, then its ability applied by the rules or asked of
its owner (and of another seat where the card says so). Expected values come from each
card's summary (projections/data/thrones.json) and §7.1, never from the engine's code."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.rules import Action, Dealer, IllegalAction, replace
from projections.thrones.apply.rounds import plot_value
from projections.thrones.apply.values import STRENGTH_CHANGED, strength
from projections.thrones.state import Modifier, State
from tests.projections.thrones_cards.harness import ED, RULES, Board, offered

FILLER = "core_199"  # Snowed Under: no when-revealed ability (3 income, 0 initiative)


def act(state: State, kind: str, actor: Any, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, actor, data))
    return after


def refusal(state: State, kind: str, actor: Any, name: str, code: str, **data: Any
            ) -> IllegalAction:
    """The move is refused with `code`, in a sentence naming the card `name`."""
    with pytest.raises(IllegalAction) as err:
        act(state, kind, actor, **data)
    assert err.value.code == code, f"{err.value.code}: {err.value.message}"
    assert name in err.value.message, err.value.message
    return err.value


def reveal(b: Board, plots: dict[int, str], first: int = 0) -> State:
    """Each seat chooses its plot (a filler where none is named); the initiative winner
    (a tie broken for seat 0) names `first` the first player."""
    chosen = {s: b.plot_deck(s, plots.get(s, FILLER)) for s in range(b.state.n)}
    state = b.state
    for seat, plot in chosen.items():
        state = act(state, "choose_plot", seat, plot=plot)
    if state.step == "tie":
        state = act(state, "break_initiative_tie", "table", winner=state.tied[0])
    return act(state, "choose_first_player", state.initiative_winner, first_player=first)


def use(state: State, seat: int, ability: str, plot_of: int | None = None, **choices: Any
        ) -> State:
    card = f"plot:{seat if plot_of is None else plot_of}"
    return act(state, "use_ability", seat, card=card, ability=ability, choices=choices)


def board(*houses: str, mode: str = "table") -> Board:
    return Board(houses=houses or ("Stark", "Lannister"), phase="plot", step="choose",
                 mode=mode)


def moved_on(state: State) -> bool:
    """The plot phase is over: nothing waits, the draw phase (a joust) or titles began."""
    return not state.revealing and state.pick is None and state.step != "when_revealed"


# -- applied by themselves: no prompt, no event ------------------------------------------
def test_core_201_valar_morghulis_kills_every_character_at_the_reveal() -> None:
    b = board()
    robb = b.play(0, "core_008")
    hound = b.play(1, "core_042")
    castle = b.play(0, "core_025")
    state = reveal(b, {0: "core_201"})
    assert robb in state.players[0].dead
    assert hound in state.players[1].discard  # killed: ruling L13, The Hound's pile
    assert any(c.id == castle for c in state.cards)  # a location stays
    assert moved_on(state) and state.phase == "draw"


def test_core_201_ruling_b23_a_character_that_cannot_be_killed_survives_the_reveal() -> None:
    b = board("Stark", "Baratheon")
    robb = b.play(0, "core_008")
    cavalry = b.play(1, "core_082")  # "cannot be killed in a phase its STR changed"
    b.set(modifiers=(Modifier(STRENGTH_CHANGED, cavalry, "phase"),))  # it changed
    state = reveal(b, {0: "core_201"})
    assert robb in state.players[0].dead  # the others still die
    assert any(c.id == cavalry for c in state.cards)
    assert moved_on(state)


def test_core_184_rains_of_autumn_and_core_193_blockade_apply_by_themselves() -> None:
    b = board("Lannister", "Baratheon")
    state = reveal(b, {0: "core_193", 1: "core_184"})
    assert state.suppress_income == frozenset({0, 1})  # Rains: no card gives income
    assert plot_value(state, 1, "income", ED) == 0  # Blockade: the opponent's plot income
    assert plot_value(state, 0, "income", ED) == 0  # ... Blockade's own income is 0
    assert moved_on(state)


def test_core_190_planning_ahead_skips_taxation_when_revealed() -> None:
    state = reveal(board("Lannister", "Stark"), {0: "core_190"})
    assert state.skip_taxation == frozenset({0})


def test_core_192_hear_me_roar_weakens_when_revealed() -> None:
    b = board("Lannister", "Stark")
    hound = b.play(0, "core_042")  # STR 4, no intrigue icon
    tyrion = b.play(0, "core_038")  # STR 3, intrigue
    state = reveal(b, {0: "core_192"})
    assert (strength(state, hound, ED), strength(state, tyrion, ED)) == (3, 3)


def test_core_207_noose_and_swordpoint_keeps_the_weak_knelt() -> None:
    b = board("Targaryen", "Stark")
    weak = b.play(1, "core_007")  # Arya Stark, STR 2
    strong = b.play(1, "core_005")  # Eddard Stark, STR 3
    state = reveal(b, {0: "core_207"})
    held = {m.card for m in state.modifiers if m.kind == "no_stand"}
    assert weak in held and strong not in held


@pytest.mark.parametrize("card", ["core_185", "core_187"])
def test_core_185_core_187_with_nothing_to_copy_or_discard_ask_nothing(card: str) -> None:
    """Good for the Gander facing a plot without a when-revealed ability copies nothing;
    Fleeing to the Wall with no player over 3 locations discards nothing (B19, B21)."""
    b = board("Baratheon", "Stark")
    before = b.state.cards
    state = reveal(b, {0: card})
    assert moved_on(state) and state.cards == before


def test_core_205_mad_kings_legacy_without_an_attachment_asks_nothing() -> None:
    state = reveal(board("Targaryen", "Stark"), {0: "core_205"})
    assert moved_on(state)


# -- asked of the owner ------------------------------------------------------------------
def test_core_196_mutual_enemies_waits_for_its_owner_and_blocks_the_draw() -> None:
    b = board("Stark", "Lannister", "Baratheon")
    state = reveal(b, {0: "core_196"}, first=1)
    assert state.step == "when_revealed" and RULES.to_act(state) == (0,)
    refusal(state, "draw_phase", "table", "Mutual Enemies", "awaiting_when_revealed")
    refusal(state, "use_ability", 1, "Mutual Enemies", "not_your_card", card="plot:0",
            ability="no_military", choices={"rival": 2})
    state = use(state, 0, "no_military", rival=2)
    assert (0, 2, "military") in state.forbids or (2, 0, "military") in state.forbids
    assert state.step == "titles" and state.turn == 1  # a melee: titles from the first player


def test_ruling_30_the_first_players_plot_resolves_first_then_clockwise() -> None:
    b = board("Stark", "Lannister", "Baratheon")
    state = reveal(b, {0: "core_196", 1: "core_189", 2: "core_182"}, first=1)
    assert state.revealing == (1, 2, 0)
    refusal(state, "use_ability", 0, "Mutual Enemies", "outside_window", card="plot:0",
            ability="no_military", choices={"rival": 2})
    state = use(state, 1, "no_intrigue", foe=0)
    assert RULES.to_act(state) == (2,)
    state = use(state, 2, "truce", rival=0)
    state = use(state, 0, "no_military", rival=1)
    assert {f[2] for f in state.forbids} == {"intrigue", "power", "military"}
    assert moved_on(state)


def test_core_182_core_189_melee_plots_do_nothing_in_a_joust_but_are_still_asked() -> None:
    for card, ident, key in (("core_182", "truce", "rival"), ("core_189", "no_intrigue", "foe")):
        house = "Baratheon" if card == "core_182" else "Lannister"
        state = reveal(board(house, "Stark"), {0: card})
        assert RULES.to_act(state) == (0,)
        state = use(state, 0, ident, **{key: 1})
        assert state.forbids == () and state.phase == "draw"


def test_core_205_mad_kings_legacy_discards_the_attachment_its_owner_names() -> None:
    b = board("Targaryen", "Stark")
    bran = b.play(1, "core_013")
    summer = b.play(1, "core_003", on=bran)
    state = reveal(b, {0: "core_205"})
    assert offered(state, 0) == [{"type": "use_ability", "actor": 0, "data": {
        "card": "plot:0", "ability": "discard_attachment", "choices": {"attachment": [summer]}}}]
    state = use(state, 0, "discard_attachment", attachment=summer)
    assert summer in state.players[1].discard


# -- another seat chooses (ruling 33) ----------------------------------------------------
def test_core_188_drunken_allegations_the_opponent_kneels_its_own_choice() -> None:
    b = board("Lannister", "Stark")
    tyrion = b.play(0, "core_038")
    eddard = b.play(1, "core_005")
    arya = b.play(1, "core_007")
    state = reveal(b, {0: "core_188"})
    refusal(state, "use_ability", 0, "Drunken Allegations", "wrong_target", card="plot:0",
            ability="both_kneel", choices={"mine": tyrion, "foe": 1, "theirs": eddard})
    state = use(state, 0, "both_kneel", mine=tyrion, foe=1)
    assert state.pick is not None and RULES.to_act(state) == (1,)
    assert not next(c for c in state.cards if c.id == tyrion).knelt  # nothing yet
    refusal(state, "use_ability", 1, "Drunken Allegations", "wrong_target", card="plot:0",
            ability="both_kneel", choices={"theirs": tyrion})
    moves = offered(state, 1)
    assert sorted(m["data"]["choices"]["theirs"] for m in moves) == sorted([[eddard], [arya]])
    state = use(state, 1, "both_kneel", plot_of=0, theirs=arya)
    knelt = {c.id for c in state.cards if c.knelt}
    assert knelt == {tyrion, arya} and moved_on(state)


def test_core_202_condemned_by_the_realm_the_judge_picks_a_character_not_its_own() -> None:
    b = board("Targaryen", "Stark", "Lannister")
    mine = b.play(0, "core_106")
    bo = b.play(1, "core_005")
    cy = b.play(2, "core_042")
    state = reveal(b, {0: "core_202"})
    state = use(state, 0, "condemn", judge=2)
    assert RULES.to_act(state) == (2,)
    refusal(state, "use_ability", 2, "Condemned by the Realm", "wrong_target",
            card="plot:0", ability="condemn", choices={"victim": cy})
    refusal(state, "use_ability", 1, "Condemned by the Realm", "not_your_turn",
            card="plot:0", ability="condemn", choices={"victim": mine})
    state = use(state, 2, "condemn", plot_of=0, victim=bo)
    assert bo in state.players[1].dead and mine not in state.players[0].dead


def test_core_206_rule_by_decree_the_largest_hand_chooses_its_discards() -> None:
    b = board("Targaryen", "Stark")
    hand = [b.hand(1, c) for c in ("core_001", "core_002", "core_003", "core_004",
                                   "core_005", "core_006")]
    b.hand(0, "core_106")
    state = reveal(b, {0: "core_206"})
    assert RULES.to_act(state) == (1,)  # the owner has no choice; Bo's 6 cards go to 4
    refusal(state, "use_ability", 1, "Rule by Decree", "wrong_target", card="plot:0",
            ability="decree", choices={"discards": hand[:1]})
    state = use(state, 1, "decree", plot_of=0, discards=hand[:2])
    assert len(state.players[1].hand) == 4 and set(hand[:2]) <= set(state.players[1].discard)
    assert moved_on(state)


def test_core_206_rule_by_decree_with_no_hand_over_four_applies_by_itself() -> None:
    state = reveal(board("Targaryen", "Stark"), {0: "core_206"})
    assert moved_on(state)


def test_core_191_wildfire_assault_each_player_keeps_three_in_turn_order() -> None:
    b = board("Lannister", "Stark", "Baratheon")
    mine = [b.play(0, c) for c in ("core_037", "core_038", "core_039", "core_040")]
    bos = [b.play(1, c) for c in ("core_005", "core_006", "core_007", "core_008", "core_009")]
    cys = [b.play(2, c) for c in ("core_071", "core_072")]
    state = reveal(b, {0: "core_191"}, first=1)
    # Anna has no choice of her own: Bo (first player), then Anna; Cy keeps his two
    assert RULES.to_act(state) == (1,)
    refusal(state, "use_ability", 1, "Wildfire Assault", "wrong_target", card="plot:0",
            ability="keep_three", choices={"keep": bos[:2]})
    state = use(state, 1, "keep_three", plot_of=0, keep=bos[:3])
    assert RULES.to_act(state) == (0,)
    state = use(state, 0, "keep_three", keep=mine[1:])
    assert set(state.players[1].dead) == set(bos[3:]) and state.players[0].dead == (mine[0],)
    assert state.players[2].dead == () and all(any(c.id == x for c in state.cards)
                                               for x in cys)


def test_core_195_building_season_the_opponent_takes_its_own_location() -> None:
    b = board("Stark", "Lannister")
    mine = b.deck(0, "core_024")
    theirs = b.deck(1, "core_059")
    state = reveal(b, {0: "core_195"})
    state = use(state, 0, "fetch_locations", rival=1, mine=[mine])
    assert RULES.to_act(state) == (1,)
    assert offered(state, 0) == []
    state = use(state, 1, "fetch_locations", plot_of=0, theirs=[theirs])
    assert mine in state.players[0].hand and theirs in state.players[1].hand


def test_core_181_summoning_season_the_opponent_takes_its_own_character() -> None:
    b = board("Baratheon", "Stark", mode="digital")
    robert = b.deck(0, "core_071")
    bran = b.deck(1, "core_013")
    state = reveal(b, {0: "core_181"})
    state = use(state, 0, "fetch_characters", mine=[robert], rival=1)
    moves = offered(state, 1)
    assert sorted(len(m["data"]["choices"]["theirs"]) for m in moves) == [0, 1]
    assert all(m["data"]["choices"]["theirs"] in ([], [bran]) for m in moves)
    state = use(state, 1, "fetch_characters", plot_of=0, theirs=[bran])
    assert robert in state.players[0].hand and bran in state.players[1].hand


# -- chance: Counting Favors (ruling 34) -------------------------------------------------
def _favors(mode: str) -> tuple[State, list[str], list[str]]:
    b = board("Targaryen", "Stark", mode=mode)
    mine = [b.deck(0, c) for c in ("core_105", "core_106", "core_107", "core_108")]
    theirs = [b.deck(1, c) for c in ("core_001", "core_002", "core_003", "core_004")]
    return reveal(b, {0: "core_203"}), mine, theirs


def test_core_203_counting_favors_in_digital_play_deals_three_to_each_from_the_deck() -> None:
    state, mine, theirs = _favors("digital")
    action = Action.of("use_ability", 0, {"card": "plot:0", "ability": "favors",
                                         "choices": {"other": 1}})
    data = RULES.fill_chance(state, action, Dealer("favors", 7))
    drawn = data["drawn"]
    # in op order: the user's three from its deck, then the opponent's three from its own
    assert len(drawn) == 6 and set(drawn[:3]) <= set(mine) and set(drawn[3:]) <= set(theirs)
    assert len(set(drawn)) == 6
    after = RULES.apply(state, Action.of("use_ability", 0, data))
    assert set(drawn[:3]) <= set(after.players[0].hand)
    assert set(drawn[3:]) <= set(after.players[1].hand)
    assert len(after.players[0].deck) == 1 and len(after.players[1].deck) == 1
    # §11: the opponent sees its own three and a count, a spectator only the count
    seen = RULES.redact(Action.of("use_ability", 0, data), 1, state)
    assert seen is not None and seen["drawn"] == {"count": 6, "yours": drawn[3:]}
    assert RULES.redact(Action.of("use_ability", 0, data), None, state)["drawn"] == \
        {"count": 6}
    assert RULES.redact(Action.of("use_ability", 0, data), 0, state)["drawn"] == \
        {"count": 6, "yours": drawn[:3]}


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_core_203_ruling_34_an_empty_deck_draws_nothing_and_the_opponent_draws_its_own(
        mode: str) -> None:
    """The user's deck is empty (one of ruling 34's "fewer when the pile holds fewer"):
    its op takes no card, so the three cards of the field are the opponent's."""
    b = board("Targaryen", "Stark", mode=mode)
    theirs = [b.deck(1, c) for c in ("core_001", "core_002", "core_003", "core_004")]
    state = reveal(b, {0: "core_203"})
    data = {"card": "plot:0", "ability": "favors", "choices": {"other": 1}}
    if mode == "digital":
        data = RULES.fill_chance(state, Action.of("use_ability", 0, data), Dealer("f", 1))
    else:
        data = {**data, "drawn": theirs[:3]}
    assert len(data["drawn"]) == 3 and set(data["drawn"]) <= set(theirs)
    after = RULES.apply(state, Action.of("use_ability", 0, data))
    assert set(data["drawn"]) <= set(after.players[1].hand) and not after.players[0].hand
    refusal(state, "use_ability", 0, "Counting Favors", "chance_missing",
            **{**data, "drawn": theirs[:2]})


def test_core_203_counting_favors_at_a_table_asks_for_each_card_seen() -> None:
    state, mine, theirs = _favors("table")
    refusal(state, "use_ability", 0, "Counting Favors", "chance_missing", card="plot:0",
            ability="favors", choices={"other": 1})
    slots = RULES.chance_slots(state, Action.of("use_ability", 0, {
        "card": "plot:0", "ability": "favors", "choices": {"other": 1}}))
    assert [s["path"] for s in slots] == [[i] for i in range(6)]
    assert all(s["options"] == sorted(mine) for s in slots[:3])
    assert all(s["options"] == sorted(theirs) for s in slots[3:])
    with pytest.raises(IllegalAction):  # the opponent's cards first: not from the decks named
        act(state, "use_ability", 0, card="plot:0", ability="favors", choices={"other": 1},
            drawn=[*theirs[:3], *mine[:3]])
    after = act(state, "use_ability", 0, card="plot:0", ability="favors",
                choices={"other": 1}, drawn=[*mine[:3], *theirs[:3]])
    assert set(mine[:3]) <= set(after.players[0].hand)


def test_core_203_the_walker_at_a_table_taps_the_six_cards() -> None:
    from projections.choices import Walker
    state, mine, theirs = _favors("table")
    walker = Walker(RULES, table=True)
    for seed in range(4):
        _, move = walker.random_move(state, "use_ability", 0, random.Random(seed).randrange)
        drawn = move["data"]["drawn"]
        assert len(drawn) == 6 and set(drawn[:3]) <= set(mine) and set(drawn[3:]) <= set(theirs)
        RULES.apply(state, Action.of("use_ability", 0, move["data"]))


# -- a plot revealed later, and the games before the option ------------------------------
def test_ruling_30_a_plot_revealed_later_resolves_at_once() -> None:
    b = Board(houses=("Stark", "Lannister"), phase="challenges", mode="table")
    b.revealed_plot(0, FILLER)
    valar = b.plot_deck(0, "core_201")
    hound = b.play(1, "core_042")
    state = act(b.state, "effect", "table", ops=[{"op": "reveal_new_plot", "seat": 0,
                                                  "plot": valar}], reason="a test ruling")
    assert hound in state.players[1].discard and not state.revealing  # killed (L13)


def test_ruling_30_without_the_option_the_table_still_records_plots() -> None:
    b = board()
    b.set(when_revealed=False)
    hound = b.play(1, "core_042")
    state = reveal(b, {0: "core_201"})
    assert any(c.id == hound for c in state.cards) and state.phase == "draw"


@pytest.mark.parametrize(("mode", "chosen", "resolved"), [
    ("digital", None, True), ("table", None, False),  # no value, the default: the mode's
    ("digital", "table", False), ("table", "rules", True)])  # a value chosen wins
def test_ruling_32_by_default_digital_play_resolves_plots_and_a_table_records_them(
        mode: str, chosen: str | None, resolved: bool) -> None:
    """In digital play nobody may record a plot's effect, so the rules resolve it unless
    the game chose otherwise; at a table the table records it (a game as the server
    creates it: every option given, the defaults filled)."""
    from projections.playout import created_for
    created = created_for(RULES, 2, mode, {} if chosen is None else {"when_revealed": chosen})
    assert created["options"]["when_revealed"] == chosen
    assert RULES.initial_state(created).when_revealed is resolved


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_ruling_32_a_game_recorded_before_the_option_stays_the_tables(mode: str) -> None:
    """Its options have no when_revealed key: it replays as it was recorded."""
    created = {"players": ["Anna", "Bo"], "mode": mode, "options": {"draw_cap": None}}
    assert RULES.initial_state(created).when_revealed is False


def test_the_greedy_listed_move_completes_each_waiting_choice() -> None:
    b = board("Lannister", "Stark")
    b.play(0, "core_038")
    b.play(1, "core_005")
    state = reveal(b, {0: "core_188"})
    for _ in range(3):
        if moved_on(state):
            break
        (move,) = RULES.legal_actions(state)
        state = RULES.apply(state, Action.of(move["type"], move["actor"], move["data"]))
    assert moved_on(state)


@pytest.mark.parametrize(("players", "mode"), [(2, "digital"), (3, "table"), (4, "digital")])
def test_random_games_with_the_option_play_through_every_reveal(players: int, mode: str
                                                                ) -> None:
    """Random playouts with the rules resolving plots: every listed move, its chance dealt
    (a table's too, as the digital dealer would), is accepted, rounds after rounds."""
    from projections.playout import created_for, play
    created = created_for(RULES, players, mode, {"when_revealed": "rules"})
    for seed in range(2):
        game = play(RULES, created, random.Random(seed).randrange, f"wr-{seed}",
                    max_steps=700)
        uses = [a for a in game.actions if a.type == "use_ability"]
        assert uses, "no when-revealed plot was asked in the game"
        assert game.states[-1].round >= 3


def test_ruling_32_a_seats_own_token_may_not_type_an_abilitys_draw() -> None:
    # engine ruling 16: a chance outcome is the table recorder's to type, not a seat's
    _, mine, theirs = _favors("table")
    typed = Action.of("use_ability", 0, {"card": "plot:0", "ability": "favors",
                                         "choices": {"other": 1},
                                         "drawn": [*mine[:3], *theirs[:3]]})
    assert RULES.names_unseen(typed)
    assert not RULES.names_unseen(Action.of("use_ability", 0, {
        "card": "plot:0", "ability": "favors", "choices": {"other": 1}}))
    assert RULES.strip_chance(typed) == {"card": "plot:0", "ability": "favors",
                                         "choices": {"other": 1}}


def test_ruling_32_a_redaction_planted_open_shows_the_opponent_the_users_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The absence check above fails with a leak planted: a use_ability redacted as public
    shows the opponent the three cards the user drew."""
    from projections.choices import public
    state, mine, _ = _favors("digital")
    action = Action.of("use_ability", 0, RULES.fill_chance(state, Action.of(
        "use_ability", 0, {"card": "plot:0", "ability": "favors", "choices": {"other": 1}}),
        Dealer("favors", 3)))
    record = RULES.action_type("use_ability")
    seen = RULES.redact(action, 1, state)
    assert seen is not None and not set(mine) & set(seen["drawn"].get("yours", []))
    monkeypatch.setitem(type(RULES)._records, "use_ability", replace(record, redact=public))
    assert RULES.redact(action, 1, state) is None  # the whole data, the user's cards too


def test_ruling_35_a_plots_kill_is_answered_before_the_draw_phase_is_dealt() -> None:
    """Wildfire Assault kills Old Red Priest (core_084, forced once killed: kneel a standing
    location of yours) as the plot phase ends: the game waits for that answer, so the
    draw phase is not dealt by itself meanwhile."""
    b = board("Baratheon", "Lannister", mode="digital")
    kept = [b.play(0, c) for c in ("core_071", "core_072", "core_075")]
    priest = b.play(0, "core_084")
    b.play(0, "core_092")  # a standing location to kneel
    state = reveal(b, {0: "core_191"})
    state = use(state, 0, "keep_three", keep=kept)
    assert priest in state.players[0].dead and state.phase == "draw"
    assert state.window is not None and state.window.waiting == (0,)
    assert RULES.auto_action(state) is None


# core_188 Drunken Allegations: "each kneels a standing character" — the user's own kneel
# may be left out only by a user with no standing character (`unless_none`), so the choices
# never end it empty while one is offered (a dead end once: the use then refused).
def test_core_188_the_choices_never_leave_out_a_kneel_that_is_owed() -> None:
    from projections.choices import Pick, Walker
    b = Board(("Stark", "Lannister", "Baratheon"), phase="plot", step="choose")
    mine = b.play(0, "core_037")
    b.play(1, "core_037")
    state = reveal(b, {0: "core_188"})
    walker, picks = Walker(RULES, table=False), []
    while (walk := walker.walk(state, "use_ability", 0, picks)).choice is not None:
        choice = walk.choice
        if choice.id == "choices.mine":
            assert [o.value for o in choice.options] == [mine] and not choice.can_end
        picks.append(Pick(choice.id, choice.options[0].value))
    assert walk.move is not None and walk.move["data"]["choices"]["mine"] == [mine]


def test_ruling_39_jacelyn_killed_by_a_plot_is_dealt_while_another_plot_waits() -> None:
    """Wildfire Assault kills Ser Jacelyn while Rule by Decree still waits for Bo's
    discards: his death is answered first (the window comes before the plot's part), and
    the server deals the random card of Bo's hand for it."""
    b = board("Lannister", "Stark", mode="digital")
    jacelyn = b.play(0, "core_047")
    kept = [b.play(0, c) for c in ("core_037", "core_038", "core_039")]
    hand = [b.hand(1, c) for c in ("core_001", "core_002", "core_003", "core_004",
                                   "core_005", "core_006")]
    state = reveal(b, {0: "core_191", 1: "core_206"})
    state = use(state, 0, "keep_three", keep=kept)
    assert jacelyn in state.players[0].dead and state.pick is not None
    move = RULES.auto_action(state)
    assert move is not None and move["data"]["card"] == jacelyn
    data = RULES.fill_chance(state, Action.of("use_ability", 0, move["data"]),
                             Dealer("dealt", 1))
    (discarded,) = data["random"]
    assert discarded in hand
    after = act(state, "use_ability", 0, **data)
    assert after.players[1].discard == (discarded,)
    assert RULES.to_act(after) == (1,)  # Rule by Decree: Bo's 5 cards go to 4


def test_ruling_b24_a_window_answered_before_a_plots_choice_changes_who_chooses() -> None:
    """Valar Morghulis kills Bo's Ser Jacelyn; Rule by Decree (Bo's) then waits for Anna,
    whose 6 cards are the largest hand. Jacelyn's death is answered first: Anna discards a
    random card, so both hands hold 5 and both discard down to 4 (rule by decree: tied
    largest hands all discard), each asked in turn from the first player."""
    b = board("Stark", "Lannister", mode="digital")
    b.play(1, "core_047")  # Ser Jacelyn Bywater
    anna = [b.hand(0, c) for c in ("core_001", "core_002", "core_003", "core_004",
                                   "core_005", "core_006")]
    bo = [b.hand(1, c) for c in ("core_037", "core_038", "core_039", "core_040",
                                 "core_041")]
    state = reveal(b, {0: "core_201", 1: "core_206"})
    assert state.pick is not None and state.pick.waiting == ((0, "discards"),)
    move = RULES.auto_action(state)  # the server uses Jacelyn, dealing Anna's card
    assert move is not None
    data = RULES.fill_chance(state, Action.of("use_ability", 1, move["data"]), Dealer("j", 1))
    state = act(state, "use_ability", 1, **data)
    assert state.pick is not None and state.pick.waiting == ((0, "discards"), (1, "discards"))
    left = sorted(set(anna) - set(data["random"]))
    state = use(state, 0, "decree", plot_of=1, discards=left[:1])
    state = use(state, 1, "decree", plot_of=1, discards=bo[:1])
    assert len(state.players[0].hand) == len(state.players[1].hand) == 4
    assert moved_on(state)
