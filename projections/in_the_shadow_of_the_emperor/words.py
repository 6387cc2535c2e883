"""In the Shadow of the Emperor: the words a person reads, from the edition's names.

Spec: docs/games/in_the_shadow_of_the_emperor.md. Machine fields keep ids and seat
indexes; every sentence here names players by name and pieces by their edition label
("the Duchy of Saxony", "Doctor"). The pieces with no printed name (the throne, a single or a
couple, a castle space, the phases of the round track, the decisions the game waits for) get
the words a player would use for what they see (`GAME_LABELS`).

`Words` turns ids into phrases; `<type>_sentence` is the sentence of an action of that type
(each action type's record in actions.py names its own); `decision_sentence`
and `election_sentence` say what a view is waiting for, for the web and terminal boards.
This module needs of the edition only its labels and electorate ids (`Lexicon`), so the
edition (edition.py) can build its labels from `edition_labels` here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..messages import M, Message, Mn, Seq, capitalised
from ..rules import Action, possessive, seat_name

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

#: labels for what has no printed name in the edition: words a player uses for what is seen
GAME_LABELS: Mapping[str, Message] = {
    # places and pieces
    "throne": M("Throne"), "empire": M("Empire city"), "supply": M("Supply"),
    "single": M("Single"), "couple": M("Couple"), "court": M("Aristocrat space"),
    "castle": M("Castle space"), "spiritual": M("Archdiocese"), "secular": M("Secular electorate"),
    # choices inside actions
    "younger": M("Younger"), "older": M("Older"), "place": M("Place"), "none": M("Leave them"),
    "emperor": M("Emperor"), "hidden": M("Sealed ballot"), "table": M("The table"),
    # the round track (spec §5 section titles)
    "setup": M("Setup"), "income": M("Income"), "aging": M("Aging"),
    "descendants": M("Descendants"),
    "actions": M("Actions"), "new_electors": M("New electors"), "elect_emperor": M("Election"),
    "emperor_actions": M("Emperor's actions"), "advance_round": M("End of the round"),
    # game status and result
    "awaiting_setup": M("Waiting for setup"), "playing": M("Playing"), "over": M("Game over"),
    "five_rounds_played": M("Five rounds played"),
    # the decisions the game waits for (spec §6.4, §7)
    "start_empire_city": M("Starting empire city"), "start_elector": M("Starting elector"),
    "start_aristocrat": M("Starting aristocrat"), "start_knight": M("Starting knight"),
    "fill_throne": M("Refilling the throne"), "son": M("A son"), "daughter": M("A daughter"),
    "answer_proposal": M("Answering a proposal"), "turn": M("Phase IV turn"),
    "break_tie": M("Breaking a tie"), "appoint_elector": M("Appointing an elector"),
    "place_former_elector": M("Placing the former elector"),
    "ci_target": M("Church Influence target"), "ex_target": M("Excommunication target"),
    "vote": M("Secret vote"), "seat_emperor": M("Seating the new Emperor"),
    "place_former_emperor": M("Placing the former Emperor"), "emperor_city": M("Empire city"),
    # the score breakdown (spec §9)
    "vp": M("Victory points"), "thalers": M("Thalers"), "electors": M("New electors"),
    "marriages": M("Marriages"), "election_votes": M("Election votes"), "permits": M("Permits"),
}

#: what a score source is called in a sentence about a player's victory points (spec §9)
VP_SOURCE_WORDS: Mapping[str, Message] = {
    "electors": M("new electors"), "marriages": M("marriages"),
    "election_votes": M("election votes"),
    "indulgence": M("Indulgence"), "permits": M("cities built"), "mainz": M("the Mainz privilege"),
    "emperor": M("the Emperor track"),
}

#: what an action is, for a message saying it is not awaited ("a break of a tie")
ACTION_WORDS: Mapping[str, Message] = {
    "setup": M("the setup"), "place_start_empire_city": M("placing the starting empire city"),
    "place_start_elector": M("placing a starting elector"),
    "place_start_aristocrat": M("placing a starting aristocrat"),
    "place_start_knight": M("placing a starting knight"), "fill_throne": M("refilling the throne"),
    "place_son": M("placing a son"), "propose_marriage": M("a marriage proposal"),
    "answer_proposal": M("an answer to a proposal"),
    "send_to_convent": M("sending a daughter to the convent"), "buy_card": M("buying a card"),
    "use_privilege": M("using a privilege"),
    "knight_action": M("the knight action"), "pass": M("passing"), "break_tie": M("breaking a tie"),
    "appoint_elector": M("appointing an elector"),
    "place_former_elector": M("placing the former elector"),
    "choose_church_influence_target": M("naming the Church Influence target"),
    "choose_excommunication_target": M("naming the Excommunication target"),
    "cast_vote": M("a ballot"), "reveal_votes": M("revealing the election cards"),
    "seat_emperor": M("seating the new Emperor"),
    "place_former_emperor": M("placing the former Emperor"),
    "emperor_city_action": M("the empire city action"),
}

#: an effect field a card or privilege needs, in words (spec §6.3)
FIELD_WORDS: Mapping[str, Message] = {
    "target": M("a target aristocrat"), "direction": M("a direction, younger or older"),
    "aristocrat": M("the aristocrat to move"), "to": M("the electorate to move to"),
    "electorate": M("an electorate"),
}

#: what the game waits for, as the end of "Anna ..." (spec §6.4, §7)
DECISION_WORDS: Mapping[str, Message] = {
    "start_empire_city": M("places the first empire city on a city space"),
    "start_elector": M("places a single aged 45 on an empty elector space"),
    "start_knight": M("places a knight on an empty aristocrat or castle space"),
    "fill_throne": M("refills the empty throne with a tile from an aristocrat space"),
    "son": M("may place a son (a single aged 15) on an aristocrat space"),
    "daughter": M("proposes a marriage for a daughter or sends her to the convent"),
    "turn": M("takes a phase IV turn: buy a card, use a privilege, place or move a knight, "
            "or pass"),
    "ci_target": M("names an archdiocese for Church Influence"),
    "ex_target": M("names a secular electorate to excommunicate"),
    "seat_emperor": M("seats a tile on the throne as the new Emperor"),
    "place_former_emperor": M("places the former Emperor's tile on an aristocrat space or "
                            "returns it to supply"),
    "emperor_city": M("may place or move an empire city, or leave them where they are"),
}


def quoted(value: Any) -> str:
    """An offending value as a message shows it: "dragon", 7, nothing (never None/null).
    What a person typed is shown as typed, in every language."""
    if value is None:
        return M("nothing")
    if isinstance(value, str):
        return f'"{value}"'
    return json.dumps(value, default=str)


def sentence(text: str) -> str:
    """The first letter capitalised: "the table set up..." -> "The table set up..."."""
    capital: str = capitalised(text)
    return capital


def phase_numeral(phase: Any) -> str:
    return ROMAN[phase] if isinstance(phase, int) and 0 < phase < len(ROMAN) else ""


def _age(age: Any) -> Any:
    return age if isinstance(age, int) else quoted(age)


@dataclass(frozen=True, slots=True)
class Words:
    """Ids to phrases, for one table: the players' names and the edition's labels."""

    names: Sequence[str]
    labels: Mapping[str, str]
    #: the electorate ids, when known: anything else named as a place is quoted as given
    electorates: frozenset[str] = frozenset()

    def who(self, seat: Any) -> str:
        return seat_name(self.names, seat)

    def whose(self, seat: Any) -> str:
        return possessive(self.who(seat))

    def label(self, component: Any) -> str:
        text = self.labels.get(str(component))
        return text if text is not None else str(component).replace("_", " ")

    def place(self, eid: Any) -> str:
        """An electorate in a sentence: "the Duchy of Saxony" (a titled name takes "the"); a
        value that names no component is quoted as given (it is the offending value)."""
        text = self.labels.get(str(eid))
        if text is None or (self.electorates and eid not in self.electorates):
            return quoted(eid)
        if " of " in text and not text.lower().startswith("the "):
            return M("the {name}", name=text)
        return text

    def places(self, eids: Sequence[Any], conjunction: str = "and") -> str:
        return Seq([self.place(e) for e in eids], conjunction)

    def card(self, card: Any) -> str:
        return self.label(card)

    def kind(self, side: Any, age: Any) -> str:
        """ "single aged 25", "couple aged 35" (a side that is neither is quoted as given)."""
        if side == "single":
            return M("single aged {age}", age=_age(age))
        if side == "couple":
            return M("couple aged {age}", age=_age(age))
        return M("{side} aged {age}", side=quoted(side), age=_age(age))

    def tile(self, side: Any, age: Any) -> str:
        """ "a single aged 25", "a couple aged 35"."""
        if side == "single":
            return M("a single aged {age}", age=_age(age))
        if side == "couple":
            return M("a couple aged {age}", age=_age(age))
        return M("a {kind}", kind=self.kind(side, age))

    def spot(self, at: Any, source: bool = False) -> str:
        """Where a tile stands: "on the throne", "on the elector space of X", "in X"; with
        `source`, where it comes from: "from the throne", "from X"."""
        at = str(at)
        if at == "throne":
            return M("from the throne") if source else M("on the throne")
        if at.startswith("elector:"):
            place = self.place(at[8:])
            return M("from the elector space of {place}", place=place) if source else \
                M("on the elector space of {place}", place=place)
        return M("from {place}", place=self.place(at)) if source else \
            M("in {place}", place=self.place(at))

    def ref(self, ref: Mapping[str, Any] | None, actor: Any = None, source: bool = False,
            where: bool = True) -> str:
        """An AristocratRef (§2): "Bo's single aged 25 in the Duchy of Saxony"; the actor's
        own tile is "their own single aged 25"; `where=False` leaves the place out."""
        if not ref:
            return M("a single aged 45 from supply")
        owner = ref.get("owner")
        kind = self.kind(ref.get("side"), ref.get("age"))
        text = M("their own {kind}", kind=kind) if actor is not None and owner == actor else \
            M("{whose} {kind}", whose=self.whose(owner), kind=kind)
        return M("{tile} {spot}", tile=text, spot=self.spot(ref.get("at"), source)) if where \
            else text

    def slot(self, loc: Mapping[str, Any] | None) -> str:
        """A KnightLoc (§2): "a castle space of X", "an aristocrat space of X"."""
        if not loc:
            return M("supply")
        place = self.place(loc.get("electorate"))
        if loc.get("slot") == "castle":
            return M("a castle space of {place}", place=place)
        return M("an aristocrat space of {place}", place=place)

    def push(self, owner: Any, actor: Any = None) -> str:
        """ ", sending Bo's knight back to supply" for a knight push (spec §6.1), or ""."""
        if owner is None:
            return ""
        if owner == actor:
            return M(", sending their own knight back to supply")
        return M(", sending {whose} knight back to supply", whose=self.whose(owner))

    def seats(self, seats: Sequence[Any], conjunction: str = "and") -> str:
        return Seq([self.who(s) for s in seats], conjunction)


class Lexicon(Protocol):
    """What the words need of an edition (edition.Components): every label, and which ids
    are electorates (anything else named as a place is quoted as given)."""

    @property
    def labels(self) -> Mapping[str, str]: ...

    @property
    def electorate_ids(self) -> frozenset[str]: ...


def words_for(names: Sequence[str], lexicon: Lexicon) -> Words:
    """Phrases for one table: its players' names (empty: seats by number) and the labels."""
    return Words(names, lexicon.labels, lexicon.electorate_ids)


