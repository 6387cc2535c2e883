"""What a person reads in A Game of Thrones: the words of the game's vocabulary, the card
names of instance ids, and every action as the sentence a player would say (one
`<type>_sentence` per action type, and one clause per effect op, `<op>_clause`).

Machine fields keep ids ("p1-063-2", "master_of_coin", "attackers_declared"); every board,
sentence and refusal shows these words instead. Card names come only from the edition
(`cards[].name`, looked up by collector number), so the rules, the terminal board and the
web board (its labeller reads the same edition names from the catalog) name a card the
same way. Spec: docs/games/thrones.md §3 (identifiers), §2.5 (titles), §7 (phases).

A description is shown verbatim to every viewer of the log, before any redaction, so it
never names what a seat may not see (spec §11): cards drawn, a new hand, face-down setup
cards, a chosen plot, a card taken from a deck unrevealed. It names players by name and
cards by their edition name, and never shows an id, snake_case, `None` or a repr.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..rules import Action, plural, possessive, seat_name, words_list
from .edition import Components

Names = Sequence[str]
#: an action's phrase after the actor's name: (data, names, actor, components) -> words
Phrase = Callable[[Any, Names, Any, Components], str]
#: an effect op's clause: (op, names, components) -> words
Clause = Callable[[Any, Names, Components], str]
#: an action's whole sentence: (action, names, components) -> words
Sentence = Callable[[Action, Sequence[str], Components], str]

#: an instance id `p<seat>-NNN[-k]` (§3): seat's copy of card NNN, its k-th copy from 2 on
INSTANCE_ID = re.compile(r"^p(\d+)-(\d{3})(?:-([2-9]|[1-9]\d+))?$")

# A label is one text for an id wherever it appears, so words that double as ids of two
# kinds stay plain: "plot" is a phase and a card type, "power" a challenge type, an icon
# and an end reason. A board that says "plot phase" adds the word "phase" (ROUND_PHASES).
PHASES = {
    "start": "before the game", "setup": "setup", "setup_draw": "setup draw",
    "plot": "plot", "draw": "draw", "marshalling": "marshalling", "challenges": "challenges",
    "dominance": "dominance", "over": "game over",
}
#: the phases of a round (§7), which read "<label> phase"
ROUND_PHASES = ("plot", "draw", "marshalling", "challenges", "dominance")
STEPS = {
    "choose": "choosing plots", "tie": "initiative tie", "first_player":
    "choosing the first player", "titles": "choosing titles",
    "attackers_declared": "attackers declared", "defenders_declared": "defenders declared",
    "resolved": "resolved",
}
CHALLENGE_TYPES = {"military": "military", "intrigue": "intrigue", "power": "power"}
CARD_TYPES = {"character": "character", "location": "location", "attachment": "attachment",
              "event": "event", "plot": "plot", "house": "House card", "title": "title"}
BOARD_AREAS = {"throne_room": "Throne Room", "treasury": "Treasury",
               "small_council_chamber": "Small Council Chamber"}
MODIFIER_KINDS = {
    "strength": "STR change", "no_strength": "counts no STR", "gain_icon": "gains an icon",
    "lose_icon": "loses an icon", "gain_keyword": "gains a keyword",
    "lose_keyword": "loses a keyword", "continuous": "lasting effect",
    "exclude_power": "power not counted", "no_stand": "does not stand",
}
UNTILS = {"challenge": "until the end of the challenge", "phase": "until the end of the phase",
          "round": "until the end of the round", "source": "while its source stays in play"}
PENDING = {"targets": "naming further claim targets", "claim": "claim", "deadly": "deadly"}
SIDES = {"attacker": "attacking", "defender": "defending", "attacking": "attacking",
         "defending": "defending", "attackers": "attacking", "defenders": "defending"}
END_REASONS = {"power": "power", "concession": "concession"}
OPTIONS = {
    "military_claim_scope": "military claim scope", "participating": "participating characters",
    "any": "any character", "defense_compulsory": "compulsory defence",
    "dead_pile_blocks_unique": "dead pile blocks unique cards", "draw_cap": "draw cap",
    "allow_mulligan": "mulligan allowed",
}
PILES = {"hand": "hand", "deck": "draw deck", "discard": "discard pile", "dead": "dead pile",
         "play": "play", "removed": "out of the game", "house": "House card"}
#: the seats a label set covers for ids that carry a seat ("house:2", "plot:3")
MAX_SEATS = 4


def words(token: str) -> str:
    """A snake_case token as words: the fallback for a keyword the tables above lack."""
    return token.replace("_", " ")


def a_an(word: str) -> str:
    """ "a military", "an intrigue", "an event": the article by the word's first letter."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def number_of_instance(card: Any) -> int | None:
    """The collector number in an instance id, or None for anything else."""
    match = INSTANCE_ID.match(card) if isinstance(card, str) else None
    return int(match.group(2)) if match else None


