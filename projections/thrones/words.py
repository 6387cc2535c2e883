"""What a person reads for the pieces of A Game of Thrones: words for the game's vocabulary
and card names for instance ids.

Machine fields keep ids ("p1-063-2", "master_of_coin", "attackers_declared"); every board,
sentence and refusal shows these words instead. Card names come only from the edition
(`cards[].name`, looked up by collector number), so the rules, the terminal board and the
web board (its labeller reads the same edition names from the catalog) name a card the
same way. Spec: shared/games/thrones.md §3 (identifiers), §2.5 (titles), §7 (phases).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rules import possessive, seat_name, words_list

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


def vocabulary(edition: Mapping[str, Any]) -> dict[str, str]:
    """Words for every non-card id a view, legal action or chance slot may hold."""
    out: dict[str, str] = {}
    for table in TABLES:
        out.update(table)
    out.update({op: words(op) for op in edition.get("effect_ops") or () if op not in out})
    out["table"] = "the table"
    cards = edition.get("cards") or []
    for card in cards:
        for key in ("keywords", "crests", "traits"):
            out.update({k: words(k) for k in card.get(key) or () if k not in out})
    by_number = {int(c["number"]): c for c in cards}
    for house in edition.get("houses") or ():
        card = by_number.get(int(house.get("house_card") or 0))
        out[house["id"]] = card["name"] if card else f"House {house['id']}"
    for title in edition.get("titles") or ():
        out[f"title:{title['id']}"] = title["name"]
    for seat in range(MAX_SEATS):
        out[f"house:{seat}"] = "House card"
        out[f"plot:{seat}"] = "revealed plot"
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