def edition_labels(eids: Sequence[str], printed: Mapping[str, str]) -> dict[str, str]:
    """Every label of an edition: `GAME_LABELS` for what has no printed name, an
    `elector:<id>` label for each elector space (it appears in AristocratRefs), and the
    edition's printed names (`printed`, its own `labels` mapping included), which win."""
    named = Words((), printed, frozenset(eids))
    return {**GAME_LABELS,
            **{f"elector:{eid}": M("Elector of {place}", place=named.place(eid)) for eid in eids},
            **printed}


def labels(lexicon: Lexicon) -> dict[str, str]:
    """Component id -> what a person reads for it (a copy: the edition's stay frozen)."""
    return dict(lexicon.labels)


# ---------------------------------------------------------------------------
# The parts of sentences several action types share (spec §6.3, §6.4)
# ---------------------------------------------------------------------------


def _with(head: str, effect: str) -> str:
    """A sentence and the effect that ends it ("bought Doctor" + " and made ...")."""
    return M("{head}{effect}", head=head, effect=effect) if effect else head


def _doctor_effect(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    target = w.ref(data.get("target"), actor)
    return M(" and made {target} younger", target=target) if data.get("direction") == "younger" \
        else M(" and made {target} older", target=target)


def _effect(w: Words, actor: Any, card: Any, data: Mapping[str, Any]) -> str:
    """What a phase-IV card effect did (spec §6.3), as the end of a sentence, or ""."""
    electorate = data.get("electorate")
    push = w.push(data.get("push_knight_owner"), actor)
    moved = data.get("aristocrat") or {}
    place = w.place(electorate)

    effects: dict[str, Callable[[], str]] = {
        "doctor": lambda: _doctor_effect(w, actor, data),
        "koeln": lambda: _doctor_effect(w, actor, data),
        "move": lambda: M(" and moved {tile} from {source} to {place}{push}",
                          tile=w.ref(moved, actor, where=False), source=w.place(moved.get("at")),
                          place=w.place(data.get("to")), push=push),
        "permit": lambda: M(" and built a city in {place}", place=place),
        "ordinance": lambda: M(" and placed a single aged 25 in {place}{push}", place=place,
                               push=push),
        "foreign_kings_daughter": lambda: M(" and placed a couple aged 25 in {place}{push}",
                                            place=place, push=push),
        "palatinate": lambda: M(" and placed a single aged 15 in {place}{push}", place=place,
                                push=push),
        "promotion": lambda: M(" and replaced a knight in {place} with a single aged 25",
                               place=place),
        "indulgence": lambda: M(" and gained 1 victory point"),
        "rival": lambda: M(" to challenge the Emperor"),
        "brandenburg": lambda: M(" and took the Gray Eminence"),
    }
    make = effects.get(str(card))
    return make() if make else ""


def _privilege(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    name = data.get("privilege")
    if name == "trier":
        card = data.get("card")
        head = M("used the privilege of {place} to play {card}", place=w.place(name),
                 card=w.card(card))
        return _with(head, _effect(w, actor, card, data))
    head = M("used the privilege of {place}", place=w.place(name))
    return _with(head, _effect(w, actor, name, data))


def _knight(w: Words, data: Mapping[str, Any]) -> str:
    src, dst = data.get("from"), data.get("to")
    if src is None:
        return M("placed a knight from supply on {space}", space=w.slot(dst))
    return M("moved a knight from {source} to {space}", source=w.slot(src), space=w.slot(dst))


def _former_elector(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    where = w.place(data.get("electorate"))
    if data.get("to") == "supply":
        return M("took the former elector of {place} back to supply", place=where)
    return M("returned the former elector of {place} to its aristocrat spaces{push}",
             place=where, push=w.push(data.get("push_knight_owner"), actor))


def _for_side(w: Words, side: str, people: list[str]) -> str:
    """ "Anna and Bo for the Emperor": who showed which side of the election card."""
    return M("{players} for the {side}", players=Seq(people), side=w.label(side))


def _reveal(w: Words, data: Mapping[str, Any]) -> str:
    votes = data.get("votes") or {}
    sides: dict[str, list[str]] = {"emperor": [], "rival": []}
    for seat, choice in sorted(votes.items(), key=lambda kv: str(kv[0])):
        key = int(seat) if str(seat).isdigit() else seat
        sides.setdefault(str(choice), []).append(w.who(key))
    parts = [_for_side(w, side, people) for side, people in sides.items() if people]
    if not parts:
        return M("revealed the election cards: no ballots")
    return M("revealed the election cards: {sides}", sides=Seq(parts, ";"))


def _city(w: Words, data: Mapping[str, Any]) -> str:
    mode = data.get("mode")
    if mode == "place":
        return M("placed an empire city in {place}", place=w.place(data.get("to")))
    if mode == "move" and data.get("from") == data.get("to"):
        return M("moved an empire city to another city space of {place}",
                 place=w.place(data.get("to")))
    if mode == "move":
        return M("moved an empire city from {source} to {place}",
                 source=w.place(data.get("from")), place=w.place(data.get("to")))
    return M("left the empire cities where they are")


# ---------------------------------------------------------------------------
# The sentence of each action type (actions.ACTIONS), naming the actor (spec §4, §6)
# ---------------------------------------------------------------------------


def _said(action: Action, names: Sequence[str], lexicon: Lexicon,
          what: Callable[[Words, Any, Mapping[str, Any]], str]) -> str:
    """ "Anna " + what she did, capitalised: every sentence starts with its actor."""
    w = words_for(names, lexicon)
    return sentence(M("{player} {did}", player=w.who(action.actor),
                      did=what(w, action.actor, action.data)))


def _where(data: Mapping[str, Any]) -> Any:
    return data.get("electorate")


def _pushing(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    return w.push(data.get("push_knight_owner"), actor)


def setup_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """The table names the player count and, once known, the first Emperor (spec §4)."""
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        emperor = data.get("emperor")
        count = int(data.get("players") or 0)
        if isinstance(emperor, int):
            return Mn("set up the game for {count} player with {emperor} as the first Emperor",
                      "set up the game for {count} players with {emperor} as the first Emperor",
                      count, emperor=w.who(emperor))
        return Mn("set up the game for {count} player", "set up the game for {count} players",
                  count)
    return _said(action, names, lexicon, what)


def place_start_empire_city_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                     ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed the first empire city in {place}", place=w.place(_where(data))))


def place_start_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                 ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed a single aged 45 on the elector space of {place}",
                   place=w.place(_where(data))))


def place_start_aristocrat_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                    ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed a starting aristocrat in {place}", place=w.place(_where(data))))


def place_start_knight_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed a knight on {space}", space=w.slot(data)))


def fill_throne_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("put {tile} on the empty throne",
                   tile=w.ref(data.get("aristocrat"), actor, source=True)))


def seat_emperor_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("took the throne with {tile}",
                   tile=w.ref(data.get("aristocrat"), actor, source=True)))


