"""When-revealed plot abilities (§7.1; rulings 32 and 33).

After the first player is chosen, each revealed plot's when-revealed ability resolves, the
first player's first, then clockwise (ruling 32). One without a choice applies by itself,
inside the move that reached it (no prompt, no event); one with a choice waits, in the plot
phase's step `when_revealed`, for its owner's `use_ability` of `plot:<seat>`. A plot that
`reveal_new_plot` reveals later resolves as soon as it is revealed.

Some plots let another seat choose (ruling 33): a target whose `chooser` is a seat target
("$foe") or "each" is not the user's to name. Once the user has chosen its own targets, the
ability waits (`State.pick`) for each such seat in turn, which answers with a `use_ability`
of the same plot naming only its own part; the ops apply when the last part is chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...messages import M
from ...rules import Action, IllegalAction, freeze, replace, require, thaw
from ..abilities.schema import CHANCE_OPS, Ability, Target
from ..edition import Components, Seat, owner_of
from ..state import Pick, State, order
from . import abilities as ab
from . import concede, effects, marks, rounds
from .guards import require_turn, who
from .victory import rule


def when_revealed_of(state: State, seat: Seat, ed: Components) -> Ability | None:
    """The when-revealed ability of `seat`'s revealed plot, if it has one (a Good for the
    Gander's: the copied plot's once the copy is known, none with nothing to copy)."""
    player = state.players[seat]
    plot = player.revealed_plot
    if plot is None or player.conceded or marks.copies_nothing(state, seat, ed):
        return None
    _, abilities = marks.plot_as_used(state, seat, ed.card(plot), ed)
    return next((a for a in abilities if a.kind == "when_revealed"), None)


@rule
def apply_choose_first_player(state: State, action: Action, ed: Components) -> State:
    """§6.7: the initiative winner names the first player; then the plots' when-revealed
    abilities resolve (ruling 32), then titles in a melee."""
    require(state.phase == "plot" and state.step == "first_player", "wrong_phase",
            M("the first player is chosen once initiative is settled"))
    require_turn(state, action, state.initiative_winner, M("choose the first player"))
    first = action.data["first_player"]
    require(first in state.active, "bad_seat",
            M("the first player must be a player still in the game, not {player}",
              player=who(state, first)))
    state = marks.forget_copies(replace(state, first_player=first, step="when_revealed"))
    seats = tuple(s for s in order(state) if when_revealed_of(state, s, ed) is not None
                  and state.when_revealed)
    return advance(replace(state, revealing=seats), ed)


def advance(state: State, ed: Components) -> State:
    """Resolve the waiting when-revealed abilities that need no choice, up to the first
    that does (or an ability waiting for another seat); the plot phase then goes on."""
    while state.pick is None and state.revealing:
        seat = state.revealing[0]
        state = marks.settle_copy(state, seat, ed)  # Good for the Gander, one plot to copy
        ability = when_revealed_of(state, seat, ed)
        if ability is not None and asks(state, seat, ability, ed):
            return state
        if ability is not None:
            state = begin_use(state, seat, {"card": f"plot:{seat}", "ability": ability.id},
                              ed)
        state = replace(state, revealing=state.revealing[1:])
    if state.pick is None and state.phase == "plot" and state.step == "when_revealed":
        if state.is_melee:
            return replace(state, step="titles", turn=state.first_player)
        return rounds.begin_draw_phase(state)
    return state


def asks(state: State, seat: Seat, ability: Ability, ed: Components) -> bool:
    """Whether the owner has a choice to make: a target of its own with an option, or an
    outcome of chance, which a use_ability carries."""
    _, _, ctx = ab.prepare(state, seat, {"card": f"plot:{seat}", "ability": ability.id}, ed,
                           targets=False)
    if ab.chance_needs(ctx):
        return True
    return any(ab.chooser(ctx, t) == "you" and ab.target_options(ctx, t)
               for t in ability.targets)


def begin_use(state: State, seat: Seat, data: Mapping[str, Any], ed: Components) -> State:
    """The user's use: applied whole, or, when other seats have a part to choose, waiting
    for them (State.pick) with the user's own choices kept. An answer to a trigger (a
    response, interrupt or forced ability) binds its trigger first (abilities.begin), and
    waits for the others' parts as a plot does (Snowed Under, ruling S21)."""
    source, ability, ctx, number = ab.begin(state, seat, data, ed)
    others = [t for t in ability.targets if ab.chooser(ctx, t) != "you"]
    if ability.kind in ab.ANSWERS and not others:
        return ab.resolve_use(state, seat, data, ed)
    named = [t for t in others if t.name in ctx.choices]
    require(not named, "wrong_target", lambda: _named_too_soon(ctx, named[0]))
    waiting = _waiting(ctx, others)
    if not waiting:
        return ab.resolve_use(state, seat, data, ed)
    seen = all(ab.chooser(ctx, t) == ab.SEEN for t in others)
    if seen:  # paid at the end, in the same moment: whoever cannot pay does not look
        ab.check_cost(ctx)
    require(seen or not ability.cost, "no_ability",
            M("{card}: an ability others choose for has no cost", card=source.name))
    try:  # the user's own part is checked now, the others' when they choose
        ab.ability_ops(replace(ctx, waiting=frozenset(s for s, _ in waiting)))
    except IllegalAction as err:
        raise ab.card_refusal(source, err) from None
    pick = Pick(source=source.ref, ability=ability.id, seat=seat,
                choices=freeze(dict(ctx.choices)), waiting=waiting,
                trigger=None if number is None else freeze(dict(ctx.trigger or {})),
                chance=freeze(dict(ctx.chance)) if seen else None)
    return replace(ab.answered(state, source.ref, ability, number), pick=pick)


