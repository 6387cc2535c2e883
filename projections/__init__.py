"""Pure game logic: the registry of games by slug, and how each is bound to an edition.

`get_rules(slug, edition)` gives the reducer of one game for one edition (its component
data). Imports nothing of ours beyond this package; no IO beyond reading package data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from .adaman import Adaman
from .in_the_shadow_of_the_emperor import InTheShadowOfTheEmperor
from .palais_royal import PalaisRoyal
from .royals import Royals
from .rules import Action, Dealer, GameRules, IllegalAction
from .thrones import Thrones

__all__ = [
    "GAMES",
    "Action",
    "Dealer",
    "GameRules",
    "IllegalAction",
    "bound_rules",
    "canonical_edition",
    "default_edition",
    "edition_problems",
    "get_rules",
]


def _registry() -> dict[str, type[GameRules[Any]]]:
    classes: list[type[GameRules[Any]]] = [Adaman, InTheShadowOfTheEmperor, PalaisRoyal, Royals,
                                      Thrones]
    return {cls.slug: cls for cls in classes}


GAMES: dict[str, type[GameRules[Any]]] = _registry()
DEFAULT_EDITION_NAME = "default"


def game_class(slug: str) -> type[GameRules[Any]]:
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


class _RulesCache(dict[tuple[str, str], GameRules[Any]]):
    """The one cache of bound reducers, by (game slug, edition sha256): content-addressed,
    so an entry is never stale; bounded, since clubs may register many editions."""

    limit = 256

    def cache_clear(self) -> None:
        """Forget every bound reducer (a test that swaps a game's class calls this)."""
        self.clear()


_bound = _RulesCache()


def bound_rules(slug: str, sha256: str,
                content: Mapping[str, Any] | Callable[[], Mapping[str, Any]]) -> GameRules[Any]:
    """The reducer of `slug` bound to the edition whose canonical content hashes to `sha256`.

    `content` may be a loader, called only on a cache miss (reading and parsing an
    edition costs more than the rest of a state request).
    """
    key = (slug, sha256)
    rules = _bound.get(key)
    if rules is None:
        data = content() if callable(content) else content
        rules = game_class(slug)(dict(data))
        if len(_bound) >= _bound.limit:
            _bound.pop(next(iter(_bound)))
        _bound[key] = rules
    return rules


def get_rules(slug: str, edition: dict[str, Any] | None = None) -> GameRules[Any]:
    """The reducer for `slug` bound to `edition` (the default edition when None)."""
    content = edition if edition is not None else default_edition(slug)
    if edition is None:
        return bound_rules(slug, _default_sha(slug), content)
    text, sha = canonical_edition(content)
    return bound_rules(slug, sha, lambda: json.loads(text))


@cache
def _default_sha(slug: str) -> str:
    return canonical_edition(default_edition(slug))[1]
