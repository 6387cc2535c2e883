"""The challenge procedure (spec §8): declare, redirect, stealth, defend, take, resolve, claim."""

from __future__ import annotations

from typing import Any

from ..rules import Action, plural, require, words_list
from .model import TYPES, Challenge, Seat, State, replace
from .words import a_an

#: a pending choice of §8.6: what waits for it, and what the seat due does
PENDING_WAITS = {"targets": "the Master of Whispers to name further opponents",
                 "claim": "a claim to be applied", "deadly": "deadly to be applied"}
PENDING_TURNS = {"targets": "name further opponents for the claim", "claim": "apply the claim",
                 "deadly": "apply deadly"}

#: what a challenge step waits for, in the refusal of an action that comes at another time
STEP_WAITS = {
    "attackers_declared": "no challenge is waiting for stealth, a redirect or defenders "
                          "(they come right after attackers are declared, §8.3-§8.5)",
    "defenders_declared": "no challenge is waiting to be resolved or taken over (that comes "
                          "after defenders are declared, §8.5-§8.6)",
}


class ChallengesMixin:
    # -- titles (§2.5) ------------------------------------------------------------
    def supports(self: Any, state: State, seat: Seat, other: Seat) -> bool:
        mine, theirs = state.titles[seat] if state.titles else None, \
            state.titles[other] if state.titles else None
        return bool(mine and theirs and theirs in self.title_data[mine]["supports"])

    def opposes(self: Any, state: State, seat: Seat, other: Seat) -> bool:
        mine, theirs = state.titles[seat] if state.titles else None, \
            state.titles[other] if state.titles else None
        return bool(mine and theirs and theirs in self.title_data[mine]["opposes"])

    def holder(self, state: State, title: str) -> Seat | None:
        return state.titles.index(title) if title in state.titles else None

    def forbidden(self, state: State, a: Seat, b: Seat, kind: str) -> bool:
        return any(k == kind and {x, y} == {a, b} for x, y, k in state.forbids)

    # -- §8.1 limits ------------------------------------------------------------------
    def challenge_allowed(self: Any, state: State, seat: Seat, kind: str, defender: Seat
                          ) -> str | None:
        """Why `seat` may not challenge `defender` with `kind` now (None: it may)."""
        player = state.players[seat]
        i = TYPES.index(kind)
        base = 1 + player.extra[i]
        if player.used[i] >= base:
            hand = kind == "power" and state.titles and state.titles[seat] == "hand_of_the_king"
            if not hand or player.used[i] > base:
                return f"{self.who(state, seat)} has no {kind} challenge left this round"
            if defender in player.power_defenders:
                return ("the Hand of the King's second power challenge must target a different "
                        f"opponent than {self.who(state, defender)}")
        if defender == seat:
            return (f"{self.who(state, seat)} cannot challenge themself: the defender is "
                    "another player (§8.2)")
        if defender not in state.active:
            return f"{self.who(state, defender)} is not an opponent in the game"
        if self.is_melee(state) and self.supports(state, seat, defender):
            return (f"your title supports that player: {self.title_name(state, seat)} supports "
                    f"{self.whose(state, defender)} {self.title_name(state, defender)}")
        if self.forbidden(state, seat, defender, kind):
            return (f"{kind} challenges between {self.who(state, seat)} and "
                    f"{self.who(state, defender)} are forbidden this round")
        return None

    def title_name(self: Any, state: State, seat: Seat) -> str:
        title = state.titles[seat] if state.titles else None
        return self.title_data[title]["name"] if title in self.title_data else "no title"

    def can_attack(self: Any, state: State, seat: Seat, card: str, kind: str, index: Any
                   ) -> bool:
        ip = index.get(card)
        return (ip is not None and ip.controller == seat and ip.host is None and not ip.knelt
                and self.is_character(card) and not self.card(card).get("cannot_attack")
                and self.has_icon(state, card, kind, index))

    def can_defend(self: Any, state: State, seat: Seat, card: str, kind: str, index: Any,
                   bypassed: set[str]) -> bool:
        ip = index.get(card)
        return (ip is not None and ip.controller == seat and ip.host is None and not ip.knelt
                and self.is_character(card) and card not in bypassed
                and self.has_icon(state, card, kind, index))

    def _check_not_kneeling(self: Any, chosen: list[str], listed: Any, kind: str, side: str
                            ) -> list[str]:
        exempt = list(listed or ())
        for card in exempt:
            rule = (self.card(card).get("kneel_exempt") or {}).get(side, ())
            require(card in chosen and kind in rule, "not_kneel_exempt",
                    f"{self.name(card)} must kneel when {side}ing in {a_an(kind)} challenge",
                    card=card)
        return exempt

    def _kneel_all(self: Any, state: State, cards: list[str], exempt: list[str]) -> State:
        return replace(state, cards=tuple(replace(c, knelt=True)
                                          if c.id in cards and c.id not in exempt else c
                                          for c in state.cards))

    # -- §8.2 declare ------------------------------------------------------------------
    def _apply_declare_challenge(self: Any, state: State, action: Action) -> State:
        self._require_challenge_turn(state, action)
        seat, data = state.turn, action.data
        kind, defender = data["type"], data["defender"]
        require(kind in TYPES, "bad_type", f'a challenge is military, intrigue or power, '
                f'not "{kind}"')
        why = self.challenge_allowed(state, seat, kind, defender)
        require(why is None, "challenge_not_allowed", why or "", defender=defender)
        attackers = list(data["attackers"])
        require(bool(attackers) and len(set(attackers)) == len(attackers), "bad_attackers",
                "declare at least one attacker, each once")
        index = self.play_index(state)
        for card in attackers:
            require(self.can_attack(state, seat, card, kind, index), "illegal_attacker",
                    f"{self.name(card)} cannot attack in {a_an(kind)} challenge (needs a standing "
                    f"character that {self.who(state, seat)} controls, with the {kind} icon)",
                    card=card)
        exempt = self._check_not_kneeling(attackers, data.get("not_kneeling"), kind, "attack")
        used = list(state.players[seat].used)
        used[TYPES.index(kind)] += 1
        state = self._kneel_all(state.with_player(seat, used=tuple(used)), attackers, exempt)
        return replace(state, challenge=Challenge(kind, seat, defender, tuple(attackers)))

    def _require_challenge_turn(self: Any, state: State, action: Action) -> None:
        require(state.phase == "challenges", "wrong_phase", "it is not the challenges phase")
        self.require_turn(state, action, state.turn, "challenge")
        require(state.challenge is None, "challenge_open",
                "a challenge is open; finish it first")

    def _open(self: Any, state: State, step: str) -> Challenge:
        ch = state.challenge
        require(ch is not None and ch.step == step, "wrong_step",
                STEP_WAITS[step])
        assert ch is not None
        return ch

    # -- §8.3 stealth ----------------------------------------------------------------------
    def _apply_assign_stealth(self: Any, state: State, action: Action) -> State:
        ch = self._open(state, "attackers_declared")
        self.require_turn(state, action, ch.attacker, "assign stealth")
        bypass = dict(action.data["bypass"])
        index = self.play_index(state)
        require(len(set(bypass.values())) == len(bypass), "stealth_twice",
                "each character can be bypassed by only one stealth attacker")
        for att, target in bypass.items():
            require(att in ch.attackers and self.has_keyword(state, att, "stealth", index),
                    "not_stealth", f"{self.name(att)} is not a participating stealth attacker",
                    card=att)
            ip = index.get(target)
            ok = (ip is not None and ip.controller == ch.defender and ip.host is None
                  and self.is_character(target)
                  and not self.has_keyword(state, target, "stealth", index)
                  and not self.card(target).get("stealth_immune"))
            require(ok, "illegal_stealth_target", f"{self.name(target)} cannot be bypassed by "
                    "stealth (needs a defending player's character without stealth)",
                    card=target)
        return replace(state, challenge=replace(ch, stealth=tuple(sorted(bypass.items()))))

    # -- §8.4 redirect -----------------------------------------------------------------------
    def _apply_redirect_challenge(self: Any, state: State, action: Action) -> State:
        seat = self.seat_of(state, action)
        ch = self._open(state, "attackers_declared")
        require(self.is_melee(state) and self.holder(state, "crown_regent") == seat,
                "not_title_holder", f"{self.who(state, seat)} does not hold the Crown Regent")
        why = self.redirect_problem(state, ch, seat, action.data["new_defender"])
        require(why is None, "illegal_redirect", why or "")
        return replace(state, challenge=replace(ch, defender=action.data["new_defender"],
                                                stealth=()),
                       title_uses=state.title_uses | {"crown_regent"})

    def redirect_problem(self: Any, state: State, ch: Challenge, seat: Seat, new: Any
                         ) -> str | None:
        if "crown_regent" in state.title_uses:
            return "the Crown Regent has already redirected a challenge this round"
        if seat == ch.attacker:
            return "the Crown Regent cannot redirect its own challenge"
        if new not in state.active or new in (ch.attacker, ch.defender):
            return (f"{self.who(state, new)} cannot become the defender: the new defender is "
                    "a player still in the game, neither the attacker nor the current defender "
                    "(§8.4)")
        if self.supports(state, ch.attacker, new):
            return (f"the attacker's title supports {self.who(state, new)}: "
                    f"{self.title_name(state, ch.attacker)} supports "
                    f"{self.title_name(state, new)}")
        if self.forbidden(state, ch.attacker, new, ch.type):
            return (f"{ch.type} challenges between {self.who(state, ch.attacker)} and "
                    f"{self.who(state, new)} are forbidden this round")
        return None

    # -- §8.5 defenders, take ---------------------------------------------------------------
    def eligible_defenders(self: Any, state: State, ch: Challenge) -> list[str]:
        index = self.play_index(state)
        bypassed = {t for _, t in ch.stealth} | set(ch.attackers) | set(ch.defenders)
        return [c.id for c in state.cards
                if self.can_defend(state, ch.defender, c.id, ch.type, index, bypassed)]

    def _apply_declare_defenders(self: Any, state: State, action: Action) -> State:
        ch = self._open(state, "attackers_declared")
        self.require_turn(state, action, ch.defender, "declare defenders")
        defenders = list(action.data["defenders"])
        require(len(set(defenders)) == len(defenders), "bad_defenders", "a defender is listed "
                "twice")
        eligible = self.eligible_defenders(state, ch)
        for card in defenders:
            require(card in eligible, "illegal_defender",
                    f"{self.name(card)} cannot defend this {ch.type} challenge (needs a "
                    f"standing, not bypassed character of {self.who(state, ch.defender)} with "
                    f"the {ch.type} icon)", card=card)
        require(defenders or not eligible or not state.option("defense_compulsory"),
                "defense_compulsory", f"must declare at least one defender: "
                f"{self.who(state, ch.defender)} has "
                f"{plural(len(eligible), 'eligible character')}", eligible=len(eligible))
        exempt = self._check_not_kneeling(defenders, action.data.get("not_kneeling"), ch.type,
                                          "defend")
        state = self._kneel_all(state, defenders, exempt)
        return replace(state, challenge=replace(ch, defenders=(*ch.defenders, *defenders),
                                                step="defenders_declared",
                                                declared_none=not defenders))

    def take_problem(self, state: State, ch: Challenge, seat: Seat) -> str | None:
        if not self.is_melee(state) or self.holder(state, "lord_commander_kingsguard") != seat:
            return f"{self.who(state, seat)} does not hold the Lord Commander of the Kingsguard"
        if "lord_commander_kingsguard" in state.title_uses:
            return "the Lord Commander has already taken a challenge this round"
        if seat in (ch.attacker, ch.defender):
            return "the Lord Commander takes only a challenge between two other players"
        if not ch.declared_none:
            return "the Lord Commander takes a challenge only after no defenders were declared"
        return None

    def _apply_take_challenge(self: Any, state: State, action: Action) -> State:
        seat = self.seat_of(state, action)
        ch = self._open(state, "defenders_declared")
        why = self.take_problem(state, ch, seat)
        require(why is None, "illegal_take", why or "")
        return replace(state, challenge=replace(ch, defender=seat, stealth=(), defenders=(),
                                                step="attackers_declared", declared_none=False),
                       title_uses=state.title_uses | {"lord_commander_kingsguard"})

    # -- §8.6 resolution -----------------------------------------------------------------------
    def totals(self: Any, state: State, ch: Challenge) -> tuple[int, int]:
        index = self.play_index(state)
        att = sum(self.strength(state, c, index) for c in ch.attackers if c in index)
        dfn = sum(self.strength(state, c, index) for c in ch.defenders if c in index)
        return att, dfn

    def claim_value(self: Any, state: State, seat: Seat) -> int:
        return self.plot_value(state, seat, "claim")

    def _apply_resolve_challenge(self: Any, state: State, action: Action) -> State:
        ch = self._open(state, "defenders_declared")
        require(action.actor in ("table", ch.attacker), "not_your_turn",
                f"the challenge is resolved by the attacker, {self.who(state, ch.attacker)}, "
                "or the table")
        att, dfn = self.totals(state, ch)
        if ch.type == "power":  # ruling 9: the Hand's second power challenge needs another
            state = state.with_player(ch.attacker, power_defenders=(
                *state.players[ch.attacker].power_defenders, ch.defender))
        if att == dfn == 0:  # §13.2 ruling: no winner, nothing happens
            return self.close_challenge(replace(state, challenge=replace(
                ch, step="resolved", strength=(0, 0))))
        winner = ch.attacker if att >= dfn else ch.defender
        loser = ch.defender if winner == ch.attacker else ch.attacker
        ch = replace(ch, step="resolved", strength=(att, dfn), winner=winner, loser=loser)
        state = replace(state, challenge=ch)
        for step in (self._step_unopposed, self._step_renown, self._step_opposes,
                     self._step_claim, self._step_deadly):
            state = self.check_victory(step(state, state.challenge))
            if state.winner is not None or state.pending_winner:
                return state
        return self.advance_pending(state)

    def _step_unopposed(self: Any, state: State, ch: Challenge) -> State:
        if ch.winner == ch.attacker and ch.strength[1] == 0:
            return self.gain_house_power(state, ch.attacker,
                                         int(self.const["unopposed_bonus_power"]))
        return state

    def _step_renown(self: Any, state: State, ch: Challenge) -> State:
        side = ch.attackers if ch.winner == ch.attacker else ch.defenders
        index = self.play_index(state)
        for card in side:
            if card in index and self.has_keyword(state, card, "renown", index):
                state = self.add_power(state, card, 1)
        return state

    def _step_opposes(self: Any, state: State, ch: Challenge) -> State:
        if self.is_melee(state) and self.opposes(state, ch.winner, ch.loser):
            return self.gain_house_power(state, ch.winner,
                                         int(self.const["opposes_bonus_power"]))
        return state

    def _step_claim(self: Any, state: State, ch: Challenge) -> State:
        if ch.winner != ch.attacker:
            return state
        if ch.type == "power":
            claim = min(self.claim_value(state, ch.attacker),
                        state.players[ch.defender].house_power)
            if claim:
                state = self.add_power(state, f"house:{ch.defender}", -claim)
                state = self.add_power(state, f"house:{ch.attacker}", claim)
            return state
        pending: tuple[tuple[str, Seat], ...] = (("claim", ch.defender),)
        if ch.type == "intrigue" and state.titles[ch.attacker] == "master_of_whispers":
            pending = (("targets", ch.attacker), *pending)
        return replace(state, challenge=replace(ch, pending=pending))

    def _step_deadly(self: Any, state: State, ch: Challenge) -> State:
        side = ch.attackers if ch.winner == ch.attacker else ch.defenders
        index = self.play_index(state)
        k = sum(1 for c in side if c in index and self.has_keyword(state, c, "deadly", index))
        if not k:
            return state
        return replace(state, challenge=replace(ch, deadly=k,
                                                pending=(*ch.pending, ("deadly", ch.loser))))

    # -- pending choices ---------------------------------------------------------------------
    def pending_need(self: Any, state: State, ch: Challenge, kind: str, seat: Seat) -> int:
        """How many cards (or targets) a pending choice needs now; 0 means skip it."""
        if kind == "targets":
            claim = self.claim_value(state, ch.attacker)
            return int(claim > 0 and bool(self.extra_opponent_options(state, ch)))
        if kind == "claim":
            claim = self.claim_value(state, ch.attacker)
            if ch.type == "intrigue":
                return min(claim, len(state.players[seat].hand))
            return min(claim, len(self.claim_victims(state, ch, seat)))
        return min(ch.deadly, len(self.participants_of(state, ch, seat)))

    def participants_of(self: Any, state: State, ch: Challenge, seat: Seat) -> list[str]:
        index = self.play_index(state)
        return [c for c in dict.fromkeys((*ch.attackers, *ch.defenders))
                if c in index and index[c].controller == seat]

    def claim_victims(self: Any, state: State, ch: Challenge, seat: Seat) -> list[str]:
        if state.option("military_claim_scope") == "any":
            return [c.id for c in state.cards if c.controller == seat and c.host is None
                    and self.is_character(c.id)]
        return self.participants_of(state, ch, seat)

    def extra_opponent_options(self: Any, state: State, ch: Challenge) -> list[Seat]:
        return [s for s in state.active if s not in (ch.attacker, ch.defender)
                and not self.supports(state, ch.attacker, s)]

    def advance_pending(self: Any, state: State) -> State:
        ch = state.challenge
        assert ch is not None
        pending = list(ch.pending)
        while pending and self.pending_need(state, ch, *pending[0]) == 0:
            pending.pop(0)
        if not pending:
            return self.close_challenge(state)
        return replace(state, challenge=replace(ch, pending=tuple(pending)))

    def close_challenge(self: Any, state: State) -> State:
        """§8.7: the challenge ends; "until challenge" modifiers expire."""
        return replace(state, challenge=None,
                       modifiers=tuple(m for m in state.modifiers if m.until != "challenge"),
                       plot_mods=tuple(p for p in state.plot_mods if p[4] != "challenge"))

    def _pending_head(self: Any, state: State, action: Action, kind: str) -> Challenge:
        ch = state.challenge
        require(ch is not None and ch.step == "resolved" and bool(ch.pending)
                and ch.pending[0][0] == kind, "wrong_step",
                f"nothing is waiting for {PENDING_WAITS[kind]} now (§8.6)")
        assert ch is not None
        self.require_turn(state, action, ch.pending[0][1], PENDING_TURNS[kind])
        return ch

    def _apply_choose_claim_targets(self: Any, state: State, action: Action) -> State:
        ch = self._pending_head(state, action, "targets")
        extra = list(action.data["extra_opponents"])
        options = self.extra_opponent_options(state, ch)
        require(len(set(extra)) == len(extra), "bad_seat", "an opponent is named twice")
        may = words_list(self.who(state, s) for s in options) or "nobody"
        for seat in extra:
            require(seat in options, "illegal_claim_target",
                    f"{self.who(state, seat)} cannot be named: the Master of Whispers names "
                    "opponents other than the attacker and defender whose title it does not "
                    f"support (§2.5); it may name {may}", seat=seat)
        rest = list(ch.pending[1:])
        at = 1 if rest and rest[0][0] == "claim" else 0
        rest[at:at] = [("claim", s) for s in extra]
        return self.advance_pending(replace(state, challenge=replace(ch, pending=tuple(rest))))

    def _apply_apply_claim(self: Any, state: State, action: Action) -> State:
        ch = self._pending_head(state, action, "claim")
        seat = ch.pending[0][1]
        need = self.pending_need(state, ch, "claim", seat)
        data = action.data
        if ch.type == "intrigue":
            cards = list(data.get("discards") or ())
            require(len(cards) == need and len(set(cards)) == need, "wrong_claim_count",
                    f"the intrigue claim discards exactly {plural(need, 'card')} at random, "
                    f"not {len(cards)}", expected=need)
            state = self._op_discard_from_hand(state, seat, {"op": "discard_from_hand",
                                                             "seat": seat, "cards": cards})
        else:
            state = self._kill_chosen(state, seat, data, need,
                                      self.claim_victims(state, ch, seat), "military claim")
        ch = state.challenge
        assert ch is not None
        return self.advance_pending(replace(state, challenge=replace(ch, pending=ch.pending[1:])))

    def _kill_chosen(self: Any, state: State, seat: Seat, data: Any, need: int,
                     eligible: list[str], what: str) -> State:
        kills = list(data.get("kills") or ())
        require(len(kills) == need and len(set(kills)) == need, "wrong_claim_count",
                f"the {what} kills exactly {plural(need, 'distinct character')}, not "
                f"{len(kills)}",
                expected=need)
        for card in kills:
            require(card in eligible, "illegal_claim_target",
                    f"{self.name(card)} cannot be chosen for the {what}", card=card)
        return self.remove_cards(state, seat, kills, "dead", data.get("saves"),
                                 data.get("redirect"))

    def _apply_apply_deadly(self: Any, state: State, action: Action) -> State:
        ch = self._pending_head(state, action, "deadly")
        seat = ch.pending[0][1]
        need = self.pending_need(state, ch, "deadly", seat)
        state = self._kill_chosen(state, seat, action.data, need,
                                  self.participants_of(state, ch, seat), "deadly")
        ch = state.challenge
        assert ch is not None
        return self.advance_pending(replace(state, challenge=replace(ch, pending=ch.pending[1:])))

    def _apply_end_challenges(self: Any, state: State, action: Action) -> State:
        self._require_challenge_turn(state, action)
        nxt = self.next_after(state, state.turn)
        state = replace(state, passed=state.passed | {state.turn})
        if nxt is not None:
            return replace(state, turn=nxt)
        return replace(self.set_phase(state, "dominance"), turn=None)
