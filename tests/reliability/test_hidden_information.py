"""Hidden information, judged by twins (issue #18; RELIABILITY.md, "Secrets").

For every secret of every game with hidden information (`twins.REGISTRY`), in table and in
digital play, two games are recorded through the API alike but for that one hidden value.
Every observer who must not know it - each other seat, a spectator, in digital play the
recorder - then asks every door of chronicle the same questions about both twins
(`probe.reads` and `probe.attempts`): the answers must be byte-identical once game ids,
hashes, salts, times and tokens are normalised, and no envelope of the events that hold the
value may carry its salt.

The oracle is never chronicle's own idea of what is hidden: the twins are. Before it judges,
each pair is shown to be a fair one (the stored logs differ in the varied events only; the
rules give the observers the same view and redaction of both) and the probe is shown to
catch the value when it may or should be seen: asked as its owner or the table's recorder,
and asked as the observers with a leak planted in the rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests

from api import create_app
from events import Recorder
from events.documents import StateDocuments
from events.sqlite import SQLiteStore
from projections import GAMES
from projections.rules import ALL

from .conftest import FULL, Server, count, size
from .probe import BOUNDED, Depth, Leak, Verdict, probe, typed_chance_bodies
from .twins import (
    MODES,
    REGISTRY,
    Game,
    Observer,
    Secret,
    Twins,
    build_third,
    build_twins,
    differences,
    documents,
    names_of,
    normalise,
    observers,
    rules_level_differences,
    secret_types,
    seers,
    served_salts,
    stored,
    what_the_rules_hide,
)

PAIRS = [(s, m) for s in REGISTRY for m in MODES if m in s.modes]
IDS = [f"{s.id}-{m}" for s, m in PAIRS]


class Lab:
    """One database of twins for the module: each pair built once, when first asked for."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.app = create_app({"TESTING": True, "DATABASE": str(db), "STREAM_SECONDS": 0})
        self.client = self.app.test_client()
        self.store = SQLiteStore(str(db))
        self.rec = Recorder(self.store)
        self._thirds: dict[str, str] = {}
        self._twins: dict[tuple[str, str], Twins] = {}

    def twins(self, secret: Secret, mode: str) -> Twins:
        key = (secret.id, mode)
        if key not in self._twins:
            if secret.id not in self._thirds:
                self._thirds[secret.id] = build_third(self.client, self.rec, secret)
            self._twins[key] = build_twins(self.client, self.rec, secret, mode,
                                           self._thirds[secret.id])
            count("hidden information: twin pairs built")
        return self._twins[key]

    def observers(self, twins: Twins) -> list[Observer]:
        players = len(self.rec.game(twins.a.id)["players"])
        return observers(twins.secret, twins.mode, players)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    lab = Lab(tmp_path_factory.mktemp("twins") / "twins.db")
    yield lab
    lab.store.close()


@pytest.fixture(autouse=True)
def forget_kept_documents(lab: Lab) -> Iterator[None]:
    """A plant changes the rules' code inside this process, which no running server sees
    (the kept state documents, events/documents.py, are keyed on the log, not on the code):
    what a test rendered is forgotten after it, so no plant outlives its test."""
    yield
    _documents_kept(lab).clear()


def core_questions(at: int) -> set[str]:
    """The reads whose answer carries the hidden value, recorded at seq `at`, for anyone who
    may see it: the state from the value on, and every history that starts before it (each
    way of asking)."""
    # a stream closed at once (STREAM_SECONDS 0) sends one batch from where it starts
    from_start = set() if at >= STREAM_BATCH else {
        "GET /events/stream", "GET /events/stream?after=-1",
        "GET /events/stream with Last-Event-ID 0"}
    return from_start | {
        "GET /state", f"GET /state?at={at}", "GET /events", "GET /events?after=-1",
        "GET /events?after=0", f"GET /events?after={at - 1}", f"GET /events?limit={at + 1}",
        f"GET /events paged by {at + 1}, page 0",
        f"GET /events/stream with Last-Event-ID {at - 1}", "GET /export"}


