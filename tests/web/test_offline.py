"""The table recorder with the network cut (Playwright's offline mode), in real Chromium:
moves recorded offline by tapping, kept through a reload, sent when the connection comes
back and found in the log, verified; a second device that recorded meanwhile gives a
conflict report, never a merge. Also measures what the offline bundle costs to load
(printed at the end of the run, and in the README)."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import pytest

from api.offline import bundle

from .conftest import new_context, snap
from .test_record import TAP_JS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(bundle.pyodide_version() is None, reason="the offline recorder was not "
                       "tested: it needs Pyodide in vendor/pyodide (./test installs it from the "
                       "npm registry: scripts/offline-deps.sh)"),
]

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
#: Python starting in WebAssembly on a loaded 2-core machine: generous, never hit when well
BOOT_MS = 120_000
#: the offline bundle's first load and reload, reported after the run
MEASURED: dict[str, object] = {}


LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _off_loopback(url: str) -> bool:
    """A request that would leave the machine (Pyodide from a CDN, say): the tests use only
    loopback; what the tablet runs was installed in set-up (scripts/offline-deps.sh)."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in \
        {h.strip("[]") for h in LOOPBACK}


@pytest.fixture
def tablet(browser):
    ctx = new_context(browser, **TABLET)
    away: list[str] = []
    ctx.on("request", lambda req: away.append(req.url) if _off_loopback(req.url) else None)
    ctx.away = away
    yield ctx
    ctx.close()
    assert away == [], f"the tablet reached beyond loopback: {away}"


def _watch(pg):
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


def _royals_at_the_table(server) -> tuple[str, str]:
    made = server.post("/games", {"game": "royals", "players": ["Ann", "Bo"],
                                  "mode": "table"}).json()
    return made["id"], made["recorder_token"]


def _open_controlled(ctx, server, gid: str, token: str):
    """The recorder page, once the service worker keeps the offline files and controls it."""
    page = _watch(ctx.new_page())
    started = time.monotonic()
    page.goto(f"{server.url}/games/{gid}/record?token={token}")
    page.locator('#record[data-seq="0"]').wait_for(state="attached")
    page.locator('#sync[data-online="yes"]').wait_for()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=BOOT_MS)
    MEASURED.setdefault("first_load_s", round(time.monotonic() - started, 2))
    return page


def _seq(page) -> int:
    return int(page.locator("#record").get_attribute("data-seq"))


def _tap_moves(page, moves: int) -> None:
    """Record `moves` moves by tapping like a patient recorder (test_record.TAP_JS)."""
    recorded = 0
    for _ in range(400):
        seq = _seq(page)
        tapped = page.evaluate(TAP_JS)
        assert tapped in ("record", "choose", "pick"), tapped
        if tapped == "record":
            page.wait_for_function(f"document.getElementById('record').dataset.seq !== '{seq}' "
                                   "|| !document.getElementById('error').hidden")
            assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
            recorded += 1
            if recorded == moves:
                return
    raise AssertionError(f"only {recorded} of {moves} moves could be tapped")


def _queued(page, gid: str) -> list[dict]:
    return page.evaluate("(gid) => CH.offline.queued(gid)", gid)


def _tablet_state(page, gid: str) -> dict:
    return page.evaluate("(gid) => CH.offline.local.state(gid)", gid)


def _go_offline(ctx, page) -> float:
    started = time.monotonic()
    ctx.set_offline(True)
    page.locator('#sync[data-source="tablet"]:not([data-busy="yes"])').wait_for(timeout=BOOT_MS)
    assert page.locator("#sync").get_attribute("data-online") == "no"
    return round(time.monotonic() - started, 2)


def _bundle_metrics(page) -> dict:
    """What the service worker fetched to keep the offline files: bytes on the wire."""
    found = page.evaluate("() => CH.offline.metrics()")
    kept = {f["name"]: f for f in found["files"]}
    wanted = [p for p in page.evaluate("() => fetch('/offline/assets.json').then(r => r.json())"
                                       )["precache"] if p.startswith("/offline/")]
    return {"transfer_bytes": sum(kept[p]["transfer"] for p in wanted if p in kept),
            "decoded_bytes": sum(kept[p]["decoded"] for p in wanted if p in kept),
            "files": len([p for p in wanted if p in kept]),
            "install_ms": (found["installed"] or {}).get("ms")}


