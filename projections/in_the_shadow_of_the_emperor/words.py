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

from ..rules import Action, plural, possessive, seat_name, words_list

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

#: labels for what has no printed name in the edition: words a player uses for what is seen
GAME_LABELS: Mapping[str, str] = {
    # places and pieces
    "throne": "Throne", "empire": "Empire city", "supply": "Supply",
    "single": "Single", "couple": "Couple", "court": "Aristocrat space",
    "castle": "Castle space", "spiritual": "Archdiocese", "secular": "Secular electorate",
    # choices inside actions
    "younger": "Younger", "older": "Older", "place": "Place", "none": "Leave them",
    "emperor": "Emperor", "hidden": "Sealed ballot", "table": "The table",
    # the round track (spec §5 section titles)
    "setup": "Setup", "income": "Income", "aging": "Aging", "descendants": "Descendants",
    "actions": "Actions", "new_electors": "New electors", "elect_emperor": "Election",
    "emperor_actions": "Emperor's actions", "advance_round": "End of the round",
    # game status and result
    "awaiting_setup": "Waiting for setup", "playing": "Playing", "over": "Game over",
    "five_rounds_played": "Five rounds played",
    # the decisions the game waits for (spec §6.4, §7)
    "start_empire_city": "Starting empire city", "start_elector": "Starting elector",
    "start_aristocrat": "Starting aristocrat", "start_knight": "Starting knight",
    "fill_throne": "Refilling the throne", "son": "A son", "daughter": "A daughter",
    "answer_proposal": "Answering a proposal", "turn": "Phase IV turn",
    "break_tie": "Breaking a tie", "appoint_elector": "Appointing an elector",
    "place_former_elector": "Placing the former elector",
    "ci_target": "Church Influence target", "ex_target": "Excommunication target",
    "vote": "Secret vote", "seat_emperor": "Seating the new Emperor",
    "place_former_emperor": "Placing the former Emperor", "emperor_city": "Empire city",
    # the score breakdown (spec §9)
    "vp": "Victory points", "thalers": "Thalers", "electors": "New electors",
    "marriages": "Marriages", "election_votes": "Election votes", "permits": "Permits",
}

#: what a score source is called in a sentence about a player's victory points (spec §9)
VP_SOURCE_WORDS: Mapping[str, str] = {
    "electors": "new electors", "marriages": "marriages", "election_votes": "election votes",
    "indulgence": "Indulgence", "permits": "cities built", "mainz": "the Mainz privilege",
    "emperor": "the Emperor track",
}

#: what an action is, for a message saying it is not awaited ("a break of a tie")
ACTION_WORDS: Mapping[str, str] = {
    "setup": "the setup", "place_start_empire_city": "placing the starting empire city",
    "place_start_elector": "placing a starting elector",
    "place_start_aristocrat": "placing a starting aristocrat",
    "place_start_knight": "placing a starting knight", "fill_throne": "refilling the throne",
    "place_son": "placing a son", "propose_marriage": "a marriage proposal",
    "answer_proposal": "an answer to a proposal", "send_to_convent": "sending a daughter to "
    "the convent", "buy_card": "buying a card", "use_privilege": "using a privilege",
    "knight_action": "the knight action", "pass": "passing", "break_tie": "breaking a tie",
    "appoint_elector": "appointing an elector",
    "place_former_elector": "placing the former elector",
    "choose_church_influence_target": "naming the Church Influence target",
    "choose_excommunication_target": "naming the Excommunication target",
    "cast_vote": "a ballot", "reveal_votes": "revealing the election cards",
    "seat_emperor": "seating the new Emperor",
    "place_former_emperor": "placing the former Emperor",
    "emperor_city_action": "the empire city action",
}

#: an effect field a card or privilege needs, in words (spec §6.3)
FIELD_WORDS: Mapping[str, str] = {
    "target": "a target aristocrat", "direction": "a direction, younger or older",
    "aristocrat": "the aristocrat to move", "to": "the electorate to move to",
    "electorate": "an electorate",
}

