"""The probe of the twin oracle: ask every door of chronicle the same questions about both
twins, as one observer, and compare the answers once normalised (see `twins.py`).

Reads come first (the game, the state at each step, the history in every page, the stream,
the export, legal actions, the audit, compare, the web shells); then the questions that write
or try to: idempotent replays of keys others used, refused moves, undo and redo. Those are
sent alike to both twins, so the twins stay twins whatever chronicle does with them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from events import Recorder
from projections import get_rules
from projections.rules import Action

from .twins import (
    Game,
    Observer,
    Raw,
    Twins,
    differences,
    documents,
    http,
    is_legal_now,
    names_of,
    normalise,
    served_salts,
)

Answers = dict[str, Raw]  # what one observer was told, by question


@dataclass(frozen=True)
class Depth:
    """How much to ask: the bounded default run or the exhaustive (slow) sweep."""

    every_step: bool = False
    every_limit: bool = False
    every_key: bool = False
    first_limits: int = 0  # page sizes 1..first_limits besides 2 and at + 1

    def steps(self, twins: Twins, last: int) -> list[int]:
        if self.every_step:
            return list(range(last + 1))
        at = twins.at
        return sorted({0, at - 1, at, last})

    def limits(self, twins: Twins, last: int) -> list[int]:
        if self.every_limit:
            return list(range(1, last + 2))
        return sorted({2, twins.at + 1, *range(1, min(self.first_limits, last + 1) + 1)})


BOUNDED = Depth()
EXHAUSTIVE = Depth(every_step=True, every_limit=True, every_key=True)


@dataclass
class Leak:
    """One question whose answer told the observer something about the hidden value."""

    twins: str
    observer: str
    question: str
    where: list[str]

    def __str__(self) -> str:
        return f"{self.twins}, {self.observer}, {self.question}: {'; '.join(self.where)}"


@dataclass
class Verdict:
    leaks: list[Leak] = field(default_factory=list)
    questions: int = 0  # questions asked of both twins
    doors: set[str] = field(default_factory=set)  # endpoints they went through

    @property
    def questions_leaking(self) -> set[str]:
        return {leak.question for leak in self.leaks}


_DOOR = re.compile(r"^(GET|POST) (/games/<id>|/[a-z-]+(?:/stream)?)")


def door(question: str) -> str:
    """The endpoint a question goes through: "GET /events/stream", "POST /undo"."""
    found = _DOOR.match(question)
    return f"{found[1]} {found[2]}" if found else question


# -- reads -------------------------------------------------------------------------------------
def reads(client: Any, twins: Twins, game: Game, who: Observer, depth: Depth,
          last: int) -> Answers:
    """Every read of one twin as `who`; the keys name the questions, the same for both."""
    gid, token, at = game.id, who.token(game), twins.at
    out: Answers = {}

    def get(question: str, url: str, headers: dict[str, str] | None = None) -> Raw:
        out[question] = http(client, "GET", url, token, headers)
        return out[question]

    get("GET /games/<id>", f"/games/{gid}")
    get("GET /state", f"/games/{gid}/state")
    for n in depth.steps(twins, last):
        get(f"GET /state?at={n}", f"/games/{gid}/state?at={n}")
    for query in ("", "?after=-1", "?after=0", f"?after={at - 1}", f"?after={at}",
                  f"?limit={at + 1}"):
        get(f"GET /events{query}", f"/games/{gid}/events{query}")
    for limit in depth.limits(twins, last):
        url: str | None = f"/games/{gid}/events?limit={limit}"
        page = 0
        while url and page <= last + 1:
            raw = get(f"GET /events paged by {limit}, page {page}", url)
            url = (documents(raw.body) or {}).get("next") if raw.status == 200 else None
            page += 1
    get("GET /events/stream", f"/games/{gid}/events/stream")
    get("GET /events/stream?after=-1", f"/games/{gid}/events/stream?after=-1")
    for last_id in ("0", str(at - 1)):
        get(f"GET /events/stream with Last-Event-ID {last_id}", f"/games/{gid}/events/stream",
            {"Last-Event-ID": last_id})
    get("GET /export", f"/games/{gid}/export")
    get("GET /legal-actions", f"/games/{gid}/legal-actions")
    get("GET /verify", f"/games/{gid}/verify")
    get("GET /compare/<id>/<third>", f"/games/{gid}/compare/{twins.third}")
    get("GET /compare/<third>/<id>", f"/games/{twins.third}/compare/{gid}")
    get("GET /replay (page)", f"/games/{gid}/replay")
    get("GET /record (page)", f"/games/{gid}/record")
    return out


# -- writes and attempts -------------------------------------------------------------------------
def keys_to_replay(twins: Twins, game: Game, who: Observer, depth: Depth) -> list[tuple[int, str]]:
    """(seq, key) of keys somebody else used: every one, or those nearest the hidden value
    (the key of each varied event, else of the move that made the server deal it) and the
    last one."""
    others = sorted((seq, key) for seq, (actor, key) in game.keys.items()
                    if not (who.kind == "seat" and actor == who.seat))
    if depth.every_key or not others:
        return others
    chosen = {others[-1]}
    for seq in twins.differing:
        before = [k for k in others if k[0] <= seq]
        if before:
            chosen.add(before[-1])
    return sorted(chosen)


def refusal_bodies(twins: Twins, who: Observer, rules: Any, states: tuple[Any, Any]
                   ) -> list[tuple[str, dict[str, Any]]]:
    """Moves the observer tries that chronicle must refuse: every action type with no data
    as the observer, the owner's legal moves (of twin A) re-addressed to the observer, and
    the owner's first legal move sent as the owner. None of them is legal in either twin."""
    actor = who.actor
    bodies = [(f"POST /events {t} with no data", {"type": t, "actor": actor, "data": {}})
              for t in sorted(rules.action_schemas)]
    owner = twins.secret.owner
    owned = rules.legal_actions(states[0], owner)[:3]
    bodies += [(f"POST /events owner's legal move {i} as {who.label}",
                {"type": a["type"], "actor": actor, "data": a["data"]})
               for i, a in enumerate(owned)]
    if owned and who.kind == "seat":
        a = owned[0]
        bodies.append(("POST /events owner's legal move 0 as the owner",
                       {"type": a["type"], "actor": owner, "data": a["data"]}))
    return [(q, _plain(b)) for q, b in bodies
            if not any(is_legal_now(rules, s, b, twins.mode) for s in states)]


