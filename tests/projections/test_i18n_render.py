"""Every sentence of every sample game of a converted game reads Chinese in zh-Hans (issue
#33, "Oracles"): the sentence of each event, the two refusals the fingerprint asks at each
event (the move by another seat, the move with no data), the refusal after the end, the
words for statuses and ends, and the prompts and options of the moves open at each step.
No ASCII word of two letters or more may remain but the players' names and proper names
(the game's title, the Decktet). The check is shown to fail on a planted untranslated key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from projections import get_rules
from projections.choices import Walker
from projections.messages import M, render
from projections.replay import META_TYPES, Folder, mode_of
from projections.rules import Action, ChronicleError

from .test_i18n_catalog import CONVERTED

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PROPER = {"Adaman", "Decktet", "Royals", "Palais", "Royal", "In", "the", "Shadow", "of",
          "Emperor", "Arcane", "Wonders"}
WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str, names: list[str]) -> list[str]:
    allowed = PROPER | {w for name in names for w in WORD.findall(name)}
    return [w for w in WORD.findall(text) if w not in allowed]


def _refusal(rules: Any, state: Any, action: Action) -> Any:
    try:
        rules.apply(state, action)
    except ChronicleError as err:
        return err.message
    except Exception:  # data the schema would refuse first: no sentence of the rules
        return None
    return None


def said(path: Path) -> Iterator[Any]:
    """Everything the rules say about one sample game, as they return it."""
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    rules = get_rules(envelopes[0]["data"]["game"])
    names = list(envelopes[0]["data"]["players"])
    folder = Folder(rules, mode_of(envelopes))
    walker = Walker(rules, table=mode_of(envelopes) == "table")
    yield from rules.labels().values()
    before = None
    for env in envelopes:
        cursor = folder.feed(env)
        if env["type"] not in META_TYPES and env["type"] != "game_created":
            action = Action.of(env["type"], env["actor"], env["data"])
            yield rules.describe(action, names)
            if before is not None:
                other = next((s for s in range(len(names)) if s != env["actor"]), "table")
                yield _refusal(rules, before.state, Action.of(env["type"], other, env["data"]))
                yield _refusal(rules, before.state, Action.of(env["type"], env["actor"], {}))
        for actor in rules.to_act(cursor.state)[:1]:
            for record in walker.opening(cursor.state, actor):
                yield record.label
                choice = walker.walk(cursor.state, record.name, actor, []).choice
                if choice is not None:
                    yield choice.prompt
                    for option in choice.options[:6]:
                        yield option.label
                        yield option.detail
                        yield option.group
        before = cursor
    last = [e for e in envelopes if e["type"] not in META_TYPES][-1]
    yield _refusal(rules, cursor.state, Action.of(last["type"], last["actor"], last["data"]))


#: the fields of an event's data that hold what a person typed (a ruling's reason, a note):
#: shown as typed, in whatever language it was typed
TYPED_FIELDS = ("reason", "text")


def typed(value: Any) -> list[str]:
    """What a person typed somewhere in an event's data (shown as typed, never translated);
    the check takes these texts out of a sentence, and only these."""
    if isinstance(value, dict):
        return [t for k, v in value.items()
                for t in ([v] if k in TYPED_FIELDS and isinstance(v, str) else typed(v))]
    if isinstance(value, list):
        return [t for v in value for t in typed(v)]
    return []


def _fixtures() -> list[Path]:
    return [p for slug in CONVERTED for p in sorted((FIXTURES / slug).glob("*.jsonl"))]


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sentence_of_a_sample_game_reads_chinese(path: Path) -> None:
    lines = path.read_text("utf-8").splitlines()
    names = list(json.loads(lines[0])["data"]["players"])
    notes = sorted({t for line in lines for t in typed(json.loads(line).get("data"))},
                   key=len, reverse=True)
    left = {}
    count = 0
    for value in said(path):
        if value is None or value == "":
            continue
        count += 1
        text = render(value, "zh_Hans")
        for note in notes:
            text = text.replace(note, "")
        found = english_words(text, names)
        if found:
            left[str(value)] = text
    assert count > 10
    assert left == {}


def test_typed_words_are_only_those_of_the_typed_fields() -> None:
    data = {"reason": "a typed reason", "ops": [{"op": "note", "text": "Kept"}], "card": "Ice"}
    assert typed(data) == ["a typed reason", "Kept"]


def test_the_check_finds_a_planted_untranslated_key() -> None:
    planted = M("{player} planted a card", player="Ann")
    assert english_words(render(planted, "zh_Hans"), ["Ann"]) == ["planted", "card"]
    assert english_words(render(M("{player} controlled {card}", player="Ann", card="x1"),
                                "zh_Hans"), ["Ann"]) == []