#: events one stream batch sends (api/routes.py, `_stream`)
STREAM_BATCH = 200


def report(verdict: Verdict, limit: int = 60) -> str:
    lines = [str(leak) for leak in verdict.leaks]
    more = f"\n... and {len(lines) - limit} more" if len(lines) > limit else ""
    return f"{len(lines)} answers differ between the twins:\n" + "\n".join(lines[:limit]) + more


DOORS: set[str] = set()


def _count_probe(verdict: Verdict, who: list[Observer]) -> None:
    count("hidden information: observers probed", len(who))
    count("hidden information: questions asked of both twins", verdict.questions)
    count("hidden information: leaks found", len(verdict.leaks))
    count("hidden information: endpoints asked", len(verdict.doors - DOORS))
    DOORS.update(verdict.doors)


# -- every secret is registered -------------------------------------------------------------------
def unregistered(slug: str, registry: tuple[Secret, ...]) -> list[str]:
    """What `slug` hides in its recorded games that no secret of `registry` varies."""
    views_differ, redacted = what_the_rules_hide(slug)
    mine = [s for s in registry if s.game == slug]
    covered = set().union(*(secret_types(s) for s in mine)) if mine else set()
    problems = [f"{slug} hides part of its views but has no secret"] if views_differ and not \
        mine else []
    return problems + [f"{slug}: no twins vary a {kind}" for kind in sorted(redacted - covered)]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_kind_of_hidden_value_a_game_has_is_registered(slug):
    """A game whose rules hide anything in its recorded games has twins for every action type
    they redact, so a new game (or a new secret) is judged once it is registered here."""
    assert unregistered(slug, REGISTRY) == []


def test_the_registry_check_finds_a_secret_left_out():
    without_plots = tuple(s for s in REGISTRY if s.id != "thrones-plot")
    assert unregistered("thrones", without_plots) == ["thrones: no twins vary a choose_plot"]
    assert unregistered("royals", ()) == ["royals hides part of its views but has no secret",
                                          "royals: no twins vary a draw_cards"]


# -- the twins are fair ----------------------------------------------------------------------------
@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_the_twins_differ_in_the_full_record_only_in_the_hidden_value(lab, secret, mode):
    """Not vacuous: the stored logs differ, in the varied events and nowhere else, and the
    state as a viewer of everything sees it differs from the value on."""
    twins = lab.twins(secret, mode)
    a, b = (stored(lab.rec, g.id)[: twins.upto + 1] for g in (twins.a, twins.b))
    assert [(e["type"], e["actor"]) for e in a] == [(e["type"], e["actor"]) for e in b]
    assert twins.differing and min(twins.differing) == twins.at, twins.differing
    full = [lab.rec.state(g.id, twins.upto)["view"] for g in (twins.a, twins.b)]
    assert full[0] != full[1], "the full views of the twins are the same"
    for n in range(twins.at):
        assert lab.rec.state(twins.a.id, n)["view"] == lab.rec.state(twins.b.id, n)["view"]


@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_the_rules_show_each_observer_the_same_of_both_twins(lab, secret, mode):
    """The pair is a fair one: by the rules' own view and redaction each observer may see the
    same of both twins at every step, and the value's owner may not."""
    twins = lab.twins(secret, mode)
    for who in lab.observers(twins):
        assert rules_level_differences(secret, mode, who) == [], who.label
    for who in seers(secret, mode):
        assert rules_level_differences(secret, mode, who), f"{who.label} sees no difference"


