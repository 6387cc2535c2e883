"""Recording at the table and digital play, by clicking, in a tablet-sized browser."""

from __future__ import annotations

import re

import pytest

from projections import GAMES, get_rules

from .boardcheck import check_board
from .choosing import PATIENT_JS, build, enter, patient_tap, settle, tap_towards
from .conftest import new_context, snap

pytestmark = pytest.mark.browser

EXAMPLES = {g["id"]: g for g in get_rules("adaman").edition["examples"]["games"]}
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}


@pytest.fixture
def tablet(browser):
    ctx = new_context(browser, **TABLET)
    yield ctx
    ctx.close()


def _page(ctx):
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


def _new_game(page, server, players: list[str], mode: str) -> tuple[str, dict[str, str]]:
    """Create a game through the new-game form; (id, links by role)."""
    page.goto(f"{server.url}/games/new")
    page.locator("#game").select_option("adaman")
    names = page.locator("input[name=player]")
    for i, name in enumerate(players):
        names.nth(i).fill(name)
    page.locator(f"input[name=mode][value={mode}]").check()
    page.locator("#create").click()
    page.locator("#created").wait_for()
    gid = page.locator("#created").get_attribute("data-game-id")
    links = {"recorder": page.locator(".recorder-link a").get_attribute("href"),
             "replay": page.locator(".replay-link a").get_attribute("href")}
    for i in range(len(players)):
        links[f"seat{i}"] = page.locator(".seat-link a").nth(i).get_attribute("href")
        assert page.locator(".seat-link a").nth(i).inner_text().startswith(server.url)
    return gid, links


def _wait_seq(page, seq: int) -> None:
    page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached")


TAP_JS = """async () => {
  // one tap of a patient player or recorder in the move builder (choices.js,
  // tests/web/choosing.PATIENT_JS): the first action type not giving up, the first option,
  // Record once ready
  for (let i = 0; i < 800 && document.querySelector('#actions[data-loading]'); i++)
    await new Promise((r) => setTimeout(r, 15));
  if (document.querySelector('#actions .move-menu, #actions .move-builder'))
    return await (__PATIENT__)();
  return 'none';
}""".replace("__PATIENT__", PATIENT_JS)



def _tap(page, seq: int) -> str:
    """One tap (TAP_JS); after a Record tap, wait for the log to move on, and no refusal."""
    tapped = page.evaluate(TAP_JS)
    assert tapped in ("record", "choose", "pick"), tapped
    if tapped == "record":
        page.wait_for_function(f"document.getElementById('record').dataset.seq !== '{seq}' "
                               "|| !document.getElementById('error').hidden")
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    return tapped


def _record_control(page, event: dict) -> None:
    """Enter an Adaman control by tapping its choices (the card, the cards paid, the cards
    turned up), then Record."""
    seq = int(page.locator("#record").get_attribute("data-seq"))
    enter(page, {"type": "control", "actor": 0, "data": event["data"]}, seq)