def place_son_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed a son (a single aged 15) in {place}{push}",
                   place=w.place(_where(data)), push=_pushing(w, actor, data))
                 if _where(data) else M("declined the son"))


def propose_marriage_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("proposed a daughter's marriage to {tile}", tile=w.ref(data.get("target"))))


def answer_proposal_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("accepted the marriage proposal") if data.get("accept")
                 else M("refused the marriage proposal; the daughter became a nun"))


def send_to_convent_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("sent a daughter to the convent"))


def buy_card_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """ "Cleo bought Doctor and made Anna's couple aged 45 on the throne older"; without
    its effect fields yet (a preview), only the card."""
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        card = data.get("card")
        if card is None:
            return M("bought an action card")
        return _with(M("bought {card}", card=w.card(card)), _effect(w, actor, card, data))
    return _said(action, names, lexicon, what)


def use_privilege_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, _privilege)


def knight_action_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _knight(w, data))


def pass_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: M("passed"))


def break_tie_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        winner, place = data.get("winner"), w.place(_where(data))
        if winner == actor:
            return M("broke the tie in {place} in their own favour", place=place)
        return M("broke the tie in {place} in favour of {player}", place=place,
                 player=w.who(winner))
    return _said(action, names, lexicon, what)


def appoint_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("appointed {tile} as the elector of {place}",
                   tile=w.ref(data.get("aristocrat"), actor, where=False),
                   place=w.place(_where(data))))


