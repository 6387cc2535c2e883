"""In the Shadow of the Emperor: the edition's component data, checked and made typed.

Spec: docs/games/in_the_shadow_of_the_emperor.md §3 (components); the data is
data/in_the_shadow_of_the_emperor.json. `edition_problems` names what makes a content
unusable (a schema of every field the rules read); `load_components` turns an edition into
`Components`, the frozen lookups every rule reads, built once per bound rules object, so no
rule parses JSON while a game is played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from marshmallow import fields, validate

from ..messages import Name
from ..rules import Bag, OpenSchema, schema_problems
from .words import edition_labels

PLAYER_COUNTS = (3, 4, 5)
ELECTORATE_IDS = ("mainz", "trier", "koeln", "bohemia", "palatinate", "saxony", "brandenburg")
CARD_IDS = ("doctor", "move", "rival", "pope", "church_influence", "excommunication",
            "indulgence", "permit", "ordinance", "promotion", "foreign_kings_daughter",
            "knight", "gray_eminence")


# ---------------------------------------------------------------------------
# The typed edition
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ElectorateInfo:
    """One electorate of the board (spec §3.2)."""

    id: str
    kind: str  # "spiritual" (an archdiocese) or "secular"
    aristocrat_spaces: int
    extra_spaces_5p: int
    city_spaces: int
    castle_spaces: int
    spiritual: bool  # its elector must be a single (`elector_must_be_single`)
    votes: int  # what its elector adds in an election (spec §3.4, ruling 10)

    def court_spaces(self, n: int) -> int:
        """Aristocrat spaces at `n` players (spec §3.2 / §3.7: the 5-player board has extra
        secular aristocrat spaces [D])."""
        return self.aristocrat_spaces + (self.extra_spaces_5p if n == 5 else 0)


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One action card (spec §3.5, §6.3)."""

    id: str
    name: str
    color: str  # blue, red or none: coloured cards decide a descendant (spec §5.3)
    cost: int  # thalers; the Permit's price goes by city number (`cost_by_city`) instead
    by_privilege_only: bool  # taken only through a privilege: never counts for descendants
    cost_by_city: Mapping[str, int]
    vp_by_city: Mapping[str, int]
    votes: int  # what the card adds to its holder's votes (the Pope, ruling 10)


@dataclass(frozen=True, slots=True)
class Income:
    """Spec §5.1."""

    base: int
    per_own_city: int
    per_other_city_under_own_elector: int
    saxony_bonus: int


@dataclass(frozen=True, slots=True)
class Influence:
    """Spec §5.5 step 1 (the elector tile counts when `elector_tile_counts`, §12.1)."""

    city: int
    knight: int
    per_side: Mapping[str, int]  # "single" / "couple" -> influence of such a tile
    empire_city_to_emperor: int
    elector_tile_counts: bool


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """Spec §9: the fixed awards (the Permit's and the Emperor track's are per entry)."""

    new_elector: int
    daughter_married: int
    voted_for_winner: int
    indulgence: int
    mainz: int


@dataclass(frozen=True, slots=True)
class TrackEntry:
    """One round of the Emperor track (spec §5.7)."""

    vp: int
    thalers: int
    empire_city: str  # "place_or_move", "move" or "none"


@dataclass(frozen=True, slots=True)
class Components:
    """The edition as the rules read it."""

    eids: tuple[str, ...]  # the electorates in board order
    eindex: Mapping[str, int]
    electorate_ids: frozenset[str]
    electorates: Mapping[str, ElectorateInfo]
    cards: Mapping[str, CardInfo]  # in the edition's order (the order legal actions list)
    ages: tuple[int, ...]  # youngest first
    rounds: int
    first_phase: int  # the phase round 1 starts at (spec §4)
    thalers_start: int
    thalers_max: int
    nun_thalers: int
    tiles: int  # per player
    knights: int
    cities: int
    empire_cities: int
    displays: Mapping[int, Bag]  # the card display at n players
    income: Income
    influence: Influence
    victory_points: VictoryPoints
    emperor_track: Mapping[int, TrackEntry]
    phase_names: Mapping[int, str]
    labels: Mapping[str, str]

    def card_name(self, card: str) -> str:
        info = self.cards.get(card)
        return card if info is None else info.name

    def permit_cost(self, number: int) -> int:
        """The Permit's price for a player's `number`th city (0 past the last)."""
        return self.cards["permit"].cost_by_city.get(str(number), 0)


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


def _electorate(raw: Mapping[str, Any], privileges: Mapping[str, Any]) -> ElectorateInfo:
    eid = str(raw["id"])
    # the edition states elector votes only in prose ("worth 2 votes"); an edition may give
    # them as numbers: privileges.<id>.votes (Bohemia's default 2, every other's 1)
    votes = privileges.get(eid, {}).get("votes", 2 if eid == "bohemia" else 1)
    return ElectorateInfo(
        id=eid, kind=str(raw["kind"]), aristocrat_spaces=int(raw["aristocrat_spaces"]),
        extra_spaces_5p=int(raw["extra_aristocrat_spaces_5p"]),
        city_spaces=int(raw["city_spaces"]), castle_spaces=int(raw["castle_spaces"]),
        spiritual=bool(raw["elector_must_be_single"]), votes=int(votes))