def test_record_a_complete_adaman_game_by_tapping(tablet, server) -> None:
    page = _page(tablet)
    gid, links = _new_game(page, server, ["Ann"], "table")
    page.goto(server.url + links["recorder"])
    _wait_seq(page, 0)
    events = EXAMPLES["win_with_cards_left"]["events"]
    drawn = events[0]["data"]["drawn"]
    # the layout is not complete before all 13 cards: Record waits (the rules say when)
    setup = {"type": "setup", "actor": "table", "data": {"drawn": drawn}}
    for _ in drawn[:-1]:
        assert tap_towards(page, setup) == "pick"
    settle(page)
    record = page.locator('[data-type="setup"] .record-action')
    assert record.is_disabled() and record.get_attribute("data-ready") is None
    assert "Still to choose" in page.locator(".move-sentence").inner_text()
    assert server.get(f"/games/{gid}")["last_seq"] == 0
    # a wrong card tapped: undo the last pick, tap the right one
    wrong = page.locator('.choice button.option').first
    wrong.click()
    settle(page)
    page.locator("[data-undo-pick]").click()
    assert tap_towards(page, setup) == "pick"
    settle(page)
    preview = page.locator(".move-sentence[data-sentence]").inner_text()
    assert tap_towards(page, setup) == "record"
    seq = 1
    _wait_seq(page, seq)
    assert page.locator("#error").is_hidden()
    # the message says what was recorded, in the log's own words for it, as the sentence
    # before Record previewed it
    said = server.get(f"/games/{gid}/events")["annotations"]["1"]["description"]
    assert preview == f"{said[0].upper()}{said[1:]}"
    page.locator("#flash").filter(has_text="Recorded:").wait_for()
    assert page.locator("#flash").inner_text() == f"Recorded: {said[0].upper()}{said[1:]}"
    for n, event in enumerate(events[1:], 1):
        _record_control(page, event)
        seq += 1
        _wait_seq(page, seq)
        if n == 3:  # a typo at the table: undo it and enter it again
            page.locator("#undo").click()
            seq += 1
            _wait_seq(page, seq)
            said = server.get(f"/games/{gid}/events")["annotations"][str(seq - 1)]["description"]
            page.locator("#flash").filter(has_text="Undone:").wait_for()
            assert page.locator("#flash").inner_text() == f"Undone: {said[0].upper()}{said[1:]}"
            check_board(page, server.get(f"/games/{gid}/state", None))
            if n == 3:
                page.reload()  # a reload mid-game loses nothing: all state is in the log
                _wait_seq(page, seq)
            _record_control(page, event)
            seq += 1
            _wait_seq(page, seq)
    final = server.get(f"/games/{gid}/state")
    assert final["result"]["scores"] == [79]
    assert page.locator('[data-final-score="0"]').inner_text() == "79"
    snap(page, "record-adaman-finished")
    page.goto(server.url + links["replay"])
    page.locator('#final-body [data-final-score="0"]').wait_for()
    assert page.locator('#final-body [data-final-score="0"]').inner_text() == "79"
    assert "chain intact" in page.locator("#verify").inner_text()
    check_board(page, server.get(f"/games/{gid}/state"))
    assert page.locator("#events li.undone").count() == 1
    snap(page, "record-adaman-replay")
    assert page.js_errors == []


def test_digital_play_shows_the_move_on_the_other_screen(browser, server) -> None:
    seat_ctx, watch_ctx = new_context(browser, **TABLET), new_context(browser)
    try:
        seat, watcher = _page(seat_ctx), _page(watch_ctx)
        made = server.post("/games", {"game": "adaman", "players": ["Ann"],
                                      "mode": "digital"}).json()
        gid = made["id"]
        seat.goto(f"{server.url}/games/{gid}/record?token={made['seat_tokens'][0]}&seat=0")
        watcher.goto(f"{server.url}/games/{gid}/replay")
        start = server.get(f"/games/{gid}")["last_seq"]  # the server dealt the layout
        _wait_seq(seat, start)
        watcher.locator(f'#board[data-loaded="{start}"]').wait_for()
        # the seat's first legal control: the first card, the first cards paid offered
        settle(seat)
        seat.locator('[data-action="control"]').click()
        while patient_tap(seat) != "record":
            assert seat.locator('[data-outcome]').count() == 0, "the server deals, not the seat"
        _wait_seq(seat, start + 1)
        now = server.get(f"/games/{gid}/state")
        # live, unprompted (the stream reconnects every few seconds: allow a cycle or two)
        watcher.locator(f'#board[data-loaded="{now["seq"]}"]').wait_for(timeout=20_000)
        check_board(watcher, now)
        # digital undo policy: a control that turned cards up cannot be taken back
        if now["view"]["deck_count"] < server.get(f"/games/{gid}/state?at={start}")["view"][
                "deck_count"]:
            seat.locator("#undo").click()
            seat.locator("#error").wait_for()
            assert "cannot be undone" in seat.locator("#error").inner_text()
            assert server.get(f"/games/{gid}")["last_seq"] == now["last_seq"]
        snap(seat, "digital-seat")
        snap(watcher, "digital-watcher")
        assert seat.js_errors == [] and watcher.js_errors == []
    finally:
        seat_ctx.close()
        watch_ctx.close()


