"""A state document rendered once per viewer scope (issue #34, docs/design.md "Stores"):
the bytes a shell encoded, kept in events/documents.py until the game's log grows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .documents import StateKey, scope_of
from .errors import NotFound
from .folding import no_such_step
from .reading import GameReader


def rendered_state(reader: GameReader, at: int | None, form: str,
                   render: Callable[[dict[str, Any]], bytes]) -> bytes:
    """The state document at `at` as `render` encodes it (`form` names the encoding and
    the language), from the documents kept when this viewer's scope asked before; else
    built, rendered and kept."""
    target = reader.latest.seq if at is None else at
    missing = no_such_step(reader.ctx, target)
    if missing:
        raise NotFound("no_such_step", missing)
    folding = reader._folding
    key = StateKey(reader.ctx.id, target, reader.latest.seq, scope_of(reader.viewer),
                   folding.audit_of(reader.ctx), form)
    return folding.cache.documents.get_or_render(key, lambda: render(reader.state(target)))
