"""Verifying a record and importing one: the chain, every move, every deal, the result.

`verify_envelopes` is the whole audit of a log, stored or not (projections/audit.py does
the rules' part); `import_lines` stores a log only if it verifies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from projections import game_class
from projections.audit import audit_log
from projections.messages import M
from projections.rules import GameRules, IllegalAction

from . import schemas
from .access import mint_tokens
from .editions import Editions
from .errors import ChronicleError, InvalidEvent
from .folding import Folding
from .model import Envelope, chain_problems
from .rows import game_row
from .writing import CreatedGame


class Verifier:
    """Audits and imports over one store."""

    def __init__(self, folding: Folding, editions: Editions) -> None:
        self.folding = folding
        self.store = folding.store
        self.editions = editions

    def verify(self, game_id: str) -> dict[str, Any]:
        """Verify a stored game: chain, every event through the reducer, deals, result.

        A read: it writes nothing, not even the audit mark (`repair` records that). What it
        found holds for the rest of this request (`Folding.noticed`)."""
        self.folding.row(game_id)
        report = self.verify_envelopes(list(self.store.events(game_id)))
        self.folding.noticed(game_id, "ok" if report["ok"] else "failed")
        return report

    def verify_envelopes(self, envelopes: list[Envelope]) -> dict[str, Any]:
        """The audit of a log: {"ok", "first_bad_seq", "problems", "result", ...}."""
        problems = chain_problems(envelopes)
        result, checked, rulings = None, 0, []
        if envelopes and envelopes[0].get("type") == "game_created":
            try:
                audit = audit_log(self._rules_of(envelopes[0]["data"]), envelopes)
                result, checked, rulings = audit.result, audit.checked, audit.rulings
                problems += audit.problems
            except ChronicleError as err:
                problems.append({"seq": 0, "code": err.code, "message": err.message})
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                problems.append({"seq": 0, "code": "malformed_log",
                                 "message": M("the log's events are not the documented "
                                              "shape")})
        elif envelopes:
            problems.append({"seq": envelopes[0].get("seq"), "code": "no_game_created",
                             "message": M("a log must start with the game's creation")})
        else:
            problems.append({"seq": None, "code": "empty_log", "message": M("the log is empty")})
        seqs = [p["seq"] for p in problems if isinstance(p.get("seq"), int)]
        return {"ok": not problems, "first_bad_seq": min(seqs) if seqs else None,
                "problems": sorted(problems, key=lambda p: (p.get("seq") is None,
                                                            p.get("seq") or 0)),
                "events": len(envelopes), "checked": checked, "result": result,
                "rulings": rulings}

    def _rules_of(self, created: Mapping[str, Any]) -> GameRules[Any]:
        """The reducer a game_created names, from an edition this store holds."""
        slug = str(created.get("game", ""))
        game_class(slug)
        return self.editions.require_stored(slug, created["edition"])

    def import_lines(self, lines: Iterable[str]) -> CreatedGame:
        """Store an exported game after verifying it; refuses anything that does not verify."""
        envelopes = parse_jsonl(lines)
        report = self.verify_envelopes(envelopes)
        if not report["ok"]:
            first = report["problems"][0]
            raise IllegalAction("import_refused", M(
                "the file does not verify (event {seq}: {problem})",
                seq=report["first_bad_seq"], problem=first["message"]), report=report)
        created = envelopes[0]["data"]
        game_id = envelopes[0]["game_id"]
        rules = self._rules_of(created)
        self.editions.ensure_default(created["game"])  # the store holds what its games name
        final = report["result"]
        tokens = mint_tokens(len(created["players"]))
        row = game_row(envelopes[0], rules.rules_version, result=final,
                       status="finished" if final is not None else "in_progress")
        self.store.import_game(row, envelopes, tokens.hashes)
        ctx = self.folding.context(game_id)
        self.folding.cursor(ctx, keep=True)  # a write: it leaves snapshots every K events
        return CreatedGame(game_id, tokens.recorder, tokens.seats, [])


def parse_jsonl(lines: Iterable[str]) -> list[Envelope]:
    """Envelopes from JSON Lines; a line that is not a JSON object is an InvalidEvent."""
    out: list[Envelope] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            env = json.loads(line)
        except json.JSONDecodeError as err:
            raise InvalidEvent("malformed", f"line {number} is not JSON: {err.msg}") from None
        except (ValueError, RecursionError):  # a 5000-digit number, nesting past the stack
            raise InvalidEvent("malformed", f"line {number} is not JSON chronicle can read "
                               "(a number too long or nesting too deep)") from None
        if not isinstance(env, dict):
            raise InvalidEvent("malformed", f"line {number} is not a JSON object")
        schemas.check_json_text(env, f"line {number}")
        out.append(env)
    if not out:
        raise InvalidEvent("malformed", "the file holds no events")
    return out