def _waiting(ctx: ab.Context, others: list[Target]) -> tuple[tuple[Seat, str], ...]:
    """Each (seat, target) another seat still chooses, in order: a seat target's seat, or
    every player in turn order from the first player; one with nothing to choose is
    skipped."""
    out: list[tuple[Seat, str]] = []
    for target in others:
        for seat in _choosers(ctx, target):
            if part_options(ctx, target, seat):
                out.append((seat, target.name))
    return tuple(out)


def _choosers(ctx: ab.Context, target: Target) -> list[Seat]:
    who_ = ab.chooser(ctx, target)
    if who_ == "each":
        return list(order(ctx.state))
    if who_ == ab.SEEN:
        return [ctx.seat]
    seat = ctx.choices.get(who_[1:])
    return [seat] if isinstance(seat, int) and seat in ctx.state.active else []


def part_options(ctx: ab.Context, target: Target, seat: Seat) -> list[Any]:
    """The values `seat` may choose for its part of `target`: a card of a hand or deck is
    one of its own (it sees no other, §11); for "each", a card in play one it controls."""
    options = ab.target_options(ctx, target)
    if target.choose != "card":
        return options
    if target.zone == "play":
        if ab.chooser(ctx, target) != "each":
            return options
        mine = {c.id for c in ctx.state.cards if c.controller == seat}
        return [c for c in options if c in mine]
    return [c for c in options if owner_of(c) == seat]


def _named_too_soon(ctx: ab.Context, target: Target) -> str:
    """The refusal of a use naming a part that is not its user's to name now."""
    if ab.chooser(ctx, target) == ab.SEEN:
        return M("{card}: you choose {target} once you have seen the card, in your next move",
                 card=ctx.source.name, target=_target_words(target))
    return M("{card}: {chooser} chooses {target}, not you", card=ctx.source.name,
             chooser=_chooser_words(ctx, target), target=_target_words(target))


def _chooser_words(ctx: ab.Context, target: Target) -> str:
    who_ = ab.chooser(ctx, target)
    if who_ == "each":
        return M("each player")
    seat = ctx.choices.get(who_[1:])
    return who(ctx.state, seat) if isinstance(seat, int) else M("the player chosen")


def _target_words(target: Target) -> str:
    return target.label or M("the target")


# ---------------------------------------------------------------------------
# The action
# ---------------------------------------------------------------------------


