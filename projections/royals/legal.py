"""Royals: who acts now, the choices that build each action (spec §3, §5), and the
enumerated legal actions random playouts use.

The choices (`<type>_steps`, projections/choices.py) offer every legal move and only legal
ones: the setup's colours seat by seat; a draw card by card (its kind, its source, the
display card named); a claim or usurp as the portrait, then the country cards paid one by
one (matching cards and any legal 3-for-1 wild groups), then for a usurp the intrigue cards;
the end of a turn as the hand-limit discards, when a hand is over its limit.

`legal_actions` is a sample (ruling R12), for random playouts only; interfaces build moves
from the choices. Draws: every combination of display cards and deck draws (chance fields
left out). Claims and usurps: one payment per portrait, matching cards first, then the most
plentiful other cards as 3-for-1 (2-for-1) wilds. End of turn: one discard choice (the most
plentiful cards). This is enough for random legal play to finish every game: each turn
draws, and every turn ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

from ..choices import DONE, Choice, Done, Made, Option, Step
from ..messages import M, Mn, capitalised, lowered
from ..rules import Actor, possessive, seat_name
from .apply import allowed_draw_shapes, cubes_available
from .edition import Components, Portrait, intrigue_id, intrigue_pair
from .state import AWAITING_SETUP, DRAW, OVER, PLAY, Seat, State
from .words import (
    colour_word,
    country_name,
    intrigue_label,
    portrait_label,
    portrait_phrase,
    title_name,
)


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    """The table before the setup, then the player whose turn it is; nobody once over."""
    if state.phase == AWAITING_SETUP:
        return ("table",)
    return () if state.phase == OVER else (state.current,)


def legal_actions(state: State, seat: Actor | None, components: Components
                  ) -> list[dict[str, Any]]:
    """Legal actions now. Claims, usurps and hand-limit discards are a representative
    subset: one payment per portrait (matching cards first, then the most plentiful other
    cards as wilds) and one discard choice; every draw combination is listed."""
    actors = to_act(state, components)
    if not actors or (seat is not None and seat not in actors):
        return []
    if state.phase == AWAITING_SETUP:
        auto = auto_action(state, components)
        return [auto] if auto else []
    if state.phase == DRAW:
        return draw_options(state, components)
    return [*play_options(state, components), end_turn_option(state, components)]


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup, with the default colours, is the table's to make before anyone plays."""
    if state.phase != AWAITING_SETUP:
        return None
    return {"type": "setup", "actor": "table",
            "data": {"colours": list(default_colours(state.players, components))}}


def default_colours(players: int, components: Components) -> tuple[str, ...]:
    """Ruling R6: black and white for 2; else the most cubes first, then by name."""
    if players == 2:
        return components.two_player_colours
    counts = components.cube_counts
    return tuple(sorted(counts, key=lambda c: (-counts[c], c)))[:players]


def draw_options(state: State, components: Components) -> list[dict[str, Any]]:
    """Every draw_cards shape allowed now, display choices spelled out."""
    out = []
    deck_cards = len(state.deck) + len(state.discard)
    display = sorted(state.display)
    for country, intrigue in sorted(allowed_draw_shapes(state, components)):
        seen = set()
        for size in range(min(country, len(display)) + 1):
            for chosen in combinations(display, size):
                if chosen in seen or country - size > deck_cards:
                    continue
                seen.add(chosen)
                draws = [{"kind": "country", "source": "display", "card": c} for c in chosen]
                draws += [{"kind": "country", "source": "deck"}] * (country - size)
                draws += [{"kind": "intrigue"}] * intrigue
                out.append({"type": "draw_cards", "actor": state.current,
                            "data": {"draws": draws}})
    return out


def _most_plentiful(hand: Counter[str], count: int) -> list[str] | None:
    """`count` cards from the largest piles first (ties: by id), or None if too few."""
    flat = _piles_first(hand)
    return flat[:count] if count <= len(flat) else None


def _piles_first(hand: Counter[str] | dict[str, int]) -> list[str]:
    """The cards of `hand`, largest piles first (ties: by id): the order wilds are paid in."""
    out: list[str] = []
    for card, held in sorted(hand.items(), key=lambda item: (-item[1], item[0])):
        out += [card] * held
    return out