def test_ten_moves_recorded_offline_survive_a_reload_and_reach_the_log_verified(
        tablet, server) -> None:
    gid, token = _royals_at_the_table(server)
    page = _open_controlled(tablet, server, gid, token)
    MEASURED.update(_bundle_metrics(page))
    MEASURED["first_start_offline_s"] = _go_offline(tablet, page)
    MEASURED["first_start_phases_ms"] = page.evaluate("() => CH.offline.bootInfo()")
    assert "Offline" in page.locator("#sync").inner_text()

    # offline, the rules refuse as the server does (the server, still at step 0, answers
    # the same move over the test's own connection), and a refusal queues nothing
    bad = {"type": "setup", "actor": "table",
           "data": {"colours": ["black", "white"], "start_player": 5,
                    "display": ["spain", "france", "spain"]}}
    refused = page.evaluate("""([gid, action]) => CH.offline.local.record(gid, action).then(
        () => null, (err) => ({code: err.code, message: err.message}))""", [gid, bad])
    served = server.post(f"/games/{gid}/events", bad, token)
    assert served.status_code == 422, served.text
    assert refused == {k: served.json()["error"][k] for k in ("code", "message")}, \
        (refused, served.json())
    assert _queued(page, gid) == []

    _tap_moves(page, 10)
    assert _seq(page) == 10
    assert server.get(f"/games/{gid}")["last_seq"] == 0, "nothing reached the server"
    queued = _queued(page, gid)
    assert [q["expects"] for q in queued] == list(range(10)), "each expects the seq before it"
    assert len({q["key"] for q in queued}) == 10, "each has its own Idempotency-Key"
    page.locator('#sync[data-waiting="10"]').wait_for()
    assert "10 moves waiting to be sent" in page.locator("#sync").inner_text()
    before_reload = _tablet_state(page, gid)

    # a reload with the network still cut: the service worker serves the page, the tablet
    # folds the kept events and the queue again
    started = time.monotonic()
    page.reload()
    page.locator('#sync[data-source="tablet"]:not([data-busy="yes"])').wait_for(timeout=BOOT_MS)
    page.locator('#record[data-seq="10"]').wait_for(state="attached")
    MEASURED["reload_offline_s"] = round(time.monotonic() - started, 2)
    MEASURED["reload_phases_ms"] = page.evaluate("() => CH.offline.bootInfo()")
    assert _tablet_state(page, gid)["view"] == before_reload["view"]
    assert page.locator("#sync").get_attribute("data-waiting") == "10"
    snap(page, "offline-royals-ten-moves-after-reload")
    # the installed app starts on the games list: offline, the games kept on this tablet
    page.goto(server.url + "/")
    kept = page.locator("#kept li").filter(has_text="Royals: Ann and Bo")
    assert "10 moves waiting to be sent" in kept.inner_text()
    snap(page, "offline-home")
    kept.locator("a").click()
    page.locator('#sync[data-source="tablet"]:not([data-busy="yes"])').wait_for(timeout=BOOT_MS)
    page.locator('#record[data-seq="10"]').wait_for(state="attached")

    tablet.set_offline(False)
    page.locator('#sync[data-online="yes"][data-waiting="0"]').wait_for(timeout=30_000)
    events = server.get(f"/games/{gid}/events", token)["events"]
    assert [{k: e[k] for k in ("type", "actor", "data")} for e in events[1:]] == \
        [q["action"] for q in queued], "exactly the queued moves, in order, once each"
    assert server.get(f"/games/{gid}/verify", token)["ok"] is True
    # the server folded the same moves to the same board as the tablet did
    assert server.get(f"/games/{gid}/state", token)["view"] == before_reload["view"]
    assert "last sync at" in page.locator("#sync").inner_text()
    assert "Sent 10 moves recorded offline: the log has them." in \
        page.locator("#flash").inner_text()
    snap(page, "offline-royals-synced")
    assert page.js_errors == []


def test_a_second_device_recording_meanwhile_gives_a_conflict_report_not_a_merge(
        tablet, server) -> None:
    gid, token = _royals_at_the_table(server)
    page = _open_controlled(tablet, server, gid, token)
    _go_offline(tablet, page)
    _tap_moves(page, 3)
    mine = [q["action"] for q in _queued(page, gid)]
    # the other device's recorder sets up the table differently, online, meanwhile
    other = {"type": "setup", "actor": "table",
             "data": {"colours": ["black", "white"], "start_player": 1,
                      "display": ["spain", "france", "spain"]}}
    assert other != mine[0]
    r = server.post(f"/games/{gid}/events", other, token)
    assert r.status_code == 201, r.text

    tablet.set_offline(False)
    page.locator(".conflict").wait_for(timeout=30_000)
    page.locator('#sync[data-online="yes"][data-waiting="0"]').wait_for()
    # nothing merged: the log holds the other device's move alone
    log = server.get(f"/games/{gid}/events", token)
    assert [{k: e[k] for k in ("type", "actor", "data")} for e in log["events"][1:]] == [other]
    # nothing lost: the tablet's three moves are a fork of the game from step 0
    fork_id = page.locator(".conflict").get_attribute("data-fork")
    href = page.locator(".conflict a").first.get_attribute("href")
    fork_token = href.split("token=")[1]
    forked = server.get(f"/games/{fork_id}/events", fork_token)
    assert [{k: e[k] for k in ("type", "actor", "data")} for e in forked["events"][1:]] == mine
    assert server.get(f"/games/{fork_id}", fork_token)["origin"]["game_id"] == gid
    # the report names the first difference, each side in the log's own words for it
    said = page.locator(".conflict").inner_text()
    theirs = log["annotations"]["1"]["description"]
    ours = forked["annotations"]["1"]["description"]
    assert f"the log has “{theirs[0].upper()}{theirs[1:]}”" in said, said
    assert f"this tablet has “{ours[0].upper()}{ours[1:]}”" in said, said
    assert "3 moves from the start are kept as a separate game" in said, said
    # and the board is the log's again
    page.locator('#record[data-seq="1"]').wait_for(state="attached")
    snap(page, "offline-royals-conflict")
    assert page.js_errors == []