def _card(raw: Mapping[str, Any]) -> CardInfo:
    by_city = raw.get("cost_by_city_number", {})
    return CardInfo(
        id=str(raw["id"]), name=Name.of(raw) if raw.get("name") else Name(str(raw["id"])),
        color=str(raw["color"]),
        cost=0 if by_city else int(raw["cost"]),
        by_privilege_only=bool(raw.get("only_via_privilege")),
        cost_by_city=_frozen({str(k): int(v) for k, v in by_city.items()}),
        vp_by_city=_frozen({str(k): int(v)
                            for k, v in raw.get("vp_by_city_number", {}).items()}),
        votes=int(raw.get("votes", 1)))


def _income(raw: Mapping[str, Any]) -> Income:
    return Income(base=int(raw["base"]), per_own_city=int(raw["per_own_city_on_board"]),
                  per_other_city_under_own_elector=int(
                      raw["per_other_players_city_in_own_electorate"]),
                  saxony_bonus=int(raw["saxony_elector_bonus"]))


def _influence(raw: Mapping[str, Any]) -> Influence:
    return Influence(city=int(raw["city"]), knight=int(raw["knight"]),
                     per_side=_frozen({"single": int(raw["single"]),
                                       "couple": int(raw["couple"])}),
                     empire_city_to_emperor=int(raw["empire_city_to_emperor"]),
                     elector_tile_counts=bool(raw["elector_tile_counts"]))


def _victory_points(raw: Mapping[str, Any]) -> VictoryPoints:
    return VictoryPoints(new_elector=int(raw["new_elector_appointed"]),
                         daughter_married=int(raw["daughter_married"]),
                         voted_for_winner=int(raw["voted_for_election_winner"]),
                         indulgence=int(raw["indulgence"]), mainz=int(raw["mainz_privilege"]))


def _track(raw: Mapping[str, Any], rounds: int) -> Mapping[int, TrackEntry]:
    return _frozen({r: TrackEntry(vp=int(raw[str(r)]["vp"]), thalers=int(raw[str(r)]["thalers"]),
                                  empire_city=str(raw[str(r)]["empire_city"]))
                    for r in range(1, rounds + 1) if str(r) in raw})


def printed_names(edition: Mapping[str, Any]) -> dict[str, str]:
    """The names the edition prints (every listed object's `id` -> `name`), then its own
    `labels` mapping, which wins: what `GameRules.labels` reads of any edition."""
    out: dict[str, str] = {}
    for value in edition.values():
        for item in value if isinstance(value, list) else ():
            if isinstance(item, Mapping) and isinstance(item.get("id"), str) and \
                    isinstance(item.get("name"), str):
                out[item["id"]] = Name.of(item)
    own = edition.get("labels")
    if isinstance(own, Mapping):
        out.update({str(k): str(v) for k, v in own.items()})
    return out


def load(edition: Mapping[str, Any]) -> Components:
    """The typed edition with its labels (Parts.load)."""
    return load_components(edition, printed_names(edition))


def load_components(edition: Mapping[str, Any], printed: Mapping[str, str]) -> Components:
    """The typed edition; `printed` is its printed names by id (GameRules.labels)."""
    eids = tuple(str(e) for e in edition["electorate_order"])
    privileges = edition.get("privileges", {})
    per_player, rounds = edition["per_player_components"], int(edition["rounds"])
    return Components(
        eids=eids, eindex=_frozen({e: i for i, e in enumerate(eids)}),
        electorate_ids=frozenset(eids),
        electorates=_frozen({str(e["id"]): _electorate(e, privileges)
                             for e in edition["electorates"]}),
        cards=_frozen({str(c["id"]): _card(c) for c in edition["action_cards"]}),
        ages=tuple(int(a) for a in edition["ages"]), rounds=rounds,
        first_phase=int(edition["first_round_starts_at_phase"]),
        thalers_start=int(edition["thalers"]["start"]),
        thalers_max=int(edition["thalers"]["max"]), nun_thalers=int(edition["nun_thalers"]),
        tiles=int(per_player["aristocrat_tiles"]), knights=int(per_player["knights"]),
        cities=int(per_player["cities"]),
        empire_cities=int(edition["common_components"]["empire_cities"]),
        displays=_frozen({int(n): Bag(counts) for n, counts in edition["card_counts"].items()
                          if str(n).isdigit()}),
        income=_income(edition["income"]), influence=_influence(edition["influence"]),
        victory_points=_victory_points(edition["victory_points"]),
        emperor_track=_track(edition["emperor_track"], rounds),
        phase_names=_frozen({int(ph["n"]): str(ph["id"]) for ph in edition.get("phases", ())}),
        labels=_frozen(edition_labels(eids, printed)))


