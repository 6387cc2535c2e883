"""Palais Royal reads in words (issue #20): every component id has a label, every sentence
and refusal names players and pieces, and a table records the garden in two taps a space."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from projections import get_rules
from projections.playout import created_for, play
from projections.replay import META_TYPES, to_action
from projections.rules import Action

from .palais_royal_readable import (
    EDITION,
    IDS,
    component_ids,
    fixture_steps,
    id_problems,
    unlabelled,
)
from .test_palais_royal import REFUSALS, refused

RULES = get_rules("palais_royal")
LABELS = RULES.labels()
STEPS = list(fixture_steps(RULES))


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


def test_every_component_id_of_the_edition_has_a_label_that_reads_as_words():
    # spec §2: 42 nobles, 9 court tiles, 9 card types (one shares the Cardinal's id), 8
    # privilege icons, 36 spaces, 5 statues, 9 court positions, 4 edges, the supply
    assert len(IDS) == 42 + 9 + (9 - 1) + 8 + 36 + 5 + 9 + 4 + 1
    missing = sorted(IDS - set(LABELS))
    assert not missing
    for ident in IDS:
        assert LABELS[ident] and not id_problems(LABELS[ident]), (ident, LABELS[ident])


def test_a_noble_label_says_what_the_tile_shows():
    """Spec §2.4: points, privilege icon, gold / purple / blue cost (zero costs not
    printed)."""
    assert LABELS["n21"] == "7-point noble (6 gold, 2 purple, 2 blue)"
    assert LABELS["n01"] == "2-point noble (1 purple, 1 blue)"
    assert LABELS["n41"] == "4-point noble with Servants +3 (2 gold, 2 purple, 2 blue)"
    assert LABELS["n29"] == "1-point noble with Diagonal move (2 gold, 1 purple)"


def test_spaces_read_as_rows_from_the_north_and_columns_from_the_west():
    assert LABELS["r0c0"] == "row 1, column 1"
    assert LABELS["r1c0"] == "row 2, column 1"
    assert LABELS["r5c3"] == "row 6, column 4"


def test_every_noble_has_its_own_label_unless_it_is_the_same_tile():
    looks = Counter((n["gold"], n["purple"], n["blue"], n["points"], n["privilege"])
                    for n in EDITION["nobles"])
    labels = Counter(LABELS[n["id"]] for n in EDITION["nobles"])
    assert sorted(looks.values()) == sorted(labels.values())


def test_an_editions_own_labels_win():
    edition = json.loads(json.dumps(RULES.edition))
    edition["labels"] = {"n21": "the Duke of Orléans", "mint": "Hôtel de la Monnaie"}
    rules = get_rules("palais_royal", edition)
    assert rules.labels()["n21"] == "the Duke of Orléans"
    assert rules.labels()["mint"] == "Hôtel de la Monnaie"
    assert rules.labels()["n22"] == LABELS["n22"]


def test_the_label_walk_finds_an_unlabelled_id_when_one_is_planted():
    """The walk below can fail: with one label removed it reports that id."""
    _name, _seq, state, _env = STEPS[5]
    view = RULES.view(state, "all")
    planted = {k: v for k, v in LABELS.items() if k != "r0c0"}
    assert unlabelled(view, LABELS) == []
    assert any(p.endswith("r0c0") for p in unlabelled(view, planted))
    assert unlabelled({"garden": {"r0c0": "n99"}}, LABELS) == [".garden.r0c0: n99"]


def _views(state: Any) -> list[tuple[Any, dict[str, Any]]]:
    seats = range(state.player_count)
    return [(seat, RULES.view(state, seat)) for seat in (*seats, None, "all")]


def test_every_id_a_view_a_legal_action_or_a_chance_slot_holds_has_a_label():
    problems: list[str] = []
    checked = Counter()
    for name, seq, state, _env in STEPS:
        for seat, view in _views(state):
            problems += unlabelled(view, LABELS, f"{name}@{seq} view {seat}")
            checked["views"] += 1
        for action in RULES.legal_actions(state):
            problems += unlabelled(action, LABELS, f"{name}@{seq} legal")
            checked["legal"] += 1
            if RULES.chance_fields.get(action["type"]):
                slots = RULES.chance_slots(state, Action.of(action["type"], action["actor"],
                                                            action["data"])) or []
                for slot in slots:
                    picked = {"path": slot["path"], "options": slot["options"],
                              "values": [i["values"] for g in slot.get("groups", ())
                                         for i in g["items"]]}
                    problems += unlabelled(picked, LABELS, f"{name}@{seq} slot")
                    problems += [f"{name}@{seq} slot label {slot['label']!r}: {p}"
                                 for p in _texts_problems(slot)]
                    checked["slots"] += 1
    assert not problems, problems[:20]
    assert checked["views"] > 3000 and checked["legal"] > 1000 and checked["slots"] >= 46


def _texts_problems(slot: dict[str, Any]) -> list[str]:
    texts = [slot["label"]]
    for group in slot.get("groups", ()):
        texts.append(group["label"])
        texts += [item["label"] for item in group["items"]]
    return [p for t in texts for p in id_problems(t)]


# ---------------------------------------------------------------------------
# Sentences and refusals
# ---------------------------------------------------------------------------


def test_the_id_check_catches_planted_ids_and_reprs():
    for bad in ("recruited noble n34 from r1c0", "put 2 on kings_chamber", "moved to gate",
                "seat None", "held {'a': 1}", "a FrozenDict({})", "on p11"):
        assert id_problems(bad), bad
    assert id_problems("“n34” is not a noble tile") == []  # what somebody sent, as sent
    assert id_problems("Anne put 1 servant on the Gate from her personal supply") == []


def test_every_fixture_event_is_described_as_a_sentence_naming_its_actor():
    names = {}
    seen = 0
    for name, _seq, _state, env in STEPS:
        if env["type"] == "game_created":
            names[name] = env["data"]["players"]
        if env["type"] in META_TYPES:
            continue
        text = RULES.describe(to_action(env), names[name])
        actor = "The table" if env["actor"] == "table" else names[name][env["actor"]]
        assert text.startswith(actor + " "), text
        assert not id_problems(text), (text, id_problems(text))
        seen += 1
    assert seen > 900


@pytest.mark.parametrize(("name", "make", "type_", "actor", "data", "code", "named"),
                         REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_reads_without_ids(name, make, type_, actor, data, code, named):
    message = refused(make(), type_, actor, data).message
    assert not id_problems(message), (message, id_problems(message))


def test_refusals_name_the_players_by_name():
    from .test_palais_royal import _play

    message = refused(_play(), "end_turn", 1, {}).message
    assert message == "it is Anne's turn to end the turn, not Bastien's"


# ---------------------------------------------------------------------------
# Table mode: the garden in two taps a space
# ---------------------------------------------------------------------------


def _setup_slots(rules=RULES, players: int = 3) -> tuple[Any, list[dict[str, Any]]]:
    state = rules.initial_state({**created_for(rules, players),
                                 "players": ["Anne", "Bastien", "Claire"][:players]})
    return state, rules.chance_slots(state, Action.of("setup", "table",
                                                      {"player_count": players}))


def test_each_garden_slot_groups_every_noble_once_for_two_taps():
    _state, slots = _setup_slots()
    garden = [s for s in slots if s["field"] == "garden"]
    assert len(garden) == 36
    for slot in garden:
        values = [v for g in slot["groups"] for item in g["items"] for v in item["values"]]
        assert Counter(values) == Counter(slot["options"])  # a partition of the options
        assert len(slot["groups"]) <= 16  # first tap: a privilege icon or a crown value
        assert all(1 <= len(g["items"]) <= 6 for g in slot["groups"])  # second tap: the tile
    privileges = {n["id"]: n["privilege"] for n in EDITION["nobles"]}
    for group in garden[0]["groups"]:
        kinds = {privileges[v] for item in group["items"] for v in item["values"]}
        assert len(kinds) == 1  # a group is one icon (or none)


class TwoTaps:
    """A client of the `groups` extension: tap a group with a tile left, then an item with
    a tile left; the pick is the item's first value not yet used by any slot."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used = rng, Counter()

    def pick(self, slot: dict[str, Any]) -> tuple[Any, int]:
        def left(values: list[Any]) -> list[Any]:
            spare = Counter(values) - self.used
            return [v for v in values if spare[v] > 0]

        groups = [g for g in slot["groups"] if left([v for i in g["items"]
                                                     for v in i["values"]])]
        group = self.rng.choice(groups)  # tap 1
        items = [i for i in group["items"] if left(i["values"])]
        item = self.rng.choice(items)  # tap 2
        value = left(item["values"])[0]
        self.used[value] += 1
        return value, 2


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_setup_tapped_in_at_most_two_taps_a_space_is_accepted(seed):
    state, slots = _setup_slots()
    client, rng = TwoTaps(random.Random(seed)), random.Random(seed)
    data: dict[str, Any] = {"player_count": 3, "court_layout": [None] * 9, "garden": {}}
    tiles = [s for s in slots if s["field"] == "court_layout"]
    for slot, tile in zip(tiles, rng.sample(tiles[0]["options"], 9), strict=True):
        data["court_layout"][slot["path"][0]] = tile  # one tap each, 9 tiles
    taps = 0
    for slot in (s for s in slots if s["field"] == "garden"):
        value, n = client.pick(slot)
        data["garden"][slot["path"][0]] = value
        taps += n
    data["start_player"] = rng.choice(slots[-1]["options"])
    assert taps == 2 * 36
    after = RULES.apply(state, Action.of("setup", "table", data))
    assert RULES.nobles_left(after) == 36 and len(after.set_aside) == 6


