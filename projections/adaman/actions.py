"""Adaman's three actions (spec §5), each declared once: the data a recorder sends, the
choices that build it, its chance field, its rule, who sees it and its sentence
(docs/design.md, "Actions and choices")."""

from __future__ import annotations

from marshmallow import Schema, fields

from ..choices import ActionType, public
from ..messages import M
from . import apply, legal, words
from .edition import Components
from .state import State


class SetupData(Schema):
    #: the layout, in the order dealt (chance)
    drawn = fields.List(fields.String(), required=True)


class ControlData(Schema):
    target = fields.String(required=True)
    spend = fields.List(fields.String(), required=True)
    #: the cards turned up by the refill, in order (chance)
    drawn = fields.List(fields.String(), required=True)


class AbandonData(Schema):
    pass


ACTIONS: tuple[ActionType[State, Components], ...] = (
    ActionType("setup", M("Deal the layout"), SetupData, legal.setup_steps, ("drawn",),
               apply.apply_setup, public, words.setup_sentence),
    ActionType("control", M("Control a card"), ControlData, legal.control_steps, ("drawn",),
               apply.apply_control, public, words.control_sentence),
    ActionType("abandon", M("Abandon the game"), AbandonData, legal.abandon_steps, (),
               apply.apply_abandon, public, words.abandon_sentence),
)