# -- the probe can fail ----------------------------------------------------------------------------
@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_the_probe_finds_the_value_when_one_who_may_see_it_asks(lab, secret, mode):
    """The planted leak of the issue: the same probe, asked as the value's owner or the
    table's recorder (who sees the unredacted record), must find the twins apart in every
    read that carries the value."""
    twins = lab.twins(secret, mode)
    for who in seers(secret, mode):
        verdict = probe(lab.client, lab.rec, twins, [who], BOUNDED, write=False)
        missed = sorted(core_questions(twins.at) - verdict.questions_leaking)
        assert missed == [], f"asked as {who.label}, the probe missed the value in {missed}"
        count("hidden information: planted leaks caught (seers)", len(verdict.leaks))


@contextmanager
def planted_leak(slug: str) -> Iterator[None]:
    """The rules of `slug` redact nothing and show every seat and spectator everything."""
    cls = GAMES[slug]
    own = {name: cls.__dict__.get(name) for name in ("view", "redact")}
    view = cls.view

    def everything(rules: Any, state: Any, seat: Any) -> dict[str, Any]:
        return view(rules, state, ALL)

    cls.view = everything  # type: ignore[method-assign]
    cls.redact = lambda rules, action, seat, state: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name, value in own.items():
            if value is None:
                delattr(cls, name)
            else:
                setattr(cls, name, value)


@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_the_probe_finds_a_leak_planted_in_the_rules(lab, secret, mode):
    """With a redaction that hides nothing, every observer's probe finds the twins apart in
    every read that carries the value."""
    twins = lab.twins(secret, mode)
    who = lab.observers(twins)
    found: dict[str, set[str]] = {}
    with planted_leak(secret.game):
        for o in who:
            verdict = probe(lab.client, lab.rec, twins, [o], BOUNDED, write=False)
            found[o.label] = verdict.questions_leaking
            count("hidden information: planted leaks caught (planted in the rules)",
                  len(verdict.leaks))
    missed = {label: sorted(core_questions(twins.at) - q) for label, q in found.items()}
    assert all(not m for m in missed.values()), missed


def test_a_seats_typed_draw_finds_a_leak_planted_in_who_may_type_it(lab, monkeypatch):
    """Issue #32: with a seat's token let to type its own privilege-card draw at the table
    (as before engine ruling 16), the seat that draws next names every copy of a card the
    other kept in one twin: recorded in one twin, refused "not in the draw pile" in the
    other. The probe must find that, in new twins of their own (the write changes them)."""
    secret = next(s for s in REGISTRY if s.id == "palais_royal-kept-before-a-draw")
    twins = lab.twins(secret, "table")
    states = tuple(lab.rec.cursor(g.id)[1].state for g in (twins.a, twins.b))
    rules = lab.rec.cursor(twins.a.id)[0]
    typed = typed_chance_bodies(twins, Observer("seat", 0), rules, states)
    assert any("told apart" in q for q, _ in typed), typed
    monkeypatch.setattr(GAMES[secret.game], "names_unseen", lambda rules, action: False)
    fresh = build_twins(lab.client, lab.rec, secret, "table", twins.third)
    verdict = probe(lab.client, lab.rec, fresh, [Observer("seat", 0)], BOUNDED)
    caught = sorted(q for q in verdict.questions_leaking if q.startswith("POST /events typed"))
    assert any("told apart" in q for q in caught), report(verdict)
    count("hidden information: planted leaks caught (planted in the rules)", len(caught))


def test_a_ballot_a_seat_sealed_finds_a_leak_planted_in_what_the_recorder_sees(lab, monkeypatch):
    """Issue #32: with the table's recorder seeing everything again (no sealed types, as
    before ruling 21), the recorder's probe of the ballot twins recorded at the table
    finds seat 2's ballot in every read that carries it."""
    secret = next(s for s in REGISTRY if s.sealed_from_table)
    twins = lab.twins(secret, "table")
    monkeypatch.setattr(GAMES[secret.game], "sealed_types", frozenset())
    verdict = probe(lab.client, lab.rec, twins, [Observer("recorder")], BOUNDED, write=False)
    missed = sorted(core_questions(twins.at) - verdict.questions_leaking)
    assert missed == [], f"the recorder's probe missed the planted leak in {missed}"
    count("hidden information: planted leaks caught (planted in the rules)", len(verdict.leaks))