def _twin_edition() -> dict[str, Any]:
    """A club edition where n03 is printed exactly like n02 (1 gold, 1 purple, 1 point)."""
    edition = json.loads(json.dumps(RULES.edition))
    n02 = next(n for n in edition["nobles"] if n["id"] == "n02")
    for n in edition["nobles"]:
        if n["id"] == "n03":
            n.update({k: n02[k] for k in ("gold", "purple", "blue", "points", "privilege")})
    return edition


def test_identical_tiles_are_one_button_and_a_pick_takes_the_lowest_unplaced_id():
    rules = get_rules("palais_royal", _twin_edition())
    _state, slots = _setup_slots(rules)
    garden = [s for s in slots if s["field"] == "garden"]
    group = next(g for g in garden[0]["groups"] if g["label"].startswith("1-point"))
    assert group["items"] == [{"label": "1-point noble (1 gold, 1 purple)",
                               "values": ["n02", "n03"]}]
    client = TwoTaps(random.Random(0))
    client.used.update(["n02"])  # one of the twins already lies in the garden
    client.rng.choice = lambda seq: next(  # type: ignore[method-assign]
        x for x in seq if "1-point" in x["label"])
    assert client.pick(garden[1])[0] == "n03"


def test_which_of_two_identical_tiles_lies_where_changes_nothing():
    """Rulings #20: a whole random game with the twins swapped everywhere ends with the same
    scores, and every view is the same once the ids are swapped back."""
    rules = get_rules("palais_royal", _twin_edition())
    created = created_for(rules, 3)
    game = play(rules, created, random.Random(11).randrange, "twins", max_steps=3000)
    assert rules.result(game.final) is not None
    swap = {"n02": "n03", "n03": "n02"}

    def swapped(value: Any) -> Any:
        return _rename(value, swap)

    state = rules.initial_state(created)
    for action, expected in zip(game.actions, game.states[1:], strict=True):
        state = rules.apply(state, Action.of(action.type, action.actor,
                                             swapped(action.to_json()["data"])))
        for seat in (0, 1, 2, None, "all"):
            assert swapped(rules.view(state, seat)) == rules.view(expected, seat)
    assert rules.result(state)["scores"] == rules.result(game.final)["scores"]


def _rename(value: Any, swap: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {swap.get(k, k): _rename(v, swap) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rename(v, swap) for v in value]
    return swap.get(value, value) if isinstance(value, str) else value


def test_the_id_set_comes_from_the_edition_and_grows_with_it():
    edition = json.loads(json.dumps(EDITION))
    edition["nobles"].append({**edition["nobles"][0], "id": "n43"})
    assert component_ids(edition) - IDS == {"n43"}
