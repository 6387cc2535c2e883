"""What a person reads of A Game of Thrones (issue #20): every id a view, legal action or
chance slot holds has a readable label; every refusal and every description names players
and cards by name. The names expected are read from the edition file itself."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from projections import get_rules
from projections.rules import ALL, Action, IllegalAction
from projections.thrones.words import label_of, words

from .thrones_helpers import (
    CARD_NAMES,
    EDITION,
    EDITION_HOUSES,
    TITLE_NAMES,
    Step,
    Table,
    fixture_steps,
    unreadable,
)

RULES = get_rules("thrones")
LABELS = RULES.labels()
#: keys whose values are words of a person, not ids: card and player names, free text
TEXT_KEYS = {"name", "text", "label", "field"}
#: mappings whose keys are data (a stealth attacker, a challenge type, an option)
DATA_KEYED = {"bypass", "stealth", "challenges_used", "options"}
FULL_INSTANCE = re.compile(r"p(\d+)-(\d{3})(?:-\d+)?")
STEPS = list(fixture_steps())


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


def strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value a person may be shown (values, and data keys)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in TEXT_KEYS:
                continue
            if key in DATA_KEYED and isinstance(item, dict):
                yield from (str(k) for k in item)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value


def label_problems(found: Iterable[str], labels: dict[str, str]) -> list[str]:
    """Each string without the label the edition gives it: an instance id reads as its
    card's name, a title as its name, a House as its house; any other id has words."""
    problems = []
    for text in sorted(set(found)):
        if not text or text.isdigit():
            continue
        match = FULL_INSTANCE.fullmatch(text)
        if match:
            want = CARD_NAMES.get(int(match.group(2)))
            got = label_of(text, labels)
            ok = got == want
        elif text in TITLE_NAMES:
            got, ok = labels.get(text), labels.get(text) == TITLE_NAMES[text]
        elif text in EDITION_HOUSES:
            got = labels.get(text)
            ok = got is not None and text in got
        else:
            got = labels.get(text)
            ok = got is not None and "_" not in got and bool(got.strip())
        if not ok:
            problems.append(f"{text!r} reads {got!r}")
    return problems


def shown_at(step: Step) -> Iterator[str]:
    """What the views (every seat, a spectator, the auditor), the legal actions and their
    chance slots show after one fixture action."""
    state = step.after
    for seat in [*range(state.n), None, ALL]:
        yield from strings(RULES.view(state, seat))
    for listed in RULES.legal_actions(state):
        yield from strings(listed["data"])
        yield from strings([listed["actor"]])
        if listed["type"] in RULES.chance_fields:
            action = Action.of(listed["type"], listed["actor"], listed["data"])
            yield from strings(RULES.chance_slots(state, action) or [])
    # a ruling's reason and an effect's text are words the recorder typed, not ids
    yield from strings({k: v for k, v in step.action.to_json()["data"].items()
                        if k not in ("reason", "text")})


def test_every_id_a_fixture_shows_has_its_label_from_the_edition():
    found: set[str] = set()
    for step in STEPS:
        found.update(shown_at(step))
    assert any(FULL_INSTANCE.fullmatch(s) for s in found)  # the walk reached the cards
    assert {"marshalling", "attackers_declared", "military", "crown_regent"} <= found
    assert label_problems(found, LABELS) == []


def test_the_label_check_finds_a_missing_or_a_wrong_label():
    found = ["marshalling", "p0-005", "p1-063-2", "master_of_coin", "Stark"]
    assert label_problems(found, LABELS) == []
    missing = {k: v for k, v in LABELS.items() if k != "marshalling"}
    assert label_problems(found, missing) == ["'marshalling' reads None"]
    wrong = {**LABELS, "p0-005": "p0-005", "core_063": "Core 63"}
    assert len(label_problems(found, wrong)) == 2
    snake = {**LABELS, "master_of_coin": "master_of_coin", "Stark": "Lannister"}
    assert len(label_problems(found, snake)) == 2


def test_an_id_in_two_word_tables_reads_the_same_in_both():
    from projections.thrones.words import TABLES
    seen: dict[str, str] = {}
    for table in TABLES:
        for key, text in table.items():
            assert seen.setdefault(key, text) == text, key


