"""The log says who won each Thrones challenge and dominance (issue 33): the sentence of a
`resolve_challenge` or `resolve_dominance` goes on with the winner, checked against what
the move did to the game (the challenge's winner and strengths on the board after it; the
house power the dominance winner gained, §7.5), never against the words themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from events.recorder import Recorder

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "thrones").glob("*.jsonl"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_the_log_names_the_winner_of_every_challenge_and_dominance(store, path: Path) -> None:
    rec = Recorder(store)
    gid = rec.import_lines(path.read_text().splitlines(keepends=True)).id
    events, notes = rec.history(gid)
    names = json.loads(path.read_text().splitlines()[0])["data"]["players"]
    seen = {"resolve_challenge": 0, "resolve_dominance": 0}
    for env in events:
        kind, seq = env["type"], env["seq"]
        if kind not in seen or notes[seq].get("undone"):
            continue
        said = notes[seq]["description"]
        before, after = rec.state(gid, seq - 1)["view"], rec.state(gid, seq)["view"]
        if kind == "resolve_challenge":
            # the strengths on the board before (the view's totals), the winner by §8.6:
            # the higher STR, the attacker on a tie, nobody with none on either side
            ch = before["challenge"]
            att, dfn = ch["strength"]
            if after.get("challenge"):
                assert after["challenge"]["strength"] == [att, dfn]
            if att == dfn == 0:
                assert said.endswith("nobody won (no strength on either side)"), said
            else:
                winner = ch["attacker"] if att >= dfn else ch["defender"]
                high, low = max(att, dfn), min(att, dfn)
                assert f": {names[winner]} won {high} to {low}" in said, said
        else:
            gained = [s for s in range(len(names)) if after["players"][s]["house_power"]
                      > before["players"][s]["house_power"]]
            if gained:
                assert re.search(rf": {re.escape(names[gained[0]])} won with \d+ \(", said), said
            else:
                assert "nobody gains power" in said, said
        seen[kind] += 1
    assert seen["resolve_challenge"] > 0 and seen["resolve_dominance"] > 0
