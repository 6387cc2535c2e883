"""Palais Royal's component data, read once per edition into typed, immutable records
(spec §2), and the check that an edition gives every field the reducer reads.

Every number the rules use (costs, points, allowances, setup counts, scoring values, the
garden geometry) comes from here; nothing else reads the edition's JSON.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import fields, validate

from ..rules import GameRules, OpenSchema, schema_problems

TileId = str
SpaceId = str
NobleId = str
CardId = str

#: open_step after step 5 (spec §4.1: open_step ∈ {1..5, done}); a card's window may name it
DONE = 6
SUPPLY = "supply"
# tile roles the reducer needs by name (spec §2.1); their numbers come from the edition
GATE, PARADE, STAIRWAY, MINT = "gate", "parade_ground", "stairway", "mint"
KINGS, POMPADOUR, OFFICE, BACK_DOOR, CARDINAL = (
    "kings_chamber", "pompadour", "office", "back_door", "cardinal")
ROLE_TILES = frozenset({GATE, PARADE, STAIRWAY, MINT, KINGS, POMPADOUR, OFFICE, BACK_DOOR,
                        CARDINAL})


# ---------------------------------------------------------------------------
# Typed records
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Noble:
    id: NobleId
    gold: int
    purple: int
    blue: int
    points: int
    privilege: str | None


@dataclass(frozen=True, slots=True)
class CardType:
    id: CardId
    count: int
    cost: int
    window: frozenset[int]
    effect: Mapping[str, Any]
    to_played_area: bool


@dataclass(frozen=True, slots=True)
class Printed:
    """What an edition prints on a piece besides its numbers, for the words a person reads:
    its own name when it has one (`name`, for a court tile also `name_en`)."""

    privileges: tuple[tuple[str, str | None], ...]  # (id, name) in edition order
    tiles: tuple[tuple[TileId, str | None], ...]
    cards: tuple[tuple[CardId, str | None], ...]
    court_positions: tuple[str, ...]
    spaces: tuple[tuple[SpaceId, int, int], ...]  # (id, row, col)
    statues: tuple[str, ...]
    #: the base rule's printed names (top-level lists with id and name, the edition's own
    #: `labels`): they win over every designed label
    labels: Mapping[str, str]
    #: the Chinese names the edition prints (a court tile's `name_zh`, a privilege's `zh`),
    #: by id: the words of the seed (issue #33)
    zh: Mapping[str, str]


@dataclass(frozen=True, slots=True, eq=False)
class Components:
    """One edition as the rules read it. Compared by identity: built once per bound rules
    object, so a memo of what follows from it (words.py's labels) keys on the object."""

    tile_ids: tuple[TileId, ...]
    tile_index: Mapping[TileId, int]
    grid_cols: int
    advantage_bonus: Mapping[TileId, int]
    privileges: tuple[str, ...]
    privilege_amount: Mapping[str, int]
    nobles: Mapping[NobleId, Noble]
    cards: Mapping[CardId, CardType]
    space_ids: tuple[SpaceId, ...]
    space_index: Mapping[SpaceId, int]
    space_weight: Mapping[SpaceId, int]
    #: corners, edge and protruding spaces: a recruit there leaves a servant (§5.7e)
    edge_spaces: frozenset[SpaceId]
    garden_neighbours: Mapping[SpaceId, tuple[SpaceId, ...]]
    edges: Mapping[str, tuple[SpaceId, ...]]
    garden_size: tuple[int, int]
    per_colour: int
    personal_at_start: int
    general_supply: int
    fixed_initial_servants: Mapping[TileId, int]
    free_initial_servants: int
    starting_gold: Mapping[str, tuple[int, ...]]  # by player count, in turn order
    garden_threshold: int
    edge_scores: tuple[int, int, int]  # first, second, minimum to score (spec §7.2)
    held_card_points: tuple[int, int]  # points each, at most (spec §7.1)
    printed: Printed


# ---------------------------------------------------------------------------
# Reading an edition
# ---------------------------------------------------------------------------


def load_components(content: Mapping[str, Any]) -> Components:
    """The typed edition; `content` has passed `edition_problems`."""
    court, garden, spaces = content["court"], content["garden"], content["garden"]["spaces"]
    servants, setup, scoring = content["servants"], content["setup"], content["scoring"]
    edge, held = scoring["garden_edge"], scoring["held_privilege_cards"]
    tile_ids = tuple(str(t["id"]) for t in court["tiles"])
    space_ids = tuple(str(s["id"]) for s in spaces)
    return Components(
        tile_ids=tile_ids,
        tile_index={t: i for i, t in enumerate(tile_ids)},
        grid_cols=int(court["grid"]["cols"]),
        advantage_bonus=advantage_bonus(court["tiles"]),
        privileges=tuple(str(p["id"]) for p in content["noble_privileges"]),
        privilege_amount=privilege_amount(content["noble_privileges"]),
        nobles=_nobles(content["nobles"]),
        cards=_cards(content["privilege_cards"]),
        space_ids=space_ids,
        space_index={s: i for i, s in enumerate(space_ids)},
        space_weight={s["id"]: int(s["edge_weight"]) for s in spaces},
        edge_spaces=frozenset(s["id"] for s in spaces if s["edges"]),
        garden_neighbours={k: tuple(v) for k, v in garden["adjacency"].items()},
        edges={k: tuple(v) for k, v in garden["edges"].items()},
        garden_size=(1 + max(int(s["row"]) for s in spaces),
                     1 + max(int(s["col"]) for s in spaces)),
        per_colour=int(servants["per_colour"]),
        personal_at_start=int(servants["personal_at_start"]),
        general_supply=int(servants["general_supply_per_colour"]),
        fixed_initial_servants={str(t): int(k)
                                for t, k in setup["fixed_initial_servants"].items()},
        free_initial_servants=int(setup["free_initial_servants"]),
        starting_gold={str(n): tuple(int(g) for g in golds)
                       for n, golds in setup["starting_gold_by_player_count"].items()},
        garden_threshold=int(content["end"]["garden_threshold"]),
        edge_scores=(int(edge["first"]), int(edge["second"]), int(edge["minimum_to_score"])),
        held_card_points=(int(held["points_each"]), int(held["max_points"])),
        printed=_printed(content),
    )


def advantage_bonus(tiles: list[Mapping[str, Any]]) -> dict[TileId, int]:
    """Extra gate servants / moves / gold / servants for the advantage (spec §2.1).

    Read from `advantage_bonus` when the edition gives it, else from the number printed
    in the tile's advantage text ("+1 gold", "1 extra servant"); no text: no bonus.
    (docs/rulings/palais_royal.md #4)
    """
    out: dict[TileId, int] = {}
    for tile in tiles:
        if "advantage_bonus" in tile:
            out[tile["id"]] = int(tile["advantage_bonus"])
            continue
        match = re.search(r"\+(\d+)|(\d+) extra", tile.get("advantage") or "")
        out[tile["id"]] = int(match.group(1) or match.group(2)) if match else 0
    return out


def privilege_amount(privileges: list[Mapping[str, Any]]) -> dict[str, int]:
    """How much each noble privilege gives: `amount`, else the `_plus_N` of its id
    (rulings #4)."""
    out: dict[str, int] = {}
    for priv in privileges:
        match = re.search(r"_(\d+)$", priv["id"])
        out[priv["id"]] = int(priv.get("amount", match.group(1) if match else 1))
    return out


def _nobles(nobles: list[Mapping[str, Any]]) -> dict[NobleId, Noble]:
    return {n["id"]: Noble(n["id"], int(n["gold"]), int(n["purple"]), int(n["blue"]),
                           int(n["points"]), n.get("privilege"))
            for n in nobles}


def _cards(cards: list[Mapping[str, Any]]) -> dict[CardId, CardType]:
    out: dict[CardId, CardType] = {}
    for c in cards:
        window = frozenset(DONE if s == "done" else int(s) for s in c["window_open_steps"])
        out[c["id"]] = CardType(c["id"], int(c["count"]), int(c["cost"]), window,
                                dict(c["effect_data"]), c["goes_to"] == "played_area")
    return out


def _name(piece: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        if piece.get(key):
            return str(piece[key])
    return None


def _printed(content: Mapping[str, Any]) -> Printed:
    court, garden = content["court"], content["garden"]
    return Printed(
        privileges=tuple((p["id"], _name(p, "name")) for p in content["noble_privileges"]),
        tiles=tuple((t["id"], _name(t, "name", "name_en")) for t in court["tiles"]),
        cards=tuple((c["id"], _name(c, "name")) for c in content["privilege_cards"]),
        court_positions=tuple(court["grid"].get("positions", ())),
        spaces=tuple((s["id"], int(s["row"]), int(s["col"])) for s in garden["spaces"]),
        statues=tuple(str(s["id"]) for s in garden.get("statues", ())),
        labels=GameRules[Any](content).labels(),  # the one place that rule lives
        zh={str(p["id"]): str(p[key]) for p, key in
            [(t, "name_zh") for t in court["tiles"]] +
            [(p, "zh") for p in content["noble_privileges"]] if p.get(key)},
    )


# ---------------------------------------------------------------------------
# Checking an edition (every field the reducer reads)
# ---------------------------------------------------------------------------


class _EdTile(OpenSchema):
    id = fields.String(required=True)
    advantage = fields.String(allow_none=True, load_default=None)
    advantage_bonus = fields.Integer(validate=validate.Range(min=0))


class _EdGrid(OpenSchema):
    rows = fields.Integer(required=True, validate=validate.Range(min=1))
    cols = fields.Integer(required=True, validate=validate.Range(min=1))


class _EdCourt(OpenSchema):
    tiles = fields.List(fields.Nested(_EdTile), required=True, validate=validate.Length(min=1))
    grid = fields.Nested(_EdGrid, required=True)


class _EdSpace(OpenSchema):
    id = fields.String(required=True)
    row = fields.Integer(required=True, validate=validate.Range(min=0))
    col = fields.Integer(required=True, validate=validate.Range(min=0))
    edges = fields.List(fields.String(), required=True)
    edge_weight = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdGarden(OpenSchema):
    spaces = fields.List(fields.Nested(_EdSpace), required=True,
                         validate=validate.Length(min=1))
    adjacency = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                            required=True)
    edges = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                        required=True)


