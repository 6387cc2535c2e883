"""The generic `effect` event (spec §9): card abilities are not coded, players record what
an ability does as a list of changes (ops), each checked here; and cards removed from play
(killed, discarded) with their saves (§8.6).

Every op is declared once, here (`OPS`): its fields (§9's table), its rule (card_ops.py,
lasting_ops.py, or below), its clause in the effect's sentence (words.py), what another
seat may not see of it (§11) and the fields that name cards from a hidden deck (§12). The
reducer, the redaction (views.py), the sentence and the digital undo policy (chance.py)
all read these records, so a new op is one record in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...messages import M
from ...rules import Action, IllegalAction, replace, require
from .. import words as say
from ..edition import CardId, Components, owner_of
from ..state import State
from . import card_ops as co
from . import lasting_ops as lo
from .deaths import kill, kill_forbidden
from .fields import Op, ids
from .guards import thing, who
from .restrictions import discard_forbidden
from .values import check_house_only
from .victory import rule
from .zones import in_play, leave_play, to_pile, update_card

OpHandler = Callable[[State, Any, Op, Components], State]
#: what a seat other than the op's own may see of it: a copy with the hidden part taken
#: out, or None when it may see all of it (§11)
OpRedactor = Callable[[dict[str, Any]], "dict[str, Any] | None"]


def public_op(op: dict[str, Any]) -> dict[str, Any] | None:
    """An op every seat sees whole."""
    return None


def _redact_draw(op: dict[str, Any]) -> dict[str, Any] | None:
    """§11: the cards an ability draws show as their count."""
    if not isinstance(op.get("cards"), list):
        return None
    hidden = dict(op)
    hidden["count"] = len(hidden.pop("cards"))
    return hidden


def _redact_search(op: dict[str, Any]) -> dict[str, Any] | None:
    """§11: a card taken from a deck into the hand unrevealed is not named."""
    if op.get("to") != "hand" or op.get("reveal"):
        return None
    hidden = dict(op)
    hidden.pop("card", None)
    return hidden


@dataclass(frozen=True, slots=True)
class OpType:
    """One change an `effect` may record (§9), declared once. Every part is required but
    the redaction and the chance fields (tests/projections/test_thrones_ops.py checks
    each against the spec and the recorded games).

    - `fields`: the op's data beside "op", as §9's table lists it;
    - `apply`: the rule; `sentence`: the clause in the effect's sentence;
    - `redact`: what another seat sees (`public_op`: all of it);
    - `chance`: the fields naming cards of a hidden deck, seen as they are drawn,
      discarded from the top or searched: an effect holding such an op is not undone in
      digital play, since the player would have seen them (§12);
    - `hidden_zone`: the op names cards of its `seat`'s hand or draw deck, which §11 hides
      from the other seats (a seat typing it for another seat at a table is refused,
      engine ruling 16).
    """

    name: str
    fields: tuple[str, ...]
    apply: OpHandler
    sentence: say.Clause
    redact: OpRedactor = public_op
    chance: tuple[str, ...] = ()
    hidden_zone: bool = False


@rule
def apply_effect(state: State, action: Action, ed: Components) -> State:
    """§9 (issue #30): a free-form change is no longer a seat's to record. In digital play
    it is refused (`effect_not_allowed`): a seat changes the game through `use_ability`.
    At a table only the table's recorder records one, as a ruling (a judge's correction)
    with its `reason` (ruling 29); its costs, then its changes, each checked."""
    require(state.phase not in ("start", "setup", "setup_draw"), "wrong_phase",
            M("effects are recorded after the setup reveal"))
    actor = action.actor
    require(state.mode != "digital", "effect_not_allowed",
            M("in digital play a card changes the game only through its declared abilities "
              "(use a card's ability); a free-form effect is not allowed"))
    require(actor == "table", "effect_not_allowed",
            M("{player} records what a card does by using that card's ability; only the "
              "table's recorder records a free-form effect, as a ruling with its reason",
              player=who(state, actor)))
    reason = action.data.get("reason")
    require(isinstance(reason, str) and bool(reason.strip()), "ruling_needs_reason",
            M("a ruling by the table says why (its reason): no card's ability covers it"))
    event_card = _event_source(state, actor, action.data.get("source"), ed)
    for op in action.data.get("costs") or ():
        state = apply_op(state, actor, op, ed)
    for op in action.data.get("ops") or ():
        state = apply_op(state, actor, op, ed)
    owner = owner_of(event_card) if event_card else None
    if event_card and owner is not None and event_card in state.players[owner].hand:
        player = state.players[owner]  # the table rules that its owner played it
        state = state.with_player(owner, hand=player.hand.take([event_card]),
                                  discard=(*player.discard, event_card))
    return state


def _event_source(state: State, actor: object, source: Any, ed: Components) -> CardId | None:
    """The event card played from the hand, which goes to the discard pile afterwards."""
    if source is None:
        return None
    if source.startswith(("plot:", "title:", "house:")):
        return None
    require(ed.is_known(source), "unknown_source",
            M("the effect's source \"{source}\" is not a card, a plot (\"plot:<seat>\") or a "
              "title (\"title:<id>\")", source=source))
    owner = owner_of(source)
    if (owner < state.n and ed.card(source).type == "event"
            and source in state.players[owner].hand):
        check_house_only(state, owner, source, ed)
        return str(source)
    return None


def apply_op(state: State, actor: object, op: Any, ed: Components) -> State:
    """One change of an effect, by its `op` name."""
    require(hasattr(op, "get") and isinstance(op.get("op"), str), "bad_op",
            M("each change of an effect is an object with an \"op\" field naming it"))
    record = OP_TYPES.get(op["op"])
    if record is None:
        raise IllegalAction("unknown_op", M("there is no effect op \"{op}\" (§9)", op=op["op"]),
                            op=op["op"])
    return record.apply(state, actor, op, ed)


# ---------------------------------------------------------------------------
# Leaving play, with saves (§7.8, §8.6)
# ---------------------------------------------------------------------------


def _apply_saves(state: State, actor: object, cards: list[CardId], saves: Any,
                 ed: Components) -> tuple[State, set[CardId]]:
    """§8.6 saves: a duplicate is discarded, or a recorded ability's costs are paid."""
    saved: set[CardId] = set()
    for entry in saves or ():
        card, by = entry.get("card"), entry.get("by")
        require(card in cards and card not in saved, "bad_save",
                M("a save must name a card being removed, once; {card} is not one",
                  card=thing(state, card, ed)))
        if by == "duplicate":
            ip = in_play(state, card, ed)
            require(bool(ip.duplicates), "no_duplicate",
                    M("{card} has no duplicate to discard", card=ed.name(card)))
            state = update_card(state, replace(ip, duplicates=ip.duplicates[:-1]))
            state = to_pile(state, ip.duplicates[-1], "discard")
        elif by == "effect":
            for op in entry.get("costs") or ():
                state = apply_op(state, actor, op, ed)
        else:
            raise IllegalAction("bad_save", M("a save is by \"duplicate\" or \"effect\", not "
                                              "\"{by}\"", by=by))
        saved.add(card)
    return state, saved


