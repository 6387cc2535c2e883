"""Every sample game re-entered through the recorder by its choices only (issue #29): each
move of a fixture is tapped on the labelled buttons the rules offer (the action type, then
each choice's option, "done", Record), never posted; the log the server stores must then
hold exactly the fixture's moves, and verify. The oracle is the fixture (a log written
before the choices existed), never the choices code. Also: a digital game played from two
seat pages, each building its own moves; and the taps each game's setup and turns take at
768 px, reported after the run (artifacts/choice_taps.json, README "Taps per move")."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from projections import GAMES

from .boardcheck import check_board
from .choosing import declared, enter, patient_tap, settle, tap_towards
from .conftest import ARTIFACTS, new_context, snap
from .readable import raw_words

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
DECLARED = sorted(slug for slug in GAMES if declared(slug))


def _pick_fixture(slug: str) -> Path:
    """The fixture re-entered: one with no Thrones card effect (their abilities are not
    declared yet, issue #30: an effect offers no choices), a table game's first, then the
    shortest of at least ten moves (a whole game, quick to tap)."""
    def key(path: Path) -> tuple[bool, bool, int, str]:
        lines = path.read_text().splitlines()
        return (any('"type": "effect"' in line for line in lines),
                '"mode": "table"' not in lines[0], len(lines) if len(lines) > 10 else 10**6,
                path.name)
    return min((ROOT / "fixtures" / slug).glob("*.jsonl"), key=key)


FIXTURE = {slug: _pick_fixture(slug) for slug in DECLARED}
#: moves of the fixture re-entered in the default run (all of them under -m slow)
QUICK = 14

#: taps per game and move type, measured at 768 px: {slug: {type: [taps per move]}}
MEASURED: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _moves(path: Path) -> list[dict]:
    """The fixture's events after its creation, as a table records them (a digital deal's
    server becomes the table), the seed's reveal aside (a digital log's own)."""
    return [{"type": e["type"], "actor": "table" if e["actor"] == "server" else e["actor"],
             "data": e["data"]} for e in _lines(path)[1:] if e["type"] != "seed_revealed"]


def _re_enter(browser, server, slug: str, upto: int | None) -> None:
    path = FIXTURE[slug]
    gid, token = server.import_prefix(path, 0, f"re-enter-{slug}-{upto}")
    wanted = _moves(path)[:upto]
    ctx = new_context(browser, **TABLET)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/games/{gid}/record?token={token}")
        seq = 0
        for n, move in enumerate(wanted):
            page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached")
            if move["type"] in ("undo", "redo"):
                page.locator(f"#{move['type']}").click()
            else:
                taps = enter(page, move, seq)
                MEASURED[slug][move["type"]].append(sum(taps.values()))
                if n == 1:
                    snap(page, f"choices-{slug}-after-first-move")
            seq += 1
        page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached")
        log = server.get(f"/games/{gid}/events?limit=5000", token)["events"]
        stored = [{"type": e["type"], "actor": e["actor"], "data": e["data"]} for e in log[1:]]
        assert stored == wanted, "the log holds exactly the fixture's moves"
        assert server.get(f"/games/{gid}/verify")["ok"]
        settle(page)
        check_board(page, server.get(f"/games/{gid}/state", token))
        assert errors == []
    finally:
        ctx.close()
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "choice_taps.json").write_text(json.dumps(MEASURED, indent=1))


@pytest.mark.parametrize("slug", DECLARED)
def test_a_sample_game_opens_through_the_recorder_by_its_choices(browser, server,
                                                                  slug: str) -> None:
    _re_enter(browser, server, slug, QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("slug", DECLARED)
def test_a_whole_sample_game_is_re_entered_by_its_choices(browser, server, slug: str) -> None:
    _re_enter(browser, server, slug, None)


def test_the_taps_per_move_are_reported(capsys) -> None:
    """Not a check: the taps measured above, by game and move type (min, median, max)."""
    if not MEASURED:
        pytest.skip("no game was re-entered in this run")
    with capsys.disabled():
        print("\ntaps per move at 768 px (menu + choices + done + Record):")
        for slug, kinds in sorted(MEASURED.items()):
            for kind, taps in sorted(kinds.items()):
                ordered = sorted(taps)
                print(f"  {slug} {kind}: min {ordered[0]}, median "
                      f"{ordered[len(ordered) // 2]}, max {ordered[-1]} over {len(taps)}")


MULTI = [slug for slug in DECLARED if min(GAMES[slug].player_counts) <= 2 <=
         max(GAMES[slug].player_counts)]


@pytest.mark.parametrize("slug", MULTI or [pytest.param("none", marks=pytest.mark.skip(
    reason="no declared game for two players yet"))])
def test_two_seat_pages_each_build_their_own_moves(browser, server, slug: str) -> None:
    """A digital game on two phones: each seat's page offers only its own moves, from its
    own choices, and builds them by tapping; the other page sees them arrive."""
    created = server.post("/games", {"game": slug, "players": ["Ann", "Bo"],
                                     "mode": "digital", "seed": "seats"}).json()
    gid, tokens = created["id"], created["seat_tokens"]
    contexts = [new_context(browser, **TABLET) for _ in tokens]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for seat, page in enumerate(pages):
            page.goto(f"{server.url}/games/{gid}/record?token={tokens[seat]}&seat={seat}")
        table = created["recorder_token"]
        moves = [0, 0]
        for _ in range(300):
            state = server.get(f"/games/{gid}/state", table)
            if state["status"] == "finished" or min(moves) >= 3:
                break
            seq, to_act = state["last_seq"], state["to_act"]
            if not any(isinstance(a, int) for a in to_act):
                # the table's own move (houses, a deal): the host's link makes it
                menu = server.get(f"/games/{gid}/choices", table)["actions"]
                assert menu, state
                _post_by_choices(server, gid, table, menu[0])
                continue
            for seat, page in enumerate(pages):
                page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached",
                                                                    timeout=20_000)
                settle(page)
                offered = page.locator("#actions button[data-action]")
                actors = {json.loads(offered.nth(i).get_attribute("data-actor"))
                          for i in range(offered.count())}
                assert actors <= {seat}, f"seat {seat} is offered {actors}"
                if seat not in to_act:
                    assert page.locator("#actions .move-builder").count() == 0
            actor = next(a for a in to_act if isinstance(a, int))
            for _ in range(200):
                if patient_tap(pages[actor]) == "record":
                    break
            pages[actor].wait_for_function(
                f"document.getElementById('record').dataset.seq !== '{seq}' "
                "|| !document.getElementById('error').hidden")
            assert pages[actor].locator("#error").is_hidden(), \
                pages[actor].locator("#error").inner_text()
            moves[actor] += 1
        assert min(moves) >= 3 or state["status"] == "finished", moves
        now = server.get(f"/games/{gid}")["last_seq"]
        for seat, page in enumerate(pages):
            page.locator(f'#record[data-seq="{now}"]').wait_for(state="attached",
                                                                timeout=20_000)
            check_board(page, server.get(f"/games/{gid}/state", tokens[seat]))
            snap(page, f"choices-{slug}-seat{seat}")
        assert server.get(f"/games/{gid}/verify")["ok"]
    finally:
        for ctx in contexts:
            ctx.close()


def _post_by_choices(server, gid: str, token: str, item: dict) -> None:
    """The first complete move of `item`'s type over the choices route, posted."""
    picks: list[dict] = []
    for _ in range(200):
        answer = server.get(f"/games/{gid}/choices?type={item['type']}&actor={item['actor']}"
                            f"&picks={json.dumps(picks)}", token)
        if answer["move"] is not None:
            break
        choice = answer["choice"]
        picks.append({"choice": choice["id"], "value": choice["options"][0]["value"]}
                     if choice["options"] else {"choice": choice["id"], "end": True})
    r = server.post(f"/games/{gid}/events", answer["move"], token)
    assert r.status_code == 201, r.text


