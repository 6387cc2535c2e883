"""Royals: one edition's component data, loaded once into typed, immutable structures.

Spec: docs/games/royals.md §2 (components) and §3 (setup tables). Every number of the
game comes from here; `edition_problems` refuses an edition the reducer could not read.
The tables keep the edition's own keys (player counts as "2".."5"), so a lookup fails
exactly where the data lacks an entry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import fields, validate

from ..messages import Name, Seq
from ..rules import OpenSchema, schema_problems

SLUG = "royals"
CountryId = str
IntrigueId = str  # the sorted pair joined by "+", e.g. "britain+spain" (review ruling 5)
PortraitId = str


@dataclass(frozen=True, slots=True)
class Marker:
    """One victory-point marker: a city hex, a shield, a disc, a period marker or a title tile."""

    kind: str  # city | shield | noble_house | period | title | title_half
    key: str  # city id; "country:index"; disc index; "period:country:high|low"; title id
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "value": self.value}


@dataclass(frozen=True, slots=True)
class Portrait:
    """A noble space on the board (spec §2, "Board")."""

    id: PortraitId
    name: str
    city: str
    country: CountryId
    title: str
    rank: int
    cost: int
    influence: int
    city_bonus: int


def intrigue_id(pair: Any) -> IntrigueId | None:
    """The id of an intrigue card given as a pair in either order (review ruling 5)."""
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        return None
    if not all(isinstance(c, str) for c in pair):
        return None
    return "+".join(sorted(pair))


def intrigue_pair(card: IntrigueId) -> list[str]:
    return card.split("+")


@dataclass(frozen=True, slots=True)
class Components:
    """Typed, read-only access to one edition's component data (built once per rules)."""

    name: str  # the edition's title, "Royals"
    countries: tuple[CountryId, ...]
    country_names: Mapping[CountryId, str]
    #: title ids from the lowest rank to the highest (spec §6.6 scores them in this order)
    titles: tuple[str, ...]
    title_names: Mapping[str, str]
    cities: tuple[str, ...]
    city_names: Mapping[str, str]
    city_bonuses: Mapping[str, int]
    cities_of: Mapping[CountryId, tuple[str, ...]]
    portraits: tuple[Portrait, ...]
    portrait_index: Mapping[PortraitId, int]
    per_country: Mapping[CountryId, int]
    removed_by_players: Mapping[str, Mapping[CountryId, int]]
    intrigue_cards: Counter[IntrigueId]
    display_size: int
    hand_limit_country: int
    hand_limit_intrigue: int
    country_wild: int
    intrigue_wild: int
    cubes_per_claim: int
    intrigue_by_title: Mapping[str, int]
    intrigue_default: int
    first_round: Mapping[str, tuple[int, ...]]
    #: (country, intrigue) of the two draw options from round 2 on (spec §5.1)
    draw_shapes: tuple[tuple[int, int], tuple[int, int]]
    cube_counts: Mapping[str, int]
    two_player_colours: tuple[str, ...]
    periods: tuple[int, ...]
    period_years: Mapping[int, object]
    period_values: Mapping[str, Mapping[CountryId, tuple[int, int]]]
    tiles: Mapping[str, tuple[int, int]]
    shield_values: Mapping[CountryId, tuple[int, ...]]
    disc_values: Mapping[str, tuple[int, ...]]

    @classmethod
    def load(cls, edition: Mapping[str, Any]) -> Components:
        """The components of an edition `edition_problems` accepts."""
        return cls(**_names(edition), **_board(edition), **_cards(edition),
                   **_numbers(edition), **_scoring(edition))

    def portrait(self, portrait_id: str) -> Portrait:
        return self.portraits[self.portrait_index[portrait_id]]

    def prepared_deck(self, players: int) -> tuple[Counter[str], Counter[str]]:
        """(deck, removed) for `players` (spec §3 step 3)."""
        removed = Counter({k: v for k, v in self.removed_by_players[str(players)].items() if v})
        deck = Counter({k: v - removed.get(k, 0) for k, v in self.per_country.items()})
        return +deck, removed

    def intrigue_name(self, card: IntrigueId) -> str:
        return Seq((self.country_names.get(c, c) for c in card.split("+")), "slash")

    def intrigue_needed(self, title: str) -> int:
        """Intrigue cards a usurp of this title needs (a King 2, spec §5.3 ruling 4)."""
        return self.intrigue_by_title.get(title, self.intrigue_default)

    def first_round_draws(self, players: int) -> list[int]:
        return list(self.first_round[str(players)])

    def period_markers(self, period: int, country: CountryId) -> tuple[int, int]:
        return self.period_values[str(period)][country]

    def tile_values(self, title: str) -> tuple[int, int]:
        return self.tiles[title]

    def city_marker(self, city: str) -> Marker:
        return Marker("city", city, self.city_bonuses[city])

    def shields(self, country: CountryId) -> tuple[Marker, ...]:
        values = self.shield_values.get(country, ())
        return tuple(Marker("shield", f"{country}:{i}", v) for i, v in enumerate(values))

    def discs(self, players: int) -> tuple[Marker, ...]:
        values = self.disc_values[str(players)]
        return tuple(Marker("noble_house", str(i), v) for i, v in enumerate(values))

    def all_markers_count(self, players: int) -> int:
        """City hexes, shields, discs in play, period markers and title tiles (spec §3 step 2)."""
        return (len(self.cities) + sum(len(self.shields(k)) for k in self.countries)
                + len(self.discs(players)) + 2 * len(self.periods) * len(self.countries)
                + len(self.titles))


