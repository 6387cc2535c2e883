"""A Game of Thrones in the terminal: the round and phase, the titles, the challenge being
fought as a sentence, then each player's area as it lies on the table (House card, revealed
plot, gold, characters standing or knelt with their power and attachments, locations, hand,
piles). Names come from `ctx.names` (else the view's players) and card names from the
edition's labels through `projections.thrones.words`, so every id reads as the card's name.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from projections import get_rules
from projections.rules import plural, seat_name, words_list
from projections.thrones.words import a_an, label_of, phase_words

from . import BoardContext


@lru_cache(maxsize=1)
def _edition_labels() -> dict[str, str]:
    """The default edition's labels, for a context that brings none."""
    return get_rules("thrones").labels()


class Words:
    """Player names and card labels for one drawing."""

    def __init__(self, view: dict[str, Any], ctx: BoardContext) -> None:
        players = view.get("players") or []
        self.names = list(ctx.names) or [str(p.get("name") or f"Player {i + 1}")
                                         for i, p in enumerate(players)]
        self.labels = dict(ctx.labels) or _edition_labels()
        self.ctx = ctx

    def name(self, seat: Any) -> str:
        return seat_name(self.names, seat)

    def label(self, component: Any) -> str:
        return label_of(component, self.labels)

    def cards(self, ids: Any, empty: str = "none") -> str:
        return ", ".join(self.label(c) for c in ids or ()) or empty

    def style(self, seat: int) -> str:
        return self.ctx.seat_style(seat)


# ---------------------------------------------------------------------------
# The table: round, phase, titles, the challenge
# ---------------------------------------------------------------------------


def _status(view: dict[str, Any], w: Words) -> Text:
    text = Text()
    phase = phase_words(view.get("phase"), w.labels)
    if view.get("round"):
        text.append(f"Round {view['round']}", style="bold")
        text.append(f" · {phase}")
    else:  # before round 1: setup
        text.append(phase[:1].upper() + phase[1:], style="bold")
    if view.get("step") and view.get("phase") == "plot":
        text.append(f" ({w.label(view['step'])})")
    if view.get("first_player") is not None:
        text.append(f" · first player {w.name(view['first_player'])}")
    if view.get("tied"):
        text.append(f" · tied for initiative: {words_list(w.name(s) for s in view['tied'])}")
    acting = [w.name(a) for a in (w.ctx.to_act or view.get("to_act") or ())]
    if acting:
        text.append(" · to act: ")
        text.append(words_list(acting), style="bold")
    return text


def _ending(view: dict[str, Any], w: Words) -> Text | None:
    if view.get("winner") is not None:
        how = {"power": " on power", "concession": " as the others conceded"}.get(
            str(view.get("end_reason")), "")
        return Text(f"Game over: {w.name(view['winner'])} won{how}.", style="bold green")
    if view.get("pending_winner"):
        return Text(f"{words_list(w.name(s) for s in view['pending_winner'])} reached the "
                    "power goal together; the first player chooses the winner.", style="bold")
    return None


def _titles(view: dict[str, Any], w: Words) -> Text | None:
    titles = view.get("titles") or []
    if len(view.get("players") or ()) < 3:
        return None  # a joust has no titles (§2.5)
    held = [f"{w.label(t)} ({w.name(s)})" for s, t in enumerate(titles) if t]
    if not held:
        return Text("Titles: all in the Small Council Chamber")
    return Text("Titles: " + "; ".join(held))


def _fighter(card: Any, index: dict[str, dict[str, Any]], w: Words) -> str:
    entry = index.get(card) or {}
    strength = entry.get("strength")
    return w.label(card) + (f" ({strength} STR)" if strength is not None else "")