class _Payer:
    """One exact payment per (country, cost): matching cards first, then wild groups."""

    def __init__(self, components: Components, hand: Counter[str],
                 intrigues: Counter[str]) -> None:
        self.components, self.hand, self.intrigues = components, hand, intrigues
        self.memo: dict[tuple[str, int], list[str] | None] = {}
        self.others = {k: _piles_first({c: n for c, n in hand.items() if c != k})
                       for k in components.countries}

    def country(self, portrait: Portrait) -> list[str] | None:
        matching = min(self.hand[portrait.country], portrait.cost)
        wild = self.components.country_wild * (portrait.cost - matching)
        others = self.others[portrait.country]
        if wild > len(others):
            return None
        return [portrait.country] * matching + others[:wild]

    def intrigue(self, portrait: Portrait) -> list[str] | None:
        need = self.components.intrigue_needed(portrait.title)
        key = (portrait.country, need)
        if key not in self.memo:
            self.memo[key] = self._intrigue(portrait.country, need)
        paid = self.memo[key]
        return None if paid is None else list(paid)

    def _intrigue(self, country: str, need: int) -> list[str] | None:
        if not self.intrigues:
            return None
        showing = sorted(c for c in self.intrigues.elements()
                         if country in intrigue_pair(c))[:need]
        rest = Counter(self.intrigues)
        rest.subtract(showing)
        wild = _most_plentiful(+rest, self.components.intrigue_wild * (need - len(showing)))
        return None if wild is None else showing + wild


def play_options(state: State, components: Components) -> list[dict[str, Any]]:
    """One claim or usurp per portrait the seat can pay for."""
    seat = state.current
    if cubes_available(state, seat, components) < components.cubes_per_claim:
        return []
    payer = _Payer(components, Counter(state.hands[seat].counts()),
                   Counter(state.intrigues[seat].counts()))
    out = []
    for index, portrait in enumerate(components.portraits):
        holder = state.board[index]
        if holder == seat:
            continue
        cards = payer.country(portrait)
        if cards is None:
            continue
        data: dict[str, Any] = {"portrait": portrait.id, "country_cards": cards}
        if holder is not None:
            paid = payer.intrigue(portrait)
            if paid is None:
                continue
            data["intrigue_cards"] = [intrigue_pair(c) for c in paid]
        kind = "claim_noble" if holder is None else "usurp_noble"
        out.append({"type": kind, "actor": seat, "data": data})
    return out


def end_turn_option(state: State, components: Components) -> dict[str, Any]:
    """end_turn with the hand-limit discards taken from the most plentiful cards."""
    seat: Seat = state.current
    hand = Counter(state.hands[seat].counts())
    intrigues = Counter(state.intrigues[seat].counts())
    country = _most_plentiful(hand, max(0, len(state.hands[seat])
                                        - components.hand_limit_country)) or []
    intrigue = _most_plentiful(intrigues, max(0, len(state.intrigues[seat])
                                              - components.hand_limit_intrigue)) or []
    return {"type": "end_turn", "actor": seat,
            "data": {"discard_country": country,
                     "discard_intrigue": [intrigue_pair(c) for c in intrigue]}}


# ---------------------------------------------------------------------------
# The choices of each action (projections/choices.py)
# ---------------------------------------------------------------------------


def setup_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """The table's colours, seat by seat (spec §3: all different, black and white with 2
    players); the start player and the display are chance (tapped at a table)."""
    if state.phase != AWAITING_SETUP or actor != "table":
        return None
    chosen = made.picked("colours")
    if len(chosen) >= state.players:
        return DONE
    palette = components.two_player_colours if state.players == 2 \
        else tuple(components.cube_counts)
    options = tuple(Option(c, capitalised(colour_word(c)),
                           detail=Mn("{count} cube", "{count} cubes", components.cube_counts[c]))
                    for c in palette if c not in chosen)
    who = seat_name(state.names, len(chosen))
    return Choice(("colours",), M("{whose} colour", whose=possessive(who)), options,
                  kind="sequence", fewest=state.players, most=state.players)


