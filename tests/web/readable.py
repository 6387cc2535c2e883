"""What a person reads on a page must not be a machine's words: the raw-id patterns of each
game, derived from its edition data (`projections/data/<slug>.json`), and the patterns of
any leak (snake_case, None, null, a JSON dump, a seat as a number)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from projections import get_rules

from .conftest import ROOT

#: leaks on any page of any game
GENERIC = {
    "snake_case": r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
    "colon-joined keys": r"\b[a-z0-9_]+:[a-z_]+(?::[a-z_]+)?\b",
    "a Python or JS null": r"\b(?:None|null|undefined|NaN)\b",
    "a boolean literal": r"\b(?:True|False|true|false)\b",
    "an object dump": r"\[object Object\]|[{\[]\"",
    "a seat as a number": r"(?i)\bseat \d+(?![\d%])",
    "a card instance id": r"\bp\d+-\d{3}(?:-\d+)?\b",
}

#: ids that are also ordinary English words of the game's sentences ("the move at step 3",
#: "the end of the round"): the edition's ids minus these are looked for as whole words
ENGLISH = {
    "adaman": {"end"},
    "in_the_shadow_of_the_emperor": {"move", "actions", "income", "aging", "promotion", "knight"},
    "palais_royal": set(),
    "royals": set(),
    "thrones": set(),
}


#: an id that already reads as a name ("Stark", "Lannister"): shown as it stands, it is fine
NAME = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*")


def _ids(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            out.add(value["id"])
        for key, v in value.items():
            if key != "abilities":  # an ability's id names it within its card, never alone
                _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)
    return out


@cache
def component_ids(slug: str) -> tuple[str, ...]:
    """Every id in the edition data that a person would read as something else: its label
    differs, it is not an English word of the sentences, and it does not read as a name."""
    edition = json.loads((ROOT / "projections" / "data" / f"{slug}.json").read_text())
    labels = get_rules(slug).labels()
    return tuple(sorted(i for i in _ids(edition, set()) if labels.get(i, None) != i
                        and i not in ENGLISH[slug] and len(i) > 1 and not NAME.fullmatch(i)))


@cache
def patterns(slug: str) -> dict[str, re.Pattern[str]]:
    """Name -> pattern: the edition's ids (whole words, case-sensitive) and the generic
    leaks."""
    ids = component_ids(slug)
    out = {name: re.compile(p) for name, p in GENERIC.items()}
    if ids:
        out["a component id"] = re.compile(
            r"(?<![\w-])(?:" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")
    return out


def raw_words(slug: str, text: str) -> list[tuple[str, str]]:
    """(pattern name, the words matched) for every leak in `text`."""
    found = []
    for name, pattern in patterns(slug).items():
        for m in pattern.finditer(text):
            found.append((name, m.group(0)))
    return found