def place_former_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                  ) -> str:
    return _said(action, names, lexicon, _former_elector)


def choose_church_influence_target_sentence(action: Action, names: Sequence[str],
                                            lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("named {place} for Church Influence", place=w.place(_where(data)))
                 if _where(data) else M("named no archdiocese for Church Influence"))


def choose_excommunication_target_sentence(action: Action, names: Sequence[str],
                                           lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("excommunicated the elector of {place}", place=w.place(_where(data)))
                 if _where(data) else M("excommunicated no one"))


def cast_vote_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """A sealed ballot never names its choice (spec §8), in any view."""
    return _said(action, names, lexicon, lambda w, actor, data: M("cast a sealed ballot"))


def reveal_votes_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _reveal(w, data))


def place_former_emperor_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                  ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 M("placed the former Emperor's tile in {place}{push}",
                   place=w.place(_where(data)), push=_pushing(w, actor, data))
                 if _where(data) else M("returned the former Emperor's tile to supply"))


def emperor_city_action_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                 ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _city(w, data))


# ---------------------------------------------------------------------------
# What a view waits for (for the boards): the decision and the election
# ---------------------------------------------------------------------------


def _special_decisions(pending: Mapping[str, Any], w: Words) -> dict[str, Callable[[], str]]:
    """The decisions whose words name what the pending decision holds."""
    actor = pending.get("actor")
    where = w.place(pending.get("electorate"))
    seats = pending.get("seats") or []
    return {
        "start_aristocrat": lambda: M("places {tile} on an aristocrat space",
                                      tile=w.tile(pending.get("side"), pending.get("age"))),
        "answer_proposal": lambda: M("answers {whose} marriage proposal to {tile}",
                                     whose=w.whose(pending.get("proposer")),
                                     tile=w.ref(pending.get("target"), actor)),
        "break_tie": lambda: M("breaks the tie in {place} between {players}", place=where,
                               players=w.seats(seats)),
        "appoint_elector": lambda: M("appoints the new elector of {place} from own tiles there",
                                     place=where),
        "place_former_elector": lambda: M("returns the former elector of {place} to its full "
                                          "aristocrat spaces by pushing a knight, or to supply",
                                          place=where),
    }


