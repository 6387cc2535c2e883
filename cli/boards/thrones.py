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
from projections.messages import M, Mn, Seq, capitalised, render
from projections.rules import seat_name
from projections.thrones.words import a_challenge, label_of, phase_words

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
        return render(seat_name(self.names, seat), self.ctx.lang)

    def label(self, component: Any) -> str:
        return render(label_of(component, self.labels), self.ctx.lang)

    def say(self, value: Any) -> str:
        """Words of the board (a message) in the reader's language."""
        return render(value, self.ctx.lang)

    def cards(self, ids: Any, empty: str | None = None) -> str:
        named = [self.label(c) for c in ids or ()]
        return self.say(Seq(named, "comma")) if named else self.say(empty or M("none"))

    def style(self, seat: int) -> str:
        return self.ctx.seat_style(seat)


# ---------------------------------------------------------------------------
# The table: round, phase, titles, the challenge
# ---------------------------------------------------------------------------


def _status(view: dict[str, Any], w: Words) -> Text:
    text = Text()
    phase = phase_words(view.get("phase"), w.labels)
    if view.get("round"):
        text.append(w.say(M("Round {round}", round=view["round"])), style="bold")
        text.append(f" · {w.say(phase)}")
    else:  # before round 1: setup
        text.append(w.say(capitalised(phase)), style="bold")
    if view.get("step") and view.get("phase") == "plot":
        text.append(w.say(M(" ({step})", step=w.label(view["step"]))))
    if view.get("first_player") is not None:
        text.append(w.say(M(" · first player {player}", player=w.name(view["first_player"]))))
    if view.get("tied"):
        text.append(w.say(M(" · tied for initiative: {players}",
                            players=Seq(w.name(s) for s in view["tied"]))))
    acting = [w.name(a) for a in (w.ctx.to_act or view.get("to_act") or ())]
    if acting:
        text.append(w.say(M(" · to act: ")))
        text.append(w.say(Seq(acting)), style="bold")
    return text


def _ending(view: dict[str, Any], w: Words) -> Text | None:
    if view.get("winner") is not None:
        winner = w.name(view["winner"])
        how = {"power": M("Game over: {player} won on power.", player=winner),
               "concession": M("Game over: {player} won as the others conceded.",
                               player=winner)}.get(str(view.get("end_reason")))
        return Text(w.say(how or M("Game over: {player} won.", player=winner)),
                    style="bold green")
    if view.get("pending_winner"):
        return Text(w.say(M("{players} reached the power goal together; the first player "
                            "chooses the winner.",
                            players=Seq(w.name(s) for s in view["pending_winner"]))),
                    style="bold")
    return None


def _titles(view: dict[str, Any], w: Words) -> Text | None:
    titles = view.get("titles") or []
    if len(view.get("players") or ()) < 3:
        return None  # a joust has no titles (§2.5)
    held = [M("{title} ({player})", title=w.label(t), player=w.name(s))
            for s, t in enumerate(titles) if t]
    if not held:
        return Text(w.say(M("Titles: all in the Small Council Chamber")))
    return Text(w.say(M("Titles: {titles}", titles=Seq(held, "comma"))))


def _fighter(card: Any, index: dict[str, dict[str, Any]], w: Words) -> str:
    entry = index.get(card) or {}
    strength = entry.get("strength")
    return w.say(M("{card} ({strength} STR)", card=w.label(card), strength=strength)) \
        if strength is not None else w.label(card)


