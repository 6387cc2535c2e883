"""Editions in the store: registering one, listing them, and binding a game's reducer to the
exact edition it was recorded with (docs/design.md, "Editions")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from projections import (
    DEFAULT_EDITION_NAME,
    GAMES,
    bound_rules,
    canonical_edition,
    default_edition,
    edition_problems,
    game_class,
)
from projections.rules import GameRules

from .errors import InvalidEvent, NotFound
from .store import Log


@cache
def _default_identity(slug: str) -> tuple[str, str]:
    """(canonical text, sha256) of the shipped edition, computed once per process."""
    return canonical_edition(default_edition(slug))


class Editions:
    """The editions of one store, and the reducers bound to them."""

    def __init__(self, store: Log) -> None:
        self.store = store

    def add(self, slug: str, content: Any, name: str | None = None) -> dict[str, Any]:
        """Register an edition after checking it against the game's schema."""
        game_class(slug)
        problems = edition_problems(slug, content)
        if problems:
            raise InvalidEvent("invalid_edition",
                               f"this is not a usable {slug} edition: {'; '.join(problems)}",
                               problems=problems)
        text, sha = canonical_edition(content)
        label = name or str(content.get("edition_name") or content.get("edition") or sha[:12])
        self.store.put_edition(slug, label, sha, text)
        return {"slug": slug, "name": label, "sha256": sha}

    def listed(self, slug: str | None = None) -> list[dict[str, Any]]:
        """Every edition known: those registered and the shipped defaults. A read: a default
        this store never needed is listed as shipped, not stored (reads never write)."""
        rows = self.store.editions(slug)
        stored = {row["sha256"] for row in rows}
        for known in sorted(GAMES) if slug is None else [slug]:
            sha = _default_identity(known)[1]
            if sha not in stored:
                rows.append({"sha256": sha, "slug": known, "name": DEFAULT_EDITION_NAME})
        return sorted(rows, key=lambda r: (r["slug"], r.get("added_at") or ""))

    def ensure_default(self, slug: str) -> dict[str, Any]:
        """The shipped edition of `slug`, stored on first use so games can name it."""
        text, sha = _default_identity(slug)
        if self.store.edition(sha) is None:
            self.store.put_edition(slug, DEFAULT_EDITION_NAME, sha, text)
        return {"name": DEFAULT_EDITION_NAME, "sha256": sha}

    def pick(self, slug: str, wanted: str | None) -> dict[str, Any]:
        """The edition a new game names: the default, or a registered one by name or hash."""
        default = self.ensure_default(slug)
        if wanted in (None, DEFAULT_EDITION_NAME, default["sha256"]):
            return default
        for row in self.store.editions(slug):
            if wanted in (row["name"], row["sha256"]):
                return {"name": row["name"], "sha256": row["sha256"]}
        raise NotFound("unknown_edition", f"no {slug} edition named {wanted!r}; "
                       "see `chronicle editions` or add one with `chronicle editions add`")

    def rules(self, slug: str, edition: Mapping[str, Any]) -> GameRules[Any]:
        """The reducer of `slug` bound to `edition` ({"name"?, "sha256"}), from the one rules
        cache; NotFound when this store does not hold that edition."""
        sha = str(edition["sha256"])
        if sha == _default_identity(slug)[1]:
            return bound_rules(slug, sha, lambda: default_edition(slug))
        return bound_rules(slug, sha, lambda: self._content(slug, edition))

    def rules_for(self, game: Mapping[str, Any]) -> GameRules[Any]:
        """The reducer a stored game was recorded with."""
        return self.rules(game["game"], {"name": game.get("edition_name"),
                                         "sha256": game["edition_sha256"]})

    def require_stored(self, slug: str, edition: Mapping[str, Any]) -> GameRules[Any]:
        """The reducer of an edition this store holds or this package ships, refusing one it
        lacks even when the process has it cached: an imported game must replay from this
        store alone. Reads only: verifying a file writes nothing (an import stores the
        default itself, `ensure_default`)."""
        if str(edition["sha256"]) != _default_identity(slug)[1]:
            self._content(slug, edition)
        return self.rules(slug, edition)

    def _content(self, slug: str, edition: Mapping[str, Any]) -> dict[str, Any]:
        row = self.store.edition(str(edition["sha256"]))
        if row is None:
            raise NotFound("unknown_edition",
                           f"edition {edition.get('name')!r} ({str(edition['sha256'])[:12]}) "
                           f"of {slug} is not known here; add it with "
                           "`chronicle editions add` first")
        content: dict[str, Any] = json.loads(row["content"])
        return content