def instance_label(card: Any, labels: Mapping[str, str]) -> str | None:
    """The card name of an instance id ("p1-063-2" -> core_063's name), or None."""
    number = number_of_instance(card)
    return None if number is None else labels.get(f"core_{number:03d}")


def label_of(component: Any, labels: Mapping[str, str]) -> str:
    """What a person reads for any component id: its label, or the name of the card an
    instance id is a copy of; an unknown id shows as itself, in words."""
    text = labels.get(str(component))
    if text is None:
        text = instance_label(component, labels)
    return text if text is not None else words(str(component))


#: every word table above; an id in two of them has the same words in both (tested)
TABLES = (PHASES, STEPS, CHALLENGE_TYPES, CARD_TYPES, BOARD_AREAS, MODIFIER_KINDS, UNTILS,
          PENDING, SIDES, END_REASONS, OPTIONS, PILES)


def phase_words(phase: Any, labels: Mapping[str, str]) -> str:
    """ "marshalling phase", "setup", "game over": a phase as a board names it."""
    text = label_of(phase, labels)
    return f"{text} phase" if phase in ROUND_PHASES else text


def vocabulary(components: Components) -> dict[str, str]:
    """Words for every non-card id a view, legal action or chance slot may hold."""
    out: dict[str, str] = {}
    for table in TABLES:
        out.update(table)
    out.update({op: words(op) for op in components.effect_ops if op not in out})
    out["table"] = "the table"
    for card in components.cards:
        for printed in (card.keywords, card.crests, card.traits):
            out.update({k: words(k) for k in printed if k not in out})
    for house in components.houses:
        named = components.by_number.get(house.house_card)
        out[house.id] = named.name if named else f"House {house.id}"
    for title in components.titles.values():
        out[f"title:{title.id}"] = title.name
    for seat in range(MAX_SEATS):
        out[f"house:{seat}"] = "House card"
        out[f"plot:{seat}"] = "revealed plot"
    return out


def labels(components: Components, printed: Mapping[str, str]) -> dict[str, str]:
    """Card names for card ids and for each seat's copies ("p1-063" is core_063's name),
    and words for houses, titles, phases, steps, icons, keywords and the rest of the
    game's vocabulary; `printed` (the card and title names, then the edition's own labels)
    wins over the vocabulary. Later copies of one number in a custom deck ("p1-063-2") are
    not listed; `label_of` names any instance id from these labels."""
    out = vocabulary(components)
    out.update(printed)
    for seat in range(MAX_SEATS):
        for number, card in components.by_number.items():
            out.setdefault(f"p{seat}-{number:03d}", out.get(card.id, card.name))
    return out


# ---------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------


def who(names: Sequence[str], seat: Any) -> str:
    """A player's name (or "the table"), as every sentence names an actor."""
    return seat_name(names, seat)


