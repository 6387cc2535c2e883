"""Who acts now, what they may do, and the choices that build each action.

The choices (`<type>_steps`, projections/choices.py) are what every interface builds a
move from: exactly the legal moves, asked one choice at a time in words. `legal_actions`
stays a representative finite subset (§12), for random playouts only; where the true
action space is huge, it lists:
- setup: no cards, each affordable card alone, and greedy fills starting from each card;
- marshalling: each card of the hand that can be marshalled (attachments on up to three
  hosts), duplicates, and ending the turn;
- challenges: for each type and opponent, all eligible attackers or each one alone;
  defenders likewise (all, each alone, none where allowed); stealth once, as a greedy
  assignment; claim and deadly choices as up to four combinations;
- effects are never listed (they are card text, recorded by players);
- `concede` only from round CONCEDE_ROUND on, at the plot choice, so random games end by power.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from ..choices import DONE, Choice, Done, Made, Option, Step
from ..messages import M, Name, Seq, capitalised
from ..rules import Action, Actor, IllegalAction, possessive, seat_name
from .apply import abilities as ab
from .apply import (
    apply_concede,
    apply_end_challenges,
    apply_end_marshalling,
    apply_end_round,
    apply_resolve_dominance,
    dealt,
    revealed,
)
from .apply.challenges import (
    can_attack,
    challenge_allowed,
    eligible_defenders,
    redirect_problem,
    take_problem,
)
from .apply.claims import claim_victims, deadly_victims, extra_opponent_options, pending_need
from .apply.revealed import apply_use_ability
from .apply.rounds import apply_marshal_card, plot_source
from .apply.setup import check_setup
from .apply.text import text_of
from .apply.titles import holder
from .apply.turns import greedy_stealth, to_act
from .apply.values import (
    check_unique,
    controls_name,
    has_keyword,
    marshal_cost,
    play_index,
    surcharge,
)
from .apply.victory import chooser
from .apply.windows import apply_pass_window, dealt_forced, forced_moves
from .apply.zones import in_play
from .edition import CardId, Components, Seat
from .state import TYPES, Challenge, State
from .words import CHALLENGE_TYPES, KEYWORDS, joined, words

CONCEDE_ROUND = 25
HOUSE_ORDER = ("Stark", "Lannister", "Baratheon", "Targaryen")
Proposal = dict[str, Any]


def act(kind: str, actor: object, data: dict[str, Any] | None = None) -> Proposal:
    """A listed action: `{"type", "actor", "data"}`."""
    return {"type": kind, "actor": actor, "data": data or {}}


# ---------------------------------------------------------------------------
# Who acts
# ---------------------------------------------------------------------------


def auto_action(state: State, ed: Components) -> Proposal | None:
    """Chance events nobody chooses: the setup draw, the draw phase, an initiative tie, and
    in digital play a forced ability that asks nothing but takes cards by chance, which the
    server uses for its owner with the chance it deals (ruling 39: Ser Jacelyn Bywater); no
    deal while a window waits for an answer (ruling 35: a plot's kill at the end of the plot
    phase is answered before the draw)."""
    if state.pending_winner or state.winner is not None:
        return None
    forced = dealt_forced(state, ed)
    if forced is not None:
        return act("use_ability", *forced)
    if state.window is not None and state.window.waiting:
        return None  # a seat answers first (ruling 35), then the deal
    if state.phase == "setup_draw":
        return act("setup_draw", "table")
    if state.phase == "draw":
        return act("draw_phase", "table")
    if state.phase == "plot" and state.step == "tie":
        return act("break_initiative_tie", "table")
    return None


# ---------------------------------------------------------------------------
# What they may do
# ---------------------------------------------------------------------------


def legal_actions(state: State, seat: Actor | None, ed: Components) -> list[Proposal]:
    """Every listed legal action for `seat` (None: every actor in to_act)."""
    actors = [a for a in to_act(state, ed) if seat is None or a == seat]
    out: list[Proposal] = []
    for actor in actors:
        out.extend(_legal_for(state, actor, ed))
    return out


def _window_moves(state: State, actor: Any, ed: Components) -> list[Proposal]:
    """A digital window waiting on `actor`: a pass, or each forced answer it must give."""
    assert state.window is not None
    if state.window.stage == "forced":
        return [act("use_ability", actor, d) for d in forced_moves(state, actor, ed)]
    return [act("pass_window", actor)]


def _valid(state: State, candidates: list[Proposal], ed: Components) -> list[Proposal]:
    good = []
    for cand in candidates:
        try:
            apply_marshal_card(state, Action.of(cand["type"], cand["actor"], cand["data"]), ed)
        except IllegalAction:
            continue
        good.append(cand)
    return good


def _waiting_moves(state: State, actor: Any, ed: Components) -> list[Proposal] | None:
    """The moves while the game waits on one choice (None: it does not wait): the winner
    among several, a revealed plot's choice (rulings 32, 33), an answer or a pass (35)."""
    if state.pending_winner:
        return [act("choose_winner", actor, {"winner": s}) for s in state.pending_winner]
    if state.window is not None and state.window.waiting:  # before a plot's next choice
        return _window_moves(state, actor, ed)
    if state.pick is not None or state.revealing:
        return _walked_use(state, actor, ed)
    return None


def _legal_for(state: State, actor: Any, ed: Components) -> list[Proposal]:
    waiting = _waiting_moves(state, actor, ed)
    if waiting is not None:
        return waiting
    phase = state.phase
    if phase == "start":
        return _legal_start(state)
    if phase == "setup":
        return _legal_setup(state, actor, ed)
    if phase in ("setup_draw", "draw"):
        return [act(phase if phase == "setup_draw" else "draw_phase", "table")]
    if phase == "plot":
        return _legal_plot(state, actor, ed)
    if phase == "marshalling":
        return _legal_marshal(state, actor, ed)
    if phase == "challenges":
        return _legal_challenges(state, actor, ed)
    if phase == "dominance":
        return [act("end_round" if state.dominance_done else "resolve_dominance", "table")]
    if phase == "standing":  # its start answered (apply/standing.py)
        return [act("end_round", "table")]
    return []


