"""One complete game of each of the five games recorded at a table on a tablet, by tapping
only: every choice, every card turned up and every Record is a tap on the recorder's screen.
The players' choices and the cards that turn up are a seeded whim among what the screen
offers (always the first would loop for ever in Palais Royal: servants back and forth).
The taps per game are reported at the end of the run (and in artifacts/taps.json)."""

from __future__ import annotations

import json
import random

import pytest

from projections import GAMES, get_rules
from projections.replay import fold
from projections.rules import Action, IllegalAction

from .boardcheck import check_board
from .choosing import declared, patient_tap
from .conftest import ARTIFACTS, TAPS, new_context, snap

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
PLAYERS = ["Anna", "Bruno", "Chiara", "Dmitri", "Emma"]

GIVING_UP = ("concede", "abandon")
#: with "table-adaman" the layout dealt leaves no move: a complete game of one deal
SEEDS = {"adaman": "table-adaman-a"}

STATE_JS = """(kind) => {
  // the recorder's screen as a person reads it: the moves offered (not giving up), and for
  // the one being entered whether Record is ready and the action it would record
  const groups = [...document.querySelectorAll('#actions .action-group')]
    .filter((g) => !GIVING_UP.includes(g.dataset.type));
  const group = groups.find((g) => g.dataset.type === kind);
  return {kinds: groups.map((g) => g.dataset.type),
    openEnded: Boolean(group) && group.dataset.openEnded === 'yes',
    ready: Boolean(group && group.querySelector('.record-action[data-ready]:not([disabled])')),
    action: group && group.dataset.action ? JSON.parse(group.dataset.action) : null};
}""".replace("GIVING_UP", json.dumps(list(GIVING_UP)))

TAP_JS = """([kind, r, more]) => {
  // one tap in the move `kind`: a choice not yet made, else a card still available for an
  // outcome not yet entered, else Record; `more`: the deal goes on, tap another card. `r`
  // in [0, 1) picks among the buttons, as a player's whim and the shuffled deck would
  const group = document.querySelector(`#actions .action-group[data-type="${kind}"]`);
  if (!group) return 'none';
  const one = (buttons) => buttons[Math.floor(r * buttons.length)];
  for (const row of group.querySelectorAll('.choices[data-key]')) {
    if (!row.querySelector('button.on')) {
      one(row.querySelectorAll('button')).click();
      return 'choose';
    }
  }
  const open = more ? '.choices[data-pick]' : '.choices[data-pick]:not([data-complete])';
  for (const pick of group.querySelectorAll(open)) {
    const cards = pick.querySelectorAll('button');
    if (cards.length) { one(cards).click(); return 'pick'; }
  }
  const ready = group.querySelector('.record-action[data-ready]:not([disabled])');
  if (ready) { ready.click(); return 'record'; }
  return 'stuck';
}"""


def _deal_is_complete(server, slug: str, gid: str, token: str, action: dict) -> bool:
    """Whether the cards entered so far make the whole deal, as the person dealing at the
    table knows (an open-ended deal, Adaman's: the rules say when it stops)."""
    text = server.http.get(f"{server.url}/games/{gid}/export",
                           headers={"Authorization": f"Bearer {token}"}).text
    envelopes = [json.loads(line) for line in text.splitlines() if line.strip()]
    rules = get_rules(slug)
    state = fold(rules, envelopes).state
    try:
        rules.apply(state, Action.of(action["type"], action["actor"], action["data"]))
    except IllegalAction:
        return False
    return True


def _create(page, server, slug: str) -> tuple[str, str]:
    seats = min(GAMES[slug].player_counts)
    page.goto(f"{server.url}/games/new?game={slug}")
    page.locator("#game").select_option(slug)
    names = page.locator("input[name=player]")
    names.first.wait_for()
    while names.count() < seats:
        page.locator("#add-player").click()
    for i in range(seats):
        names.nth(i).fill(PLAYERS[i])
    page.locator("input[name=mode][value=table]").check()
    page.locator("#create").click()
    page.locator("#created").wait_for()
    gid = page.locator("#created").get_attribute("data-game-id")
    href = page.locator(".recorder-link a").get_attribute("href")
    return gid, href.split("token=")[1]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_record_a_complete_table_game_by_tapping_only(browser, server, slug: str) -> None:
    ctx = new_context(browser, **TABLET)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        gid, token = _create(page, server, slug)
        page.goto(f"{server.url}/games/{gid}/record?token={token}")
        taps, kinds = 0, {"choose": 0, "pick": 0, "record": 0}
        whim = random.Random(SEEDS.get(slug, f"table-{slug}"))  # the same game every run
        kind, at = None, None
        for _ in range(40_000):
            game = server.get(f"/games/{gid}")
            seq = game["last_seq"]
            page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached")
            if game["status"] == "finished":
                break
            if declared(slug):  # the move builder: a whim among the buttons it shows
                tapped = patient_tap(page, whim.random())
                assert tapped in kinds, tapped
                taps += 1
                kinds[tapped] += 1
                if tapped == "record":
                    page.wait_for_function(
                        f"document.getElementById('record').dataset.seq !== '{seq}' "
                        "|| !document.getElementById('error').hidden")
                    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
                continue
            if at != seq:  # a new move: which one is the player's whim
                offered = page.evaluate(STATE_JS, None)["kinds"]
                assert offered, "a running game offers the recorder a move"
                kind, at = whim.choice(offered), seq
            now = page.evaluate(STATE_JS, kind)
            more = bool(now["ready"] and now["openEnded"] and now["action"]) and \
                not _deal_is_complete(server, slug, gid, token, now["action"])
            tapped = page.evaluate(TAP_JS, [kind, whim.random(), more])
            assert tapped in kinds, (tapped, kind, now)
            taps += 1
            kinds[tapped] += 1
            if tapped == "record":
                page.wait_for_function(
                    f"document.getElementById('record').dataset.seq !== '{seq}' "
                    "|| !document.getElementById('error').hidden")
                assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
        final = server.get(f"/games/{gid}/state")
        assert final["status"] == "finished", f"not finished after {taps} taps"
        assert server.get(f"/games/{gid}/verify")["ok"]
        check_board(page, server.get(f"/games/{gid}/state", token))
        snap(page, f"table-game-{slug}-finished")
        moves = len([e for e in server.get(f"/games/{gid}/events?limit=5000")["events"]
                     if e["type"] != "game_created"])
        TAPS[slug] = {"taps": taps, **kinds, "moves": moves,
                      "players": len(server.get(f"/games/{gid}")["players"])}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "taps.json").write_text(json.dumps(TAPS, indent=2, sort_keys=True))
        assert errors == []
    finally:
        ctx.close()
