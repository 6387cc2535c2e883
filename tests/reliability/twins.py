"""Twin games: the independent oracle of hidden information (issue #18).

What a viewer may not see is not asked of chronicle. Two games are recorded through the API
exactly alike except for one hidden value (a card drawn, a hand dealt, a plot chosen face
down, a sealed ballot, a privilege card kept): the *twins*. Whatever chronicle answers a
viewer who must not know that value - another seat, a spectator, in digital play the
recorder - must then be the same for both twins, byte for byte once the things that differ
between any two games are normalised (game ids, hashes, salts, times, tokens). Any other
difference is the hidden value, or something derived from it, reaching that viewer.

A game with hidden information is covered by adding a `Secret` to `REGISTRY`: a recorded
fixture, the seq of the event that holds the value, how to vary it, and how far the twins
go on while it stays hidden. Each secret is built in both modes: at the table (every move
typed through the API, the chance outcomes with it) and in digital play (the seats and the
recorder send their choices, and the server deals from a dealer the test scripts, so that
the deals are the fixture's except for the varied value; where digital play asks a seat
what a table never records, such as a revealed plot's choice, the seat answers with the
first move the rules offer it, and the twins' seqs move on by those answers).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from projections import GAMES, get_rules
from projections.replay import META_TYPES
from projections.rules import (
    ALL,
    TABLE,
    Action,
    Dealer,
    GameRules,
    IllegalAction,
    State,
    thaw,
)

from .conftest import ROOT

Script = dict[int, dict[str, Any]]  # seq -> {"seq", "type", "actor", "data"}
Vary = Callable[[GameRules, list[State], Script], dict[int, dict[str, Any]]]


# -- the registry ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Secret:
    """One hidden value of one game, and the twins that differ only in it."""

    game: str
    name: str  # short id: "deck-card"
    what: str  # for a person: "the country card seat 1 drew from the deck"
    fixture: str  # fixtures/<game>/<fixture>.jsonl
    at: int  # seq of the (first) event that holds the value
    upto: int  # the twins' last seq: the value is still hidden there
    owner: int  # the seat that sees the value
    vary: Vary  # the other twin's data, by seq
    #: moves the fixture lacks, recorded from seq `extra_from` (default `at`) on instead of
    #: the fixture's
    extra: Callable[[GameRules, State], list[dict[str, Any]]] | None = None
    extra_from: int | None = None
    #: at the table the owner seals the value with its own token, so the table's recorder
    #: must not see it either (issue #32: In the Shadow of the Emperor's ballots)
    sealed_from_table: bool = False
    #: the modes it is built in: a Thrones ruling by the table exists at a table only
    #: (issue #30, ruling 29: digital play has no free-form effect)
    modes: tuple[str, ...] = ("table", "digital")

    @property
    def id(self) -> str:
        return f"{self.game}-{self.name}"


def _one(seq: int, change: Callable[[GameRules, State, dict[str, Any]], dict[str, Any]]
         ) -> Vary:
    """A variation of the data of one event, from the state before it."""
    def vary(rules: GameRules, states: list[State], script: Script) -> dict[int, dict[str, Any]]:
        return {seq: change(rules, states[seq - 1], copy.deepcopy(script[seq]["data"]))}
    return vary


def _other(options: Any, taken: Any) -> Any:
    """The first option (sorted) that is not `taken`: a value the other twin may have."""
    rest = sorted(o for o in set(options) if o != taken)
    assert rest, f"nothing to vary {taken!r} with"
    return rest[0]


# Royals (spec §7, ruling R11): deck and intrigue cards drawn are the drawer's.
def _royals_deck_card(rules: GameRules, before: State, data: dict[str, Any]) -> dict[str, Any]:
    draw = next(d for d in data["draws"] if d["kind"] == "country" and d["source"] == "deck")
    draw["card"] = _other(before.deck, draw["card"])
    return data


def _royals_intrigue_card(rules: GameRules, before: State, data: dict[str, Any]
                          ) -> dict[str, Any]:
    draw = next(d for d in data["draws"] if d["kind"] == "intrigue")
    card = "+".join(sorted(draw["card"]))
    draw["card"] = _other(before.intrigue_deck, card).split("+")
    return data


# Thrones (spec §11): hands, draws, face-down setup cards and chosen plots.
def _thrones_setup_hand(rules: GameRules, before: State, data: dict[str, Any]
                        ) -> dict[str, Any]:
    """Seat 1 is dealt one other card: one its setup (seq 2) does not use, swapped with one
    of its deck that its setup draw (seq 4) does not draw."""
    hand = data["setup_hands"]["1"]
    kept_for_setup, drawn_later = {"p1-052"}, {"p1-042"}
    out = next(c for c in sorted(hand) if c not in kept_for_setup)
    after = rules.apply(before, Action.of("start_game", "table", data))
    into = _other(set(after.players[1].deck) - drawn_later, out)
    hand[hand.index(out)] = into
    return data


def _thrones_conceded_hand(rules: GameRules, before: State, data: dict[str, Any]
                           ) -> dict[str, Any]:
    """Seat 2 is dealt one other card: one its setup (seq 3) does not use, swapped with one
    of its deck that its setup draw (seq 5) does not draw; it concedes at seq 6."""
    hand = data["setup_hands"]["2"]
    out = next(c for c in sorted(hand) if c not in {"p2-108", "p2-110"})
    after = rules.apply(before, Action.of("start_game", "table", data))
    into = _other(set(after.players[2].deck) - {"p2-152", "p2-117"}, out)
    hand[hand.index(out)] = into
    return data


def _thrones_concede(rules: GameRules, before: State) -> list[dict[str, Any]]:
    """Seat 2 concedes (§6.17): its hand and decks leave the game unseen."""
    return [{"type": "concede", "actor": 2, "data": {}}]


def _thrones_setup_cards(rules: GameRules, before: State, data: dict[str, Any]
                         ) -> dict[str, Any]:
    """Seat 1 places another card face down: the first of its hand that setup accepts."""
    placed = [e["card"] for e in data["cards"]]
    for card in sorted(before.players[1].hand):
        if card in placed:
            continue
        other = {"cards": [{"card": card}]}
        try:
            rules.apply(before, Action.of("setup_cards", 1, other))
        except IllegalAction:
            continue
        return other
    raise AssertionError("seat 1 has no other card to set up")


def _thrones_setup_draw(rules: GameRules, before: State, data: dict[str, Any]
                        ) -> dict[str, Any]:
    drawn = data["draws"]["1"]
    drawn[0] = _other(set(before.players[1].deck) - set(drawn), drawn[0])
    return data


def _thrones_ability_draw(rules: GameRules, before: State) -> list[dict[str, Any]]:
    """Seat 1 draws a card by a card ability (an `effect` op, §9), in its marshalling: the
    table's ruling (ruling 29, issue #30), which redacts the draw as any effect does."""
    card = sorted(before.players[1].deck)[0]
    return [{"type": "effect", "actor": "table", "data": {
        "costs": [], "ops": [{"op": "draw", "seat": 1, "cards": [card]}], "source": None,
        "reason": "a draw the table rules"}}]