# -- draw ----------------------------------------------------------------------------------
def draw_cards_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """The turn's draw card by card (spec §5.1), in the order taken: a country card or an
    intrigue card (as the draw options still allow), a country card from the display or the
    deck, and a display card by its country. The deck and intrigue cards are chance."""
    if state.phase != DRAW or actor != state.current:
        return None
    entries = [e for e in made.picked("draws") if isinstance(e, dict)]
    if entries and not _entry_complete(entries[-1]):
        return _entry_step(state, entries, components)
    country = sum(1 for e in entries if e.get("kind") == "country")
    intrigue = len(entries) - country
    shapes = allowed_draw_shapes(state, components)
    # spec §5.1: the shapes allowed are never a prefix of one another with these
    # components (ruling R21), so a draw that has reached one is complete
    if (country, intrigue) in shapes:
        return DONE
    ahead = [(c, i) for c, i in shapes if c >= country and i >= intrigue]
    if not ahead:
        return None  # not a draw that can be completed (a pick never offered)
    kinds = []
    if any(c > country for c, _ in ahead):
        kinds.append(Option("country", M("A country card"),
                            detail=M("from the display or the deck")))
    if any(i > intrigue for _, i in ahead):
        kinds.append(Option("intrigue", M("An intrigue card"), detail=M("from the intrigue pile")))
    return Choice(("draws", len(entries), "kind"), M("{nth} card to draw", nth=_nth(len(entries))),
                  tuple(kinds))


def _entry_complete(entry: dict[str, Any]) -> bool:
    if entry.get("kind") == "intrigue":
        return True
    return entry.get("source") == "deck" or "card" in entry


def _entry_step(state: State, entries: list[dict[str, Any]], components: Components) -> Choice:
    """The source of a country card being drawn, or the display card it is."""
    index = len(entries) - 1
    taken = Counter(str(e.get("card")) for e in entries[:index] if e.get("source") == "display")
    face_up = Counter(state.display.counts())
    face_up.subtract(taken)
    face_up = +face_up
    if "source" not in entries[-1]:
        from_deck = sum(1 for e in entries[:index] if e.get("source") == "deck")
        in_pile = len(state.deck) + len(state.discard) - from_deck
        sources = []
        if face_up:
            sources.append(Option("display", M("From the display"),
                                  detail=M("{count} face up", count=sum(face_up.values()))))
        if in_pile > 0:
            sources.append(Option("deck", M("From the deck"), detail=M("face down")))
        return Choice(("draws", index, "source"), M("Where the {nth} card comes from",
                                                     nth=lowered(_nth(index))), tuple(sources))
    return Choice(("draws", index, "card"), M("Which card of the display"),
                  tuple(Option(c, country_name(components, c),
                               detail=M("{count} face up", count=face_up[c]))
                        for c in components.countries if face_up[c] > 0))


def _nth(index: int) -> str:
    words = (M("First"), M("Second"), M("Third"), M("Fourth"), M("Fifth"))
    return words[index] if index < len(words) else M("Card {number}:", number=index + 1)


# -- claim and usurp -----------------------------------------------------------------------
def claim_noble_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """A vacant portrait the hand can pay for, then its country cards one by one (spec
    §5.2: exact payment, matching cards and groups of any 3 cards)."""
    return _noble_steps(state, actor, made, components, usurp=False)


def usurp_noble_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """A portrait another player holds that the hands can pay for, its country cards, then
    its intrigue cards one by one (spec §5.3: 1 showing its country, 2 for a King, or any 2
    intrigue cards for each)."""
    return _noble_steps(state, actor, made, components, usurp=True)


def _noble_steps(state: State, actor: Actor, made: Made, components: Components,
                 usurp: bool) -> Step:
    if state.phase != PLAY or actor != state.current:
        return None
    seat = state.current
    wallet = _Wallet(state, seat, components)
    if not made.has("portrait"):
        if cubes_available(state, seat, components) < components.cubes_per_claim:
            return None  # spec §5.2: a claim needs 2 cubes (after recycling, ruling R9)
        options = tuple(_portrait_option(state, p, usurp, components)
                        for i, p in enumerate(components.portraits)
                        if _open(state.board[i], seat, usurp) and wallet.can_pay(p, usurp))
        prompt = M("Which noble to usurp") if usurp else M("Which noble to claim")
        return Choice(("portrait",), prompt, options) if options else None
    if made.get("portrait") not in components.portrait_index:
        return None  # not a portrait offered: nothing completes it
    portrait = components.portrait(str(made.get("portrait")))
    step = wallet.country_step(portrait, made)
    if isinstance(step, Done) and usurp:
        return wallet.intrigue_step(portrait, made)
    return step


