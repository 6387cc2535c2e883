"""The offline table (api/offline/table.py, which the tablet runs in Pyodide) answers as the
server does: the same state document, legal actions with chance slots, sentences, events
and refusals, for every game, at the start, middle and end of a real game. The oracle is
the running service over HTTP (the Flask test client), never the table itself. Also: the
rules archive the browser loads holds everything the rules import, and nothing else of
chronicle, byte for byte the same each time it is packed."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from api import create_app
from api.offline import bundle, table
from events.model import GENESIS, seal
from projections import GAMES, get_rules
from projections.replay import fold

ROOT = Path(__file__).resolve().parents[2]


def _widest(slug: str) -> Path:
    paths = sorted((ROOT / "fixtures" / slug).glob("*.jsonl"))
    return max(paths, key=lambda p: len(json.loads(p.read_text().splitlines()[0])["data"]
                                        ["players"]))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("t") / "t.db")})
    return app.test_client()


def _as_table_game(client, path: Path, upto: int, name: str) -> tuple[str, str, list[dict]]:
    """The first `upto` events of a fixture as a running table game (a digital deal becomes
    the cards turned up at the table); (id, recorder token, the events left over)."""
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    lines = [e for e in lines if e["type"] != "seed_revealed"]
    sealed, prev = [], GENESIS
    for env in lines[:upto + 1]:
        data = dict(env["data"])
        if env["type"] == "game_created":
            data.update(mode="table", seed_commitment=None)
        actor = "table" if env["actor"] == "server" else env["actor"]
        done = seal(name, env["seq"], env["type"], actor, data, prev,
                    recorded_at=env["recorded_at"])
        sealed.append(json.dumps(done))
        prev = done["hash"]
    r = client.post("/games/import", data="\n".join(sealed),
                    headers={"Content-Type": "application/x-ndjson"})
    assert r.status_code == 201, r.json
    rest = [{"type": e["type"], "actor": "table" if e["actor"] == "server" else e["actor"],
             "data": e["data"]} for e in lines[upto + 1:]]
    return r.json["id"], r.json["recorder_token"], rest


def _get(client, path: str, token: str) -> dict:
    r = client.get(path, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.json
    return r.json


def _open(client, gid: str, token: str) -> table.Table:
    """The table as the tablet opens it: from what the API served it while online."""
    game = _get(client, f"/games/{gid}", token)
    events = _get(client, f"/games/{gid}/events?limit=5000", token)["events"]
    edition = _get(client, f"/offline/games/{gid}/edition", token)["content"]
    return table.Table(game, events, edition)


def _same_document(mine: dict, server: dict) -> None:
    assert {k: v for k, v in mine.items() if k != "audit"} == \
        {k: v for k, v in server.items() if k != "audit"}


CASES = [(slug, part) for slug in sorted(GAMES) for part in ("start", "middle", "end")]


@pytest.mark.parametrize("slug, part", CASES)
def test_the_offline_table_answers_as_the_server_does(client, slug: str, part: str) -> None:
    path = _widest(slug)
    length = len([x for x in path.read_text().splitlines() if x.strip()]) - 1
    upto = {"start": 1, "middle": length // 2, "end": length - 2}[part]
    gid, token, rest = _as_table_game(client, path, upto, f"off-{slug}-{part}")
    mine = _open(client, gid, token)
    _same_document(mine.state(), _get(client, f"/games/{gid}/state", token))
    assert mine.legal() == _get(client, f"/games/{gid}/legal-actions", token)
    # through the page's door, even the order of every mapping is the server's (a board
    # draws a mapping in its order)
    table._tables[gid] = mine
    ours = json.loads(table.call("state", json.dumps({"game_id": gid})))["ok"]
    theirs = _get(client, f"/games/{gid}/state", token)
    assert json.dumps(ours["view"]) == json.dumps(theirs["view"])
    served = _get(client, f"/games/{gid}/events?limit=5000", token)
    theirs = {seq: n["description"] for seq, n in served["annotations"].items()
              if "undone" in n}
    ours = {seq: n["description"] for seq, n in mine.events()["annotations"].items()
            if "undone" in n}
    assert ours == theirs, "the same sentence for every game action"

    # the fixture's next move: recorded alike, and the same state after it
    nxt = rest[0]
    done = mine.record(nxt)
    r = client.post(f"/games/{gid}/events", json=nxt,
                    headers={"Authorization": f"Bearer {token}", "If-Match": f'"{upto}"'})
    assert r.status_code == 201, r.json
    assert {k: done["event"][k] for k in ("seq", "type", "actor", "data")} == \
        {k: r.json["event"][k] for k in ("seq", "type", "actor", "data")}
    _same_document(done["state"], _get(client, f"/games/{gid}/state", token))

    # undo and redo, as the table's recorder makes them
    for kind in ("undo", "redo"):
        done = mine.undo() if kind == "undo" else mine.redo()
        r = client.post(f"/games/{gid}/{kind}", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.json
        assert done["event"]["data"] == r.json["event"]["data"]
        _same_document(done["state"], _get(client, f"/games/{gid}/state", token))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_refusal_offline_names_the_rule_as_the_server_does(client, slug: str) -> None:
    """The move just recorded, recorded again: the rules refuse it, in the same words."""
    path = _widest(slug)
    gid, token, rest = _as_table_game(client, path, 3, f"refuse-{slug}")
    mine = _open(client, gid, token)
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/games/{gid}/events", json=rest[0], headers=auth).status_code == 201
    mine.record(rest[0])
    again = client.post(f"/games/{gid}/events", json=rest[0], headers=auth)
    assert again.status_code == 422, again.json
    answer = json.loads(_call(mine, rest[0]))
    assert answer["error"]["code"] == again.json["error"]["code"]
    assert answer["error"]["message"] == again.json["error"]["message"]


DECLARED = sorted(slug for slug, cls in GAMES.items() if cls.actions)


@pytest.mark.parametrize("slug, part", [(s, p) for s in DECLARED for p in ("start", "middle")])
def test_the_offline_choices_are_the_servers_pick_by_pick(client, slug: str, part: str) -> None:
    """The tablet builds a move from the same choices as the server's table recorder
    (GET /games/<id>/choices is the oracle): the same menu, then, along a seeded random
    walk of each action type open now, the same answer after every pick, through the
    page's door; a pick not offered is refused in the same words."""
    import random

    path = _widest(slug)
    length = len([x for x in path.read_text().splitlines() if x.strip()]) - 1
    upto = {"start": 1, "middle": length // 2}[part]
    gid, token, _ = _as_table_game(client, path, upto, f"choose-{slug}-{part}")
    mine = _open(client, gid, token)
    table._tables[gid] = mine

    def both(query: dict) -> tuple[dict, dict]:
        ours = json.loads(table.call("choices", json.dumps({"game_id": gid, **query})))
        wire = {k: json.dumps(v) if k == "picks" else v for k, v in query.items()}
        r = client.get(f"/games/{gid}/choices", query_string=wire,
                       headers={"Authorization": f"Bearer {token}"})
        return ours, {"ok": r.json} if r.status_code == 200 else {"error": r.json["error"]}

    ours, theirs = both({})
    assert ours == theirs and ours["ok"]["actions"], "the same action types open now"
    whim = random.Random(f"{slug}-{part}")
    for item in ours["ok"]["actions"]:
        picks: list[dict] = []
        for _ in range(200):
            ours, theirs = both({"type": item["type"], "actor": item["actor"], "picks": picks})
            assert ours == theirs, (item, picks)
            choice = ours["ok"]["choice"]
            if choice is None:
                break
            ends = choice["kind"] != "one" and choice["can_end"]
            n = len(choice["options"]) + ends
            i = whim.randrange(n)
            picks.append({"choice": choice["id"], "end": True} if i == len(choice["options"])
                         else {"choice": choice["id"], "value": choice["options"][i]["value"]})
        assert ours["ok"]["complete"] and ours["ok"]["move"] and ours["ok"]["sentence"]
    bad = [{"choice": "no-such-choice", "value": 1}]
    ours, theirs = both({"type": item["type"], "actor": item["actor"], "picks": bad})
    assert ours["error"]["code"] == theirs["error"]["code"] in ("not_this_choice",
                                                                 "move_complete")
    assert ours["error"]["message"] == theirs["error"]["message"]


def _shape_faults(slug: str, action: dict) -> dict[str, object]:
    """The fixture's next move made wrong in shape, as a page could send it: a field the
    move's schema does not know, a field it requires left out, a value of the wrong type,
    an action with no actor, a seat the game does not have, a type only chronicle writes."""
    data = dict(action["data"])
    first = sorted(data)[0]
    schema = get_rules(slug).action_schemas[action["type"]]()
    required = sorted(n for n, f in schema.fields.items() if f.required and n in data)
    return {
        "unknown field": {**action, "data": {**data, "planted_field": 1}},
        **({"missing field": {**action, "data": {k: v for k, v in data.items()
                                                 if k != required[0]}}} if required else {}),
        "wrong type": {**action, "data": {**data, first: {"not": "this"}}},
        "no actor": {k: v for k, v in action.items() if k != "actor"},
        "no such seat": {**action, "actor": 9},
        "reserved type": {**action, "type": "seed_revealed"},
    }


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_offline_table_checks_the_shape_as_the_server_does(client, slug: str) -> None:
    """Offline checks = online checks (issue #31): every malformed move is refused on the
    tablet exactly when the server refuses it (the oracle: the running service over HTTP,
    each fault on a game of its own), with the server's code and sentence, and nothing is
    kept; never accepted offline to be refused when sent, never a Python KeyError."""
    path = _widest(slug)
    _, _, rest = _as_table_game(client, path, 3, f"shape-{slug}")
    for i, (fault, bad) in enumerate(_shape_faults(slug, rest[0]).items()):
        gid, token, _ = _as_table_game(client, path, 3, f"shape-{slug}-{i}")
        mine = _open(client, gid, token)
        before = mine.state()
        served = client.post(f"/games/{gid}/events", json=bad,
                             headers={"Authorization": f"Bearer {token}"})
        answer = json.loads(_call(mine, bad))
        if served.status_code == 201:  # a field left out that has a default: both take it
            assert "ok" in answer, (fault, answer)
            _same_document(answer["ok"]["state"], _get(client, f"/games/{gid}/state", token))
            continue
        assert served.status_code in (400, 422), (fault, served.json)
        assert "error" in answer, f"{fault}: accepted offline, refused online"
        assert {k: answer["error"][k] for k in ("code", "message")} == \
            {k: served.json["error"][k] for k in ("code", "message")}, fault
        assert "KeyError" not in answer["error"]["message"]
        assert mine.state() == before, "nothing kept of a refused move"


def test_an_unexpected_failure_of_the_offline_rules_is_a_sentence() -> None:
    """A request the table cannot even read (no game of that id opened): a sentence."""
    answer = json.loads(table.call("record", json.dumps({"game_id": "never-opened",
                                                          "action": {}})))
    assert answer["error"]["code"] == "offline_rules_failed"
    assert answer["error"]["message"] == ("the rules on this tablet could not check this move; "
                                          "nothing was recorded")


def _call(mine: table.Table, action: dict) -> str:
    """Through the page's door (JSON in, JSON out), as the worker calls it."""
    table._tables[mine.game["id"]] = mine
    return table.call("record", json.dumps({"game_id": mine.game["id"], "action": action}))


def test_the_table_refuses_an_edition_that_is_not_the_games(client) -> None:
    gid, token, _ = _as_table_game(client, _widest("royals"), 1, "wrong-edition")
    game = _get(client, f"/games/{gid}", token)
    events = _get(client, f"/games/{gid}/events", token)["events"]
    edition = _get(client, f"/offline/games/{gid}/edition", token)["content"]
    table.Table(game, events, edition)  # the right one folds
    with pytest.raises(table.IllegalAction) as err:
        table.Table(game, events, {**edition, "labels": {"deck": "a planted change"}})
    assert err.value.code == "edition_unknown"


def test_a_digital_game_is_not_recorded_offline(client) -> None:
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital"})
    gid, token = r.json["id"], r.json["recorder_token"]
    with pytest.raises(table.IllegalAction) as err:
        table.Table(_get(client, f"/games/{gid}", token),
                    _get(client, f"/games/{gid}/events", token)["events"])
    assert err.value.code == "offline_table_only"


# -- the archive the browser loads ----------------------------------------------------
def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_rules_archive_holds_every_package_the_rules_import() -> None:
    needed = set()
    for path in [*(ROOT / "projections").rglob("*.py"), ROOT / "api/offline/table.py",
                 *(ROOT / "events" / m for m in bundle.EVENTS_MODULES)]:
        needed |= _imports(path)
    third_party = needed - set(sys.stdlib_module_names) - {"__future__"}
    names = zipfile.ZipFile(io.BytesIO(bundle.rules_archive())).namelist()
    packed = {n.split("/")[0] for n in names if "/" in n}
    assert third_party <= packed, f"the browser could not import {third_party - packed}"
    assert "offline_table.py" in names
    assert {"projections/data/royals.json", "projections/royals/legal.py"} <= set(names)


def test_the_offline_table_imports_only_the_rules_and_the_input_checks() -> None:
    """The tablet has the rules and the server's input checks (events/shape.py, schemas.py,
    errors.py), which import nothing of events/ but each other: no store, no access."""
    ours = {"projections", "events", "api", "cli"}
    assert _imports(ROOT / "api/offline/table.py") & ours == {"projections", "events"}
    for name in bundle.EVENTS_MODULES:
        tree = ast.parse((ROOT / "events" / name).read_text())
        relative = {a.name if node.module is None else node.module
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and node.level for a in node.names}
        assert relative <= {"errors", "schemas"}, (name, relative)
        assert _imports(ROOT / "events" / name) & ours <= {"projections"}, name
    names = zipfile.ZipFile(io.BytesIO(bundle.rules_archive())).namelist()
    assert {n for n in names if n.startswith("events/")} == \
        {"events/__init__.py", *(f"events/{m}" for m in bundle.EVENTS_MODULES)}


def test_the_rules_archive_is_the_same_bytes_each_time_it_is_packed() -> None:
    first = bundle.rules_archive.__wrapped__()
    assert first == bundle.rules_archive.__wrapped__()
    offered = bundle.assets(sorted(GAMES))  # without Pyodide, nothing is offered offline
    assert not offered["available"] or bundle.rules_version() in offered["rules"]


_FOLD_FROM_ARCHIVE = """
import json, sys
sys.path[:0] = [sys.argv[1]]
from projections import get_rules
from projections.replay import fold
out = {}
for slug, path in json.loads(sys.argv[2]).items():
    envs = [json.loads(line) for line in open(path) if line.strip()]
    rules = get_rules(slug)
    out[slug] = [rules.view(fold(rules, envs).state, None), rules.labels()]
print(json.dumps(out, sort_keys=True, default=str))
"""


def test_every_game_folds_from_the_rules_archive_alone_as_the_server_folds_it(tmp_path) -> None:
    """The games are packages with subpackages (projections/thrones/apply/): the archive must
    carry every module and the edition data, so a Python that has nothing but the archive on
    its path (-I -S: no site-packages, no working directory) folds each game's fixture to the
    view the server's own import of the source gives."""
    archive = tmp_path / "rules.zip"
    archive.write_bytes(bundle.rules_archive())
    paths = {slug: str(_widest(slug)) for slug in sorted(GAMES)}
    done = subprocess.run([sys.executable, "-I", "-S", "-c", _FOLD_FROM_ARCHIVE, str(archive),
                           json.dumps(paths)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = {}
    for slug, path in paths.items():
        envs = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        rules = get_rules(slug)
        expected[slug] = [rules.view(fold(rules, envs).state, None), rules.labels()]
    assert json.loads(done.stdout) == json.loads(json.dumps(expected, sort_keys=True,
                                                            default=str))