def _thrones_effect_draw(rules: GameRules, before: State, data: dict[str, Any]
                         ) -> dict[str, Any]:
    op = next(o for o in data["ops"] if o["op"] == "draw")
    op["cards"] = [_other(set(before.players[op["seat"]].deck), op["cards"][0])]
    return data


def _thrones_plot(rules: GameRules, before: State, data: dict[str, Any]) -> dict[str, Any]:
    return {"plot": _other(before.players[1].plot_deck, data["plot"])}


def _thrones_drawn(rules: GameRules, before: State, data: dict[str, Any]) -> dict[str, Any]:
    """Seat 1 draws another second card (one its first cards marshalled later do not need)."""
    drawn = data["draws"]["1"]
    drawn[-1] = _other(set(before.players[1].deck) - set(drawn), drawn[-1])
    return data


# Palais Royal (spec §8, rulings #13): drawn and kept privilege cards are the drawer's.
def _palais_drawn(rules: GameRules, before: State, data: dict[str, Any]) -> dict[str, Any]:
    cards = data["cards"]
    spare = [c for c in sorted(set(before.deck))
             if c != cards[0] and before.deck.count(c) > cards.count(c)]
    cards[0] = spare[0]
    return data


def _palais_kept(rules: GameRules, states: list[State], script: Script, at: int = 34
                 ) -> dict[int, dict[str, Any]]:
    """The kept card differs, and so the card drawn: the cards discarded (face up, §5.8) are
    the same in both twins."""
    draw, keep = copy.deepcopy(script[at]["data"]), copy.deepcopy(script[at + 1]["data"])
    before = states[at - 1]
    (kept,) = keep["kept"]
    spare = [c for c in sorted(set(before.deck))
             if c != kept and before.deck.count(c) > draw["cards"].count(c)]
    draw["cards"][draw["cards"].index(kept)] = spare[0]
    return {at: draw, at + 1: {"kept": [spare[0]]}}


