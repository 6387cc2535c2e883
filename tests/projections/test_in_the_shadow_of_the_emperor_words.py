"""In the Shadow of the Emperor, as a person reads it: every id has a label, every refusal and
every event sentence names players and labels pieces (issue #20).

The oracles are independent of the code judged: the ids come from the edition JSON read here
directly, the readability checks are regular expressions over the text, and each absence check
is first shown to fail on a planted fault.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from projections import get_rules
from projections.in_the_shadow_of_the_emperor.words import (
    Words,
    decision_sentence,
    last_election_sentence,
)
from projections.playout import created_for
from projections.rules import Action, IllegalAction

from . import test_in_the_shadow_of_the_emperor as T

SLUG = "in_the_shadow_of_the_emperor"
R = get_rules(SLUG)
ROOT = Path(__file__).resolve().parents[2]
EDITION = json.loads((ROOT / "projections" / "data" / f"{SLUG}.json").read_text("utf-8"))
FIXTURES = sorted((ROOT / "fixtures" / SLUG).glob("*.jsonl"))

ID_LIKE = re.compile(r"^[a-z][a-z0-9]*(?:[_:][a-z0-9]+)*$")
SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
QUOTED = re.compile(r'"[^"]*"')
#: lower-case ids no English sentence of ours uses as a word ("move" and "knight" are words)
RAW_IDS = sorted({e["id"] for e in EDITION["electorates"]}
                 | {c["id"] for c in EDITION["action_cards"]} - {"move", "knight"})


def edition_ids() -> set[str]:
    """Every id the edition defines that a person may meet, read from the JSON itself."""
    ids = {e["id"] for e in EDITION["electorates"]}
    ids |= {f"elector:{e['id']}" for e in EDITION["electorates"]}
    ids |= {c["id"] for c in EDITION["action_cards"]}
    ids |= set(EDITION["privileges"])
    ids |= {p["id"] for p in EDITION["phases"]}
    ids |= set(EDITION["sides"])
    ids |= {e["kind"] for e in EDITION["electorates"]}
    return ids


def unreadable(text: str, players: int) -> list[str]:
    """What in `text` a person should not have to read: a seat number of a real seat, a
    snake_case word, a raw id, None/null or a Python repr. A quoted value is the offending
    value as given, so it is left alone."""
    bare = QUOTED.sub('""', text)
    found = [m.group(0) for m in re.finditer(r"\bseat (\d+)", bare)
             if int(m.group(1)) < players]
    found += SNAKE.findall(bare)
    found += [word for word in RAW_IDS if re.search(rf"\b{word}\b", bare)]
    found += re.findall(r"elector:\w+", bare)
    found += [bad for bad in ("None", "null", "{'", "['", "FrozenDict(", "Bag(") if bad in bare]
    return found


def fixture_games() -> Iterator[tuple[str, dict[str, Any], list[Action]]]:
    """(name, game_created data, actions) of every recorded fixture (no undo in them)."""
    for path in FIXTURES:
        lines = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        assert not {e["type"] for e in lines} & {"undo", "redo"}
        actions = [Action.of(e["type"], e["actor"], e["data"], e["seq"]) for e in lines[1:]]
        yield path.stem, lines[0]["data"], actions


def fixture(stem: str) -> tuple[dict[str, Any], list[Action]]:
    _, created, actions = next(g for g in fixture_games() if g[0] == stem)
    return created, actions


def states(created: dict[str, Any], actions: list[Action]) -> Iterator[Any]:
    """Every state of a fixture, from the first to the last."""
    state = R.initial_state(created)
    yield state
    for action in actions:
        state = R.apply(state, action)
        yield state


def strings(value: Any) -> Iterator[str]:
    """Every string value inside a JSON value (keys are machine words, not shown as values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def shown_ids(state: Any) -> set[str]:
    """The id-like strings of every view, every legal action's data and every chance slot."""
    out: set[str] = set()
    for seat in [None, "all", *range(state.n)]:
        out |= {s for s in strings(R.view(state, seat)) if ID_LIKE.match(s)}
    for option in R.legal_actions(state):
        out |= {s for s in strings(option["data"]) if ID_LIKE.match(s)}
        for slot in R.chance_slots(state, Action.of(option["type"], option["actor"],
                                                    option["data"])) or []:
            out |= {s for s in strings(slot["options"]) if ID_LIKE.match(s)}
    return out


def missing_labels(ids: set[str], labels: dict[str, str]) -> set[str]:
    return {i for i in ids if not labels.get(i) or ID_LIKE.match(labels[i])}


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


def test_every_id_the_edition_defines_has_a_label_that_is_not_an_id():
    labels = R.labels()
    assert missing_labels(edition_ids(), labels) == set()
    assert labels["saxony"] == "Duchy of Saxony" and labels["doctor"] == "Doctor"
    assert labels["elector:mainz"] == "Elector of the Archdiocese of Mainz"


def test_the_label_check_fails_on_a_planted_gap():
    labels = {k: v for k, v in R.labels().items() if k != "saxony"}
    labels["doctor"] = "doctor"
    assert missing_labels(edition_ids(), labels) == {"saxony", "doctor"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_id_a_view_a_legal_action_or_a_chance_slot_shows_has_a_label(path):
    labels = R.labels()
    seen: set[str] = set()
    for state in states(*fixture(path.stem)):
        seen |= shown_ids(state)
    assert missing_labels(seen, labels) == set()
    # the walk met the kinds of ids it is meant to check
    assert {"saxony", "court", "castle", "single", "couple", "turn", "actions"} <= seen
    assert any(s.startswith("elector:") for s in seen)


def test_a_view_walk_finds_an_id_whose_label_was_removed():
    state = next(s for s in states(*fixture("4_players")) if s.phase == 4)
    seen = shown_ids(state)
    planted = {k: v for k, v in R.labels().items() if k not in ("court", "actions")}
    assert missing_labels(seen, planted) == {"court", "actions"}


def test_an_edition_s_own_labels_win():
    rules = type(R)({**R.edition, "labels": {"saxony": "Saxony"}})
    assert rules.labels()["saxony"] == "Saxony"
    assert rules.describe(Action.of("break_tie", 0, {"electorate": "saxony", "winner": 1}),
                          ["Anna", "Bo"]) == "Anna broke the tie in Saxony in favour of Bo"


# ---------------------------------------------------------------------------
# The readability check itself, on planted faults
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["gave saxony to seat 2", "seat 2's tile at elector:mainz",
                                 "a ballot is emperor or rival, not None",
                                 "use knight_action", "voters {'1': 'x'}", "not ['1', '3']",
                                 "bought church_influence", "the koeln court is full"])
def test_the_readability_check_catches_what_users_met(bad):
    assert unreadable(bad, 4)


def test_the_readability_check_leaves_names_labels_and_quoted_values_alone():
    assert unreadable('Anna gave the Duchy of Saxony to Bo; "saxony" was typed', 4) == []
    assert unreadable("not your turn (Anna is to act, not seat 9)", 4) == []


# ---------------------------------------------------------------------------
# Names on the state, not in the view
# ---------------------------------------------------------------------------


def test_names_are_kept_on_the_state_and_stay_out_of_the_view():
    created = {**created_for(R, 3), "players": ["Anna", "Bo", "Zoltan"]}
    other = {**created, "players": ["Xavier", "Yuki", "Zoe"]}
    state, twin = R.initial_state(created), R.initial_state(other)
    assert state.names == ("Anna", "Bo", "Zoltan")
    for seat in (None, 0, "all"):
        assert R.view(state, seat) == R.view(twin, seat)
        assert "Zoltan" not in json.dumps(R.view(state, seat))


def test_a_refusal_names_the_player_whose_turn_it_is():
    created = {**created_for(R, 3), "players": ["Anna", "Bo", "Clara"]}
    state = R.apply(R.initial_state(created), Action.of("setup", "table",
                                                        {"players": 3, "emperor": 1}))
    with pytest.raises(IllegalAction) as err:
        R.apply(state, Action.of("place_start_empire_city", 2, {"electorate": "saxony"}))
    assert err.value.code == "not_your_turn"
    assert err.value.message == "not your turn (Bo is to act, not Clara)"


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "build", "type_", "actor", "data", "text"), T.REFUSALS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(T.REFUSALS)])
def test_every_refusal_of_the_table_reads_as_words(code, build, type_, actor, data, text):
    with pytest.raises(IllegalAction) as err:
        T.act(build(), type_, actor, **data)
    assert unreadable(err.value.message, 4) == [], err.value.message


