"""`use_ability`: a card's declared ability used by a seat (issue #30; the contract is
docs/games/thrones-abilities.md, "The action use_ability").

What a card may do comes from the card: the source must be the actor's and in the zone the
ability's kind needs, its window open, its condition true, its limit not reached, its targets
those its filters allow and its cost payable; the ops are the ability's own (its templates
with the placeholders filled, or its named function's), each applied by the §9 op records of
effects.py, so every op keeps its basic check. Every refusal names the card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...messages import M, Message, Mn, Name, Seq
from ...rules import IllegalAction, replace, require, thaw
from ..abilities.registry import CHANCE, FUNCTIONS, LASTING, MARKS, OPTIONS, Use, chooser_of
from ..abilities.schema import CHANCE_FIELDS, CHANCE_OPS, Ability, Target
from ..edition import Card, CardId, Components, Seat, owner_of
from ..state import TYPES, State, Trigger
from ..words import CHALLENGE_TYPES, PHASES, PILES, cannot_use_now, words
from . import marks
from .effects import apply_op
from .guards import who
from .pins import in_order, look_pool
from .restrictions import event_tax, immune_by
from .saves import restored, still_gone
from .text import BLANK, text_of
from .turns import to_act
from .values import check_house_only, has_icon, has_keyword, participating, play_index, strength

#: the phases in which the table, not a seat, acts (§7): any seat may use an action then
TABLE_PHASES = ("draw", "dominance")
#: the kinds that answer a trigger of the window (apply/triggers.py, ruling 35)
ANSWERS = ("response", "interrupt", "forced")
#: the digital window's stage each kind is answered in (ruling 36)
STAGE_OF = {"interrupt": "interrupt", "forced": "forced", "response": "response"}


@dataclass(frozen=True, slots=True)
class Source:
    """What an ability is used from: its reference as sent, its words, its abilities, the
    card in play (or in hand) it is, and its controller."""

    ref: str
    name: str
    card: Card | None
    abilities: tuple[Ability, ...]
    zone: str  # play | hand | discard | dead | plot | title | house | none
    instance: CardId | None
    controller: Seat | None
    #: its text is blank (text.py): it has no abilities now
    blank: bool = False


def source_of(state: State, ref: object, ed: Components) -> Source:
    """The source named by a `card` reference; refused (`no_source`) if it names nothing."""
    require(isinstance(ref, str), "no_source", M("an ability is used from a card: name it"))
    assert isinstance(ref, str)
    if ref.startswith("plot:") and ref[5:].isdigit() and int(ref[5:]) < state.n:
        return _plot_source(state, int(ref[5:]), ed)
    if ref.startswith("title:") and ref[6:] in ed.titles:
        title = ed.titles[ref[6:]]
        holder = next((s for s, t in enumerate(state.titles) if t == title.id), None)
        return Source(ref, title.name, None, title.abilities, "title", None, holder)
    if ref.startswith("house:") and ref[6:].isdigit() and int(ref[6:]) < state.n:
        seat = int(ref[6:])
        number = ed.house_ids.get(state.players[seat].house) if state.players else None
        house = ed.by_number.get(number or 0)
        require(house is not None, "no_source", M("that House has no House card"))
        assert house is not None
        return Source(ref, house.name, house, house.abilities, "house", None, seat)
    require(ed.is_known(ref), "no_source",
            lambda: M('"{card}" is not a card of the game', card=ref))
    card = ed.card(ref)
    owner = owner_of(ref)
    zone, controller = "none", None
    ip = play_index(state).get(ref)
    if ip is not None:
        text = text_of(state, ref, ed)
        return Source(ref, card.name, card, text.abilities, "play", ref, ip.controller,
                      blank=text is BLANK)
    elif owner < len(state.players):
        player = state.players[owner]
        for name, pile in (("hand", player.hand), ("discard", player.discard),
                           ("dead", player.dead)):
            if ref in pile:
                zone, controller = name, owner
                break
    return Source(ref, card.name, card, card.abilities, zone, ref, controller)


def _plot_source(state: State, seat: Seat, ed: Components) -> Source:
    plot = state.players[seat].revealed_plot if state.players else None
    require(plot is not None, "not_in_zone",
            lambda: M("{player} has no revealed plot to use", player=who(state, seat)))
    assert plot is not None
    card = ed.card(plot)
    used, abilities = marks.plot_as_used(state, seat, card, ed)  # Good for the Gander
    return Source(f"plot:{seat}", card.name, used, abilities, "plot", plot, seat)


# ---------------------------------------------------------------------------
# Placeholders (docs: "Placeholders")
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Context:
    """What the placeholders of one use read."""

    state: State
    seat: Seat
    source: Source
    ability: Ability
    choices: Mapping[str, Any]
    trigger: Mapping[str, Any] | None
    chance: Mapping[str, Any]
    ed: Components
    #: the seats whose choice of it is still to come (ruling 33): a named function checks
    #: only the parts already chosen
    waiting: frozenset[Seat] = frozenset()

    def value(self, name: str) -> Any:
        """The value of placeholder `name` ("$self", "$victim", "$trigger.card")."""
        state = self.state
        if name == "$self":
            return self.source.instance if self.source.zone not in ("house", "title") \
                else self.source.ref
        if name == "$bearer":
            ip = play_index(state).get(self.source.instance or "")
            return ip.host if ip is not None else None
        if name == "$you":
            return self.seat
        if name == "$house":
            return f"house:{self.seat}"
        if name == "$opponent":
            others = [s for s in state.active if s != self.seat]
            require(len(others) == 1, "wrong_target",
                    lambda: M("{card}: name the opponent in a game of more than two",
                              card=self.source.name))
            return others[0]
        head, _, field = name.partition(".")
        if head == "$trigger":
            return (self.trigger or {}).get(field)
        if head == "$challenge":
            ch = state.challenge
            return None if ch is None else getattr(ch, field, None)
        if head[1:] in ("drawn", "milled", "random"):
            return list(self.chance.get(head[1:]) or ())
        return self.choices.get(name[1:])

    def fill(self, template: Any) -> Any:
        """A template with every placeholder replaced (a list placeholder inside a list is
        spliced: `"cards": ["$victims"]` with a list target gives the list)."""
        if isinstance(template, str) and template.startswith("$"):
            return self.value(template)
        if isinstance(template, Mapping):
            return {k: self.fill(v) for k, v in template.items()}
        if isinstance(template, list | tuple):
            out: list[Any] = []
            for item in template:
                value = self.fill(item)
                if isinstance(item, str) and item.startswith("$") and isinstance(value, list):
                    out.extend(value)
                else:
                    out.append(value)
            return out
        return template


# ---------------------------------------------------------------------------
# Filters and conditions
# ---------------------------------------------------------------------------


def _seat_wanted(ctx: Context, want: object) -> set[Seat]:
    if want == "you":
        return {ctx.seat}
    if want == "opponent":
        return {s for s in range(ctx.state.n) if s != ctx.seat}
    if want == "any" or want is None:
        return set(range(ctx.state.n))
    value = ctx.fill(want)
    return {value} if isinstance(value, int) else set()


def card_matches(ctx: Context, card: CardId, flt: Mapping[str, Any], zone: str) -> bool:
    """Whether `card` (in `zone`) meets a target filter (docs: "Filter vocabulary")."""
    state, ed = ctx.state, ctx.ed
    data = ed.card(card)
    index = play_index(state) if zone == "play" else {}
    ip = index.get(card)
    return all(_holds(ctx, key, want, card, data, ip, index, ed) for key, want in flt.items())


def _printed(data: Card, want: Any) -> dict[str, Callable[[], bool]]:
    """The printed keys of the filter vocabulary, each a test of `data` against `want`."""
    return {
        "type": lambda: data.type == want, "type_any": lambda: data.type in want,
        "house": lambda: want in data.houses, "trait": lambda: want in data.traits,
        "trait_any": lambda: bool(set(want) & set(data.traits)),
        "crest": lambda: want in data.crests, "name": lambda: data.name == want,
        "unique": lambda: data.unique == bool(want),
        "printed_cost_at_most": lambda: data.cost <= want,
        "printed_cost_at_least": lambda: data.cost >= want,
        "printed_strength_at_most": lambda: data.strength <= want,
        "printed_icon": lambda: want in data.icons,
        "printed_keyword": lambda: want in data.keywords,
        "limited": lambda: ("limited" in data.keywords) == bool(want),
    }


def _holds(ctx: Context, key: str, want: Any, card: CardId, data: Card, ip: Any,
           index: Any, ed: Components) -> bool:
    state = ctx.state
    printed = _printed(data, want)
    if key in printed:
        return bool(printed[key]())
    if key == "not":
        wanted = want if isinstance(want, list | tuple) else [want]
        return card not in {ctx.fill(w) for w in wanted}
    if key == "owner":
        return owner_of(card) in _seat_wanted(ctx, want)
    if ip is None:  # the rest are about a card in play
        return False
    is_character = data.type == "character" and ip.host is None
    att, dfn = participating(state)
    current: dict[str, Callable[[], bool]] = {
        "controller": lambda: ip.controller in _seat_wanted(ctx, want),
        "icon": lambda: is_character and has_icon(state, card, want, ed, index),
        "keyword": lambda: has_keyword(state, card, want, ed, index),
        "strength_at_most": lambda: is_character and strength(state, card, ed, index) <= want,
        "strength_at_least": lambda: is_character and strength(state, card, ed, index) >= want,
        "knelt": lambda: ip.knelt == bool(want),
        "participating": lambda: (card in att | dfn) == bool(want),
        "attacking": lambda: (card in att) == bool(want),
        "defending": lambda: (card in dfn) == bool(want),
        "has_power": lambda: (ip.power > 0) == bool(want),
        "has_attachment": lambda: any(c.host == card for c in state.cards) == bool(want),
        "is_attachment": lambda: (ip.host is not None) == bool(want),
        "attached_to": lambda: ip.host == ctx.fill(want),
    }
    return bool(current[key]())




def _controls(ctx: Context, seats: set[Seat], flt: Mapping[str, Any]) -> list[CardId]:
    return [c.id for c in ctx.state.cards if c.controller in seats
            and card_matches(ctx, c.id, flt, "play")]


def _pile_problem(ctx: Context, want: Mapping[str, Any]) -> Message | None:
    """vocab (Stark): at least n cards of one of the user's piles meet a printed filter."""
    player = ctx.state.players[ctx.seat]
    pile = str(want.get("pile"))
    cards: list[CardId] = list({"hand": sorted(set(player.hand)), "discard": player.discard,
                                "dead": player.dead}[pile])
    flt: Mapping[str, Any] = want.get("filter") or {}
    found = len([c for c in cards if card_matches(ctx, c, flt, pile)])
    least = int(want.get("at_least") or 1)
    if found < least:
        return Mn("your {pile} holds {count} such card, and it needs at least {least}",
                  "your {pile} holds {count} such cards, and it needs at least {least}",
                  found, pile=PILES[pile], least=least)
    return None