#: what the game waits for, as the end of "Anna ..." (spec §6.4, §7)
DECISION_WORDS: Mapping[str, str] = {
    "start_empire_city": "places the first empire city on a city space",
    "start_elector": "places a single aged 45 on an empty elector space",
    "start_knight": "places a knight on an empty aristocrat or castle space",
    "fill_throne": "refills the empty throne with a tile from an aristocrat space",
    "son": "may place a son (a single aged 15) on an aristocrat space",
    "daughter": "proposes a marriage for a daughter or sends her to the convent",
    "turn": "takes a phase IV turn: buy a card, use a privilege, place or move a knight, "
            "or pass",
    "ci_target": "names an archdiocese for Church Influence",
    "ex_target": "names a secular electorate to excommunicate",
    "seat_emperor": "seats a tile on the throne as the new Emperor",
    "place_former_emperor": "places the former Emperor's tile on an aristocrat space or "
                            "returns it to supply",
    "emperor_city": "may place or move an empire city, or leave them where they are",
}


def quoted(value: Any) -> str:
    """An offending value as a message shows it: "dragon", 7, nothing (never None/null)."""
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f'"{value}"'
    return json.dumps(value, default=str)


def sentence(text: str) -> str:
    """The first letter capitalised: "the table set up..." -> "The table set up..."."""
    return text[:1].upper() + text[1:]


def phase_numeral(phase: Any) -> str:
    return ROMAN[phase] if isinstance(phase, int) and 0 < phase < len(ROMAN) else ""


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
        return f"the {text}" if " of " in text and not text.lower().startswith("the ") else text

    def places(self, eids: Sequence[Any], conjunction: str = "and") -> str:
        return words_list([self.place(e) for e in eids], conjunction)

    def card(self, card: Any) -> str:
        return self.label(card)

    def kind(self, side: Any, age: Any) -> str:
        """ "single aged 25", "couple aged 35" (a side that is neither is quoted as given)."""
        shown = self.label(side).lower() if side in ("single", "couple") else quoted(side)
        return f"{shown} aged {age if isinstance(age, int) else quoted(age)}"

    def tile(self, side: Any, age: Any) -> str:
        """ "a single aged 25", "a couple aged 35"."""
        return f"a {self.kind(side, age)}"

    def spot(self, at: Any, source: bool = False) -> str:
        """Where a tile stands: "on the throne", "on the elector space of X", "in X"; with
        `source`, where it comes from: "from the throne", "from X"."""
        at = str(at)
        if at == "throne":
            return "from the throne" if source else "on the throne"
        if at.startswith("elector:"):
            return f"{'from' if source else 'on'} the elector space of {self.place(at[8:])}"
        return f"{'from' if source else 'in'} {self.place(at)}"

    def ref(self, ref: Mapping[str, Any] | None, actor: Any = None, source: bool = False,
            where: bool = True) -> str:
        """An AristocratRef (§2): "Bo's single aged 25 in the Duchy of Saxony"; the actor's
        own tile is "their own single aged 25"; `where=False` leaves the place out."""
        if not ref:
            return "a single aged 45 from supply"
        owner = ref.get("owner")
        whose = "their own" if actor is not None and owner == actor else self.whose(owner)
        text = f"{whose} {self.kind(ref.get('side'), ref.get('age'))}"
        return f"{text} {self.spot(ref.get('at'), source)}" if where else text

    def slot(self, loc: Mapping[str, Any] | None) -> str:
        """A KnightLoc (§2): "a castle space of X", "an aristocrat space of X"."""
        if not loc:
            return "supply"
        kind = "a castle space" if loc.get("slot") == "castle" else "an aristocrat space"
        return f"{kind} of {self.place(loc.get('electorate'))}"

    def push(self, owner: Any, actor: Any = None) -> str:
        """ ", sending Bo's knight back to supply" for a knight push (spec §6.1), or ""."""
        if owner is None:
            return ""
        whose = "their own" if owner == actor else self.whose(owner)
        return f", sending {whose} knight back to supply"

    def seats(self, seats: Sequence[Any], conjunction: str = "and") -> str:
        return words_list([self.who(s) for s in seats], conjunction)


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
            **{f"elector:{eid}": f"Elector of {named.place(eid)}" for eid in eids},
            **printed}


