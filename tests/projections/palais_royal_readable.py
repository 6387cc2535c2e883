"""Oracles for what a person reads in Palais Royal, derived from the edition JSON itself
(never from `labels()`, which they judge): the component ids, the machine words a view or an
action may carry, and a check that a text shows no id, snake_case word or Python repr."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from projections.replay import steps

ROOT = Path(__file__).resolve().parents[2]
EDITION = json.loads((ROOT / "projections" / "data" / "palais_royal.json").read_text("utf-8"))
FIXTURES = sorted((ROOT / "fixtures" / "palais_royal").glob("*.jsonl"))


def component_ids(edition: dict[str, Any]) -> set[str]:
    """Every id a piece of the edition has: each object's `id` anywhere in the JSON (nobles,
    court tiles, privilege cards and icons, garden spaces, statues), the court positions, the
    garden edges, and the personal supply a placement may come from (spec §5: "supply")."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                found.add(value["id"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(edition)
    found.update(edition["court"]["grid"]["positions"])
    found.update(edition["garden"]["edges"])
    found.add("supply")
    return found


IDS = component_ids(EDITION)

#: the JSON field names of views and actions: machine keys, never shown as they stand
FIELD_KEYS = frozenset({
    "active", "actor", "blue", "bonus_seals", "card", "cardinal_active", "count", "court",
    "court_layout", "data", "deck", "deck_count", "discard", "discard_count", "final_round",
    "from", "garden", "garden_servants", "gate_bonus", "gate_unlimited", "general_supply", "gold",
    "hand", "hand_count", "kept", "kings_chamber_extra", "mint_paid", "move_bonus", "my_score",
    "noble", "nobles_face_down", "nobles_face_down_count", "nobles_face_up", "nobles_left",
    "open_step", "pending_drawn", "pending_drawn_count", "phase", "placements", "placements_done",
    "played_cards", "players", "pompadour_extra", "public_scores", "purple", "round", "scores",
    "seal_bonus", "seals", "seat", "set_aside", "source", "sources", "space", "start_player",
    "steps", "supply", "tile", "to", "to_act", "turn", "turns_played", "type", "path", "options",
    "values", "cards", "player_count",
})
#: machine values that are no component: phases, the last step, action types, the table
MACHINE_VALUES = frozenset({"awaiting_setup", "initial_placement", "play", "over", "done",
                            "table"} | set(EDITION["event_types"]))

_QUOTED = re.compile(r"“[^”]*”")
_PATTERNS = [re.compile(p) for p in (
    r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b",  # snake_case
    r"\bn\d{2}\b", r"\br\dc\d\b", r"\bp\d\d\b",  # noble, space, court position ids
    r"\bNone\b", r"\bTrue\b", r"\bFalse\b", r"\bnull\b", r"\{'", r"\['", r"\('",
    r"FrozenDict\(", r"Bag\(",
)]
#: single-word ids that are also English words stay allowed only where they read as words
_WORD_IDS = sorted(i for i in IDS if re.fullmatch(r"[a-z]+", i)
                   and i not in ("supply", *EDITION["garden"]["edges"]))


def id_problems(text: str) -> list[str]:
    """Ids, snake_case words and reprs in `text` (what a person should never read); text in
    “quotes” is what somebody sent and is shown as sent."""
    plain = _QUOTED.sub("“”", text)
    found = [m.group(0) for p in _PATTERNS for m in p.finditer(plain)]
    found += [w for w in _WORD_IDS if re.search(rf"\b{w}\b", plain)]
    return found


def strings_in(value: Any, where: str = "") -> Iterator[tuple[str, str, bool]]:
    """(where, string, is_key) for every string in a JSON value, keys included."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{where}.{key}", str(key), True
            yield from strings_in(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from strings_in(item, f"{where}.{i}")
    elif isinstance(value, str):
        yield where, value, False


def unlabelled(value: Any, labels: dict[str, str], where: str = "") -> list[str]:
    """Every string a board could show from `value` that has no label: a key that is not a
    field name, or a value that is not a machine word."""
    out = []
    for at, text, is_key in strings_in(value, where):
        machine = text in FIELD_KEYS if is_key else text in MACHINE_VALUES
        if not machine and text not in labels:
            out.append(f"{at}: {text}")
    return out


def fixture_steps(rules: Any) -> Iterator[tuple[str, int, Any, dict[str, Any]]]:
    """(fixture name, seq, state after the event, envelope) for every game event of every
    recorded Palais Royal game."""
    for path in FIXTURES:
        envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        for env, cursor in steps(rules, envelopes):
            yield path.stem, env["seq"], cursor.state, env