def test_two_devices_a_stale_one_gets_a_conflict_not_a_double_entry(browser, server) -> None:
    created = server.post("/games", {"game": "adaman", "players": ["Ann"],
                                     "mode": "table"}).json()
    gid, token = created["id"], created["recorder_token"]
    events = EXAMPLES["win_with_cards_left"]["events"]
    assert server.post(f"/games/{gid}/events", events[0], token).status_code == 201
    one, two = new_context(browser, **TABLET), new_context(browser, **TABLET)
    try:
        a, b = _page(one), _page(two)
        for pg in (a, b):
            pg.goto(f"{server.url}/games/{gid}/record?token={token}")
            _wait_seq(pg, 1)
        b.locator("#live").uncheck()  # device b looks away: it stays on seq 1
        build(b, {"type": "control", "actor": 0, "data": events[1]["data"]})  # all but Record
        _record_control(a, events[1])
        _wait_seq(a, 2)
        b.locator('.record-action[data-ready]').click()
        b.locator('#error[data-code="conflict"]').wait_for()
        assert "someone else recorded a move first" in b.locator("#error").inner_text()
        _wait_seq(b, 2)  # and b now shows the game as it stands
        log = server.get(f"/games/{gid}/events")["events"]
        assert [e["type"] for e in log] == ["game_created", "setup", "control"]
        check_board(b, server.get(f"/games/{gid}/state"))
        snap(b, "conflict-device-b")
        # b begins the next move (its card) while a records it whole: b's next pick finds
        # the game moved on, and b is told so, with the board as it stands
        want = {"type": "control", "actor": 0, "data": events[2]["data"]}
        assert tap_towards(b, want) == "choose"  # the card, from the menu
        _record_control(a, events[2])
        _wait_seq(a, 3)
        tap_towards(b, want)
        b.locator('#error[data-code="conflict"]').wait_for()
        _wait_seq(b, 3)
        assert server.get(f"/games/{gid}")["last_seq"] == 3
    finally:
        one.close()
        two.close()


class _Screens:
    """One browser page per actor of a digital game: each seat's own link, and the
    recorder's for the table's choices (the recorder sees no seat's moves, issue #18)."""

    def __init__(self, browser, server, created: dict) -> None:
        self.server, self.gid = server, created["id"]
        self.contexts, self.pages = [], {}
        tokens = {"table": created["recorder_token"],
                  **dict(enumerate(created["seat_tokens"]))}
        for actor, token in tokens.items():
            ctx = new_context(browser, **TABLET)
            self.contexts.append(ctx)
            self.pages[actor] = _page(ctx)
            self.pages[actor].goto(f"{server.url}/games/{self.gid}/record?token={token}")

    def tap(self) -> bool:
        """One tap on the screen of whoever is to act; False once the game is over."""
        state = self.server.get(f"/games/{self.gid}/state")
        if state["status"] == "finished":
            return False
        page = self.pages[state["to_act"][0]]
        _wait_seq(page, state["last_seq"])
        _tap(page, state["last_seq"])
        return True

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


#: the games with more than one seat at their fewest (Adaman is played alone)
MULTI_SEAT = sorted(slug for slug, cls in GAMES.items() if min(cls.player_counts) > 1)


@pytest.mark.parametrize("slug", MULTI_SEAT)
def test_a_multi_player_game_by_tapping(browser, server, slug: str) -> None:
    """Digital play of a multi-seat game, every move a tap on the first legal action, on
    the screen of the seat (or the table) to act."""
    seats = min(GAMES[slug].player_counts)
    created = server.post("/games", {"game": slug, "players": [f"P{i}" for i in range(seats)],
                                     "mode": "digital", "seed": "tap"}).json()
    gid = created["id"]
    screens = _Screens(browser, server, created)
    try:
        created_seq = server.get(f"/games/{gid}")["last_seq"]
        for _ in range(12):
            if not screens.tap():
                break
        assert server.get(f"/games/{gid}")["last_seq"] > created_seq, "the taps recorded moves"
        state = server.get(f"/games/{gid}/state")
        page = screens.pages["table"]
        _wait_seq(page, state["last_seq"])
        check_board(page, server.get(f"/games/{gid}/state", created["recorder_token"]))
    finally:
        screens.close()


@pytest.mark.parametrize("slug", ["in_the_shadow_of_the_emperor"])
def test_a_complete_multi_player_game_by_tapping(browser, server, slug: str) -> None:
    """A whole digital game, every move tapped on its player's screen; then its replay."""
    seats = min(GAMES[slug].player_counts)
    created = server.post("/games", {"game": slug, "players": [f"P{i}" for i in range(seats)],
                                     "mode": "digital", "seed": "tap"}).json()
    gid = created["id"]
    screens = _Screens(browser, server, created)
    try:
        for _ in range(3000):
            if not screens.tap():
                break
        final = server.get(f"/games/{gid}/state")
        assert final["status"] == "finished"
        page = screens.pages["table"]
        page.goto(f"{server.url}/games/{gid}/replay")
        page.locator('#final-body [data-final-score="0"]').wait_for()
        for seat, score in enumerate(final["result"]["scores"]):
            assert page.locator(f'#final-body [data-final-score="{seat}"]').inner_text() == \
                str(score)
        check_board(page, final)
        snap(page, f"complete-{slug}")
    finally:
        screens.close()