def challenge_sentence(ch: dict[str, Any], w: Words) -> str:
    """ "Anna attacks Bo with a military challenge; Bo declares defenders." """
    attacker, defender = w.name(ch.get("attacker")), w.name(ch.get("defender"))
    head = M("{attacker} attacks {defender} with {challenge}", attacker=attacker,
             defender=defender, challenge=a_challenge(ch.get("type")))
    step = ch.get("step")
    if step == "attackers_declared":
        return w.say(M("{head}; {player} declares defenders.", head=head, player=defender))
    if step == "defenders_declared":
        return w.say(M("{head}; {player} resolves the challenge.", head=head, player=attacker))
    strength = ch.get("strength") or [0, 0]
    won = M("{player} won {high} to {low}", player=w.name(ch["winner"]), high=strength[0],
            low=strength[1]) if ch.get("winner") is not None else M("nobody won")
    pending = ch.get("pending") or []
    if pending:
        kind, seat = pending[0]
        todo = TODO.get(kind, M("chooses"))
        return w.say(M("{head}; {won}, and {player} {todo}.", head=head, won=won,
                       player=w.name(seat), todo=todo))
    return w.say(M("{head}; {won}.", head=head, won=won))


#: what the player a challenge waits for does next
TODO = {"claim": M("applies the claim"), "deadly": M("applies deadly"),
        "targets": M("names further opponents for the claim")}


def _challenge(view: dict[str, Any], w: Words) -> RenderableType | None:
    ch = view.get("challenge")
    if not isinstance(ch, dict):
        return None
    index = {str(c.get("id")): c for c in view.get("in_play") or () if isinstance(c, dict)}
    strength = ch.get("strength") or [0, 0]
    lines = [Text(challenge_sentence(ch, w), style="bold")]
    attackers = [_fighter(c, index, w) for c in ch.get("attackers") or ()]
    defenders = [_fighter(c, index, w) for c in ch.get("defenders") or ()]
    lines.append(Text(w.say(M("Attacking: {cards} — {strength} STR",
                              cards=Seq(attackers, "comma") if attackers else M("none"),
                              strength=strength[0]))))
    # "yet" only while the defender may still declare: after that nobody defended
    nobody = M("nobody yet") if ch.get("step") == "attackers_declared" else M("nobody")
    lines.append(Text(w.say(M("Defending: {cards} — {strength} STR",
                              cards=Seq(defenders, "comma") if defenders else nobody,
                              strength=strength[1]))))
    for attacker, target in (ch.get("stealth") or {}).items():
        lines.append(Text(w.say(M("Stealth: {card} bypasses {target}", card=w.label(attacker),
                                  target=w.label(target)))))
    return Panel(Group(*lines), title=w.say(M("Challenge")), title_align="left",
                 border_style="red")


# ---------------------------------------------------------------------------
# A player's area
# ---------------------------------------------------------------------------


def _card_line(card: dict[str, Any], attached: list[dict[str, Any]], w: Words) -> Text:
    text = Text(w.label(card.get("id")), style="dim" if card.get("knelt") else "bold")
    facts: list[Any] = []
    if card.get("strength") is not None:
        facts.append(M("{strength} STR", strength=card["strength"]))
    facts.append(M("knelt") if card.get("knelt") else M("standing"))
    if card.get("power"):
        facts.append(M("{power} power", power=card["power"]))
    if card.get("duplicates"):
        facts.append(Mn("{count} duplicate", "{count} duplicates", len(card["duplicates"])))
    text.append(w.say(M(" ({facts})", facts=Seq(facts, "comma"))))
    if attached:
        text.append(w.say(M(" with {cards}", cards=Seq(_attachment(a, w) for a in attached))))
    return text


