"""Digital chance as pure functions: which deal the server owes, and checking a deal.

The server draws the seed (events/dealer.py, the only place that touches randomness);
everything that follows from a seed is here, so an auditor's re-derivation and the
server's deal are one computation. The schemes (README, "Deals"):

- scheme 1 (games created before it was replaced): the commitment in `game_created` is
  sha256(seed); the chance event at seq n is dealt by `Dealer(seed, n)`.
- scheme 2 (`game_created.seed_scheme == 2`): the commitment is
  sha256(salt + ":" + seed), both revealed by `seed_revealed`; the k-th chance event of the
  log (k = 0, 1, ..., counting every event of a chance-bearing type, undone ones
  included) is dealt by `Dealer(seed, k)`, so a note or an undo cannot move a deal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from .replay import META_TYPES, Cursor, to_action
from .rules import Action, Dealer, GameRules, IllegalAction, State, thaw

CURRENT_SCHEME = 2
SCHEMES = (1, 2)


def scheme_of(created: Mapping[str, Any]) -> int:
    """The chance scheme a game was created under (absent: 1, the first one)."""
    scheme = created.get("seed_scheme", 1)
    return scheme if scheme in SCHEMES else -1


def commitment(seed: str, salt: str | None, scheme: int) -> str:
    """The hex commitment `game_created` publishes for `seed` under `scheme`."""
    if scheme == 1:
        return hashlib.sha256(seed.encode("utf-8")).hexdigest()
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def dealer_for(scheme: int, seed: str, before: Cursor) -> Dealer:
    """The dealer of the chance event that follows `before`."""
    return Dealer(seed, before.seq + 1 if scheme == 1 else before.draws)


def server_move(rules: GameRules[Any], state: State) -> dict[str, Any] | None:
    """The table move the server makes itself in digital play, or None.

    A chance event the rules call for (`auto_action`), or the table's only legal move when
    the table alone is to act: a step nobody chooses (Thrones' `resolve_dominance` and
    `end_round`) must not wait for a recorder while the seats play on their phones. A table
    move with more than one option (Thrones' `start_game`: the houses) is the recorder's
    choice; the server still fills its chance fields.
    """
    auto = rules.auto_action(state)
    if auto is not None:
        return auto
    if tuple(rules.to_act(state)) != ("table",):
        return None
    options = rules.legal_actions(state, "table")
    return dict(options[0]) if len(options) == 1 else None


def deal_problem(rules: GameRules[Any], scheme: int, before: Cursor, env: Mapping[str, Any],
                 seed: str) -> dict[str, Any] | None:
    """Re-derive an event's chance outcome from the seed; a mismatch names the seq."""
    chance = rules.chance_fields.get(env["type"], ())
    if not chance or env["type"] in META_TYPES:
        return None
    data = env["data"]
    probe = Action.of(env["type"], env["actor"], rules.strip_chance(to_action(env)))
    try:
        expected = rules.fill_chance(before.state, probe, dealer_for(scheme, seed, before))
    except IllegalAction:
        return {"seq": env["seq"], "code": "deal_mismatch",
                "message": f"event {env['seq']}: the seed cannot re-derive this deal"}
    for name in chance:
        if thaw(expected.get(name)) != thaw(data.get(name)):
            return {"seq": env["seq"], "code": "deal_mismatch",
                    "message": f"event {env['seq']}: its {name.replace('_', ' ')} is not "
                    "what the revealed seed deals"}
    return None