def labels(lexicon: Lexicon) -> dict[str, str]:
    """Component id -> what a person reads for it (a copy: the edition's stay frozen)."""
    return dict(lexicon.labels)


# ---------------------------------------------------------------------------
# The parts of sentences several action types share (spec §6.3, §6.4)
# ---------------------------------------------------------------------------


def _effect(w: Words, actor: Any, card: Any, data: Mapping[str, Any]) -> str:
    """What a phase-IV card effect did (spec §6.3), as the end of a sentence, or ""."""
    electorate = data.get("electorate")
    push = w.push(data.get("push_knight_owner"), actor)
    moved = data.get("aristocrat") or {}

    def doctor() -> str:
        return (f" and made {w.ref(data.get('target'), actor)} "
                f"{'younger' if data.get('direction') == 'younger' else 'older'}")

    effects: dict[str, Callable[[], str]] = {
        "doctor": doctor, "koeln": doctor,
        "move": lambda: f" and moved {w.ref(moved, actor, where=False)} from "
                        f"{w.place(moved.get('at'))} to {w.place(data.get('to'))}{push}",
        "permit": lambda: f" and built a city in {w.place(electorate)}",
        "ordinance": lambda: f" and placed a single aged 25 in {w.place(electorate)}{push}",
        "foreign_kings_daughter": lambda: f" and placed a couple aged 25 in "
                                          f"{w.place(electorate)}{push}",
        "palatinate": lambda: f" and placed a single aged 15 in {w.place(electorate)}{push}",
        "promotion": lambda: f" and replaced a knight in {w.place(electorate)} with a single "
                             "aged 25",
        "indulgence": lambda: " and gained 1 victory point",
        "rival": lambda: " to challenge the Emperor",
        "brandenburg": lambda: " and took the Gray Eminence",
    }
    make = effects.get(str(card))
    return make() if make else ""


