"""Rendered state documents, kept so a repeated GET of the same state is not built again
(issue #34: a view, a schema dump and a JSON encoding per request were most of its cost).

A document is what one viewer may see of one step, so its key is everything it is made of:
the game, the step shown, the log's last seq (`last_seq` is in the document, and a new
event makes every older key of the game unreachable, in every worker), the viewer's scope
exactly as the rules' `view` takes it (a seat, the spectator, the table's recorder, the
whole table: `events.access.viewer_of`, rulings 15, 16 and Emperor 21), the audit flag the
document carries, and the form it was rendered in (the shell's encoding; a language, when
documents carry rendered sentences). Everything a document shows is derived from these and
from the append-only log, so an entry never goes stale; the entries of a game are dropped
anyway when its log grows (undo, redo, any append: `Folding.remember`), which keeps the
memory for games being read now. The twin tests (tests/reliability/test_state_cache.py) show
that no cached answer reaches a viewer of another scope, and fail with the key planted one
field too coarse.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from projections.rules import Viewer


@dataclass(frozen=True, slots=True)
class StateKey:
    """Everything a rendered state document is made of (see the module's docstring)."""

    game_id: str
    seq: int
    last_seq: int
    scope: tuple[str, Viewer]
    audit: str | None
    form: str


def scope_of(viewer: Viewer) -> tuple[str, Viewer]:
    """The viewer's scope as a key part: the kind beside the value, so seat 0 and the
    spectator (None), or a seat and a named scope, never meet in one key."""
    return ("seat" if isinstance(viewer, int) else "scope", viewer)


class StateDocuments:
    """A bounded map of rendered documents, least recently used out first; locked, since
    a server's threads share it."""

    def __init__(self, size: int = 1024) -> None:
        self._items: OrderedDict[StateKey, bytes] = OrderedDict()
        self._by_game: dict[str, set[StateKey]] = {}
        self._lock = threading.Lock()
        self._size = size

    def get_or_render(self, key: StateKey, render: Callable[[], bytes]) -> bytes:
        """The document of `key`, rendered (outside the lock) only when not kept."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        body = render()
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            self._by_game.setdefault(key.game_id, set()).add(key)
            while len(self._items) > self._size:
                gone, _ = self._items.popitem(last=False)
                self._forget(gone)
        return body

    def drop(self, game_id: str) -> None:
        """Forget every document of a game (its log grew)."""
        with self._lock:
            for key in self._by_game.pop(game_id, ()):
                self._items.pop(key, None)

    def _forget(self, key: StateKey) -> None:
        keys = self._by_game.get(key.game_id)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_game[key.game_id]

    def clear(self) -> None:
        """Forget every document (tests; a planted key must not outlive its plant)."""
        with self._lock:
            self._items.clear()
            self._by_game.clear()

    def __len__(self) -> int:
        return len(self._items)


class KnownRoles:
    """The role of each token this process has resolved, by (game, token hash).

    A token is minted with its game and never changes or goes (no store updates or
    deletes a token row), so a role read once holds for good, in every worker; a token
    the store does not know is never kept, and is looked up again each time. Issue #34:
    the token's row was one of a cached GET state's three reads, and under gunicorn's
    threads every read hands the interpreter lock to another thread and back.
    """

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def role(self, game_id: str, hashed: str, read: Callable[[str, str], str | None]
             ) -> str | None:
        """The token's role, from `read(game_id, hashed)` (the store) the first time."""
        key = (game_id, hashed)
        with self._lock:
            found = self._items.get(key)
        if found is not None:
            return found
        role = read(game_id, hashed)
        if role is not None:
            with self._lock:
                self._items[key] = role
                while len(self._items) > self._size:
                    self._items.popitem(last=False)
        return role
