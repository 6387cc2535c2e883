"""The typed abilities of a card and their check at load (docs/games/thrones-abilities.md).

Every ability of `projections/data/thrones.json` is parsed into frozen dataclasses here; an
unknown kind, op, trigger, step, filter key, condition or placeholder is a load error
(`AbilityError`) naming the card, so a typo in the data never reaches a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...messages import Name
from ...rules import freeze

KINDS = ("action", "response", "interrupt", "forced", "constant", "when_revealed", "title",
         "house")
ZONES = ("play", "hand", "plot", "discard", "dead", "title", "house")
PHASES = ("plot", "draw", "marshalling", "challenges", "dominance")
STEPS = ("no_challenge", "challenge_open", "attackers_declared", "defenders_declared",
         "resolved", "choose", "first_player", "titles")
PERS = ("challenge", "phase", "round", "game")
TRIGGERS = ("challenge_won", "claim_applied", "killed", "would_be_killed",
            "would_be_discarded", "leaves_play", "enters_play", "marshalled",
            "attackers_declared", "defenders_declared", "dominance_won", "plot_revealed",
            "phase_begins", "event_played", "stands", "cards_revealed")
CHOOSE = ("card", "seat", "number", "challenge_type")
TARGET_ZONES = ("play", "hand", "deck", "discard", "dead", "plot_deck")
SIDES = ("you", "opponent", "any")
FILTER_KEYS = ("type", "type_any", "house", "trait", "trait_any", "crest", "name", "unique",
               "printed_cost_at_most", "printed_cost_at_least", "printed_strength_at_most",
               "printed_icon", "printed_keyword", "limited",
               "icon", "keyword", "strength_at_most", "strength_at_least", "knelt",
               "participating", "attacking", "defending", "has_power", "has_attachment",
               "is_attachment", "attached_to", "not", "controller", "owner")
CONDITION_KEYS = ("source_standing", "source_knelt", "source_participating",
                  "source_attacking", "source_defending", "you_are", "you_control",
                  "you_control_count", "opponent_controls", "gold_at_least", "hand_at_least",
                  "first_player", "has_power", "your_pile_count", "melee",
                  "used_this_challenge")
TRIGGER_CONDITION_KEYS = ("margin_at_least", "source_participated", "card_filter",
                          "unopposed", "type", "winner", "loser", "attacker", "defender",
                          "card", "seat", "to", "by", "phase", "plot")
COST_PSEUDO_OPS = ("kneel_self", "sacrifice", "discard_self_from_play", "pay_influence")
#: ops whose cards are chance: their `count` is filled from this chance field
CHANCE_OPS = {"draw": "drawn", "discard_from_deck": "milled", "discard_from_hand": "random"}
#: every chance field of use_ability: the ops' and a named function's top card looked at
#: (card ruling L12, Raff the Sweetling)
CHANCE_FIELDS = (*CHANCE_OPS.values(), "looked")
CONSTANT_OPS = ("continuous", "note", "immune", "cannot_be_discarded", "cannot_defend",
                "blank_text", "cannot_be_killed", "killed_to", "killed_at_zero", "event_tax")
#: the fields of the ops only a constant ability has (docs: "Constant abilities"): the
#: rules check them where they apply (apply/restrictions.py)
RESTRICTION_OPS: Mapping[str, tuple[str, ...]] = {
    "immune": ("filter", "to", "from", "while"),
    "cannot_be_discarded": ("filter", "while"),
    "cannot_defend": ("filter", "while"),
    # the text box of each covered card is blank (apply/text.py; Milk of the Poppy)
    "blank_text": ("filter",),
    # deaths (apply/deaths.py, apply/checks.py): a covered card is not killed (Stannis's
    # Northern Cavalry), goes to `pile` when killed (The Hound), is killed at 0 STR
    # (Flame-Kissed)
    "cannot_be_killed": ("filter", "while"),
    "killed_to": ("filter", "pile", "while"),
    "killed_at_zero": ("filter", "while"),
    "event_tax": ("amount", "while"),
}
#: where a `killed_to` constant sends a killed card instead of its dead pile
KILLED_TO_PILES = ("discard",)
#: the keys of a `blank_text` filter: its bearer, or itself (apply/text.py reads no more)
BLANK_FILTER_KEYS = ("bearer", "itself")
#: the fields a constant's `continuous` has beyond §9's (vocab, issue #30 item 2)
CONSTANT_CONTINUOUS_FIELDS = ("strength_per", "while")
#: the keys of a constant's filter: §9's printed keys, `bearer`, and `itself` (the source)
CONSTANT_FILTER_KEYS = ("controller", "type", "house", "trait", "icon", "crest", "keyword",
                        "name", "unique", "house_any", "lacks_icon", "bearer", "itself")
#: the printed keys a counted or required card meets, and `has_power` (it holds power)
COUNTED_FILTER_KEYS = ("type", "house", "trait", "icon", "crest", "keyword", "name", "unique",
                       "house_any", "lacks_icon", "has_power")
#: what a constant's +STR is multiplied by (`strength_per`)
STRENGTH_PER = ("gold_pool", "in_play", "attachments")
#: the conditions a constant applies while (`while`), about its source and its controller
WHILE_KEYS = ("you_control", "in_play", "source_carries", "sole_attachment",
              "fewer_characters", "source_attacking", "defender_controls_none",
              "strength_changed")
IMMUNE_TO = ("events", "character_abilities")
ABILITY_KEYS = ("id", "label", "label_zh", "kind", "zone", "window", "condition", "cost",
                "limit", "targets", "ops", "function", "automated", "summary")
WINDOW_KEYS = ("phase", "step", "challenge_type", "your_turn", "trigger", "condition")
TARGET_KEYS = ("name", "choose", "zone", "controller", "owner", "filter", "count", "min",
               "max", "seats", "optional", "unless_none", "label", "label_zh", "chooser", "values")
FIXED_PLACEHOLDERS = ("$self", "$bearer", "$you", "$house", "$opponent", "$drawn", "$milled",
                      "$random")
CHALLENGE_FIELDS = ("type", "attacker", "defender", "winner", "loser")
TRIGGER_FIELDS = ("card", "seat", "type", "winner", "loser", "attacker", "defender",
                  "margin", "unopposed", "to", "by", "from", "plot", "phase")
NAME = re.compile(r"^[a-z0-9_]+$")

#: each §9 op's fields, as the edition's `effect_ops` lists them
OpFields = Mapping[str, Sequence[str]]
#: a frozen JSON mapping, as `rules.freeze` makes it
Frozen = Mapping[str, Any]


#: the empty filter or condition
EMPTY: Frozen = freeze({})


class AbilityError(ValueError):
    """An ability the engine cannot read; the message names the card and what is wrong."""


@dataclass(frozen=True, slots=True)
class Target:
    """One choice of an ability's move (docs: "Targets")."""

    name: str
    choose: str
    zone: str = "play"
    controller: str = "any"
    owner: str = "you"
    filter: Frozen = EMPTY
    least: int = 1
    most: int = 1
    seats: str = "opponents"
    label: str = ""
    #: who chooses it (ruling 33): "you" (the user), "$<seat target>" (the seat chosen
    #: there) or "each" (every player its own part, in turn order from the first player)
    chooser: str = "you"
    #: optional only while it offers nothing ("each kneels a standing character": left out
    #: only by a player who has none); a choice may not end empty while it offers a card
    unless_none: bool = False
    #: a number target's words for each of its values ((0, "leave it on top"), ...): a
    #: yes-or-no choice reads as what it does, never as a bare 0 or 1
    values: tuple[tuple[int, str], ...] = ()

    def value_label(self, value: object) -> str | None:
        """The words for one value of a number target, if the data gives them."""
        return next((label for v, label in self.values if v == value), None)

    @property
    def many(self) -> bool:
        """Whether the value is a list (a range, or more than one card)."""
        return self.choose == "card" and (self.least != self.most or self.most > 1)