def remove_cards(state: State, actor: object, cards: list[CardId], dest: str, ed: Components,
                 saves: Any = (), redirect: Any = None) -> State:
    """Cards leave play for `dest` unless saved, or for the hand or discard pile where a
    recorded ability redirects them; a kill with what replaces it (deaths.kill: Bronn's
    guard, The Hound's discard pile)."""
    state, saved = _apply_saves(state, actor, cards, saves, ed)
    redirect = redirect or {}
    for card in redirect:
        require(card in cards and redirect[card] in ("discard", "hand"), "bad_redirect",
                M("a redirect sends a removed card to the discard pile or the hand; {card} "
                  "cannot go there", card=thing(state, card, ed)))
    for card in cards:
        if card in saved:
            continue
        if dest == "dead" and card not in redirect:
            state = kill(state, card, ed)  # what replaces a kill (deaths.py)
        else:
            state = leave_play(state, card, redirect.get(card, dest), ed)
    return state


def kill_op(state: State, actor: object, op: Op, ed: Components) -> State:
    cards = ids(op, "cards")
    for card in cards:
        ip = in_play(state, card, ed)
        require(ed.is_character(card) and ip.host is None, "not_a_character",
                M("only characters can be killed; {card} is not one", card=ed.name(card)),
                card=card)
        why = kill_forbidden(state, card, ed)  # a constant (Stannis's Northern Cavalry)
        if why is not None:
            raise IllegalAction("cannot_be_killed",
                                M("{card} cannot be killed now: {source} says “{rule}”",
                                  card=ed.name(card), source=why[0], rule=why[1]), card=card)
    return remove_cards(state, actor, cards, "dead", ed, op.get("saves"), op.get("redirect"))


def discard_from_play_op(state: State, actor: object, op: Op, ed: Components) -> State:
    cards = ids(op, "cards")
    for card in cards:
        in_play(state, card, ed)
        why = discard_forbidden(state, card, ed)  # a constant (Knight of the Rainwood)
        if why is not None:
            raise IllegalAction("cannot_be_discarded",
                                M("{card} cannot be discarded from play: {source} says "
                                  "“{rule}”", card=ed.name(card), source=why[0],
                                  rule=why[1]), card=card)
    return remove_cards(state, actor, cards, "discard", ed, op.get("saves"))