# -- the oracle ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_no_answer_to_an_observer_depends_on_the_hidden_value(lab, secret, mode):
    """Every other seat, a spectator, and in digital play the recorder: the same answers from
    both twins to every read, replay, refused move, undo and redo."""
    twins = lab.twins(secret, mode)
    who = lab.observers(twins)
    verdict = probe(lab.client, lab.rec, twins, who, BOUNDED)
    _count_probe(verdict, who)
    if verdict.leaks:
        pytest.fail(report(verdict), pytrace=False)


# -- the cache of rendered state documents (issue #34) ---------------------------------------------
def _ask_state(lab: Lab, game: Game, who: Observer, at: int | None) -> tuple[int, str]:
    token = who.token(game)
    answer = lab.client.get(f"/games/{game.id}/state" + ("" if at is None else f"?at={at}"),
                            headers={"Authorization": f"Bearer {token}"} if token else {})
    return answer.status_code, answer.get_data(as_text=True)


def _documents_kept(lab: Lab) -> StateDocuments:
    kept: StateDocuments = lab.app.extensions["chronicle_cache"].documents
    return kept


def cached_state_leaks(lab: Lab, twins: Twins) -> tuple[list[str], int]:
    """The seers ask for the state first (every step the value is hidden at, and now), so
    their documents are kept; then every observer asks the same, twice (the second answer
    is the kept one): where an observer's answer differs between the twins, a document
    rendered for another scope reached it. Also how many documents were kept."""
    secret, steps = twins.secret, [None, *range(twins.at, twins.upto + 1)]
    _documents_kept(lab).clear()
    for game in (twins.a, twins.b):
        for who in seers(secret, twins.mode):
            for at in steps:
                assert _ask_state(lab, game, who, at)[0] == 200
    kept = len(_documents_kept(lab))
    leaks = []
    for who in lab.observers(twins):
        for at in steps:
            for turn in ("first", "again"):
                a, b = (_ask_state(lab, g, who, at) for g in (twins.a, twins.b))
                if normalise(a[1], names_of(twins.a)) != normalise(b[1], names_of(twins.b)):
                    leaks.append(f"{who.label}, GET /state{'' if at is None else f'?at={at}'}"
                                 f" ({turn})")
    return leaks, kept


@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_no_kept_state_document_reaches_a_viewer_of_another_scope(lab, secret, mode):
    """With the seers' documents of every hidden step kept, no observer's state answer
    depends on the hidden value: the kept document of one scope is never another's."""
    twins = lab.twins(secret, mode)
    leaks, kept = cached_state_leaks(lab, twins)
    assert kept >= 2 * len(seers(secret, mode)), "the seers' documents were not kept"
    count("state cache: documents kept by seers before observers asked", kept)
    assert leaks == [], leaks


#: the key planted one field too coarse: the scope dropped; a seat folded into the spectator
COARSE_SCOPES = {
    "scope dropped": lambda viewer: ("scope", None),
    "seat folded into spectator": lambda viewer: (
        ("scope", None) if isinstance(viewer, int) else ("scope", viewer)),
}


@pytest.mark.parametrize("plant", sorted(COARSE_SCOPES))
@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_a_state_key_one_field_too_coarse_is_caught(lab, secret, mode, plant, monkeypatch):
    """The twins catch the key planted too coarse: an observer then gets a seer's document."""
    twins = lab.twins(secret, mode)
    monkeypatch.setattr("events.rendered.scope_of", COARSE_SCOPES[plant])
    try:
        leaks, _ = cached_state_leaks(lab, twins)
    finally:
        _documents_kept(lab).clear()  # no planted entry outlives the plant
    count("state cache: leaks caught with the key planted too coarse", len(leaks))
    assert leaks, f"with the {plant}, no observer got a seer's document"


