"""`python -m bench.fingerprint`: one hash of everything the rules say about the samples.

For every event of every recorded sample game (fixtures/), in order: the complete state
(the auditor's view), each seat's and the spectator's view, the legal actions listed, the
sentence of the event, the result, and two refusals (the event's action made by a seat
that is not its actor, and the event's type with empty data). A change that claims to
make the rules faster, or to reshape how they are declared, must leave this hash as it
was (issue #34: "every change keeps the fixture hash ... unchanged"); `--by-game` prints
one hash per game to find where a difference lies. Sentences and refusals are rendered in
English (they are messages, docs/design.md, "Sentences as data"): a change that turns a
game's sentences into messages must leave this hash as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from projections import get_rules
from projections.messages import render
from projections.replay import META_TYPES, Folder, mode_of
from projections.rules import Action, ChronicleError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _refusal(rules: Any, state: Any, action: Action) -> str:
    try:
        rules.apply(state, action)
    except ChronicleError as err:
        return f"{err.code}: {render(err.message, 'en')}"
    except Exception as err:  # a crash is a difference too
        return f"crash {type(err).__name__}"
    return "accepted"


def fingerprint_game(path: Path) -> str:
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    slug = envelopes[0]["data"]["game"]
    rules = get_rules(slug)
    players = list(envelopes[0]["data"]["players"])
    digest = hashlib.sha256()
    folder = Folder(rules, mode_of(envelopes))
    before = None
    for env in envelopes:
        cursor = folder.feed(env)
        state = cursor.state
        part: dict[str, Any] = {
            "all": rules.view(state, "all"),
            "seats": [rules.view(state, seat) for seat in [None, *range(len(players))]],
            "legal": rules.legal_actions(state, None),
            "result": rules.result(state),
        }
        if env["type"] not in META_TYPES and env["type"] != "game_created":
            action = Action.of(env["type"], env["actor"], env["data"])
            part["sentence"] = render(rules.describe(action, players), "en")
            if before is not None:
                other = next((s for s in range(len(players)) if s != env["actor"]), "table")
                part["refusals"] = [
                    _refusal(rules, before.state, Action.of(env["type"], other, env["data"])),
                    _refusal(rules, before.state, Action.of(env["type"], env["actor"], {})),
                ]
        digest.update(json.dumps(part, sort_keys=True, default=str).encode("utf-8"))
        before = cursor
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fingerprint")
    parser.add_argument("--by-game", action="store_true", help="one hash per sample game")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for path in sorted(FIXTURES.glob("*/*.jsonl")):
        one = fingerprint_game(path)
        total.update(one.encode())
        if args.by_game:
            print(f"{one[:16]}  {path.parent.name}/{path.name}")
    print(total.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