#: every op of §9, in the spec's order
OPS: tuple[OpType, ...] = (
    OpType("kneel", ("card",), co.kneel_op, say.kneel_clause),
    OpType("stand", ("card",), co.stand_op, say.stand_clause),
    OpType("kill", ("cards", "saves", "redirect"), kill_op, say.kill_clause),
    OpType("discard_from_play", ("cards", "saves"),
           discard_from_play_op, say.discard_from_play_clause),
    OpType("return_to_hand", ("cards",), co.return_to_hand_op, say.return_to_hand_clause),
    OpType("take_control", ("card", "controller"), co.take_control_op, say.take_control_clause),
    OpType("put_into_play", ("card", "from", "controller", "attach_to", "knelt", "pay_gold",
                             "as_duplicate"),
           co.put_into_play_op, say.put_into_play_clause),
    OpType("move_attachment", ("card", "to"), co.move_attachment_op, say.move_attachment_clause),
    OpType("adjust_strength", ("card", "amount", "until"),
           lo.adjust_strength_op, say.adjust_strength_clause),
    OpType("no_strength", ("card", "until"), lo.no_strength_op, say.no_strength_clause),
    OpType("gain_icon", ("card", "icon", "until"), lo.gain_icon_op, say.gain_icon_clause),
    OpType("lose_icon", ("card", "icon", "until"), lo.lose_icon_op, say.lose_icon_clause),
    OpType("gain_keyword", ("card", "keyword", "until"),
           lo.gain_keyword_op, say.gain_keyword_clause),
    OpType("lose_keyword", ("card", "keyword", "until"),
           lo.lose_keyword_op, say.lose_keyword_clause),
    OpType("continuous", ("source", "filter", "strength", "icons", "keywords", "when",
                          "requires_source_standing"),
           lo.continuous_op, say.continuous_clause),
    OpType("exclude_character_power", ("source", "players", "requires_source_standing"),
           lo.exclude_character_power_op, say.exclude_character_power_clause),
    OpType("no_stand", ("card",), lo.no_stand_op, say.no_stand_clause),
    OpType("join_challenge", ("card", "side"), lo.join_challenge_op, say.join_challenge_clause),
    OpType("remove_from_challenge", ("card",),
           lo.remove_from_challenge_op, say.remove_from_challenge_clause),
    OpType("gain_power", ("target", "amount"), lo.gain_power_op, say.gain_power_clause),
    OpType("lose_power", ("target", "amount"), lo.lose_power_op, say.lose_power_clause),
    OpType("move_power", ("from", "to", "amount"), lo.move_power_op, say.move_power_clause),
    OpType("gain_gold", ("seat", "amount"), lo.gain_gold_op, say.gain_gold_clause),
    OpType("pay_gold", ("seat", "amount"), lo.pay_gold_op, say.pay_gold_clause),
    OpType("give_gold", ("from", "to", "amount"), lo.give_gold_op, say.give_gold_clause),
    OpType("draw", ("seat", "cards"),
           co.draw_op, say.draw_clause, redact=_redact_draw, chance=("cards",),
           hidden_zone=True),
    OpType("discard_from_hand", ("seat", "cards", "random"),
           co.discard_from_hand, say.discard_from_hand_clause, hidden_zone=True),
    OpType("discard_from_deck", ("seat", "cards"),
           co.discard_from_deck_op, say.discard_from_deck_clause, chance=("cards",),
           hidden_zone=True),
    OpType("search_deck", ("seat", "card", "to", "reveal", "attach_to"),
           co.search_deck_op, say.search_deck_clause, redact=_redact_search, chance=("card",),
           hidden_zone=True),
    OpType("return_from_pile", ("card", "from", "to"),
           co.return_from_pile_op, say.return_from_pile_clause),
    OpType("shuffle_pile_into_deck", ("seat", "pile"),
           co.shuffle_pile_into_deck_op, say.shuffle_pile_into_deck_clause),
    OpType("reveal_new_plot", ("seat", "plot"), lo.reveal_new_plot_op, say.reveal_new_plot_clause),
    OpType("modify_plot", ("seat", "field", "delta", "set", "until"),
           lo.modify_plot_op, say.modify_plot_clause),
    OpType("suppress_income_bonuses", ("seats",),
           lo.suppress_income_bonuses_op, say.suppress_income_bonuses_clause),
    OpType("forbid_challenge", ("seats", "type"),
           lo.forbid_challenge_op, say.forbid_challenge_clause),
    OpType("extra_challenge", ("seat", "type"), lo.extra_challenge_op, say.extra_challenge_clause),
    OpType("skip_taxation", ("seat",), lo.skip_taxation_op, say.skip_taxation_clause),
    OpType("swap_plot_decks", ("seats",), lo.swap_plot_decks_op, say.swap_plot_decks_clause),
    OpType("cost_reduction", ("seat", "amount", "filter", "until"),
           lo.cost_reduction_op, say.cost_reduction_clause),
    OpType("note", ("text",), lo.note_op, say.note_clause),
)
#: each op's record by its name (derived from OPS, which is the one place ops are named)
OP_TYPES: Mapping[str, OpType] = {record.name: record for record in OPS}