def condition_problem(ctx: Context, condition: Mapping[str, Any]) -> Message | None:
    """What of the ability's condition does not hold (None: all of it holds)."""
    state = ctx.state
    index = play_index(state)
    source = index.get(ctx.source.instance or "")
    actor = source.host if source is not None and source.host else ctx.source.instance
    att, dfn = participating(state)
    for key, want in condition.items():
        if key == "source_standing" and (source is None or source.knelt) == bool(want):
            return M("it must be standing")
        if key == "source_knelt" and (source is None or not source.knelt) == bool(want):
            return M("it must be knelt")
        if key == "source_participating" and (actor in att | dfn) != bool(want):
            return M("it (or its bearer) must be taking part in the challenge")
        if key == "source_attacking" and (actor in att) != bool(want):
            return M("it (or its bearer) must be attacking")
        if key == "source_defending" and (actor in dfn) != bool(want):
            return M("it (or its bearer) must be defending")
        problem = _seat_condition(ctx, key, want)
        if problem is not None:
            return problem
    return None


def _seat_condition(ctx: Context, key: str, want: Any) -> Message | None:  # noqa: C901
    """The conditions about the user and the challenge (condition_problem's second half)."""
    state, seat = ctx.state, ctx.seat
    ch = state.challenge
    source = play_index(state).get(ctx.source.instance or "")
    if key == "you_are":
        fields = {"attacker": "attacker", "defender": "defender", "winner": "winner",
                  "loser": "loser"}
        if ch is None or getattr(ch, fields.get(str(want), "attacker")) != seat:
            return M("you must be the {role} of the challenge",
                     role=ROLES.get(str(want)) or words(str(want)))
    if key == "you_control" and not _controls(ctx, {seat}, want):
        return M("you control no card it asks for")
    if key == "you_control_count":
        found = _controls(ctx, {seat}, want.get("filter") or {})
        if len(found) < int(want.get("at_least") or 1):
            return M("you control fewer than {count} cards it asks for",
                     count=want.get("at_least"))
    if key == "opponent_controls" and not _controls(
            ctx, {s for s in range(state.n) if s != seat}, want):
        return M("no opponent controls a card it asks for")
    if key == "gold_at_least" and state.players[seat].gold < int(want):
        return M("you need at least {count} gold", count=want)
    if key == "hand_at_least" and len(state.players[seat].hand) < int(want):
        return M("you need at least {count} cards in hand", count=want)
    if key == "first_player" and (state.first_player == seat) != bool(want):
        return M("you must be the first player") if want else \
            M("you must not be the first player")
    if key == "has_power" and (source is None or source.power <= 0) == bool(want):
        return M("it must hold power")
    if key == "your_pile_count":
        return _pile_problem(ctx, want)
    if key == "used_this_challenge" and not _used_this_challenge(ctx, str(want)):
        return M("it was not played in this challenge")
    if key == "melee" and state.is_melee != bool(want):
        return M("it is used only in a melee (three or more players)") if want else \
            M("it is not used in a melee")
    return None


