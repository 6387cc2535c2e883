"""The challenge procedure (spec §8): declare, stealth, redirect, defend, take, resolve; and
what titles allow (§2.5). Claims and deadly follow in claims.py."""

from __future__ import annotations

from typing import Any

from ...messages import M, Message, Mn
from ...rules import Action, IllegalAction, replace, require
from ..edition import CardId, Components, Seat
from ..state import TYPES, Challenge, State, next_after
from ..words import CHALLENGE_TYPES, a_challenge
from .claims import advance_pending, claim_value, close_challenge
from .guards import require_turn, seat_of, who, whose
from .restrictions import defend_forbidden
from .rounds import set_phase
from .text import text_of
from .titles import forbidden, holder, opposes, supports, title_name
from .tolls import pay_tolls
from .values import Index, has_icon, has_keyword, play_index, strength
from .victory import check_victory, rule
from .zones import add_power, gain_house_power

#: the refusal of a card that must kneel, by the side it takes
KNEEL_WHEN = {"attack": M("{card} must kneel when attacking in {challenge}"),
              "defend": M("{card} must kneel when defending in {challenge}")}
#: what a challenge step waits for, in the refusal of an action that comes at another time
STEP_WAITS = {
    "attackers_declared": M("no challenge is waiting for stealth, a redirect or defenders "
                            "(they come right after attackers are declared, §8.3-§8.5)"),
    "defenders_declared": M("no challenge is waiting to be resolved or taken over (that "
                            "comes after defenders are declared, §8.5-§8.6)"),
}


# ---------------------------------------------------------------------------
# §8.1 limits, §8.2 declare
# ---------------------------------------------------------------------------


def challenge_allowed(state: State, seat: Seat, kind: str, defender: Seat, ed: Components
                      ) -> str | None:
    """Why `seat` may not challenge `defender` with `kind` now (None: it may)."""
    player = state.players[seat]
    i = TYPES.index(kind)
    base = 1 + player.extra[i]
    if player.used[i] >= base:
        hand = kind == "power" and state.titles and state.titles[seat] == "hand_of_the_king"
        if not hand or player.used[i] > base:
            return M("{player} has no {kind} challenge left this round", player=who(state, seat),
                     kind=CHALLENGE_TYPES.get(kind, kind))
        if defender in player.power_defenders:
            return (M("the Hand of the King's second power challenge must target a different "
                      "opponent than {player}", player=who(state, defender)))
    if defender == seat:
        return (M("{player} cannot challenge themself: the defender is another player (§8.2)",
                  player=who(state, seat)))
    if defender not in state.active:
        return M("{player} is not an opponent in the game", player=who(state, defender))
    if state.is_melee and supports(state, seat, defender, ed):
        return (M("your title supports that player: {title} supports {whose} {title2}",
                  title=title_name(state, seat, ed), whose=whose(state, defender),
                  title2=title_name(state, defender, ed)))
    if forbidden(state, seat, defender, kind):
        return (M("{kind} challenges between {player} and {player2} are forbidden this round",
                  kind=CHALLENGE_TYPES.get(kind, kind), player=who(state, seat),
                  player2=who(state, defender)))
    return None


def can_attack(state: State, seat: Seat, card: CardId, kind: str, index: Index,
               ed: Components) -> bool:
    """Whether `card` may attack in a `kind` challenge: a standing character of `seat` with the
    icon."""
    ip = index.get(card)
    return (ip is not None and ip.controller == seat and ip.host is None and not ip.knelt
            and ed.is_character(card) and not text_of(state, card, ed).cannot_attack
            and has_icon(state, card, kind, ed, index))


def _can_defend(state: State, seat: Seat, card: CardId, kind: str, index: Index,
                bypassed: set[CardId], ed: Components) -> bool:
    ip = index.get(card)
    return (ip is not None and ip.controller == seat and ip.host is None and not ip.knelt
            and ed.is_character(card) and card not in bypassed
            and has_icon(state, card, kind, ed, index)
            and defend_forbidden(state, ip, ed) is None)


def _check_not_kneeling(state: State, chosen: list[CardId], listed: Any, kind: str,
                        side: str, ed: Components) -> list[CardId]:
    exempt = list(listed or ())
    for card in exempt:
        rule_ = text_of(state, card, ed).kneel_exempt(side)
        require(card in chosen and kind in rule_, "not_kneel_exempt",
                Message(KNEEL_WHEN[side].key, {"card": ed.name(card),
                                           "challenge": a_challenge(kind)}),
                card=card)
    return exempt


def _kneel_all(state: State, cards: list[CardId], exempt: list[CardId]) -> State:
    return replace(state, cards=tuple(replace(c, knelt=True)
                                      if c.id in cards and c.id not in exempt else c
                                      for c in state.cards))