def _attachment(card: dict[str, Any], w: Words) -> str:
    facts = ([M("knelt")] if card.get("knelt") else []) + \
        ([M("{power} power", power=card["power"])] if card.get("power") else [])
    name = w.label(card.get("id"))
    return w.say(M("{card} ({facts})", card=name, facts=Seq(facts, "comma"))) if facts \
        else name


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
    house = M("{power} power, knelt", power=player.get("house_power", 0)) \
        if player.get("house_knelt") else \
        M("{power} power, standing", power=player.get("house_power", 0))
    chambers = on.get(f"house:{seat}") or []
    if chambers:
        house = M("{house} with {cards}", house=house,
                  cards=Seq(_attachment(a, w) for a in chambers))
    say = w.say
    rows.add_row(say(M("House card")), say(house))
    rows.add_row(say(M("Plot")), _plot(player, view, w))
    rows.add_row(say(M("Gold")), str(player.get("gold", 0)))
    characters = [c for c in mine if c.get("strength") is not None]
    locations = [c for c in mine if c.get("strength") is None]
    rows.add_row(say(M("Characters")), _lines(characters, on, w))
    rows.add_row(say(M("Locations")), _lines(locations, on, w))
    rows.add_row(say(M("Hand")), _hand(player, w))
    if player.get("setup_count"):
        rows.add_row(say(M("Setup")), say(Mn("{count} card face down", "{count} cards face down",
                                             player["setup_count"])))
    rows.add_row(say(M("Decks")), say(M("draw deck {cards}, plot deck {plots}",
                                        cards=_count(player.get("deck_count", 0)),
                                        plots=Mn("{count} plot", "{count} plots",
                                                 player.get("plot_deck_count", 0)))))
    rows.add_row(say(M("Used plots")), w.cards(player.get("used_plots")))
    rows.add_row(say(M("Discard pile")), w.cards(player.get("discard"), M("empty")))
    rows.add_row(say(M("Dead pile")), w.cards(player.get("dead"), M("empty")))
    used = [M("{kind} {count}", kind=w.label(kind), count=n)
            for kind, n in (player.get("challenges_used") or {}).items() if n]
    if used:
        rows.add_row(say(M("Challenged")), say(M("{challenges} this round",
                                                 challenges=Seq(used, "comma"))))
    return Panel(rows, title=_area_title(view, seat, w), title_align="left",
                 border_style=w.style(seat))


def _area_title(view: dict[str, Any], seat: int, w: Words) -> Text:
    player = view["players"][seat]
    power = (view.get("power") or [])[seat] if seat < len(view.get("power") or []) else \
        player.get("house_power", 0)
    title = Text(w.name(seat), style=w.style(seat))
    title.append(w.say(M(" · {house} · {power} power", house=w.label(player.get("house")),
                         power=power)))
    titles = view.get("titles") or []
    if seat < len(titles) and titles[seat]:
        title.append(f" · {w.label(titles[seat])}")
    if player.get("conceded"):
        title.append(w.say(M(" · conceded")), style="italic")
    if seat in (w.ctx.to_act or view.get("to_act") or ()):
        title.append(w.say(M(" · to act")), style="bold")
    return title


def _plot(player: dict[str, Any], view: dict[str, Any], w: Words) -> str:
    if player.get("revealed_plot"):
        return w.label(player["revealed_plot"])
    if player.get("chosen_plot"):
        return w.say(M("{plot} (chosen, face down)", plot=w.label(player["chosen_plot"])))
    if player.get("has_chosen_plot"):
        return w.say(M("chosen, face down"))
    return w.say(M("none revealed"))


def _count(n: int) -> str:
    return Mn("{count} card", "{count} cards", n)


def _hand(player: dict[str, Any], w: Words) -> str:
    count = _count(player.get("hand_count", 0))
    if isinstance(player.get("hand"), list) and player["hand"]:
        return w.say(M("{count}: {cards}", count=count, cards=w.cards(player["hand"])))
    return w.say(count)


def _lines(cards: list[dict[str, Any]], on: dict[str, list[dict[str, Any]]], w: Words
           ) -> RenderableType:
    if not cards:
        return Text(w.say(M("none")))
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
    line.append(w.say(M(": plot {plot} · gold {gold} · {characters} ({standing} standing), "
                        "{locations} · hand {hand}", plot=_plot(player, view, w),
                        gold=player.get("gold", 0),
                        characters=Mn("{count} character", "{count} characters",
                                      len(characters)),
                        standing=sum(1 for c in characters if not c.get("knelt")),
                        locations=Mn("{count} location", "{count} locations",
                                     len(mine) - len(characters)),
                        hand=_count(player.get("hand_count", 0)))))
    return line


__all__ = ["board", "challenge_sentence"]