# ---------------------------------------------------------------------------
# Loading: each part of the edition into typed tables
# ---------------------------------------------------------------------------


def _names(edition: Mapping[str, Any]) -> dict[str, Any]:
    countries = edition["countries"]
    titles = edition["titles"]
    return {
        "name": str(edition.get("title", "Royals")),
        "countries": tuple(c["id"] for c in countries),
        "country_names": {c["id"]: Name.of(c) for c in countries},
        "titles": tuple(t["id"] for t in sorted(titles, key=lambda t: t["rank"])),
        "title_names": {t["id"]: Name.of(t) for t in titles},
    }


def _board(edition: Mapping[str, Any]) -> dict[str, Any]:
    cities = edition["cities"]
    portraits = _portraits(edition)
    return {
        "cities": tuple(c["id"] for c in cities),
        "city_names": {c["id"]: Name.of(c) for c in cities},
        "city_bonuses": {c["id"]: int(c["city_bonus"]) for c in cities},
        "cities_of": {k["id"]: tuple(c["id"] for c in cities if c["country"] == k["id"])
                      for k in edition["countries"]},
        "portraits": portraits,
        "portrait_index": {p.id: i for i, p in enumerate(portraits)},
    }


def _portraits(edition: Mapping[str, Any]) -> tuple[Portrait, ...]:
    """Every portrait in edition order; an unknown title (an edition problem) has rank 0."""
    info = {t["id"]: t for t in edition["titles"]}
    out = []
    for city in edition["cities"]:
        for p in city["portraits"]:
            title = info.get(p["title"], {})
            out.append(Portrait(
                id=p["id"], name=f"{city['name']} {title.get('name', p['title'])}",
                city=city["id"], country=city["country"], title=p["title"],
                rank=int(title.get("rank", 0)), cost=int(p["cards_required"]),
                influence=int(p["influence"]), city_bonus=int(city["city_bonus"])))
    return tuple(out)


def _cards(edition: Mapping[str, Any]) -> dict[str, Any]:
    cards = edition["country_cards"]
    return {
        "per_country": {k: int(v) for k, v in cards["per_country"].items()},
        "removed_by_players": {n: {k: int(v) for k, v in row.items()}
                               for n, row in cards["removed_by_player_count"].items()},
        "intrigue_cards": Counter({"+".join(sorted(c["countries"])): int(c["count"])
                                   for c in edition["intrigue_cards"]["cards"]}),
        "cube_counts": {k: int(v) for k, v in edition["cubes"]["per_colour"].items()},
        "two_player_colours": tuple(edition["cubes"]["two_player_colours"]),
    }


