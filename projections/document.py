"""The state document: the state at one step as a reader receives it (docs/design.md, "CLI
and HTTP": `state --json`, `GET /games/<id>/state`, the answer to a write).

Built here, once, for the two places that serve it: the server (events/reading.py, for any
viewer) and the offline recorder in the browser (api/offline/table.py, which imports only
this package), so the tablet's document cannot drift from the server's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .replay import Cursor
from .rules import GameRules, Viewer


def state_document(rules: GameRules[Any], cursor: Cursor, viewer: Viewer, *, game_id: str,
                   mode: str, players: Sequence[str], last_seq: int,
                   audit: str | None) -> dict[str, Any]:
    """The document of `cursor` as `viewer` sees it; `last_seq` is the log's latest step
    (the cursor may be an earlier one) and `audit` the last audit's flag."""
    result = rules.result(cursor.state)
    return {
        "game_id": game_id, "game": rules.slug, "seq": cursor.seq,
        "status": "finished" if result is not None else "in_progress",
        "view": rules.view(cursor.state, viewer), "result": result,
        "to_act": list(rules.to_act(cursor.state)), "mode": mode,
        "players": list(players), "can_undo": cursor.can_undo,
        "can_redo": cursor.can_redo, "last_seq": last_seq, "audit": audit,
    }