def _privilege(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    name = data.get("privilege")
    head = f"used the privilege of {w.place(name)}"
    if name == "trier":
        card = data.get("card")
        return f"{head} to play {w.card(card)}{_effect(w, actor, card, data)}"
    return head + _effect(w, actor, name, data)


def _knight(w: Words, data: Mapping[str, Any]) -> str:
    src, dst = data.get("from"), data.get("to")
    if src is None:
        return f"placed a knight from supply on {w.slot(dst)}"
    return f"moved a knight from {w.slot(src)} to {w.slot(dst)}"


def _former_elector(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    where = w.place(data.get("electorate"))
    if data.get("to") == "supply":
        return f"took the former elector of {where} back to supply"
    return (f"returned the former elector of {where} to its aristocrat spaces"
            f"{w.push(data.get('push_knight_owner'), actor)}")


def _reveal(w: Words, data: Mapping[str, Any]) -> str:
    votes = data.get("votes") or {}
    sides: dict[str, list[str]] = {"emperor": [], "rival": []}
    for seat, choice in sorted(votes.items(), key=lambda kv: str(kv[0])):
        key = int(seat) if str(seat).isdigit() else seat
        sides.setdefault(str(choice), []).append(w.who(key))
    parts = [f"{words_list(people)} for the {w.label(side)}" for side, people in sides.items()
             if people]
    return "revealed the election cards: " + ("; ".join(parts) if parts else "no ballots")


def _city(w: Words, data: Mapping[str, Any]) -> str:
    mode = data.get("mode")
    if mode == "place":
        return f"placed an empire city in {w.place(data.get('to'))}"
    if mode == "move" and data.get("from") == data.get("to"):
        return f"moved an empire city to another city space of {w.place(data.get('to'))}"
    if mode == "move":
        return (f"moved an empire city from {w.place(data.get('from'))} to "
                f"{w.place(data.get('to'))}")
    return "left the empire cities where they are"



# ---------------------------------------------------------------------------
# The sentence of each action type (actions.ACTIONS), naming the actor (spec §4, §6)
# ---------------------------------------------------------------------------


def _said(action: Action, names: Sequence[str], lexicon: Lexicon,
          what: Callable[[Words, Any, Mapping[str, Any]], str]) -> str:
    """ "Anna " + what she did, capitalised: every sentence starts with its actor."""
    w = words_for(names, lexicon)
    return sentence(f"{w.who(action.actor)} {what(w, action.actor, action.data)}")


def _where(data: Mapping[str, Any]) -> Any:
    return data.get("electorate")


def _pushing(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
    return w.push(data.get("push_knight_owner"), actor)


def setup_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """The table names the player count and, once known, the first Emperor (spec §4)."""
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        emperor = data.get("emperor")
        return (f"set up the game for {plural(int(data.get('players') or 0), 'player')}"
                + (f" with {w.who(emperor)} as the first Emperor"
                   if isinstance(emperor, int) else ""))
    return _said(action, names, lexicon, what)


def place_start_empire_city_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                     ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed the first empire city in {w.place(_where(data))}")


def place_start_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                 ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed a single aged 45 on the elector space of {w.place(_where(data))}")


def place_start_aristocrat_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                    ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed a starting aristocrat in {w.place(_where(data))}")


def place_start_knight_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed a knight on {w.slot(data)}")


def fill_throne_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"put {w.ref(data.get('aristocrat'), actor, source=True)} on the empty throne")


def seat_emperor_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"took the throne with {w.ref(data.get('aristocrat'), actor, source=True)}")


def place_son_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed a son (a single aged 15) in {w.place(_where(data))}"
                 f"{_pushing(w, actor, data)}" if _where(data) else "declined the son")


def propose_marriage_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"proposed a daughter's marriage to {w.ref(data.get('target'))}")


def answer_proposal_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 "accepted the marriage proposal" if data.get("accept")
                 else "refused the marriage proposal; the daughter became a nun")


def send_to_convent_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 "sent a daughter to the convent")


def buy_card_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """ "Cleo bought Doctor and made Anna's couple aged 45 on the throne older"; without
    its effect fields yet (a preview), only the card."""
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        card = data.get("card")
        if card is None:
            return "bought an action card"
        return f"bought {w.card(card)}" + _effect(w, actor, card, data)
    return _said(action, names, lexicon, what)


def use_privilege_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, _privilege)


def knight_action_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _knight(w, data))


def pass_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: "passed")


def break_tie_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    def what(w: Words, actor: Any, data: Mapping[str, Any]) -> str:
        winner = data.get("winner")
        return (f"broke the tie in {w.place(_where(data))} in "
                + ("their own favour" if winner == actor else f"favour of {w.who(winner)}"))
    return _said(action, names, lexicon, what)


def appoint_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"appointed {w.ref(data.get('aristocrat'), actor, where=False)} as the "
                 f"elector of {w.place(_where(data))}")


def place_former_elector_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                  ) -> str:
    return _said(action, names, lexicon, _former_elector)


def choose_church_influence_target_sentence(action: Action, names: Sequence[str],
                                            lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"named {w.place(_where(data))} for Church Influence" if _where(data)
                 else "named no archdiocese for Church Influence")


def choose_excommunication_target_sentence(action: Action, names: Sequence[str],
                                           lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"excommunicated the elector of {w.place(_where(data))}" if _where(data)
                 else "excommunicated no one")


def cast_vote_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    """A sealed ballot never names its choice (spec §8), in any view."""
    return _said(action, names, lexicon, lambda w, actor, data: "cast a sealed ballot")


def reveal_votes_sentence(action: Action, names: Sequence[str], lexicon: Lexicon) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _reveal(w, data))