def _palais_kept_late(rules: GameRules, states: list[State], script: Script
                      ) -> dict[int, dict[str, Any]]:
    """Seat 1 draws and keeps one card (seqs 221, 222); seat 0 is next to draw, 10 cards."""
    return _palais_kept(rules, states, script, at=221)


# In the Shadow of the Emperor (spec §8): a ballot is sealed until the last is cast.
def _emperor_ballot(rules: GameRules, before: State, data: dict[str, Any]) -> dict[str, Any]:
    return {"choice": "rival" if data["choice"] == "emperor" else "emperor"}


REGISTRY: tuple[Secret, ...] = (
    Secret("royals", "deck-card", "the country card seat 1 drew from the deck",
           "2_players", at=9, upto=9, owner=1, vary=_one(9, _royals_deck_card)),
    Secret("royals", "intrigue-card", "the intrigue card seat 1 drew",
           "2_players", at=27, upto=28, owner=1, vary=_one(27, _royals_intrigue_card)),
    Secret("thrones", "setup-hand", "a card of seat 1's setup hand",
           "2_players", at=1, upto=4, owner=1, vary=_one(1, _thrones_setup_hand)),
    Secret("thrones", "face-down-setup", "the card seat 1 set up face down",
           "2_players", at=2, upto=2, owner=1, vary=_one(2, _thrones_setup_cards)),
    Secret("thrones", "setup-draw", "the card seat 1 drew after setting up",
           "2_players", at=4, upto=4, owner=1, vary=_one(4, _thrones_setup_draw)),
    Secret("thrones", "effect-draw", "the card seat 1 drew by a card ability",
           "2_players", at=12, upto=12, owner=1, vary=_one(12, _thrones_effect_draw),
           extra=_thrones_ability_draw, modes=("table",)),
    Secret("thrones", "conceded-hand", "a card of seat 2's hand, which it conceded with",
           "3_players_effects", at=1, upto=6, owner=2, vary=_one(1, _thrones_conceded_hand),
           extra=_thrones_concede, extra_from=6),
    Secret("thrones", "plot", "the plot seat 1 chose face down",
           "2_players", at=5, upto=5, owner=1, vary=_one(5, _thrones_plot)),
    Secret("thrones", "draw", "a card seat 1 drew in the draw phase",
           "2_players", at=9, upto=11, owner=1, vary=_one(9, _thrones_drawn)),
    Secret("palais_royal", "drawn", "a privilege card seat 1 drew at the Back Door",
           "2_players", at=34, upto=34, owner=1, vary=_one(34, _palais_drawn)),
    Secret("palais_royal", "kept", "the privilege card seat 1 kept",
           "2_players", at=34, upto=37, owner=1, vary=_palais_kept),
    # issue #32: seat 0, about to draw 10 at the Back Door, types its own draw to probe
    Secret("palais_royal", "kept-before-a-draw",
           "the privilege card seat 1 kept, while seat 0 may draw next",
           "2_players", at=221, upto=225, owner=1, vary=_palais_kept_late),
    Secret("in_the_shadow_of_the_emperor", "ballot", "seat 2's sealed ballot",
           "4_players", at=52, upto=52, owner=2, vary=_one(52, _emperor_ballot),
           sealed_from_table=True),
)
MODES = ("table", "digital")