def challenge_sentence(ch: dict[str, Any], w: Words) -> str:
    """ "Anna attacks Bo with a military challenge; Bo declares defenders." """
    attacker, defender = w.name(ch.get("attacker")), w.name(ch.get("defender"))
    head = f"{attacker} attacks {defender} with {a_an(str(ch.get('type')))} challenge"
    step = ch.get("step")
    if step == "attackers_declared":
        return f"{head}; {defender} declares defenders."
    if step == "defenders_declared":
        return f"{head}; {attacker} resolves the challenge."
    strength = ch.get("strength") or [0, 0]
    won = (f"{w.name(ch['winner'])} won {strength[0]} to {strength[1]}"
           if ch.get("winner") is not None else "nobody won")
    pending = ch.get("pending") or []
    if pending:
        kind, seat = pending[0]
        todo = {"claim": "applies the claim", "deadly": "applies deadly",
                "targets": "names further opponents for the claim"}.get(kind, "chooses")
        return f"{head}; {won}, and {w.name(seat)} {todo}."
    return f"{head}; {won}."


def _challenge(view: dict[str, Any], w: Words) -> RenderableType | None:
    ch = view.get("challenge")
    if not isinstance(ch, dict):
        return None
    index = {str(c.get("id")): c for c in view.get("in_play") or () if isinstance(c, dict)}
    strength = ch.get("strength") or [0, 0]
    lines = [Text(challenge_sentence(ch, w), style="bold")]
    attackers = ", ".join(_fighter(c, index, w) for c in ch.get("attackers") or ()) or "none"
    defenders = ", ".join(_fighter(c, index, w) for c in ch.get("defenders") or ())
    lines.append(Text(f"Attacking: {attackers} — {strength[0]} STR"))
    # "yet" only while the defender may still declare: after that nobody defended
    nobody = "nobody yet" if ch.get("step") == "attackers_declared" else "nobody"
    lines.append(Text(f"Defending: {defenders or nobody} — {strength[1]} STR"))
    for attacker, target in (ch.get("stealth") or {}).items():
        lines.append(Text(f"Stealth: {w.label(attacker)} bypasses {w.label(target)}"))
    return Panel(Group(*lines), title="Challenge", title_align="left", border_style="red")


# ---------------------------------------------------------------------------
# A player's area
# ---------------------------------------------------------------------------


def _card_line(card: dict[str, Any], attached: list[dict[str, Any]], w: Words) -> Text:
    text = Text(w.label(card.get("id")), style="dim" if card.get("knelt") else "bold")
    facts = []
    if card.get("strength") is not None:
        facts.append(f"{card['strength']} STR")
    facts.append("knelt" if card.get("knelt") else "standing")
    if card.get("power"):
        facts.append(f"{card['power']} power")
    if card.get("duplicates"):
        facts.append(plural(len(card["duplicates"]), "duplicate"))
    text.append(f" ({', '.join(facts)})")
    if attached:
        text.append(" with " + words_list(_attachment(a, w) for a in attached))
    return text


def _attachment(card: dict[str, Any], w: Words) -> str:
    facts = (["knelt"] if card.get("knelt") else []) + \
        ([f"{card['power']} power"] if card.get("power") else [])
    return w.label(card.get("id")) + (f" ({', '.join(facts)})" if facts else "")


def _area(view: dict[str, Any], seat: int, w: Words) -> Panel:
    player = view["players"][seat]
    cards = [c for c in view.get("in_play") or () if isinstance(c, dict)]
    mine = [c for c in cards if c.get("controller") == seat and c.get("host") is None]
    on: dict[str, list[dict[str, Any]]] = {}
    for c in cards:
        if c.get("host") is not None:
            on.setdefault(c["host"], []).append(c)
    rows = Table.grid(padding=(0, 1))
    rows.add_column(style="cyan", no_wrap=True)
    rows.add_column(ratio=1)
    house = f"{player.get('house_power', 0)} power, "
    house += "knelt" if player.get("house_knelt") else "standing"
    chambers = on.get(f"house:{seat}") or []
    if chambers:
        house += " with " + words_list(_attachment(a, w) for a in chambers)
    rows.add_row("House card", house)
    rows.add_row("Plot", _plot(player, view, w))
    rows.add_row("Gold", str(player.get("gold", 0)))
    characters = [c for c in mine if c.get("strength") is not None]
    locations = [c for c in mine if c.get("strength") is None]
    rows.add_row("Characters", _lines(characters, on, w))
    rows.add_row("Locations", _lines(locations, on, w))
    rows.add_row("Hand", _hand(player, w))
    if player.get("setup_count"):
        rows.add_row("Setup", f"{plural(player['setup_count'], 'card')} face down")
    rows.add_row("Decks", f"draw deck {plural(player.get('deck_count', 0), 'card')}, "
                 f"plot deck {plural(player.get('plot_deck_count', 0), 'plot')}")
    rows.add_row("Used plots", w.cards(player.get("used_plots")))
    rows.add_row("Discard pile", w.cards(player.get("discard"), "empty"))
    rows.add_row("Dead pile", w.cards(player.get("dead"), "empty"))
    used = [f"{kind} {n}" for kind, n in (player.get("challenges_used") or {}).items() if n]
    if used:
        rows.add_row("Challenged", ", ".join(used) + " this round")
    return Panel(rows, title=_area_title(view, seat, w), title_align="left",
                 border_style=w.style(seat))


