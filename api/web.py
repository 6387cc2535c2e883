"""The web pages: the games index, the replay viewer, the table recorder and the archive's
statistics.

Pages are static HTML shells with a little hand-written JS (no build step, nothing fetched
from outside): they read everything through the JSON API, sending a seat or recorder token
from `?token=` as `Authorization: Bearer`. Board renderers are one file per game in
`static/boards/<slug>.js`, with a generic fallback. `/games-catalog` lists the games with
what the new-game form needs (data from projections, nothing decided here).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from events.errors import NotFound
from projections import GAMES, default_edition, get_rules

from .service import recorder

web = Blueprint("web", __name__, static_folder="static", static_url_path="/static/web",
                template_folder="templates")


def _titles() -> list[tuple[str, str]]:
    """(slug, title) of every game, by title: what a filter offers a person to pick."""
    return sorted(((slug, cls.title) for slug, cls in GAMES.items()), key=lambda g: g[1])


@web.get("/")
def index() -> str:
    """The games index, with filters by game, player and status."""
    return render_template("index.html", games=_titles())


@web.get("/games/new")
def new_game() -> str:
    """The new-game form: game, players in seat order, mode and options."""
    return render_template("new.html")


@web.get("/statistics")
def statistics() -> str:
    """Charts of the archive (win rate by seat, scores, lengths), filtered like the index."""
    return render_template("stats.html", games=_titles())


def _game_page(template: str, game_id: str) -> tuple[str, int]:
    """A page about one game, or a 404 page that says so (not a shell waiting for ever)."""
    try:
        game = recorder().game(game_id)
    except NotFound:
        return render_template("404.html", game_id=game_id), 404
    cls = GAMES.get(game["game"])
    return render_template(template, game_id=game_id, players=game["players"],
                           title=cls.title if cls else game["game"]), 200


@web.get("/games/<game_id>/replay")
def replay(game_id: str) -> tuple[str, int]:
    """The step-through replay viewer of one game (`?at=N`, `?token=...`)."""
    return _game_page("replay.html", game_id)


@web.get("/games/<game_id>/record")
def record(game_id: str) -> tuple[str, int]:
    """The recording (table) or play (digital) screen of one game (`?token=...`)."""
    return _game_page("record.html", game_id)


@web.get("/games-catalog")
def catalog() -> Response:
    """Every registered game: slug, title, player counts, options, actions, card labels."""
    return jsonify({"games": [_entry(slug) for slug in sorted(GAMES)]})


def _entry(slug: str) -> dict[str, Any]:
    cls = GAMES[slug]
    return {
        "slug": slug, "title": cls.title, "player_counts": list(cls.player_counts),
        "default_options": dict(cls.default_options),
        "actions": sorted(cls.action_schemas),
        "chance_fields": {k: list(v) for k, v in cls.chance_fields.items()},
        "cards": _cards(default_edition(slug)),
        "labels": get_rules(slug).labels(),
    }


_LABEL_KEYS = ("name", "rank", "suits", "personality", "country", "title")


def _cards(edition: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Labels for component ids: every top-level list of objects with an id and a name."""
    out: dict[str, dict[str, Any]] = {}
    for value in edition.values():
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, dict) and isinstance(item.get("id"), str) and "name" in item:
                out[item["id"]] = {k: item[k] for k in _LABEL_KEYS if k in item}
    return out
