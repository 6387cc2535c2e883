"""What a Thrones move decided that its data does not say: who won a challenge and by how
much (§8.6), who won dominance and with what total (§7.5). The log's sentence for the
move goes on with these words (`GameRules.outcome`), so a reader of the log learns who
won without stepping to the board. The deciding rules are the reducers' own
(`challenge_outcome`, `dominance_outcome`); here they are only put into words."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action, seat_name, words_list
from .apply.challenges import challenge_outcome
from .apply.rounds import dominance_outcome
from .edition import Components
from .state import State


def outcome_words(before: State, action: Action, names: Sequence[str],
                  ed: Components) -> str | None:
    """ "Anna won 5 to 3", "nobody won (no strength on either side)", "Bo won with 9 (Anna 7)",
    "a tie at 6: nobody gains power"; None for any other move."""
    if action.type == "resolve_challenge" and before.challenge is not None:
        winner, att, dfn = challenge_outcome(before, before.challenge, ed)
        if winner is None:
            return "nobody won (no strength on either side)"
        high, low = (att, dfn) if winner == before.challenge.attacker else (dfn, att)
        tie = " (the attacker wins a tie)" if high == low else ""
        return f"{seat_name(names, winner)} won {high} to {low}{tie}"
    if action.type == "resolve_dominance":
        winner, totals = dominance_outcome(before, ed)
        others = words_list(f"{seat_name(names, s)} {t}" for s, t in totals.items()
                            if s != winner)
        if winner is None:
            return f"a tie for the highest total, so nobody gains power ({others})"
        return f"{seat_name(names, winner)} won with {totals[winner]} ({others})"
    return None
