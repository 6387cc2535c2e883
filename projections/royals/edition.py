"""Royals: reading the edition (component data). Every number of the game comes from here.

Spec: shared/games/royals.md §2 (components) and §3 (setup tables).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from marshmallow import ValidationError

from .model import CountryId, EditionSchema, IntrigueId, Marker, Portrait


def edition_problems(content: Mapping[str, Any]) -> list[str]:
    """Schema problems plus the cross-checks the reducer relies on (empty: usable)."""
    try:
        EditionSchema().load(dict(content))
    except ValidationError as err:
        messages = err.normalized_messages()  # type: ignore[no-untyped-call]
        return [f"{key}: {msg}" for key, msg in sorted(messages.items())]
    board = Board(content)
    return board.consistency_problems()


class Board:
    """Typed, cached access to one edition's component data."""

    def __init__(self, edition: Mapping[str, Any]) -> None:
        self.edition = edition

    # -- countries, titles, portraits ----------------------------------------
    @cached_property
    def countries(self) -> tuple[CountryId, ...]:
        return tuple(c["id"] for c in self.edition["countries"])

    @cached_property
    def country_names(self) -> dict[CountryId, str]:
        return {c["id"]: c["name"] for c in self.edition["countries"]}

    @cached_property
    def titles(self) -> tuple[str, ...]:
        """Title ids from the lowest rank to the highest (spec §6.6 scores them in this order)."""
        return tuple(t["id"] for t in sorted(self.edition["titles"], key=lambda t: t["rank"]))

    @cached_property
    def title_info(self) -> dict[str, Mapping[str, Any]]:
        return {t["id"]: t for t in self.edition["titles"]}

    @cached_property
    def cities(self) -> tuple[str, ...]:
        return tuple(c["id"] for c in self.edition["cities"])

    @cached_property
    def city_info(self) -> dict[str, Mapping[str, Any]]:
        return {c["id"]: c for c in self.edition["cities"]}

    @cached_property
    def cities_of(self) -> dict[CountryId, tuple[str, ...]]:
        return {k: tuple(c["id"] for c in self.edition["cities"] if c["country"] == k)
                for k in self.countries}

    @cached_property
    def portraits(self) -> tuple[Portrait, ...]:
        out = []
        for city in self.edition["cities"]:
            for p in city["portraits"]:
                title = self.title_info.get(p["title"], {})
                out.append(Portrait(
                    id=p["id"], name=f"{city['name']} {title.get('name', p['title'])}",
                    city=city["id"], country=city["country"], title=p["title"],
                    rank=int(title.get("rank", 0)), cost=int(p["cards_required"]),
                    influence=int(p["influence"]), city_bonus=int(city["city_bonus"])))
        return tuple(out)

    @cached_property
    def portrait_index(self) -> dict[str, int]:
        return {p.id: i for i, p in enumerate(self.portraits)}

    def portrait(self, portrait_id: str) -> Portrait:
        return self.portraits[self.portrait_index[portrait_id]]

    # -- cards ----------------------------------------------------------------
    def prepared_deck(self, players: int) -> tuple[Counter[str], Counter[str]]:
        """(deck, removed) for `players` (spec §3 step 3)."""
        cards = self.edition["country_cards"]
        removed = Counter({k: int(v) for k, v in
                           cards["removed_by_player_count"][str(players)].items() if v})
        deck = Counter({k: int(v) - removed.get(k, 0) for k, v in cards["per_country"].items()})
        return +deck, removed

    @cached_property
    def intrigue_cards(self) -> Counter[IntrigueId]:
        return Counter({"+".join(sorted(c["countries"])): int(c["count"])
                        for c in self.edition["intrigue_cards"]["cards"]})

    def intrigue_name(self, card: IntrigueId) -> str:
        return "/".join(self.country_names.get(c, c) for c in card.split("+"))

    # -- numbers ----------------------------------------------------------------
    @cached_property
    def display_size(self) -> int:
        return int(self.edition["display_size"])

    @cached_property
    def hand_limit_country(self) -> int:
        return int(self.edition["hand_limits"]["country"])

    @cached_property
    def hand_limit_intrigue(self) -> int:
        return int(self.edition["hand_limits"]["intrigue"])

    @cached_property
    def country_wild(self) -> int:
        return int(self.edition["wild"]["country_cards_for_one"])

    @cached_property
    def intrigue_wild(self) -> int:
        return int(self.edition["wild"]["intrigue_cards_for_one"])

    @cached_property
    def cubes_per_claim(self) -> int:
        return int(self.edition["cubes_per_claim"])

    def intrigue_needed(self, title: str) -> int:
        needed = self.edition["intrigue_needed_to_usurp"]
        return int(needed.get(title, needed["default"]))

    def first_round_draws(self, players: int) -> list[int]:
        return [int(x) for x in self.edition["first_round_draws"]["by_player_count"][str(players)]]

    @cached_property
    def draw_shapes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(country, intrigue) of the two draw options from round 2 on (spec §5.1)."""
        opts = self.edition["draw_options"]
        return ((int(opts["three_country"]["country"]), int(opts["three_country"]["intrigue"])),
                (int(opts["one_and_one"]["country"]), int(opts["one_and_one"]["intrigue"])))

    @cached_property
    def cube_counts(self) -> dict[str, int]:
        return {k: int(v) for k, v in self.edition["cubes"]["per_colour"].items()}

    @cached_property
    def two_player_colours(self) -> tuple[str, ...]:
        return tuple(self.edition["cubes"]["two_player_colours"])

    @cached_property
    def periods(self) -> tuple[int, ...]:
        return tuple(int(p["number"]) for p in self.edition["period_scoring"]["periods"])

    @cached_property
    def period_years(self) -> dict[int, Any]:
        return {int(p["number"]): p.get("year") for p in self.edition["period_scoring"]["periods"]}

    def period_markers(self, period: int, country: CountryId) -> tuple[int, int]:
        high, low = self.edition["period_scoring"]["markers"][str(period)][country]
        return int(high), int(low)

    def tile_values(self, title: str) -> tuple[int, int]:
        tile = self.edition["title_scoring"]["tiles"][title]
        return int(tile["full"]), int(tile["half"])

    # -- markers ----------------------------------------------------------------
    def city_marker(self, city: str) -> Marker:
        return Marker("city", city, int(self.city_info[city]["city_bonus"]))

    def shields(self, country: CountryId) -> tuple[Marker, ...]:
        values = self.edition["country_bonus"]["values"].get(country, [])
        return tuple(Marker("shield", f"{country}:{i}", int(v)) for i, v in enumerate(values))

    def discs(self, players: int) -> tuple[Marker, ...]:
        values = self.edition["noble_house_bonus"]["in_play_by_player_count"][str(players)]
        return tuple(Marker("noble_house", str(i), int(v)) for i, v in enumerate(values))

    def all_markers_count(self, players: int) -> int:
        """City hexes, shields, discs in play, period markers and title tiles (spec §3 step 2)."""
        return (len(self.cities) + sum(len(self.shields(k)) for k in self.countries)
                + len(self.discs(players)) + 2 * len(self.periods) * len(self.countries)
                + len(self.titles))

    # -- cross-checks -------------------------------------------------------------
    def consistency_problems(self) -> list[str]:
        return [*self._portrait_problems(), *self._table_problems()]

    def _portrait_problems(self) -> list[str]:
        problems = []
        for p in self.portraits:
            if p.title not in self.title_info:
                problems.append(f"portrait {p.id}: unknown title {p.title!r}")
            elif p.cost != int(self.title_info[p.title]["cards_required"]):
                # ruling R8 (seed): the card cost depends only on the title
                problems.append(f"portrait {p.id}: costs {p.cost}, its title costs "
                                f"{self.title_info[p.title]['cards_required']}")
            if p.country not in self.countries:
                problems.append(f"portrait {p.id}: unknown country {p.country!r}")
        return problems

    def _table_problems(self) -> list[str]:
        """Every per-player-count table must cover 2 to 5 players."""
        edition = self.edition
        problems = [f"title_scoring: no tile for {t!r}" for t in self.titles
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