def _walked_use(state: State, actor: Any, ed: Components) -> list[Proposal]:
    """While a revealed plot waits for a choice (rulings 32, 33): one use, the first option
    of each choice (a list ended once nothing more is offered)."""
    made = Made()
    for _ in range(100):
        step = use_ability_steps(state, actor, made, ed)
        if step is None:
            return []
        if isinstance(step, Done):
            return [act("use_ability", actor, {**dict(made.data), **dict(step.fixed)})]
        if step.options:
            made = made.picking(step, step.options[0].value)
        elif step.kind != "one" and step.can_end:
            made = made.ending(step)
        else:
            return []
    return []


def _legal_start(state: State) -> list[Proposal]:
    out = []
    for shift in range(len(HOUSE_ORDER)):
        houses = [HOUSE_ORDER[(shift + s) % len(HOUSE_ORDER)] for s in range(state.n)]
        players = [{"seat": s, "name": state.names[s], "house": h}
                   for s, h in enumerate(houses)]
        out.append(act("start_game", "table", {"players": players}))
    return out


def _fits_setup(state: State, seat: Seat, cards: list[CardId], ed: Components) -> bool:
    try:
        check_setup(state, seat, [(c, None) for c in cards], ed)
    except IllegalAction:
        return False
    return True


def _legal_setup(state: State, actor: Seat, ed: Components) -> list[Proposal]:
    player = state.players[actor]
    hand = sorted(set(player.hand))
    cands: list[list[CardId]] = [[]] + [[c] for c in hand]
    for i in range(len(hand)):
        pick: list[CardId] = []
        for card in hand[i:] + hand[:i]:
            if _fits_setup(state, actor, [*pick, card], ed):
                pick.append(card)
        cands.append(pick)
    seen, out = set(), []
    for cards in cands:
        key = tuple(sorted(cards))
        if key in seen:
            continue
        seen.add(key)
        if _fits_setup(state, actor, cards, ed):
            out.append(act("setup_cards", actor, {"cards": [{"card": c} for c in cards]}))
    if state.option("allow_mulligan") and not player.mulliganed:
        out.append(act("mulligan", actor))
    return out


def _legal_plot(state: State, actor: Seat, ed: Components) -> list[Proposal]:
    if state.step == "tie":
        return [act("break_initiative_tie", "table")]
    if state.step == "first_player":
        return [act("choose_first_player", actor, {"first_player": s}) for s in state.active]
    if state.step == "titles":
        return [act("choose_title", actor, {"title": t}) for t in ed.titles
                if t not in state.titles]
    source = plot_source(state, actor)
    house = state.players[actor].house
    out = [act("choose_plot", actor, {"plot": p})
           for p in sorted(set(state.players[source].plot_deck))
           if ed.card(p).house_only in (None, house)]
    if state.round >= CONCEDE_ROUND:
        out.append(act("concede", actor))
    return out


def _legal_marshal(state: State, actor: Seat, ed: Components) -> list[Proposal]:
    player = state.players[actor]
    cands: list[Proposal] = []
    out: list[Proposal] = []
    hosts = [c.id for c in state.cards if c.host is None and ed.is_character(c.id)]
    for card in sorted(set(player.hand)):
        data = ed.card(card)
        if data.type not in ("character", "location", "attachment"):
            continue
        if data.unique and controls_name(state, actor, data.name, ed):
            cands.append(act("marshal_card", actor, {"card": card, "as_duplicate": True}))
            continue
        if data.type == "attachment":
            mine = [h for h in hosts if in_play(state, h, ed).controller == actor]
            others = [h for h in hosts if h not in mine]
            for host in (mine[:2] + others[:1]):
                cands.append(act("marshal_card", actor, {"card": card, "attach_to": host}))
            continue
        if _can_marshal(state, actor, card, ed):
            out.append(act("marshal_card", actor, {"card": card}))
    return [*out, *_valid(state, cands, ed), act("end_marshalling", actor)]


def _can_marshal(state: State, seat: Seat, card: CardId, ed: Components) -> bool:
    """A cheap pre-check of a plain marshal (§6.10) without building the next state."""
    player = state.players[seat]
    data = ed.card(card)
    if "limited" in data.keywords and player.limited_played:
        return False
    if data.house_only not in (None, player.house):
        return False
    if marshal_cost(state, seat, card, ed)[0] > player.gold:
        return False
    try:
        check_unique(state, seat, card, ed)
    except IllegalAction:
        return False
    return True


def _legal_challenges(state: State, actor: Seat, ed: Components) -> list[Proposal]:
    ch = state.challenge
    if ch is None:
        return [*_legal_declare(state, actor, ed), act("end_challenges", actor)]
    if ch.step == "attackers_declared":
        return _legal_attackers_declared(state, ch, actor, ed)
    if ch.step == "defenders_declared":
        out = []
        if actor == ch.attacker:
            out.append(act("resolve_challenge", actor))
        if take_problem(state, ch, actor) is None:
            out.append(act("take_challenge", actor))
        return out
    return _legal_pending(state, ch, actor, ed)


def _legal_declare(state: State, seat: Seat, ed: Components) -> list[Proposal]:
    index = play_index(state)
    out: list[Proposal] = []
    for kind in TYPES:
        ready = [c.id for c in state.cards if can_attack(state, seat, c.id, kind, index, ed)]
        if not ready:
            continue
        groups = [ready] + ([[c] for c in ready[:3]] if len(ready) > 1 else [])
        for defender in state.active:
            if challenge_allowed(state, seat, kind, defender, ed) is not None:
                continue
            out.extend(act("declare_challenge", seat, {"type": kind, "defender": defender,
                                                       "attackers": g}) for g in groups)
    return out


