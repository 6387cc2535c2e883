"""What a person reads in A Game of Thrones: the words of the game's vocabulary, the card
names of instance ids, and every action as the sentence a player would say (one
`<type>_sentence` per action type, and one clause per effect op, `<op>_clause`).

Machine fields keep ids ("p1-063-2", "master_of_coin", "attackers_declared"); every board,
sentence and refusal shows these words instead. Card names come only from the edition
(`cards[].name`, and `name_zh` in Chinese, looked up by collector number), so the rules, the
terminal board and the web board name a card the same way. Spec: docs/games/thrones.md §3
(identifiers), §2.5 (titles), §7 (phases).

Every sentence is a message (projections/messages.py, issue #33): an English key with its
arguments, rendered in the reader's language by the shells; its `str` is the English the
fingerprint and the documents read. The Chinese uses the seed's terms (战略, 集结, 挑战,
优势, 效果值, 横置...).

A description is shown verbatim to every viewer of the log, before any redaction, so it
never names what a seat may not see (spec §11): cards drawn, a new hand, face-down setup
cards, a chosen plot, a card taken from a deck unrevealed. It names players by name and
cards by their edition name, and never shows an id, snake_case, `None` or a repr.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..messages import M, Message, Mn, Name, Seq, capitalised
from ..rules import Action, possessive, seat_name
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
    "start": M("before the game"), "setup": M("setup"), "setup_draw": M("setup draw"),
    "plot": M("plot"), "draw": M("draw"), "marshalling": M("marshalling"),
    "challenges": M("challenges"), "dominance": M("dominance"), "standing": M("standing"),
    "over": M("game over"),
}
#: the phases of a round (§7), which read "<label> phase"
ROUND_PHASES = ("plot", "draw", "marshalling", "challenges", "dominance", "standing")
STEPS = {
    "choose": M("choosing plots"), "tie": M("initiative tie"),
    "first_player": M("choosing the first player"), "titles": M("choosing titles"),
    "attackers_declared": M("attackers declared"),
    "defenders_declared": M("defenders declared"), "resolved": M("resolved"),
}
CHALLENGE_TYPES = {"military": M("military"), "intrigue": M("intrigue"), "power": M("power")}
#: "a military challenge": the type with its article, as a sentence names a challenge
A_CHALLENGE = {"military": M("a military challenge"), "intrigue": M("an intrigue challenge"),
               "power": M("a power challenge")}
CARD_TYPES = {"character": M("character"), "location": M("location"),
              "attachment": M("attachment"), "event": M("event"), "plot": M("plot"),
              "house": M("House card"), "title": M("title")}
#: "a character": a card type with its article, as a refusal names what a card is
A_CARD_TYPE = {"character": M("a character"), "location": M("a location"),
               "attachment": M("an attachment"), "event": M("an event"), "plot": M("a plot"),
               "house": M("a House card"), "title": M("a title")}
BOARD_AREAS = {"throne_room": M("Throne Room"), "treasury": M("Treasury"),
               "small_council_chamber": M("Small Council Chamber")}
MODIFIER_KINDS = {
    "strength": M("STR change"), "no_strength": M("counts no STR"),
    "gain_icon": M("gains an icon"), "lose_icon": M("loses an icon"),
    "gain_keyword": M("gains a keyword"), "lose_keyword": M("loses a keyword"),
    "continuous": M("lasting effect"), "exclude_power": M("power not counted"),
    "no_stand": M("does not stand"),
    # the marks the card rules leave (issue #30): Renly's Courtier, Bronn, The Hound,
    # Stannis's Northern Cavalry, Khal Drogo, Magister Illyrio
    "blank_text": M("text blank"), "death_guard": M("guarded from death"),
    "killed": M("killed this phase"), "strength_changed": M("STR changed this phase"),
    "entered_by_itself": M("came into play by its own ability"), "toll": M("pays a toll"),
}
UNTILS = {"challenge": M("until the end of the challenge"),
          "phase": M("until the end of the phase"), "round": M("until the end of the round"),
          "source": M("while its source stays in play")}
PENDING = {"targets": M("naming further claim targets"), "claim": M("claim"),
           "deadly": M("deadly")}
SIDES = {"attacker": M("attacking"), "defender": M("defending"), "attacking": M("attacking"),
         "defending": M("defending"), "attackers": M("attacking"), "defenders": M("defending")}
END_REASONS = {"power": M("power"), "concession": M("concession")}
OPTIONS = {
    "military_claim_scope": M("military claim scope"),
    "participating": M("participating characters"), "any": M("any character"),
    "defense_compulsory": M("compulsory defence"),
    "dead_pile_blocks_unique": M("dead pile blocks unique cards"), "draw_cap": M("draw cap"),
    "allow_mulligan": M("mulligan allowed"),
    "when_revealed": M("when-revealed plots"), "rules": M("resolved by the rules"),
    "table": M("left to the table"),
}
#: the options with named values (§4), each value as the new-game form offers it
OPTION_VALUES = {
    "military_claim_scope": {"participating": OPTIONS["participating"], "any": OPTIONS["any"]},
    "when_revealed": {"rules": OPTIONS["rules"], "table": OPTIONS["table"]},
}
PILES = {"hand": M("hand"), "deck": M("draw deck"), "discard": M("discard pile"),
         "dead": M("dead pile"), "play": M("in play"), "removed": M("out of the game"),
         "house": M("House card")}
#: the printed keywords, crests and traits of the Core Set (as the cards name them)
KEYWORDS = {
    "ambush": M("ambush"), "deadly": M("deadly"), "deathbound": M("deathbound"),
    "immune_to_character_abilities": M("immune to character abilities"),
    "immune_to_opponents_character_abilities": M("immune to opponents character abilities"),
    "infamy": M("infamy"), "limited": M("limited"), "no_attachments": M("no attachments"),
    "no_attachments_except_weapon": M("no attachments except weapon"),
    "renown": M("renown"), "stalwart": M("stalwart"), "stealth": M("stealth"),
    "vigilant": M("vigilant"), "unique": M("unique"), "setup": M("setup"),
}
CRESTS = {"holy": M("holy"), "learned": M("learned"), "noble": M("noble"), "war": M("war")}
TRAITS = {
    "Ally": M("Ally"), "Armor": M("Armor"), "Army": M("Army"), "Asshai": M("Asshai"),
    "Bastard": M("Bastard"), "Captain": M("Captain"), "Clansman": M("Clansman"),
    "Condition": M("Condition"), "Conscriptor": M("Conscriptor"), "Creature": M("Creature"),
    "Direwolf": M("Direwolf"), "Dothraki": M("Dothraki"), "Dragon": M("Dragon"),
    "Dragonstone": M("Dragonstone"), "Free Cities": M("Free Cities"),
    "House Clegane": M("House Clegane"), "House Florent": M("House Florent"),
    "House Tully": M("House Tully"), "House Tyrell": M("House Tyrell"), "Item": M("Item"),
    "King's Landing": M("King's Landing"), "Kingsguard": M("Kingsguard"),
    "Knight": M("Knight"), "Lady": M("Lady"), "Lannisport": M("Lannisport"),
    "Lord": M("Lord"), "Maester": M("Maester"), "Mercenary": M("Mercenary"),
    "Night's Watch": M("Night's Watch"), "Others": M("Others"), "Qartheen": M("Qartheen"),
    "Queen": M("Queen"), "Queensguard": M("Queensguard"), "Skill": M("Skill"),
    "Small Council": M("Small Council"), "Stronghold": M("Stronghold"),
    "The East": M("The East"), "Title": M("Title"), "Unsullied": M("Unsullied"),
    "Weapon": M("Weapon"), "Westeros": M("Westeros"), "Winterfell": M("Winterfell"),
}
#: the rows of a result's breakdown (scoring.py), as a results table labels them
BREAKDOWN = {"house_power": M("house power"), "card_power": M("card power"),
             "total": M("total"), "conceded": M("conceded")}
#: the seats a label set covers for ids that carry a seat ("house:2", "plot:3")
MAX_SEATS = 4


def words(token: str) -> str:
    """A printed token as words: a keyword, crest or trait of the tables above, else the
    snake_case token with spaces (the fallback for a word the tables lack)."""
    known = KEYWORDS.get(token) or CRESTS.get(token) or TRAITS.get(token) or \
        OP_NAMES.get(token)
    return known if known is not None else token.replace("_", " ")


def a_an(word: str) -> str:
    """ "a military", "an intrigue", "an event": the article by the word's first letter."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


