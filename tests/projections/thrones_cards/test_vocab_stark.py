"""Vocabulary the Stark card engineer added (docs/games/thrones-abilities.md): the filter
keys `bearer` and `house_any` of `continuous` and `cost_reduction`, a title's declared
ability applied by the rules, and the printed influence a card pays with. Each is shown
with a recorded §9 op or a title, not through one card's data."""

from __future__ import annotations

from projections.rules import Action
from projections.thrones.apply.abilities import influence_of
from projections.thrones.apply.effects import apply_op
from projections.thrones.apply.values import strength
from tests.projections.thrones_cards.harness import ED, RULES, Board, refused


def test_a_continuous_filtered_by_bearer_reaches_only_the_sources_host() -> None:
    b = Board()
    robb = b.play(0, "core_008")  # STR 2
    ned = b.play(0, "core_005")  # STR 3
    ice = b.play(0, "core_001", on=robb)
    after = apply_op(b.state, 0, {"op": "continuous", "source": ice, "strength": 2,
                                  "filter": {"bearer": True}, "when": "always",
                                  "requires_source_standing": False}, ED)
    assert strength(after, robb, ED) == 4 and strength(after, ned, ED) == 3


def test_a_cost_reduction_filtered_by_house_any_takes_one_of_those_houses_only() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=2)
    hound = b.hand(0, "core_042")  # Lannister, cost 2
    state = apply_op(b.state, 0, {"op": "cost_reduction", "seat": 0, "amount": 2,
                                  "filter": {"house_any": ["Stark", "Baratheon"]},
                                  "until": "phase"}, ED)
    after = RULES.apply(state, Action.of("marshal_card", 0, {"card": hound}))
    assert after.players[0].gold == 0  # not reduced
    state = apply_op(b.state, 0, {"op": "cost_reduction", "seat": 0, "amount": 2,
                                  "filter": {"house_any": ["Lannister", "Stark"]},
                                  "until": "phase"}, ED)
    after = RULES.apply(state, Action.of("marshal_card", 0, {"card": hound}))
    assert after.players[0].gold == 2


def test_a_title_ability_is_applied_by_the_rules_and_refused_as_a_use() -> None:
    b = Board(houses=("Stark", "Lannister", "Baratheon"), phase="marshalling")
    b.set(titles=("master_of_coin", None, None))
    refused(b.state, 0, "title:master_of_coin", "income", code="applies_by_itself",
            name="The Master of Coin")


def test_the_printed_influence_is_read_from_the_card() -> None:
    # Northern Fiefdoms and Lord Eddard's Chambers print 1 influence, Great Keep none (§2.2)
    assert influence_of("p0-026", ED) == 1 and influence_of("p0-028", ED) == 1
    assert influence_of("p0-029", ED) == 0


def test_a_pile_count_condition_counts_the_users_pile_by_a_printed_filter() -> None:
    from projections.thrones.abilities.schema import parse_abilities
    from projections.thrones.apply.abilities import Context, Source, condition_problem
    ability = parse_abilities("core_022", "Trident Reinforcements", "character", [
        {"id": "x", "label": "x", "kind": "action",
         "condition": {"your_pile_count": {"pile": "discard", "filter": {"type": "location"},
                                           "at_least": 2}}}], {})[0]
    b = Board()
    b.discard(0, "core_029")
    b.discard(0, "core_018")  # a character: not counted
    b.discard(1, "core_030")  # the opponent's: not counted
    source = Source("p0-022", "Trident Reinforcements", ED.by_number[22], (ability,), "dead",
                    "p0-022", 0)

    def problem() -> str | None:
        ctx = Context(b.state, 0, source, ability, {}, None, {}, ED)
        return condition_problem(ctx, ability.condition)

    assert problem() == "your discard pile holds 1 such card, and it needs at least 2"
    b.discard(0, "core_031")
    assert problem() is None