def _legal_attackers_declared(state: State, ch: Challenge, actor: Seat, ed: Components
                              ) -> list[Proposal]:
    out = []
    if actor == ch.defender:
        eligible = eligible_defenders(state, ch, ed)
        groups = [eligible] + ([[c] for c in eligible[:3]] if len(eligible) > 1 else [])
        if not eligible or not state.option("defense_compulsory"):
            groups.append([])
        seen = set()
        for group in groups:
            if tuple(group) not in seen:
                seen.add(tuple(group))
                out.append(act("declare_defenders", actor, {"defenders": group}))
    if actor == ch.attacker and not ch.stealth:
        bypass = greedy_stealth(state, ch, ed)
        if bypass:
            out.append(act("assign_stealth", actor, {"bypass": bypass}))
    if state.is_melee and holder(state, "crown_regent") == actor:
        out.extend(act("redirect_challenge", actor, {"new_defender": s})
                   for s in state.active
                   if redirect_problem(state, ch, actor, s, ed) is None)
    return out


def _legal_pending(state: State, ch: Challenge, actor: Seat, ed: Components
                   ) -> list[Proposal]:
    kind, seat = ch.pending[0]
    need = pending_need(state, ch, kind, seat, ed)
    if kind == "targets":
        options = extra_opponent_options(state, ch, ed)
        return [act("choose_claim_targets", actor, {"extra_opponents": []}),
                act("choose_claim_targets", actor, {"extra_opponents": options})]
    if kind == "claim" and ch.type == "intrigue":
        return [act("apply_claim", actor)]
    pool = claim_victims(state, ch, seat, ed) if kind == "claim" else \
        deadly_victims(state, ch, seat, ed)
    name = "apply_claim" if kind == "claim" else "apply_deadly"
    out: list[Proposal] = []
    for combo in list(combinations(pool, need))[:4]:
        out.append(act(name, actor, {"kills": list(combo)}))
    dup = [c for c in pool if in_play(state, c, ed).duplicates]
    if dup and need:
        kills = [dup[0], *[c for c in pool if c != dup[0]][:need - 1]]
        out.append(act(name, actor, {"kills": kills,
                                     "saves": [{"card": dup[0], "by": "duplicate"}]}))
    return out


# ---------------------------------------------------------------------------
# The choices of each action (projections/choices.py)
# ---------------------------------------------------------------------------
#
# Each `<type>_steps(state, actor, made, ed)` says what is asked next for the data chosen
# so far: a Choice, DONE (or Done with the fields nobody chooses), or None when `actor`
# cannot take the action now. Where a move's last check is the rule itself (a turn, a
# phase), the rule is asked (`_accepts`), so the check is not written twice.

Rule = Callable[[State, Action, Components], State]


def _accepts(rule: Rule, state: State, kind: str, actor: Actor, data: dict[str, Any],
             ed: Components) -> bool:
    """Whether the reducer accepts this move now (an ability's chance, not dealt yet, as
    any cards its piles hold: ruling 34)."""
    if kind == "use_ability" and not any(data.get(f) for f in dealt.FIELDS):
        data = {**data, **dealt.probe(state, actor, data, ed)}
    try:
        rule(state, Action.of(kind, actor, data), ed)
    except IllegalAction:
        return False
    return True


def _playing(state: State) -> bool:
    """The game is on, no simultaneous victory waits to be chosen (§7.7) and no window
    waits for an answer (ruling 35: then only an answer or a pass)."""
    return state.winner is None and not state.pending_winner and bool(state.players) \
        and not (state.window is not None and state.window.waiting)


def _done_if(rule: Rule, state: State, kind: str, actor: Actor, ed: Components) -> Step:
    """An action without data: complete at once when the rule accepts it."""
    return DONE if _accepts(rule, state, kind, actor, {}, ed) else None


def _who(state: State, seat: Any) -> str:
    return seat_name(state.names, seat)


def card_detail(card: CardId, ed: Components, house: str | None = None) -> str:
    """The printed values a player looks for beside a card's name: "cost 3 · STR 4 ·
    military, power"; the out-of-house surcharge where it applies (§3)."""
    data = ed.card(card)
    parts: list[str] = []
    if data.type in ("character", "location", "attachment", "event"):
        extra = surcharge(data, house, ed) if house else 0
        parts.append(M("cost {cost} +{extra} out of house", cost=data.cost, extra=extra)
                     if extra else M("cost {cost}", cost=data.cost))
    if data.type == "character":
        parts.append(M("STR {strength}", strength=data.strength))
        if data.icons:
            parts.append(Seq((CHALLENGE_TYPES.get(i, i) for i in data.icons), "comma"))
    if data.unique:
        parts.append(KEYWORDS["unique"])
    if "limited" in data.keywords:
        parts.append(KEYWORDS["limited"])
    return Seq(parts, "dot")


GROUPS = {"character": M("Characters"), "location": M("Locations"),
          "attachment": M("Attachments"), "event": M("Events"), "plot": M("Plots")}


#: the prompts of the attackers and defenders, and of those among them that do not kneel
SIDE_PROMPTS = {"attack": (M("Attackers"), M("Attackers that do not kneel")),
                "defend": (M("Defenders"), M("Defenders that do not kneel"))}
#: where the source of an ability is, as the group of its option
SOURCE_GROUPS = {"play": M("In play"), "hand": M("Hand"), "discard": M("Discard"),
                 "dead": M("Dead"), "plot": M("Plot"), "title": M("Title"),
                 "house": M("House card")}
CARD_SOURCE_GROUPS = {**SOURCE_GROUPS, "house": M("House")}