@dataclass(frozen=True, slots=True)
class Window:
    """When an ability may be used (docs: "One ability", `window`)."""

    phases: tuple[str, ...] = ()  # empty: any phase
    steps: tuple[str, ...] = ()
    challenge_types: tuple[str, ...] = ()
    your_turn: bool = False
    trigger: str | None = None
    condition: Frozen = EMPTY


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card, as declared beside its summary."""

    id: str
    label: str
    kind: str
    zone: str
    window: Window
    condition: Frozen
    cost: tuple[Frozen, ...]
    limit_times: int | None
    limit_per: str | None
    targets: tuple[Target, ...]
    ops: tuple[Frozen, ...]
    function: str | None
    automated: bool = True

    @property
    def influence(self) -> int:
        """The influence its cost asks (pay_influence), 0 for none."""
        return sum(int(op.get("amount") or 0) for op in self.cost
                   if op.get("op") == "pay_influence")


def parse_abilities(card_id: str, name: str, card_type: str, raw: Any,
                    op_names: Mapping[str, Sequence[str]]) -> tuple[Ability, ...]:
    """The typed abilities of one card; AbilityError names the card and the fault."""
    where = f"{name} ({card_id})"
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise AbilityError(f"{where}: abilities must be a list")
    out: list[Ability] = []
    for entry in raw:
        ability = _ability(where, card_type, entry, op_names)
        if any(a.id == ability.id for a in out):
            raise AbilityError(f"{where}: two abilities are named {ability.id}")
        out.append(ability)
    return tuple(out)


def _keys(where: str, data: Any, allowed: Sequence[str], what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise AbilityError(f"{where}: {what} must be an object")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise AbilityError(f"{where}: {what} has unknown key {', '.join(unknown)}")
    return data


def _one_of(where: str, value: Any, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise AbilityError(f"{where}: unknown {what} {value!r} (one of {', '.join(allowed)})")
    return str(value)


def _listed(value: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def _default_zone(kind: str, card_type: str) -> str:
    if kind == "title":
        return "title"
    if kind == "house" or card_type == "house":
        return "house"
    if card_type == "event":
        return "hand"
    if card_type == "plot":
        return "plot"
    return "play"


def _ability(card: str, card_type: str, data: Any, op_names: OpFields) -> Ability:
    data = _keys(card, data, ABILITY_KEYS, "an ability")
    ident = data.get("id")
    if not isinstance(ident, str) or not NAME.match(ident):
        raise AbilityError(f"{card}: an ability's id must be snake_case, not {ident!r}")
    where = f"{card}, ability {ident}"
    if not isinstance(label := data.get("label"), str) or not label.strip():
        raise AbilityError(f"{where}: needs a label (what its button says)")
    kind = _one_of(where, data.get("kind"), KINDS, "kind")
    zone = _one_of(where, data.get("zone", _default_zone(kind, card_type)), ZONES, "zone")
    window = _window(where, kind, data.get("window"))
    targets = tuple(_target(where, t) for t in data.get("targets") or ())
    names = {t.name for t in targets}
    _check_choosers(where, targets)
    if kind == "constant" and (targets or data.get("cost")):
        raise AbilityError(f"{where}: a constant ability has no targets and no cost")
    known = (*FIXED_PLACEHOLDERS, *(f"${n}" for n in names))
    cost = tuple(_op(where, op, op_names, known, cost=True) for op in data.get("cost") or ())
    if kind == "constant":
        ops = tuple(_constant_op(where, op, op_names, known)
                    for op in data.get("ops") or ())
    else:
        ops = tuple(_op(where, op, op_names, known) for op in data.get("ops") or ())
    function = data.get("function")
    if function is not None and (not isinstance(function, str) or not NAME.match(function)):
        raise AbilityError(f"{where}: a function is named in snake_case")
    if function is not None and ops:
        raise AbilityError(f"{where}: an ability with a function declares no ops")
    _check_placeholders(where, data.get("condition") or {}, known)
    times, per = _limit(where, data.get("limit"))
    condition = _condition(where, data.get("condition") or {})
    automated = data.get("automated", True)
    if not isinstance(automated, bool):
        raise AbilityError(f"{where}: automated is true or false")
    return Ability(id=ident, label=_label(data, label), kind=kind, zone=zone, window=window,
                   condition=freeze(dict(condition)), cost=cost, limit_times=times,
                   limit_per=per, targets=targets, ops=ops, function=function,
                   automated=automated)


def _label(data: Mapping[str, Any], english: str) -> str:
    """A label in every language the data gives: `label` (English), `label_zh` beside it
    (issue #33); a Name, so its text is the English and a shell renders the reader's."""
    own = data.get("label_zh")
    return Name(english, {"zh_Hans": own} if isinstance(own, str) and own else {})


def _check_choosers(where: str, targets: Sequence[Target]) -> None:
    """Targets have distinct names; one another seat chooses names an earlier seat target,
    or "each" (ruling 33)."""
    if len({t.name for t in targets}) != len(targets):
        raise AbilityError(f"{where}: two targets share a name")
    seats = set()
    for target in targets:
        chooser = target.chooser
        if chooser not in ("you", "each") and chooser[1:] not in seats:
            raise AbilityError(f"{where}: target {target.name}: its chooser is you, each or "
                               f"an earlier seat target, not {chooser!r}")
        if target.choose == "seat" and chooser == "you":
            seats.add(target.name)


def _limit(where: str, limit: Any) -> tuple[int | None, str | None]:
    if limit is None:
        return None, None
    limit = _keys(where, limit, ("times", "per"), "a limit")
    times = limit.get("times", 1)
    if not isinstance(times, int) or isinstance(times, bool) or times < 1:
        raise AbilityError(f"{where}: a limit's times is a positive integer")
    return times, _one_of(where, limit.get("per"), PERS, "limit period")


def _condition(where: str, data: Any) -> Mapping[str, Any]:
    condition = _keys(where, data, CONDITION_KEYS, "a condition")
    for key in ("you_control", "opponent_controls"):
        if key in condition:
            _filter(where, condition[key])
    if "you_control_count" in condition:
        count = _keys(where, condition["you_control_count"], ("filter", "at_least"),
                      "you_control_count")
        _filter(where, count.get("filter") or {})
    if "your_pile_count" in condition:  # vocab (Stark): cards of a pile of yours
        count = _keys(where, condition["your_pile_count"], ("pile", "filter", "at_least"),
                      "your_pile_count")
        _one_of(where, count.get("pile"), ("hand", "discard", "dead"), "pile")
        _filter(where, count.get("filter") or {})
    return condition


def _window(where: str, kind: str, data: Any) -> Window:
    if data is None:
        if kind in ("response", "interrupt", "forced"):
            raise AbilityError(f"{where}: a {kind} ability needs a window with its trigger")
        return Window()
    data = _keys(where, data, WINDOW_KEYS, "a window")
    phase = data.get("phase", "any")
    phases = () if phase == "any" else tuple(_one_of(where, p, PHASES, "phase")
                                             for p in _listed(phase))
    steps = tuple(_one_of(where, s, STEPS, "step") for s in _listed(data.get("step")))
    types = tuple(_one_of(where, t, ("military", "intrigue", "power"), "challenge type")
                  for t in _listed(data.get("challenge_type")))
    trigger = data.get("trigger")
    if trigger is not None:
        _one_of(where, trigger, TRIGGERS, "trigger")
    if kind in ("response", "interrupt", "forced") and trigger is None:
        raise AbilityError(f"{where}: a {kind} ability names its trigger")
    condition = _keys(where, data.get("condition") or {}, TRIGGER_CONDITION_KEYS,
                      "a trigger condition")
    if "card_filter" in condition:
        _filter(where, condition["card_filter"])
    return Window(phases=phases, steps=steps, challenge_types=types,
                  your_turn=bool(data.get("your_turn")), trigger=trigger,
                  condition=freeze(dict(condition)))


def _filter(where: str, data: Any) -> Frozen:
    flt = _keys(where, data, FILTER_KEYS, "a filter")
    frozen: Frozen = freeze(dict(flt))
    return frozen


def _target(where: str, data: Any) -> Target:
    data = _keys(where, data, TARGET_KEYS, "a target")
    name = data.get("name")
    if not isinstance(name, str) or not NAME.match(name) or name in (
            "self", "bearer", "you", "house", "opponent", "drawn", "milled", "random",
            "influence", "trigger", "challenge"):
        raise AbilityError(f"{where}: a target's name is snake_case and not a placeholder, "
                           f"not {name!r}")
    choose = _one_of(where, data.get("choose", "card"), CHOOSE, "target kind")
    count = data.get("count", 1)
    if isinstance(count, int) and not isinstance(count, bool):
        least, most = count, count
    elif isinstance(count, list) and len(count) == 2 and all(isinstance(c, int) for c in count):
        least, most = count
    else:
        raise AbilityError(f"{where}: target {name}: count is a number or [min, max]")
    if data.get("optional"):
        least = 0
    if choose == "number":
        least, most = int(data.get("min", 0)), int(data.get("max", 99))
    if least < 0 or most < least:
        raise AbilityError(f"{where}: target {name}: count {count!r} is not a range")
    return Target(name=name, choose=choose,
                  zone=_one_of(where, data.get("zone", "play"), TARGET_ZONES, "target zone"),
                  controller=_one_of(where, data.get("controller", "any"), SIDES,
                                     "controller"),
                  owner=_one_of(where, data.get("owner", "you"), SIDES, "owner"),
                  filter=_filter(where, data.get("filter") or {}), least=least, most=most,
                  seats=_one_of(where, data.get("seats", "opponents"), ("opponents", "any"),
                                "seats"),
                  label=_label(data, str(data.get("label") or "")),
                  chooser=str(data.get("chooser") or "you"),
                  unless_none=data.get("unless_none") is True,
                  values=_values(where, name, data, choose, least, most))


def _values(where: str, name: str, data: Mapping[str, Any], choose: str, least: int,
            most: int) -> tuple[tuple[int, str], ...]:
    """A number target's `values`: a label for every value from min to max, or none."""
    raw = data.get("values")
    if raw is None:
        return ()
    if choose != "number" or not isinstance(raw, list):
        raise AbilityError(f"{where}: target {name}: values is a list, of a number target")
    out = []
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("value"), int) or \
                not isinstance(item.get("label"), str) or not item["label"]:
            raise AbilityError(f"{where}: target {name}: each value has a value and a label")
        out.append((int(item["value"]), _label(item, item["label"])))
    if sorted(v for v, _ in out) != list(range(least, most + 1)):
        raise AbilityError(f"{where}: target {name}: values label each number from "
                           f"{least} to {most} once")
    return tuple(out)