# -- scripts ---------------------------------------------------------------------------------------
def fixture_script(secret: Secret) -> tuple[dict[str, Any], Script]:
    """game_created's data, its options as the server stores them for a new game (every
    default filled: events/writing.py), and the fixture's actions 1..upto, by seq."""
    path = ROOT / "fixtures" / secret.game / f"{secret.fixture}.jsonl"
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    first = envelopes[0]["data"]
    envelopes[0]["data"] = {**first, "options": {**GAMES[secret.game].default_options,
                                                 **(first.get("options") or {})}}
    start = secret.at if secret.extra_from is None else secret.extra_from
    last = secret.upto if secret.extra is None else start - 1
    script = {e["seq"]: {k: e[k] for k in ("seq", "type", "actor", "data")}
              for e in envelopes[1: last + 1]}
    if secret.extra is not None:
        rules = get_rules(secret.game)
        before = fold(rules, {**envelopes[0]["data"], "mode": "table"}, script)[-1]
        for seq, act in enumerate(secret.extra(rules, before), start=start):
            script[seq] = {"seq": seq, **act}
        assert max(script) == secret.upto, "the extra moves must end at upto"
    return envelopes[0]["data"], script


def fold(rules: GameRules, created: Mapping[str, Any], script: Script) -> list[State]:
    """states[i]: the state after seq i (states[0] after game_created)."""
    states = [rules.initial_state(created)]
    for seq in sorted(script):
        act = script[seq]
        states.append(rules.apply(states[-1], Action.of(act["type"], act["actor"], act["data"])))
    return states


def twin_scripts(secret: Secret, mode: str = "table") -> tuple[dict[str, Any], Script, Script]:
    """The fixture's script and its twin: equal but for `secret.vary`; in digital play
    with the answers the seats give that a table never records (`answered`)."""
    created, script = fixture_script(secret)
    rules = get_rules(secret.game)
    states = fold(rules, {**created, "mode": "table"}, script)
    varied = secret.vary(rules, states, script)
    other = {seq: ({**act, "data": varied[seq]} if seq in varied else act)
             for seq, act in script.items()}
    assert set(varied) and all(other[s]["data"] != script[s]["data"] for s in varied)
    fold(rules, {**created, "mode": "table"}, other)  # the twin is a legal game too
    if mode == "digital":
        script, other = (answered(rules, created, v)[0] for v in (script, other))
    return created, script, other


def seqs_in(secret: Secret, mode: str) -> tuple[int, int]:
    """Where the secret's `at` and `upto` are recorded in `mode`: in digital play after
    the answers `answered` puts before them."""
    if mode != "digital":
        return secret.at, secret.upto
    created, script = fixture_script(secret)
    _, moved = answered(get_rules(secret.game), created, script)
    return moved[secret.at], moved[secret.upto]


def answered(rules: GameRules, created: Mapping[str, Any], script: Script
             ) -> tuple[Script, dict[int, int]]:
    """The script as digital play records it: where the rules wait for a seat's answer
    that a table never records (a revealed plot's choice, ruling 32; an answer to a
    window, ruling 35), so that they refuse the script's next move, the seat asked gives
    its first listed legal move - what the rules offer it, never a move made up here -
    its chance dealt as the server would. The script renumbered, and each old seq's new."""
    state = rules.initial_state({**created, "mode": "digital"})
    out: Script = {}
    moved: dict[int, int] = {}
    for old in sorted(script):
        act = script[old]
        for _ in range(8):
            if _accepted(rules, state, act) is not None:
                break
            asked = [a for a in rules.to_act(state) if a != "table"]
            offered = rules.legal_actions(state, asked[0]) if asked else []
            assert offered, f"seq {old}: the rules refuse the script's {act['type']} and " \
                            "offer nobody an answer"
            answer = _dealt(rules, state, offered[0], len(out) + 1)
            out[len(out) + 1] = {"seq": len(out) + 1, **answer}
            state = rules.apply(state, Action.of(answer["type"], answer["actor"],
                                                 answer["data"]))
        after = _accepted(rules, state, act)
        assert after is not None, f"seq {old}: the rules still refuse {act}"
        moved[old] = len(out) + 1
        out[moved[old]] = {**act, "seq": moved[old]}
        state = after
    return out, moved


def _accepted(rules: GameRules, state: State, act: Mapping[str, Any]) -> State | None:
    try:
        return rules.apply(state, Action.of(act["type"], act["actor"], act["data"]))
    except IllegalAction:
        return None


