"""Legal actions and chance filling (contract: a representative finite subset, §12).

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
from typing import Any

from ..rules import Action, Dealer, IllegalAction, seat_name, thaw
from .model import TYPES, Challenge, Seat, State, instance_ids
from .rounds import per_seat

CONCEDE_ROUND = 25
HOUSE_ORDER = ("Stark", "Lannister", "Baratheon", "Targaryen")


def _act(kind: str, actor: Any, data: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": kind, "actor": actor, "data": data or {}}


def _slot(field: str, path: list[Any], options: list[Any], many: bool, count: int | None,
          label: str) -> dict[str, Any]:
    return {"field": field, "path": path, "options": options, "many": many, "count": count,
            "label": label}


def _who(state: State, seat: Seat, also: str = "") -> str:
    """A player as the table knows them: "Bo", or "Bo (House Stark)"."""
    name = seat_name(state.names, seat)
    return f"{name} (House {also})" if also else name


def _filled(data: Any, field: str, path: list[Any]) -> bool:
    """Whether the action already carries an outcome at `field` + `path`."""
    value = data.get(field)
    for key in path:
        if not hasattr(value, "get"):
            return False
        value = value.get(key)
    return value not in (None, (), [])


class LegalMixin:
    def legal_actions(self: Any, state: State, seat: Any = None) -> list[dict[str, Any]]:
        """Every listed legal action for `seat` (None: every actor in to_act)."""
        actors = [a for a in self.to_act(state) if seat is None or a == seat]
        out: list[dict[str, Any]] = []
        for actor in actors:
            out.extend(self._legal_for(state, actor))
        return out

    def _valid(self: Any, state: State, candidates: list[dict[str, Any]]
               ) -> list[dict[str, Any]]:
        good = []
        for cand in candidates:
            try:
                self.apply(state, Action.of(cand["type"], cand["actor"], cand["data"]))
            except IllegalAction:
                continue
            good.append(cand)
        return good

    def _legal_for(self: Any, state: State, actor: Any) -> list[dict[str, Any]]:
        if state.pending_winner:
            return [_act("choose_winner", actor, {"winner": s}) for s in state.pending_winner]
        phase = state.phase
        if phase == "start":
            return self._legal_start(state)
        if phase == "setup":
            return self._legal_setup(state, actor)
        if phase in ("setup_draw", "draw"):
            return [_act(phase if phase == "setup_draw" else "draw_phase", "table")]
        if phase == "plot":
            return self._legal_plot(state, actor)
        if phase == "marshalling":
            return self._legal_marshal(state, actor)
        if phase == "challenges":
            return self._legal_challenges(state, actor)
        if phase == "dominance":
            return [_act("end_round" if state.dominance_done else "resolve_dominance",
                         "table")]
        return []

    def _legal_start(self, state: State) -> list[dict[str, Any]]:
        out = []
        for shift in range(len(HOUSE_ORDER)):
            houses = [HOUSE_ORDER[(shift + s) % len(HOUSE_ORDER)] for s in range(state.n)]
            players = [{"seat": s, "name": state.names[s], "house": h}
                       for s, h in enumerate(houses)]
            out.append(_act("start_game", "table", {"players": players}))
        return out

    def _legal_setup(self: Any, state: State, actor: Any) -> list[dict[str, Any]]:
        player = state.players[actor]
        hand = sorted(set(player.hand))
        cands = [[]] + [[c] for c in hand]
        for i in range(len(hand)):
            pick: list[str] = []
            for card in hand[i:] + hand[:i]:
                try:
                    self.check_setup(state, actor, [(c, None) for c in [*pick, card]])
                except IllegalAction:
                    continue
                pick.append(card)
            cands.append(pick)
        seen, out = set(), []
        for cards in cands:
            key = tuple(sorted(cards))
            if key in seen:
                continue
            seen.add(key)
            try:
                self.check_setup(state, actor, [(c, None) for c in cards])
            except IllegalAction:
                continue
            out.append(_act("setup_cards", actor, {"cards": [{"card": c} for c in cards]}))
        if state.option("allow_mulligan") and not player.mulliganed:
            out.append(_act("mulligan", actor))
        return out

    def _legal_plot(self: Any, state: State, actor: Any) -> list[dict[str, Any]]:
        if state.step == "tie":
            return [_act("break_initiative_tie", "table")]
        if state.step == "first_player":
            return [_act("choose_first_player", actor, {"first_player": s})
                    for s in state.active]
        if state.step == "titles":
            return [_act("choose_title", actor, {"title": t}) for t in self.title_data
                    if t not in state.titles]
        source = self.plot_source(state, actor)
        house = state.players[actor].house
        out = [_act("choose_plot", actor, {"plot": p})
               for p in sorted(set(state.players[source].plot_deck))
               if self.card(p).get("house_only") in (None, house)]
        if state.round >= CONCEDE_ROUND:
            out.append(_act("concede", actor))
        return out

    def _legal_marshal(self: Any, state: State, actor: Any) -> list[dict[str, Any]]:
        player = state.players[actor]
        cands: list[dict[str, Any]] = []
        out: list[dict[str, Any]] = []
        hosts = [c.id for c in state.cards if c.host is None and self.is_character(c.id)]
        for card in sorted(set(player.hand)):
            data = self.card(card)
            if data["type"] not in ("character", "location", "attachment"):
                continue
            if data["unique"] and self.controls_name(state, actor, data["name"]):
                cands.append(_act("marshal_card", actor, {"card": card, "as_duplicate": True}))
                continue
            if data["type"] == "attachment":
                mine = [h for h in hosts if self.in_play(state, h).controller == actor]
                others = [h for h in hosts if h not in mine]
                for host in (mine[:2] + others[:1]):
                    cands.append(_act("marshal_card", actor, {"card": card, "attach_to": host}))
                continue
            if self._can_marshal(state, actor, card):
                out.append(_act("marshal_card", actor, {"card": card}))
        return [*out, *self._valid(state, cands), _act("end_marshalling", actor)]

    def _can_marshal(self: Any, state: State, seat: Seat, card: str) -> bool:
        """A cheap pre-check of a plain marshal (§6.10) without building the next state."""
        player = state.players[seat]
        data = self.card(card)
        if "limited" in data["keywords"] and player.limited_played:
            return False
        if data.get("house_only") not in (None, player.house):
            return False
        if self.marshal_cost(state, seat, card)[0] > player.gold:
            return False
        try:
            self.check_unique(state, seat, card)
        except IllegalAction:
            return False
        return True

    def _legal_challenges(self: Any, state: State, actor: Any) -> list[dict[str, Any]]:
        ch = state.challenge
        if ch is None:
            return [*self._legal_declare(state, actor), _act("end_challenges", actor)]
        if ch.step == "attackers_declared":
            return self._legal_attackers_declared(state, ch, actor)
        if ch.step == "defenders_declared":
            out = []
            if actor == ch.attacker:
                out.append(_act("resolve_challenge", actor))
            if self.take_problem(state, ch, actor) is None:
                out.append(_act("take_challenge", actor))
            return out
        return self._legal_pending(state, ch, actor)

    def _legal_declare(self: Any, state: State, seat: Seat) -> list[dict[str, Any]]:
        index = self.play_index(state)
        out = []
        for kind in TYPES:
            ready = [c.id for c in state.cards if self.can_attack(state, seat, c.id, kind, index)]
            if not ready:
                continue
            groups = [ready] + ([[c] for c in ready[:3]] if len(ready) > 1 else [])
            for defender in state.active:
                if self.challenge_allowed(state, seat, kind, defender) is not None:
                    continue
                out.extend(_act("declare_challenge", seat, {"type": kind, "defender": defender,
                                                            "attackers": g}) for g in groups)
        return out

    def _legal_attackers_declared(self: Any, state: State, ch: Challenge, actor: Any
                                  ) -> list[dict[str, Any]]:
        out = []
        if actor == ch.defender:
            eligible = self.eligible_defenders(state, ch)
            groups = [eligible] + ([[c] for c in eligible[:3]] if len(eligible) > 1 else [])
            if not eligible or not state.option("defense_compulsory"):
                groups.append([])
            seen = set()
            for group in groups:
                if tuple(group) not in seen:
                    seen.add(tuple(group))
                    out.append(_act("declare_defenders", actor, {"defenders": group}))
        if actor == ch.attacker and not ch.stealth:
            bypass = self._greedy_stealth(state, ch)
            if bypass:
                out.append(_act("assign_stealth", actor, {"bypass": bypass}))
        if self.is_melee(state) and self.holder(state, "crown_regent") == actor:
            out.extend(_act("redirect_challenge", actor, {"new_defender": s})
                       for s in state.active
                       if self.redirect_problem(state, ch, actor, s) is None)
        return out

    def _greedy_stealth(self: Any, state: State, ch: Challenge) -> dict[str, str]:
        index = self.play_index(state)
        targets = [c.id for c in state.cards if c.controller == ch.defender and c.host is None
                   and self.is_character(c.id) and not self.card(c.id).get("stealth_immune")
                   and not self.has_keyword(state, c.id, "stealth", index)]
        bypass = {}
        for att in ch.attackers:
            if targets and self.has_keyword(state, att, "stealth", index):
                bypass[att] = targets.pop(0)
        return bypass

    def _legal_pending(self: Any, state: State, ch: Challenge, actor: Any
                       ) -> list[dict[str, Any]]:
        kind, seat = ch.pending[0]
        need = self.pending_need(state, ch, kind, seat)
        if kind == "targets":
            options = self.extra_opponent_options(state, ch)
            return [_act("choose_claim_targets", actor, {"extra_opponents": []}),
                    _act("choose_claim_targets", actor, {"extra_opponents": options})]
        if kind == "claim" and ch.type == "intrigue":
            return [_act("apply_claim", actor)]
        pool = self.claim_victims(state, ch, seat) if kind == "claim" else \
            self.participants_of(state, ch, seat)
        name = "apply_claim" if kind == "claim" else "apply_deadly"
        out = []
        for combo in list(combinations(pool, need))[:4]:
            out.append(_act(name, actor, {"kills": list(combo)}))
        dup = [c for c in pool if self.in_play(state, c).duplicates]
        if dup and need:
            kills = [dup[0], *[c for c in pool if c != dup[0]][:need - 1]]
            out.append(_act(name, actor, {"kills": kills,
                                          "saves": [{"card": dup[0], "by": "duplicate"}]}))
        return out

    # -- chance ---------------------------------------------------------------------------------
    def fill_chance(self: Any, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        data = dict(thaw(action.data))
        kind = action.type
        if kind == "start_game":
            return self._fill_start(state, data, dealer)
        if kind == "mulligan":
            player = state.players[action.actor]
            pool = list(player.deck) + list(player.hand)
            data["new_hand"] = dealer.shuffled(pool)[:int(self.const["setup_hand_size"])]
        elif kind in ("setup_draw", "draw_phase"):
            counts = self.setup_draw_counts(state) if kind == "setup_draw" \
                else self.draw_counts(state)
            data["draws"] = {str(s): dealer.shuffled(state.players[s].deck)[:n]
                             for s, n in counts.items()}
        elif kind == "break_initiative_tie":
            data["winner"] = dealer.choice(list(state.tied))
        elif kind == "apply_claim" and state.challenge and state.challenge.type == "intrigue" \
                and state.challenge.pending:
            ch = state.challenge
            seat = ch.pending[0][1]
            need = self.pending_need(state, ch, "claim", seat)
            data["discards"] = dealer.shuffled(state.players[seat].hand)[:need]
        return data

    def _fill_start(self: Any, state: State, data: dict[str, Any], dealer: Dealer
                    ) -> dict[str, Any]:
        data["setup_first"] = dealer.below(state.n)
        hands = {}
        for entry in sorted(data.get("players") or [], key=lambda e: e.get("seat", 0)):
            seat = entry["seat"]
            _, plots, draw = self._deck_for(seat, entry["house"],
                                            per_seat(data.get("decks"), seat))
            deck = instance_ids(seat, [*draw, *plots])[:len(draw)]
            hands[str(seat)] = dealer.shuffled(deck)[:int(self.const["setup_hand_size"])]
        data["setup_hands"] = hands
        return data

    def chance_slots(self: Any, state: State, action: Action) -> list[dict[str, Any]]:
        """Table mode: the outcomes `action` still needs, picked from what is still there.

        start_game: each seat's setup hand from that seat's draw deck (as the action's houses
        and decks build it), and the seat that sets up first; mulligan: the new hand from the
        seat's deck and old hand; setup_draw and draw_phase: the cards each seat draws (a seat
        drawing none has no slot: the reducer accepts its entry missing); break_initiative_tie:
        one of the tied seats; an intrigue apply_claim: the cards discarded from the losing
        seat's hand. Card ids are per-seat ("p<seat>-..."), so no two slots share an option.
        """
        try:
            slots = self._slots_for(state, action)
        except (IllegalAction, KeyError, IndexError, TypeError, ValueError, AttributeError):
            return []
        data = action.data
        return [s for s in slots if not _filled(data, s["field"], s["path"])]

    def _slots_for(self: Any, state: State, action: Action) -> list[dict[str, Any]]:
        kind, size = action.type, int(self.const["setup_hand_size"])
        if kind == "start_game" and state.phase == "start":
            return self._start_slots(state, action.data, size)
        if kind == "mulligan" and state.phase == "setup":
            seat = self.seat_of(state, action)
            player = state.players[seat]
            pool = sorted(player.deck.add(player.hand))
            return [_slot("new_hand", [], pool, True, min(size, len(pool)),
                          f"new hand of {_who(state, seat)}")]
        if kind in ("setup_draw", "draw_phase") and \
                state.phase == ("setup_draw" if kind == "setup_draw" else "draw"):
            counts = self.setup_draw_counts(state) if kind == "setup_draw" \
                else self.draw_counts(state)
            return [_slot("draws", [str(s)], sorted(state.players[s].deck), True, n,
                          f"cards {_who(state, s)} drew") for s, n in counts.items() if n > 0]
        if kind == "break_initiative_tie" and state.phase == "plot" and state.step == "tie":
            return [_slot("winner", [], list(state.tied), False, None,
                          "player who wins the initiative tie")]
        ch = state.challenge
        if kind == "apply_claim" and ch is not None and ch.type == "intrigue" \
                and ch.step == "resolved" and ch.pending and ch.pending[0][0] == "claim":
            seat = ch.pending[0][1]
            need = self.pending_need(state, ch, "claim", seat)
            if need > 0:
                return [_slot("discards", [], sorted(state.players[seat].hand), True, need,
                              f"cards {_who(state, seat)} discards at random")]
        return []

    def _start_slots(self: Any, state: State, data: Any, size: int) -> list[dict[str, Any]]:
        houses = self._start_houses(state, data["players"])
        slots = []
        for seat, house in enumerate(houses):
            _, plots, draw = self._deck_for(seat, house, per_seat(data.get("decks"), seat))
            deck = instance_ids(seat, [*draw, *plots])[:len(draw)]
            slots.append(_slot("setup_hands", [str(seat)], sorted(deck), True,
                               min(size, len(deck)),
                               f"setup hand of {_who(state, seat, house)}"))
        slots.append(_slot("setup_first", [], list(range(state.n)), False, None,
                           "player who sets up first"))
        return slots

    def auto_action(self, state: State) -> dict[str, Any] | None:
        """Chance events nobody chooses: the setup draw, the draw phase, an initiative tie."""
        if state.pending_winner or state.winner is not None:
            return None
        if state.phase == "setup_draw":
            return _act("setup_draw", "table")
        if state.phase == "draw":
            return _act("draw_phase", "table")
        if state.phase == "plot" and state.step == "tie":
            return _act("break_initiative_tie", "table")
        return None
