"""The state of a game of Thrones and its parts, and the state before start_game.

Spec: docs/games/thrones.md §3 (zones, identifiers) and §15 (suggested state). Every part
is a frozen, slotted dataclass; collections are tuples, frozensets or `Bag`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..messages import M, Message
from ..rules import Bag, replace, with_item
from .edition import CardId, Components, Seat

#: an option's value as game_created carries it (JSON)
OptionValue = str | int | float | bool | None
#: a filter of a lasting effect or a cost reduction (§9): (key, wanted value), sorted
Filter = tuple[tuple[str, object], ...]
TYPES = ("military", "intrigue", "power")
#: §4 and §1: the seed's rules are the defaults; the options restore the published ones
DEFAULT_OPTIONS: Mapping[str, OptionValue] = {
    "military_claim_scope": "participating",
    "defense_compulsory": True,
    "dead_pile_blocks_unique": True,
    "draw_cap": None,
    "allow_mulligan": False,
    # ruling 32: "rules" resolves the revealed plots' when-revealed abilities, "table" leaves
    # them to the table's rulings; no value (the default): the rules in digital play, where
    # nobody may record a plot's effect, the table at a table (`resolves_plots`)
    "when_revealed": None,
}
#: what a person reads for each option (§4), on the new-game form and in `new --help`
OPTION_LABELS: Mapping[str, Message] = {
    "military_claim_scope": M("who a lost military challenge kills: participating "
                              "characters, or any"),
    "defense_compulsory": M("defending a challenge is compulsory"),
    "dead_pile_blocks_unique": M("a unique card in the dead pile keeps its copies out"),
    "draw_cap": M("most cards an effect draws per player per round (no value: no cap)"),
    "allow_mulligan": M("a mulligan is allowed"),
    "when_revealed": M("who resolves the plots' when-revealed abilities: the rules, or the "
                       "table's recorder (no value: the rules in digital play, the "
                       "recorder at a table)"),
}


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
    filter: Filter = ()
    icons: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    when: str = "always"
    standing: bool = False
    players: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Reduction:
    """A pending cost reduction (§7.3): used by the first matching card, ends with the phase."""

    amount: int
    filter: Filter = ()


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
    #: the cards of `removed` that left the game unseen at a concession (its hand, decks and
    #: face-down setup cards, §6.17): others see how many until the game is over (#32)
    removed_unseen: tuple[CardId, ...] = ()
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
class Pick:
    """An ability waiting for other seats' choices (card ruling R2): its user chose its own
    targets (`choices`, frozen), and each (seat, target) of `waiting` is still to choose,
    in that order; the ops apply once the last one has."""

    source: str  # the source as used ("plot:0")
    ability: str
    seat: Seat  # the user
    choices: Any
    waiting: tuple[tuple[Seat, str], ...]
    #: the fields of the trigger an answer binds (a forced ability others choose for:
    #: Snowed Under), frozen; None for a when-revealed plot's
    trigger: Any = None
    #: the use's chance, dealt with its first move when its user chooses the rest once it
    #: has seen it (Raff the Sweetling's look, card ruling L12), frozen; else None
    chance: Any = None


@dataclass(frozen=True, slots=True)
class Restore:
    """What a save needs to put a card back exactly as it was before it was killed or
    discarded from play (ruling 35): the cards in play, the modifiers and the challenge of
    the state before that event (shared with it, not copied)."""

    cards: tuple[InPlay, ...]
    modifiers: tuple[Modifier, ...]
    challenge: Challenge | None
    pile: str  # dead | discard: where the card went


@dataclass(frozen=True, slots=True)
class Trigger:
    """One thing that just happened which an ability may answer (docs/games/
    thrones-abilities.md, "Triggers"): its name, its fields (`$trigger.<field>`) and, for
    `would_be_killed` / `would_be_discarded`, what a save restores."""

    name: str
    fields: tuple[tuple[str, object], ...]
    restore: Restore | None = None

    def get(self, key: str) -> object:
        return dict(self.fields).get(key)


@dataclass(frozen=True, slots=True)
class Window:
    """The open triggers of the last event that was not an answer to them (apply/
    triggers.py, ruling 35), the answers given (source, ability id, trigger number) and, in
    digital play, where the answering stands: `stage` (interrupt, forced, response, done),
    the seats that passed in it and the one seat it waits on."""

    triggers: tuple[Trigger, ...]
    answered: tuple[tuple[str, str, int], ...] = ()
    stage: str = "interrupt"
    passed: frozenset[Seat] = frozenset()
    waiting: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    n: int
    options: tuple[tuple[str, OptionValue], ...]
    names: tuple[str, ...]
    phase: str = "start"  # start setup setup_draw plot draw marshalling challenges dominance
    #                     standing (only while its start is answered: apply/standing.py) over
    step: str = ""  # plot: choose | tie | first_player | when_revealed | titles
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
    mode: str = "table"  # game_created's mode: "digital" or "table" (engine rulings 15-16)
    #: the uses of abilities with a limit: (source, ability id, period stamp), the stamp
    #: naming the challenge, phase or round it counts in (apply/abilities.period)
    ability_uses: tuple[tuple[str, str, str], ...] = ()
    #: the seats whose revealed plot's when-revealed ability is still to resolve, in order;
    #: the first waits for its owner's use_ability (apply/revealed.py, ruling 32)
    revealing: tuple[Seat, ...] = ()
    #: an ability waiting for another seat's choice (ruling 33)
    pick: Pick | None = None
    #: whether the rules resolve the revealed plots' when-revealed abilities (the option
    #: `when_revealed: "rules"`, ruling 32); otherwise they are left to the table, as in
    #: every game recorded before the option existed
    when_revealed: bool = True
    #: the triggers an ability may answer now (apply/triggers.py); None: nothing to answer
    window: Window | None = None
    #: what an ability leaves for a later moment (apply/marks.py): (kind, seat, value) —
    #: "copies" (Good for the Gander copies that seat's plot), "names_plot" (Dragonstone
    #: Port's named plot, paid at the reveal)
    marks: tuple[tuple[str, Seat, str], ...] = ()

    def option(self, key: str) -> OptionValue:
        return dict(self.options).get(key)

    def with_player(self, seat: Seat, **changes: object) -> State:
        return replace(self, players=with_item(self.players, seat, replace(self.players[seat],
                                                                             **changes)))

    @property
    def active(self) -> tuple[Seat, ...]:
        return tuple(s for s in range(self.n) if not self.players[s].conceded)

    @property
    def is_melee(self) -> bool:
        """Three or four players: titles are taken (§2.5)."""
        return self.n > 2


def initial_state(created: Mapping[str, Any], components: Components) -> State:
    """Before start_game: seats and options only."""
    mode = str(created.get("mode") or "table")
    given = dict(created.get("options") or {})
    options = {**DEFAULT_OPTIONS, **given}
    names = tuple(str(n) for n in created["players"])
    return State(n=len(names), options=tuple(sorted(options.items())), names=names,
                 mode=mode, when_revealed=resolves_plots(given, mode))


def resolves_plots(given: Mapping[str, Any], mode: str) -> bool:
    """Ruling 32: whether the rules resolve the revealed plots' when-revealed abilities.
    Chosen "rules" or "table"; no value, the mode's default: the rules in digital play
    (nobody may record a plot's effect there), the table at a table. A game recorded
    before the option existed has no such key and stays the table's, as it was recorded."""
    if "when_revealed" not in given:
        return False
    chosen = given["when_revealed"]
    return chosen == "rules" or (chosen is None and mode == "digital")


# ---------------------------------------------------------------------------
# Turn order (§3)
# ---------------------------------------------------------------------------


def order(state: State, start: Seat | None = None) -> list[Seat]:
    """Active seats clockwise from `start` (default: the first player)."""
    first = state.first_player if start is None else start
    first = 0 if first is None else first
    seats = [(first + i) % state.n for i in range(state.n)]
    return [s for s in seats if not state.players[s].conceded]


def next_after(state: State, current: Seat, start: Seat | None = None) -> Seat | None:
    """The next active seat after `current` in the order from `start`, or None at its end."""
    first = state.first_player if start is None else start
    first = 0 if first is None else first
    seats = [(first + i) % state.n for i in range(state.n)]
    later = seats[seats.index(current) + 1:]
    return next((s for s in later if not state.players[s].conceded), None)