def _card_option(card: CardId, ed: Components, value: Any = None, house: str | None = None,
                 group: str | None = None) -> Option:
    return Option(card if value is None else value, ed.name(card),
                  detail=card_detail(card, ed, house),
                  group=GROUPS.get(ed.card(card).type, "") if group is None else group)


def _seat_option(state: State, seat: Seat) -> Option:
    return Option(seat, _who(state, seat))


# -- start and setup (§5, §6.1-§6.4) ----------------------------------------------------
def start_game_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """Each seat's House, seat by seat, from the starter decks still free (§6.1: without
    custom decks the Houses are distinct). Custom decks are data a recorder sends whole;
    the setup hands and the setup starter are chance (tapped at a table)."""
    if actor != "table" or state.phase != "start":
        return None
    picked = made.picked("players")
    if len(picked) >= state.n:
        return DONE
    seat, taken = len(picked), {p.get("house") for p in picked}
    options = tuple(
        Option({"seat": seat, "name": state.names[seat], "house": house.id},
               _house_name(house.id, ed),
               detail=M("the {house} starter deck", house=ed.house_names.get(house.id, house.id)))
        for house in ed.houses if house.id in ed.starter and house.id not in taken)
    return Choice(("players",), M("House of {player}", player=_who(state, seat)), options,
                  kind="sequence",
                  fewest=state.n, most=state.n)


def _house_name(house: str, ed: Components) -> str:
    card = ed.by_number.get(ed.house_ids[house])
    return card.name if card else M("House {house}", house=house)


def mulligan_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.2: before setting up, once, where the option allows; the new hand is chance."""
    if not (_playing(state) and state.phase == "setup" and isinstance(actor, int)
            and state.option("allow_mulligan") and 0 <= actor < state.n):
        return None
    player = state.players[actor]
    ok = not (player.conceded or player.set_up or player.mulliganed)
    return DONE if ok else None


def setup_cards_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§5.3, §6.3: the cards placed face down, one at a time; a Chambers or Tent location
    is offered also onto the House card. Every limit of setup (cost, limited, unique names,
    House only) holds for any subset of a legal setup, so a card is offered exactly when
    adding it keeps the setup legal, and the setup may end at any point."""
    if not (_playing(state) and state.phase == "setup" and actor == state.turn):
        return None
    assert isinstance(actor, int)
    picked = made.picked("cards")
    if not made.is_open("cards"):
        return DONE
    house = state.players[actor].house
    chosen = {e.get("card") for e in picked}
    options = tuple(
        _card_option(card, ed, entry, house)
        for card in sorted(set(state.players[actor].hand)) if card not in chosen
        for entry in _setup_entries(card, ed)
        if _setup_ok(state, actor, [*picked, entry], ed))
    if not options:
        return Done({"cards": []})
    return Choice(("cards",), M("Cards to place face down for setup"), options, kind="subset",
                  can_end=True)


def _setup_ok(state: State, seat: Seat, entries: list[dict[str, Any]], ed: Components
              ) -> bool:
    try:
        check_setup(state, seat, [(e.get("card"), e.get("attach_to")) for e in entries], ed)
    except IllegalAction:
        return False
    return True


def _setup_entries(card: CardId, ed: Components) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = [{"card": card}]
    if ed.card(card).may_attach_to_own_house_card:
        entries.append({"card": card, "attach_to": "house"})
    return entries


def setup_draw_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.4: the table deals; the cards drawn are chance."""
    return DONE if actor == "table" and _playing(state) and state.phase == "setup_draw" \
        else None


# -- the plot phase (§6.5-§6.8, §7.1) ---------------------------------------------------
def choose_plot_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.5: a plot of the seat's plot deck (or the partner's, under a swap)."""
    if not (_playing(state) and state.phase == "plot" and state.step == "choose"
            and isinstance(actor, int) and actor in state.active
            and state.players[actor].chosen_plot is None):
        return None
    house = state.players[actor].house
    plots = [p for p in sorted(set(state.players[plot_source(state, actor)].plot_deck))
             if ed.card(p).house_only in (None, house)]
    if not plots:
        return None
    if made.has("plot"):
        return DONE
    return Choice(("plot",), M("Plot to reveal this round"), tuple(
        Option(p, ed.name(p), detail=_plot_detail(p, ed)) for p in plots))


def _plot_detail(plot: CardId, ed: Components) -> str:
    values = ed.card(plot).plot
    if values is None:
        return ""
    text = M("income {income} · initiative {initiative} · claim {claim}",
             income=values.income, initiative=values.initiative, claim=values.claim)
    only = ed.card(plot).house_only
    return M("{values} · House {house} only", values=text,
             house=ed.house_names.get(only, only)) if only else text


def break_initiative_tie_steps(state: State, actor: Actor, made: Made, ed: Components
                               ) -> Step:
    """§6.6: the winner of the tie is chance."""
    return DONE if actor == "table" and _playing(state) and state.phase == "plot" \
        and state.step == "tie" else None


def choose_first_player_steps(state: State, actor: Actor, made: Made, ed: Components
                              ) -> Step:
    """§6.7: any player still in the game, the chooser included."""
    if not (_playing(state) and state.phase == "plot" and state.step == "first_player"
            and actor == state.initiative_winner):
        return None
    if made.has("first_player"):
        return DONE
    return Choice(("first_player",), M("First player this round"),
                  tuple(_seat_option(state, s) for s in state.active))


def choose_title_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.8: a title not yet taken this round, in turn."""
    if not (_playing(state) and state.phase == "plot" and state.step == "titles"
            and actor == state.turn):
        return None
    if made.has("title"):
        return DONE
    return Choice(("title",), M("Title to take this round"), tuple(
        Option(t.id, t.name, detail=_title_detail(t.id, ed)) for t in ed.titles.values()
        if t.id not in state.titles))


def _title_detail(title: str, ed: Components) -> str:
    supports = [ed.titles[s].name for s in ed.titles[title].supports if s in ed.titles]
    return M("supports {titles}", titles=Seq(supports, "comma")) if supports else ""


def draw_phase_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.9: the table deals; the cards drawn are chance."""
    return DONE if actor == "table" and _playing(state) and state.phase == "draw" else None


