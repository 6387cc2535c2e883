"""The service and the store together: any mix of records, undos and redos replays exactly."""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from events import IllegalAction, Recorder
from events.sqlite import SQLiteStore
from projections.replay import fold


class RecordingSession(RuleBasedStateMachine):
    """Record legal actions (the table dealing at random), undo and redo at will."""

    @initialize(seed=st.integers(0, 10_000))
    def open_game(self, seed):
        self.rec = Recorder(SQLiteStore(":memory:"))
        self.rng = random.Random(seed)
        self.game_id = self.rec.create_game({"game": "adaman", "players": ["Ann"]}).id
        rules = self.rec.rules_for(self.rec.game(self.game_id))
        self.rules = rules
        from projections.rules import Action, Dealer

        state = self.rec.cursor(self.game_id)[1].state
        setup = rules.fill_chance(state, Action.of("setup", "table", {}), Dealer(str(seed), 1))
        self.rec.record(self.game_id, {"type": "setup", "actor": "table", "data": setup})

    @rule()
    def record_a_legal_action(self):
        from projections.rules import Action, Dealer

        options = [a for a in self.rec.legal(self.game_id) if a["type"] != "abandon"]
        if not options:
            return
        choice = self.rng.choice(options)
        state = self.rec.cursor(self.game_id)[1].state
        data = self.rules.fill_chance(state, Action.of(choice["type"], 0, choice["data"]),
                                      Dealer(str(self.rng.random()), 0))
        self.rec.record(self.game_id, {**choice, "data": data})

    @rule()
    def undo(self):
        try:
            self.rec.undo(self.game_id)
        except IllegalAction as err:
            assert err.code == "nothing_to_undo"

    @rule()
    def redo(self):
        try:
            self.rec.redo(self.game_id)
        except IllegalAction as err:
            assert err.code == "nothing_to_redo"

    @invariant()
    def stored_log_replays_to_the_served_state(self):
        if not hasattr(self, "rec"):
            return
        envelopes = list(self.rec.store.events(self.game_id))
        replayed = fold(self.rules, envelopes)
        assert self.rec.state(self.game_id)["view"] == self.rules.view(replayed.state, "all")
        assert self.rec.verify_envelopes(envelopes)["ok"]


TestRecordingSession = RecordingSession.TestCase
TestRecordingSession.settings = settings(max_examples=12, stateful_step_count=25,
                                         deadline=None)