def test_labels_name_every_card_title_and_house_as_the_edition_does():
    for number, name in CARD_NAMES.items():
        assert LABELS[f"core_{number:03d}"] == name
        assert LABELS[f"p3-{number:03d}"] == name
        assert label_of(f"p2-{number:03d}-4", LABELS) == name
    for title, name in TITLE_NAMES.items():
        assert LABELS[title] == name
    for house in EDITION["houses"]:
        assert LABELS[house["id"]] == CARD_NAMES[house["house_card"]]  # "House Stark"
    assert all("_" not in text for text in LABELS.values())


# ---------------------------------------------------------------------------
# Descriptions
# ---------------------------------------------------------------------------


def hidden_cards(action: Action) -> list[str]:
    """The cards an action names that other seats may not see (spec §11)."""
    data = action.to_json()["data"]
    if action.type == "start_game":
        return [c for hand in (data.get("setup_hands") or {}).values() for c in hand]
    if action.type in ("setup_draw", "draw_phase"):
        return [c for cards in (data.get("draws") or {}).values() for c in cards]
    if action.type == "mulligan":
        return list(data.get("new_hand") or ())
    if action.type == "setup_cards":
        return [e["card"] for e in data.get("cards") or ()]
    if action.type == "choose_plot":
        return [data["plot"]]
    if action.type == "effect":
        return [c for op in [*data.get("costs", ()), *data.get("ops", ())]
                if op.get("op") == "draw" for c in op.get("cards") or ()]
    return []


def description_problems(text: str, action: Action, names: tuple[str, ...]) -> list[str]:
    problems = unreadable(text, names)
    actor = action.actor
    opener = names[actor] if isinstance(actor, int) else "The table"
    if action.type == "effect" and actor == "table":  # ruling 29: shown as a ruling
        opener = "Ruling by the table:"
    if not text.startswith(opener + " "):
        problems.append(f"does not start with the actor {opener!r}")
    if re.search(r"\b1 (cards|characters|players)\b", text):
        problems.append("grammar by count")
    for card in hidden_cards(action):
        if re.search(rf"\b{re.escape(CARD_NAMES[int(card[3:6])])}\b", text):
            problems.append(f"names the hidden {card}")
    return problems


def test_every_fixture_action_is_a_sentence_naming_the_actor_and_no_hidden_card():
    problems = []
    for step in STEPS:
        text = RULES.describe(step.action, step.names)
        problems += [(step.fixture, step.seq, text, p)
                     for p in description_problems(text, step.action, step.names)]
    assert problems == []


def test_every_listed_action_is_described_in_words_too():
    problems = []
    for step in STEPS[::7]:
        for listed in RULES.legal_actions(step.after):
            action = Action.of(listed["type"], listed["actor"], listed["data"])
            text = RULES.describe(action, step.names)
            problems += [(text, p) for p in description_problems(text, action, step.names)]
    assert problems == []


def test_the_description_check_finds_an_id_a_seat_number_and_a_hidden_card():
    names = ("Anna", "Bo")
    draw = Action.of("draw_phase", "table", {"draws": {"0": ["p0-005"], "1": []}})
    assert description_problems("The table dealt: Anna drew 1 card", draw, names) == []
    assert description_problems("seat 0: draw_phase", draw, names)
    assert description_problems("The table dealt Eddard Stark to Anna", draw, names)
    assert description_problems("The table dealt p0-005", draw, names)
    assert description_problems("The table dealt 1 cards", draw, names)


def test_a_challenge_and_its_defence_read_as_sentences():
    names = ("Anna", "Bo")
    declare = Action.of("declare_challenge", 0, {"type": "intrigue", "defender": 1,
                                                 "attackers": ["p0-005", "p0-023"]})
    assert RULES.describe(declare, names) == ("Anna declared an intrigue challenge against Bo "
                                              "with Eddard Stark and Winterfell Reserves")
    defend = Action.of("declare_defenders", 1, {"defenders": []})
    assert RULES.describe(defend, names) == "Bo declared no defenders"
    plot = Action.of("choose_plot", 1, {"plot": "p1-190"})
    assert RULES.describe(plot, names) == "Bo chose a plot"