def _open(holder: Seat | None, seat: Seat, usurp: bool) -> bool:
    """A claim takes a vacant portrait, a usurp one another player holds (§5.2, §5.3)."""
    return holder is not None and holder != seat if usurp else holder is None


def _portrait_option(state: State, portrait: Portrait, usurp: bool,
                     components: Components) -> Option:
    """ "Paris — King", with its cost and influence (and its holder), under its country."""
    country = country_name(components, portrait.country)
    detail = M("{cards} · influence {influence}", influence=portrait.influence,
               cards=Mn("{count} {country} card", "{count} {country} cards", portrait.cost,
                        country=country))
    if usurp:
        holder = state.board[components.portrait_index[portrait.id]]
        need = components.intrigue_needed(portrait.title)
        detail = Mn("{detail} · {count} intrigue card showing {country} · held by {holder}",
                    "{detail} · {count} intrigue cards showing {country} · held by {holder}",
                    need, detail=detail, country=country,
                    holder=seat_name(state.names, holder))
    return Option(portrait.id, portrait_label(components, portrait), detail=detail,
                  group=country)


def completable(need: int, wild: int, matched: int, total: int, left_matching: int,
                left_other: int) -> bool:
    """Whether a payment so far (`total` cards, `matched` of them matching) can become an
    exact one by adding cards still in hand: k matching cards as themselves and `need` - k
    groups of any `wild` cards, 0 <= k <= need (spec §5.2, §5.3; spec ruling 10)."""
    for k in range(need + 1):
        add = k + wild * (need - k) - total
        if 0 <= add <= left_matching + left_other and matched + min(left_matching, add) >= k:
            return True
    return False


#: (need, wild, matched, total, left matching, left other) of a payment so far, and the
#: cards left in hand
Terms = tuple[tuple[int, int, int, int, int, int], Counter[str]]


class _Wallet:
    """The cards of the seat whose turn it is, as the payments of a portrait use them."""

    def __init__(self, state: State, seat: Seat, components: Components) -> None:
        self.components = components
        self.hand = Counter(state.hands[seat].counts())
        self.intrigues = Counter(state.intrigues[seat].counts())

    def can_pay(self, portrait: Portrait, usurp: bool) -> bool:
        if not completable(*self._country_terms(portrait, [])[0]):
            return False
        return not usurp or completable(*self._intrigue_terms(portrait, [])[0])

    def _country_terms(self, portrait: Portrait, picked: list[str]) -> Terms:
        return _terms(self.components.country_wild, portrait.cost, self.hand, picked,
                      lambda c: c == portrait.country)

    def _intrigue_terms(self, portrait: Portrait, picked: list[str]) -> Terms:
        return _terms(self.components.intrigue_wild,
                      self.components.intrigue_needed(portrait.title), self.intrigues, picked,
                      lambda c: portrait.country in intrigue_pair(c))

    def country_step(self, portrait: Portrait, made: Made) -> Step:
        """The next country card to pay, DONE once the payment is made (None: no payment
        completes the cards picked)."""
        if not made.is_open("country_cards"):
            return DONE
        picked = [str(c) for c in made.picked("country_cards")]
        terms, left = self._country_terms(portrait, picked)
        country = country_name(self.components, portrait.country)
        wild = self.components.country_wild

        def option(card: str) -> Option:
            matching = card == portrait.country
            return Option(card, country_name(self.components, card),
                          detail=M("{count} in hand", count=left[card]),
                          group=M("{country} (matching)", country=country) if matching
                          else M("Other countries (any {wild} count as 1)", wild=wild))
        cards = [c for c in self.components.countries if left[c] > 0]
        prompt = Mn("Country cards paying for {noble}: {count} {country} card, any {wild} cards "
                    "count as 1",
                    "Country cards paying for {noble}: {count} {country} cards, any {wild} "
                    "cards count as 1", portrait.cost,
                    noble=portrait_phrase(self.components, portrait), country=country,
                    wild=wild)
        return _pay_choice("country_cards", prompt, terms, cards, portrait.country.__eq__,
                           option)

    def intrigue_step(self, portrait: Portrait, made: Made) -> Step:
        """The next intrigue card to pay, DONE once the payment is made (None: no payment
        completes the cards picked)."""
        if not made.is_open("intrigue_cards"):
            return DONE
        picked = [intrigue_id(c) or "" for c in made.picked("intrigue_cards")]
        terms, left = self._intrigue_terms(portrait, picked)
        country = country_name(self.components, portrait.country)
        wild = self.components.intrigue_wild
        need = self.components.intrigue_needed(portrait.title)

        def showing(card: str) -> bool:
            return portrait.country in intrigue_pair(card)

        def option(card: str) -> Option:
            return Option(intrigue_pair(card), intrigue_label(self.components, card),
                          detail=M("{count} in hand", count=left[card]),
                          group=M("Showing {country}", country=country) if showing(card)
                          else M("Other intrigue cards (any {wild} count as 1)", wild=wild))
        prompt = Mn("Intrigue cards for the {title}: {count} card showing {country}, any "
                    "{wild} count as 1",
                    "Intrigue cards for the {title}: {count} cards showing {country}, any "
                    "{wild} count as 1", need,
                    title=title_name(self.components, portrait.title), country=country,
                    wild=wild)
        return _pay_choice("intrigue_cards", prompt, terms, sorted(+left), showing, option)