def decision_sentence(view: Mapping[str, Any], w: Words) -> str:
    """What the game waits for now, as a sentence: "Anna breaks the tie in ... between Bo
    and Clara". Empty when nothing is pending."""
    if view.get("status") == "awaiting_setup":
        return M("The table sets up the game and names the first Emperor.")
    if view.get("status") == "over":
        return M("The game is over.")
    pending = view.get("pending")
    if not isinstance(pending, Mapping):
        return ""
    kind = pending.get("kind")
    if kind == "vote":
        return election_sentence(view, w)
    make = _special_decisions(pending, w).get(str(kind))
    what = make() if make else DECISION_WORDS.get(str(kind), str(w.label(kind)).lower())
    return sentence(M("{player} {does}.", player=w.who(pending.get("actor")), does=what))


def election_sentence(view: Mapping[str, Any], w: Words) -> str:
    """The election in progress (spec §5.6, §8): who challenges whom, who votes, who has
    voted (never what, while sealed)."""
    emperor, rival = view.get("emperor"), view.get("rival")
    pending = view.get("pending") or {}
    voters = list(pending.get("seats") or []) if pending.get("kind") == "vote" else []
    ballots = view.get("ballots") or {}
    head = M("Election: {rival} (Rival) challenges {emperor} (Emperor)", rival=w.who(rival),
             emperor=w.who(emperor))
    if not voters:
        return M("{text}.", text=head)
    voted = [s for s in voters if str(s) in ballots]
    waiting = [s for s in voters if str(s) not in ballots]
    text = Mn("{text}; {players} votes in secret", "{text}; {players} vote in secret",
              len(voters), text=head, players=w.seats(voters))
    if voted:
        text = Mn("{text}; {players} has voted", "{text}; {players} have voted", len(voted),
                  text=text, players=w.seats(voted))
    if waiting and voted:
        text = M("{text}, {players} not yet", text=text, players=w.seats(waiting))
    return M("{text}.", text=text)