def _dealt(rules: GameRules, state: State, move: Mapping[str, Any], seq: int
           ) -> dict[str, Any]:
    """A listed move with its chance filled (the scripted dealer gives it back)."""
    action = Action.of(move["type"], move["actor"], move["data"])
    data = thaw(move["data"])
    if rules.chance_fields.get(move["type"]):
        data = rules.fill_chance(state, action, Dealer("twins", seq))
    return {"type": move["type"], "actor": move["actor"], "data": dict(data)}


# -- the scripted dealer ---------------------------------------------------------------------------
class ScriptedDealer:
    """In digital play the server fills chance outcomes with `fill_chance`; while a twin is
    recorded, the game's `fill_chance` answers from the twin's script instead, so two digital
    games can differ in exactly one dealt card. Used in-process only (the test client)."""

    def __init__(self, slug: str) -> None:
        self.cls = GAMES[slug]
        self.pending: list[dict[str, Any]] = []
        self.misses: list[str] = []

    def fill(self, rules: GameRules, state: State, action: Action, dealer: Dealer
             ) -> dict[str, Any]:
        for act in self.pending:
            if act["type"] == action.type and act["actor"] == action.actor:
                return copy.deepcopy(act["data"])
        self.misses.append(f"{action.type} by {action.actor!r}")
        raise AssertionError(f"the script deals no {action.type} by {action.actor!r} now")

    @contextmanager
    def active(self) -> Iterator[ScriptedDealer]:
        own = self.cls.__dict__.get("fill_chance")
        dealer = self

        def fill_chance(rules: GameRules, state: State, action: Action, d: Dealer
                        ) -> dict[str, Any]:
            return dealer.fill(rules, state, action, d)

        self.cls.fill_chance = fill_chance  # type: ignore[method-assign]
        try:
            yield self
        finally:
            if own is not None:
                self.cls.fill_chance = own  # type: ignore[method-assign]
            else:
                del self.cls.fill_chance


# -- games over HTTP -------------------------------------------------------------------------------
@dataclass
class Game:
    """A game created through the API, with its tokens and the replies its POSTs got."""

    id: str
    recorder: str
    seats: list[str]
    mode: str
    #: (token, label, raw answer) of every POST made while recording it
    replies: list[tuple[str | None, str, Raw]] = field(default_factory=list)
    keys: dict[int, tuple[Any, str]] = field(default_factory=dict)  # seq -> (actor, key)


@dataclass(frozen=True)
class Raw:
    status: int
    content_type: str
    body: str


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def http(client: Any, method: str, url: str, token: str | None = None,
         headers: Mapping[str, str] | None = None, body: Any = None) -> Raw:
    kwargs: dict[str, Any] = {"headers": {**auth(token), **(headers or {})}}
    if body is not None:
        kwargs["json"] = body
    r = client.open(url, method=method, **kwargs)
    try:
        text = r.get_data(as_text=True)
    finally:
        r.close()
    return Raw(r.status_code, r.headers.get("Content-Type", ""), text)


def create(client: Any, created: Mapping[str, Any], mode: str) -> Game:
    body = {"game": created["game"], "players": list(created["players"]), "mode": mode,
            "options": dict(created.get("options") or {})}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.get_json()
    doc = r.get_json()
    return Game(doc["id"], doc["recorder_token"], list(doc["seat_tokens"]), mode)


def stored(rec: Any, game_id: str) -> list[dict[str, Any]]:
    return list(rec.store.events(game_id))


