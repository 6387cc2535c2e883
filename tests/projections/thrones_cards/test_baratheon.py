"""The Baratheon starter deck's cards (issue #30), each from its summary: used rightly it
does what the summary says (the expected values written by hand from the summary and §9 of
docs/games/thrones.md), and outside its window, on a wrong target, without its cost, past
its limit or from the wrong zone it is refused in a sentence naming the card."""

from __future__ import annotations

from typing import Any

from projections.rules import Action
from projections.thrones.apply.values import marshal_cost, strength
from projections.thrones.state import State
from tests.projections.thrones_cards.harness import ED, RULES, Board

# ---------------------------------------------------------------------------
# Vocabulary added for these cards (docs/games/thrones-abilities.md, "Filter fields of
# lasting effects"): `house_any`, `lacks_icon`, `bearer`.
# ---------------------------------------------------------------------------


def _record(state: State, seat: int, *ops: dict[str, Any]) -> State:
    """A ruling's free-form effect (table mode), to plant a lasting effect directly."""
    after: State = RULES.apply(state, Action.of("effect", seat, {"source": None, "costs": [],
                                                                 "ops": list(ops)}))
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