@pytest.mark.skipif(not declared("palais_royal"),
                    reason="palais_royal's setup is not built from choices on this branch")
def test_the_board_shows_palais_royals_garden_as_laid_out_so_far(browser, server) -> None:
    """The setup tapped space by space: after each tile tapped the board's garden holds
    exactly the tiles tapped so far (read from the picks, not from the board code), the
    other spaces empty; once recorded, the board is the state's again."""
    created = server.post("/games", {"game": "palais_royal", "players": ["Ann", "Bo"],
                                     "mode": "table"}).json()
    ctx = new_context(browser, **TABLET)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/games/{created['id']}/record?token={created['recorder_token']}")
        page.locator('#record[data-seq="0"]').wait_for(state="attached")
        seen = 0
        for _ in range(120):
            if patient_tap(page) == "record":
                break
            settle(page)
            picks = json.loads(page.locator(".move-builder").get_attribute("data-picks"))
            tiles = {p["value"] for p in picks if str(p["choice"]).startswith("garden")}
            if not tiles:
                continue
            shown = page.locator("#board .pr-space:not(.empty)")
            assert shown.count() == len(tiles), (shown.count(), tiles)
            assert page.locator("#board").get_attribute("data-preview") == "yes"
            seen += 1
            if seen == 3:
                snap(page, "choices-palais_royal-garden-preview")
        assert seen >= 3, "the garden was tapped tile by tile"
        page.locator('#record[data-seq="1"]').wait_for(state="attached")
        settle(page)
        check_board(page, server.get(f"/games/{created['id']}/state", created["recorder_token"]))
    finally:
        ctx.close()


SIZES = {1280: 800, 768: 1024, 390: 844}