@pytest.mark.parametrize("players", [3, 5])
def test_refusals_of_well_shaped_nonsense_read_as_words(players):
    rng = random.Random(players * 7)
    game = T._random_game(players, players, "table")
    messages: set[str] = set()
    for state in game.states[::5]:
        options = R.legal_actions(state) or [{"type": "pass", "actor": 0, "data": {}}]
        for _ in range(8):
            option = rng.choice(options)
            type_ = option["type"] if rng.random() < 0.8 else rng.choice(sorted(R.action_schemas))
            data = T._scramble(option["data"], rng)
            actor = option["actor"] if rng.random() < 0.8 else rng.choice([0, 2, 9, "table"])
            if R.action_schemas[type_]().validate(data):
                continue
            with contextlib.suppress(IllegalAction):
                try:
                    R.apply(state, Action.of(type_, actor, data))
                except IllegalAction as err:
                    messages.add(err.message)
                    raise
    assert len(messages) > 30
    bad = {m: unreadable(m, players) for m in messages if unreadable(m, players)}
    assert bad == {}


# ---------------------------------------------------------------------------
# describe(): whole sentences naming the actor
# ---------------------------------------------------------------------------


def actor_words(actor: Any, names: list[str]) -> str:
    return names[actor] if isinstance(actor, int) else f"The {actor}"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_event_of_a_fixture_is_a_sentence_that_starts_with_its_actor(path):
    created, actions = fixture(path.stem)
    names = list(created["players"])
    for action in actions:
        text = R.describe(action, names)
        assert text.startswith(actor_words(action.actor, names) + " "), text
        assert unreadable(text, len(names)) == [], text
        if action.type == "cast_vote":
            assert "Emperor" not in text and "Rival" not in text, text