def seats_words(names: Sequence[str], seats: Iterable[Any]) -> str:
    """ "Anna", "Anna and Bo", "Anna, Bo and Cy"."""
    return words_list([who(names, s) for s in seats])


def house_card_of(names: Sequence[str], seat: Any) -> str:
    """ "Anna's House card": a House card named by its player."""
    return f"{possessive(who(names, seat))} House card"


def capitalized(sentence: str) -> str:
    """A sentence that starts with "the table" starts with a capital letter."""
    return sentence[:1].upper() + sentence[1:] if sentence.startswith("the ") else sentence


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


# ---------------------------------------------------------------------------
# Naming
# ---------------------------------------------------------------------------


def _card_words(cards: Any, ed: Components) -> str:
    return words_list([ed.name(c) for c in cards or ()]) or "no cards"


def _target_words(target: Any, names: Names, ed: Components) -> str:
    """A card, or a House card ("house:1") named by its player."""
    if isinstance(target, str) and target.startswith("house:") and target[6:].isdigit():
        return house_card_of(names, int(target[6:]))
    return ed.name(target)


def _source_words(source: Any, names: Names, actor: Any, ed: Components) -> str:
    if not source:
        return ""
    if source.startswith("plot:") and source[5:].isdigit():
        seat = int(source[5:])
        return "their plot" if seat == actor else f"{possessive(seat_name(names, seat))} plot"
    if source.startswith("title:"):
        title = ed.titles.get(source[6:])
        return title.name if title else words(source[6:])
    return _target_words(source, names, ed)


def _title_words(title: Any, ed: Components) -> str:
    data = ed.titles.get(title)
    return data.name if data else words(str(title))


# ---------------------------------------------------------------------------
# The sentence
# ---------------------------------------------------------------------------


def _sentence(phrase: Phrase) -> Sentence:
    """The sentence of one action type: "Anna declared a military challenge against Bo
    with Eddard Stark", the actor named first; malformed data still gets a sentence."""

    def sentence(action: Action, names: Sequence[str], components: Components) -> str:
        try:
            said: str | None = phrase(action.data, names, action.actor, components)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            said = None
        if said is None:
            said = f"recorded the action {words(action.type)}"
        return capitalized(f"{seat_name(names, action.actor)} {said}")

    sentence.__doc__ = phrase.__doc__
    return sentence


# ---------------------------------------------------------------------------
# Start and setup (§5, §6.1-§6.4)
# ---------------------------------------------------------------------------


def _say_start_game(d: Any, names: Names, actor: Any, ed: Components) -> str:
    houses = words_list(f"{seat_name(names, p['seat'])} plays House {p['house']}"
                        for p in sorted(d.get("players") or (), key=lambda p: p["seat"]))
    first = d.get("setup_first")
    starter = f"; {seat_name(names, first)} sets up first" if isinstance(first, int) else ""
    return f"started the game: {houses}{starter}"