@rule
def apply_declare_challenge(state: State, action: Action, ed: Components) -> State:
    """§8.2: the player whose turn it is declares a challenge of a type against an opponent,
    kneeling the attackers."""
    _require_challenge_turn(state, action)
    assert state.turn is not None
    seat, data = state.turn, action.data
    kind, defender = data["type"], data["defender"]
    require(kind in TYPES, "bad_type", M("a challenge is military, intrigue or power, not "
                                         "\"{kind}\"", kind=kind))
    why = challenge_allowed(state, seat, kind, defender, ed)
    require(why is None, "challenge_not_allowed", why or "", defender=defender)
    attackers = list(data["attackers"])
    require(bool(attackers) and len(set(attackers)) == len(attackers), "bad_attackers",
            M("declare at least one attacker, each once"))
    index = play_index(state)
    for card in attackers:
        require(can_attack(state, seat, card, kind, index, ed), "illegal_attacker",
                M("{card} cannot attack in {challenge} (needs a standing character "
                  "that {player} controls, with the {type} icon)", card=ed.name(card),
                  challenge=a_challenge(kind), player=who(state, seat),
                  type=CHALLENGE_TYPES.get(kind, kind)),
                card=card)
    exempt = _check_not_kneeling(state, attackers, data.get("not_kneeling"), kind, "attack",
                                 ed)
    used = list(state.players[seat].used)
    used[TYPES.index(kind)] += 1
    state = _kneel_all(state.with_player(seat, used=tuple(used)), attackers, exempt)
    return pay_tolls(replace(state, challenge=Challenge(kind, seat, defender,
                                                        tuple(attackers))))


def _require_challenge_turn(state: State, action: Action) -> None:
    require(state.phase == "challenges", "wrong_phase", M("it is not the challenges phase"))
    require_turn(state, action, state.turn, M("challenge"))
    require(state.challenge is None, "challenge_open",
            M("a challenge is open; finish it first"))


def _open(state: State, step: str) -> Challenge:
    ch = state.challenge
    require(ch is not None and ch.step == step, "wrong_step", STEP_WAITS[step])
    assert ch is not None
    return ch


# ---------------------------------------------------------------------------
# §8.3 stealth, §8.4 redirect
# ---------------------------------------------------------------------------


@rule
def apply_assign_stealth(state: State, action: Action, ed: Components) -> State:
    """§8.3: each stealth attacker bypasses one character of the defender."""
    ch = _open(state, "attackers_declared")
    require_turn(state, action, ch.attacker, M("assign stealth"))
    bypass = dict(action.data["bypass"])
    index = play_index(state)
    require(len(set(bypass.values())) == len(bypass), "stealth_twice",
            M("each character can be bypassed by only one stealth attacker"))
    for att, target in bypass.items():
        require(att in ch.attackers and has_keyword(state, att, "stealth", ed, index),
                "not_stealth", M("{card} is not a participating stealth attacker",
                                 card=ed.name(att)),
                card=att)
        ip = index.get(target)
        ok = (ip is not None and ip.controller == ch.defender and ip.host is None
              and ed.is_character(target)
              and not has_keyword(state, target, "stealth", ed, index)
              and not text_of(state, target, ed).stealth_immune)
        require(ok, "illegal_stealth_target", M("{card} cannot be bypassed by stealth (needs "
                                                "a defending player's character without "
                                                "stealth)", card=ed.name(target)),
                card=target)
    return replace(state, challenge=replace(ch, stealth=tuple(sorted(bypass.items()))))


@rule
def apply_redirect_challenge(state: State, action: Action, ed: Components) -> State:
    """§2.5, §8.4: the Crown Regent moves a challenge to another defender, once a round."""
    seat = seat_of(state, action)
    ch = _open(state, "attackers_declared")
    require(state.is_melee and holder(state, "crown_regent") == seat,
            "not_title_holder", M("{player} does not hold the Crown Regent",
                                  player=who(state, seat)))
    why = redirect_problem(state, ch, seat, action.data["new_defender"], ed)
    require(why is None, "illegal_redirect", why or "")
    return replace(state, challenge=replace(ch, defender=action.data["new_defender"],
                                            stealth=()),
                   title_uses=state.title_uses | {"crown_regent"})