class _EdNoble(OpenSchema):
    id = fields.String(required=True)
    gold = fields.Integer(required=True, validate=validate.Range(min=0))
    purple = fields.Integer(required=True, validate=validate.Range(min=0))
    blue = fields.Integer(required=True, validate=validate.Range(min=0))
    points = fields.Integer(required=True)
    privilege = fields.String(allow_none=True, required=True)


class _EdPrivilege(OpenSchema):
    id = fields.String(required=True, validate=validate.Regexp(r".*_\d+$|^diagonal_move$"))
    amount = fields.Integer(validate=validate.Range(min=0))


class _EdCard(OpenSchema):
    id = fields.String(required=True)
    count = fields.Integer(required=True, validate=validate.Range(min=0))
    cost = fields.Integer(required=True, validate=validate.Range(min=0))
    window_open_steps = fields.List(fields.Raw(), required=True)
    effect_data = fields.Dict(required=True)
    goes_to = fields.String(required=True, validate=validate.OneOf(["discard", "played_area"]))


class _EdServants(OpenSchema):
    per_colour = fields.Integer(required=True, validate=validate.Range(min=0))
    personal_at_start = fields.Integer(required=True, validate=validate.Range(min=0))
    general_supply_per_colour = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdSetup(OpenSchema):
    fixed_initial_servants = fields.Dict(keys=fields.String(), values=fields.Integer(),
                                         required=True)
    free_initial_servants = fields.Integer(required=True, validate=validate.Range(min=0))
    starting_gold_by_player_count = fields.Dict(keys=fields.String(),
                                                values=fields.List(fields.Integer()),
                                                required=True)