#: "an event card": what a card is, as a refusal of a marshal names it
A_TYPE_CARD = {"character": M("a character card"), "location": M("a location card"),
               "attachment": M("an attachment card"), "event": M("an event card"),
               "plot": M("a plot card"), "house": M("a House card"), "title": M("a title card")}


def a_challenge(kind: Any) -> str:
    """ "a military challenge", "an intrigue challenge": a challenge by its type."""
    return A_CHALLENGE.get(str(kind)) or M("a {type} challenge", type=words(str(kind)))


def a_card_type(kind: Any) -> str:
    """ "a character", "an event": what a card is, with its article."""
    return A_CARD_TYPE.get(str(kind)) or M("a {type}", type=words(str(kind)))


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


#: the effect ops' names (§9), as a board or a refusal names one
OP_NAMES = {
    "kneel": M("kneel"), "stand": M("stand"), "kill": M("kill"),
    "discard_from_play": M("discard from play"), "return_to_hand": M("return to hand"),
    "take_control": M("take control"), "put_into_play": M("put into play"),
    "move_attachment": M("move attachment"), "adjust_strength": M("adjust strength"),
    "no_strength": M("no strength"), "gain_icon": M("gain icon"), "lose_icon": M("lose icon"),
    "gain_keyword": M("gain keyword"), "lose_keyword": M("lose keyword"),
    "continuous": M("continuous"), "exclude_character_power": M("exclude character power"),
    "no_stand": M("no stand"), "join_challenge": M("join challenge"),
    "remove_from_challenge": M("remove from challenge"), "gain_power": M("gain power"),
    "lose_power": M("lose power"), "move_power": M("move power"), "gain_gold": M("gain gold"),
    "pay_gold": M("pay gold"), "give_gold": M("give gold"), "draw": M("draw"),
    "discard_from_hand": M("discard from hand"), "discard_from_deck": M("discard from deck"),
    "search_deck": M("search deck"), "return_from_pile": M("return from pile"),
    "shuffle_pile_into_deck": M("shuffle pile into deck"),
    "reveal_new_plot": M("reveal new plot"), "modify_plot": M("modify plot"),
    "suppress_income_bonuses": M("suppress income bonuses"),
    "forbid_challenge": M("forbid challenge"), "extra_challenge": M("extra challenge"),
    "skip_taxation": M("skip taxation"), "swap_plot_decks": M("swap plot decks"),
    "cost_reduction": M("cost reduction"), "note": M("note"),
}