def _used_this_challenge(ctx: Context, ident: str) -> bool:
    """Whether the source's ability `ident` (limited per challenge, so its use is counted)
    was used in the current challenge: what binds a later part of an event to the
    challenge it was played in (Insidious Ways, card ruling L27)."""
    stamp = period(ctx.state, "challenge")
    return any(k == ctx.source.ref and a == ident and s == stamp
               for k, a, s in ctx.state.ability_uses)


# ---------------------------------------------------------------------------
# The window (docs: "Steps"; ruling 28: who may use an action in digital play)
# ---------------------------------------------------------------------------


def _step_now(state: State) -> tuple[str, ...]:
    """The steps of the window vocabulary that hold now."""
    if state.phase == "plot":
        return (state.step,)
    if state.phase != "challenges":
        return ()
    ch = state.challenge
    if ch is None:
        return ("no_challenge",)
    if ch.step == "resolved":
        return ("resolved",)
    return ("challenge_open", ch.step)


def window_problem(state: State, seat: Seat, ability: Ability, ed: Components
                   ) -> Message | None:
    """Why the ability's window is not open now for `seat` (None: it is open). Response,
    interrupt, forced and when-revealed abilities answer their trigger (apply/triggers)."""
    win = ability.window
    if state.revealing or state.pick is not None or ability.kind == "when_revealed":
        return _revealing_problem(state, seat, ability)
    if ability.kind in ANSWERS:
        return answer_problem(state, seat, ability) or NOTHING_TO_ANSWER
    if win.phases and state.phase not in win.phases:
        return M("it is used in the {phases} phase, not the {phase} phase",
                 phases=_words_list(win.phases, PHASES), phase=_word(state.phase, PHASES))
    if win.steps and not set(win.steps) & set(_step_now(state)):
        return M("it is used only {steps}", steps=_words_list(win.steps, STEP_WORDS))
    if win.challenge_types:
        ch = state.challenge
        if ch is None or ch.type not in win.challenge_types:
            return M("it is used only during a {types} challenge",
                     types=_words_list(win.challenge_types, CHALLENGE_TYPES))
    if win.your_turn and state.turn != seat:
        return M("it is used only on your own turn")
    return None


def _revealing_problem(state: State, seat: Seat, ability: Ability) -> Message | None:
    """Ruling 32: a when-revealed ability is used while its plot is the one resolving, by
    its owner; while a plot resolves (or another seat chooses for it) nothing else is."""
    if ability.kind == "when_revealed" and state.pick is None and \
            state.revealing[:1] == (seat,):
        return None
    if not state.when_revealed:  # rules version 1: recorded by the table then
        return NOTHING_TO_ANSWER
    if state.pick is not None:
        return M("{player} is choosing for a revealed plot",
                 player=who(state, state.pick.waiting[0][0]))
    if state.revealing:
        return M("the plot of {player} is being revealed", player=who(state, state.revealing[0]))
    return M("it applies when its plot is revealed")


def _word(token: str, table: Mapping[str, str]) -> str:
    """A token of the data as the reader's word: its entry in `table`, else words()."""
    return table.get(token) or words(token)


def _words_list(items: Sequence[str], table: Mapping[str, str]) -> str:
    """ "marshalling or challenges": tokens of the data as one list of words, joined by "or"."""
    return Seq([_word(i, table) for i in items], "or")


#: a window's steps (docs: "Steps"), as a refusal says when an ability is used
STEP_WORDS = {"no_challenge": M("between challenges"),
              "challenge_open": M("during a challenge"),
              "attackers_declared": M("once attackers are declared"),
              "defenders_declared": M("once defenders are declared"),
              "resolved": M("after a challenge is resolved"),
              "choose": M("while plots are chosen"),
              "first_player": M("once plots are revealed"),
              "titles": M("while titles are chosen")}
#: what a `you_are` condition asks the user to be in the challenge
ROLES = {"attacker": M("attacker"), "defender": M("defender"), "winner": M("winner"),
         "loser": M("loser")}
NOTHING_TO_ANSWER = M("it answers an event only when that event happens (nothing it "
                      "answers is waiting now)")


def digital_turn_problem(state: State, seat: Seat, ed: Components) -> Message | None:
    """Ruling 28: in digital play a seat uses an action ability while it is among the seats
    to act, or in a phase the table runs."""
    if state.mode != "digital":
        return None
    if state.window is not None and state.window.waiting:
        return M("the game waits for an answer to what just happened (use a card that "
                 "answers it, or pass)")
    if state.phase in TABLE_PHASES or seat in to_act(state, ed):
        return None
    return M("it is not your turn to act")


# ---------------------------------------------------------------------------
# Answers to a trigger (ruling 35: one check in both modes)
# ---------------------------------------------------------------------------


def trigger_problem(ctx: Context, condition: Mapping[str, Any]) -> Message | None:
    """What of the ability's trigger condition (docs: "Trigger conditions") the trigger
    answered does not meet (None: it answers it)."""
    trig = ctx.trigger or {}
    for key, want in condition.items():
        if not _trigger_holds(ctx, trig, key, want):
            return M("what just happened is not what it answers")
    return None


