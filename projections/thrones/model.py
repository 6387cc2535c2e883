"""State dataclasses, data schemas and small pure helpers of the thrones reducer.

Spec: shared/games/thrones.md §3 (zones, identifiers) and §15 (suggested state).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import fields as dc_fields
from typing import Any

from marshmallow import Schema, fields

from ..rules import Bag, IllegalAction, with_item

CardId = str
Seat = int
_FIELDS: dict[type, tuple[str, ...]] = {}


def replace(obj: Any, **changes: Any) -> Any:
    """`dataclasses.replace` for our frozen slotted dataclasses, without re-running __init__.

    The states are rebuilt on every event; the stock replace was the reducer's hot spot.
    """
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dc_fields(cls))
    for key in changes:
        if key not in names:
            raise TypeError(f"{cls.__name__} has no field {key!r}")
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in names:
        setter(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
TYPES = ("military", "intrigue", "power")


@dataclass(frozen=True, slots=True)
class InPlay:
    """A card in play (character, location or attachment); House cards live on `Player`."""

    id: CardId
    controller: Seat
    knelt: bool = False
    power: int = 0
    host: str | None = None  # attachments (and Chambers on a House card): host id or house:<s>
    duplicates: tuple[CardId, ...] = ()


@dataclass(frozen=True, slots=True)
class Modifier:
    """An active effect (§9): a change to a card's values, with a duration."""

    kind: str  # strength no_strength gain_icon lose_icon gain_keyword lose_keyword
    #            continuous exclude_power no_stand
    card: CardId  # the target, or the source for continuous / exclude_power
    until: str  # challenge | phase | round | source
    amount: int = 0
    value: str = ""
    seat: int = -1  # the seat that recorded it (filter "self"/"opponents")
    filter: tuple[tuple[str, Any], ...] = ()
    icons: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    when: str = "always"
    standing: bool = False
    players: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Reduction:
    """A pending cost reduction (§7.3): used by the first matching card, ends with the phase."""

    amount: int
    filter: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Player:
    house: str
    deck: Bag
    hand: Bag
    plot_deck: Bag
    revealed_plot: CardId | None = None
    used_plots: tuple[CardId, ...] = ()
    discard: tuple[CardId, ...] = ()
    dead: tuple[CardId, ...] = ()
    removed: tuple[CardId, ...] = ()
    gold: int = 0
    house_power: int = 0
    house_knelt: bool = False
    conceded: bool = False
    final_power: int = 0  # total power at concession (ruling 11)
    setup_cards: tuple[tuple[CardId, str | None], ...] = ()  # face down until all set up
    set_up: bool = False
    mulliganed: bool = False
    chosen_plot: CardId | None = None
    used: tuple[int, int, int] = (0, 0, 0)  # challenges initiated this round, by type
    extra: tuple[int, int, int] = (0, 0, 0)  # extra_challenge allowances this phase
    power_defenders: tuple[Seat, ...] = ()  # who defended this round's power challenges
    limited_played: bool = False
    reductions: tuple[Reduction, ...] = ()
    draws_this_round: int = 0


@dataclass(frozen=True, slots=True)
class Challenge:
    type: str
    attacker: Seat
    defender: Seat
    attackers: tuple[CardId, ...]
    defenders: tuple[CardId, ...] = ()
    stealth: tuple[tuple[CardId, CardId], ...] = ()
    step: str = "attackers_declared"  # attackers_declared | defenders_declared | resolved
    declared_none: bool = False
    strength: tuple[int, int] = (0, 0)
    winner: Seat | None = None
    loser: Seat | None = None
    pending: tuple[tuple[str, Seat], ...] = ()  # ("targets"|"claim"|"deadly", seat)
    deadly: int = 0