#: the action types (actions.ACTIONS) as a refusal names one
ACTION_NAMES = {
    "apply_claim": M("apply claim"), "apply_deadly": M("apply deadly"),
    "assign_stealth": M("assign stealth"), "break_initiative_tie": M("break initiative tie"),
    "choose_claim_targets": M("choose claim targets"),
    "choose_first_player": M("choose first player"), "choose_plot": M("choose plot"),
    "choose_title": M("choose title"), "choose_winner": M("choose winner"),
    "concede": M("concede"), "declare_challenge": M("declare challenge"),
    "declare_defenders": M("declare defenders"), "draw_phase": M("draw phase"),
    "effect": M("effect"), "end_challenges": M("end challenges"),
    "end_marshalling": M("end marshalling"), "end_round": M("end round"),
    "marshal_card": M("marshal card"), "mulligan": M("mulligan"),
    "redirect_challenge": M("redirect challenge"), "resolve_challenge": M("resolve challenge"),
    "resolve_dominance": M("resolve dominance"), "setup_cards": M("setup cards"),
    "setup_draw": M("setup draw"), "start_game": M("start game"),
    "take_challenge": M("take challenge"), "use_ability": M("use ability"),
    "pass_window": M("pass"),
}
#: the fields of an action's data or an op, as a refusal names one
FIELD_NAMES = {
    "players": M("players"), "cards": M("cards"), "card": M("card"), "type": M("type"),
    "defender": M("defender"), "attackers": M("attackers"), "defenders": M("defenders"),
    "not_kneeling": M("not kneeling"), "bypass": M("bypass"), "new_defender": M("new defender"),
    "extra_opponents": M("extra opponents"), "kills": M("kills"), "discards": M("discards"),
    "saves": M("saves"), "title": M("title"), "plot": M("plot"),
    "first_player": M("first player"), "winner": M("winner"), "draws": M("draws"),
    "drawn_counts": M("drawn counts"), "setup_hands": M("setup hands"),
    "setup_first": M("setup first"), "new_hand": M("new hand"), "attach_to": M("attach to"),
    "as_duplicate": M("as duplicate"), "ability": M("ability"), "choices": M("choices"),
    "source": M("source"), "ops": M("ops"), "costs": M("costs"), "reason": M("reason"),
    "text": M("text"), "seat": M("seat"), "amount": M("amount"), "target": M("target"),
    "controller": M("controller"),
}
#: every word table above; an id in two of them has the same words in both (tested)
TABLES = (PHASES, STEPS, CHALLENGE_TYPES, CARD_TYPES, BOARD_AREAS, MODIFIER_KINDS, UNTILS,
          PENDING, SIDES, END_REASONS, OPTIONS, PILES)


def phase_words(phase: Any, labels: Mapping[str, str]) -> str:
    """ "marshalling phase", "setup", "game over": a phase as a board names it."""
    text = label_of(phase, labels)
    return M("{phase} phase", phase=text) if phase in ROUND_PHASES else text


def vocabulary(components: Components) -> dict[str, str]:
    """Words for every non-card id a view, legal action or chance slot may hold."""
    out: dict[str, str] = {}
    for table in TABLES:
        out.update(table)
    out.update({op: words(op) for op in components.effect_ops if op not in out})
    out["table"] = M("the table")
    out.update(BREAKDOWN)
    for card in components.cards:
        for printed in (card.keywords, card.crests, card.traits):
            out.update({k: words(k) for k in printed if k not in out})
    for house in components.houses:
        named = components.by_number.get(house.house_card)
        out[house.id] = named.name if named else M("House {house}", house=house.id)
    for title in components.titles.values():
        out[f"title:{title.id}"] = title.name
    for seat in range(MAX_SEATS):
        out[f"house:{seat}"] = M("House card")
        out[f"plot:{seat}"] = M("revealed plot")
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
    return Seq(who(names, s) for s in seats)


def house_card_of(names: Sequence[str], seat: Any) -> str:
    """ "Anna's House card": a House card named by its player."""
    return M("{whose} House card", whose=possessive(who(names, seat)))


def capitalized(sentence: str) -> str:
    """A sentence that starts with "the table" starts with a capital letter."""
    return capitalised(sentence) if str(sentence).startswith("the ") else sentence