def _trigger_holds(ctx: Context, trig: Mapping[str, Any], key: str, want: Any) -> bool:
    if key == "margin_at_least":
        return int(trig.get("margin") or 0) >= int(want)
    if key == "source_participated":
        ch = ctx.state.challenge
        took = trig.get("participants")
        took = (*ch.attackers, *ch.defenders) if took is None and ch is not None else took
        if took is None:  # a trigger handed in that does not say who took part
            return True
        ip = play_index(ctx.state).get(ctx.source.instance or "")
        actor = ip.host if ip is not None and ip.host else ctx.source.instance
        return (actor in (took or ())) == bool(want)
    if key == "card_filter":
        card = trig.get("card")
        zone = "play" if card in play_index(ctx.state) else "dead"
        return isinstance(card, str) and ctx.ed.is_known(card) and \
            card_matches(ctx, card, want, zone)
    value = trig.get(key)
    if want in ("you", "opponent"):
        return value in _seat_wanted(ctx, want)
    if isinstance(want, str) and want.startswith("$"):
        return bool(value == ctx.fill(want))
    return bool(value == want)


def open_triggers(state: State, ability: Ability, ref: str) -> list[tuple[int, Trigger]]:
    """The triggers of the window the ability may answer: of its trigger's name, not
    already answered by it, and (a death or a discard) with the card still gone."""
    window = state.window
    if window is None:
        return []
    done = {n for r, a, n in window.answered if (r, a) == (ref, ability.id)}
    return [(n, t) for n, t in enumerate(window.triggers)
            if t.name == ability.window.trigger and n not in done and still_gone(state, t)]


def answer_problem(state: State, seat: Seat, ability: Ability) -> Message | None:
    """Digital play: an answer is given by the seat the window waits on, in its stage
    (interrupts, then forced, then responses: ruling 36)."""
    window = state.window
    if state.mode != "digital" or window is None:
        return None
    if not window.waiting or window.waiting[0] != seat:
        return M("the game does not wait on you for an answer now")
    if STAGE_OF[ability.kind] != window.stage:
        return {"interrupt": M("interrupts are answered first"),
                "forced": M("forced abilities are answered now"),
                "response": M("responses come after the interrupts and forced abilities")
                }[window.stage]
    return None


def begin(state: State, seat: Seat, data: Mapping[str, Any], ed: Components,
          targets: bool = True) -> tuple[Source, Ability, Context, int | None]:
    """`prepare`, and for an answer to a trigger the first open trigger it answers (the
    state restored for a save: saves.py); its number in the window is returned."""
    source = source_of(state, data.get("card"), ed)
    ability = ability_named(source, data)
    if ability.kind not in ANSWERS:
        return (*prepare(state, seat, data, ed, targets=targets), None)
    found = open_triggers(state, ability, source.ref)
    if not found or answer_problem(state, seat, ability) is not None:
        # the refusal, in the contract's order (owner, zone, then the window)
        prepare(restored(state, found[0][1]) if found else state, seat, data, ed)
    refusal: IllegalAction | None = None
    for number, trig in found:
        base = restored(state, trig)
        try:
            return (*prepare(base, seat, data, ed, dict(trig.fields), targets), number)
        except IllegalAction as err:  # a trigger it answers says more than one it does not
            if refusal is None or (refusal.code == "outside_window" != err.code):
                refusal = err
    assert refusal is not None
    raise refusal


def answered(state: State, ref: str, ability: Ability, number: int | None) -> State:
    """The window with the answer of `ability` of `ref` to its trigger `number` noted."""
    window = state.window
    if number is None or window is None:
        return state
    return replace(state, window=replace(
        window, answered=(*window.answered, (ref, ability.id, number))))


# ---------------------------------------------------------------------------
# Limits (counted in State.ability_uses with the period they were used in)
# ---------------------------------------------------------------------------


def period(state: State, per: str) -> str:
    """The stamp of the current challenge, phase or round: a use counts toward its limit
    while the stamp is unchanged, so nothing needs resetting at a period's end."""
    if per == "game":
        return "game"
    if per == "round":
        return f"r{state.round}"
    if per == "phase":
        return f"r{state.round}:{state.phase}"
    used = sum(sum(p.used) for p in state.players)
    return f"r{state.round}:{state.phase}:c{used}"


def uses(state: State, key: str, ability: Ability) -> int:
    """How often the ability of source `key` was used in its current limit period."""
    if ability.limit_per is None:
        return 0
    stamp = period(state, ability.limit_per)
    return sum(1 for k, a, s in state.ability_uses if k == key and a == ability.id
               and s == stamp)


def _limit_key(source: Source) -> str:
    return source.ref


def _record_use(state: State, source: Source, ability: Ability) -> State:
    if ability.limit_per is None:
        return state
    current = {per: period(state, per) for per in ("challenge", "phase", "round", "game")}
    kept = tuple(u for u in state.ability_uses if u[2] in current.values())
    stamp = current[ability.limit_per]
    return replace(state, ability_uses=(*kept, (_limit_key(source), ability.id, stamp)))


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------


def target_options(ctx: Context, target: Target) -> list[Any]:
    """Every value a target may take now (a card target: each card once)."""
    state = ctx.state
    fn = OPTIONS.get((ctx.source.card.id if ctx.source.card else ctx.source.ref,
                               ctx.ability.id, target.name))
    if fn is not None and target.choose == "seat":  # a seat the card narrows (the Gander)
        return list(fn(_use(ctx, {})))
    if target.choose == "seat":
        return [s for s in state.active if target.seats == "any" or s != ctx.seat]
    if target.choose == "number":
        return list(range(target.least, target.most + 1))
    if target.choose == "challenge_type":
        return list(TYPES)
    if fn is not None:
        return _not_immune(ctx, list(fn(_use(ctx, {}))))
    if target.zone == "play":
        seats = _seat_wanted(ctx, target.controller)
        cands = [c.id for c in state.cards if c.controller in seats]
    else:
        seats = _seat_wanted(ctx, target.owner)
        cands = []
        for s in sorted(seats):
            player = state.players[s]
            piles: dict[str, Iterable[str]] = {
                "hand": player.hand, "deck": player.deck, "discard": player.discard,
                "dead": player.dead, "plot_deck": player.plot_deck}
            cands.extend(sorted(set(piles.get(target.zone, ()))))
    return _not_immune(ctx, [c for c in cands
                             if card_matches(ctx, c, target.filter, target.zone)])