def _area_title(view: dict[str, Any], seat: int, w: Words) -> Text:
    player = view["players"][seat]
    power = (view.get("power") or [])[seat] if seat < len(view.get("power") or []) else \
        player.get("house_power", 0)
    title = Text(w.name(seat), style=w.style(seat))
    title.append(f" · {w.label(player.get('house'))} · {power} power")
    titles = view.get("titles") or []
    if seat < len(titles) and titles[seat]:
        title.append(f" · {w.label(titles[seat])}")
    if player.get("conceded"):
        title.append(" · conceded", style="italic")
    if seat in (w.ctx.to_act or view.get("to_act") or ()):
        title.append(" · to act", style="bold")
    return title


def _plot(player: dict[str, Any], view: dict[str, Any], w: Words) -> str:
    if player.get("revealed_plot"):
        return w.label(player["revealed_plot"])
    if player.get("chosen_plot"):
        return f"{w.label(player['chosen_plot'])} (chosen, face down)"
    if player.get("has_chosen_plot"):
        return "chosen, face down"
    return "none revealed"


def _hand(player: dict[str, Any], w: Words) -> str:
    count = plural(player.get("hand_count", 0), "card")
    if isinstance(player.get("hand"), list):
        return f"{count}: {w.cards(player['hand'])}" if player["hand"] else count
    return count


def _lines(cards: list[dict[str, Any]], on: dict[str, list[dict[str, Any]]], w: Words
           ) -> RenderableType:
    if not cards:
        return Text("none")
    return Group(*(_card_line(c, on.get(str(c.get("id"))) or [], w) for c in cards))


def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    """The whole table: status, titles, the challenge, then every player's area."""
    w = Words(view, ctx)
    players = view.get("players") or []
    parts: list[RenderableType] = [_status(view, w)]
    for extra in (_ending(view, w), _titles(view, w), _challenge(view, w)):
        if extra is not None:
            parts.append(extra)
    seats = [seat for seat in range(len(players)) if isinstance(players[seat], dict)]
    if ctx.compact:
        parts += [_area_line(view, seat, w) for seat in seats]
    else:
        parts += [_area(view, seat, w) for seat in seats]
    return Group(*parts)


def _area_line(view: dict[str, Any], seat: int, w: Words) -> Text:
    """A player's area summed up in a line or two (the compact board)."""
    player = view["players"][seat]
    mine = [c for c in view.get("in_play") or () if isinstance(c, dict)
            and c.get("controller") == seat and c.get("host") is None]
    characters = [c for c in mine if c.get("strength") is not None]
    line = _area_title(view, seat, w)
    line.append(f": plot {_plot(player, view, w)} · gold {player.get('gold', 0)} · "
                f"{plural(len(characters), 'character')} "
                f"({sum(1 for c in characters if not c.get('knelt'))} standing), "
                f"{plural(len(mine) - len(characters), 'location')} · "
                f"hand {plural(player.get('hand_count', 0), 'card')}")
    return line


__all__ = ["board", "challenge_sentence"]
