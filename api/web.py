"""The web pages: the games index, the replay viewer, the table recorder and the archive's
statistics.

Pages are static HTML shells with a little hand-written JS (no build step, nothing fetched
from outside): they read everything through the JSON API, sending a seat or recorder token
from `?token=` as `Authorization: Bearer`. Board renderers are one file per game in
`static/boards/<slug>.js`, with a generic fallback. `/games-catalog` lists the games with
what the new-game form needs (data from projections, nothing decided here).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request, send_file

from events.recorder import NotFound
from projections import GAMES, default_edition, get_rules

from .offline import bundle
from .service import bearer, recorder

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
                           title=cls.title if cls else game["game"],
                           offline=bundle.version()), 200


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
        # what the form calls each option's key, in the request's language (issue #33)
        "option_labels": dict(cls.option_labels),
        # an option's named values, each as a person reads it (the form's choice)
        "option_values": {k: dict(v) for k, v in cls.option_values.items()},
        "actions": sorted(cls.action_schemas),
        "chance_fields": {k: list(v) for k, v in cls.chance_fields.items()},
        # its moves are built from their declared choices (GET /games/<id>/choices)
        "choices": bool(cls.actions),
        # the moves whose layout a recorder's tablet may deal ("Deal the rest here")
        "dealable": sorted(cls.dealable_types),
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


# -- the offline recorder (api/offline/; README, "Recording offline") -------------------
NO_CACHE = {"Cache-Control": "no-cache"}
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}
MIMETYPES = {".mjs": "text/javascript", ".wasm": "application/wasm",
             ".json": "application/json", ".zip": "application/zip"}


@web.get("/offline/assets.json")
def offline_assets() -> tuple[Response, int, dict[str, str]]:
    """What the service worker keeps for offline recording (and its version)."""
    return jsonify(bundle.assets(sorted(GAMES))), 200, NO_CACHE


@web.get("/offline/rules-<version>.zip")
def offline_rules(version: str) -> Response:
    """The rules archive (projections, marshmallow, the offline table), named by its hash."""
    if version != bundle.rules_version():
        abort(404)
    return Response(bundle.rules_archive(), mimetype="application/zip", headers=FOREVER)


@web.get("/offline/pyodide/<name>")
def offline_pyodide(name: str) -> Response:
    """One file of the pinned Pyodide runtime, gzipped when the browser accepts it."""
    if name not in bundle.PYODIDE_FILES or bundle.pyodide_version() is None:
        abort(404)
    path = bundle.pyodide_dir() / name
    mimetype = MIMETYPES.get(path.suffix, "application/octet-stream")
    packed = path.with_name(name + ".gz")
    if packed.is_file() and "gzip" in request.headers.get("Accept-Encoding", ""):
        response = send_file(packed, mimetype=mimetype, conditional=True)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = send_file(path, mimetype=mimetype, conditional=True)
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@web.get("/offline/sw.js")
def offline_worker() -> Response:
    """The service worker, allowed to serve the whole site (it keeps only the recorder)."""
    response = send_file(bundle.STATIC / "offline" / "sw.js", mimetype="text/javascript")
    response.headers.update({"Service-Worker-Allowed": "/", **NO_CACHE})
    return response


@web.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: chronicle installs like an app."""
    return Response(json.dumps(bundle.manifest()), mimetype="application/manifest+json")


@web.get("/offline/games/<game_id>/edition")
def offline_edition(game_id: str) -> Response:
    """The component data a game is recorded with, for the tablet's rules to fold it."""
    try:
        game = recorder().game(game_id)
    except NotFound:
        abort(404)
    rules = recorder().rules_for(game)
    return jsonify({"sha256": game["edition_sha256"], "content": rules.edition})


@web.get("/offline/games/<game_id>/compare/<other_id>")
def offline_compare(game_id: str, other_id: str) -> Response:
    """The service's compare of two records, each read with its own recorder token (the
    bearer for `game_id`, X-Other-Token for `other_id`): a tablet's moves kept apart as a
    fork are compared with the log as both recorders see them, hidden draws included."""
    rec = recorder()
    mine = rec.access(game_id, bearer())
    other = rec.access(other_id, request.headers.get("X-Other-Token") or None)
    return jsonify(rec.compare(game_id, other_id, (mine, other)))