def _immunity(ctx: Context, card: Any) -> str | None:
    """The card that makes `card` immune to this use (an event, or a character's ability:
    apply/restrictions.py), or None."""
    kind = ctx.source.card.type if ctx.source.card is not None else ""
    return immune_by(ctx.state, card, ctx.seat, kind, ctx.ed) if isinstance(card, str) \
        else None


def _not_immune(ctx: Context, cards: list[Any]) -> list[Any]:
    """The options but the cards immune to this use: the choices never offer them."""
    return [c for c in cards if _immunity(ctx, c) is None]


def _refuse_immune(ctx: Context, picked: Sequence[Any]) -> None:
    """A picked card immune to this use is refused, naming it and what makes it immune."""
    for card in picked:
        giver = _immunity(ctx, card)
        if giver is not None:
            args = {"source": ctx.source.name, "card": ctx.ed.name(card), "giver": giver}
            event = bool(ctx.source.card and ctx.source.card.type == "event")
            raise IllegalAction("immune", M("{source}: {card} is immune to events ({giver})",
                                            **args) if event else
                                M("{source}: {card} is immune to character abilities "
                                  "({giver})", **args), card=card)


def _check_targets(ctx: Context) -> None:
    name = ctx.source.name
    choices = ctx.choices
    known = {t.name for t in ctx.ability.targets} | (
        {"influence"} if ctx.ability.influence else set())
    extra = sorted(set(choices) - known)
    require(not extra, "wrong_target",
            lambda: M("{card}: “{ability}” has no choice {names}", card=name,
                      ability=ctx.ability.label, names=Seq(extra, "comma")))
    for target in ctx.ability.targets:
        if chooser(ctx, target) != "you" and target.name not in choices:
            continue  # another seat's choice, still to come or with nothing (ruling 33)
        _check_target(ctx, target, choices.get(target.name))


def _check_target(ctx: Context, target: Target, value: Any) -> None:
    """One target's choice: as many as it takes, each among the options it has now."""
    name = ctx.source.name
    options = target_options(ctx, target)
    if target.many:
        picked = list(value) if isinstance(value, list | tuple) else \
            ([] if value is None else [value])
        require(target.least <= len(picked) <= target.most
                and len(set(map(str, picked))) == len(picked), "wrong_target",
                lambda: M("{card}: choose {count} for {target}", card=name,
                          count=_count_words(target), target=_target_words(target)))
        bad = [v for v in picked if v not in options]
    else:
        if value is None and target.least == 0:
            return
        require(value is not None, "wrong_target",
                lambda: M("{card}: choose {target}", card=name, target=_target_words(target)))
        bad = [] if value in options else [value]
    _refuse_immune(ctx, bad)
    require(not bad, "wrong_target",
            lambda: M("{card}: {value} is not {target} it may choose now", card=name,
                      value=value_words(ctx, bad[0], target), target=_target_words(target)))


def chooser(ctx: Context, target: Target) -> str:
    """Who chooses `target` of the ability used (ruling 33): "you", "$<seat target>",
    "each", or "seen": the user, in digital play once the use's chance is dealt and seen
    (card ruling L12: Raff's top or bottom); at a table the recorder enters it with the
    card tapped, so there it is the user's own choice ("you")."""
    card = ctx.source.card.id if ctx.source.card else ctx.source.ref
    who_ = chooser_of(card, ctx.ability.id, target)
    return "you" if who_ == SEEN and ctx.state.mode != "digital" else who_


#: the chooser of a target the user names after seeing the use's chance (card ruling L12)
SEEN = "seen"


def _count_words(target: Target) -> str:
    if target.least == target.most:
        return str(target.least)
    return M("{least} to {most}", least=target.least, most=target.most)


def _target_words(target: Target) -> str:
    """A target as its data labels it; with no English label, what it chooses and its
    name ("a card (victim)"), which reads the Chinese label where the data has one."""
    if target.label:
        return target.label
    what = M("{what} ({name})", what=CHOOSES[target.choose], name=words(target.name))
    own = getattr(target.label, "own", {})
    return Name(what, own) if own else what


#: what a target chooses, as a refusal names a target with no label of its own
CHOOSES = {"card": M("a card"), "seat": M("a player"), "number": M("a number"),
           "challenge_type": M("a challenge type")}


def value_words(ctx: Context, value: Any, target: Target) -> str:
    """A chosen value as a refusal names it: a seat by its player, a card by its name, a
    number by its data's words, anything else quoted as typed (revealed.py words another
    seat's part so too)."""
    ed = ctx.ed
    label = target.value_label(value) if target.choose == "number" else None
    if label is not None:
        return label
    if target.choose == "seat" and isinstance(value, int) and not isinstance(value, bool) \
            and 0 <= value < ctx.state.n:
        return who(ctx.state, value)
    if ed.is_known(value):
        return ed.name(value)
    return M("“{value}”", value=str(value))


# ---------------------------------------------------------------------------
# Costs and ops
# ---------------------------------------------------------------------------


def check_cost(ctx: Context) -> None:
    """Refuse, naming the card, a use whose cost its user cannot pay now (it is paid later
    in the same moment: an ability whose user chooses a part once it has seen its chance)."""
    after = ctx.state
    try:
        for op in _cost_ops(ctx):
            after = apply_op(after, ctx.seat, op, ctx.ed)
    except IllegalAction as err:
        raise card_refusal(ctx.source, err, "cannot_pay") from None


def _cost_ops(ctx: Context) -> list[dict[str, Any]]:
    """The cost as §9 ops: the pseudo-ops become kneels and discards."""
    out: list[dict[str, Any]] = []
    for template in ctx.ability.cost:
        op = ctx.fill(thaw(template))
        kind = op["op"]
        if kind == "kneel_self":
            out.append({"op": "kneel", "card": ctx.value("$self")})
        elif kind in ("sacrifice", "discard_self_from_play"):
            card = op.get("card", ctx.value("$self"))
            ip = play_index(ctx.state).get(card)
            require(ip is not None and ip.controller == ctx.seat, "cannot_pay",
                    lambda: M("{card}: you can sacrifice only a card you control",
                              card=ctx.source.name))
            out.append({"op": "discard_from_play", "cards": [card]})
        elif kind == "pay_influence":
            out.extend(_influence_ops(ctx, int(op.get("amount") or 0)))
        else:
            out.append(op)
    return out