def joined(parts: Sequence[Any], empty: str = "") -> str:
    """ "a; b; c": clauses one after another (an effect's changes)."""
    if not parts:
        return empty
    out: str = parts[0]
    for part in parts[1:]:
        out = M("{first}; {then}", first=out, then=part)
    return out


UNTIL_WORDS = {"challenge": UNTILS["challenge"], "phase": UNTILS["phase"],
               "round": UNTILS["round"]}
#: when a lasting effect's gains apply: "{what} ... while they attack"
WHEN_WORDS = {
    "always": M("{source} gives {what} to matching characters while it stays in play"),
    "participating": M("{source} gives {what} to matching characters while they take part "
                       "in a challenge while it stays in play"),
    "attacking": M("{source} gives {what} to matching characters while they attack while it "
                   "stays in play"),
    "defending": M("{source} gives {what} to matching characters while they defend while it "
                   "stays in play"),
    "dominance_phase": M("{source} gives {what} to matching characters in the dominance "
                         "phase while it stays in play"),
}
FROM_WORDS = {"hand": M("the hand"), "deck": M("the draw deck"),
              "discard": M("the discard pile"), "dead": M("the dead pile")}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


# ---------------------------------------------------------------------------
# Naming
# ---------------------------------------------------------------------------


def _card_words(cards: Any, ed: Components) -> str:
    named = [ed.name(c) for c in cards or ()]
    return Seq(named) if named else M("no cards")


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
        return M("their plot") if seat == actor else \
            M("{whose} plot", whose=possessive(seat_name(names, seat)))
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
            said = M("recorded the action {action}", action=words(action.type))
        return capitalized(M("{player} {did}", player=seat_name(names, action.actor),
                             did=said))

    sentence.__doc__ = phrase.__doc__
    return sentence


# ---------------------------------------------------------------------------
# Start and setup (§5, §6.1-§6.4)
# ---------------------------------------------------------------------------


def _say_start_game(d: Any, names: Names, actor: Any, ed: Components) -> str:
    houses = Seq(M("{player} plays House {house}", player=seat_name(names, p["seat"]),
                   house=_house_name(p["house"], ed))
                 for p in sorted(d.get("players") or (), key=lambda p: p["seat"]))
    first = d.get("setup_first")
    if isinstance(first, int):
        return M("started the game: {houses}; {player} sets up first", houses=houses,
                 player=seat_name(names, first))
    return M("started the game: {houses}", houses=houses)


def _house_name(house: Any, ed: Components) -> str:
    """ "Stark" / "史塔克": a house by the name the edition gives it in each language."""
    return ed.house_names.get(str(house), str(house))