@rule
def apply_use_ability(state: State, action: Action, ed: Components) -> State:
    """`use_ability` (docs/games/thrones-abilities.md): another seat's part of a waiting
    ability, a revealed plot's when-revealed ability, or any other use; then whatever
    when-revealed abilities a new plot brought resolve."""
    require(state.phase not in ("start", "setup", "setup_draw", "over"), "wrong_phase",
            M("abilities are used after the setup reveal"))
    seat = action.actor
    require(isinstance(seat, int) and 0 <= seat < state.n
            and not state.players[seat].conceded, "not_your_turn",
            M("a player in the game uses an ability, not {player}", player=who(state, seat)))
    assert isinstance(seat, int)
    if state.window is not None and state.window.waiting:  # an answer to what a plot did
        return begin_use(state, seat, action.data, ed)
    if state.pick is not None:
        return advance(answer_pick(state, seat, action.data, ed), ed)
    if state.revealing:
        after = begin_use(state, seat, action.data, ed)
        if marks.chose_copy(state, after, state.revealing[0]):
            return advance(after, ed)  # the Gander's copied ability resolves next
        return advance(replace(after, revealing=after.revealing[1:]), ed)
    return advance(begin_use(state, seat, action.data, ed), ed)


def refresh_pick(state: State, ed: Components) -> State:
    """Card ruling B24: a waiting ability's parts are asked of the seats the state gives
    them when its user used it; a window answered before anyone chose (Ser Jacelyn's
    random discards, killed by an earlier plot, while Rule by Decree waits) may change who
    has a part. Each part nobody has chosen yet is asked again of the seats the state now
    gives it; an ability left with no part to ask applies (unless its last part deals
    chance, which the part's answer carries)."""
    pick = state.pick
    if pick is None or (state.window is not None and state.window.waiting):
        return state
    source = ab.source_of(state, pick.source, ed)
    ability = next(a for a in source.abilities if a.id == pick.ability)
    ctx = ab.Context(state, pick.seat, source, ability, dict(thaw(pick.choices)), None, {},
                     ed, frozenset())
    waiting: list[tuple[Seat, str]] = []
    for target in (t for t in ability.targets if ab.chooser(ctx, t) != "you"):
        if target.name in ctx.choices:  # a part chosen: the others stay as asked
            waiting.extend(w for w in pick.waiting if w[1] == target.name)
        else:
            waiting.extend(_waiting(ctx, [target]))
    if tuple(waiting) == pick.waiting:
        return state
    if waiting:
        return replace(state, pick=replace(pick, waiting=tuple(waiting)))
    if ab.chance_needs(replace(ctx, waiting=frozenset())):
        return state
    return advance(resolve_pick(replace(state, pick=None), replace(pick, waiting=()), {},
                                ed), ed)


def pick_context(state: State, data: Mapping[str, Any], ed: Components
                 ) -> tuple[Pick, Target, ab.Context]:
    """The waiting ability as its next chooser sees it: the pick, the target asked and the
    context of the user's use with the choices made so far and this action's chance."""
    pick = state.pick
    assert pick is not None
    source = ab.source_of(state, pick.source, ed)
    ability = next(a for a in source.abilities if a.id == pick.ability)
    name = pick.waiting[0][1]
    target = next(t for t in ability.targets if t.name == name)
    chance = dict(thaw(pick.chance)) if pick.chance is not None else \
        {k: data.get(k) for k in CHANCE_OPS.values() if data.get(k) is not None}
    ctx = ab.Context(state, pick.seat, source, ability, dict(thaw(pick.choices)), None,
                     chance, ed, frozenset(s for s, _ in pick.waiting))
    return pick, target, ctx


def answer_pick(state: State, seat: Seat, data: Mapping[str, Any], ed: Components
                ) -> State:
    """Ruling 33: the seat asked names its part; the last part applies the ability."""
    pick, target, ctx = pick_context(state, data, ed)
    name = ctx.source.name
    chooser = pick.waiting[0][0]
    require(seat == chooser, "not_your_turn",
            M("{card}: {player} chooses {target} now", card=name, player=who(state, chooser),
              target=_target_words(target)))
    require(data.get("card") == pick.source and data.get("ability") == pick.ability,
            "outside_window", M("{card}: {player} first chooses {target} for it", card=name,
                                player=who(state, chooser), target=_target_words(target)))
    raw = data.get("choices") or {}
    require(isinstance(raw, Mapping) and set(raw) <= {target.name}, "wrong_target",
            M("{card}: you choose only {target}", card=name, target=_target_words(target)))
    value = thaw(raw.get(target.name))
    _check_part(ctx, target, seat, value)
    merged = _merged(ctx, target, value)
    rest = pick.waiting[1:]
    if rest:
        waiting = frozenset(s for s, _ in rest)
        try:
            ab.ability_ops(replace(ctx, choices=merged, waiting=waiting))
        except IllegalAction as err:
            raise ab.card_refusal(ctx.source, err) from None
        return replace(state, pick=replace(pick, choices=freeze(merged), waiting=rest))
    done = replace(pick, choices=freeze(merged), waiting=())
    return resolve_pick(replace(state, pick=None), done, ctx.chance, ed)