def record_script(client: Any, rec: Any, game: Game, script: Script, upto: int,
                  dealer: ScriptedDealer | None = None) -> None:
    """Record script[1..upto] through the API: each seat's move with its token, the table's
    with the recorder's, each with an Idempotency-Key; in digital play only what the server
    does not do itself, chance left out for the (scripted) dealer."""
    rules = get_rules(rec.game(game.id)["game"])
    for seq in range(1, upto + 1):
        act = script[seq]
        if len(stored(rec, game.id)) > seq:
            continue  # the server made it (digital play)
        data = act["data"]
        typed_by_table = game.mode == "table" and rules.names_unseen(
            Action.of(act["type"], act["actor"], data))  # engine ruling 16
        token = game.recorder if act["actor"] == "table" or typed_by_table \
            else game.seats[act["actor"]]
        if game.mode == "digital" and rules.chance_fields.get(act["type"]):
            data = rules.strip_chance(Action.of(act["type"], act["actor"], data))
        if dealer is not None:
            dealer.pending = [script[s] for s in range(seq, upto + 1)]
        key = f"oracle-{seq}"
        raw = http(client, "POST", f"/games/{game.id}/events", token,
                   {"Idempotency-Key": key}, {"type": act["type"], "actor": act["actor"],
                                              "data": data})
        assert raw.status == 201, (seq, act, raw.body[:2000])
        game.replies.append((token, f"POST /events (recording seq {seq})", raw))
        game.keys[seq] = (act["actor"], key)
    events = stored(rec, game.id)
    assert len(events) == upto + 1, f"the server went on past seq {upto}: {events[upto + 1:]}"
    for env in events[1:]:
        want = as_stored(rules, game.mode, script[env["seq"]])
        assert (env["type"], env["actor"], thaw(env["data"])) == (
            want["type"], want["actor"], want["data"]), (env, want)


def as_stored(rules: GameRules, mode: str, act: dict[str, Any]) -> dict[str, Any]:
    """A scripted move as chronicle stores it when `record_script` sends it: at a table, a
    move a seat may seal cast with that seat's token is marked sealed (issue #32)."""
    if mode == "table" and act["type"] in rules.sealed_types and act["actor"] != "table" \
            and not rules.names_unseen(Action.of(act["type"], act["actor"], act["data"])):
        return {**act, "data": {**act["data"], "sealed": True}}
    return act


@dataclass
class Twins:
    """Two games alike but for one hidden value, and a third table game to compare them with."""

    secret: Secret
    mode: str
    a: Game
    b: Game
    third: str
    #: seqs whose stored data differs between the twins (the events holding the value)
    differing: frozenset[int]
    #: the seqs of the secret's `at` and `upto` as recorded in this mode (`seqs_in`)
    at: int
    upto: int

    @property
    def id(self) -> str:
        return f"{self.secret.id}-{self.mode}"


def build_twins(client: Any, rec: Any, secret: Secret, mode: str, third: str) -> Twins:
    created, script, other = twin_scripts(secret, mode)
    at, upto = seqs_in(secret, mode)
    games = []
    for version in (script, other):
        dealer = ScriptedDealer(secret.game) if mode == "digital" else None
        if dealer is None:
            game = create(client, created, mode)
            record_script(client, rec, game, version, upto)
        else:
            with dealer.active():
                dealer.pending = [version[1]]
                game = create(client, created, mode)
                record_script(client, rec, game, version, upto, dealer)
            assert not dealer.misses, dealer.misses
        games.append(game)
    a, b = (stored(rec, g.id) for g in games)
    differing = frozenset(x["seq"] for x, y in zip(a, b, strict=True)
                          if x["seq"] > 0 and thaw(x["data"]) != thaw(y["data"]))
    return Twins(secret, mode, games[0], games[1], third, differing, at, upto)


def build_third(client: Any, rec: Any, secret: Secret) -> str:
    """A table game of the same fixture, up to just before the hidden value: compared with a
    twin it names the twin's next action, which holds the value."""
    created, script = fixture_script(secret)
    game = create(client, created, "table")
    record_script(client, rec, game, script, secret.at - 1)
    return game.id


# -- observers -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Observer:
    """Who asks: a seat token, no token, or the recorder token."""

    kind: str  # "seat" | "spectator" | "recorder"
    seat: int | None = None

    @property
    def label(self) -> str:
        return f"seat {self.seat}" if self.kind == "seat" else self.kind

    def token(self, game: Game) -> str | None:
        if self.kind == "seat":
            assert self.seat is not None
            return game.seats[self.seat]
        return game.recorder if self.kind == "recorder" else None

    @property
    def actor(self) -> Any:
        return self.seat if self.kind == "seat" else "table"

    def viewer(self, mode: str, seals: bool = False) -> Any:
        """Whose eyes the rules say this observer has (docs/design.md, "Access and tokens";
        `seals`: the game lets seats seal moves from the table's recorder)."""
        if self.kind == "seat":
            return self.seat
        if self.kind == "recorder" and mode == "table":
            return TABLE if seals else ALL
        return None


