"""What a person may read in Royals, judged from the edition JSON itself (never from
`labels()`, which is what these checks judge): the component ids, and the marks of text
written for a machine (snake_case, reprs, seat numbers, raw ids).

Also the fixtures folded step by step, for the tests that walk every view and action.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from projections import get_rules
from projections.replay import META_TYPES, to_action

ROOT = Path(__file__).resolve().parents[2]
EDITION = json.loads((ROOT / "projections" / "data" / "royals.json").read_text("utf-8"))
FIXTURES = sorted((ROOT / "fixtures" / "royals").glob("*.jsonl"))

#: the words of the spec's event vocabulary a view or action holds as values (§5.1 draw
#: kinds and sources; the phases and marker kinds of the view; the result's reason)
SPEC_WORDS = frozenset({"country", "intrigue", "display", "deck", "awaiting_setup", "draw",
                        "play", "over", "period_3_scored", "city", "shield", "noble_house",
                        "period", "title", "title_half"})


def _edition_ids() -> dict[str, set[str]]:
    """Component ids by family, read straight from the edition JSON (spec §2)."""
    countries = {c["id"] for c in EDITION["countries"]}
    titles = {t["id"] for t in EDITION["titles"]}
    cities = {c["id"] for c in EDITION["cities"]}
    portraits = {p["id"] for c in EDITION["cities"] for p in c["portraits"]}
    colours = set(EDITION["cubes"]["per_colour"])
    shields = {f"{k}:{i}" for k, values in EDITION["country_bonus"]["values"].items()
               for i in range(len(values))}
    periods = {f"{p}:{k}:{level}" for p, by_country in EDITION["period_scoring"]["markers"].items()
               for k in by_country for level in ("high", "low")}
    discs = max(len(v) for v in EDITION["noble_house_bonus"]["in_play_by_player_count"].values())
    markers = ({f"city:{c}" for c in cities} | {f"shield:{s}" for s in shields}
               | {f"noble_house:{i}" for i in range(discs)} | {f"period:{p}" for p in periods}
               | {f"title:{t}" for t in titles} | {f"title_half:{t}" for t in titles})
    return {"countries": countries, "titles": titles, "cities": cities,
            "portraits": portraits, "colours": colours, "shields": shields,
            "periods": periods, "markers": markers}


IDS_BY_FAMILY = _edition_ids()
#: every id a value may be (marker ids are "kind:key", see `strings_in`)
IDS = frozenset().union(*IDS_BY_FAMILY.values())
#: ids that are not also English words of a sentence ("black" is both a colour and a word)
RAW_IDS = frozenset(IDS - IDS_BY_FAMILY["colours"])

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
SEAT_NUMBER = re.compile(r"\bseat \d")


def unreadable(text: str) -> list[str]:
    """What in `text` was written for a machine, not a person (empty: readable)."""
    problems = [f"snake_case {m!r}" for m in SNAKE.findall(text)]
    problems += [f"repr {mark!r}" for mark in ("None", "{'", "['", "FrozenDict(", "Bag(",
                                               "null", "(s)") if mark in text]
    problems += [f"seat number {m!r}" for m in SEAT_NUMBER.findall(text)]
    words = (w.rstrip(":") for w in re.findall(r"\b[a-z0-9][a-z_:0-9]*", text))
    problems += [f"raw id {word!r}" for word in words if word in RAW_IDS]
    return problems


def strings_in(value: Any, keys: bool = True) -> Iterator[str]:
    """Every string a value holds (and every dict key, when `keys`), a scoring token
    ({"kind", "key", "value"}) as its one id "kind:key"."""
    if isinstance(value, dict):
        if {"kind", "key", "value"} <= set(value):
            yield f"{value['kind']}:{value['key']}"
            yield str(value["kind"])
            return
        for key, item in value.items():
            if keys:
                yield str(key)
            yield from strings_in(item, keys)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item, keys)
    elif isinstance(value, str):
        yield value


@cache
def folded(path: Path) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """(player names, the state after every event) of one fixture, folded with the rules."""
    rules = get_rules("royals")
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    created = envelopes[0]["data"]
    state = rules.initial_state(created)
    states = [state]
    for env in envelopes[1:]:
        if env["type"] in META_TYPES:
            continue
        state = rules.apply(state, to_action(env))
        states.append(state)
    return tuple(created["players"]), tuple(states)
