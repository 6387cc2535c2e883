"""Royals as a person reads it (issue #20): every id a view, a legal action or a chance slot
holds has a label from the edition, and every sentence the rules write (refusals, the log's
descriptions, slot labels) names players and pieces in words.

The ids are read from the edition JSON (`royals_readable`), never from `labels()`; each check
of absence is first shown to fire on a planted fault.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pytest

from projections import get_rules
from projections.rules import Action, IllegalAction, thaw

from .royals_readable import (
    FIXTURES,
    IDS,
    IDS_BY_FAMILY,
    SPEC_WORDS,
    folded,
    strings_in,
    unreadable,
)

RULES = get_rules("royals")
LABELS = RULES.labels()
EVERY = 7  # every 7th step of each fixture, and its last


def steps(path) -> Iterator[tuple[tuple[str, ...], Any]]:
    names, states = folded(path)
    for index, state in enumerate(states):
        if index % EVERY == 0 or index == len(states) - 1:
            yield names, state


def slots_of(state: Any) -> Iterator[dict[str, Any]]:
    proposals = [RULES.auto_action(state)] if RULES.auto_action(state) else \
        RULES.legal_actions(state)
    for proposal in proposals:
        action = Action.of(proposal["type"], proposal["actor"], proposal["data"])
        yield from RULES.chance_slots(state, action) or ()


def what_a_person_may_read(state: Any) -> Iterator[tuple[str, Any]]:
    """(where, value) of every view, legal action and chance slot of one state."""
    for seat in (*range(state.players), None, "all"):
        yield f"view {seat}", RULES.view(state, seat)
    for action in RULES.legal_actions(state):
        yield f"legal {action['type']}", action["data"]
    for slot in slots_of(state):
        yield f"slot {slot['label']}", slot["options"]


def unlabelled(values: Iterable[tuple[str, Any]], labels: Mapping[str, str]) -> set[str]:
    """The id-like strings among the values with no label."""
    missing = set()
    for _, value in values:
        for text in strings_in(value):
            if (text in IDS or text in SPEC_WORDS) and text not in labels:
                missing.add(text)
    return missing


def unknown_strings(values: Iterable[tuple[str, Any]]) -> set[str]:
    """Strings that are values (not field names) yet neither an edition id nor a word of
    the spec: a new kind of value a board would show unlabelled."""
    out = set()
    for _, value in values:
        out |= {s for s in strings_in(value, keys=False) if s not in IDS and s not in SPEC_WORDS}
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_id_a_fixture_shows_at_any_step_has_a_label(path):
    for _, state in steps(path):
        readable = list(what_a_person_may_read(state))
        assert unlabelled(readable, LABELS) == set()
        # the game's slug (labelled too) and the table as an actor (`to_act`, named by
        # seat_name like every actor)
        assert unknown_strings(readable) <= {"royals", "table"}


def test_the_walk_finds_a_missing_label_when_one_is_planted():
    _, states = folded(FIXTURES[0])
    readable = [item for state in states[:8] for item in what_a_person_may_read(state)]
    planted = {k: v for k, v in LABELS.items() if k not in ("paris_king", "city:paris",
                                                           "noble_house:0", "deck")}
    assert unlabelled(readable, planted) == {"paris_king", "city:paris", "noble_house:0",
                                             "deck"}


def test_every_edition_id_has_a_readable_label():
    for family, ids in IDS_BY_FAMILY.items():
        for component in ids:
            label = LABELS.get(component)
            assert label and label != component and not unreadable(label), (family, component)
    for word in SPEC_WORDS:
        assert LABELS.get(word) and "_" not in LABELS[word], word


def test_labels_say_what_the_edition_prints():
    # spec §2 tables: the values printed on the tokens, the cities and titles of the spaces
    assert LABELS["paris_king"] == "Paris — King"
    assert LABELS["cologne_baron"] == "Cologne (Köln) — Baron"
    assert LABELS["1:france:high"] == LABELS["period:1:france:high"] == \
        "France (high) token for 1648: 6"
    assert LABELS["german_states:0"] == "German States shield (higher): 8"
    assert LABELS["spain:1"] == "Spain shield (lower): 4"
    assert LABELS["city:rouen"] == "Rouen city bonus: 1"
    assert LABELS["title:king"] == "King tile: 8"
    assert LABELS["title_half:duke"] == "Half of the Duke tile: 2"
    assert LABELS["noble_house:0"] == "Noble house disc"  # its value depends on the count
    assert LABELS["britain+spain"] == "Britain/Spain"
    assert LABELS["grey"] == "Grey"


def test_an_editions_own_labels_win():
    edition = {**RULES.edition, "labels": {"paris_king": "Le Roi"}}
    assert type(RULES)(edition).labels()["paris_king"] == "Le Roi"


# ---------------------------------------------------------------------------
# Sentences: describe() over every fixture event, slot labels over every step
# ---------------------------------------------------------------------------


def test_readability_check_fires_on_planted_faults():
    for planted in ("It is seat 2's turn; 0 cannot draw now", "Choose country_cards",
                    "discarding 0 card(s)", "took german_states:0 8", "baron: None",
                    "{'france': 2}"):
        assert unreadable(planted), planted


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_event_of_a_fixture_is_described_in_a_readable_sentence(path):
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    names = envelopes[0]["data"]["players"]
    for env in envelopes[1:]:
        if env["type"] in ("seed_revealed",):
            continue
        text = RULES.describe(Action.of(env["type"], env["actor"], env["data"]), names)
        assert not unreadable(text), (env["seq"], text)
        who = "The table" if env["actor"] == "table" else names[env["actor"]]
        assert text.startswith(who + " "), text


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_chance_slot_label_is_readable_and_names_the_drawer(path):
    for names, state in steps(path):
        for slot in slots_of(state):
            assert not unreadable(slot["label"]), slot["label"]
            if slot["field"] == "draws":
                assert names[state.current] in slot["label"]


def refusals_at(state: Any) -> Iterator[IllegalAction]:
    """Refusals a person meets at this step: the wrong player, the wrong step, bad cards."""
    current = state.current
    other = (current + 1) % state.players
    tries = [("end_turn", other, {}), ("draw_cards", other, {"draws": []}),
             ("claim_noble", current, {"portrait": "madrid_king", "country_cards": []}),
             ("usurp_noble", current, {"portrait": "madrid_king", "country_cards": ["spain"],
                                       "intrigue_cards": [["spain", "spain"]]}),
             ("draw_cards", current, {"draws": [{"kind": "country", "source": "display",
                                                 "card": "atlantis"}]}),
             ("end_turn", current, {"discard_country": ["france"] * 20}),
             ("end_turn", current, {"discard_country": ["atlantis"]}),
             ("draw_cards", current, {"draws": [{"kind": "country", "source": "deck"}] * 9})]
    tries += [(a["type"], current, {**thaw(a["data"]), "country_cards": ["britain"] * 30})
              for a in RULES.legal_actions(state) if a["type"] == "claim_noble"][:3]
    for type_, actor, data in tries:
        try:
            RULES.apply(state, Action.of(type_, actor, data))
        except IllegalAction as err:
            yield err


@pytest.mark.parametrize("path", FIXTURES[:2], ids=[p.stem for p in FIXTURES[:2]])
def test_refusals_met_during_a_game_name_players_and_pieces_in_words(path):
    codes = set()
    for names, state in steps(path):
        for err in refusals_at(state):
            codes.add(err.code)
            assert not unreadable(err.message), (err.code, err.message)
            if err.code == "not_your_turn":
                assert names[state.current] in err.message, err.message
    assert {"not_your_turn", "card_not_in_hand", "unknown_country", "wrong_draw_count"} <= codes