def observers(secret: Secret, mode: str, players: int) -> list[Observer]:
    """Everyone who must not see the value: the other seats, a spectator, and in digital play
    the recorder (who there sees what a spectator sees)."""
    out = [Observer("seat", s) for s in range(players) if s != secret.owner]
    out.append(Observer("spectator"))
    if mode == "digital" or secret.sealed_from_table:
        out.append(Observer("recorder"))
    return out


def seers(secret: Secret, mode: str) -> list[Observer]:
    """Who may see the value: its owner, and at the table the recorder (who types it)."""
    out = [Observer("seat", secret.owner)]
    if mode == "table" and not secret.sealed_from_table:
        out.append(Observer("recorder"))
    return out


# -- normalising -----------------------------------------------------------------------------------
_HASHES = re.compile(r'"(hash|prev_hash|seed_commitment|salt)":(\s*)"[^"]*"')
_TIMES = re.compile(r'"(recorded_at|created_at|updated_at)":(\s*)"[^"]*"')
_KEEPALIVE = re.compile(r"^:.*\n\n", re.M)


def normalise(text: str, names: Mapping[str, str]) -> str:
    """The answer with only what differs between any two games replaced: game ids and tokens
    (by `names`), hashes, salts and times (by key). A salt's presence stays visible."""
    for value, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(value, name)
    text = _HASHES.sub(lambda m: f'"{m[1]}":{m[2]}"<{m[1]}>"', text)
    text = _TIMES.sub(lambda m: f'"{m[1]}":{m[2]}"<time>"', text)
    return _KEEPALIVE.sub("", text)  # stream keep-alives come as the clock says


def names_of(game: Game, third: str | None = None) -> dict[str, str]:
    """What to replace in a twin's answers: its id and tokens, and the third game's id."""
    names = {game.id: "<game>", game.recorder: "<recorder token>"}
    names |= {t: f"<seat {i} token>" for i, t in enumerate(game.seats)}
    if third:
        names[third] = "<third game>"
    return names


