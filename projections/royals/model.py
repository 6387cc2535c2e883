"""Royals: the state, the markers, the action schemas and the edition schema.

Spec: shared/games/royals.md. Everything here is data; the rules live in `rules.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import Any

from marshmallow import Schema, fields, validate

from ..rules import Bag, IllegalAction

Seat = int
CountryId = str
IntrigueId = str  # the sorted pair joined by "+", e.g. "britain+spain" (review ruling 5)
PortraitId = str

#: phases of a game: before setup, a turn's draw step, its play step, game over
AWAITING_SETUP, DRAW, PLAY, OVER = "awaiting_setup", "draw", "play", "over"


@dataclass(frozen=True, slots=True)
class Marker:
    """One victory-point marker: a city hex, a shield, a disc, a period marker or a title tile."""

    kind: str  # city | shield | noble_house | period | title | title_half
    key: str  # city id; "country:index"; disc index; "period:country:high|low"; title id
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "value": self.value}


@dataclass(frozen=True, slots=True)
class Portrait:
    """A noble space on the board (spec §2, "Board")."""

    id: PortraitId
    name: str
    city: str
    country: CountryId
    title: str
    rank: int
    cost: int
    influence: int
    city_bonus: int


@dataclass(frozen=True, slots=True)
class State:
    players: int
    mode: str
    finish_round: bool  # variant period3_finish_round (spec §9 ruling 5)
    deck: Bag
    removed: Bag
    intrigue_deck: Bag
    hands: tuple[Bag, ...]
    intrigues: tuple[Bag, ...]
    board: tuple[Seat | None, ...]  # per portrait, edition order
    cathedrals: tuple[tuple[int, ...], ...]  # per city, cubes per seat
    tiles: tuple[tuple[int, ...], ...]  # per title (rank order), cubes per seat
    holdings: tuple[tuple[Marker, ...], ...]  # per seat
    phase: str = AWAITING_SETUP
    colours: tuple[str, ...] = ()
    supply: tuple[int, ...] = ()
    start_player: Seat = 0
    current: Seat = 0
    turn_no: int = 0  # turns begun before this one; round 1 is turn_no < players
    period: int = 1
    period_ended: bool = False  # the country pile ran out during this turn (spec §6.4)
    final_round: bool = False  # variant: period 3 is over, the round is being finished
    display: Bag = field(default_factory=Bag)
    discard: Bag = field(default_factory=Bag)
    intrigue_discard: Bag = field(default_factory=Bag)
    out_of_game: tuple[Marker, ...] = ()  # markers nobody won (spec §6.5, §6.6)
    end_reason: str | None = None
    #: the players' names in seat order, for the sentences of refusals; never in a view, so
    #: the stored state digests (of the view) do not depend on them
    names: tuple[str, ...] = ()

    def __getstate__(self) -> list[Any]:
        return [getattr(self, f.name) for f in dataclass_fields(self)]

    def __setstate__(self, values: list[Any]) -> None:
        """Refuse a state pickled with other fields (a snapshot older than `names`): the
        recorder then treats the snapshot as a cache miss and folds from the log."""
        names = [f.name for f in dataclass_fields(self)]
        if len(values) != len(names):
            raise TypeError(f"a Royals state has {len(names)} fields, the pickle {len(values)}")
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)


class Piles:
    """A scratch copy of the card piles for one event, with the run-out rules of spec §6.4.

    Local to one `apply` or `fill_chance` call; never stored.
    """

    def __init__(self, state: State) -> None:
        self._state = state
        self.deck = Counter(state.deck.counts())
        self.discard = Counter(state.discard.counts())
        self.display = Counter(state.display.counts())
        self.intrigue_deck = Counter(state.intrigue_deck.counts())
        self.intrigue_discard = Counter(state.intrigue_discard.counts())
        self.period_ended = state.period_ended

    def draw_country(self, pick: Callable[[Counter[str]], str]) -> str | None:
        """Take one card from the country pile, or None when no card exists at all."""
        if not self.deck:
            # review ruling 2, ruling R2: a card is needed and the pile is empty: reshuffle
            # the discards in lazily; this ends no period
            self.deck, self.discard = self.discard, Counter()
        if not self.deck:
            return None
        card = pick(self.deck)
        take_one(self.deck, card)
        if not self.deck and not self.period_ended:
            # spec §6.4: the last card left the pile: the period ends, the discards are the
            # new pile at once (ruling 7); at most one period ends per turn (review ruling 2)
            self.period_ended = True
            self.deck, self.discard = self.discard, Counter()
        return card

    def draw_intrigue(self, pick: Callable[[Counter[str]], str]) -> str | None:
        """Take one intrigue card; spec §6.3 reshuffles the discards when the pile is empty."""
        if not self.intrigue_deck:
            self.intrigue_deck, self.intrigue_discard = self.intrigue_discard, Counter()
        if not self.intrigue_deck:
            return None
        card = pick(self.intrigue_deck)
        take_one(self.intrigue_deck, card)
        return card

    def bag(self, name: str) -> Bag:
        """One pile as a Bag, reusing the state's Bag when the pile did not change."""
        old: Bag = getattr(self._state, name)
        new = +getattr(self, name)
        return old if new == old.counts() else Bag(new)

    def into(self, state: State, **changes: Any) -> State:
        """`state` with these piles, the run-out flag and `changes`."""
        return replace(state, deck=self.bag("deck"), discard=self.bag("discard"),
                       display=self.bag("display"), intrigue_deck=self.bag("intrigue_deck"),
                       intrigue_discard=self.bag("intrigue_discard"),
                       period_ended=self.period_ended, **changes)


