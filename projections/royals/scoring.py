"""Royals: the markers each player wins (spec §6.1, §6.5, §6.6) and the result (§6.7).

Pure functions of (components, state); the awards are automatic consequences of a claim or
of a turn's end (`apply.py` calls them), never events of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..rules import replace, with_item
from .edition import Components, Marker, Portrait
from .state import OVER, Seat, State


def held_keys(state: State) -> set[tuple[str, str]]:
    return {(m.kind, m.key) for markers in state.holdings for m in markers}


def _give(state: State, seat: Seat, marker: Marker) -> State:
    return replace(state, holdings=with_item(state.holdings, seat,
                                             (*state.holdings[seat], marker)))


def _remaining(state: State, markers: Iterable[Marker]) -> list[Marker]:
    """Markers still on the board, highest value first."""
    taken = held_keys(state)
    return sorted((m for m in markers if (m.kind, m.key) not in taken),
                  key=lambda m: (-m.value, m.key))


def is_present_in_city(components: Components, state: State, seat: Seat, city: str) -> bool:
    """A cube on a portrait of the city or in its cathedral (spec §6.1 step 2)."""
    if state.cathedrals[components.cities.index(city)][seat] > 0:
        return True
    return any(state.board[i] == seat for i, p in enumerate(components.portraits) if p.city == city)


def award_bonuses(components: Components, state: State, seat: Seat, portrait: Portrait) -> State:
    """Spec §6.1: city hex, country shield, noble house disc, for the actor only."""
    city = components.city_marker(portrait.city)
    if ("city", city.key) not in held_keys(state):
        state = _give(state, seat, city)
    country = portrait.country
    has_shield = any(m.kind == "shield" and m.key.startswith(f"{country}:")
                     for m in state.holdings[seat])
    everywhere = all(is_present_in_city(components, state, seat, c)
                     for c in components.cities_of[country])
    shields = _remaining(state, components.shields(country))
    if everywhere and not has_shield and shields:
        state = _give(state, seat, shields[0])
    has_disc = any(m.kind == "noble_house" for m in state.holdings[seat])
    every_title = all(row[seat] > 0 for row in state.tiles)
    discs = _remaining(state, components.discs(state.players))
    if every_title and not has_disc and discs:
        state = _give(state, seat, discs[0])
    return state


def influence(components: Components, state: State, seat: Seat, country: str) -> int:
    """Portrait influence only; cathedral cubes do not count (spec §6.5)."""
    return sum(p.influence for i, p in enumerate(components.portraits)
               if p.country == country and state.board[i] == seat)


def period_order(components: Components, state: State, country: str) -> list[Seat]:
    """Candidates with influence >= 1, best first (spec §6.5 tie-breaks; ruling R3 after)."""
    keyed = []
    for seat in range(state.players):
        amount = influence(components, state, seat, country)
        if amount < 1:
            continue
        held = [p for i, p in enumerate(components.portraits)
                if p.country == country and state.board[i] == seat]
        rank = max(p.rank for p in held)
        city_value = max(p.city_bonus for p in held if p.rank == rank)
        # ruling R3: a tie that survives both tie-breaks goes by turn order from the start player
        turn_order = (seat - state.start_player) % state.players
        keyed.append(((-amount, -rank, -city_value, turn_order), seat))
    return [seat for _, seat in sorted(keyed)]


def score_period(components: Components, state: State) -> State:
    """Spec §6.5: high and low period markers per country; unqualified markers leave."""
    period = state.period
    for country in components.countries:
        order = period_order(components, state, country)
        high, low = components.period_markers(period, country)
        markers = (Marker("period", f"{period}:{country}:high", high),
                   Marker("period", f"{period}:{country}:low", low))
        for place, marker in enumerate(markers):
            if place < len(order):
                state = _give(state, order[place], marker)
            else:
                state = replace(state, out_of_game=(*state.out_of_game, marker))
    return state


def score_titles(components: Components, state: State) -> State:
    """Spec §6.6: most cubes alone takes the tile, two tied take a half each, else nobody."""
    for row, title in zip(state.tiles, components.titles, strict=True):
        full, half = components.tile_values(title)
        best = max(row)
        leaders = [seat for seat, count in enumerate(row) if count == best and best > 0]
        if len(leaders) == 1:
            state = _give(state, leaders[0], Marker("title", title, full))
        elif len(leaders) == 2:
            for seat in leaders:
                state = _give(state, seat, Marker("title_half", title, half))
        else:
            state = replace(state, out_of_game=(*state.out_of_game, Marker("title", title, full)))
    return state


CATEGORIES = {"city": "city", "shield": "country", "noble_house": "noble_house",
              "period": "period", "title": "titles", "title_half": "titles"}


def breakdown(state: State) -> list[dict[str, int]]:
    """Per seat: points by category, the total and the largest single marker."""
    rows = []
    for markers in state.holdings:
        row = {name: 0 for name in ("city", "country", "noble_house", "period", "titles")}
        for marker in markers:
            row[CATEGORIES[marker.kind]] += marker.value
        row["total"] = sum(m.value for m in markers)
        row["largest_marker"] = max((m.value for m in markers), default=0)
        rows.append(row)
    return rows


def winners(rows: list[dict[str, int]]) -> list[Seat]:
    """Spec §6.7: highest total; then the largest single marker; then shared."""
    best = max(r["total"] for r in rows)
    tied = [s for s, r in enumerate(rows) if r["total"] == best]
    top = max(rows[s]["largest_marker"] for s in tied)
    return [s for s in tied if rows[s]["largest_marker"] == top]


def result(state: State, components: Components) -> dict[str, Any] | None:
    """Once over: the scores, the winners, why it ended and the breakdown; else None."""
    if state.phase != OVER:
        return None
    rows = breakdown(state)
    reason = state.end_reason or "period_3_scored"
    return {"scores": [r["total"] for r in rows], "winners": winners(rows), "reason": reason,
            "breakdown": {"per_seat": rows,
                          "markers": [[m.to_json() for m in ms] for ms in state.holdings]}}