def _say_mulligan(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("took a mulligan and drew a new hand")


def _say_setup_cards(d: Any, names: Names, actor: Any, ed: Components) -> str:
    count = len(d.get("cards") or ())
    if not count:
        return M("set up no cards")
    return Mn("placed {count} card face down for setup",
              "placed {count} cards face down for setup", count)


def _draw_counts(d: Any, names: Names) -> str:
    draws = d.get("draws") or {}
    counts = d.get("drawn_counts") or {k: len(v) for k, v in draws.items()}
    parts = [Mn("{player} drew {count} card", "{player} drew {count} cards", int(n),
                player=seat_name(names, int(k)))
             for k, n in sorted(counts.items(), key=lambda kv: int(kv[0]))]
    return Seq(parts) if parts else M("nobody drew a card")


def _say_setup_draw(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("draws") is None and d.get("drawn_counts") is None:  # a preview, before dealing
        return M("dealt the setup draw")
    return M("dealt the setup draw: {draws}", draws=_draw_counts(d, names))


# ---------------------------------------------------------------------------
# Plot phase (§7.1)
# ---------------------------------------------------------------------------


def _say_choose_plot(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("chose a plot")


def _say_break_initiative_tie(d: Any, names: Names, actor: Any, ed: Components) -> str:
    winner = d.get("winner")
    if not isinstance(winner, int):
        return M("broke the initiative tie")
    return M("broke the initiative tie: {player} wins the initiative",
             player=seat_name(names, winner))


def _say_choose_first_player(d: Any, names: Names, actor: Any, ed: Components) -> str:
    first = d["first_player"]
    if first == actor:
        return M("chose to be the first player")
    return M("chose {player} as the first player", player=seat_name(names, first))


def _say_choose_title(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("took the title {title}", title=_title_words(d["title"], ed))


# ---------------------------------------------------------------------------
# Draw and marshalling (§6.9-§6.11)
# ---------------------------------------------------------------------------


def _say_draw_phase(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("draws") is None and d.get("drawn_counts") is None:  # a preview, before dealing
        return M("dealt the draw phase")
    return M("dealt the draw phase: {draws}", draws=_draw_counts(d, names))


def _say_marshal_card(d: Any, names: Names, actor: Any, ed: Components) -> str:
    text = M("marshalled {card}", card=ed.name(d["card"]))
    if d.get("as_duplicate"):
        text = M("{did} as a duplicate", did=text)
    host = d.get("attach_to")
    if host == "house":
        text = M("{did} onto {host}", did=text, host=house_card_of(names, actor))
    elif host:
        text = M("{did} onto {host}", did=text, host=_target_words(host, names, ed))
    cost = d.get("declared_cost")
    if isinstance(cost, int):
        text = M("{did} for {gold} gold", did=text, gold=cost)
    return text


def _say_end_marshalling(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("ended marshalling")


def _say_pass_window(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("passed: answered nothing of what just happened")


# ---------------------------------------------------------------------------
# Challenges (§8)
# ---------------------------------------------------------------------------


def _say_declare_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    text = M("declared {challenge} against {defender} with {cards}",
             challenge=a_challenge(d["type"]), defender=seat_name(names, d["defender"]),
             cards=_card_words(d["attackers"], ed))
    standing = list(d.get("not_kneeling") or ())
    if standing:
        return Mn("{did}; {cards} does not kneel", "{did}; {cards} do not kneel",
                  len(standing), did=text, cards=_card_words(standing, ed))
    return text


def _say_assign_stealth(d: Any, names: Names, actor: Any, ed: Components) -> str:
    pairs = [M("{card} bypasses {target}", card=ed.name(a), target=ed.name(t))
             for a, t in (d["bypass"]).items()]
    return M("used stealth: {pairs}", pairs=Seq(pairs)) if pairs else M("assigned no stealth")


def _say_redirect_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("redirected the challenge to {player} as the Crown Regent",
             player=seat_name(names, d["new_defender"]))


def _say_declare_defenders(d: Any, names: Names, actor: Any, ed: Components) -> str:
    defenders = list(d["defenders"])
    if not defenders:
        return M("declared no defenders")
    return M("defended with {cards}", cards=_card_words(defenders, ed))


def _say_take_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("took the challenge as the Lord Commander of the Kingsguard")


def _say_resolve_challenge(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("resolved the challenge")


def _say_choose_claim_targets(d: Any, names: Names, actor: Any, ed: Components) -> str:
    extra = list(d["extra_opponents"])
    if not extra:
        return M("named no further opponents for the intrigue claim")
    return M("named {players} for the intrigue claim as the Master of Whispers",
             players=Seq(seat_name(names, s) for s in extra))


def _saves_words(d: Any, names: Names, ed: Components) -> list[Any]:
    out = []
    for save in d.get("saves") or ():
        out.append(M("{card} is saved by its duplicate", card=ed.name(save.get("card")))
                   if save.get("by") == "duplicate" else
                   M("{card} is saved by an ability", card=ed.name(save.get("card"))))
    for card, dest in (d.get("redirect") or {}).items():
        out.append(M("{card} goes to the {pile} instead", card=ed.name(card),
                     pile=PILES.get(dest, words(str(dest)))))
    return out


def _with_saves(text: Any, d: Any, names: Names, ed: Components) -> str:
    """The clause with its saves after it: "...; Eddard Stark is saved by its duplicate"."""
    return joined([text, *_saves_words(d, names, ed)])


def _say_apply_claim(d: Any, names: Names, actor: Any, ed: Components) -> str:
    if d.get("discards") is not None:
        return M("discarded {cards} for the intrigue claim",
                 cards=_card_words(d["discards"], ed))
    if d.get("kills") is None:  # an intrigue claim before the discards are dealt
        return M("discarded cards at random for the intrigue claim")
    return _kills_words(d, names, "claim", ed)


def _say_apply_deadly(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return _kills_words(d, names, "deadly", ed)


_KILLS = {
    "claim": (M("had no character to lose to the military claim"),
              M("chose {cards} for the military claim"),
              M("lost {cards} to the military claim")),
    "deadly": (M("had no character to lose to deadly"), M("chose {cards} for deadly"),
               M("lost {cards} to deadly")),
}


def _kills_words(d: Any, names: Names, what: str, ed: Components) -> str:
    """ "lost Raff to deadly", or "chose Eddard for the military claim; Eddard is saved
    by its duplicate" when a save keeps a chosen card in play (§8.6)."""
    kills = list(d.get("kills") or ())
    none, chose, lost = _KILLS[what]
    if not kills:
        return none
    cards = _card_words(kills, ed)
    if d.get("saves"):
        return _with_saves(Message(chose.key, {"cards": cards}), d, names, ed)
    return _with_saves(Message(lost.key, {"cards": cards}), d, names, ed)


def _say_end_challenges(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("ended challenges")


# ---------------------------------------------------------------------------
# Round end and the game's end (§7.5-§7.7, §6.16, §6.17)
# ---------------------------------------------------------------------------


def _say_resolve_dominance(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("resolved dominance")


# What a move decided that its data does not say (the log's sentence goes on with it,
# `GameRules.outcome`): who won a challenge and by how much (§8.6), dominance (§7.5). The
# deciding is the reducers' (`challenge_outcome`, `dominance_outcome`); these only say it.
def challenge_outcome_words(winner: Any, attacker: Any, strength: tuple[int, int],
                            names: Names) -> str:
    """ "Anna won 5 to 3", "Bo won 3 to 3 (the attacker wins a tie)", "nobody won (...)"."""
    if winner is None:
        return M("nobody won (no strength on either side)")
    att, dfn = strength
    high, low = (att, dfn) if winner == attacker else (dfn, att)
    if high == low:
        return M("{player} won {high} to {low} (the attacker wins a tie)",
                 player=seat_name(names, winner), high=high, low=low)
    return M("{player} won {high} to {low}", player=seat_name(names, winner), high=high,
             low=low)


def dominance_outcome_words(winner: Any, totals: Mapping[Any, int], names: Names) -> str:
    """ "Bo won with 9 (Anna 7 and Cy 2)", or a tie that gains nobody power."""
    others = Seq(M("{player} {total}", player=seat_name(names, s), total=t)
                 for s, t in totals.items() if s != winner)
    if winner is None:
        return M("a tie for the highest total, so nobody gains power ({others})",
                 others=others)
    return M("{player} won with {total} ({others})", player=seat_name(names, winner),
             total=totals[winner], others=others)


def _say_end_round(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("ended the round: cards stand, gold and titles return, plots are used")


def _say_choose_winner(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("chose {player} as the winner", player=seat_name(names, d["winner"]))


def _say_concede(d: Any, names: Names, actor: Any, ed: Components) -> str:
    return M("conceded")


# ---------------------------------------------------------------------------
# Effects (§9)
# ---------------------------------------------------------------------------


def _say_effect(d: Any, names: Names, actor: Any, ed: Components) -> str:
    source = _source_words(d.get("source"), names, actor, ed)
    text = M("used {source}", source=source) if source else M("recorded an effect")
    costs = [op_words(op, names, ed) for op in d.get("costs") or ()]
    ops = [op_words(op, names, ed) for op in d.get("ops") or ()]
    if costs:
        text = M("{did} (cost: {costs})", did=text, costs=joined(costs))
    if ops:
        text = M("{did}: {changes}", did=text, changes=joined(ops))
    note = d.get("text")
    if note:
        text = M('{did} ("{note}")', did=text, note=str(note))
    elif not ops and not costs:
        text = M("{did} that changes nothing", did=text)
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
        items = [_choice_words(v, names, ed) for v in value]
        return Seq(items) if items else M("nothing")
    if isinstance(value, bool):
        return M("yes") if value else M("no")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and (ed.is_known(value) or value.startswith("house:")):
        return _target_words(value, names, ed)
    if isinstance(value, str) and value in CHALLENGE_TYPES:
        return CHALLENGE_TYPES[value]
    return M("a card") if value is None else words(str(value))


def _target_name(ability: Any, name: str) -> str:
    """A target of an ability as its data names it ("victim"), in the reader's language
    where the data gives its label one."""
    target = next((t for t in ability.targets if t.name == name), None) \
        if ability is not None else None
    own = getattr(target.label, "own", {}) if target is not None else {}
    return Name(words(name), own) if own else words(name)


def _say_use_ability(d: Any, names: Names, actor: Any, ed: Components) -> str:
    """"used Ice: “Sacrifice Ice to kill a participant” (victim: Eddard Stark)"."""
    source = _source_words(d.get("card"), names, actor, ed)
    ability = ability_of(d.get("card"), d.get("ability"), ed)
    label = ability.label if ability is not None else words(str(d.get("ability")))
    text = M("used {source}: “{ability}”", source=source, ability=label)
    choices = d.get("choices") or {}
    targets = {t.name: t for t in ability.targets} if ability is not None else {}
    said = []
    for name, value in choices.items():
        what = _target_name(ability, name)
        target = targets.get(name)
        kind = target.choose if target is not None else None
        worded = target.value_label(value) if target is not None and kind == "number" \
            else None
        if kind == "seat" and isinstance(value, int):
            said.append(M("{what}: {choice}", what=what, choice=seat_name(names, value)))
        elif worded is not None:
            said.append(worded)
        elif name == "influence":
            said.append(M("kneeling {cards} for influence",
                          cards=_choice_words(value, names, ed)))
        elif isinstance(value, dict) and "count" in value:
            said.append(Mn("{what}: {count} hidden card", "{what}: {count} hidden cards",
                           int(value["count"]), what=what))
        else:
            said.append(M("{what}: {choice}", what=what,
                          choice=_choice_words(value, names, ed)))
    if said:
        text = M("{did} ({choices})", did=text, choices=joined(said))
    return text


def cannot_use_now(source: Any, label: Any, problem: Any) -> str:
    """ "Ice: “Sacrifice Ice to kill another participant” cannot be used now: <why>": the
    refusal of an ability used outside its window or condition, as a message (issue #33;
    apply/abilities.py says it for a window or a condition)."""
    return M("{card}: “{ability}” cannot be used now: {reason}", card=source, ability=label,
             reason=problem)


def op_words(op: Any, names: Names, ed: Components) -> str:
    """One change of an effect as a clause: "Eddard Stark kneels"."""
    kind = str(op.get("op")) if hasattr(op, "get") else ""
    record = ed.ops.get(kind)  # the op's record (apply/effects.py), bound to the edition
    if record is not None:
        try:
            return record.sentence(op, names, ed)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            pass
    return words(kind) if kind else M("an unnamed change")


def kneel_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} kneels", card=_target_words(op["card"], names, ed))


def stand_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} stands", card=_target_words(op["card"], names, ed))


def kill_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    return _with_saves(Mn("{cards} is killed", "{cards} are killed", len(cards),
                          cards=_card_words(cards, ed)), op, names, ed)


def discard_from_play_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    return _with_saves(Mn("{cards} is discarded from play", "{cards} are discarded from play",
                          len(cards), cards=_card_words(cards, ed)), op, names, ed)


def return_to_hand_clause(op: Any, names: Names, ed: Components) -> str:
    cards = list(op["cards"])
    if len(cards) == 1:
        return M("{cards} returns to its owner's hand", cards=_card_words(cards, ed))
    return M("{cards} return to their owners' hands", cards=_card_words(cards, ed))


def take_control_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} takes control of {card}", player=seat_name(names, op["controller"]),
             card=ed.name(op["card"]))


def put_into_play_clause(op: Any, names: Names, ed: Components) -> str:
    text = M("{card} is put into play from {pile}", card=ed.name(op["card"]),
             pile=FROM_WORDS.get(op.get("from"), words(str(op.get("from")))))
    if isinstance(op.get("controller"), int):
        text = M("{did} under {whose} control", did=text,
                 whose=possessive(seat_name(names, op["controller"])))
    if op.get("as_duplicate"):
        text = M("{did} as a duplicate", did=text)
    if op.get("attach_to"):
        host = op["attach_to"]
        text = M("{did} onto the House card", did=text) if host == "house" else \
            M("{did} onto {host}", did=text, host=_target_words(host, names, ed))
    if op.get("knelt"):
        text = M("{did}, knelt", did=text)
    if op.get("pay_gold"):
        text = M("{did}, for {gold} gold", did=text, gold=op["pay_gold"])
    return text


def move_attachment_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} moves onto {host}", card=ed.name(op["card"]),
             host=_target_words(op["to"], names, ed))


def _until_words(op: Any) -> str:
    """A duration in words; a missing `until` means the round (ruling 4)."""
    return UNTIL_WORDS.get(op.get("until") or "round", UNTILS["round"])


def adjust_strength_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} gets {amount} STR {until}", card=ed.name(op["card"]),
             amount=_signed(int(op["amount"])), until=_until_words(op))


def no_strength_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} counts no STR {until}", card=ed.name(op["card"]), until=_until_words(op))


def gain_icon_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} gains the {icon} icon {until}", card=ed.name(op["card"]),
             icon=CHALLENGE_TYPES.get(op["icon"], op["icon"]), until=_until_words(op))


def lose_icon_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} loses the {icon} icon {until}", card=ed.name(op["card"]),
             icon=CHALLENGE_TYPES.get(op["icon"], op["icon"]), until=_until_words(op))


