"""In the Shadow of the Emperor: what each viewer sees.

Spec: docs/games/in_the_shadow_of_the_emperor.md §10. Everything is open except the sealed
ballots of an election before the reveal (§8): another seat's ballot shows as "hidden", in
the view and in the event that cast it (`redact_cast_vote`, the redaction `cast_vote`
declares in actions.py); to the table's recorder (viewer TABLE) too when the seat sealed it
with its own token (ruling 21).
"""

from __future__ import annotations

from typing import Any

from ..rules import TABLE, Action, Viewer
from .edition import Components
from .legal import to_act
from .scoring import gray_holder, influence, result
from .state import EMPIRE, Electorate, Pending, Player, State, ref_of, tile_json


def view(state: State, seat: Viewer, components: Components) -> dict[str, Any]:
    """Everything is open except sealed ballots before the reveal (spec §10)."""
    return {
        "status": state.status, "round": state.round, "phase": state.phase,
        "phase_name": _phase_name(state.phase, components),
        "emperor": state.emperor, "to_act": list(to_act(state, components)),
        "throne": tile_json(state.throne),
        "electorates": [_electorate_json(state, e, components) for e in state.electorates],
        "players": [_player_json(p) for p in state.players],
        "display": state.display.counts(), "empire_city_reserve": state.empire_reserve,
        "rival": state.rival, "turn": state.turn,
        "targets": {"church_influence": state.ci_target,
                    "excommunication": state.ex_target},
        "gray_eminence_holder": gray_holder(state),
        "ballots": _ballots_json(state, seat),
        "last_election": {"ballots": {str(s): c for s, c in state.last_election},
                          "totals": list(state.last_totals) if state.last_totals else None},
        "held_tile": tile_json(state.held),
        "pending": _pending_json(state.pending),
        "scores": [p.vp for p in state.players],
        "result": result(state, components),
    }


def redact_cast_vote(action: Action, seat: Viewer, state_before: State, components: Components
                     ) -> dict[str, Any] | None:
    """Spec §8: another seat's sealed ballot shows as "hidden" until the reveal (the
    redaction of `cast_vote`; every other action type is public, `choices.public`)."""
    if action.type != "cast_vote" or seat == "all" or seat == action.actor:
        return None
    if seat == TABLE and action.data.get("sealed") is not True:
        return None  # the recorder typed it: it saw the card (ruling 21)
    pending = state_before.pending
    if pending is not None and pending.kind == "vote" and \
            len(state_before.ballots) + 1 >= len(pending.seats):
        return None  # the last ballot: all are revealed together with it
    return {"choice": "hidden"}


def _ballots_json(state: State, seat: Viewer) -> dict[str, str]:
    return {str(s): (c if seat in ("all", s) or (seat == TABLE and s not in state.sealed)
                     else "hidden") for s, c in state.ballots}


def _electorate_json(state: State, e: Electorate, components: Components) -> dict[str, Any]:
    info = components.electorates[e.id]
    return {
        "id": e.id, "elector": tile_json(e.elector),
        "court": [tile_json(t) for t in e.tiles],
        "court_knights": list(e.knights), "castle_knights": list(e.castles),
        "cities": ["empire" if c == EMPIRE else c for c in e.cities],
        "privilege_used": e.used,
        "aristocrat_spaces": info.court_spaces(state.n),
        "city_spaces": info.city_spaces,
        "castle_spaces": info.castle_spaces,
        "kind": info.kind,
        "influence": influence(state, e.id, components) if state.status != "awaiting_setup"
        else [0] * state.n,
    }


def _player_json(p: Player) -> dict[str, Any]:
    return {"thalers": p.thalers, "vp": p.vp, "supply_tiles": p.tiles,
            "supply_knights": p.knights, "supply_cities": p.cities,
            "play_area": list(p.area), "passed": p.passed,
            "thalers_at_actions_start": p.chip}


def _phase_name(phase: int, components: Components) -> str:
    return "setup" if phase == 0 else components.phase_names.get(phase, str(phase))


def _pending_json(pending: Pending | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    out: dict[str, Any] = {"kind": pending.kind, "actor": pending.actor}
    if pending.electorate:
        out["electorate"] = pending.electorate
    if pending.seats:
        out["seats"] = list(pending.seats)
    if pending.tile:
        out["target"] = ref_of(pending.tile, pending.at or "")
        out["proposer"] = pending.other
    if pending.side:
        out["side"], out["age"] = pending.side, pending.age
    return out
