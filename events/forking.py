"""Forking a game at any step: "what if she had claimed Paris instead?" (issue #24).

A fork is a new table game whose `game_created` names its origin (game id, seq and hash
at the step) and whose log starts as a copy of the origin's effective history up to that
step (undone actions left out, corrections applied), every action re-applied through the
rules as it is copied. From there it is an ordinary table game with undo. Only what the
caller may see can be forked — a finished game (public to all), or a game the caller sees
whole (the recorder of a table game) — and a fork of a digital game never carries its seed.
"""

from __future__ import annotations

from typing import Any

from projections.audit import effective_actions

from .access import RECORDER, Access, mint_tokens
from .errors import AccessDenied, IllegalAction
from .folding import Folding, GameContext, no_such_step
from .model import GENESIS, new_game_id, seal
from .reading import GameReader
from .rows import game_row
from .turns import Plan, Turns
from .writing import CreatedGame


class Forker:
    """Forks of the games of one store."""

    def __init__(self, folding: Folding) -> None:
        self.folding = folding
        self.store = folding.store
        self.turns = Turns(folding)

    def fork(self, reader: GameReader, at: int) -> CreatedGame:
        """A new table game replaying `reader`'s game up to step `at`."""
        ctx = reader.ctx
        if not reader.sees_all and not reader.sees_whole_record(at):
            raise AccessDenied("fork_needs_full_view", "only what you may see can be forked: "
                               "a finished game, or a table game with its recorder's token; "
                               "this game still hides cards from you")
        missing = no_such_step(ctx, at)
        if missing:
            # 422, not 404: the game in the URL exists, the step is in the request's content
            # (an API tool that finds a 404 right after creating the game reports it missing)
            raise IllegalAction("no_such_step", missing)
        envelopes = list(self.store.events(ctx.id, upto=at))
        skipped = {seq for seq, _, _ in self.folding.cursor(ctx, at).invalid}
        origin = {"game_id": ctx.id, "seq": at, "hash": envelopes[-1]["hash"]}
        plan = self._plan(ctx, envelopes[0]["data"], origin)
        for seq, action in effective_actions(envelopes):
            if seq not in skipped:  # an event a correction made illegal stays behind
                self.turns.apply(plan, plan.cursors[-1], action["type"], action["actor"],
                                 action["data"], None)
        tokens = mint_tokens(len(ctx.players))
        summary = self.turns.summary(plan)
        # the row also says how many of the fork's actions are copies: where it departs
        row = {**plan.ctx.row, "status": summary.status, "result": summary.result,
               "origin": {**origin, "copied": len(plan.envelopes) - 1}}
        self.store.import_game(row, plan.envelopes, tokens.hashes)
        self.store.put_digests(plan.ctx.id, summary.digest_key, summary.digests)
        for env, cursor in zip(plan.envelopes, plan.cursors, strict=True):
            self.folding.remember(plan.ctx, cursor, env)
        done = GameContext(plan.ctx.row, plan.ctx.rules, plan.envelopes[-1])
        table = GameReader(self.folding, done, Access(RECORDER), latest=plan.cursors[-1])
        return CreatedGame(done.id, tokens.recorder, tokens.seats,
                           [table.shown(plan.envelopes[0], None)[0]])

    def _plan(self, ctx: GameContext, created: dict[str, Any], origin: dict[str, Any]) -> Plan:
        """Event 0 of the fork: the origin's game, players, options and edition, at a table."""
        data = {"game": created["game"], "players": created["players"], "mode": "table",
                "options": created.get("options", {}), "edition": created["edition"],
                "seed_commitment": None,
                "rules_version": created.get("rules_version", ctx.rules.rules_version),
                "forked_from": origin}
        gid = new_game_id()
        env = seal(gid, 0, "game_created", "table", data, GENESIS)
        row = game_row(env, ctx.row["rules_version"], title=_title(ctx, origin), origin=origin)
        fork_ctx = GameContext(row, ctx.rules, env)
        return Plan(fork_ctx, env["hash"], [env], [self.folding.folder(fork_ctx).feed(env)])


def _title(ctx: GameContext, origin: dict[str, Any]) -> str:
    base = ctx.row.get("title") or ctx.rules.title
    return f"{base}, explored from step {origin['seq']}"