def redirect_problem(state: State, ch: Challenge, seat: Seat, new: object, ed: Components
                     ) -> str | None:
    """Why the Crown Regent `seat` may not move `ch` to `new` (None: it may, §8.4)."""
    if "crown_regent" in state.title_uses:
        return "the Crown Regent has already redirected a challenge this round"
    if seat == ch.attacker:
        return "the Crown Regent cannot redirect its own challenge"
    if new not in state.active or new in (ch.attacker, ch.defender):
        return (M("{player} cannot become the defender: the new defender is a player still "
                  "in the game, neither the attacker nor the current defender (§8.4)",
                  player=who(state, new)))
    if supports(state, ch.attacker, new, ed):
        return (M("the attacker's title supports {player}: {title} supports {title2}",
                  player=who(state, new), title=title_name(state, ch.attacker, ed),
                  title2=title_name(state, new, ed)))
    if forbidden(state, ch.attacker, new, ch.type):
        return (M("{type} challenges between {player} and {player2} are forbidden this round",
                  type=CHALLENGE_TYPES.get(ch.type, ch.type), player=who(state, ch.attacker),
                  player2=who(state, new)))
    return None


# ---------------------------------------------------------------------------
# §8.5 defenders, take
# ---------------------------------------------------------------------------


def eligible_defenders(state: State, ch: Challenge, ed: Components) -> list[CardId]:
    """The defender's characters that may defend `ch`: standing, with its icon, not bypassed."""
    index = play_index(state)
    bypassed = {t for _, t in ch.stealth} | set(ch.attackers) | set(ch.defenders)
    return [c.id for c in state.cards
            if _can_defend(state, ch.defender, c.id, ch.type, index, bypassed, ed)]


@rule
def apply_declare_defenders(state: State, action: Action, ed: Components) -> State:
    """§8.5: the defender declares defenders (at least one if any can, unless the option says
    not), kneeling them."""
    ch = _open(state, "attackers_declared")
    require_turn(state, action, ch.defender, M("declare defenders"))
    defenders = list(action.data["defenders"])
    require(len(set(defenders)) == len(defenders), "bad_defenders", M("a defender is listed "
                                                                      "twice"))
    _check_defend_restrictions(state, defenders, ed)
    eligible = eligible_defenders(state, ch, ed)
    for card in defenders:
        require(card in eligible, "illegal_defender",
                M("{card} cannot defend this {type} challenge (needs a standing, not "
                  "bypassed character of {player} with the {type} icon)", card=ed.name(card),
                  type=CHALLENGE_TYPES.get(ch.type, ch.type), player=who(state, ch.defender)),
                card=card)
    require(bool(defenders) or not eligible or not state.option("defense_compulsory"),
            "defense_compulsory",
            Mn("must declare at least one defender: {player} has {count} eligible character",
               "must declare at least one defender: {player} has {count} eligible characters",
               len(eligible), player=who(state, ch.defender)), eligible=len(eligible))
    exempt = _check_not_kneeling(state, defenders, action.data.get("not_kneeling"), ch.type,
                                 "defend", ed)
    state = _kneel_all(state, defenders, exempt)
    return replace(state, challenge=replace(ch, defenders=(*ch.defenders, *defenders),
                                            step="defenders_declared",
                                            declared_none=not defenders))


def _check_defend_restrictions(state: State, defenders: list[CardId], ed: Components) -> None:
    """A constant may forbid a character to defend (Herding the Masses, Stannis Baratheon):
    the refusal names the card that forbids it."""
    index = play_index(state)
    for card in defenders:
        ip = index.get(card) if isinstance(card, str) else None
        why = None if ip is None else defend_forbidden(state, ip, ed)
        if why is not None:
            raise IllegalAction("cannot_defend",
                                M("{card} cannot be declared as a defender: {source} says "
                                  "“{rule}”", card=ed.name(card), source=why[0],
                                  rule=why[1]), card=card)


def take_problem(state: State, ch: Challenge, seat: object) -> str | None:
    """Why `seat` may not take `ch` as the Lord Commander (None: it may, §8.5)."""
    if not state.is_melee or holder(state, "lord_commander_kingsguard") != seat:
        return M("{player} does not hold the Lord Commander of the Kingsguard",
                 player=who(state, seat))
    if "lord_commander_kingsguard" in state.title_uses:
        return M("the Lord Commander has already taken a challenge this round")
    if seat in (ch.attacker, ch.defender):
        return M("the Lord Commander takes only a challenge between two other players")
    if not ch.declared_none:
        return M("the Lord Commander takes a challenge only after no defenders were declared")
    return None


@rule
def apply_take_challenge(state: State, action: Action, ed: Components) -> State:
    """§2.5, §8.5: the Lord Commander becomes the defender of an undefended challenge, once a
    round."""
    seat = seat_of(state, action)
    ch = _open(state, "defenders_declared")
    why = take_problem(state, ch, seat)
    require(why is None, "illegal_take", why or "")
    return replace(state, challenge=replace(ch, defender=seat, stealth=(), defenders=(),
                                            step="attackers_declared", declared_none=False),
                   title_uses=state.title_uses | {"lord_commander_kingsguard"})