# -- marshalling (§6.10, §6.11) ---------------------------------------------------------
def marshal_card_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.10: a card of the hand, then, where the card allows more than one way, a
    duplicate or not and the host (a character in play, or the House card for an
    attachment that may go there or a Chambers or Tent location). Every way offered is
    one the rule accepts (the cost, uniqueness, limited, House only, §6.14 hosts)."""
    if not (_playing(state) and state.phase == "marshalling" and actor == state.turn):
        return None
    assert isinstance(actor, int)
    if made.has("card"):
        ways = _marshal_ways(state, actor, made.get("card"), ed)
        return _narrow(ways, made, (
            ("as_duplicate", M("Marshal it as a duplicate?"), _duplicate_option),
            ("attach_to", M("Where it goes"), lambda v: _host_option(state, actor, v, ed))))
    house = state.players[actor].house
    cards = [c for c in sorted(set(state.players[actor].hand))
             if _marshal_ways(state, actor, c, ed)]
    if not cards:
        return None
    return Choice(("card",), M("Card to marshal"), tuple(
        _card_option(c, ed, house=house) for c in cards))


def _marshal_ways(state: State, seat: Seat, card: CardId, ed: Components
                  ) -> list[dict[str, Any]]:
    """Every data of a marshal of `card` the rule accepts (without `declared_cost`, a
    check of the cost the rule computes anyway)."""
    data = ed.card(card)
    if data.type not in ("character", "location", "attachment"):
        return []
    ways: list[dict[str, Any]] = []
    if data.type != "attachment":
        ways.append({"card": card, "as_duplicate": False, "attach_to": None})
    if data.unique:
        ways.append({"card": card, "as_duplicate": True, "attach_to": None})
    if data.type == "attachment" or data.may_attach_to_own_house_card:
        hosts = [c.id for c in state.cards if c.host is None and ed.is_character(c.id)]
        ways += [{"card": card, "as_duplicate": False, "attach_to": h}
                 for h in ["house", *hosts]]
    return [w for w in ways if _accepts(apply_marshal_card, state, "marshal_card", seat,
                                        w, ed)]


Ask = tuple[str, str, Callable[[Any], Option]]


def _narrow(ways: Sequence[dict[str, Any]], made: Made, asks: Sequence[Ask]) -> Step:
    """Among the complete data `ways`, those agreeing with what is chosen: the first field
    of `asks` on which they still differ is asked; once none differs, the data is complete
    with the rest fixed (a field at its default, None or False, is left out)."""
    left = [w for w in ways if all(w.get(k) == v for k, v in made.data.items())]
    if not left:
        return None
    for name, prompt, option in asks:
        if made.has(name):
            continue
        values = list(dict.fromkeys(w.get(name) for w in left))
        if len(values) > 1:
            return Choice((name,), prompt, tuple(option(v) for v in values))
    return Done({k: v for k, v in left[0].items()
                 if not made.has(k) and v is not None and v is not False})


def _duplicate_option(value: Any) -> Option:
    if value:
        return Option(True, M("As a duplicate"), detail=M("under the copy in play, free"))
    return Option(False, M("As a new card"))


def _host_option(state: State, seat: Seat, host: Any, ed: Components) -> Option:
    if host is None:
        return Option(None, M("In front of you"), detail=M("not attached"))
    if host == "house":
        return Option("house", M("Your House card"))
    owner = in_play(state, host, ed).controller
    return Option(host, ed.name(host), detail=card_detail(host, ed),
                  group=M("{whose} characters", whose=possessive(_who(state, owner))))


def end_marshalling_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    return _done_if(apply_end_marshalling, state, "end_marshalling", actor, ed)


# -- challenges (§8) --------------------------------------------------------------------
def declare_challenge_steps(state: State, actor: Actor, made: Made, ed: Components
                            ) -> Step:
    """§8.2: the type, the defender, then the attackers one by one (at least one), then,
    where an attacker need not kneel, the attackers that do not."""
    if not (_playing(state) and state.phase == "challenges" and state.challenge is None
            and actor == state.turn):
        return None
    assert isinstance(actor, int)
    index = play_index(state)
    ready = {kind: [c.id for c in state.cards
                    if can_attack(state, actor, c.id, kind, index, ed)] for kind in TYPES}
    against = {kind: [s for s in state.active
                      if challenge_allowed(state, actor, kind, s, ed) is None]
               for kind in TYPES}
    kinds = [k for k in TYPES if ready[k] and against[k]]
    if not kinds:
        return None
    if not made.has("type"):
        return Choice(("type",), M("Type of challenge"), tuple(
            Option(k, capitalised(CHALLENGE_TYPES[k]),
                   detail=M("{count} can attack", count=len(ready[k]))) for k in kinds))
    kind = made.get("type")
    if not made.has("defender"):
        return Choice(("defender",), M("Opponent to challenge ({type})",
                                       type=CHALLENGE_TYPES.get(str(kind), str(kind))),
                      tuple(_seat_option(state, s) for s in against[kind]))
    return _participants(state, made, "attackers", ready[kind], kind, "attack", ed, least=1)


def _participants(state: State, made: Made, name: str, eligible: list[CardId], kind: str, side: str,
                  ed: Components, least: int) -> Step:
    """Attackers or defenders picked one by one from `eligible` (at least `least`), then
    those of them whose card says they need not kneel (§8.2, §8.5)."""
    picked = made.picked(name)
    rest = [c for c in eligible if c not in picked]
    if made.is_open(name) and rest:
        return Choice((name,), SIDE_PROMPTS[side][0], tuple(
            _card_option(c, ed, group="") for c in rest), kind="subset",
            can_end=len(picked) >= least, fewest=least or None)
    if not picked:
        return Done({name: []})
    exempt = [c for c in picked if kind in text_of(state, c, ed).kneel_exempt(side)]
    standing = made.picked("not_kneeling")
    left = [c for c in exempt if c not in standing]
    if exempt and made.is_open("not_kneeling") and left:
        return Choice(("not_kneeling",), SIDE_PROMPTS[side][1],
                      tuple(_card_option(c, ed, group="") for c in left), kind="subset",
                      can_end=True)
    return DONE


def assign_stealth_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§8.3: which character each stealth attacker bypasses (or none), as one choice of
    the whole assignment: a bypass is a mapping, and each character is bypassed once.
    Offered while a stealth attacker takes part (with none, the empty assignment changes
    nothing)."""
    ch = state.challenge
    if not (_playing(state) and ch is not None and ch.step == "attackers_declared"
            and actor == ch.attacker):
        return None
    index = play_index(state)
    sneaks = [a for a in ch.attackers if a in index
              and has_keyword(state, a, "stealth", ed, index)]
    if not sneaks:
        return None
    if made.has("bypass"):
        return DONE
    targets = [c.id for c in state.cards if c.controller == ch.defender and c.host is None
               and ed.is_character(c.id) and not text_of(state, c.id, ed).stealth_immune
               and not has_keyword(state, c.id, "stealth", ed, index)]
    return Choice(("bypass",), M("Characters the stealth attackers bypass"), tuple(
        Option(b, _bypass_words(b, ed)) for b in _bypasses(sneaks, targets)))


