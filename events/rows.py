"""The games row: the read model's one row per game, derived from the game's event 0.

Creating a game, forking one and importing one each store a row beside the log. What the
row says of the game (its slug, rules version, players, mode, edition, creation time) is
all in `game_created`, so it is read from there, here, once: the three writers cannot
disagree on what a row holds (docs/design.md, "Stores").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import Envelope


def game_row(created: Envelope, rules_version: str, *, title: str | None = None,
             status: str = "in_progress", result: Mapping[str, Any] | None = None,
             origin: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The row of the game whose event 0 is `created`; `rules_version` stands in when that
    event predates the field (an old export). The store encodes the JSON columns."""
    data = created["data"]
    return {"id": created["game_id"], "game": data["game"],
            "rules_version": str(data.get("rules_version", rules_version)),
            "players": list(data["players"]), "mode": data.get("mode", "table"),
            "edition_name": data["edition"]["name"], "edition_sha256": data["edition"]["sha256"],
            "created_at": created["recorded_at"], "title": title, "status": status,
            "result": result, "audit": None, "origin": origin}
