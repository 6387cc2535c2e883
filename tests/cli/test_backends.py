"""`CHRONICLE_DB` (or `--db`) picks the backend: a SQLite path, `sqlite:///PATH`, or a
`postgresql://` URL; the same session works on each."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main

SETUP = ["castle", "huntress", "ace_wyrms", "sailor", "cave", "mountain", "diplomat",
         "ace_suns", "forest", "mill", "battle"]


def test_the_same_session_runs_on_each_backend_chosen_by_chronicle_db(store_url):
    runner = CliRunner()
    env = {"CHRONICLE_DB": store_url}
    created = runner.invoke(main, ["new", "adaman", "--player", "Ann"], env=env)
    assert created.exit_code == 0, created.output
    game_id = created.stdout.strip()
    steps = [["act", game_id, "setup", "--actor", "table", "--data", json.dumps({"drawn": SETUP})],
             ["undo", game_id], ["redo", game_id]]
    for args in steps:
        result = runner.invoke(main, args, env=env)
        assert result.exit_code == 0, (args, result.output)
    refused = runner.invoke(main, ["act", game_id, "control", "--actor", "0", "--expect-seq",
                                   "1", "--data", "{}"], env=env)
    assert refused.exit_code == 1 and "stale_sequence" in refused.stderr
    listed = json.loads(runner.invoke(main, ["games", "--json"], env=env).stdout)
    assert [g["id"] for g in listed["games"]] == [game_id]
    verified = runner.invoke(main, ["verify", game_id, "--json"], env=env)
    assert verified.exit_code == 0 and json.loads(verified.stdout)["ok"]