def _op(where: str, data: Any, op_names: Mapping[str, Sequence[str]], known: Sequence[str],
        cost: bool = False) -> Frozen:
    if not isinstance(data, Mapping) or not isinstance(data.get("op"), str):
        raise AbilityError(f"{where}: each op is an object naming its op")
    name = data["op"]
    allowed = (*op_names, *(COST_PSEUDO_OPS if cost else ()))
    if name not in allowed:
        raise AbilityError(f"{where}: unknown op {name!r}"
                           + (" (cost pseudo-ops are allowed in cost only)"
                              if name in COST_PSEUDO_OPS else ""))
    fields = op_names.get(name)
    if fields is not None:
        extra = set(data) - {"op", *fields, *(("count",) if name in CHANCE_OPS else ())}
        if extra:
            raise AbilityError(f"{where}: op {name} has no field {', '.join(sorted(extra))}")
    _check_placeholders(where, data, known)
    frozen: Frozen = freeze(dict(data))
    return frozen


def _constant_op(where: str, data: Any, op_names: OpFields, known: Sequence[str]) -> Frozen:
    """One op of a constant ability: a `continuous` (with the constant's `strength_per` and
    `while`), a restriction (RESTRICTION_OPS) or a `note`; its filters are checked."""
    name = data.get("op") if isinstance(data, Mapping) else None
    if name not in CONSTANT_OPS:
        raise AbilityError(f"{where}: a constant ability's ops are "
                           f"{', '.join(CONSTANT_OPS)}, not {name}")
    fields = dict(op_names)
    fields["continuous"] = (*op_names.get("continuous", ()), *CONSTANT_CONTINUOUS_FIELDS)
    fields.update(RESTRICTION_OPS)
    op = _op(where, data, fields, known)
    if name == "note":
        return op
    _keys(where, op.get("filter") or {},
          BLANK_FILTER_KEYS if name == "blank_text" else CONSTANT_FILTER_KEYS,
          f"the filter of {name}")
    _while(where, op.get("while") or {})
    if "strength_per" in op:
        per = _keys(where, op["strength_per"], STRENGTH_PER, "strength_per")
        if len(per) != 1:
            raise AbilityError(f"{where}: strength_per names one thing counted")
        for key in ("in_play", "attachments"):
            _keys(where, per.get(key, {}), COUNTED_FILTER_KEYS, f"strength_per {key}")
        if "gold_pool" in per and per["gold_pool"] != "you":
            raise AbilityError(f"{where}: strength_per gold_pool counts your pool (\"you\")")
    _restriction(where, str(name), op)
    return op