# -- a real server: the stream ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(lab: Lab, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`chronicle serve` over the twins' database; streams close as soon as they caught up."""
    for s, m in PAIRS:
        lab.twins(s, m)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHRONICLE_STREAM_SECONDS", "0")
        srv = Server(lab.db, tmp_path_factory.mktemp("served") / "server.log")
    yield srv
    srv.kill()


def stream_ways(at: int) -> list[tuple[str, dict[str, str], str]]:
    """(label, headers, query) of each way a stream is opened, without repeats (the hidden
    value recorded at seq `at`)."""
    ways = [("no after", {}, ""), ("after=-1", {}, "?after=-1")]
    ways += [(f"Last-Event-ID {n}", {"Last-Event-ID": str(n)}, "")
             for n in sorted({0, at - 1})]
    return ways


def _stream_answers(srv: Server, twins: Twins, game: Game, who: Observer) -> dict[str, str]:
    token = who.token(game)
    out = {}
    for label, headers, query in stream_ways(twins.at):
        if token:
            headers = {**headers, "Authorization": f"Bearer {token}"}
        r = requests.get(f"{srv.url}/games/{game.id}/events/stream{query}", headers=headers,
                         timeout=30)
        out[f"served stream, {label}"] = f"{r.status_code}\n{r.text}"
    return out


def _stream_leaks(srv: Server, twins: Twins, who: Observer) -> list[Leak]:
    a = _stream_answers(srv, twins, twins.a, who)
    b = _stream_answers(srv, twins, twins.b, who)
    leaks = []
    for question in a:
        ta = normalise(a[question], names_of(twins.a, twins.third))
        tb = normalise(b[question], names_of(twins.b, twins.third))
        where = differences(documents(ta), documents(tb)) if ta != tb else []
        salted = served_salts(documents(ta), twins.differing)
        if salted:
            where.append(f"the salt of seq {', '.join(map(str, salted))} is served")
        if where:
            leaks.append(Leak(twins.id, who.label, question, where))
    return leaks


def test_a_served_stream_tells_an_observer_nothing_of_the_hidden_value(lab, served):
    """gunicorn, loopback, `requests`: the event stream opened without `after`, with
    `after=-1` and with `Last-Event-ID`, as every observer of every pair; and the same
    questions asked as the owner find the twins apart (the probe can fail here too)."""
    leaks: list[Leak] = []
    for secret, mode in PAIRS:
        twins = lab.twins(secret, mode)
        owner = Observer("seat", secret.owner)
        told = {leak.question for leak in _stream_leaks(served, twins, owner)}
        reach = [w for w in stream_ways(twins.at) if twins.at < STREAM_BATCH or w[0] ==
                 f"Last-Event-ID {twins.at - 1}"]
        assert len(told) >= len(reach), f"{twins.id}: the owner was told only {told}"
        for who in lab.observers(twins):
            leaks += _stream_leaks(served, twins, who)
            count("hidden information: served streams compared", len(stream_ways(twins.at)))
    count("hidden information: leaks found", len(leaks))
    if leaks:
        pytest.fail(report(Verdict(leaks)), pytrace=False)


# -- the web pages ---------------------------------------------------------------------------------
BROWSER_PAIRS = PAIRS if FULL else [
    p for p in PAIRS if f"{p[0].id}-{p[1]}" in (
        "royals-deck-card-digital", "thrones-setup-hand-table", "palais_royal-kept-digital",
        "in_the_shadow_of_the_emperor-ballot-table")]