def place_former_emperor_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                  ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data:
                 f"placed the former Emperor's tile in {w.place(_where(data))}"
                 f"{_pushing(w, actor, data)}" if _where(data)
                 else "returned the former Emperor's tile to supply")


def emperor_city_action_sentence(action: Action, names: Sequence[str], lexicon: Lexicon
                                 ) -> str:
    return _said(action, names, lexicon, lambda w, actor, data: _city(w, data))


# ---------------------------------------------------------------------------
# What a view waits for (for the boards): the decision and the election
# ---------------------------------------------------------------------------


def decision_sentence(view: Mapping[str, Any], w: Words) -> str:
    """What the game waits for now, as a sentence: "Anna breaks the tie in ... between Bo
    and Clara". Empty when nothing is pending."""
    if view.get("status") == "awaiting_setup":
        return "The table sets up the game and names the first Emperor."
    if view.get("status") == "over":
        return "The game is over."
    pending = view.get("pending")
    if not isinstance(pending, Mapping):
        return ""
    kind, actor = pending.get("kind"), pending.get("actor")
    where = w.place(pending.get("electorate"))
    seats = pending.get("seats") or []
    special: dict[str, Callable[[], str]] = {
        "start_aristocrat": lambda: f"places {w.tile(pending.get('side'), pending.get('age'))} "
                                    "on an aristocrat space",
        "answer_proposal": lambda: f"answers {w.whose(pending.get('proposer'))} marriage "
                                   f"proposal to {w.ref(pending.get('target'), actor)}",
        "break_tie": lambda: f"breaks the tie in {where} between {w.seats(seats)}",
        "appoint_elector": lambda: f"appoints the new elector of {where} from own tiles there",
        "place_former_elector": lambda: f"returns the former elector of {where} to its full "
                                        "aristocrat spaces by pushing a knight, or to supply",
    }
    if kind == "vote":
        return election_sentence(view, w)
    make = special.get(str(kind))
    what = make() if make else DECISION_WORDS.get(str(kind), w.label(kind).lower())
    return sentence(f"{w.who(actor)} {what}.")


def election_sentence(view: Mapping[str, Any], w: Words) -> str:
    """The election in progress (spec §5.6, §8): who challenges whom, who votes, who has
    voted (never what, while sealed)."""
    emperor, rival = view.get("emperor"), view.get("rival")
    pending = view.get("pending") or {}
    voters = list(pending.get("seats") or []) if pending.get("kind") == "vote" else []
    ballots = view.get("ballots") or {}
    head = f"Election: {w.who(rival)} (Rival) challenges {w.who(emperor)} (Emperor)"
    if not voters:
        return head + "."
    voted = [s for s in voters if str(s) in ballots]
    waiting = [s for s in voters if str(s) not in ballots]
    text = f"{head}; {w.seats(voters)} {'votes' if len(voters) == 1 else 'vote'} in secret"
    if voted:
        text += f"; {w.seats(voted)} {'has' if len(voted) == 1 else 'have'} voted"
    if waiting and voted:
        text += f", {w.seats(waiting)} not yet"
    return text + "."


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
    said = [f"{words_list(p)} for the {w.label(c)}" for c, p in sides.items()]
    emperor_total, rival_total = totals
    outcome = (f"the Rival won {rival_total} votes to {emperor_total}"
               if rival_total > emperor_total else
               f"the Emperor kept the throne {emperor_total} votes to {rival_total}")
    return sentence(f"last election: {outcome}" + (f" ({'; '.join(said)})" if said else "")
                    + ".")


def vp_sentence(per_seat: Mapping[str, Any]) -> str:
    """ "3 from new electors, 2 from the Emperor track" for one seat's breakdown (§9)."""
    parts = [f"{per_seat[k]} from {words}" for k, words in VP_SOURCE_WORDS.items()
             if isinstance(per_seat.get(k), int) and per_seat[k]]
    return ", ".join(parts) if parts else "no victory points yet"