def _check_part(ctx: ab.Context, target: Target, seat: Seat, value: Any) -> None:
    """The part is among the seat's options, as many as the target takes."""
    options = part_options(ctx, target, seat)
    picked = (list(value) if isinstance(value, list) else [value]) if value is not None \
        else []
    many = target.many or ab.chooser(ctx, target) == "each"
    require(many or len(picked) <= 1, "wrong_target",
            M("{card}: choose one for {target}", card=ctx.source.name,
              target=_target_words(target)))
    require(len(set(map(str, picked))) == len(picked) and len(picked) <= target.most,
            "wrong_target", M("{card}: choose at most {count} different for {target}",
                              card=ctx.source.name, count=target.most,
                              target=_target_words(target)))
    bad = [v for v in picked if v not in options]
    require(not bad, "wrong_target",
            M("{card}: {value} is not {target} {player} may choose", card=ctx.source.name,
              value=ab.value_words(ctx, bad[0] if bad else None, target),
              target=_target_words(target), player=who(ctx.state, seat)))


def _merged(ctx: ab.Context, target: Target, value: Any) -> dict[str, Any]:
    out = dict(ctx.choices)
    if ab.chooser(ctx, target) == "each":
        part = value if isinstance(value, list) else ([] if value is None else [value])
        out[target.name] = [*(out.get(target.name) or []), *part]
    elif value is not None:
        out[target.name] = value
    return out


# ---------------------------------------------------------------------------
# Around other moves
# ---------------------------------------------------------------------------


@rule
def apply_effect(state: State, action: Action, ed: Components) -> State:
    """§6.15 (a table's ruling, ruling 29); a plot it reveals resolves (ruling 32)."""
    return advance(effects.apply_effect(state, action, ed), ed)


@rule
def apply_concede(state: State, action: Action, ed: Components) -> State:
    """§6.17 while plots resolve: a conceding seat's plot and its part of a choice drop
    out; an ability it alone was still to choose for applies with the choices made."""
    state = concede.apply_concede(state, action, ed)
    if state.winner is not None:
        return replace(state, revealing=(), pick=None)
    left = set(state.active)
    state = replace(state, revealing=tuple(s for s in state.revealing if s in left))
    pick = state.pick
    if pick is None:
        return advance(state, ed)
    if pick.seat not in left:
        return advance(replace(state, pick=None), ed)
    waiting = tuple(w for w in pick.waiting if w[0] in left)
    if waiting:
        return advance(replace(state, pick=replace(pick, waiting=waiting)), ed)
    try:
        return advance(resolve_pick(replace(state, pick=None), pick, {}, ed), ed)
    except IllegalAction:
        return advance(replace(state, pick=None), ed)


def resolve_pick(state: State, pick: Pick, chance: Mapping[str, Any], ed: Components
                 ) -> State:
    """The waiting ability applied with every part chosen, as its user's use answering
    the plot's reveal (its window was open when the user used it)."""
    plot = state.players[pick.seat].revealed_plot if pick.source.startswith("plot:") \
        else None
    use = {"card": pick.source, "ability": pick.ability, "choices": thaw(pick.choices),
           **chance}
    # no trigger for an action's part chosen once its chance was seen (Raff, L12)
    trigger = dict(thaw(pick.trigger)) if pick.trigger is not None else \
        None if plot is None else {"seat": pick.seat, "plot": plot}
    return ab.resolve_use(state, pick.seat, use, ed, trigger=trigger)