def _bypasses(sneaks: list[CardId], targets: list[CardId]) -> Iterator[dict[str, str]]:
    """Every assignment of distinct targets to some of `sneaks`, in a stable order."""
    if not sneaks:
        yield {}
        return
    head, tail = sneaks[0], sneaks[1:]
    for rest in _bypasses(tail, targets):
        yield rest
    for target in targets:
        for rest in _bypasses(tail, [t for t in targets if t != target]):
            yield {head: target, **rest}


def _bypass_words(bypass: dict[str, str], ed: Components) -> str:
    if not bypass:
        return M("No character bypassed")
    return joined([M("{card} bypasses {target}", card=ed.name(a), target=ed.name(t))
                   for a, t in bypass.items()])


def redirect_challenge_steps(state: State, actor: Actor, made: Made, ed: Components
                             ) -> Step:
    """§8.4: the Crown Regent's new defender."""
    ch = state.challenge
    if not (_playing(state) and ch is not None and ch.step == "attackers_declared"
            and state.is_melee and holder(state, "crown_regent") == actor):
        return None
    seats = [s for s in state.active if redirect_problem(state, ch, actor, s, ed) is None]
    if not seats:
        return None
    if made.has("new_defender"):
        return DONE
    return Choice(("new_defender",), M("New defender"),
                  tuple(_seat_option(state, s) for s in seats))


def declare_defenders_steps(state: State, actor: Actor, made: Made, ed: Components
                            ) -> Step:
    """§8.5: the defenders one by one; none only where no character may defend or
    defence is not compulsory; then those that need not kneel."""
    ch = state.challenge
    if not (_playing(state) and ch is not None and ch.step == "attackers_declared"
            and actor == ch.defender):
        return None
    eligible = eligible_defenders(state, ch, ed)
    least = 1 if eligible and state.option("defense_compulsory") else 0
    return _participants(state, made, "defenders", eligible, ch.type, "defend", ed, least)


def take_challenge_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§8.5: the Lord Commander takes an undefended challenge."""
    ch = state.challenge
    ok = _playing(state) and ch is not None and ch.step == "defenders_declared" and \
        take_problem(state, ch, actor) is None
    return DONE if ok else None


def resolve_challenge_steps(state: State, actor: Actor, made: Made, ed: Components
                            ) -> Step:
    """§8.6: by the attacker or the table."""
    ch = state.challenge
    ok = _playing(state) and ch is not None and ch.step == "defenders_declared" and \
        actor in ("table", ch.attacker)
    return DONE if ok else None


def _pending(state: State, actor: Actor, kind: str) -> Challenge | None:
    """The open challenge when its next pending choice is `kind` and `actor`'s."""
    ch = state.challenge
    if _playing(state) and ch is not None and ch.step == "resolved" and ch.pending and \
            ch.pending[0] == (kind, actor):
        return ch
    return None


def choose_claim_targets_steps(state: State, actor: Actor, made: Made, ed: Components
                               ) -> Step:
    """§2.5: the Master of Whispers names further opponents, any of them or none."""
    ch = _pending(state, actor, "targets")
    if ch is None:
        return None
    picked = made.picked("extra_opponents")
    rest = [s for s in extra_opponent_options(state, ch, ed) if s not in picked]
    if not rest or not made.is_open("extra_opponents"):
        return Done({"extra_opponents": []})
    return Choice(("extra_opponents",), M("Further opponents who suffer the claim"),
                  tuple(_seat_option(state, s) for s in rest), kind="subset", can_end=True)


def apply_claim_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§8.6: a military claim kills exactly as many characters as it needs, then which
    of them a duplicate saves; an intrigue claim's discards are chance."""
    ch = _pending(state, actor, "claim")
    if ch is None:
        return None
    assert isinstance(actor, int)
    if ch.type == "intrigue":
        return DONE
    need = pending_need(state, ch, "claim", actor, ed)
    return _kills(state, made, claim_victims(state, ch, actor, ed), need,
                  M("Characters killed by the claim"), ed)