def influence_of(card: CardId, ed: Components) -> int:
    """The printed influence a card gives when knelt (ruling 27)."""
    return int(getattr(ed.card(card), "influence_bonus", 0) or 0)


def influence_options(ctx: Context) -> list[CardId]:
    """The standing cards the user controls that give influence (ruling 27)."""
    ed = ctx.ed
    return [c.id for c in ctx.state.cards if c.controller == ctx.seat and not c.knelt
            and influence_of(c.id, ed) > 0]


def _influence_ops(ctx: Context, amount: int) -> list[dict[str, Any]]:
    ed = ctx.ed
    picked = ctx.choices.get("influence") or []
    require(isinstance(picked, list | tuple) and len(set(picked)) == len(picked),
            "cannot_pay", lambda: M("{card}: name the cards you kneel for influence",
                                    card=ctx.source.name))
    offered = set(influence_options(ctx))
    require(all(c in offered for c in picked), "cannot_pay",
            lambda: M("{card}: you kneel only standing cards of yours that give influence",
                      card=ctx.source.name))
    total = sum(influence_of(c, ed) for c in picked)
    require(total >= amount, "cannot_pay",
            lambda: M("{card}: it costs {amount} influence, and the cards named give "
                      "{total}", card=ctx.source.name, amount=amount, total=total))
    return [{"op": "kneel", "card": c} for c in picked]


def ability_ops(ctx: Context) -> list[dict[str, Any]]:
    """The ops the ability causes: its named function's, or its templates filled (a
    chance op's `count` taken from the action's chance field, in op order)."""
    if ctx.ability.function is not None:
        key = (ctx.source.card.id if ctx.source.card else ctx.source.ref, ctx.ability.id)
        fn = FUNCTIONS.get(key)
        require(fn is not None, "no_ability",
                lambda: M("{card}: its ability “{ability}” has no function yet",
                          card=ctx.source.name, ability=ctx.ability.label))
        assert fn is not None
        _check_function_chance(ctx, key)
        return [dict(thaw(op)) for op in fn(_use(ctx, ctx.choices))]
    taken: dict[str, int] = {}
    piles: dict[tuple[str, Seat], int] = {}  # cards already taken from each seat's pile
    out = []
    for template in ctx.ability.ops:
        op = ctx.fill(thaw(template))
        field = CHANCE_OPS.get(op["op"])
        if field is not None and "count" in op:
            need = _chance_need(ctx, field, op.get("seat"), int(op.pop("count")), piles)
            dealt = list(ctx.chance.get(field) or ())
            start = taken.get(field, 0)
            op["cards"] = dealt[start:start + need]
            taken[field] = start + need
            _check_dealt(ctx, op, field, need)
        out.append(op)
    return out


def _chance_need(ctx: Context, field: str, seat: object, count: int,
                 piles: dict[tuple[str, Seat], int]) -> int:
    """How many cards a chance op takes: its count, fewer when its pile holds fewer after
    the use's earlier ops took theirs (an empty deck draws nothing, ruling 34), so the
    next op's cards in the same field are its own."""
    if not isinstance(seat, int) or not 0 <= seat < ctx.state.n:
        return count  # the op's own check names the seat
    before = piles.get((field, seat), 0)
    need = max(0, min(count, len(chance_pool(ctx.state, field, seat)) - before))
    piles[(field, seat)] = before + need
    return need


def chance_needs(ctx: Context) -> list[tuple[str, Seat, int]]:
    """What the use takes by chance, in op order (ruling 34): (field, seat, count) of each
    chance op of its templates, or what its named function's `chance` entry says."""
    if ctx.ability.function is not None:
        key = (ctx.source.card.id if ctx.source.card else ctx.source.ref, ctx.ability.id)
        fn = CHANCE.get(key)
        return [] if fn is None else [(str(f), int(s), int(c))
                                      for f, s, c in fn(_use(ctx, ctx.choices))]
    out: list[tuple[str, Seat, int]] = []
    for template in ctx.ability.ops:
        field = CHANCE_OPS.get(str(template.get("op")))
        if field is None or "count" not in template or (
                field == "random" and not template.get("random")):
            continue
        seat = ctx.fill(template.get("seat"))
        if isinstance(seat, int) and 0 <= seat < ctx.state.n:
            out.append((field, seat, int(template["count"])))
    return out


def _check_function_chance(ctx: Context, key: tuple[str, str]) -> None:
    """A named function's chance fields hold exactly what it takes (ruling 34)."""
    if key not in CHANCE:
        return
    wanted: dict[str, int] = {}
    piles: dict[tuple[str, Seat], int] = {}
    for field, seat, count in chance_needs(ctx):
        wanted[field] = wanted.get(field, 0) + _chance_need(ctx, field, seat, count, piles)
    for field in CHANCE_FIELDS:
        got = len(ctx.chance.get(field) or ())
        if got != wanted.get(field, 0):
            raise IllegalAction("chance_missing", Mn(
                "{card}: name the {count} card it takes by chance ({field}), not {got}",
                "{card}: name the {count} cards it takes by chance ({field}), not {got}",
                wanted.get(field, 0), card=ctx.source.name, field=CHANCE_WORDS[field],
                got=got))


def chance_pool(state: State, field: str, seat: Seat) -> list[CardId]:
    """Where a chance op's cards come from (ruling 34): a draw and a discard from the deck
    from the seat's deck, a random discard from its hand, a look the card that may be on
    top (card ruling L12)."""
    if field == "looked":
        return look_pool(state, seat)
    player = state.players[seat]
    return sorted(player.hand if field == "random" else player.deck)


def stand_in_chance(state: State, needs: Sequence[tuple[str, Seat, int]]
                    ) -> dict[str, list[CardId]]:
    """The first cards of each pile in place of a deal not made yet (ruling 34): a use is
    checked before the server deals its chance or the table taps it, and any cards the
    piles hold will do (dealt.py's `probe`, `usable`, the forced moves listed)."""
    out: dict[str, list[CardId]] = {}
    taken: set[CardId] = set()
    for field, owner, count in needs:
        pool = [c for c in chance_pool(state, field, owner) if c not in taken]
        cards = (pool if field == "random" else in_order(state, owner, pool))[:count]
        taken.update(cards)
        if cards:  # an empty pile takes nothing: no field, as a table's tapped slots
            out.setdefault(field, []).extend(cards)
    return out