def typed_chance_bodies(twins: Twins, who: Observer, rules: Any, states: tuple[Any, Any]
                        ) -> list[tuple[str, dict[str, Any]]]:
    """At a table, the observer types its own chance outcome (issue #32): for each of its
    legal moves that turns up cards into one list, the outcome filled from what twin A
    still offers, and one built to tell the twins apart - as many copies as twin B's pile
    holds of a card it holds more of than A's, the rest from what both hold. The rules
    would record the second in one twin and refuse it in the other, so an answer that
    depends on the rules' check against the hidden piles is the leak; chronicle must answer
    both twins the same."""
    if twins.mode != "table" or who.kind != "seat":
        return []
    out: list[tuple[str, dict[str, Any]]] = []
    for i, legal in enumerate(rules.legal_actions(states[0], who.seat)):
        if not rules.chance_fields.get(legal["type"]):
            continue
        action = Action.of(legal["type"], legal["actor"], legal["data"])
        slots = [rules.chance_slots(s, action) or [] for s in states]
        listed = [(a, b) for a, b in zip(*slots, strict=False)
                  if len(a["path"]) == 1 and isinstance(a["path"][0], int)]
        if not listed or len({a["field"] for a, _ in listed}) != 1:
            continue
        field_name = listed[0][0]["field"]
        for name, picks in (("filled", _picks(listed, apart=False)),
                            ("told apart", _picks(listed, apart=True))):
            if picks is None:
                continue
            out.append((f"POST /events typed {legal['type']} {i}, {name}",
                        {**_plain(legal), "data": {**_plain(legal["data"]),
                                                   field_name: picks}}))
    return out


def _picks(slots: list[tuple[dict[str, Any], dict[str, Any]]], apart: bool
           ) -> list[Any] | None:
    """One value per slot, in order, each still unused in its slot's options (a multiset
    the slots share): with `apart`, a value twin B offers more of than twin A wherever one
    is left, else one both offer; None when `apart` finds no such value at all."""
    picks: list[Any] = []
    used: Counter[Any] = Counter()
    told = False
    for a, b in slots:
        ca, cb = Counter(a["options"]), Counter(b["options"])
        more = [v for v in sorted(cb, key=str) if cb[v] > ca[v] and cb[v] > used[v]]
        common = [v for v in sorted(ca, key=str) if min(ca[v], cb[v]) > used[v]]
        pool = more if apart and more else common
        if not pool:
            return None
        told |= pool is more
        picks.append(pool[0])
        used[pool[0]] += 1
    return picks if told or not apart else None