def _numbers(edition: Mapping[str, Any]) -> dict[str, Any]:
    needed = edition["intrigue_needed_to_usurp"]
    options = edition["draw_options"]
    return {
        "display_size": int(edition["display_size"]),
        "hand_limit_country": int(edition["hand_limits"]["country"]),
        "hand_limit_intrigue": int(edition["hand_limits"]["intrigue"]),
        "country_wild": int(edition["wild"]["country_cards_for_one"]),
        "intrigue_wild": int(edition["wild"]["intrigue_cards_for_one"]),
        "cubes_per_claim": int(edition["cubes_per_claim"]),
        "intrigue_by_title": {t["id"]: int(needed.get(t["id"], needed["default"]))
                              for t in edition["titles"]},
        "intrigue_default": int(needed["default"]),
        "first_round": {n: tuple(int(x) for x in row) for n, row in
                        edition["first_round_draws"]["by_player_count"].items()},
        "draw_shapes": ((int(options["three_country"]["country"]),
                         int(options["three_country"]["intrigue"])),
                        (int(options["one_and_one"]["country"]),
                         int(options["one_and_one"]["intrigue"]))),
    }


def _scoring(edition: Mapping[str, Any]) -> dict[str, Any]:
    periods = edition["period_scoring"]
    return {
        "periods": tuple(int(p["number"]) for p in periods["periods"]),
        "period_years": {int(p["number"]): p.get("year") for p in periods["periods"]},
        "period_values": {n: {k: (int(v[0]), int(v[1])) for k, v in row.items()}
                          for n, row in periods["markers"].items()},
        "tiles": {t: (int(v["full"]), int(v["half"]))
                  for t, v in edition["title_scoring"]["tiles"].items()},
        "shield_values": {k: tuple(int(x) for x in v)
                          for k, v in edition["country_bonus"]["values"].items()},
        "disc_values": {n: tuple(int(x) for x in v) for n, v in
                        edition["noble_house_bonus"]["in_play_by_player_count"].items()},
    }


# ---------------------------------------------------------------------------
# Checking: every field the reducer reads, then the cross-checks it relies on
# ---------------------------------------------------------------------------


def edition_problems(content: Mapping[str, Any]) -> list[str]:
    """Schema problems plus the cross-checks the reducer relies on (empty: usable)."""
    problems = schema_problems(EditionSchema(), dict(content))
    if problems:
        return problems
    return [*_portrait_problems(content), *_table_problems(content)]


def _portrait_problems(edition: Mapping[str, Any]) -> list[str]:
    titles = {t["id"]: t for t in edition["titles"]}
    countries = {c["id"] for c in edition["countries"]}
    problems = []
    for p in _portraits(edition):
        if p.title not in titles:
            problems.append(f"portrait {p.id}: unknown title {p.title!r}")
        elif p.cost != int(titles[p.title]["cards_required"]):
            # ruling R8 (seed): the card cost depends only on the title
            problems.append(f"portrait {p.id}: costs {p.cost}, its title costs "
                            f"{titles[p.title]['cards_required']}")
        if p.country not in countries:
            problems.append(f"portrait {p.id}: unknown country {p.country!r}")
    return problems


def _table_problems(edition: Mapping[str, Any]) -> list[str]:
    """Every per-player-count table must cover 2 to 5 players."""
    titles = [t["id"] for t in sorted(edition["titles"], key=lambda t: t["rank"])]
    problems = [f"title_scoring: no tile for {t!r}" for t in titles
                if t not in edition["title_scoring"]["tiles"]]
    tables = (("country_cards.removed_by_player_count",
               edition["country_cards"]["removed_by_player_count"]),
              ("first_round_draws", edition["first_round_draws"]["by_player_count"]),
              ("noble_house_bonus", edition["noble_house_bonus"]["in_play_by_player_count"]))
    problems += [f"{name}: no entry for {n} players" for n in ("2", "3", "4", "5")
                 for name, table in tables if n not in table]
    if "default" not in edition["intrigue_needed_to_usurp"]:
        problems.append("intrigue_needed_to_usurp: no default")
    return problems


_pos = validate.Range(min=0)
_one = validate.Range(min=1)