def _check_dealt(ctx: Context, op: Mapping[str, Any], field: str, need: int) -> None:
    """Ruling 34: a chance op takes exactly its count (fewer when the pile holds fewer:
    `need`), named in the action's chance field: at a table what was seen, in digital play
    dealt."""
    seat = op.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < ctx.state.n:
        return  # the op's own check names the seat
    got = len(op.get("cards") or ())
    require(got == need, "chance_missing",
            lambda: Mn("{card}: name the {count} card {how} for {player} ({field}), not {got}",
                       "{card}: name the {count} cards {how} for {player} ({field}), not "
                       "{got}", need, card=ctx.source.name, how=CHANCE_HOW[field],
                       player=who(ctx.state, seat), field=CHANCE_WORDS[field], got=got))


#: the action's chance fields (ruling 34), as a refusal names the one to fill
CHANCE_WORDS = {"drawn": M("drawn"), "milled": M("milled"), "random": M("random"),
                "looked": M("looked at")}
#: how the cards of a chance field were taken, as a refusal says it
CHANCE_HOW = {"drawn": M("drawn"), "milled": M("discarded from the deck"),
              "random": M("discarded at random"), "looked": M("looked at")}


def _use(ctx: Context, choices: Mapping[str, Any]) -> Use:
    return Use(state=ctx.state, seat=ctx.seat, source=ctx.source.ref,
               card=ctx.source.card, ability=ctx.ability, choices=choices,
               trigger=ctx.trigger, ed=ctx.ed, chance=ctx.chance, waiting=ctx.waiting)


def _marked(state: State, ctx: Context) -> State:
    """The markers the use leaves for a later moment (registry.marks, apply/marks.py)."""
    fn = MARKS.get((ctx.source.card.id if ctx.source.card else ctx.source.ref,
                    ctx.ability.id))
    if fn is None:
        return state
    return replace(state, marks=(*state.marks, *fn(_use(ctx, ctx.choices))))


def card_refusal(source: Source, err: IllegalAction, code: str | None = None
                 ) -> IllegalAction:
    """An op's refusal, said as the card's: "Ice: ..." (every refusal names the card,
    here and where revealed.py applies another seat's part)."""
    message = err.message if err.message.startswith(source.name) else \
        M("{card}: {reason}", card=source.name, reason=err.message)
    return IllegalAction(code or err.code, message, **err.details)


# ---------------------------------------------------------------------------
# The rule
# ---------------------------------------------------------------------------


def ability_named(source: Source, data: Mapping[str, Any]) -> Ability:
    """The source's ability the use names, or a refusal listing the ones it has (revealed.py
    asks it too: an answer to a trigger is begun here, a plot's use there)."""
    ident = data.get("ability")
    ability = next((a for a in source.abilities if a.id == ident), None)
    require(ability is not None or not source.blank, "text_blank",
            M("{card}: its text is blank now, so it has no ability to use", card=source.name))
    if ability is None:
        names = [M("“{value}”", value=a.label) for a in source.abilities
                 if a.kind != "constant"]
        args = {"card": source.name, "ability": str(ident), "abilities": Seq(names, "comma")}
        raise IllegalAction("no_ability", M("{card} has no ability “{ability}” (it has "
                                            "{abilities})", **args) if names else
                            M("{card} has no ability “{ability}”", **args),
                            card=data.get("card"))
    return ability


def prepare(state: State, seat: Seat, data: Mapping[str, Any], ed: Components,
            trigger: Mapping[str, Any] | None = None, targets: bool = True
            ) -> tuple[Source, Ability, Context]:
    """The checks before the cost: source, zone, window, condition, limit, targets."""
    source = source_of(state, data.get("card"), ed)
    ability = ability_named(source, data)
    args = {"card": source.name, "ability": ability.label}
    require(ability.kind != "constant", "applies_by_itself",
            lambda: M("{card}: “{ability}” applies by itself while it is in play", **args))
    require(ability.kind != "title", "applies_by_itself",  # vocab: the §2.5 rules apply it
            lambda: M("{card}: “{ability}” is applied by the rules while you hold it", **args))
    require(source.controller == seat, "not_your_card", lambda: _not_yours(state, seat, source))
    wanted = ability.zone
    require(source.zone == wanted, "not_in_zone",
            lambda: M("{card}: “{ability}” is used from {zone}, and it is {where}", **args,
                      zone=_zone_words(wanted), where=_zone_words(source.zone)))
    raw = data.get("choices") or {}
    require(isinstance(raw, Mapping), "wrong_target",
            lambda: M("{card}: the choices are an object of target names", card=source.name))
    chance = {k: data.get(k) for k in CHANCE_FIELDS if data.get(k) is not None}
    ctx = Context(state, seat, source, ability, dict(thaw(raw)), trigger, chance, ed)
    problem = window_problem(state, seat, ability, ed) or \
        digital_turn_problem(state, seat, ed) if trigger is None else \
        trigger_problem(ctx, ability.window.condition)
    require(problem is None, "outside_window",
            lambda: cannot_use_now(source.name, ability.label, problem))
    reason = condition_problem(ctx, ability.condition)
    require(reason is None, "condition_failed",
            lambda: cannot_use_now(source.name, ability.label, reason))
    _check_limit(state, source, ability)
    if targets:
        _check_targets(ctx)
    return source, ability, ctx


