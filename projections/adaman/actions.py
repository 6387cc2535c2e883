"""The data of Adaman's three actions (spec §5): what a recorder sends for each."""

from __future__ import annotations

from marshmallow import Schema, fields


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


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "setup": SetupData, "control": ControlData, "abandon": AbandonData,
}
CHANCE_FIELDS: dict[str, tuple[str, ...]] = {"setup": ("drawn",), "control": ("drawn",)}