def attempts(client: Any, twins: Twins, game: Game, who: Observer, depth: Depth,
             bodies: list[tuple[str, dict[str, Any]]]) -> Answers:
    """Replays, refusals, undo and redo, in one fixed order (the same for both twins)."""
    gid, token = game.id, who.token(game)
    out: Answers = {}
    tokens = [None] if token is None else [None, token]
    for seq, key in keys_to_replay(twins, game, who, depth):
        for tok in tokens:
            for name, body in (("{}", {}), ("a note", {"type": "note", "actor": who.actor,
                                                       "data": {}})):
                as_whom = "no token" if tok is None else f"{who.label}'s token"
                out[f"POST /events replaying the key of seq {seq} with {name}, {as_whom}"] = \
                    http(client, "POST", f"/games/{gid}/events", tok,
                         {"Idempotency-Key": key}, body)
    for question, body in bodies:
        out[question] = http(client, "POST", f"/games/{gid}/events", token, None, body)
    for at in (0, twins.at):  # a fork may only copy what the caller may see (#24)
        out[f"POST /fork at {at}"] = http(client, "POST", f"/games/{gid}/fork", token, None,
                                          {"at": at})
    out["POST /undo"] = undo = http(client, "POST", f"/games/{gid}/undo", token)
    if undo.status == 201:
        out["POST /redo"] = http(client, "POST", f"/games/{gid}/redo", token)
    out["GET /events?after=-1 afterwards"] = http(client, "GET", f"/games/{gid}/events?after=-1",
                                                  token)
    out["GET /state afterwards"] = http(client, "GET", f"/games/{gid}/state", token)
    return out


def recording_replies(game: Game, who: Observer) -> Answers:
    """The replies chronicle gave this observer's own POSTs while the twin was recorded."""
    token = who.token(game)
    if token is None:
        return {}
    return {label: raw for tok, label, raw in game.replies if tok == token}


# -- comparing -----------------------------------------------------------------------------------
def compare(twins: Twins, who: Observer, answers_a: Answers, answers_b: Answers) -> list[Leak]:
    """The questions whose normalised answers differ between the twins, with where; and any
    envelope of a differing event served with its salt (a guess could be tested against its
    hash)."""
    leaks = []
    names_a = names_of(twins.a, twins.third)
    names_b = names_of(twins.b, twins.third)
    for question in sorted(set(answers_a) | set(answers_b)):
        ra, rb = answers_a.get(question), answers_b.get(question)
        if ra is None or rb is None:
            leaks.append(Leak(twins.id, who.label, question, ["asked of one twin only"]))
            continue
        ta, tb = (normalise(_new_game(ra), names_a), normalise(_new_game(rb), names_b))
        where = []
        if (ra.status, ra.content_type) != (rb.status, rb.content_type):
            where.append(f"status {ra.status} vs {rb.status}")
        if ta != tb:
            where += differences(documents(ta), documents(tb)) or ["the bodies differ"]
        salted = sorted(set(served_salts(documents(ta), twins.differing))
                        | set(served_salts(documents(tb), twins.differing)))
        if salted:
            where.append(f"the salt of seq {', '.join(map(str, salted))} is served")
        if where:
            leaks.append(Leak(twins.id, who.label, question, where))
    return leaks


def _new_game(raw: Raw) -> str:
    """A game a question made (a fork the caller may make) comes with a fresh id and tokens,
    different in any two games: named as such, the rest of the answer compared."""
    doc = documents(raw.body) if raw.status == 201 else None
    if not (isinstance(doc, dict) and "recorder_token" in doc and "seat_tokens" in doc):
        return raw.body
    fresh = {doc["id"]: "<new game>", doc["recorder_token"]: "<new recorder token>"}
    fresh |= {t: f"<new seat {i} token>" for i, t in enumerate(doc["seat_tokens"])}
    body = raw.body
    for value, name in fresh.items():
        body = body.replace(value, name)
    return body


def probe(client: Any, rec: Recorder, twins: Twins, who: Iterable[Observer],
          depth: Depth = BOUNDED, write: bool = True,
          on_answers: Callable[[Observer, Answers, Answers], None] | None = None) -> Verdict:
    """Ask both twins everything as each observer; the leaks found and questions asked."""
    who = list(who)
    verdict = Verdict()
    last = rec.last_seq(twins.a.id)
    assert last == rec.last_seq(twins.b.id)
    rules = get_rules(twins.secret.game)
    read_a = {o: reads(client, twins, twins.a, o, depth, last) for o in who}
    read_b = {o: reads(client, twins, twins.b, o, depth, last) for o in who}
    for o in who:
        answers_a = {**recording_replies(twins.a, o), **read_a[o]}
        answers_b = {**recording_replies(twins.b, o), **read_b[o]}
        if write:
            states = _states(rec, twins)
            bodies = refusal_bodies(twins, o, rules, states)
            bodies += typed_chance_bodies(twins, o, rules, states)
            answers_a |= attempts(client, twins, twins.a, o, depth, bodies)
            answers_b |= attempts(client, twins, twins.b, o, depth, bodies)
        if on_answers is not None:
            on_answers(o, answers_a, answers_b)
        verdict.questions += len(answers_a)
        verdict.doors |= {door(q) for q in answers_a}
        verdict.leaks += compare(twins, o, answers_a, answers_b)
    return verdict


def _states(rec: Recorder, twins: Twins) -> tuple[Any, Any]:
    """The current state of each twin, folded in-process from its stored log."""
    return tuple(rec.cursor(g.id)[1].state for g in (twins.a, twins.b))  # type: ignore[return-value]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