def _hand(slug: str, view: dict, seat: int) -> list[str]:
    """The cards of `seat`'s hand as its own screen may show them (ids or suits)."""
    if slug == "thrones":
        return list(view["players"][seat]["hand"])
    return sorted(view["hands"][seat]["country"])


def _check_own_hand_only(slug: str, page, seat: int, own: dict, others: dict[int, dict]) -> None:
    """`page` is `seat`'s screen; `own` its state document, `others` each other seat's."""
    check_board(page, own)
    assert page.locator(f'#board [data-seat="{seat}"] .hand').count() == 1, "its own hand"
    for other, doc in others.items():
        assert page.locator(f'#board [data-seat="{other}"] .hand').count() == 0, \
            f"seat {seat} sees seat {other}'s hand"
        if slug == "thrones":  # every card has its own id: none of the other hand is on screen
            names = page.locator(f'#board [data-seat="{seat}"] .hand .chip').all_inner_texts()
            assert len(names) == len(_hand(slug, own["view"], seat))
            assert not any(re.fullmatch(r"p\d+-\d{3}(-\d+)?", n) for n in names), names
            html = page.content()
            leaked = [card for card in _hand(slug, doc["view"], other) if card in html]
            assert not leaked, f"seat {seat}'s screen shows seat {other}'s {leaked}"


@pytest.mark.parametrize("slug", ["royals", "thrones"])
def test_digital_play_one_screen_per_seat(browser, server, slug: str) -> None:
    """Two phones on one digital game: each acts on its own turn from its own screen, sees
    its own hand and never the other's, and sees the other's moves arrive unprompted."""
    created = server.post("/games", {"game": slug, "players": ["Ann", "Bo"],
                                     "mode": "digital", "seed": "phones"}).json()
    gid, tokens = created["id"], created["seat_tokens"]
    if slug == "thrones":  # the houses are the table's choice: the host picks them
        start = server.get(f"/games/{gid}/legal-actions", created["recorder_token"])["actions"][0]
        assert server.post(f"/games/{gid}/events", start,
                           created["recorder_token"]).status_code == 201
    contexts = [new_context(browser, **TABLET) for _ in tokens]
    try:
        pages = [_page(ctx) for ctx in contexts]
        for seat, page in enumerate(pages):
            page.goto(f"{server.url}/games/{gid}/record?token={tokens[seat]}&seat={seat}")
        moves, seen_live = [0, 0], [0, 0]
        for _ in range(200):
            docs = {s: server.get(f"/games/{gid}/state", tokens[s]) for s in (0, 1)}
            seq, to_act = docs[0]["last_seq"], docs[0]["to_act"]
            for seat, page in enumerate(pages):  # every screen shows the game as it stands
                _wait_seq(page, seq)
                _check_own_hand_only(slug, page, seat, docs[seat], {1 - seat: docs[1 - seat]})
                if seat not in to_act:  # not its turn: nothing to tap
                    assert page.locator("#actions .record-action").count() == 0
                    assert "Nothing for you to do now" in page.locator("#actions").inner_text()
            if docs[0]["status"] == "finished" or (min(moves) >= 4 and min(seen_live) >= 3):
                break
            actor = to_act[0]
            page = pages[actor]
            while _tap(page, seq) != "record":
                pass
            moves[actor] += 1
            now = server.get(f"/games/{gid}")["last_seq"]
            for seat in (0, 1):
                if seat == actor:
                    continue
                # the move reaches the other phone by the stream alone (no tap, no reload);
                # the stream reconnects every few seconds, so allow a cycle or two
                pages[seat].locator(f'#record[data-seq="{now}"]').wait_for(
                    state="attached", timeout=20_000)
                assert "Updated:" in pages[seat].locator("#flash").inner_text()
                seen_live[seat] += 1
        assert min(moves) >= 4 and min(seen_live) >= 3, (moves, seen_live)
        for seat, page in enumerate(pages):
            snap(page, f"digital-{slug}-seat{seat}")
            assert page.js_errors == []
    finally:
        for ctx in contexts:
            ctx.close()