def _page(page: Any, url: str, at: int) -> dict[str, str]:
    """What the replay page at step `at` shows (its text and DOM) and every API answer it
    fetched to show it (the stream aside: it stays open)."""
    fetched: list[Any] = []

    def listener(response: Any) -> None:
        fetched.append(response)

    page.on("response", listener)
    try:
        page.goto(url)
        page.wait_for_selector(f'#board[data-loaded="{at}"]')
        page.wait_for_function("() => !document.getElementById('audit-body')"
                               ".textContent.includes('checking')")
        shown = {"page text": str(page.inner_text("#replay")),
                 "page DOM": str(page.inner_html("#replay"))}
        for resp in fetched:
            path = resp.url.split("/", 3)[-1]
            if resp.request.resource_type in ("fetch", "xhr") and "/stream" not in path:
                shown.setdefault(f"fetched /{path}", resp.text())
    finally:
        page.remove_listener("response", listener)
    return shown


@pytest.mark.browser
def test_the_replay_page_shows_and_fetches_an_observer_nothing_of_the_hidden_value(
        lab, served):
    """The replay viewer in Chromium, as another seat and the spectator (every observer and
    three steps in the full run): the same text, DOM and fetched answers for both twins; as
    the value's owner, not."""
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip(f"the replay page was not checked in a browser: it needs the system "
                    f"Chromium at {chromium} (./test installs it when run as root)")
    from playwright.sync_api import sync_playwright

    leaks: list[Leak] = []
    blind: list[str] = []  # pairs where the owner's page shows or fetches nothing of it
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        context = browser.new_context(viewport={"width": 1024, "height": 900})
        context.set_default_timeout(15_000)
        page = context.new_page()
        try:
            for secret, mode in BROWSER_PAIRS:
                twins = lab.twins(secret, mode)
                last = lab.rec.last_seq(twins.a.id)
                others = [o for o in lab.observers(twins) if o.kind != "recorder" or FULL]
                who = others if FULL else [others[0], Observer("spectator")]
                steps = sorted({twins.at - 1, twins.at, last}) if FULL else [last]
                for o in [*who, Observer("seat", secret.owner)]:
                    for at in steps:
                        pages = []
                        for game in (twins.a, twins.b):
                            token = o.token(game)
                            url = f"{served.url}/games/{game.id}/replay?at={at}" + (
                                f"&token={token}" if token else "")
                            names = names_of(game, twins.third)
                            pages.append({normalise(k, names): normalise(v, names)
                                          for k, v in _page(page, url, at).items()})
                        count("hidden information: replay pages compared", 2)
                        differ = [f"{k}: {d}" for k in sorted(set(pages[0]) | set(pages[1]))
                                  for d in differences(documents(pages[0].get(k, "")),
                                                       documents(pages[1].get(k, "")))]
                        differ += [f"{k}: the salt of seq {seq} is served"
                                   for k, v in sorted(pages[0].items())
                                   for seq in served_salts(documents(v), twins.differing)]
                        if o.seat == secret.owner:
                            if at == last and not differ:
                                blind.append(twins.id)
                        elif differ:
                            leaks.append(Leak(twins.id, o.label, f"replay page at {at}", differ))
        finally:
            context.close()
            browser.close()
    assert blind == [], f"the owner's page showed and fetched nothing of the value: {blind}"
    count("hidden information: leaks found", len(leaks))
    if leaks:
        pytest.fail(report(Verdict(leaks)), pytrace=False)


# -- the exhaustive sweep --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(("secret", "mode"), PAIRS, ids=IDS)
def test_no_answer_to_an_observer_depends_on_the_hidden_value_at_any_step_or_page(
        lab, secret, mode):
    """Every step, every page size (bounded: the first few), every key replayed."""
    twins = lab.twins(secret, mode)
    who = lab.observers(twins)
    depth = Depth(every_step=True, every_limit=FULL, every_key=True,
                  first_limits=size(6, 10_000))
    verdict = probe(lab.client, lab.rec, twins, who, depth)
    _count_probe(verdict, who)
    if verdict.leaks:
        pytest.fail(report(verdict), pytrace=False)
