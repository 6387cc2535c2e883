"""Pure game logic: the registry of games by slug, and how each is bound to an edition.

`get_rules(slug, edition)` gives the reducer of one game for one edition (its component
data). Imports nothing of ours beyond this package; no IO beyond reading package data.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from .rules import Action, Dealer, GameRules, IllegalAction

__all__ = [
    "GAMES",
    "Action",
    "Dealer",
    "GameRules",
    "IllegalAction",
    "canonical_edition",
    "default_edition",
    "edition_problems",
    "get_rules",
]


def _registry() -> dict[str, type[GameRules]]:
    from .adaman import Adaman
    from .in_the_shadow_of_the_emperor import InTheShadowOfTheEmperor
    from .palais_royal import PalaisRoyal
    from .royals import Royals

    classes: list[type[GameRules]] = [Adaman, InTheShadowOfTheEmperor, PalaisRoyal, Royals]
    return {cls.slug: cls for cls in classes}


GAMES: dict[str, type[GameRules]] = _registry()
DEFAULT_EDITION_NAME = "default"


def game_class(slug: str) -> type[GameRules]:
    """The rules class for `slug`; IllegalAction(unknown_game) names the ones we have."""
    try:
        return GAMES[slug]
    except KeyError:
        raise IllegalAction(
            "unknown_game", f"unknown game {slug!r}; chronicle knows {', '.join(sorted(GAMES))}"
        ) from None


def canonical_edition(content: dict[str, Any]) -> tuple[str, str]:
    """(canonical JSON text, its sha256): an edition's identity does not depend on layout."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _default_text(slug: str) -> str:
    return resources.files(__package__).joinpath(f"data/{slug}.json").read_text("utf-8")


def default_edition(slug: str) -> dict[str, Any]:
    """The edition shipped with chronicle for `slug` (package data)."""
    game_class(slug)
    content: dict[str, Any] = json.loads(_default_text(slug))
    return content


def edition_problems(slug: str, content: Any) -> list[str]:
    """Why `content` cannot serve as an edition of `slug` (empty: it can)."""
    if not isinstance(content, dict):
        return ["an edition is a JSON object"]
    cls = game_class(slug)
    try:
        return cls.check_edition_content(content)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        return [f"edition data is incomplete or mistyped: {err!r}"]


@lru_cache(maxsize=64)
def _bound(slug: str, sha256: str, text: str) -> GameRules:
    return game_class(slug)(json.loads(text))


def get_rules(slug: str, edition: dict[str, Any] | None = None) -> GameRules:
    """The reducer for `slug` bound to `edition` (the default edition when None)."""
    text, sha = canonical_edition(edition if edition is not None else default_edition(slug))
    return _bound(slug, sha, text)