def _restriction(where: str, name: str, op: Frozen) -> None:
    """The own fields of a restriction: what `immune` is immune to, `killed_to`'s pile."""
    if name == "immune":
        to = _listed(op.get("to"))
        if not to:
            raise AbilityError(f"{where}: immune names what it is immune to")
        for item in to:
            _one_of(where, item, IMMUNE_TO, "immunity")
        _one_of(where, op.get("from", "any"), ("any", "opponents"), "immunity from")
    if name == "killed_to":
        _one_of(where, op.get("pile"), KILLED_TO_PILES, "killed_to pile")


def _while(where: str, data: Any) -> None:
    """A constant's `while`: its keys, and the card filters in it."""
    cond = _keys(where, data, WHILE_KEYS, "a while condition")
    for key in ("you_control", "in_play", "source_carries", "defender_controls_none"):
        if key in cond:
            _keys(where, cond[key], COUNTED_FILTER_KEYS, f"while {key}")
    for key in ("sole_attachment", "fewer_characters", "source_attacking", "strength_changed"):
        if key in cond and not isinstance(cond[key], bool):
            raise AbilityError(f"{where}: while {key} is true or false")


def _check_placeholders(where: str, value: Any, known: Sequence[str]) -> None:
    """Every "$..." string is a placeholder the engine fills."""
    if isinstance(value, str) and value.startswith("$"):
        head, _, field = value.partition(".")
        if head == "$trigger" and field in TRIGGER_FIELDS:
            return
        if head == "$challenge" and field in CHALLENGE_FIELDS:
            return
        if value not in known:
            raise AbilityError(f"{where}: unknown placeholder {value}")
    elif isinstance(value, Mapping):
        for item in value.values():
            _check_placeholders(where, item, known)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_placeholders(where, item, known)