@pytest.mark.parametrize("slug", DECLARED)
def test_the_recorder_mid_move_reads_well_at_every_size(browser, server, slug: str) -> None:
    """Mid-game, two taps into the fixture's next move, at 1280, 768 and 390 px: what the
    move builder says holds no machine words (ids, snake_case, None), every button of it
    is at least 44 px each way, and nothing of it runs off the page sideways. Screenshots
    land in artifacts/."""
    path = FIXTURE[slug]
    moves = _moves(path)
    mid = len(moves) // 2
    while moves[mid]["type"] in ("undo", "redo", "end_turn", "pass"):
        mid += 1
    gid, token = server.import_prefix(path, mid, f"mid-move-{slug}")
    for width, height in SIZES.items():
        ctx = new_context(browser, viewport={"width": width, "height": height},
                          has_touch=width < 1000)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/games/{gid}/record?token={token}")
            page.locator(f'#record[data-seq="{mid}"]').wait_for(state="attached",
                                                                timeout=30_000)
            tap_towards(page, moves[mid])  # one tap into the move: never its Record
            settle(page)
            snap(page, f"choices-{slug}-mid-move-{width}")
            text = page.locator("#actions").inner_text()
            assert raw_words(slug, text) == [], (width, raw_words(slug, text))
            small = page.evaluate("""() => [...document.querySelectorAll('#actions button')]
              .filter((b) => b.offsetParent).map((b) => {
                const r = b.getBoundingClientRect();
                return [b.innerText.slice(0, 30), Math.round(r.width), Math.round(r.height)]; })
              .filter(([, w, h]) => w < 44 || h < 44)""")
            assert small == [], (width, small)
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, (width, wide)
        finally:
            ctx.close()


FAKE_JS = """async () => {
  // a builder fed by a stand-in for the rules: one action, one choice of 40 options in 4
  // groups (as Palais Royal's nobles by their printed attributes), a pick, then complete
  const box = document.createElement('div');
  box.id = 'fake-builder';
  document.body.append(box);
  const options = Array.from({length: 40}, (_, i) => ({value: `n${i}`, label: `Noble ${i}`,
    detail: `${i % 5} points`, group: `Group ${'ABCD'[i % 4]}`}));
  const asked = [];
  const b = CH.choices.builder(box, {
    ask: async (q) => {
      asked.push(q);
      if (!q.type) return {actions: [{type: 'claim', actor: 0, label: 'Claim a noble'}]};
      if (!q.picks.length) return {choice: {id: 'noble', prompt: 'Which noble', kind: 'one',
        options}, move: null, sentence: null};
      return {choice: null, move: {type: 'claim', actor: 0, data: {noble: q.picks[0].value}},
        sentence: 'Ann claimed Noble 7'};
    },
    submit: async () => {}, players: ['Ann'], chance: {}, changed: () => {},
    failed: (e) => { throw e; }, idle: () => 'nothing', preview: () => {},
  });
  await b.show({last_seq: 1});
  for (let i = 0; i < 100 && box.dataset.loading; i++) await new Promise((r) => setTimeout(r, 10));
  const groups = [...box.querySelectorAll('.choice .group')].map((g) => ({
    heading: (g.querySelector('h4') || {}).innerText || null,
    options: [...g.querySelectorAll('button.option')].map((o) => o.innerText)}));
  const jump = [...box.querySelectorAll('.choice .jump button')].map((x) => x.innerText);
  [...box.querySelectorAll('button.option')]
    .find((o) => o.innerText.startsWith('Noble 7\\n')).click();
  for (let i = 0; i < 100 && box.dataset.loading; i++) await new Promise((r) => setTimeout(r, 10));
  const sentence = box.querySelector('.move-sentence').innerText;
  const ready = box.querySelector('.record-action[data-ready]') !== null;
  box.remove();
  return {groups, jump, sentence, ready, asked};
}"""


def test_many_options_come_under_their_group_headings_with_a_row_to_jump_to(page, server):
    """The builder's layout, with a stand-in for the rules: every option under its group's
    heading, in the order given, a row of the headings to jump to when the options are
    many; the menu's only action taken without a tap; a pick asks the rules again with it;
    the sentence before Record is the rules' own."""
    made = server.post("/games", {"game": "adaman", "players": ["Ann"]}).json()
    page.goto(f"{server.url}/games/{made['id']}/record")
    page.locator('#record[data-seq="0"]').wait_for(state="attached")
    got = page.evaluate(FAKE_JS)
    assert [g["heading"] for g in got["groups"]] == ["Group A", "Group B", "Group C", "Group D"]
    for n, group in enumerate(got["groups"]):
        assert [o.split("\n")[0] for o in group["options"]] == \
            [f"Noble {i}" for i in range(n, 40, 4)]
        assert all("points" in o for o in group["options"]), "the detail beside the label"
    assert got["jump"] == ["Group A", "Group B", "Group C", "Group D"]
    assert got["sentence"] == "Ann claimed Noble 7" and got["ready"]
    assert got["asked"][-1] == {"type": "claim", "actor": 0,
                                "picks": [{"choice": "noble", "value": "n7"}]}