# ---------------------------------------------------------------------------
# Checking an edition: every field the rules read
# ---------------------------------------------------------------------------

_INT = fields.Integer
_NONNEG = validate.Range(min=0)


class _Electorate(OpenSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["spiritual", "secular"]))
    aristocrat_spaces = _INT(required=True, validate=validate.Range(min=1))
    city_spaces = _INT(required=True, validate=_NONNEG)
    castle_spaces = _INT(required=True, validate=_NONNEG)
    extra_aristocrat_spaces_5p = _INT(required=True, validate=_NONNEG)
    elector_must_be_single = fields.Boolean(required=True)


class _Card(OpenSchema):
    id = fields.String(required=True)
    color = fields.String(required=True, validate=validate.OneOf(["blue", "red", "none"]))
    cost = fields.Raw(required=True)
    phase_used = _INT(required=True)
    cost_by_city_number = fields.Dict(keys=fields.String(), values=_INT())
    vp_by_city_number = fields.Dict(keys=fields.String(), values=_INT())
    only_via_privilege = fields.String()
    reference_card = fields.Boolean()


class _Influence(OpenSchema):
    city = _INT(required=True)
    knight = _INT(required=True)
    single = _INT(required=True)
    couple = _INT(required=True)
    empire_city_to_emperor = _INT(required=True)
    elector_tile_counts = fields.Boolean(required=True)


class _Thalers(OpenSchema):
    start = _INT(required=True, validate=_NONNEG)
    max = _INT(required=True, validate=_NONNEG)


class _Income(OpenSchema):
    base = _INT(required=True)
    per_own_city_on_board = _INT(required=True)
    per_other_players_city_in_own_electorate = _INT(required=True)
    saxony_elector_bonus = _INT(required=True)


class _VictoryPoints(OpenSchema):
    new_elector_appointed = _INT(required=True)
    daughter_married = _INT(required=True)
    voted_for_election_winner = _INT(required=True)
    indulgence = _INT(required=True)
    mainz_privilege = _INT(required=True)


class _PerPlayer(OpenSchema):
    aristocrat_tiles = _INT(required=True, validate=validate.Range(min=1))
    knights = _INT(required=True, validate=_NONNEG)
    cities = _INT(required=True, validate=_NONNEG)


class _Common(OpenSchema):
    empire_cities = _INT(required=True, validate=_NONNEG)


class _TrackEntry(OpenSchema):
    vp = _INT(required=True)
    thalers = _INT(required=True)
    empire_city = fields.String(required=True,
                                validate=validate.OneOf(["place_or_move", "move", "none"]))


class _Edition(OpenSchema):
    slug = fields.String(required=True, validate=validate.Equal("in_the_shadow_of_the_emperor"))
    rounds = _INT(required=True, validate=validate.Range(min=1))
    first_round_starts_at_phase = _INT(required=True, validate=validate.Range(min=1, max=8))
    ages = fields.List(_INT(), required=True, validate=validate.Length(min=3))
    influence = fields.Nested(_Influence, required=True)
    thalers = fields.Nested(_Thalers, required=True)
    income = fields.Nested(_Income, required=True)
    victory_points = fields.Nested(_VictoryPoints, required=True)
    nun_thalers = _INT(required=True)
    per_player_components = fields.Nested(_PerPlayer, required=True)
    common_components = fields.Nested(_Common, required=True)
    electorate_order = fields.List(fields.String(), required=True)
    electorates = fields.List(fields.Nested(_Electorate), required=True)
    action_cards = fields.List(fields.Nested(_Card), required=True)
    card_counts = fields.Dict(keys=fields.String(),
                              values=fields.Dict(keys=fields.String(), values=_INT()),
                              required=True)
    emperor_track = fields.Dict(keys=fields.String(), values=fields.Nested(_TrackEntry),
                                required=True)


def edition_problems(content: Mapping[str, Any],
                     player_counts: Sequence[int] = PLAYER_COUNTS) -> list[str]:
    """Problems with an edition of this game (empty: usable)."""
    problems = schema_problems(_Edition(), dict(content))
    if problems:
        return problems
    ids = {e["id"] for e in content["electorates"]}
    if set(content["electorate_order"]) != ids or ids != set(ELECTORATE_IDS):
        problems.append(f"electorates must be exactly {', '.join(ELECTORATE_IDS)}")
    cards = {c["id"]: c for c in content["action_cards"]}
    problems += [f"action_cards: {c} is missing" for c in CARD_IDS if c not in cards]
    permit = cards.get("permit", {})
    if "cost_by_city_number" not in permit or "vp_by_city_number" not in permit:
        problems.append("action_cards: permit needs cost_by_city_number and vp_by_city_number")
    problems += [f"card_counts: no column for {n} players" for n in player_counts
                 if str(n) not in content["card_counts"]]
    problems += [f"emperor_track: round {r} is missing"
                 for r in range(1, content["rounds"] + 1)
                 if str(r) not in content["emperor_track"]]
    return problems