def apply_deadly_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§8.6: deadly kills exactly as many participating characters as it needs."""
    ch = _pending(state, actor, "deadly")
    if ch is None:
        return None
    assert isinstance(actor, int)
    need = pending_need(state, ch, "deadly", actor, ed)
    return _kills(state, made, deadly_victims(state, ch, actor, ed), need,
                  M("Characters killed by deadly"), ed)


def _kills(state: State, made: Made, pool: list[CardId], need: int, prompt: str,
           ed: Components) -> Step:
    """Exactly `need` of `pool`, one by one, then the duplicate saves among them (§8.6).
    Saves by an ability and redirects are the abilities' (declared with them, issue #30)."""
    kills = made.picked("kills")
    if len(kills) < need:
        return Choice(("kills",), prompt, tuple(
            _card_option(c, ed, group="") for c in pool if c not in kills), kind="subset",
            fewest=need, most=need)
    saves = made.picked("saves")
    saved = {s.get("card") for s in saves}
    dups = [c for c in kills if c not in saved and in_play(state, c, ed).duplicates]
    if not dups or not made.is_open("saves"):
        return DONE
    return Choice(("saves",), M("Killed characters saved by discarding a duplicate"), tuple(
        Option({"card": c, "by": "duplicate"}, ed.name(c), detail=M("discard a duplicate"))
        for c in dups), kind="subset", can_end=True)


def pass_window_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """Ruling 35: the seat a digital window waits on may pass (not a forced choice)."""
    return _done_if(apply_pass_window, state, "pass_window", actor, ed)


def end_challenges_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    return _done_if(apply_end_challenges, state, "end_challenges", actor, ed)


# -- dominance, the round's end, the game's end (§7.5-§7.7, §6.15-§6.17) ----------------
def resolve_dominance_steps(state: State, actor: Actor, made: Made, ed: Components
                            ) -> Step:
    return _done_if(apply_resolve_dominance, state, "resolve_dominance", actor, ed)


def end_round_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    return _done_if(apply_end_round, state, "end_round", actor, ed)


def effect_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """None for now: an effect's choices come from the cards' declared abilities (issue
    #30); a recorder sends an effect's data whole meanwhile."""
    return None


def _may_use(state: State, actor: int) -> bool:
    """A seat in the game may use an ability after the setup, or answer a window."""
    waiting = state.window is not None and bool(state.window.waiting)
    return bool((_playing(state) or (waiting and not state.pending_winner))
                and actor in state.active
                and state.phase not in ("start", "setup", "setup_draw"))


def use_ability_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """Issue #30: the card, its ability, then each target in the card's order (the options
    those its filters allow now), then the cards knelt for influence; the last choice
    offers only what the rule accepts, so no walk ends in a refusal."""
    if not isinstance(actor, int) or not _may_use(state, actor):
        return None
    if state.pick is not None:
        return _pick_steps(state, actor, made, ed)
    if not made.has("card"):
        return _use_card_step(state, actor, ed)
    ref = made.get("card")
    abilities = ab.usable_abilities(state, actor, ref, ed)
    if not made.has("ability"):
        return Choice(("ability",), M("Ability to use"), tuple(
            Option(a.id, a.label) for a in abilities)) if abilities else None
    ability = next((a for a in abilities if a.id == made.get("ability")), None)
    if ability is None:
        return None
    chosen = dict(made.get("choices") or {})
    _, _, ctx, _ = ab.begin(state, actor, {"card": ref, "ability": ability.id}, ed,
                            targets=False)
    # the last target is checked against the rule; when only the influence follows it, with
    # every influence card knelt (the most it may pay), so no target leads to a dead end
    full = {"influence": ab.influence_options(ctx)} if ability.influence else {}
    own = [t for t in ability.targets if ab.chooser(ctx, t) == "you"]  # ruling 33
    for number, target in enumerate(own):
        last = number >= len(own) - 1
        step = _target_step(state, actor, made, ref, ability, ctx, target,
                            chosen, last, ed, full)
        if step is not None:
            return step
    if ability.influence:
        step = _influence_step(state, actor, made, ref, ability, ctx, chosen, ed)
        if step is not None:
            return step
    data = {"card": ref, "ability": ability.id, "choices": chosen}
    return Done({"choices": chosen}) if _accepts(apply_use_ability, state, "use_ability",
                                                 actor, data, ed) else None


def _pick_steps(state: State, actor: int, made: Made, ed: Components) -> Step:
    """Ruling 33: the seat asked chooses its part of a waiting plot's ability: the plot,
    its ability, then only that part (the values the rule accepts)."""
    pick = state.pick
    assert pick is not None
    if actor != pick.waiting[0][0]:
        return None
    _, target, ctx = revealed.pick_context(state, {}, ed)
    if not made.has("card"):
        return Choice(("card",), "Card whose ability to use",
                      (_source_option(state, pick.source, ed),))
    if not made.has("ability"):
        return Choice(("ability",), "Ability to use",
                      (Option(pick.ability, ctx.ability.label),))
    if (made.get("card"), made.get("ability")) != (pick.source, pick.ability):
        return None
    options = revealed.part_options(ctx, target, actor)
    chosen = dict(made.get("choices") or {})

    def ok(value: Any) -> bool:
        data = {"card": pick.source, "ability": pick.ability, "choices": {target.name: value}}
        return _accepts(apply_use_ability, state, "use_ability", actor, data, ed)

    if not (target.many or ab.chooser(ctx, target) == "each"):
        if target.name in chosen:
            return Done({"choices": chosen})
        return Choice(("choices", target.name), _seen_prompt(ctx, target, ed),
                      tuple(_value_option(state, v, ed, target) for v in options if ok(v)))
    picked = list(chosen.get(target.name) or [])
    enough = ok(picked)
    last = len(picked) + 1 >= target.most  # the last pick must complete a legal part
    rest = [v for v in options if v not in picked
            and (not (enough or last) or ok([*picked, v]))]
    if f"choices.{target.name}" in made.ended or (enough and not rest):
        return Done({"choices": {target.name: picked}})
    return Choice(("choices", target.name), _target_prompt(ctx.ability, target), tuple(
        _value_option(state, v, ed, target) for v in rest), kind="subset", can_end=enough)


