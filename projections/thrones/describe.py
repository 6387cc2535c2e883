"""Every Thrones action as the sentence a player would say at the table (`describe`).

A description is shown verbatim to every viewer of the log, before any redaction, so it
never names what a seat may not see (spec §11): cards drawn, a new hand, face-down setup
cards, a chosen plot, a card taken from a deck unrevealed. It names players by name and
cards by their edition name, and never shows an id, snake_case, `None` or a repr.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules import Action, plural, possessive, seat_name, words_list
from .words import PILES, SIDES, a_an, capitalized, house_card_of, words

Names = Sequence[str]
Phrase = Callable[[Any, Any, Names, Any], str]

UNTIL_WORDS = {"challenge": "until the end of the challenge", "phase": "until the end of "
               "the phase", "round": "until the end of the round"}
WHEN_WORDS = {"always": "", "participating": " while they take part in a challenge",
              "attacking": " while they attack", "defending": " while they defend",
              "dominance_phase": " in the dominance phase"}
FROM_WORDS = {"hand": "the hand", "deck": "the draw deck", "discard": "the discard pile",
              "dead": "the dead pile"}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _is(items: Sequence[Any]) -> str:
    return "is" if len(items) == 1 else "are"


class DescribeMixin:
    """`describe` for the Thrones rules; card names come from CardsMixin.name."""

    title_data: Any
    name: Callable[[Any], str]

    # -- naming ------------------------------------------------------------------
    def _card_words(self, cards: Any) -> str:
        return words_list([self.name(c) for c in cards or ()]) or "no cards"

    def _target_words(self, target: Any, names: Names) -> str:
        """A card, or a House card ("house:1") named by its player."""
        if isinstance(target, str) and target.startswith("house:") and target[6:].isdigit():
            return house_card_of(names, int(target[6:]))
        return self.name(target)

    def _source_words(self, source: Any, names: Names, actor: Any = None) -> str:
        if not source:
            return ""
        if source.startswith("plot:") and source[5:].isdigit():
            seat = int(source[5:])
            return "their plot" if seat == actor else f"{possessive(seat_name(names, seat))} plot"
        if source.startswith("title:"):
            title = self.title_data.get(source[6:])
            return title["name"] if title else words(source[6:])
        return self._target_words(source, names)

    def _title_words(self, title: Any) -> str:
        data = self.title_data.get(title)
        return data["name"] if data else words(str(title))

    # -- the sentence -----------------------------------------------------------
    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        """ "Anna declared a military challenge against Bo with Eddard Stark": one whole
        sentence naming the actor; malformed data still gets a sentence."""
        who = seat_name(names, action.actor)
        say = getattr(self, f"_say_{action.type}", None)
        phrase = None
        if say is not None:
            try:
                phrase = say(action.data, names, action.actor)
            except (KeyError, TypeError, AttributeError, IndexError, ValueError):
                phrase = None
        if phrase is None:
            phrase = f"recorded the action {words(action.type)}"
        return capitalized(f"{who} {phrase}")

    # -- start and setup (§5, §6.1-§6.4) --------------------------------------
    def _say_start_game(self, d: Any, names: Names, actor: Any) -> str:
        houses = words_list(f"{seat_name(names, p['seat'])} plays House {p['house']}"
                            for p in sorted(d.get("players") or (), key=lambda p: p["seat"]))
        first = d.get("setup_first")
        starter = f"; {seat_name(names, first)} sets up first" if isinstance(first, int) else ""
        return f"started the game: {houses}{starter}"

    def _say_mulligan(self, d: Any, names: Names, actor: Any) -> str:
        return "took a mulligan and drew a new hand"

    def _say_setup_cards(self, d: Any, names: Names, actor: Any) -> str:
        count = len(d.get("cards") or ())
        if not count:
            return "set up no cards"
        return f"placed {plural(count, 'card')} face down for setup"

    def _draw_counts(self, d: Any, names: Names) -> str:
        draws = d.get("draws") or {}
        counts = d.get("drawn_counts") or {k: len(v) for k, v in draws.items()}
        parts = [f"{seat_name(names, int(k))} drew {plural(int(n), 'card')}"
                 for k, n in sorted(counts.items(), key=lambda kv: int(kv[0]))]
        return words_list(parts) or "nobody drew a card"

    def _say_setup_draw(self, d: Any, names: Names, actor: Any) -> str:
        return f"dealt the setup draw: {self._draw_counts(d, names)}"

    # -- plot phase (§7.1) ---------------------------------------------------------
    def _say_choose_plot(self, d: Any, names: Names, actor: Any) -> str:
        return "chose a plot"

    def _say_break_initiative_tie(self, d: Any, names: Names, actor: Any) -> str:
        winner = d.get("winner")
        if not isinstance(winner, int):
            return "broke the initiative tie"
        return f"broke the initiative tie: {seat_name(names, winner)} wins the initiative"

    def _say_choose_first_player(self, d: Any, names: Names, actor: Any) -> str:
        first = d["first_player"]
        if first == actor:
            return "chose to be the first player"
        return f"chose {seat_name(names, first)} as the first player"

    def _say_choose_title(self, d: Any, names: Names, actor: Any) -> str:
        return f"took the title {self._title_words(d['title'])}"

    # -- draw and marshalling (§6.9-§6.11) ------------------------------------------
    def _say_draw_phase(self, d: Any, names: Names, actor: Any) -> str:
        return f"dealt the draw phase: {self._draw_counts(d, names)}"

    def _say_marshal_card(self, d: Any, names: Names, actor: Any) -> str:
        text = f"marshalled {self.name(d['card'])}"
        if d.get("as_duplicate"):
            text += " as a duplicate"
        host = d.get("attach_to")
        if host == "house":
            text += f" onto {house_card_of(names, actor)}"
        elif host:
            text += f" onto {self._target_words(host, names)}"
        cost = d.get("declared_cost")
        if isinstance(cost, int):
            text += f" for {cost} gold"
        return text

    def _say_end_marshalling(self, d: Any, names: Names, actor: Any) -> str:
        return "ended marshalling"

    # -- challenges (§8) ---------------------------------------------------------------
    def _say_declare_challenge(self, d: Any, names: Names, actor: Any) -> str:
        text = (f"declared {a_an(d['type'])} challenge against {seat_name(names, d['defender'])} "
                f"with {self._card_words(d['attackers'])}")
        standing = list(d.get("not_kneeling") or ())
        if standing:
            text += f"; {self._card_words(standing)} {'does' if len(standing) == 1 else 'do'} "
            text += "not kneel"
        return text

    def _say_assign_stealth(self, d: Any, names: Names, actor: Any) -> str:
        pairs = [f"{self.name(a)} bypasses {self.name(t)}" for a, t in (d["bypass"]).items()]
        return f"used stealth: {words_list(pairs)}" if pairs else "assigned no stealth"

    def _say_redirect_challenge(self, d: Any, names: Names, actor: Any) -> str:
        return (f"redirected the challenge to {seat_name(names, d['new_defender'])} as the "
                "Crown Regent")

    def _say_declare_defenders(self, d: Any, names: Names, actor: Any) -> str:
        defenders = list(d["defenders"])
        if not defenders:
            return "declared no defenders"
        return f"defended with {self._card_words(defenders)}"

    def _say_take_challenge(self, d: Any, names: Names, actor: Any) -> str:
        return "took the challenge as the Lord Commander of the Kingsguard"

    def _say_resolve_challenge(self, d: Any, names: Names, actor: Any) -> str:
        return "resolved the challenge"

    def _say_choose_claim_targets(self, d: Any, names: Names, actor: Any) -> str:
        extra = list(d["extra_opponents"])
        if not extra:
            return "named no further opponents for the intrigue claim"
        return (f"named {words_list(seat_name(names, s) for s in extra)} for the intrigue "
                "claim as the Master of Whispers")

    def _saves_words(self, d: Any, names: Names) -> str:
        out = []
        for save in d.get("saves") or ():
            how = "its duplicate" if save.get("by") == "duplicate" else "an ability"
            out.append(f"{self.name(save.get('card'))} is saved by {how}")
        for card, dest in (d.get("redirect") or {}).items():
            out.append(f"{self.name(card)} goes to the {PILES.get(dest, words(str(dest)))} "
                       "instead")
        return "".join(f"; {part}" for part in out)

    def _say_apply_claim(self, d: Any, names: Names, actor: Any) -> str:
        if d.get("discards") is not None:
            return f"discarded {self._card_words(d['discards'])} for the intrigue claim"
        return self._kills_words(d, names, "the military claim")

    def _say_apply_deadly(self, d: Any, names: Names, actor: Any) -> str:
        return self._kills_words(d, names, "deadly")

    def _kills_words(self, d: Any, names: Names, what: str) -> str:
        """ "lost Raff to deadly", or "chose Eddard for the military claim; Eddard is saved
        by its duplicate" when a save keeps a chosen card in play (§8.6)."""
        kills = list(d.get("kills") or ())
        if not kills:
            return f"had no character to lose to {what}"
        if d.get("saves"):
            return f"chose {self._card_words(kills)} for {what}{self._saves_words(d, names)}"
        return f"lost {self._card_words(kills)} to {what}{self._saves_words(d, names)}"

    def _say_end_challenges(self, d: Any, names: Names, actor: Any) -> str:
        return "ended challenges"

    # -- round end and the game's end (§7.5-§7.7, §6.16, §6.17) ---------------------
    def _say_resolve_dominance(self, d: Any, names: Names, actor: Any) -> str:
        return "resolved dominance"

    def _say_end_round(self, d: Any, names: Names, actor: Any) -> str:
        return "ended the round: cards stand, gold and titles return, plots are used"

    def _say_choose_winner(self, d: Any, names: Names, actor: Any) -> str:
        return f"chose {seat_name(names, d['winner'])} as the winner"

    def _say_concede(self, d: Any, names: Names, actor: Any) -> str:
        return "conceded"

    # -- effects (§9) ------------------------------------------------------------------
    def _say_effect(self, d: Any, names: Names, actor: Any) -> str:
        source = self._source_words(d.get("source"), names, actor)
        text = f"used {source}" if source else "recorded an effect"
        costs = [self.op_words(op, names) for op in d.get("costs") or ()]
        ops = [self.op_words(op, names) for op in d.get("ops") or ()]
        if costs:
            text += f" (cost: {'; '.join(costs)})"
        if ops:
            text += f": {'; '.join(ops)}"
        note = d.get("text")
        if note:
            text += f' ("{note}")'
        elif not ops and not costs:
            text += " that changes nothing"
        return text

    def op_words(self, op: Any, names: Names) -> str:
        """One change of an effect as a clause: "Eddard Stark kneels"."""
        kind = str(op.get("op")) if hasattr(op, "get") else ""
        say = getattr(self, f"_op_words_{kind}", None)
        if say is not None:
            try:
                return str(say(op, names))
            except (KeyError, TypeError, AttributeError, IndexError, ValueError):
                pass
        return words(kind) or "an unnamed change"

    def _op_words_kneel(self, op: Any, names: Names) -> str:
        return f"{self._target_words(op['card'], names)} kneels"

    def _op_words_stand(self, op: Any, names: Names) -> str:
        return f"{self._target_words(op['card'], names)} stands"

    def _op_words_kill(self, op: Any, names: Names) -> str:
        cards = list(op["cards"])
        return f"{self._card_words(cards)} {_is(cards)} killed{self._saves_words(op, names)}"

    def _op_words_discard_from_play(self, op: Any, names: Names) -> str:
        cards = list(op["cards"])
        return (f"{self._card_words(cards)} {_is(cards)} discarded from play"
                f"{self._saves_words(op, names)}")

    def _op_words_return_to_hand(self, op: Any, names: Names) -> str:
        cards = list(op["cards"])
        if len(cards) == 1:
            return f"{self._card_words(cards)} returns to its owner's hand"
        return f"{self._card_words(cards)} return to their owners' hands"

    def _op_words_take_control(self, op: Any, names: Names) -> str:
        return f"{seat_name(names, op['controller'])} takes control of {self.name(op['card'])}"

    def _op_words_put_into_play(self, op: Any, names: Names) -> str:
        text = (f"{self.name(op['card'])} is put into play from "
                f"{FROM_WORDS.get(op.get('from'), words(str(op.get('from'))))}")
        if isinstance(op.get("controller"), int):
            text += f" under {possessive(seat_name(names, op['controller']))} control"
        if op.get("as_duplicate"):
            text += " as a duplicate"
        if op.get("attach_to"):
            host = op["attach_to"]
            text += " onto the House card" if host == "house" else \
                f" onto {self._target_words(host, names)}"
        if op.get("knelt"):
            text += ", knelt"
        if op.get("pay_gold"):
            text += f", for {op['pay_gold']} gold"
        return text

    def _op_words_move_attachment(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} moves onto {self._target_words(op['to'], names)}"

    @staticmethod
    def _until_words(op: Any) -> str:
        """A duration in words; a missing `until` means the round (ruling 4)."""
        return UNTIL_WORDS.get(op.get("until") or "round", "until the end of the round")

    def _op_words_adjust_strength(self, op: Any, names: Names) -> str:
        return (f"{self.name(op['card'])} gets {_signed(int(op['amount']))} STR "
                f"{self._until_words(op)}")

    def _op_words_no_strength(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} counts no STR {self._until_words(op)}"

    def _op_words_gain_icon(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} gains the {op['icon']} icon {self._until_words(op)}"

    def _op_words_lose_icon(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} loses the {op['icon']} icon {self._until_words(op)}"

    def _op_words_gain_keyword(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} gains {words(op['keyword'])} {self._until_words(op)}"

    def _op_words_lose_keyword(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} loses {words(op['keyword'])} {self._until_words(op)}"

    def _op_words_continuous(self, op: Any, names: Names) -> str:
        gains = []
        if op.get("strength"):
            gains.append(f"{_signed(int(op['strength']))} STR")
        gains += [f"the {icon} icon" for icon in op.get("icons") or ()]
        gains += [words(k) for k in op.get("keywords") or ()]
        what = words_list(gains) or "its effect"
        return (f"{self.name(op['source'])} gives {what} to matching characters"
                f"{WHEN_WORDS.get(op.get('when') or 'always', '')} while it stays in play")

    def _op_words_exclude_character_power(self, op: Any, names: Names) -> str:
        players = words_list(seat_name(names, s) for s in op.get("players") or ())
        return (f"power on the cards of {players} does not count while "
                f"{self.name(op['source'])} stays in play")

    def _op_words_no_stand(self, op: Any, names: Names) -> str:
        return f"{self._target_words(op['card'], names)} does not stand this round"

    def _op_words_join_challenge(self, op: Any, names: Names) -> str:
        side = SIDES.get(op.get("side"), words(str(op.get("side"))))
        return f"{self.name(op['card'])} joins the challenge on the {side} side"

    def _op_words_remove_from_challenge(self, op: Any, names: Names) -> str:
        return f"{self.name(op['card'])} leaves the challenge"

    def _op_words_gain_power(self, op: Any, names: Names) -> str:
        return f"{self._target_words(op['target'], names)} gains {op['amount']} power"

    def _op_words_lose_power(self, op: Any, names: Names) -> str:
        return f"{self._target_words(op['target'], names)} loses {op['amount']} power"

    def _op_words_move_power(self, op: Any, names: Names) -> str:
        return (f"{op['amount']} power moves from {self._target_words(op['from'], names)} to "
                f"{self._target_words(op['to'], names)}")

    def _op_words_gain_gold(self, op: Any, names: Names) -> str:
        return f"{seat_name(names, op['seat'])} gains {op['amount']} gold"

    def _op_words_pay_gold(self, op: Any, names: Names) -> str:
        return f"{seat_name(names, op['seat'])} pays {op['amount']} gold"

    def _op_words_give_gold(self, op: Any, names: Names) -> str:
        return (f"{seat_name(names, op['from'])} gives {seat_name(names, op['to'])} "
                f"{op['amount']} gold")

    def _op_words_draw(self, op: Any, names: Names) -> str:
        count = len(op["cards"]) if op.get("cards") is not None else int(op.get("count") or 0)
        return f"{seat_name(names, op['seat'])} draws {plural(count, 'card')}"

    def _op_words_discard_from_hand(self, op: Any, names: Names) -> str:
        how = " at random" if op.get("random") else ""
        return (f"{seat_name(names, op['seat'])} discards {self._card_words(op['cards'])} "
                f"from hand{how}")

    def _op_words_discard_from_deck(self, op: Any, names: Names) -> str:
        return (f"{seat_name(names, op['seat'])} discards {self._card_words(op['cards'])} "
                "from the top of the draw deck")

    def _op_words_search_deck(self, op: Any, names: Names) -> str:
        who = seat_name(names, op["seat"])
        if op.get("to") == "play":
            return f"{who} searches the draw deck and puts {self.name(op['card'])} into play"
        if op.get("reveal") and op.get("card"):
            return f"{who} searches the draw deck and takes {self.name(op['card'])} into hand"
        return f"{who} searches the draw deck and takes a card into hand"

    def _op_words_return_from_pile(self, op: Any, names: Names) -> str:
        to = "its owner's hand" if op.get("to") == "hand" else "its owner's draw deck"
        return (f"{self.name(op['card'])} returns from "
                f"{FROM_WORDS.get(op.get('from'), 'a pile')} to {to}")

    def _op_words_shuffle_pile_into_deck(self, op: Any, names: Names) -> str:
        pile = {"hand": "hand", "discard": "discard pile", "dead": "dead pile"}.get(
            op.get("pile"), words(str(op.get("pile"))))
        return f"{seat_name(names, op['seat'])} shuffles the {pile} into the draw deck"

    def _op_words_reveal_new_plot(self, op: Any, names: Names) -> str:
        return f"{seat_name(names, op['seat'])} reveals a new plot, {self.name(op['plot'])}"

    def _op_words_modify_plot(self, op: Any, names: Names) -> str:
        change = f"becomes {op['set']}" if op.get("set") is not None else \
            f"changes by {_signed(int(op['delta']))}"
        until = UNTIL_WORDS.get(op.get("until") or "round", "until the end of the round")
        return (f"the {op['field']} of {possessive(seat_name(names, op['seat']))} plot "
                f"{change} {until}")

    def _op_words_suppress_income_bonuses(self, op: Any, names: Names) -> str:
        return (f"income bonuses of cards do not count for "
                f"{words_list(seat_name(names, s) for s in op['seats'])} this round")

    def _op_words_forbid_challenge(self, op: Any, names: Names) -> str:
        a, b = op["seats"]
        return (f"no {op['type']} challenges between {seat_name(names, a)} and "
                f"{seat_name(names, b)} this round")

    def _op_words_extra_challenge(self, op: Any, names: Names) -> str:
        return f"{seat_name(names, op['seat'])} may make one more {op['type']} challenge"

    def _op_words_skip_taxation(self, op: Any, names: Names) -> str:
        return f"{possessive(seat_name(names, op['seat']))} gold is not taxed this round"

    def _op_words_swap_plot_decks(self, op: Any, names: Names) -> str:
        a, b = op["seats"]
        return (f"{seat_name(names, a)} and {seat_name(names, b)} choose plots from each "
                "other's plot decks this round")

    def _op_words_cost_reduction(self, op: Any, names: Names) -> str:
        return (f"the next matching card {seat_name(names, op['seat'])} marshals this phase "
                f"costs {op['amount']} gold less")

    def _op_words_note(self, op: Any, names: Names) -> str:
        return f'a note: "{op["text"]}"' if op.get("text") else "a note"