EXPECTED_SENTENCES = [
    ("break_tie", 3, {"electorate": "palatinate", "winner": 1},
     "Dora broke the tie in the County Palatine of the Rhine in favour of Bo"),
    ("propose_marriage", 1, {"target": {"owner": 3, "at": "saxony", "side": "single",
                                        "age": 25}},
     "Bo proposed a daughter's marriage to Dora's single aged 25 in the Duchy of Saxony"),
    ("place_son", 2, {"electorate": "trier", "push_knight_owner": 3},
     "Cleo placed a son (a single aged 15) in the Archdiocese of Trier, sending Dora's knight "
     "back to supply"),
    ("buy_card", 2, {"card": "doctor", "target": {"owner": 0, "at": "throne", "side": "couple",
                                                  "age": 45}, "direction": "older"},
     "Cleo bought Doctor and made Anna's couple aged 45 on the throne older"),
    ("use_privilege", 0, {"privilege": "trier", "card": "permit", "electorate": "koeln"},
     "Anna used the privilege of the Archdiocese of Trier to play Permit and built a city in "
     "the Archdiocese of Cologne (Koeln)"),
    ("knight_action", 1, {"from": {"electorate": "mainz", "slot": "castle"},
                          "to": {"electorate": "bohemia", "slot": "court"}},
     "Bo moved a knight from a castle space of the Archdiocese of Mainz to an aristocrat space "
     "of the Kingdom of Bohemia"),
    ("reveal_votes", "table", {"votes": {"1": "emperor", "3": "rival"}},
     "The table revealed the election cards: Bo for the Emperor; Dora for the Rival"),
    ("cast_vote", 3, {"choice": "rival"}, "Dora cast a sealed ballot"),
    ("emperor_city_action", 0, {"mode": "move", "from": "bohemia", "to": "saxony"},
     "Anna moved an empire city from the Kingdom of Bohemia to the Duchy of Saxony"),
    ("setup", "table", {"players": 4, "emperor": 0},
     "The table set up the game for 4 players with Anna as the first Emperor"),
    ("send_to_convent", 2, {}, "Cleo sent a daughter to the convent"),
]


@pytest.mark.parametrize(("type_", "actor", "data", "expected"), EXPECTED_SENTENCES,
                         ids=[s[0] for s in EXPECTED_SENTENCES])
def test_the_spec_s_example_events_read_as_these_sentences(type_, actor, data, expected):
    assert R.describe(Action.of(type_, actor, data), ["Anna", "Bo", "Cleo", "Dora"]) == expected


# ---------------------------------------------------------------------------
# What the game waits for, and the election, as sentences (for the boards)
# ---------------------------------------------------------------------------


def test_the_election_of_example_3_is_told_as_a_sentence():
    names = ["Anna", "Bo", "Cleo", "Dora"]
    words = Words(names, R.labels())
    state = T._targets(T._election())
    assert decision_sentence(R.view(state, None), words) == \
        "Election: Cleo (Rival) challenges Anna (Emperor); Bo and Dora vote in secret."
    state = T.act(state, "cast_vote", 3, choice="rival")
    assert decision_sentence(R.view(state, 1), words) == \
        ("Election: Cleo (Rival) challenges Anna (Emperor); Bo and Dora vote in secret; "
         "Dora has voted, Bo not yet.")
    state = T.act(state, "cast_vote", 1, choice="emperor")
    # example 3 B: 3 votes for the Emperor, 6 for the Rival
    assert last_election_sentence(R.view(state, 1), words) == \
        "Last election: the Rival won 6 votes to 3 (Bo for the Emperor; Dora for the Rival)."


def test_every_decision_of_a_fixture_is_a_sentence_naming_who_decides():
    kinds: set[str] = set()
    for _, created, actions in fixture_games():
        names = list(created["players"])
        words = Words(names, R.labels())
        for state in states(created, actions):
            view = R.view(state, None)
            text = decision_sentence(view, words)
            assert text.endswith("."), text
            assert unreadable(text, len(names)) == [], text
            pending = view["pending"]
            if pending:
                kinds.add(pending["kind"])
                actor = names[pending["actor"]]
                assert actor in text, text
    assert {"turn", "vote", "break_tie", "daughter", "son", "start_aristocrat"} <= kinds


def test_every_action_has_words_and_every_decision_a_label():
    from projections.in_the_shadow_of_the_emperor.legal import ACCEPTS
    from projections.in_the_shadow_of_the_emperor.words import ACTION_WORDS

    assert set(R.action_schemas) <= set(ACTION_WORDS)
    assert missing_labels(set(ACCEPTS), R.labels()) == set()
