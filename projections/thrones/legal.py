"""Who acts now and what they may do (contract: a representative finite subset, §12).

Where the true action space is huge, a representative subset is listed:
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

from itertools import combinations
from typing import Any, cast

from ..rules import Action, Actor, IllegalAction
from .apply import APPLY
from .apply.challenges import (
    can_attack,
    challenge_allowed,
    eligible_defenders,
    redirect_problem,
    take_problem,
)
from .apply.claims import claim_victims, extra_opponent_options, participants_of, pending_need
from .apply.rounds import plot_source
from .apply.setup import check_setup
from .apply.titles import holder
from .apply.values import check_unique, controls_name, has_keyword, marshal_cost, play_index
from .apply.victory import chooser
from .apply.zones import in_play
from .edition import CardId, Components, Seat
from .state import TYPES, Challenge, State

CONCEDE_ROUND = 25
HOUSE_ORDER = ("Stark", "Lannister", "Baratheon", "Targaryen")
Proposal = dict[str, Any]


def act(kind: str, actor: object, data: dict[str, Any] | None = None) -> Proposal:
    """A listed action: `{"type", "actor", "data"}`."""
    return {"type": kind, "actor": actor, "data": data or {}}


# ---------------------------------------------------------------------------
# Who acts
# ---------------------------------------------------------------------------


def to_act(state: State, ed: Components) -> tuple[Actor, ...]:
    """The actors who may act now (seats and/or "table"); empty when over."""
    if state.winner is not None:
        return ()
    if state.pending_winner:
        return (chooser(state),)
    phase = state.phase
    if phase in ("start", "setup_draw", "draw", "dominance"):
        return ("table",)
    if phase == "setup":
        return _seat(state.turn)
    if phase == "plot":
        if state.step == "choose":
            return tuple(s for s in state.active if state.players[s].chosen_plot is None)
        if state.step == "tie":
            return ("table",)
        return _seat(state.initiative_winner if state.step == "first_player" else state.turn)
    if phase == "challenges" and state.challenge is not None:
        return _challenge_actors(state, state.challenge, ed)
    return _seat(state.turn)


def _seat(seat: Seat | None) -> tuple[Actor, ...]:
    """The one seat to act, which the phase always sets."""
    return cast("tuple[Actor, ...]", (seat,))


def _challenge_actors(state: State, ch: Challenge, ed: Components) -> tuple[Actor, ...]:
    if ch.step == "resolved":
        return (ch.pending[0][1],)
    actors = [ch.defender] if ch.step == "attackers_declared" else [ch.attacker]
    if ch.step == "attackers_declared" and not ch.stealth and greedy_stealth(state, ch, ed):
        actors.append(ch.attacker)
    if state.is_melee:
        regent = holder(state, "crown_regent")
        if ch.step == "attackers_declared" and regent is not None and any(
                redirect_problem(state, ch, regent, s, ed) is None for s in state.active):
            actors.append(regent)
        lord = holder(state, "lord_commander_kingsguard")
        if ch.step == "defenders_declared" and lord is not None and \
                take_problem(state, ch, lord) is None:
            actors.append(lord)
    return tuple(dict.fromkeys(actors))


def auto_action(state: State, ed: Components) -> Proposal | None:
    """Chance events nobody chooses: the setup draw, the draw phase, an initiative tie."""
    if state.pending_winner or state.winner is not None:
        return None
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


def _valid(state: State, candidates: list[Proposal], ed: Components) -> list[Proposal]:
    good = []
    for cand in candidates:
        try:
            APPLY[cand["type"]](state, Action.of(cand["type"], cand["actor"], cand["data"]), ed)
        except IllegalAction:
            continue
        good.append(cand)
    return good


def _legal_for(state: State, actor: Any, ed: Components) -> list[Proposal]:
    if state.pending_winner:
        return [act("choose_winner", actor, {"winner": s}) for s in state.pending_winner]
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


def greedy_stealth(state: State, ch: Challenge, ed: Components) -> dict[CardId, CardId]:
    """Each stealth attacker bypasses the next character of the defender it may (§8.3)."""
    index = play_index(state)
    targets = [c.id for c in state.cards if c.controller == ch.defender and c.host is None
               and ed.is_character(c.id) and not ed.card(c.id).stealth_immune
               and not has_keyword(state, c.id, "stealth", ed, index)]
    bypass = {}
    for att in ch.attackers:
        if targets and has_keyword(state, att, "stealth", ed, index):
            bypass[att] = targets.pop(0)
    return bypass


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
        participants_of(state, ch, seat)
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