def _use_card_step(state: State, actor: int, ed: Components) -> Step:
    """The first choice of use_ability: a card of the actor's with an ability usable now."""
    refs = [r for r in ab.sources_of(state, actor, ed)
            if ab.usable_abilities(state, actor, r, ed)]
    if not refs:
        return None
    return Choice(("card",), M("Card whose ability to use"),
                  tuple(_source_option(state, r, ed) for r in refs))


def _source_option(state: State, ref: str, ed: Components) -> Option:
    source = ab.source_of(state, ref, ed)
    if source.instance is not None and ed.is_known(source.instance) and \
            not ref.startswith("plot:"):
        return _card_option(source.instance, ed, value=ref,
                            group=CARD_SOURCE_GROUPS.get(source.zone, source.zone))
    return Option(ref, source.name, group=SOURCE_GROUPS.get(source.zone, ""))


def _with_choice(made: Made, chosen: dict[str, Any], name: str, value: Any
                 ) -> dict[str, Any]:
    return {"card": made.get("card"), "ability": made.get("ability"),
            "choices": {**chosen, name: value}}


def _target_step(state: State, actor: Seat, made: Made, ref: str, ability: Any, ctx: Any,
                 target: Any, chosen: dict[str, Any], last: bool, ed: Components,
                 then: dict[str, Any] | None = None) -> Choice | None:
    """The choice of one target, or None when it is made."""
    path = ("choices", target.name)
    ident = ".".join(path)
    options = ab.target_options(ctx, target)

    def ok(value: Any) -> bool:
        return not last or _accepts(apply_use_ability, state, "use_ability", actor,
                                    _with_choice(made, {**chosen, **(then or {})},
                                                 target.name, value), ed)

    if not target.many:
        if target.name in chosen:
            return None
        if target.least == 0 and ident in made.ended:
            return None
        offered = [v for v in options if ok(v)]
        if not offered and target.least == 0:  # nothing to name: the use goes without it
            return None
        return Choice(path, _target_prompt(ability, target), tuple(
            _value_option(state, v, ed, target) for v in offered))
    picked = list(chosen.get(target.name) or [])
    if ident in made.ended or len(picked) >= target.most:
        return None
    # a pick that would complete the list is offered only if the rule accepts it
    rest = [v for v in options if v not in picked and (
        len(picked) + 1 < target.least or not last or ok([*picked, v]))]
    enough = len(picked) >= target.least and ok(picked) and not (
        target.unless_none and not picked and rest)
    if not rest:
        return None
    return Choice(path, _target_prompt(ability, target), tuple(
        _value_option(state, v, ed, target) for v in rest), kind="subset", can_end=enough,
        fewest=target.least or None, most=target.most)


def _influence_step(state: State, actor: Seat, made: Made, ref: str, ability: Any,
                    ctx: Any, chosen: dict[str, Any], ed: Components) -> Choice | None:
    """The standing cards knelt for the influence the cost asks (ruling 27)."""
    if "choices.influence" in made.ended:
        return None
    picked = list(chosen.get("influence") or [])
    total = sum(ab.influence_of(c, ed) for c in picked)
    rest = [c for c in ab.influence_options(ctx) if c not in picked]
    enough = total >= ability.influence and _accepts(
        apply_use_ability, state, "use_ability", actor,
        _with_choice(made, chosen, "influence", picked), ed)
    if enough and not rest:
        return None
    return Choice(("choices", "influence"),
                  M("Cards to kneel for {amount} influence", amount=ability.influence),
                  tuple(Option(c, ed.name(c), detail=M("influence {amount}",
                                                       amount=ab.influence_of(c, ed)))
                        for c in rest),
                  kind="subset", can_end=enough)


def _seen_prompt(ctx: Any, target: Any, ed: Components) -> str:
    """A part's prompt; once the use's chance is seen by the one asked (Raff's look, card
    ruling L12), naming the card it saw: only that seat is asked, so only it reads it."""
    prompt = _target_prompt(ctx.ability, target)
    looked = list(ctx.chance.get("looked") or ()) if ab.chooser(ctx, target) == ab.SEEN \
        else []
    if not looked:
        return prompt
    return M("{prompt} (the card seen: {card})", prompt=prompt, card=ed.name(looked[0]))


def _target_prompt(ability: Any, target: Any) -> str:
    what = target.label or Name(words(target.name), getattr(target.label, "own", {}))
    return M("{ability}: {target}", ability=ability.label, target=what)


def _value_option(state: State, value: Any, ed: Components, target: Any) -> Option:
    """One value of a target as a person taps it: a card by its name, a player by name,
    a number by the words its data gives (or the number), a challenge type by its name."""
    if target.choose == "number":
        return Option(value, target.value_label(value) or str(value))
    if isinstance(value, str) and ed.is_known(value):
        return _card_option(value, ed, group="")
    if target.choose == "seat" and isinstance(value, int) and 0 <= value < state.n:
        return _seat_option(state, value)
    if isinstance(value, str) and value in CHALLENGE_TYPES:
        return Option(value, capitalised(CHALLENGE_TYPES[value]))
    return Option(value, str(value))


def choose_winner_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.16: the first player picks among those who reached the goal together."""
    if not state.pending_winner or state.winner is not None or actor != chooser(state):
        return None
    if made.has("winner"):
        return DONE
    return Choice(("winner",), M("Winner"), tuple(_seat_option(state, s)
                                               for s in state.pending_winner))


def concede_steps(state: State, actor: Actor, made: Made, ed: Components) -> Step:
    """§6.17: a player still in the game, any time after the start."""
    if state.winner is not None or not isinstance(actor, int):
        return None
    return _done_if(apply_concede, state, "concede", actor, ed)