def documents(text: str) -> Any:
    """An answer's JSON: one document, JSON Lines, or the data of server-sent events."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and all(ln.startswith("{") for ln in lines):
        try:
            return [json.loads(ln) for ln in lines]
        except ValueError:
            return text
    if any(ln.startswith("data: ") for ln in lines):  # server-sent events: their payloads
        out: list[Any] = []
        for ln in lines:
            if ln.startswith("data: "):
                try:
                    out.append(json.loads(ln[6:]))
                except ValueError:
                    out.append(ln)
        return out
    return text


def differences(x: Any, y: Any, path: str = "", limit: int = 3) -> list[str]:
    """Where two JSON values differ, as paths with both values (at most `limit`)."""
    out: list[str] = []
    if type(x) is not type(y):
        return [f"{path or '.'}: {_short(x)} vs {_short(y)}"]
    if isinstance(x, dict):
        for k in sorted(set(x) | set(y), key=str):
            if k not in x or k not in y:
                side = "only in twin A" if k in x else "only in twin B"
                out.append(f"{path}.{k}: {side} ({_short(x.get(k, y.get(k)))})")
            else:
                out += differences(x[k], y[k], f"{path}.{k}", limit)
            if len(out) >= limit:
                return out[:limit]
    elif isinstance(x, list):
        for i, (p, q) in enumerate(zip(x, y, strict=False)):
            out += differences(p, q, f"{path}[{i}]", limit)
            if len(out) >= limit:
                return out[:limit]
        if len(x) != len(y) and len(out) < limit:
            out.append(f"{path}: {len(x)} vs {len(y)} items")
    elif x != y:
        if isinstance(x, str) and isinstance(y, str) and "\n" in x + y:
            a, b = x.splitlines(), y.splitlines()
            i = next((i for i, (p, q) in enumerate(zip(a, b, strict=False)) if p != q),
                     min(len(a), len(b)))
            return [f"{path or '.'} line {i + 1}: {_short(a[i] if i < len(a) else None)} vs "
                    f"{_short(b[i] if i < len(b) else None)}"]
        out.append(f"{path or '.'}: {_short(x)} vs {_short(y)}")
    return out[:limit]


def _short(value: Any, width: int = 90) -> str:
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def served_salts(doc: Any, seqs: frozenset[int]) -> list[int]:
    """Seqs of the envelopes of game <game> in `doc` that still carry their salt."""
    found: list[int] = []
    if isinstance(doc, dict):
        if doc.get("game_id") == "<game>" and doc.get("seq") in seqs and "salt" in doc:
            found.append(doc["seq"])
        for value in doc.values():
            found += served_salts(value, seqs)
    elif isinstance(doc, list):
        for value in doc:
            found += served_salts(value, seqs)
    return found


def is_legal_now(rules: GameRules, state: State, body: Mapping[str, Any], mode: str) -> bool:
    """Whether chronicle might record `body` (so a refusal probe must not send it): the
    rules accept it, with its chance dealt in digital play."""
    if body.get("type") in META_TYPES or body.get("type") not in rules.action_schemas:
        return body.get("type") in ("note",)
    action = Action.of(body["type"], body["actor"], body.get("data") or {})
    try:
        if mode == "digital" and rules.chance_fields.get(action.type):
            action = Action.of(action.type, action.actor,
                               rules.fill_chance(state, action, Dealer("probe", 1)))
        rules.apply(state, action)
    except Exception:  # refused, or data too malformed to apply: a refusal either way
        return False
    return True


def rules_level_differences(secret: Secret, mode: str, who: Observer) -> list[str]:
    """Where the rules themselves would show `who` something of the value: its view at some
    step, or an event as redacted for it (or its description) differs between the twin
    scripts. Empty for a well-made pair of twins; checked before any HTTP is asked."""
    created, script, other = twin_scripts(secret, mode)
    created = {**created, "mode": mode}
    rules = get_rules(secret.game)
    script, other = ({s: as_stored(rules, mode, a) for s, a in v.items()}
                     for v in (script, other))
    viewer = who.viewer(mode, bool(rules.sealed_types))
    out = []
    states = [fold(rules, created, s) for s in (script, other)]
    for n in range(seqs_in(secret, mode)[1] + 1):
        a, b = (rules.view(s[n], viewer) for s in states)
        out += [f"view at {n}: {d}" for d in differences(a, b)]
    for seq in sorted(script):
        shown = []
        for version, folded in ((script, states[0]), (other, states[1])):
            act = version[seq]
            action = Action.of(act["type"], act["actor"], act["data"])
            hidden = rules.redact(action, viewer, folded[seq - 1])
            shown.append((thaw(hidden) if hidden is not None else act["data"],
                          rules.describe(action, created["players"])))
        out += [f"seq {seq} as shown: {d}" for d in differences(shown[0], shown[1])]
    return out


def secret_types(secret: Secret) -> frozenset[str]:
    """The action types of the events a secret's twins differ in."""
    _, script, other = twin_scripts(secret)
    return frozenset(script[s]["type"] for s in script if script[s] != other[s])


def what_the_rules_hide(slug: str) -> tuple[bool, set[str]]:
    """Over a game's recorded fixtures: whether any viewer's view of some state differs from
    the full one, and the action types whose data `redact` hides from some viewer. A game
    that hides anything must have secrets in `REGISTRY`, one for each such type."""
    from projections.replay import Folder, to_action

    rules = get_rules(slug)
    views_differ, kinds = False, set()
    for path in sorted((ROOT / "fixtures" / slug).glob("*.jsonl")):
        envelopes = [json.loads(ln) for ln in path.read_text("utf-8").splitlines() if ln]
        folder = Folder(rules, envelopes[0]["data"].get("mode", "table"))
        viewers = [*range(len(envelopes[0]["data"]["players"])), None]
        for env in envelopes:
            before = folder.last
            if before is not None and env["type"] not in META_TYPES and env["type"] not in kinds:
                action = to_action(env)
                if any(rules.redact(action, v, before.state) is not None for v in viewers):
                    kinds.add(env["type"])
            state = folder.feed(env).state
            if not views_differ and rules.result(state) is None:
                full = rules.view(state, ALL)
                views_differ = any(rules.view(state, v) != full for v in viewers)
    return views_differ, kinds