def gain_keyword_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} gains {keyword} {until}", card=ed.name(op["card"]),
             keyword=words(op["keyword"]), until=_until_words(op))


def lose_keyword_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} loses {keyword} {until}", card=ed.name(op["card"]),
             keyword=words(op["keyword"]), until=_until_words(op))


def continuous_clause(op: Any, names: Names, ed: Components) -> str:
    gains: list[Any] = []
    if op.get("strength"):
        gains.append(M("{amount} STR", amount=_signed(int(op["strength"]))))
    gains += [M("the {icon} icon", icon=CHALLENGE_TYPES.get(icon, icon))
              for icon in op.get("icons") or ()]
    gains += [words(k) for k in op.get("keywords") or ()]
    what = Seq(gains) if gains else M("its effect")
    when = WHEN_WORDS.get(op.get("when") or "always", WHEN_WORDS["always"])
    return Message(when.key, {"source": ed.name(op["source"]), "what": what})


def exclude_character_power_clause(op: Any, names: Names, ed: Components) -> str:
    return M("power on the cards of {players} does not count while {source} stays in play",
             players=Seq(seat_name(names, s) for s in op.get("players") or ()),
             source=ed.name(op["source"]))


def no_stand_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} does not stand this round", card=_target_words(op["card"], names, ed))