def last_election_sentence(view: Mapping[str, Any], w: Words) -> str:
    """The last election's outcome from its totals (spec §5.6 step 5), or ""."""
    last = view.get("last_election") or {}
    totals = last.get("totals")
    if not isinstance(totals, list) or len(totals) != 2:
        return ""
    ballots = last.get("ballots") or {}
    sides: dict[str, list[str]] = {}
    for seat, choice in sorted(ballots.items()):
        sides.setdefault(str(choice), []).append(w.who(int(seat)))
    said = [_for_side(w, c, p) for c, p in sides.items()]
    emperor_total, rival_total = totals
    outcome = M("the Rival won {rival} votes to {emperor}", rival=rival_total,
                emperor=emperor_total) if rival_total > emperor_total else \
        M("the Emperor kept the throne {emperor} votes to {rival}", emperor=emperor_total,
          rival=rival_total)
    if said:
        return sentence(M("last election: {outcome} ({ballots}).", outcome=outcome,
                          ballots=Seq(said, ";")))
    return sentence(M("last election: {outcome}.", outcome=outcome))


def vp_sentence(per_seat: Mapping[str, Any]) -> str:
    """ "3 from new electors, 2 from the Emperor track" for one seat's breakdown (§9)."""
    parts = [M("{count} from {source}", count=per_seat[k], source=words)
             for k, words in VP_SOURCE_WORDS.items()
             if isinstance(per_seat.get(k), int) and per_seat[k]]
    return Seq(parts, ",") if parts else M("no victory points yet")