WAITING_JS = """() => {
  // Record is offered only once every outcome is entered: the move builder asking for one
  const builder = document.querySelector('#actions .move-builder');
  if (!builder) return null;
  const record = builder.querySelector('.record-action');
  if (!builder.querySelector('.choice[data-outcome]') || !record.disabled) return null;
  return {disabled: record.disabled, text: builder.querySelector('.move-sentence').innerText};
}"""


def _table_new_game(page, server, slug: str, players: list[str]) -> tuple[str, dict[str, str]]:
    """Create a table-mode game of `slug` through the new-game form; (id, links)."""
    page.goto(f"{server.url}/games/new")
    page.locator("#game").select_option(slug)
    names = page.locator("input[name=player]")
    names.first.wait_for()
    for i, name in enumerate(players):
        names.nth(i).fill(name)
    page.locator("input[name=mode][value=table]").check()
    page.locator("#create").click()
    page.locator("#created").wait_for()
    return page.locator("#created").get_attribute("data-game-id"), {
        "recorder": page.locator(".recorder-link a").get_attribute("href"),
        "replay": page.locator(".replay-link a").get_attribute("href")}


@pytest.mark.parametrize("slug, players", [("royals", ["Ann", "Bo"])])
def test_record_a_complete_multi_player_table_game_by_tapping(
        browser, server, slug: str, players: list[str]) -> None:
    """A physical game recorded move by move on a tablet: every chance outcome (the display,
    each card drawn) tapped from what is still available, Record offered only once they are
    all in; one move undone and entered again; then the replay shows the final scores."""
    ctx = new_context(browser, **TABLET)
    try:
        page = _page(ctx)
        gid, links = _table_new_game(page, server, slug, players)
        page.goto(server.url + links["recorder"])
        waited = undone = False
        recorded = 0
        for _ in range(6000):
            game = server.get(f"/games/{gid}")
            seq = game["last_seq"]
            _wait_seq(page, seq)
            if game["status"] == "finished":
                break
            waiting = None if waited else page.evaluate(WAITING_JS)
            if waiting:
                assert waiting["disabled"] and waiting["text"].startswith(
                    ("Still to tap:", "Still to choose:")), waiting
                waited = True
            if recorded == 12 and not undone:  # a wrong entry: take it back, enter again
                page.locator("#undo").click()
                _wait_seq(page, seq + 1)
                assert server.get(f"/games/{gid}/events")["events"][-1]["type"] == "undo"
                undone = True
                continue
            recorded += _tap(page, seq) == "record"
        final = server.get(f"/games/{gid}/state")
        assert final["status"] == "finished" and waited and undone
        snap(page, f"table-{slug}-finished")
        assert server.get(f"/games/{gid}/verify")["ok"]
        page.goto(server.url + links["replay"])
        page.locator('#final-body [data-final-score="0"]').wait_for()
        for seat, score in enumerate(final["result"]["scores"]):
            assert page.locator(f'#final-body [data-final-score="{seat}"]').inner_text() == \
                str(score)
        assert "chain intact" in page.locator("#verify").inner_text()
        assert page.locator("#events li.undone").count() == 1
        check_board(page, final)
        assert page.js_errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", ["in_the_shadow_of_the_emperor", "palais_royal", "royals",
                                  "thrones"])
def test_every_game_opens_at_the_table_by_tapping_its_chance_outcomes(browser, server,
                                                                      slug: str) -> None:
    """The first moves of each multi-player game at a physical table, the setup's layout,
    hands and start player tapped from what the rules say is still available."""
    seats = min(GAMES[slug].player_counts)
    created = server.post("/games", {"game": slug, "players": [f"P{i}" for i in range(seats)],
                                     "mode": "table"}).json()
    gid = created["id"]
    ctx = new_context(browser, **TABLET)
    try:
        page = _page(ctx)
        page.goto(f"{server.url}/games/{gid}/record?token={created['recorder_token']}")
        picks = recorded = 0
        for _ in range(800):
            seq = server.get(f"/games/{gid}")["last_seq"]
            _wait_seq(page, seq)
            if recorded == 8:
                break
            tapped = _tap(page, seq)
            picks += tapped == "pick"
            recorded += tapped == "record"
        assert recorded == 8 and picks > 0, (recorded, picks)
        assert page.locator("[data-pick-text]").count() == 0, "nothing is typed"
        check_board(page, server.get(f"/games/{gid}/state", created["recorder_token"]))
        assert server.get(f"/games/{gid}/verify")["ok"]
        assert page.js_errors == []
    finally:
        ctx.close()