def _sample(spec: str) -> Any:
    """A plausible value for a field of the spec's op table (edition `effect_ops`)."""
    spec = spec.replace(" optional", "")
    samples = {"[icon]": ["military"], "[instance id]": ["p0-005", "p0-023"],
               "[keyword]": ["stealth"], "[seat, seat]": [0, 1], "[seat]": [0, 1],
               "bool": True, "filter": {"house": "Stark"}, "instance id": "p0-005",
               "instance id | house:<seat>": "house:1", "int": 2, "int>0": 2,
               "keyword": "renown", "seat": 1, "string": "Ice is sacrificed", "[save]": []}
    return samples.get(spec, spec.split("|")[0])


@pytest.mark.parametrize("op", sorted(EDITION["effect_ops"]))
def test_every_effect_op_of_the_spec_reads_as_a_clause(op):
    fields = EDITION["effect_ops"][op]["fields"]
    data = {"op": op, **{k: _sample(v) for k, v in fields.items() if "optional" not in v}}
    if op == "modify_plot":  # "exactly one of delta/set", both optional fields
        data["delta"] = -1
    text = RULES.describe(Action.of("effect", 0, {"source": "p0-001", "ops": [data]}),
                          ("Anna", "Bo"))
    assert text.startswith("Anna used Ice: ")
    assert text != f"Anna used Ice: {words(op)}", "no words for this op"
    assert unreadable(text, ("Anna", "Bo")) == []


def test_a_malformed_action_still_gets_a_sentence():
    names = ("Anna", "Bo")
    assert RULES.describe(Action.of("effect", 0, {"ops": [{"op": "kneel"}]}), names) == \
        "Anna recorded an effect: kneel"
    assert RULES.describe(Action.of("marshal_card", 1, {}), names) == \
        "Bo recorded the action marshal card"


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


def _cards_of(state: Any) -> list[str]:
    """A few real cards from every zone: in play, in hands, decks, plot decks and piles."""
    out = [c.id for c in state.cards[:4]]
    for p in state.players:
        for zone in (p.hand, p.deck, p.plot_deck, p.discard, p.dead, p.used_plots):
            out += sorted(zone)[:2]
    return list(dict.fromkeys(out))


def _effect_probes(c: str, d: str, s: int, o: int) -> list[dict[str, Any]]:
    return [
        {"op": "kneel", "card": c}, {"op": "stand", "card": c}, {"op": "kill", "cards": [c]},
        {"op": "discard_from_play", "cards": [c]}, {"op": "return_to_hand", "cards": [c]},
        {"op": "take_control", "card": c, "controller": s},
        {"op": "put_into_play", "card": c, "from": "hand"},
        {"op": "put_into_play", "card": c, "from": "dead"},
        {"op": "move_attachment", "card": c, "to": d},
        {"op": "adjust_strength", "card": c, "amount": 1, "until": "challenge"},
        {"op": "gain_icon", "card": c, "icon": "magic"}, {"op": "no_stand", "card": d},
        {"op": "join_challenge", "card": c, "side": "attacker"},
        {"op": "remove_from_challenge", "card": c},
        {"op": "lose_power", "target": c, "amount": 9},
        {"op": "lose_power", "target": f"house:{s}", "amount": 99},
        {"op": "move_power", "from": f"house:{s}", "to": f"house:{s}", "amount": 1},
        {"op": "move_power", "from": c, "to": c, "amount": 1},
        {"op": "pay_gold", "seat": s, "amount": 99},
        {"op": "give_gold", "from": s, "to": s, "amount": 1},
        {"op": "give_gold", "from": o, "to": s, "amount": 99},
        {"op": "draw", "seat": o, "cards": [c]},
        {"op": "discard_from_hand", "seat": s, "cards": [d]},
        {"op": "discard_from_deck", "seat": s, "cards": [c]},
        {"op": "search_deck", "seat": s, "card": d, "to": "hand"},
        {"op": "return_from_pile", "card": c, "from": "discard", "to": "hand"},
        {"op": "reveal_new_plot", "seat": s, "plot": d},
        {"op": "modify_plot", "seat": s, "field": "claim", "delta": 1, "until": "challenge"},
        {"op": "forbid_challenge", "seats": [s, s], "type": "military"},
        {"op": "swap_plot_decks", "seats": [s, o]}, {"op": "gain_gold", "seat": 9, "amount": 1},
        {"op": "continuous", "source": c, "filter": {"colour": "red"}},
        {"op": "kneel"}, {"op": "gain_gold", "seat": s, "amount": "two"}, {"op": "fly"},
    ]