def join_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} joins the challenge on the {side} side", card=ed.name(op["card"]),
             side=SIDES.get(op.get("side"), words(str(op.get("side")))))


def remove_from_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} leaves the challenge", card=ed.name(op["card"]))


def gain_power_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} gains {amount} power", card=_target_words(op["target"], names, ed),
             amount=op["amount"])


def lose_power_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{card} loses {amount} power", card=_target_words(op["target"], names, ed),
             amount=op["amount"])


def move_power_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{amount} power moves from {source} to {target}", amount=op["amount"],
             source=_target_words(op["from"], names, ed),
             target=_target_words(op["to"], names, ed))


def gain_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} gains {amount} gold", player=seat_name(names, op["seat"]),
             amount=op["amount"])


def pay_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} pays {amount} gold", player=seat_name(names, op["seat"]),
             amount=op["amount"])


def give_gold_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} gives {other} {amount} gold", player=seat_name(names, op["from"]),
             other=seat_name(names, op["to"]), amount=op["amount"])


def draw_clause(op: Any, names: Names, ed: Components) -> str:
    count = len(op["cards"]) if op.get("cards") is not None else int(op.get("count") or 0)
    return Mn("{player} draws {count} card", "{player} draws {count} cards", count,
              player=seat_name(names, op["seat"]))