# ---------------------------------------------------------------------------
# §8.6 resolution
# ---------------------------------------------------------------------------


def totals(state: State, ch: Challenge, ed: Components) -> tuple[int, int]:
    """(attacking STR, defending STR) of a challenge."""
    index = play_index(state)
    att = sum(strength(state, c, ed, index) for c in ch.attackers if c in index)
    dfn = sum(strength(state, c, ed, index) for c in ch.defenders if c in index)
    return att, dfn


def challenge_outcome(state: State, ch: Challenge, ed: Components
                      ) -> tuple[Seat | None, int, int]:
    """§8.6: (the winner, the attacking STR, the defending STR): the higher STR wins, the
    attacker on a tie; no STR on either side has no winner (§13.2 ruling)."""
    att, dfn = totals(state, ch, ed)
    if att == dfn == 0:
        return None, 0, 0
    return (ch.attacker if att >= dfn else ch.defender), att, dfn


@rule
def apply_resolve_challenge(state: State, action: Action, ed: Components) -> State:
    """§8.6: the higher STR wins (the attacker on a tie); unopposed, renown, opposed titles,
    the claim and deadly follow."""
    ch = _open(state, "defenders_declared")
    require(action.actor in ("table", ch.attacker), "not_your_turn",
            M("the challenge is resolved by the attacker, {player}, or the table",
              player=who(state, ch.attacker)))
    winner, att, dfn = challenge_outcome(state, ch, ed)
    if ch.type == "power":  # ruling 9: the Hand's second power challenge needs another
        state = state.with_player(ch.attacker, power_defenders=(
            *state.players[ch.attacker].power_defenders, ch.defender))
    if winner is None:  # §13.2 ruling: no winner, nothing happens
        return close_challenge(replace(state, challenge=replace(
            ch, step="resolved", strength=(0, 0))))
    loser = ch.defender if winner == ch.attacker else ch.attacker
    state = replace(state, challenge=replace(ch, step="resolved", strength=(att, dfn),
                                             winner=winner, loser=loser))
    for step in (_unopposed, _renown, _opposed_title, _claim, _deadly):
        assert state.challenge is not None
        state = check_victory(step(state, state.challenge, ed), ed)
        if state.winner is not None or state.pending_winner:
            return state
    return advance_pending(state, ed)


def _unopposed(state: State, ch: Challenge, ed: Components) -> State:
    if ch.winner == ch.attacker and ch.strength[1] == 0:
        return gain_house_power(state, ch.attacker, ed.constants.unopposed_bonus_power)
    return state


def _renown(state: State, ch: Challenge, ed: Components) -> State:
    side = ch.attackers if ch.winner == ch.attacker else ch.defenders
    index = play_index(state)
    for card in side:
        if card in index and has_keyword(state, card, "renown", ed, index):
            state = add_power(state, card, 1, ed)
    return state


def _opposed_title(state: State, ch: Challenge, ed: Components) -> State:
    assert ch.winner is not None and ch.loser is not None
    if state.is_melee and opposes(state, ch.winner, ch.loser, ed):
        return gain_house_power(state, ch.winner, ed.constants.opposes_bonus_power)
    return state


def _claim(state: State, ch: Challenge, ed: Components) -> State:
    if ch.winner != ch.attacker:
        return state
    if ch.type == "power":
        claim = min(claim_value(state, ch.attacker, ed),
                    state.players[ch.defender].house_power)
        if claim:
            state = add_power(state, f"house:{ch.defender}", -claim, ed)
            state = add_power(state, f"house:{ch.attacker}", claim, ed)
        return state
    pending: tuple[tuple[str, Seat], ...] = (("claim", ch.defender),)
    if ch.type == "intrigue" and state.titles[ch.attacker] == "master_of_whispers":
        pending = (("targets", ch.attacker), *pending)
    return replace(state, challenge=replace(ch, pending=pending))


def _deadly(state: State, ch: Challenge, ed: Components) -> State:
    side = ch.attackers if ch.winner == ch.attacker else ch.defenders
    index = play_index(state)
    k = sum(1 for c in side if c in index and has_keyword(state, c, "deadly", ed, index))
    if not k:
        return state
    assert ch.loser is not None
    return replace(state, challenge=replace(ch, deadly=k,
                                            pending=(*ch.pending, ("deadly", ch.loser))))


@rule
def apply_end_challenges(state: State, action: Action, ed: Components) -> State:
    """§8.1: the player is done with challenges; the next one's turn, or the dominance phase."""
    _require_challenge_turn(state, action)
    assert state.turn is not None
    nxt = next_after(state, state.turn)
    state = replace(state, passed=state.passed | {state.turn})
    if nxt is not None:
        return replace(state, turn=nxt)
    return replace(set_phase(state, "dominance"), turn=None)
