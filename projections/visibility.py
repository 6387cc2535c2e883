"""Who sees what of an event: the one redaction (docs/design.md, "Access and tokens").

What a viewer receives of a stored event is decided here and nowhere else, from the rules
(`GameRules.redact`) and the state before that event. Every representation a viewer is
served (history pages, the stream, export, compare, idempotent replays, the answer to a
write) obtains events through `shown_event`, through the per-viewer reader of `events/`.
A view that hides any part of an event replaces its `data` and withholds its `salt`, so
the public hash cannot be used to test guesses of the hidden value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .replay import META_TYPES, to_action
from .rules import ALL, Action, GameRules, State, Viewer

Envelope = Mapping[str, Any]


def shown_event(rules: GameRules[Any], env: Envelope, viewer: Viewer,
                state_before: State | None) -> tuple[dict[str, Any], bool]:
    """(the envelope as `viewer` may see it, whether anything was withheld).

    `state_before` is the game state the event was applied to (None for `game_created`,
    which holds nothing secret). The auditor's view (`ALL`) sees every event whole.
    """
    if viewer == ALL:
        return dict(env), False
    kind = env["type"]
    if kind == "seed_revealed":  # only ever stored once the game is over, public then
        return _withheld(env, {}), True
    if kind == "correction":
        return _shown_correction(rules, env, viewer, state_before)
    if kind in META_TYPES or state_before is None:
        return dict(env), False
    hidden = rules.redact(to_action(env), viewer, state_before)
    if hidden is None:
        return dict(env), False
    return _withheld(env, hidden), True


def _shown_correction(rules: GameRules[Any], env: Envelope, viewer: Viewer,
                      state_before: State | None) -> tuple[dict[str, Any], bool]:
    """A correction carries a whole action: hide of it what the action itself would hide.

    The state the corrected action first met is not at hand in a page of the history, so
    the state before the correction stands in (docs/design.md, "Access and tokens", leaves this
    open; engine ruling 14 pins it): at worst a viewer sees less, never more.
    """
    fix = (env.get("data") or {}).get("action")
    if not isinstance(fix, Mapping) or state_before is None or not isinstance(
            fix.get("type"), str):
        return dict(env), False
    action = Action.of(fix["type"], fix.get("actor", "table"), fix.get("data") or {})
    try:
        hidden = rules.redact(action, viewer, state_before)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        hidden = {}  # a replacement the rules cannot read: show none of its data
    if hidden is None:
        return dict(env), False
    data = {**env["data"], "action": {**fix, "data": hidden}}
    return _withheld(env, data), True


def _withheld(env: Envelope, data: Mapping[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in env.items() if k != "salt"}
    shown["data"] = dict(data)
    return shown
