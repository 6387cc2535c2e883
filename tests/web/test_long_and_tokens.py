"""A 2,000-event game steps by fetching one state per step; tokens narrow the view."""

from __future__ import annotations

import json

import pytest

from events.model import GENESIS, seal
from projections import GAMES, canonical_edition, default_edition, get_rules

from .boardcheck import check_board
from .conftest import snap

pytestmark = pytest.mark.browser

EXAMPLES = {g["id"]: g for g in get_rules("adaman").edition["examples"]["games"]}


@pytest.fixture(scope="module")
def long_game(server) -> str:
    """An Adaman table game of 2,000 events: two moves, then undo/redo pairs and notes.

    Built as a log (hash-chained envelopes) and imported, which verifies it with one fold.
    """
    created = {"game": "adaman", "players": ["Ann"], "mode": "table", "options": {},
               "edition": {"name": "default", "sha256": canonical_edition(
                   default_edition("adaman"))[1]},
               "seed_commitment": None, "rules_version": "1"}
    moves = [("game_created", "table", created)]
    moves += [(e["type"], e["actor"], e["data"])
              for e in EXAMPLES["win_with_cards_left"]["events"][:2]]
    while len(moves) < 2000:
        if len(moves) % 10 == 9:
            moves.append(("note", "table", {"text": "tea"}))
        else:
            moves += [("undo", "table", {"target_seq": 2}), ("redo", "table", {"target_seq": 2})]
    envs, prev = [], GENESIS
    for seq, (kind, actor, data) in enumerate(moves):
        env = seal("long-2000", seq, kind, actor, data, prev)
        envs.append(json.dumps(env))
        prev = env["hash"]
    r = server.http.post(f"{server.url}/games/import", data="\n".join(envs),
                         headers={"Content-Type": "application/x-ndjson"})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_2000_event_game_loads_one_state_per_step(page, server, long_game: str) -> None:
    last = server.get(f"/games/{long_game}")["last_seq"]
    mid = last // 2
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url.removeprefix(server.url)))
    page.goto(f"{server.url}/games/{long_game}/replay?at={mid}")
    check_board(page, server.get(f"/games/{long_game}/state?at={mid}"))
    states = [u for u in requests if "/state" in u]
    # the step shown and the one before it (to highlight what changed): nothing else
    assert sorted(states) == sorted([f"/games/{long_game}/state?at={mid}",
                                     f"/games/{long_game}/state?at={mid - 1}"])
    assert len([u for u in requests if "/events?" in u]) == 1, "the log is read once"
    requests.clear()
    page.keyboard.press("ArrowRight")
    check_board(page, server.get(f"/games/{long_game}/state?at={mid + 1}"))
    assert [u for u in requests if "/state" in u] == [f"/games/{long_game}/state?at={mid + 1}"]
    requests.clear()
    page.keyboard.press("End")
    check_board(page, server.get(f"/games/{long_game}/state?at={last}"))
    assert len([u for u in requests if "/state" in u]) <= 2
    assert page.locator("#events li").count() == last + 1
    assert page.locator("#events li.undone").count() == 0
    snap(page, "replay-2000-events")


def test_a_token_is_sent_and_the_seat_view_shown(context, server) -> None:
    created = server.post("/games", {"game": "adaman", "players": ["Ann"], "mode": "digital",
                                     "seed": "web"}).json()
    page = context.new_page()
    auth: list[str | None] = []
    page.on("request", lambda r: auth.append(r.headers.get("authorization"))
            if "/state" in r.url else None)
    token = created["seat_tokens"][0]
    page.goto(f"{server.url}/games/{created['id']}/replay?token={token}")
    check_board(page, server.get(f"/games/{created['id']}/state", token))
    assert auth and set(auth) == {f"Bearer {token}"}
    assert "token" not in (page.locator("#permalink").get_attribute("href") or "")


def _leaves(value, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for v in value.values():
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


@pytest.mark.parametrize("slug", sorted(s for s, c in GAMES.items() if min(c.player_counts) > 1))
def test_a_seat_token_hides_the_other_hands(context, server, slug: str) -> None:
    """(Adaman is played alone: there is no other hand to hide.)"""
    seats = min(GAMES[slug].player_counts)
    created = server.post("/games", {"game": slug, "players": [f"P{i}" for i in range(seats)],
                                     "mode": "digital", "seed": "web"}).json()
    gid = created["id"]
    mine = server.get(f"/games/{gid}/state", created["seat_tokens"][0])
    theirs = server.get(f"/games/{gid}/state", created["seat_tokens"][1])
    public = server.get(f"/games/{gid}/state")
    secrets = _leaves(theirs["view"], set()) - _leaves(mine["view"], set()) - _leaves(
        public["view"], set())
    page = context.new_page()
    page.goto(f"{server.url}/games/{gid}/replay?token={created['seat_tokens'][0]}")
    check_board(page, mine)
    html = page.locator("#board").inner_html()
    shown = [s for s in secrets if json.dumps(s) in html or f">{s}<" in html]
    assert shown == [], "seat 0's page shows seat 1's hidden values"