class _EdEnd(OpenSchema):
    garden_threshold = fields.Integer(required=True, validate=validate.Range(min=0))


class _EdGardenEdge(OpenSchema):
    first = fields.Integer(required=True)
    second = fields.Integer(required=True)
    minimum_to_score = fields.Integer(required=True)


class _EdHeld(OpenSchema):
    points_each = fields.Integer(required=True)
    max_points = fields.Integer(required=True)


class _EdScoring(OpenSchema):
    garden_edge = fields.Nested(_EdGardenEdge, required=True)
    held_privilege_cards = fields.Nested(_EdHeld, required=True)


class EditionSchema(OpenSchema):
    slug = fields.String(required=True, validate=validate.Equal("palais_royal"))
    court = fields.Nested(_EdCourt, required=True)
    garden = fields.Nested(_EdGarden, required=True)
    nobles = fields.List(fields.Nested(_EdNoble), required=True)
    nobles_placed = fields.Integer(required=True, validate=validate.Range(min=1))
    noble_privileges = fields.List(fields.Nested(_EdPrivilege), required=True)
    privilege_cards = fields.List(fields.Nested(_EdCard), required=True)
    servants = fields.Nested(_EdServants, required=True)
    setup = fields.Nested(_EdSetup, required=True)
    end = fields.Nested(_EdEnd, required=True)
    scoring = fields.Nested(_EdScoring, required=True)


def edition_problems(content: Mapping[str, Any]) -> list[str]:
    """Why `content` cannot serve as a Palais Royal edition (empty: it can): the schema of
    every field read, then the shapes the rules rely on (spec §2.1, §3)."""
    problems = schema_problems(EditionSchema(), dict(content))
    if problems:
        return problems
    tiles = {t["id"] for t in content["court"]["tiles"]}
    missing = ROLE_TILES - tiles
    if missing:
        problems.append(f"court.tiles lacks {sorted(missing)}")
    grid = content["court"]["grid"]
    if grid["rows"] * grid["cols"] != len(tiles):
        problems.append("court.grid rows x cols must equal the number of tiles")
    if content["nobles_placed"] != len(content["garden"]["spaces"]):
        problems.append("nobles_placed must equal the number of garden spaces")
    if content["nobles_placed"] > len(content["nobles"]):
        problems.append("fewer nobles than garden spaces")
    return problems