def take_one(counter: Counter[str], card: str) -> None:
    """Remove one `card` from a counter known to hold it, dropping empty entries."""
    counter[card] -= 1
    if counter[card] <= 0:
        del counter[card]


def intrigue_id(pair: Any) -> IntrigueId | None:
    """The id of an intrigue card given as a pair in either order (review ruling 5)."""
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        return None
    if not all(isinstance(c, str) for c in pair):
        return None
    return "+".join(sorted(pair))


def intrigue_pair(card: IntrigueId) -> list[str]:
    return card.split("+")


def counter_of(items: Mapping[str, int] | Bag) -> Counter[str]:
    return Counter(items.counts() if isinstance(items, Bag) else dict(items))


def refuse(code: str, message: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, **details)


# ---------------------------------------------------------------------------
# Action data shapes (spec §3, §5)
# ---------------------------------------------------------------------------


class SetupData(Schema):
    colours = fields.List(fields.String(), required=True)
    start_player = fields.Integer()
    display = fields.List(fields.String())
    players = fields.Integer()  # optional repeat of the player count: must agree
    variants = fields.Dict(keys=fields.String(), values=fields.Boolean())


class DrawEntry(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["country", "intrigue"]))
    source = fields.String(validate=validate.OneOf(["display", "deck"]))
    card = fields.Raw()  # a country id, or a pair of country ids for an intrigue card


class DrawCardsData(Schema):
    draws = fields.List(fields.Nested(DrawEntry), required=True)


class ClaimNobleData(Schema):
    portrait = fields.String(required=True)
    country_cards = fields.List(fields.String(), required=True)


class UsurpNobleData(Schema):
    portrait = fields.String(required=True)
    country_cards = fields.List(fields.String(), required=True)
    intrigue_cards = fields.List(fields.List(fields.String()), required=True)


class EndTurnData(Schema):
    discard_country = fields.List(fields.String(), load_default=list)
    discard_intrigue = fields.List(fields.List(fields.String()), load_default=list)
    refill = fields.List(fields.String())


# ---------------------------------------------------------------------------
# Edition schema: every field the reducer reads
# ---------------------------------------------------------------------------

_pos = validate.Range(min=0)
_one = validate.Range(min=1)


class _Open(Schema):
    class Meta:
        unknown = "include"


class _Country(_Open):
    id = fields.String(required=True)
    name = fields.String(required=True)
    cities = fields.Integer(required=True, validate=_one)


class _Title(_Open):
    id = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, validate=_one)
    cards_required = fields.Integer(required=True, validate=_one)


class _PortraitSchema(_Open):
    id = fields.String(required=True)
    title = fields.String(required=True)
    cards_required = fields.Integer(required=True, validate=_one)
    influence = fields.Integer(required=True, validate=_pos)