def discard_from_hand_clause(op: Any, names: Names, ed: Components) -> str:
    if op.get("random"):
        return M("{player} discards {cards} from hand at random",
                 player=seat_name(names, op["seat"]), cards=_card_words(op["cards"], ed))
    return M("{player} discards {cards} from hand", player=seat_name(names, op["seat"]),
             cards=_card_words(op["cards"], ed))


def discard_from_deck_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} discards {cards} from the top of the draw deck",
             player=seat_name(names, op["seat"]), cards=_card_words(op["cards"], ed))


def search_deck_clause(op: Any, names: Names, ed: Components) -> str:
    who = seat_name(names, op["seat"])
    if op.get("to") == "play":
        return M("{player} searches the draw deck and puts {card} into play", player=who,
                 card=ed.name(op["card"]))
    if op.get("reveal") and op.get("card"):
        return M("{player} searches the draw deck and takes {card} into hand", player=who,
                 card=ed.name(op["card"]))
    return M("{player} searches the draw deck and takes a card into hand", player=who)


def return_from_pile_clause(op: Any, names: Names, ed: Components) -> str:
    pile = FROM_WORDS.get(op.get("from"), M("a pile"))
    if op.get("to") == "hand":
        return M("{card} returns from {pile} to its owner's hand", card=ed.name(op["card"]),
                 pile=pile)
    return M("{card} returns from {pile} to its owner's draw deck", card=ed.name(op["card"]),
             pile=pile)


def shuffle_pile_into_deck_clause(op: Any, names: Names, ed: Components) -> str:
    pile = {"hand": PILES["hand"], "discard": PILES["discard"], "dead": PILES["dead"]}.get(
        op.get("pile"), words(str(op.get("pile"))))
    return M("{player} shuffles the {pile} into the draw deck",
             player=seat_name(names, op["seat"]), pile=pile)


def reveal_new_plot_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} reveals a new plot, {plot}", player=seat_name(names, op["seat"]),
             plot=ed.name(op["plot"]))


PLOT_FIELDS = {"income": M("income"), "initiative": M("initiative"), "claim": M("claim"),
               "reserve": M("reserve")}


def modify_plot_clause(op: Any, names: Names, ed: Components) -> str:
    change = M("becomes {value}", value=op["set"]) if op.get("set") is not None else \
        M("changes by {amount}", amount=_signed(int(op["delta"])))
    until = UNTIL_WORDS.get(op.get("until") or "round", UNTILS["round"])
    return M("the {field} of {whose} plot {change} {until}",
             field=PLOT_FIELDS.get(op["field"], words(str(op["field"]))),
             whose=possessive(seat_name(names, op["seat"])), change=change, until=until)


def suppress_income_bonuses_clause(op: Any, names: Names, ed: Components) -> str:
    return M("income bonuses of cards do not count for {players} this round",
             players=Seq(seat_name(names, s) for s in op["seats"]))


def forbid_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    a, b = op["seats"]
    return M("no {type} challenges between {player} and {other} this round",
             type=CHALLENGE_TYPES.get(op["type"], op["type"]), player=seat_name(names, a),
             other=seat_name(names, b))


def extra_challenge_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{player} may make one more {type} challenge", player=seat_name(names, op["seat"]),
             type=CHALLENGE_TYPES.get(op["type"], op["type"]))


def skip_taxation_clause(op: Any, names: Names, ed: Components) -> str:
    return M("{whose} gold is not taxed this round",
             whose=possessive(seat_name(names, op["seat"])))


def swap_plot_decks_clause(op: Any, names: Names, ed: Components) -> str:
    a, b = op["seats"]
    return M("{player} and {other} choose plots from each other's plot decks this round",
             player=seat_name(names, a), other=seat_name(names, b))


def cost_reduction_clause(op: Any, names: Names, ed: Components) -> str:
    return M("the next matching card {player} marshals this phase costs {amount} gold less",
             player=seat_name(names, op["seat"]), amount=op["amount"])


def note_clause(op: Any, names: Names, ed: Components) -> str:
    return M('a note: "{text}"', text=str(op["text"])) if op.get("text") else M("a note")


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
    changes = joined(ops, M("no change"))
    text = M("Ruling by the table about {source}: {changes}", source=source,
             changes=changes) if source else \
        M("Ruling by the table: {changes}", changes=changes)
    if d.get("text"):
        text = M('{said} ("{note}")', said=text, note=str(d.get("text")))
    reason = d.get("reason")
    return M("{said} (reason: {reason})", said=text, reason=str(reason)) if reason else text


use_ability_sentence = _sentence(_say_use_ability)