def usable(state: State, seat: Seat, ref: str, ability: Ability, ed: Components) -> bool:
    """Whether `seat` may begin a use of `ability` of `ref` now: every check before the
    targets holds, each target has enough options, and the cost (but influence) is
    payable. The choices then offer only what completes a legal use."""
    try:
        _, _, ctx, _ = begin(state, seat, {"card": ref, "ability": ability.id}, ed,
                             targets=False)
        for target in ability.targets:
            if len(target_options(ctx, target)) < target.least:
                return False
        if ability.influence and sum(influence_of(c, ed) for c in influence_options(ctx)) \
                < ability.influence:
            return False
        after = _taxed(ctx)
        for template in ability.cost:
            if template.get("op") == "pay_influence" or any(
                    isinstance(v, str) and v.startswith("$") and v[1:] in
                    {t.name for t in ability.targets} for v in template.values()):
                continue  # paid with a choice: checked when chosen
            for op in _cost_ops(replace(ctx, state=after, ability=replace(
                    ability, cost=(template,)))):
                after = apply_op(after, seat, op, ed)
        if not ability.targets and (ability.influence or (
                ability.kind in ANSWERS and ability.function)):
            # nothing chosen but influence: the whole use is tried, with every influence
            # card knelt (the most it may pay) and any cards its chance may take (Ser
            # Jacelyn), so the choices never begin a dead end
            resolve_use(state, seat, {"card": ref, "ability": ability.id, "choices": {
                "influence": influence_options(ctx)} if ability.influence else {},
                **stand_in_chance(ctx.state, chance_needs(ctx))}, ed)
    except IllegalAction:
        return False
    return True


def sources_of(state: State, seat: Seat, ed: Components) -> list[str]:
    """Every reference a seat might use an ability from: its cards in play, hand and
    piles that have abilities, its revealed plot, House card and title."""
    out: list[str] = [c.id for c in state.cards if c.controller == seat
                      and text_of(state, c.id, ed).abilities]
    player = state.players[seat]
    for pile in (sorted(set(player.hand)), player.discard, player.dead):
        out.extend(c for c in pile if any(a.zone != "play" for a in ed.card(c).abilities))
    if player.revealed_plot is not None and ed.card(player.revealed_plot).abilities:
        out.append(f"plot:{seat}")
    number = ed.house_ids.get(player.house)
    house = ed.by_number.get(number or 0)
    if house is not None and house.abilities:
        out.append(f"house:{seat}")
    out.extend(f"title:{t}" for s, t in enumerate(state.titles)
               if s == seat and t is not None and ed.titles[t].abilities)
    for trig in state.window.triggers if state.window is not None else ():
        if trig.restore is not None and still_gone(state, trig):  # a save's own source
            back = restored(state, trig)  # may have left play with the card (saves.py)
            out.extend(c.id for c in back.cards if c.controller == seat
                       and text_of(back, c.id, ed).abilities and c.id not in out)
    return list(dict.fromkeys(out))


def usable_abilities(state: State, seat: Seat, ref: str, ed: Components) -> list[Ability]:
    """The abilities of `ref` that `seat` may begin to use now."""
    try:
        source = source_of(state, ref, ed)
    except IllegalAction:
        return []
    return [a for a in source.abilities if a.kind != "constant"
            and usable(state, seat, ref, a, ed)]


def _check_limit(state: State, source: Source, ability: Ability) -> None:
    if ability.limit_times is not None:
        times = ability.limit_times
        require(uses(state, _limit_key(source), ability) < times, "limit_reached",
                lambda: Mn("{card}: “{ability}” was already used {count} time {period}",
                           "{card}: “{ability}” was already used {count} times {period}",
                           times, card=source.name, ability=ability.label,
                           period=PERIODS.get(str(ability.limit_per)) or
                           words(str(ability.limit_per))))


#: a limit's period (docs: "Limits"), as a refusal says how long it lasts
PERIODS = {"challenge": M("this challenge"), "phase": M("this phase"),
           "round": M("this round"), "game": M("this game")}
#: where a source is, as a refusal says where the ability is used from
ZONES = {"play": M("in play"), "hand": M("in the hand"), "discard": M("in the discard pile"),
         "dead": M("in the dead pile"), "plot": M("the revealed plot"), "title": M("a title"),
         "house": M("the House card"), "none": M("nowhere it may be used from")}


def _lasting(ctx: Context, after: State) -> State:
    """What the use leaves beyond its ops (registry LASTING), on the state after them."""
    key = (ctx.source.card.id if ctx.source.card else ctx.source.ref, ctx.ability.id)
    fn = LASTING.get(key)
    if fn is None:
        return after
    out: State = fn(_use(ctx, ctx.choices), after)
    return out


def _zone_words(zone: str) -> str:
    return ZONES.get(zone) or words(zone)


def _not_yours(state: State, seat: Seat, source: Source) -> Message:
    """ "Ice is not Anna's to use (Bo controls it)": the refusal of another's card."""
    if source.controller is None:
        return M("{card} is not {player}'s to use", card=source.name, player=who(state, seat))
    return M("{card} is not {player}'s to use ({controller} controls it)", card=source.name,
             player=who(state, seat), controller=who(state, source.controller))


def _taxed(ctx: Context) -> State:
    """The state once an event's tax is paid (Calm Over Westeros, ruling S20), as a use
    pays it first; any other use's state as it is."""
    after = ctx.state
    if source_is_event(ctx):
        for op in event_tax(after, ctx.seat, ctx.ed):
            after = apply_op(after, ctx.seat, op, ctx.ed)
    return after


def source_is_event(ctx: Context) -> bool:
    """Whether the use plays an event card from its user's hand."""
    card = ctx.source.card
    return card is not None and card.type == "event" and ctx.source.zone == "hand"


def resolve_use(state: State, seat: Seat, data: Mapping[str, Any], ed: Components,
                trigger: Mapping[str, Any] | None = None) -> State:
    """Check, pay and apply one use; every refusal names the card."""
    number = None
    if trigger is None:
        source, ability, ctx, number = begin(state, seat, data, ed)
    else:
        source, ability, ctx = prepare(state, seat, data, ed, trigger)
    event = source_is_event(ctx)
    if event:
        check_house_only(state, seat, source.ref, ed)
    after = ctx.state
    try:  # an event's tax first (Calm Over Westeros, ruling S20)
        for op in [*(event_tax(after, seat, ed) if event else []), *_cost_ops(ctx)]:
            after = apply_op(after, seat, op, ed)
    except IllegalAction as err:
        raise card_refusal(source, err, "cannot_pay") from None
    ctx = replace(ctx, state=after)
    try:
        for op in ability_ops(ctx):
            after = apply_op(after, seat, op, ed)
        after = _lasting(ctx, after)
    except IllegalAction as err:
        raise card_refusal(source, err) from None
    after = answered(_record_use(_marked(after, ctx), source, ability), source.ref, ability,
                     number)
    if event:
        player = after.players[seat]
        if source.ref in player.hand:
            after = after.with_player(seat, hand=player.hand.take([source.ref]),
                                      discard=(*player.discard, source.ref))
    return after


__all__ = ["resolve_use"]
