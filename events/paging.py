"""What a history page says of each event it shows, without reading the whole log (#23).

Two marks of an event depend on what came after it: whether the action is undone at the
end, and which correction now stands in its place. Both follow from the undo, redo and
correction events aimed at it alone, because undo always takes the top of the stack and
redo the top of the redo stack (projections/replay.py):

- an action (or a correction) is undone at the end iff the last undo aimed at it comes
  after the last redo aimed at it — a new action after an undo only drops the redo stack,
  so what was undone stays undone;
- the correction that stands for an action is the latest one aimed at it that is not
  undone itself.

The store finds the events aimed at a page's seqs through an index on their `target_seq`,
so a page costs O(page) reads however long the game. An undo or redo recorded without a
`target_seq` (chronicle fills it in since #23; older records and imports may lack it) has
its target taken from the cursor before it; a log with more of those than UNAIMED_LIMIT
is marked from the whole log instead, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from projections.replay import META_TYPES, STACKED_META, effective_stack

from .model import Envelope
from .store import Log

#: undo and redo events without a target resolved one by one before reading the whole log
UNAIMED_LIMIT = 16

#: (seq, kind, target seq) of one undo, redo or correction
Aim = tuple[int, str, int]


@dataclass(frozen=True, slots=True)
class Marks:
    """The end-of-log facts a page shows: undone seqs, and each corrected seq's correction."""

    undone: frozenset[int] = frozenset()
    corrected: dict[int, int] = field(default_factory=dict)


def stacked(env: Envelope) -> bool:
    """Does this event take a place on the undo stack (an action or a correction)?"""
    return env["type"] not in META_TYPES or env["type"] in STACKED_META


def target_of(env: Envelope) -> int | None:
    """The seq an undo, redo or correction names as its target, if it names one."""
    target = (env.get("data") or {}).get("target_seq")
    return int(target) if isinstance(target, int | float) else None


def marks_of_log(envelopes: Sequence[Envelope]) -> Marks:
    """The marks of every event, from the whole log (a cheap pass, no reducer)."""
    effective = set(effective_stack(envelopes))
    undone = frozenset(e["seq"] for e in envelopes if stacked(e) and e["seq"] not in effective)
    corrected = {target_of(e): e["seq"] for e in envelopes
                 if e["type"] == "correction" and e["seq"] in effective}
    return Marks(undone, {t: s for t, s in corrected.items() if t is not None})


def marks_from_aims(aims: Iterable[Aim], seqs: Iterable[int]) -> Marks:
    """The marks of `seqs`, from every undo, redo and correction aimed at them or at the
    corrections aimed at them."""
    last: dict[tuple[str, int], int] = {}
    corrections: list[tuple[int, int]] = []
    for seq, kind, target in sorted(aims):
        last[(kind, target)] = seq
        if kind == "correction":
            corrections.append((seq, target))

    def is_undone(seq: int) -> bool:
        return last.get(("undo", seq), -1) > last.get(("redo", seq), -1)

    undone = frozenset(s for s in {*seqs, *(c for c, _ in corrections)} if is_undone(s))
    corrected = {target: seq for seq, target in corrections if seq not in undone}
    return Marks(undone, corrected)


def marks_of_page(store: Log, game_id: str, page: Sequence[Envelope],
                  target_before: Callable[[Envelope], int | None]) -> Marks | None:
    """The marks of one page from the events aimed at it; None when too many undo or redo
    events name no target (the caller marks from the whole log then). `target_before`
    gives an unaimed undo's or redo's target from the cursor before it."""
    unaimed = store.unaimed(game_id)
    if len(unaimed) > UNAIMED_LIMIT:
        return None
    resolved = [(e["seq"], str(e["type"]), target_before(e)) for e in unaimed]
    known = [(seq, kind, t) for seq, kind, t in resolved if t is not None]
    seqs = [e["seq"] for e in page if stacked(e)]
    aims = _aims(store.aimed_at(game_id, seqs)) + [a for a in known if a[2] in set(seqs)]
    corrections = sorted({seq for seq, kind, _ in aims if kind == "correction"} - set(seqs))
    if corrections:
        aims += _aims(store.aimed_at(game_id, corrections)) + [
            a for a in known if a[2] in set(corrections)]
    return marks_from_aims(set(aims), seqs)


def _aims(envelopes: Iterable[Envelope]) -> list[Aim]:
    out = []
    for env in envelopes:
        target = target_of(env)
        if target is not None:
            out.append((int(env["seq"]), str(env["type"]), target))
    return out