def test_a_move_whose_answer_was_lost_is_recorded_once_and_an_undo_offline_is_sent(
        tablet, server) -> None:
    """The Wi-Fi drops after the server stored a move but before its answer came back: the
    tablet queues the move with the Idempotency-Key it was sent with, so sending it again
    finds it stored instead of recording it twice."""
    gid, token = _royals_at_the_table(server)
    page = _open_controlled(tablet, server, gid, token)

    def answer_lost(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.fetch()  # the server stores the move...
        route.abort("internetdisconnected")  # ...and its answer never arrives

    page.route("**/games/*/events", answer_lost)
    _tap_moves(page, 1)
    # the tablet took over and kept the move with its key, or its copy of the log had
    # learnt of the move meanwhile (the live updates): either way, recorded once
    page.locator("#flash").filter(has_text="Recorded:").wait_for(timeout=BOOT_MS)
    said = page.locator("#flash").inner_text()
    assert "the connection dropped" in said or "the server had it" in said, said
    stored = server.get(f"/games/{gid}/events", token)["events"]
    assert len(stored) == 2, "the server did store it"
    first = {k: stored[1][k] for k in ("type", "actor", "data")}
    # one more move, and an undo, while the server cannot be reached at all
    tablet.set_offline(True)
    page.locator('#sync[data-source="tablet"]:not([data-busy="yes"])').wait_for(timeout=BOOT_MS)
    page.locator('#record[data-seq="1"]').wait_for(state="attached")
    _tap_moves(page, 1)
    page.locator("#undo").click()
    page.locator("#flash").filter(has_text="Undone:").wait_for()
    queued = _queued(page, gid)
    assert [q["action"]["type"] for q in queued][-1] == "undo"
    assert queued[-1]["action"] == {"type": "undo", "actor": "table", "data": {"target_seq": 2}}
    page.unroute("**/games/*/events")
    tablet.set_offline(False)
    page.locator('#sync[data-online="yes"][data-waiting="0"]').wait_for(timeout=30_000)
    log = server.get(f"/games/{gid}/events", token)
    assert [{k: e[k] for k in ("type", "actor", "data")} for e in log["events"][1:]] == \
        [first, *(q["action"] for q in queued[-2:])], \
        "the lost move once, then the move and the undo"
    assert log["annotations"]["2"]["undone"] is True
    assert server.get(f"/games/{gid}/verify", token)["ok"] is True
    assert page.js_errors == []


#: a browser context of Playwright's is a private window, where nothing installs at all
PRIVATE_WINDOW = {"in-incognito"}


def _installability_errors(ctx, page) -> set[str]:
    cdp = ctx.new_cdp_session(page)
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    return {e["errorId"] for e in found} - PRIVATE_WINDOW


def test_the_recorder_is_installable(tablet, server) -> None:
    """Chromium's own judgement of the manifest, its icon and the service worker; first
    shown to object to a manifest with no icon, so its silence means something."""
    gid, token = _royals_at_the_table(server)
    planted = _watch(tablet.new_page())
    without_icons = json.dumps({**bundle.manifest(), "icons": []})
    # on the context, not the page: once the service worker controls the page, Chromium may
    # fetch the manifest again through it, past a page's route (seen: 1 run in 3)
    tablet.route("**/manifest.webmanifest", lambda route: route.fulfill(
        body=without_icons, content_type="application/manifest+json"))
    planted.goto(f"{server.url}/games/{gid}/record?token={token}")
    planted.locator('#record[data-seq="0"]').wait_for(state="attached")
    seen: set[str] = set()
    for _ in range(50):
        seen = _installability_errors(tablet, planted)
        if any("icon" in e for e in seen):
            break
        planted.wait_for_timeout(100)
    assert any("icon" in e for e in seen), f"the planted fault is seen: {seen}"
    planted.close()
    tablet.unroute("**/manifest.webmanifest")
    page = _open_controlled(tablet, server, gid, token)
    assert _installability_errors(tablet, page) == set()
    manifest = tablet.new_cdp_session(page).send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]


def test_zz_report_the_offline_bundle_cost(capsys) -> None:
    """Not a check: the numbers the first test measured, for the README."""
    if MEASURED:
        with capsys.disabled():
            print("\noffline bundle:", json.dumps(MEASURED))