class _Country(OpenSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    cities = fields.Integer(required=True, validate=_one)


class _Title(OpenSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, validate=_one)
    cards_required = fields.Integer(required=True, validate=_one)


class _PortraitSchema(OpenSchema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    cards_required = fields.Integer(required=True, validate=_one)
    influence = fields.Integer(required=True, validate=_pos)


class _City(OpenSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    country = fields.String(required=True)
    city_bonus = fields.Integer(required=True, validate=_pos)
    portraits = fields.List(fields.Nested(_PortraitSchema), required=True,
                            validate=validate.Length(min=1))


class _CountryCards(OpenSchema):
    per_country = fields.Dict(keys=fields.String(), values=fields.Integer(validate=_pos),
                              required=True)
    removed_by_player_count = fields.Dict(
        keys=fields.String(), values=fields.Dict(keys=fields.String(),
                                                 values=fields.Integer(validate=_pos)),
        required=True)


class _IntrigueKind(OpenSchema):
    countries = fields.List(fields.String(), required=True, validate=validate.Length(equal=2))
    count = fields.Integer(required=True, validate=_pos)


class _IntrigueCards(OpenSchema):
    cards = fields.List(fields.Nested(_IntrigueKind), required=True)


_values = fields.List(fields.Integer(validate=_pos))


class _CountryBonus(OpenSchema):
    values = fields.Dict(keys=fields.String(), values=_values, required=True)


class _NobleHouse(OpenSchema):
    in_play_by_player_count = fields.Dict(keys=fields.String(), values=_values, required=True)


class _PeriodScoring(OpenSchema):
    periods = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1))
    markers = fields.Dict(keys=fields.String(), values=fields.Dict(
        keys=fields.String(), values=fields.List(fields.Integer(validate=_pos),
                                                 validate=validate.Length(equal=2))),
        required=True)


class _Tile(OpenSchema):
    full = fields.Integer(required=True, validate=_pos)
    half = fields.Integer(required=True, validate=_pos)


class _TitleScoring(OpenSchema):
    tiles = fields.Dict(keys=fields.String(), values=fields.Nested(_Tile), required=True)


class _Cubes(OpenSchema):
    per_colour = fields.Dict(keys=fields.String(), values=fields.Integer(validate=_pos),
                             required=True)
    two_player_colours = fields.List(fields.String(), required=True)


class _HandLimits(OpenSchema):
    country = fields.Integer(required=True, validate=_pos)
    intrigue = fields.Integer(required=True, validate=_pos)


class _DrawOption(OpenSchema):
    country = fields.Integer(required=True, validate=_pos)
    intrigue = fields.Integer(required=True, validate=_pos)


class _DrawOptions(OpenSchema):
    three_country = fields.Nested(_DrawOption, required=True)
    one_and_one = fields.Nested(_DrawOption, required=True)


class _FirstRound(OpenSchema):
    by_player_count = fields.Dict(keys=fields.String(), values=_values, required=True)


class _Wild(OpenSchema):
    country_cards_for_one = fields.Integer(required=True, validate=validate.Range(min=2))
    intrigue_cards_for_one = fields.Integer(required=True, validate=validate.Range(min=2))


class EditionSchema(OpenSchema):
    """Every field the reducer reads."""

    slug = fields.String(required=True, validate=validate.Equal(SLUG))
    countries = fields.List(fields.Nested(_Country), required=True,
                            validate=validate.Length(min=1))
    titles = fields.List(fields.Nested(_Title), required=True, validate=validate.Length(min=1))
    cities = fields.List(fields.Nested(_City), required=True, validate=validate.Length(min=1))
    country_cards = fields.Nested(_CountryCards, required=True)
    intrigue_cards = fields.Nested(_IntrigueCards, required=True)
    country_bonus = fields.Nested(_CountryBonus, required=True)
    noble_house_bonus = fields.Nested(_NobleHouse, required=True)
    period_scoring = fields.Nested(_PeriodScoring, required=True)
    title_scoring = fields.Nested(_TitleScoring, required=True)
    cubes = fields.Nested(_Cubes, required=True)
    hand_limits = fields.Nested(_HandLimits, required=True)
    display_size = fields.Integer(required=True, validate=_pos)
    draw_options = fields.Nested(_DrawOptions, required=True)
    first_round_draws = fields.Nested(_FirstRound, required=True)
    wild = fields.Nested(_Wild, required=True)
    intrigue_needed_to_usurp = fields.Dict(keys=fields.String(), values=fields.Raw(),
                                           required=True)
    cubes_per_claim = fields.Integer(required=True, validate=validate.Equal(2))
