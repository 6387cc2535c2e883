"""A declared game's moves built from their choices with the network cut: the tablet's own
Python rules answer the same choices (api/offline/table.py through projections.choices),
the moves entered by tapping queue on the tablet and reach the log, verified, once the
connection is back. The oracle is the fixture's moves, entered by their values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.offline import bundle

from .choosing import declared, enter, settle
from .test_offline import _go_offline, _open_controlled, _queued, tablet  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(bundle.pyodide_version() is None, reason="the offline recorder needs "
                       "Pyodide in vendor/pyodide (./test installs it: scripts/offline-deps.sh)"),
    pytest.mark.skipif(not declared("adaman"), reason="adaman is not declared on this branch"),
]

ROOT = Path(__file__).resolve().parents[2]


def test_moves_built_from_choices_offline_reach_the_log(tablet, server) -> None:  # noqa: F811
    lines = [json.loads(x) for x in (ROOT / "fixtures/adaman/won.jsonl").read_text()
             .splitlines()]
    gid, token = server.import_prefix(ROOT / "fixtures/adaman/won.jsonl", 0, "offline-choices")
    page = _open_controlled(tablet, server, gid, token)
    _go_offline(tablet, page)
    wanted = [{k: e[k] for k in ("type", "actor", "data")} for e in lines[1:4]]
    for seq, move in enumerate(wanted):
        settle(page)
        enter(page, move, seq)
    assert server.get(f"/games/{gid}")["last_seq"] == 0, "nothing reached the server"
    assert [q["action"] for q in _queued(page, gid)] == wanted
    tablet.set_offline(False)
    page.locator('#sync[data-online="yes"][data-waiting="0"]').wait_for(timeout=30_000)
    events = server.get(f"/games/{gid}/events", token)["events"]
    assert [{k: e[k] for k in ("type", "actor", "data")} for e in events[1:]] == wanted
    assert server.get(f"/games/{gid}/verify", token)["ok"] is True
    assert page.js_errors == []