@dataclass(frozen=True, slots=True)
class State:
    n: int
    options: tuple[tuple[str, Any], ...]
    names: tuple[str, ...]
    phase: str = "start"  # start setup setup_draw plot draw marshalling challenges dominance over
    step: str = ""  # plot: choose | tie | first_player | titles
    round: int = 0
    players: tuple[Player, ...] = ()
    cards: tuple[InPlay, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    setup_first: Seat = 0
    first_player: Seat | None = None
    turn: Seat | None = None
    initiative_winner: Seat | None = None
    tied: tuple[Seat, ...] = ()
    titles: tuple[str | None, ...] = ()
    title_uses: frozenset[str] = frozenset()
    forbids: tuple[tuple[Seat, Seat, str], ...] = ()
    suppress_income: frozenset[Seat] = frozenset()
    skip_taxation: frozenset[Seat] = frozenset()
    swaps: tuple[tuple[Seat, Seat], ...] = ()
    plot_mods: tuple[tuple[Seat, str, str, int, str], ...] = ()  # seat field mode value until
    passed: frozenset[Seat] = frozenset()  # seats done with challenges this phase
    challenge: Challenge | None = None
    dominance_done: bool = False
    pending_winner: tuple[Seat, ...] = ()
    winner: Seat | None = None
    end_reason: str | None = None
    power_issued: int = 0  # net power taken from the pool (conservation check)

    def option(self, key: str) -> Any:
        return dict(self.options).get(key)

    def with_player(self, seat: Seat, **changes: Any) -> State:
        return replace(self, players=with_item(self.players, seat, replace(self.players[seat],
                                                                             **changes)))

    @property
    def active(self) -> tuple[Seat, ...]:
        return tuple(s for s in range(self.n) if not self.players[s].conceded)


def owner_of(card: CardId) -> Seat:
    """The seat in an instance id `p<seat>-NNN[-k]` (§3)."""
    return int(card[1:card.index("-")])


def number_of(card: CardId) -> int:
    return int(card.split("-")[1])


def parse_id(card: Any) -> tuple[Seat, int] | None:
    """(owner, number) of a well-formed instance id, else None."""
    if not isinstance(card, str) or not card.startswith("p"):
        return None
    parts = card[1:].split("-")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 3 and int(parts[2]) < 2:
        return None
    return int(parts[0]), int(parts[1])


def instance_ids(seat: Seat, numbers: list[int]) -> list[CardId]:
    """Instance ids for a deck list: later copies of one number get -2, -3, ... (§3)."""
    seen: dict[int, int] = {}
    out = []
    for num in numbers:
        seen[num] = seen.get(num, 0) + 1
        suffix = "" if seen[num] == 1 else f"-{seen[num]}"
        out.append(f"p{seat}-{num:03d}{suffix}")
    return out


def bad(code: str, message: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, **details)


# ---------------------------------------------------------------------------
# Data schemas (shape only; the rules are checked by the reducer)
# ---------------------------------------------------------------------------


class _Open(Schema):
    class Meta:
        unknown = "raise"


class StartGameData(_Open):
    players = fields.List(fields.Dict(), required=True)
    decks = fields.Dict(load_default=None, allow_none=True)
    options = fields.Dict(load_default=None, allow_none=True)
    setup_first = fields.Integer(load_default=None, allow_none=True)
    setup_hands = fields.Dict(load_default=None, allow_none=True)


class MulliganData(_Open):
    new_hand = fields.List(fields.String(), load_default=None, allow_none=True)


class SetupCardsData(_Open):
    cards = fields.List(fields.Dict(), required=True)


class DrawsData(_Open):
    draws = fields.Dict(load_default=None, allow_none=True)


class PlotData(_Open):
    plot = fields.String(required=True)


class WinnerData(_Open):
    winner = fields.Integer(load_default=None, allow_none=True)


class FirstPlayerData(_Open):
    first_player = fields.Integer(required=True)


class TitleData(_Open):
    title = fields.String(required=True)


class MarshalData(_Open):
    card = fields.String(required=True)
    attach_to = fields.String(load_default=None, allow_none=True)
    as_duplicate = fields.Boolean(load_default=False)
    declared_cost = fields.Integer(load_default=None, allow_none=True)


class EmptyData(_Open):
    pass


class DeclareChallengeData(_Open):
    type = fields.String(required=True)
    defender = fields.Integer(required=True)
    attackers = fields.List(fields.String(), required=True)
    not_kneeling = fields.List(fields.String(), load_default=list)


class StealthData(_Open):
    bypass = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class RedirectData(_Open):
    new_defender = fields.Integer(required=True)


class DefendersData(_Open):
    defenders = fields.List(fields.String(), required=True)
    not_kneeling = fields.List(fields.String(), load_default=list)


class ClaimTargetsData(_Open):
    extra_opponents = fields.List(fields.Integer(), required=True)


class ClaimData(_Open):
    kills = fields.List(fields.String(), load_default=None, allow_none=True)
    discards = fields.List(fields.String(), load_default=None, allow_none=True)
    saves = fields.List(fields.Dict(), load_default=list)
    redirect = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)


class EffectData(_Open):
    source = fields.String(load_default=None, allow_none=True)
    costs = fields.List(fields.Dict(), load_default=list)
    ops = fields.List(fields.Dict(), load_default=list)
    text = fields.String(load_default=None, allow_none=True)


SCHEMAS: dict[str, type[Schema]] = {
    "start_game": StartGameData, "mulligan": MulliganData, "setup_cards": SetupCardsData,
    "setup_draw": DrawsData, "choose_plot": PlotData, "break_initiative_tie": WinnerData,
    "choose_first_player": FirstPlayerData, "choose_title": TitleData,
    "draw_phase": DrawsData, "marshal_card": MarshalData, "end_marshalling": EmptyData,
    "declare_challenge": DeclareChallengeData, "assign_stealth": StealthData,
    "redirect_challenge": RedirectData, "declare_defenders": DefendersData,
    "take_challenge": EmptyData, "resolve_challenge": EmptyData,
    "choose_claim_targets": ClaimTargetsData, "apply_claim": ClaimData,
    "apply_deadly": ClaimData, "end_challenges": EmptyData, "resolve_dominance": EmptyData,
    "end_round": EmptyData, "effect": EffectData, "choose_winner": WinnerData,
    "concede": EmptyData,
}
