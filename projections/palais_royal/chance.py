"""Palais Royal's chance outcomes: the setup layout and the cards drawn at the Back Door
(spec §9), dealt digitally or tapped in at the table."""

from __future__ import annotations

from typing import Any

from ..messages import M
from ..rules import Action, Dealer, seat_name, thaw
from .edition import Components, Noble, NobleId
from .state import State
from .words import label

Slot = dict[str, Any]


def fill_chance(state: State, action: Action, dealer: Dealer,
                components: Components) -> dict[str, Any]:
    """Digital play: the action's data with its chance fields dealt by `dealer`, in a fixed
    order (garden nobles, court layout, start player; a draw's cards)."""
    data: dict[str, Any] = dict(thaw(action.data))
    if action.type == "setup":
        order = dealer.shuffled(components.nobles)
        placed = len(components.space_ids)
        data["garden"] = dict(zip(components.space_ids, order[:placed], strict=True))
        data["set_aside"] = sorted(order[placed:])
        data["court_layout"] = dealer.shuffled(components.tile_ids)
        data["start_player"] = dealer.below(state.player_count)
    elif action.type == "draw_privilege_cards":
        count = data.get("count", 0)
        wanted = min(max(0, count if isinstance(count, int) else 0),
                     len(state.deck) + len(state.discard))
        cards = dealer.shuffled(state.deck)[:wanted]
        if wanted > len(cards):  # the discard pile becomes the new draw pile (§5.8)
            cards += dealer.shuffled(state.discard)[: wanted - len(cards)]
        data["cards"] = cards
    return data


def chance_slots(state: State, action: Action, components: Components) -> list[Slot]:
    """Table mode: the setup is picked position by position (each court position, each
    garden space, then the start player; `set_aside` is left out, the reducer derives it
    from the garden, rulings #11); a draw is the cards in the order turned up.

    A garden slot also carries `groups` (the `GameRules.chance_slots` extension): the
    nobles by the privilege icon, or by the points of those without one, then each look
    once, so a person holding a tile finds it in two taps (rulings #20)."""
    if action.type == "setup":
        return _setup_slots(state, components)
    if action.type == "draw_privilege_cards":
        return _draw_slots(state, action.data.get("count"))
    return []


def _setup_slots(state: State, components: Components) -> list[Slot]:
    # one pool per field: the 9 court tiles, the 42 nobles, the seats (no value is in
    # two of them, so the client's shared subtraction never mixes them)
    tiles, nobles = sorted(components.tile_ids), sorted(components.nobles)
    cols = components.grid_cols  # the layout is row-major (spec §2.1)
    slots = [_slot("court_layout", [i], tiles,
                   M("court tile in row {row}, column {col}", row=i // cols + 1,
                     col=i % cols + 1))
             for i in range(len(components.tile_ids))]
    groups = noble_groups(components)
    slots += [{**_slot("garden", [s], nobles, M("noble on garden {space}",
                                                 space=label(s, components))),
               "groups": groups}
              for s in components.space_ids]
    seats = [{"label": seat_name(state.names, seat), "values": [seat]}
             for seat in range(state.player_count)]
    slots.append({**_slot("start_player", [], list(range(state.player_count)),
                          M("start player")), "groups": [{"label": "", "items": seats}]})
    return slots


def noble_groups(components: Components) -> list[dict[str, Any]]:
    """The nobles for a two-tap pick: a group per privilege icon and per crown value of
    the tiles without one (spec §2.4: what a tile shows), each group holding one item
    per look. Tiles identical in all the rules read (costs, points, privilege) and in
    their label share an item; its `values` are in id order and a pick takes the first
    one still unplaced, since which of two identical tiles lies where changes nothing
    (rulings #20). A fresh copy each time: slots are handed out as data."""
    return [{"label": group, "items": [{"label": label(ids[0], components), "values": list(ids)}
                                       for ids in looks]}
            for group, looks in _noble_looks(components)]


def _noble_looks(components: Components
                 ) -> list[tuple[str, tuple[tuple[NobleId, ...], ...]]]:
    def look(n: Noble) -> tuple[Any, ...]:
        return (n.gold, n.purple, n.blue, n.points, n.privilege, label(n.id, components))

    by_group: dict[tuple[int, int], dict[tuple[Any, ...], list[NobleId]]] = {}
    privileges = components.privileges
    for noble_id in sorted(components.nobles):
        n = components.nobles[noble_id]
        key = (1, privileges.index(n.privilege)) \
            if n.privilege is not None and n.privilege in privileges else (0, n.points)
        by_group.setdefault(key, {}).setdefault(look(n), []).append(noble_id)
    out: list[tuple[str, tuple[tuple[NobleId, ...], ...]]] = []
    for (kind, which), looks in sorted(by_group.items()):
        group: str = (M("nobles with {privilege}", privilege=label(privileges[which], components))
                 if kind else M("{points}-point nobles without a privilege", points=which))
        out.append((group, tuple(tuple(ids) for ids in looks.values())))
    return out


def _draw_slots(state: State, count: Any) -> list[Slot]:
    """Spec §5.8: the cards come off the draw pile; when it runs out the discard pile
    becomes the draw pile, so a draw across the reshuffle takes all of the pile first.

    Within the pile (or within the discard) a single ordered pick; across the reshuffle
    one slot per card, pile cards first. The client subtracts picks across all slots,
    and a card type may lie in both piles, so the discard-part slots offer the pile's
    cards too: once the pile's slots are filled, exactly the discard pile is left."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        return []
    deck, discard = sorted(state.deck), sorted(state.discard)
    wanted = min(count, len(deck) + len(discard))
    if wanted <= len(deck) or not deck:
        return [_slot("cards", [], deck if deck else discard,
                      M("privilege cards drawn, in the order turned up"), many=True,
                      count=wanted)]
    both = sorted(deck + discard)
    return [_slot("cards", [i], deck if i < len(deck) else both,
                  M("privilege card {number} of {count}, from the draw pile", number=i + 1,
                    count=wanted) if i < len(deck) else
                  M("privilege card {number} of {count}, from the reshuffled discard pile",
                    number=i + 1, count=wanted))
            for i in range(wanted)]


def _slot(field: str, path: list[Any], options: list[Any], text: str, *, many: bool = False,
          count: int | None = None) -> Slot:
    """One table-mode chance slot (`GameRules.chance_slots`); `options` is copied."""
    return {"field": field, "path": path, "options": list(options), "many": many,
            "count": count, "label": text}
