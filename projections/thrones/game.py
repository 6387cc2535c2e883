"""A Game of Thrones: The Card Game, first edition (Core Set, 2008), 2-4 players.

Spec: shared/games/thrones.md (data: data/thrones.json). Card abilities are not coded:
players record them as generic `effect` events (§9); the reducer enforces the structural
rules (§5-§8, §10) and checks each effect's basic validity.

Actions: start_game, mulligan, setup_cards, setup_draw, choose_plot, break_initiative_tie,
choose_first_player, choose_title, draw_phase, marshal_card, end_marshalling,
declare_challenge, assign_stealth, redirect_challenge, declare_defenders, take_challenge,
resolve_challenge, choose_claim_targets, apply_claim, apply_deadly, end_challenges,
resolve_dominance, end_round, effect, choose_winner, concede.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from ..rules import ALL, Action, GameRules, IllegalAction, Viewer, require, thaw
from .cards import CardsMixin
from .challenges import ChallengesMixin
from .describe import DescribeMixin
from .effects import EffectsMixin
from .legal import LegalMixin
from .model import SCHEMAS, Player, Seat, State, owner_of, replace
from .rounds import RoundsMixin
from .words import vocabulary, words

HIDDEN_DRAW_OPS = ("draw",)


class _EditionCard(Schema):
    number = fields.Integer(required=True)
    name = fields.String(required=True)
    type = fields.String(required=True)
    houses = fields.List(fields.String(), required=True)
    unique = fields.Boolean(required=True)
    cost = fields.Integer(allow_none=True, required=True)
    strength = fields.Integer(allow_none=True, required=True)
    icons = fields.List(fields.String(), required=True)
    crests = fields.List(fields.String(), required=True)
    traits = fields.List(fields.String(), required=True)
    keywords = fields.List(fields.String(), required=True)
    house_only = fields.String(allow_none=True, required=True)
    income_bonus = fields.Integer(required=True)
    initiative_bonus = fields.Integer(required=True)


class _Edition(Schema):
    slug = fields.String(required=True, validate=validate.Equal("thrones"))
    constants = fields.Dict(required=True)
    houses = fields.List(fields.Dict(), required=True)
    starter_decks = fields.Dict(required=True)
    titles = fields.List(fields.Dict(), required=True)
    cards = fields.List(fields.Nested(_EditionCard(unknown="include")), required=True,
                        validate=validate.Length(min=1))


CONSTANTS = ("victory_power", "setup_hand_size", "setup_gold", "setup_max_limited",
             "draw_phase_cards", "out_of_house_surcharge", "unopposed_bonus_power",
             "dominance_power", "opposes_bonus_power", "plot_deck_size")


class Thrones(LegalMixin, ChallengesMixin, EffectsMixin, RoundsMixin, DescribeMixin, CardsMixin,
              GameRules):
    slug: ClassVar[str] = "thrones"
    title: ClassVar[str] = "A Game of Thrones: The Card Game (first edition)"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = SCHEMAS
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "start_game": ("setup_hands", "setup_first"), "mulligan": ("new_hand",),
        "setup_draw": ("draws",), "draw_phase": ("draws",),
        "break_initiative_tie": ("winner",), "apply_claim": ("discards",),
    }
    # §4 and §1: the seed's rules are the defaults; the options restore the published ones
    default_options: ClassVar[Mapping[str, Any]] = {
        "military_claim_scope": "participating",
        "defense_compulsory": True,
        "dead_pile_blocks_unique": True,
        "draw_cap": None,
        "allow_mulligan": False,
    }
    never_undoable: ClassVar[frozenset[str]] = frozenset({"choose_plot"})

    # -- edition ------------------------------------------------------------------
    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        try:
            _Edition(unknown="include").load(dict(content))
        except ValidationError as err:
            return [f"{key}: {msg}" for key, msg in sorted(err.normalized_messages().items())]
        missing = [k for k in CONSTANTS if k not in content["constants"]]
        return [f"constants: missing {k}" for k in missing]

    def labels(self) -> dict[str, str]:
        """Card names for card ids and for each seat's copies ("p1-063" is core_063's name),
        and words for houses, titles, phases, steps, icons, keywords and the rest of the
        game's vocabulary. Later copies of one number in a custom deck ("p1-063-2") are not
        listed; `words.label_of` names any instance id from these labels."""
        out = vocabulary(self.edition)
        out.update(super().labels())  # card and title names, then the edition's own labels
        for seat in range(max(self.player_counts)):
            for number, card in self.by_number.items():
                out.setdefault(f"p{seat}-{number:03d}", out.get(card["id"], card["name"]))
        return out

    # -- protocol -------------------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        """Before start_game: seats and options only."""
        options = {**self.default_options, **dict(created.get("options") or {})}
        names = tuple(str(n) for n in created["players"])
        return State(n=len(names), options=tuple(sorted(options.items())), names=names)

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action; victory is checked after every event (§7.7)."""
        handler = getattr(self, f"_apply_{action.type}", None)
        if action.type not in SCHEMAS or handler is None:
            raise IllegalAction("unknown_action",
                                f'A Game of Thrones has no action "{action.type}"')
        require(state.winner is None, "game_over", "the game is over")
        if state.pending_winner and action.type not in ("choose_winner", "concede"):
            raise IllegalAction("awaiting_winner_choice",
                                f"{self.seats_words(state, state.pending_winner)} reached "
                                f"{self.const['victory_power']} power together; the first "
                                f"player, {self.who(state, self.chooser(state))}, must choose "
                                "the winner first")
        try:
            return self.check_victory(handler(state, action))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            missing = isinstance(err, KeyError) and err.args
            what = f"its {words(str(err.args[0]))} is missing" if missing else \
                "a field has the wrong type or shape"
            raise IllegalAction("bad_data", f"the {words(action.type)} data is malformed: "
                                f"{what}") from None

    def check_victory(self, state: State) -> State:
        if state.winner is not None or state.pending_winner or not state.players:
            return state
        goal = int(self.const["victory_power"])
        reached = [s for s in state.active if self.total_power(state, s) >= goal]
        if len(reached) == 1:
            return replace(state, winner=reached[0], end_reason="power", phase="over")
        if reached:
            return replace(state, pending_winner=tuple(reached))
        return state

    def chooser(self, state: State) -> Seat:
        """§7.7: the first player, or the setup starter before one exists (designed)."""
        seat = state.first_player if state.first_player is not None else state.setup_first
        if state.players[seat].conceded:
            seat = self.order(state, seat)[0]
        return seat

    def _apply_choose_winner(self, state: State, action: Action) -> State:
        require(bool(state.pending_winner), "no_winner_choice",
                "no players reached the power goal together, so there is no winner to choose")
        self.require_turn(state, action, self.chooser(state), "choose the winner")
        winner = action.data.get("winner")
        require(winner in state.pending_winner, "not_a_candidate",
                f"{self.who(state, winner)} did not reach {self.const['victory_power']} power; "
                f"choose {self.seats_words(state, state.pending_winner, 'or')}", winner=winner)
        return replace(state, winner=winner, pending_winner=(), end_reason="power",
                       phase="over")

    def to_act(self, state: State) -> tuple[Any, ...]:
        if state.winner is not None:
            return ()
        if state.pending_winner:
            return (self.chooser(state),)
        phase = state.phase
        if phase in ("start", "setup_draw", "draw", "dominance"):
            return ("table",)
        if phase == "setup":
            return (state.turn,)
        if phase == "plot":
            if state.step == "choose":
                return tuple(s for s in state.active if state.players[s].chosen_plot is None)
            if state.step == "tie":
                return ("table",)
            return (state.initiative_winner if state.step == "first_player" else state.turn,)
        if phase == "challenges" and state.challenge is not None:
            return self._challenge_actors(state)
        return (state.turn,)

    def _challenge_actors(self, state: State) -> tuple[Any, ...]:
        ch = state.challenge
        assert ch is not None
        if ch.step == "resolved":
            return (ch.pending[0][1],)
        actors = [ch.defender] if ch.step == "attackers_declared" else [ch.attacker]
        if ch.step == "attackers_declared" and not ch.stealth and \
                self._greedy_stealth(state, ch):
            actors.append(ch.attacker)
        if self.is_melee(state):
            regent = self.holder(state, "crown_regent")
            if ch.step == "attackers_declared" and regent is not None and any(
                    self.redirect_problem(state, ch, regent, s) is None for s in state.active):
                actors.append(regent)
            lord = self.holder(state, "lord_commander_kingsguard")
            if ch.step == "defenders_declared" and lord is not None and \
                    self.take_problem(state, ch, lord) is None:
                actors.append(lord)
        return tuple(dict.fromkeys(actors))

    def result(self, state: State) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        scores = [self.total_power(state, s) for s in range(state.n)]
        per_seat = [{"house_power": p.house_power,
                     "card_power": sum(c.power for c in state.cards if c.controller == s),
                     "total": scores[s], "conceded": p.conceded}
                    for s, p in enumerate(state.players)]
        return {"scores": scores, "winners": [state.winner], "reason": state.end_reason,
                "breakdown": {"per_seat": per_seat}}

    # -- concede (§6.17) -------------------------------------------------------------------
    def _apply_concede(self, state: State, action: Action) -> State:
        seat = self.seat_of(state, action)
        require(state.phase != "start", "wrong_phase", "the game has not started")
        power = self.total_power(state, seat)
        for card in [c.id for c in state.cards if c.controller == seat or owner_of(c.id) == seat]:
            if any(c.id == card for c in state.cards):
                state = self.leave_play(state, card, "removed")
        player = state.players[seat]
        removed = [*player.removed, *player.hand, *player.deck, *player.plot_deck,
                   *(c for c, _ in player.setup_cards)]
        if player.revealed_plot:
            removed.append(player.revealed_plot)
        state = self.add_power(state, f"house:{seat}", -player.house_power)
        state = state.with_player(seat, conceded=True, final_power=power,
                                  removed=tuple(removed), hand=type(player.hand)(),
                                  deck=type(player.deck)(), plot_deck=type(player.deck)(),
                                  setup_cards=(), revealed_plot=None, chosen_plot=None, gold=0)
        titles = (*state.titles[:seat], None, *state.titles[seat + 1:]) if state.titles else ()
        state = replace(state, titles=titles)
        if len(state.active) == 1:
            return replace(state, winner=state.active[0], end_reason="concession",
                           phase="over", challenge=None)
        return self._after_concede(state, seat)

    def _after_concede(self, state: State, seat: Seat) -> State:
        ch = state.challenge
        if ch is not None:
            if seat in (ch.attacker, ch.defender):
                state = self.close_challenge(state)
            elif ch.pending:
                state = self.advance_pending(replace(state, challenge=replace(
                    ch, pending=tuple(p for p in ch.pending if p[1] != seat))))
        if state.pending_winner:
            left = tuple(s for s in state.pending_winner if s != seat)
            return replace(state, pending_winner=left) if len(left) > 1 else replace(
                state, pending_winner=(), winner=left[0], end_reason="power", phase="over")
        if state.turn == seat or (state.phase == "plot" and state.step != "titles"):
            return self._skip_conceded(state, seat)
        return state

    def _skip_conceded(self, state: State, seat: Seat) -> State:
        phase = state.phase
        if phase == "plot":
            if state.step == "choose":
                done = all(state.players[s].chosen_plot for s in state.active)
                return self._reveal_plots(state) if done else state
            if state.step == "tie":
                tied = tuple(s for s in state.tied if s != seat)
                return replace(state, tied=tied) if len(tied) > 1 else replace(
                    state, tied=(), step="first_player", initiative_winner=tied[0])
            if state.step == "first_player":
                return self.settle_initiative(state) if state.initiative_winner == seat \
                    else state
        nxt = self.next_after(state, seat, state.setup_first if phase == "setup" else None)
        if nxt is not None:
            return replace(state, turn=nxt) if phase != "marshalling" else \
                self.begin_marshal_turn(state, nxt)
        if phase == "setup":
            return self._reveal_setup(state)
        if phase == "plot":
            return self.begin_draw_phase(state)
        if phase == "marshalling":
            return replace(self.set_phase(state, "challenges"), turn=self.order(state)[0])
        if phase == "challenges":
            return replace(self.set_phase(state, "dominance"), turn=None)
        return state

    # -- views ---------------------------------------------------------------------------------
    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        index = self.play_index(state)
        over = state.winner is not None
        see_all = seat == ALL or over
        players = [self._player_view(state, s, p, see_all or seat == s)
                   for s, p in enumerate(state.players)]
        cards = [{"id": c.id, "name": self.name(c.id), "controller": c.controller,
                  "knelt": c.knelt, "power": c.power, "host": c.host,
                  "duplicates": list(c.duplicates),
                  **({"strength": self.strength(state, c.id, index)}
                     if self.is_character(c.id) and c.host is None else {})}
                 for c in state.cards]
        ch = state.challenge
        return {
            "phase": state.phase, "step": state.step, "round": state.round,
            "to_act": list(self.to_act(state)), "first_player": state.first_player,
            "turn": state.turn, "setup_first": state.setup_first,
            "initiative_winner": state.initiative_winner, "tied": list(state.tied),
            "titles": list(state.titles), "title_uses": sorted(state.title_uses),
            "options": dict(state.options), "players": players, "in_play": cards,
            "modifiers": [thaw({"kind": m.kind, "card": m.card, "until": m.until,
                                "amount": m.amount, "value": m.value}) for m in state.modifiers],
            "challenge": None if ch is None else {
                "type": ch.type, "attacker": ch.attacker, "defender": ch.defender,
                "attackers": list(ch.attackers), "defenders": list(ch.defenders),
                "stealth": dict(ch.stealth), "step": ch.step,
                "strength": list(self.totals(state, ch)) if ch.step != "resolved"
                else list(ch.strength), "winner": ch.winner,
                "pending": [list(p) for p in ch.pending]},
            "forbids": [list(f) for f in state.forbids],
            "power": [self.total_power(state, s) for s in range(state.n)] if state.players
            else [0] * state.n,
            "pending_winner": list(state.pending_winner), "winner": state.winner,
            "end_reason": state.end_reason,
        }

    def _player_view(self, state: State, seat: Seat, p: Player, own: bool) -> dict[str, Any]:
        out = {
            "seat": seat, "name": state.names[seat], "house": p.house, "gold": p.gold,
            "house_power": p.house_power, "house_knelt": p.house_knelt,
            "conceded": p.conceded, "hand_count": len(p.hand), "deck_count": len(p.deck),
            "plot_deck_count": len(p.plot_deck), "revealed_plot": p.revealed_plot,
            "used_plots": list(p.used_plots), "discard": list(p.discard),
            "dead": list(p.dead), "removed": list(p.removed),
            "setup_count": len(p.setup_cards), "has_chosen_plot": p.chosen_plot is not None,
            "challenges_used": dict(zip(("military", "intrigue", "power"), p.used,
                                        strict=True)),
            "limited_played": p.limited_played,
        }
        if own:
            out.update(hand=sorted(p.hand), deck=sorted(p.deck), plot_deck=sorted(p.plot_deck),
                       chosen_plot=p.chosen_plot,
                       setup_cards=[{"card": c, "attach_to": a} for c, a in p.setup_cards],
                       reductions=[{"amount": r.amount, "filter": thaw(dict(r.filter))}
                                   for r in p.reductions])
        return out

    # -- redaction (§11) -------------------------------------------------------------------------
    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        if seat == ALL:
            return None
        data, kind, actor = thaw(action.data), action.type, action.actor
        if kind == "start_game":
            hands = data.get("setup_hands") or {}
            data["setup_hands"] = {k: v for k, v in hands.items() if str(seat) == str(k)}
            data["setup_hand_counts"] = {k: len(v) for k, v in hands.items()}
            return data
        if kind in ("setup_draw", "draw_phase"):
            draws = data.get("draws") or {}
            return {"draws": {k: v for k, v in draws.items() if str(seat) == str(k)},
                    "drawn_counts": {k: len(v) for k, v in draws.items()}}
        if actor != seat and kind == "mulligan":
            return {"new_hand_count": len(data.get("new_hand") or ())}
        if actor != seat and kind == "setup_cards":
            return {"count": len(data.get("cards") or ())}
        if actor != seat and kind == "choose_plot":
            return {"chosen": True}
        if kind == "effect":
            return self._redact_effect(data, seat)
        return None

    def _redact_effect(self, data: dict[str, Any], seat: Viewer) -> dict[str, Any] | None:
        changed = False
        for key in ("costs", "ops"):
            for op in data.get(key) or []:
                if not isinstance(op, dict) or op.get("seat") == seat:
                    continue
                if op.get("op") == "draw" and isinstance(op.get("cards"), list):
                    op["count"] = len(op.pop("cards"))
                    changed = True
                elif op.get("op") == "search_deck" and op.get("to") == "hand" \
                        and not op.get("reveal"):
                    op.pop("card", None)
                    changed = True
        return data if changed else None

    def is_undoable_in_digital(self, action: Action) -> bool:
        if action.type == "effect":
            ops = [*(action.data.get("costs") or ()), *(action.data.get("ops") or ())]
            if any(hasattr(op, "get") and op.get("op") in ("draw", "discard_from_deck",
                                                             "search_deck") for op in ops):
                return False
        return super().is_undoable_in_digital(action)