def _terms(wild: int, need: int, held: Counter[str], picked: list[str],
           matches: Callable[[str], bool]) -> Terms:
    """(need, wild, matched, total, left matching, left other, the cards left) of a
    payment so far: what `completable` weighs."""
    left = Counter(held)
    left.subtract(picked)
    left = +left
    left_matching = sum(n for c, n in left.items() if matches(c))
    return (need, wild, sum(1 for c in picked if matches(c)), len(picked), left_matching,
            sum(left.values()) - left_matching), left


def _pay_choice(field: str, prompt: str, terms: tuple[int, int, int, int, int, int],
                cards: list[str], matches: Callable[[str], bool],
                option: Callable[[str], Option]) -> Step:
    """The cards that keep the payment completable; DONE when it is exact and nothing can
    be added (the list ends by itself); None when the cards picked complete no payment."""
    need, wild, matched, total, left_matching, left_other = terms
    if not completable(*terms):
        return None
    offered = []
    for card in cards:
        m = 1 if matches(card) else 0
        if completable(need, wild, matched + m, total + 1, left_matching - m,
                       left_other - (1 - m)):
            offered.append(option(card))
    exact = completable(need, wild, matched, total, 0, 0)
    if not offered and exact:
        return DONE
    return Choice((field,), prompt, tuple(offered), kind="subset", can_end=exact,
                  fewest=need, most=wild * need)


# -- end of turn ---------------------------------------------------------------------------
def end_turn_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """The hand-limit discards (spec §5.4, spec ruling 8: exactly down to the limits), each
    asked only when a hand is over its limit; the refill is chance."""
    if state.phase != PLAY or actor != state.current:
        return None
    seat = state.current
    country = Counter(state.hands[seat].counts())
    country.subtract(str(c) for c in made.picked("discard_country"))
    excess = len(state.hands[seat]) - components.hand_limit_country
    if excess > len(made.picked("discard_country")):
        return Choice(("discard_country",),
                      Mn("Country cards to discard down to {limit} ({count} card)",
                         "Country cards to discard down to {limit} ({count} cards)", excess,
                         limit=components.hand_limit_country),
                      tuple(Option(c, country_name(components, c),
                                   detail=M("{count} in hand", count=country[c]))
                            for c in components.countries if country[c] > 0),
                      kind="subset", fewest=excess, most=excess)
    intrigues = Counter(state.intrigues[seat].counts())
    intrigues.subtract(intrigue_id(c) or "" for c in made.picked("discard_intrigue"))
    excess = len(state.intrigues[seat]) - components.hand_limit_intrigue
    if excess > len(made.picked("discard_intrigue")):
        return Choice(("discard_intrigue",),
                      Mn("Intrigue cards to discard down to {limit} ({count} card)",
                         "Intrigue cards to discard down to {limit} ({count} cards)", excess,
                         limit=components.hand_limit_intrigue),
                      tuple(Option(intrigue_pair(c), intrigue_label(components, c),
                                   detail=M("{count} in hand", count=intrigues[c]))
                            for c in sorted(+intrigues)),
                      kind="subset", fewest=excess, most=excess)
    return Done({"discard_country": [], "discard_intrigue": []})