def _say_mulligan(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "took a mulligan and drew a new hand"


def _say_setup_cards(d: Any, names: Names, actor: Any, ed: Components) -> str:
    count = len(d.get("cards") or ())
    if not count:
        return "set up no cards"
    return f"placed {plural(count, 'card')} face down for setup"


def _draw_counts(d: Any, names: Names) -> str:
    draws = d.get("draws") or {}
    counts = d.get("drawn_counts") or {k: len(v) for k, v in draws.items()}
    parts = [f"{seat_name(names, int(k))} drew {plural(int(n), 'card')}"
             for k, n in sorted(counts.items(), key=lambda kv: int(kv[0]))]
    return words_list(parts) or "nobody drew a card"


def _say_setup_draw(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("draws") is None and d.get("drawn_counts") is None:  # a preview, before dealing
        return "dealt the setup draw"
    return f"dealt the setup draw: {_draw_counts(d, names)}"


# ---------------------------------------------------------------------------
# Plot phase (§7.1)
# ---------------------------------------------------------------------------


def _say_choose_plot(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "chose a plot"


def _say_break_initiative_tie(d: Any, names: Names, actor: Any, ed: Components) -> str:
    winner = d.get("winner")
    if not isinstance(winner, int):
        return "broke the initiative tie"
    return f"broke the initiative tie: {seat_name(names, winner)} wins the initiative"


def _say_choose_first_player(d: Any, names: Names, actor: Any, ed: Components) -> str:
    first = d["first_player"]
    if first == actor:
        return "chose to be the first player"
    return f"chose {seat_name(names, first)} as the first player"


def _say_choose_title(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return f"took the title {_title_words(d['title'], ed)}"


# ---------------------------------------------------------------------------
# Draw and marshalling (§6.9-§6.11)
# ---------------------------------------------------------------------------


def _say_draw_phase(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("draws") is None and d.get("drawn_counts") is None:  # a preview, before dealing
        return "dealt the draw phase"
    return f"dealt the draw phase: {_draw_counts(d, names)}"


def _say_marshal_card(d: Any, names: Names, actor: Any, ed: Components) -> str:
    text = f"marshalled {ed.name(d['card'])}"
    if d.get("as_duplicate"):
        text += " as a duplicate"
    host = d.get("attach_to")
    if host == "house":
        text += f" onto {house_card_of(names, actor)}"
    elif host:
        text += f" onto {_target_words(host, names, ed)}"
    cost = d.get("declared_cost")
    if isinstance(cost, int):
        text += f" for {cost} gold"
    return text


def _say_end_marshalling(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "ended marshalling"


def _say_pass_window(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "passed: answered nothing of what just happened"


# ---------------------------------------------------------------------------
# Challenges (§8)
# ---------------------------------------------------------------------------


def _say_declare_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    text = (f"declared {a_an(d['type'])} challenge against {seat_name(names, d['defender'])} "
            f"with {_card_words(d['attackers'], ed)}")
    standing = list(d.get("not_kneeling") or ())
    if standing:
        text += f"; {_card_words(standing, ed)} {'does' if len(standing) == 1 else 'do'} "
        text += "not kneel"
    return text


def _say_assign_stealth(d: Any, names: Names, actor: Any, ed: Components) -> str:
    pairs = [f"{ed.name(a)} bypasses {ed.name(t)}" for a, t in (d["bypass"]).items()]
    return f"used stealth: {words_list(pairs)}" if pairs else "assigned no stealth"


def _say_redirect_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return (f"redirected the challenge to {seat_name(names, d['new_defender'])} as the "
            "Crown Regent")


def _say_declare_defenders(d: Any, names: Names, actor: Any, ed: Components) -> str:
    defenders = list(d["defenders"])
    if not defenders:
        return "declared no defenders"
    return f"defended with {_card_words(defenders, ed)}"


def _say_take_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "took the challenge as the Lord Commander of the Kingsguard"


def _say_resolve_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "resolved the challenge"


def _say_choose_claim_targets(d: Any, names: Names, actor: Any, ed: Components) -> str:
    extra = list(d["extra_opponents"])
    if not extra:
        return "named no further opponents for the intrigue claim"
    return (f"named {words_list(seat_name(names, s) for s in extra)} for the intrigue "
            "claim as the Master of Whispers")


def _saves_words(d: Any, names: Names, ed: Components) -> str:
    out = []
    for save in d.get("saves") or ():
        how = "its duplicate" if save.get("by") == "duplicate" else "an ability"
        out.append(f"{ed.name(save.get('card'))} is saved by {how}")
    for card, dest in (d.get("redirect") or {}).items():
        out.append(f"{ed.name(card)} goes to the {PILES.get(dest, words(str(dest)))} "
                   "instead")
    return "".join(f"; {part}" for part in out)


def _say_apply_claim(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("discards") is not None:
        return f"discarded {_card_words(d['discards'], ed)} for the intrigue claim"
    if d.get("kills") is None:  # an intrigue claim before the discards are dealt
        return "discarded cards at random for the intrigue claim"
    return _kills_words(d, names, "the military claim", ed)


def _say_apply_deadly(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return _kills_words(d, names, "deadly", ed)


def _kills_words(d: Any, names: Names, what: str, ed: Components) -> str:
    """ "lost Raff to deadly", or "chose Eddard for the military claim; Eddard is saved
    by its duplicate" when a save keeps a chosen card in play (§8.6)."""
    kills = list(d.get("kills") or ())
    if not kills:
        return f"had no character to lose to {what}"
    if d.get("saves"):
        return f"chose {_card_words(kills, ed)} for {what}{_saves_words(d, names, ed)}"
    return f"lost {_card_words(kills, ed)} to {what}{_saves_words(d, names, ed)}"


def _say_end_challenges(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "ended challenges"


# ---------------------------------------------------------------------------
# Round end and the game's end (§7.5-§7.7, §6.16, §6.17)
# ---------------------------------------------------------------------------


def _say_resolve_dominance(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "resolved dominance"


# What a move decided that its data does not say (the log's sentence goes on with it,
# `GameRules.outcome`): who won a challenge and by how much (§8.6), dominance (§7.5). The
# deciding is the reducers' (`challenge_outcome`, `dominance_outcome`); these only say it.
def challenge_outcome_words(winner: Any, attacker: Any, strength: tuple[int, int],
                            names: Names) -> str:
    """ "Anna won 5 to 3", "Bo won 3 to 3 (the attacker wins a tie)", "nobody won (...)"."""
    if winner is None:
        return "nobody won (no strength on either side)"
    att, dfn = strength
    high, low = (att, dfn) if winner == attacker else (dfn, att)
    tie = " (the attacker wins a tie)" if high == low else ""
    return f"{seat_name(names, winner)} won {high} to {low}{tie}"


def dominance_outcome_words(winner: Any, totals: Mapping[Any, int], names: Names) -> str:
    """ "Bo won with 9 (Anna 7 and Cy 2)", or a tie that gains nobody power."""
    others = words_list(f"{seat_name(names, s)} {t}" for s, t in totals.items() if s != winner)
    if winner is None:
        return f"a tie for the highest total, so nobody gains power ({others})"
    return f"{seat_name(names, winner)} won with {totals[winner]} ({others})"


def _say_end_round(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "ended the round: cards stand, gold and titles return, plots are used"


def _say_choose_winner(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return f"chose {seat_name(names, d['winner'])} as the winner"


def _say_concede(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return "conceded"


# ---------------------------------------------------------------------------
# Effects (§9)
# ---------------------------------------------------------------------------


def _say_effect(d: Any, names: Names, actor: Any, ed: Components) -> str:
    source = _source_words(d.get("source"), names, actor, ed)
    text = f"used {source}" if source else "recorded an effect"
    costs = [op_words(op, names, ed) for op in d.get("costs") or ()]
    ops = [op_words(op, names, ed) for op in d.get("ops") or ()]
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


def ability_of(source: Any, ident: Any, ed: Components) -> Any:
    """The declared ability `ident` of a use's source (None when the data names none)."""
    if isinstance(source, str) and source.startswith("title:"):
        title = ed.titles.get(source[6:])
        return title.ability(str(ident)) if title else None
    if isinstance(source, str) and ed.is_known(source):
        return ed.card(source).ability(str(ident))
    return None


def _choice_words(value: Any, names: Names, ed: Components) -> str:
    if isinstance(value, list | tuple):
        return words_list([_choice_words(v, names, ed) for v in value]) or "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and (ed.is_known(value) or value.startswith("house:")):
        return _target_words(value, names, ed)
    if isinstance(value, str) and value in CHALLENGE_TYPES:
        return CHALLENGE_TYPES[value]
    return "a card" if value is None else words(str(value))


def _say_use_ability(d: Any, names: Names, actor: Any, ed: Components) -> str:
    """"used Ice: “Sacrifice Ice to kill a participant” (victim: Eddard Stark)"."""
    source = _source_words(d.get("card"), names, actor, ed)
    ability = ability_of(d.get("card"), d.get("ability"), ed)
    label = ability.label if ability is not None else words(str(d.get("ability")))
    text = f"used {source}: “{label}”"
    choices = d.get("choices") or {}
    seat_targets = {t.name for t in ability.targets if t.choose == "seat"} \
        if ability is not None else set()
    said = []
    for name, value in choices.items():
        if name in seat_targets and isinstance(value, int):
            said.append(f"{words(name)}: {seat_name(names, value)}")
        elif name == "influence":
            said.append(f"kneeling {_choice_words(value, names, ed)} for influence")
        elif isinstance(value, dict) and "count" in value:
            said.append(f"{words(name)}: {value['count']} hidden card"
                        + ("s" if value["count"] != 1 else ""))
        else:
            said.append(f"{words(name)}: {_choice_words(value, names, ed)}")
    if said:
        text += f" ({'; '.join(said)})"
    return text


def op_words(op: Any, names: Names, ed: Components) -> str:
    """One change of an effect as a clause: "Eddard Stark kneels"."""
    kind = str(op.get("op")) if hasattr(op, "get") else ""
    record = ed.ops.get(kind)  # the op's record (apply/effects.py), bound to the edition
    if record is not None:
        try:
            return str(record.sentence(op, names, ed))
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            pass
    return words(kind) or "an unnamed change"


def kneel_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{_target_words(op['card'], names, ed)} kneels"


def stand_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{_target_words(op['card'], names, ed)} stands"


def kill_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    return f"{_card_words(cards, ed)} {_is(cards)} killed{_saves_words(op, names, ed)}"


def discard_from_play_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    return (f"{_card_words(cards, ed)} {_is(cards)} discarded from play"
            f"{_saves_words(op, names, ed)}")


def return_to_hand_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    if len(cards) == 1:
        return f"{_card_words(cards, ed)} returns to its owner's hand"
    return f"{_card_words(cards, ed)} return to their owners' hands"


def take_control_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{seat_name(names, op['controller'])} takes control of {ed.name(op['card'])}"


def put_into_play_clause(op: Any, names: Names, ed: Components) -> str:
    text = (f"{ed.name(op['card'])} is put into play from "
            f"{FROM_WORDS.get(op.get('from'), words(str(op.get('from'))))}")
    if isinstance(op.get("controller"), int):
        text += f" under {possessive(seat_name(names, op['controller']))} control"
    if op.get("as_duplicate"):
        text += " as a duplicate"
    if op.get("attach_to"):
        host = op["attach_to"]
        text += " onto the House card" if host == "house" else \
            f" onto {_target_words(host, names, ed)}"
    if op.get("knelt"):
        text += ", knelt"
    if op.get("pay_gold"):
        text += f", for {op['pay_gold']} gold"
    return text


def move_attachment_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} moves onto {_target_words(op['to'], names, ed)}"


def _until_words(op: Any) -> str:
    """A duration in words; a missing `until` means the round (ruling 4)."""
    return UNTIL_WORDS.get(op.get("until") or "round", "until the end of the round")


def adjust_strength_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"{ed.name(op['card'])} gets {_signed(int(op['amount']))} STR "
            f"{_until_words(op)}")


def no_strength_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} counts no STR {_until_words(op)}"


def gain_icon_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} gains the {op['icon']} icon {_until_words(op)}"


def lose_icon_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} loses the {op['icon']} icon {_until_words(op)}"


def gain_keyword_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} gains {words(op['keyword'])} {_until_words(op)}"


def lose_keyword_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} loses {words(op['keyword'])} {_until_words(op)}"


def continuous_clause(op: Any, names: Names, ed: Components) -> str:
    gains = []
    if op.get("strength"):
        gains.append(f"{_signed(int(op['strength']))} STR")
    gains += [f"the {icon} icon" for icon in op.get("icons") or ()]
    gains += [words(k) for k in op.get("keywords") or ()]
    what = words_list(gains) or "its effect"
    return (f"{ed.name(op['source'])} gives {what} to matching characters"
            f"{WHEN_WORDS.get(op.get('when') or 'always', '')} while it stays in play")


def exclude_character_power_clause(op: Any, names: Names, ed: Components) -> str:
    players = words_list(seat_name(names, s) for s in op.get("players") or ())
    return (f"power on the cards of {players} does not count while "
            f"{ed.name(op['source'])} stays in play")


def no_stand_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{_target_words(op['card'], names, ed)} does not stand this round"


def join_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    side = SIDES.get(op.get("side"), words(str(op.get("side"))))
    return f"{ed.name(op['card'])} joins the challenge on the {side} side"


def remove_from_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{ed.name(op['card'])} leaves the challenge"


def gain_power_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{_target_words(op['target'], names, ed)} gains {op['amount']} power"


def lose_power_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{_target_words(op['target'], names, ed)} loses {op['amount']} power"


def move_power_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"{op['amount']} power moves from {_target_words(op['from'], names, ed)} to "
            f"{_target_words(op['to'], names, ed)}")


def gain_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{seat_name(names, op['seat'])} gains {op['amount']} gold"


def pay_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{seat_name(names, op['seat'])} pays {op['amount']} gold"


def give_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"{seat_name(names, op['from'])} gives {seat_name(names, op['to'])} "
            f"{op['amount']} gold")


def draw_clause(op: Any, names: Names, ed: Components) -> str:
    count = len(op["cards"]) if op.get("cards") is not None else int(op.get("count") or 0)
    return f"{seat_name(names, op['seat'])} draws {plural(count, 'card')}"


def discard_from_hand_clause(op: Any, names: Names, ed: Components) -> str:
    how = " at random" if op.get("random") else ""
    return (f"{seat_name(names, op['seat'])} discards {_card_words(op['cards'], ed)} "
            f"from hand{how}")


def discard_from_deck_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"{seat_name(names, op['seat'])} discards {_card_words(op['cards'], ed)} "
            "from the top of the draw deck")


def search_deck_clause(op: Any, names: Names, ed: Components) -> str:
    who = seat_name(names, op["seat"])
    if op.get("to") == "play":
        return f"{who} searches the draw deck and puts {ed.name(op['card'])} into play"
    if op.get("reveal") and op.get("card"):
        return f"{who} searches the draw deck and takes {ed.name(op['card'])} into hand"
    return f"{who} searches the draw deck and takes a card into hand"


def return_from_pile_clause(op: Any, names: Names, ed: Components) -> str:
    to = "its owner's hand" if op.get("to") == "hand" else "its owner's draw deck"
    return (f"{ed.name(op['card'])} returns from "
            f"{FROM_WORDS.get(op.get('from'), 'a pile')} to {to}")


def shuffle_pile_into_deck_clause(op: Any, names: Names, ed: Components) -> str:
    pile = {"hand": "hand", "discard": "discard pile", "dead": "dead pile"}.get(
        op.get("pile"), words(str(op.get("pile"))))
    return f"{seat_name(names, op['seat'])} shuffles the {pile} into the draw deck"


def reveal_new_plot_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{seat_name(names, op['seat'])} reveals a new plot, {ed.name(op['plot'])}"


def modify_plot_clause(op: Any, names: Names, ed: Components) -> str:
    change = f"becomes {op['set']}" if op.get("set") is not None else \
        f"changes by {_signed(int(op['delta']))}"
    until = UNTIL_WORDS.get(op.get("until") or "round", "until the end of the round")
    return (f"the {op['field']} of {possessive(seat_name(names, op['seat']))} plot "
            f"{change} {until}")


def suppress_income_bonuses_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"income bonuses of cards do not count for "
            f"{words_list(seat_name(names, s) for s in op['seats'])} this round")


def forbid_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    a, b = op["seats"]
    return (f"no {op['type']} challenges between {seat_name(names, a)} and "
            f"{seat_name(names, b)} this round")


def extra_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{seat_name(names, op['seat'])} may make one more {op['type']} challenge"


def skip_taxation_clause(op: Any, names: Names, ed: Components) -> str:
    return f"{possessive(seat_name(names, op['seat']))} gold is not taxed this round"


def swap_plot_decks_clause(op: Any, names: Names, ed: Components) -> str:
    a, b = op["seats"]
    return (f"{seat_name(names, a)} and {seat_name(names, b)} choose plots from each "
            "other's plot decks this round")


def cost_reduction_clause(op: Any, names: Names, ed: Components) -> str:
    return (f"the next matching card {seat_name(names, op['seat'])} marshals this phase "
            f"costs {op['amount']} gold less")


def note_clause(op: Any, names: Names, ed: Components) -> str:
    return f'a note: "{op["text"]}"' if op.get("text") else "a note"



# ---------------------------------------------------------------------------
# One sentence per action type (actions.ACTIONS)
# ---------------------------------------------------------------------------

start_game_sentence = _sentence(_say_start_game)
mulligan_sentence = _sentence(_say_mulligan)
setup_cards_sentence = _sentence(_say_setup_cards)
setup_draw_sentence = _sentence(_say_setup_draw)
choose_plot_sentence = _sentence(_say_choose_plot)
break_initiative_tie_sentence = _sentence(_say_break_initiative_tie)
choose_first_player_sentence = _sentence(_say_choose_first_player)
choose_title_sentence = _sentence(_say_choose_title)
draw_phase_sentence = _sentence(_say_draw_phase)
marshal_card_sentence = _sentence(_say_marshal_card)
end_marshalling_sentence = _sentence(_say_end_marshalling)
pass_window_sentence = _sentence(_say_pass_window)
declare_challenge_sentence = _sentence(_say_declare_challenge)
assign_stealth_sentence = _sentence(_say_assign_stealth)
redirect_challenge_sentence = _sentence(_say_redirect_challenge)
declare_defenders_sentence = _sentence(_say_declare_defenders)
take_challenge_sentence = _sentence(_say_take_challenge)
resolve_challenge_sentence = _sentence(_say_resolve_challenge)
choose_claim_targets_sentence = _sentence(_say_choose_claim_targets)
apply_claim_sentence = _sentence(_say_apply_claim)
apply_deadly_sentence = _sentence(_say_apply_deadly)
end_challenges_sentence = _sentence(_say_end_challenges)
resolve_dominance_sentence = _sentence(_say_resolve_dominance)
end_round_sentence = _sentence(_say_end_round)
choose_winner_sentence = _sentence(_say_choose_winner)
concede_sentence = _sentence(_say_concede)
_effect_by_seat = _sentence(_say_effect)


def effect_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """A free-form effect: by the table it is a ruling (ruling 29), "Ruling by the table:
    Bo gains 2 power (reason: ...)"; the words of one a seat recorded before issue #30."""
    if action.actor != "table":
        return _effect_by_seat(action, names, components)
    d = action.data
    try:
        ops = [op_words(op, names, components)
               for op in [*(d.get("costs") or ()), *(d.get("ops") or ())]]
        source = _source_words(d.get("source"), names, None, components)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        ops, source = [], ""
    text = "Ruling by the table" + (f" about {source}" if source else "") + ": " + \
        ("; ".join(ops) if ops else "no change")
    if d.get("text"):
        text += f' ("{d.get("text")}")'
    reason = d.get("reason")
    return text + (f" (reason: {reason})" if reason else "")
use_ability_sentence = _sentence(_say_use_ability)