def probes(state: Any) -> Iterator[Action]:
    """Actions that are mostly illegal now: listed actions by the wrong actor, and every
    action type pointed at real cards of the wrong zone, at oneself, at nobody."""
    actors: list[Any] = [*range(state.n), "table"]
    for listed in RULES.legal_actions(state)[:8]:
        for actor in actors:
            if actor != listed["actor"]:
                yield Action.of(listed["type"], actor, listed["data"])
    cards = _cards_of(state)
    for i, c in enumerate(cards[::3]):
        d = cards[(i * 5 + 1) % len(cards)]
        for s in range(state.n):
            o = (s + 1) % state.n
            for kind, data in [
                ("marshal_card", {"card": c}), ("marshal_card", {"card": c, "attach_to": c}),
                ("marshal_card", {"card": c, "as_duplicate": True}),
                ("setup_cards", {"cards": [{"card": c, "attach_to": d}]}),
                ("choose_plot", {"plot": c}), ("choose_first_player", {"first_player": 7}),
                ("break_initiative_tie", {"winner": o}), ("choose_title", {"title": "king"}),
                ("declare_challenge", {"type": "power", "defender": s, "attackers": [c]}),
                ("declare_challenge", {"type": "military", "defender": o, "attackers": [c, d]}),
                ("assign_stealth", {"bypass": {c: d}}), ("redirect_challenge",
                                                         {"new_defender": s}),
                ("declare_defenders", {"defenders": [c]}), ("take_challenge", {}),
                ("resolve_challenge", {}), ("choose_claim_targets", {"extra_opponents": [s]}),
                ("apply_claim", {"kills": [c, d]}), ("apply_claim", {"discards": [c]}),
                ("apply_deadly", {"kills": [c]}), ("choose_winner", {"winner": o}),
                ("draw_phase", {"draws": {str(s): [c]}}), ("mulligan", {"new_hand": [c]}),
                ("end_marshalling", {}), ("end_challenges", {}), ("end_round", {}),
                ("resolve_dominance", {}), ("marshal_card", {"card": "p0-999"}),
            ]:
                yield Action.of(kind, s, data)
            for op in _effect_probes(c, d, s, o):
                yield Action.of("effect", s, {"source": d, "ops": [op]})


def refusal_problems(steps: Iterable[Step]) -> tuple[int, list[tuple[str, str, list[str]]]]:
    seen, problems = 0, []
    for step in steps:
        for action in probes(step.after):
            try:
                RULES.apply(step.after, action)
            except IllegalAction as err:
                seen += 1
                found = unreadable(err.message, step.names)
                if found:
                    problems.append((err.code, err.message, found))
    return seen, problems


def test_every_refusal_names_players_and_cards_by_name():
    seen, problems = refusal_problems(STEPS[::23])
    assert seen > 5000
    assert sorted(set((c, m) for c, m, _ in problems))[:20] == []


def test_the_refusal_check_finds_a_seat_number_an_id_snake_case_and_a_repr():
    names = ("Anna", "Bo")
    assert unreadable("Anna cannot give gold to themself", names) == []
    assert unreadable('there is no effect op "fly_away"', names) == []
    assert unreadable("it is seat 0's turn", names)
    assert unreadable("'p0-005' is not in the deck", names)
    assert unreadable("op gain_gold needs field amount", names)
    assert unreadable("malformed data (KeyError('card'))", names)
    assert unreadable("choose among [0, 1]", names)
    assert unreadable("None is not tied", names)


def test_refusals_at_the_start_name_the_players_too():
    t = Table(n=3)
    err = t.refused("setup_cards", 2, cards=[])
    assert err.code == "not_your_turn"
    assert err.message == "it is Player 1's turn to set up, not Player 3's"
    err = t.refused("effect", 1, ops=[])
    assert err.code == "wrong_phase"