class _City(_Open):
    id = fields.String(required=True)
    name = fields.String(required=True)
    country = fields.String(required=True)
    city_bonus = fields.Integer(required=True, validate=_pos)
    portraits = fields.List(fields.Nested(_PortraitSchema), required=True,
                            validate=validate.Length(min=1))


class _CountryCards(_Open):
    per_country = fields.Dict(keys=fields.String(), values=fields.Integer(validate=_pos),
                              required=True)
    removed_by_player_count = fields.Dict(
        keys=fields.String(), values=fields.Dict(keys=fields.String(),
                                                 values=fields.Integer(validate=_pos)),
        required=True)


class _IntrigueKind(_Open):
    countries = fields.List(fields.String(), required=True, validate=validate.Length(equal=2))
    count = fields.Integer(required=True, validate=_pos)


class _IntrigueCards(_Open):
    cards = fields.List(fields.Nested(_IntrigueKind), required=True)


_values = fields.List(fields.Integer(validate=_pos))


class _CountryBonus(_Open):
    values = fields.Dict(keys=fields.String(), values=_values, required=True)


class _NobleHouse(_Open):
    in_play_by_player_count = fields.Dict(keys=fields.String(), values=_values, required=True)


class _PeriodScoring(_Open):
    periods = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1))
    markers = fields.Dict(keys=fields.String(), values=fields.Dict(
        keys=fields.String(), values=fields.List(fields.Integer(validate=_pos),
                                                 validate=validate.Length(equal=2))),
        required=True)


class _Tile(_Open):
    full = fields.Integer(required=True, validate=_pos)
    half = fields.Integer(required=True, validate=_pos)


class _TitleScoring(_Open):
    tiles = fields.Dict(keys=fields.String(), values=fields.Nested(_Tile), required=True)


class _Cubes(_Open):
    per_colour = fields.Dict(keys=fields.String(), values=fields.Integer(validate=_pos),
                             required=True)
    two_player_colours = fields.List(fields.String(), required=True)


class _HandLimits(_Open):
    country = fields.Integer(required=True, validate=_pos)
    intrigue = fields.Integer(required=True, validate=_pos)


class _DrawOption(_Open):
    country = fields.Integer(required=True, validate=_pos)
    intrigue = fields.Integer(required=True, validate=_pos)


class _DrawOptions(_Open):
    three_country = fields.Nested(_DrawOption, required=True)
    one_and_one = fields.Nested(_DrawOption, required=True)


class _FirstRound(_Open):
    by_player_count = fields.Dict(keys=fields.String(), values=_values, required=True)


class _Wild(_Open):
    country_cards_for_one = fields.Integer(required=True, validate=validate.Range(min=2))
    intrigue_cards_for_one = fields.Integer(required=True, validate=validate.Range(min=2))


class EditionSchema(_Open):
    slug = fields.String(required=True, validate=validate.Equal("royals"))
    countries = fields.List(fields.Nested(_Country), required=True,
                            validate=validate.Length(min=1))
    titles = fields.List(fields.Nested(_Title), required=True, validate=validate.Length(min=1))
    cities = fields.List(fields.Nested(_City), required=True, validate=validate.Length(min=1))
    country_cards = fields.Nested(_CountryCards, required=True)
    intrigue_cards = fields.Nested(_IntrigueCards, required=True)
    country_bonus = fields.Nested(_CountryBonus, required=True)
    noble_house_bonus = fields.Nested(_NobleHouse, required=True)
    period_scoring = fields.Nested(_PeriodScoring, required=True)
    title_scoring = fields.Nested(_TitleScoring, required=True)
    cubes = fields.Nested(_Cubes, required=True)
    hand_limits = fields.Nested(_HandLimits, required=True)
    display_size = fields.Integer(required=True, validate=_pos)
    draw_options = fields.Nested(_DrawOptions, required=True)
    first_round_draws = fields.Nested(_FirstRound, required=True)
    wild = fields.Nested(_Wild, required=True)
    intrigue_needed_to_usurp = fields.Dict(keys=fields.String(), values=fields.Raw(),
                                           required=True)
    cubes_per_claim = fields.Integer(required=True, validate=validate.Equal(2))
