"""Data shapes of In the Shadow of the Emperor: action `data` schemas and the edition schema.

Split from `in_the_shadow_of_the_emperor.py` to keep the reducer module readable. Spec:
shared/games/in_the_shadow_of_the_emperor.md, §2 (reference formats) and §6 (fields).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

AGES_FIELD = fields.Integer


class AristocratRef(Schema):
    owner = fields.Integer(required=True)
    at = fields.String(required=True)
    side = fields.String(required=True)
    age = fields.Integer(required=True)


class KnightLoc(Schema):
    electorate = fields.String(required=True)
    slot = fields.String(required=True)


def _push() -> fields.Field:
    return fields.Integer(allow_none=True, load_default=None)


class SetupData(Schema):
    players = fields.Integer(required=True)
    emperor = fields.Integer(required=True)


class ElectorateData(Schema):
    electorate = fields.String(required=True)


class KnightPlaceData(Schema):
    electorate = fields.String(required=True)
    slot = fields.String(required=True)


class EffectFields(Schema):
    """The effect fields shared by `buy_card` and the Trier privilege (spec §6.3)."""

    card = fields.String()
    target = fields.Nested(AristocratRef)
    direction = fields.String()
    aristocrat = fields.Nested(AristocratRef)
    to = fields.String()
    electorate = fields.String(allow_none=True)
    push_knight_owner = _push()


class BuyCardData(EffectFields):
    card = fields.String(required=True)


class UsePrivilegeData(EffectFields):
    privilege = fields.String(required=True)


class KnightActionData(Schema):
    from_ = fields.Nested(KnightLoc, data_key="from", allow_none=True, load_default=None)
    to = fields.Nested(KnightLoc, required=True)


class EmptyData(Schema):
    pass


class ThroneData(Schema):
    aristocrat = fields.Nested(AristocratRef, allow_none=True, required=True)


class PlaceSonData(Schema):
    electorate = fields.String(allow_none=True, required=True)
    push_knight_owner = _push()


class ProposeData(Schema):
    target = fields.Nested(AristocratRef, required=True)


class AnswerData(Schema):
    accept = fields.Boolean(required=True)


class BreakTieData(Schema):
    electorate = fields.String(required=True)
    winner = fields.Integer(required=True)


class AppointData(Schema):
    electorate = fields.String(required=True)
    aristocrat = fields.Nested(AristocratRef, required=True)


class FormerElectorData(Schema):
    electorate = fields.String(required=True)
    to = fields.String(required=True, validate=validate.OneOf(["court", "supply"]))
    push_knight_owner = _push()


class TargetData(Schema):
    electorate = fields.String(allow_none=True, required=True)


class CastVoteData(Schema):
    choice = fields.String(required=True)


class RevealVotesData(Schema):
    votes = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class FormerEmperorData(Schema):
    electorate = fields.String(allow_none=True, required=True)
    push_knight_owner = _push()


class EmperorCityData(Schema):
    mode = fields.String(required=True)
    from_ = fields.String(data_key="from", allow_none=True, load_default=None)
    to = fields.String(allow_none=True, load_default=None)


ACTION_SCHEMAS: Mapping[str, type[Schema]] = {
    "setup": SetupData,
    "place_start_empire_city": ElectorateData,
    "place_start_elector": ElectorateData,
    "place_start_aristocrat": ElectorateData,
    "place_start_knight": KnightPlaceData,
    "fill_throne": ThroneData,
    "place_son": PlaceSonData,
    "propose_marriage": ProposeData,
    "answer_proposal": AnswerData,
    "send_to_convent": EmptyData,
    "buy_card": BuyCardData,
    "use_privilege": UsePrivilegeData,
    "knight_action": KnightActionData,
    "pass": EmptyData,
    "break_tie": BreakTieData,
    "appoint_elector": AppointData,
    "place_former_elector": FormerElectorData,
    "choose_church_influence_target": TargetData,
    "choose_excommunication_target": TargetData,
    "cast_vote": CastVoteData,
    "reveal_votes": RevealVotesData,
    "seat_emperor": ThroneData,
    "place_former_emperor": FormerEmperorData,
    "emperor_city_action": EmperorCityData,
}


# ---------------------------------------------------------------------------
# The edition: every field the reducer reads
# ---------------------------------------------------------------------------

_INT = fields.Integer
_NONNEG = validate.Range(min=0)


class _Open(Schema):
    class Meta:
        unknown = "include"


class _Electorate(_Open):
    id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["spiritual", "secular"]))
    aristocrat_spaces = _INT(required=True, validate=validate.Range(min=1))
    city_spaces = _INT(required=True, validate=_NONNEG)
    castle_spaces = _INT(required=True, validate=_NONNEG)
    extra_aristocrat_spaces_5p = _INT(required=True, validate=_NONNEG)
    elector_must_be_single = fields.Boolean(required=True)


class _Card(_Open):
    id = fields.String(required=True)
    color = fields.String(required=True, validate=validate.OneOf(["blue", "red", "none"]))
    cost = fields.Raw(required=True)
    phase_used = _INT(required=True)
    cost_by_city_number = fields.Dict(keys=fields.String(), values=_INT())
    vp_by_city_number = fields.Dict(keys=fields.String(), values=_INT())
    only_via_privilege = fields.String()
    reference_card = fields.Boolean()


class _Influence(_Open):
    city = _INT(required=True)
    knight = _INT(required=True)
    single = _INT(required=True)
    couple = _INT(required=True)
    empire_city_to_emperor = _INT(required=True)
    elector_tile_counts = fields.Boolean(required=True)


class _Thalers(_Open):
    start = _INT(required=True, validate=_NONNEG)
    max = _INT(required=True, validate=_NONNEG)


class _Income(_Open):
    base = _INT(required=True)
    per_own_city_on_board = _INT(required=True)
    per_other_players_city_in_own_electorate = _INT(required=True)
    saxony_elector_bonus = _INT(required=True)


class _VictoryPoints(_Open):
    new_elector_appointed = _INT(required=True)
    daughter_married = _INT(required=True)
    voted_for_election_winner = _INT(required=True)
    indulgence = _INT(required=True)
    mainz_privilege = _INT(required=True)


class _Components(_Open):
    aristocrat_tiles = _INT(required=True, validate=validate.Range(min=1))
    knights = _INT(required=True, validate=_NONNEG)
    cities = _INT(required=True, validate=_NONNEG)


class _Common(_Open):
    empire_cities = _INT(required=True, validate=_NONNEG)


class _TrackEntry(_Open):
    vp = _INT(required=True)
    thalers = _INT(required=True)
    empire_city = fields.String(required=True,
                                validate=validate.OneOf(["place_or_move", "move", "none"]))


class _Edition(_Open):
    slug = fields.String(required=True, validate=validate.Equal("in_the_shadow_of_the_emperor"))
    rounds = _INT(required=True, validate=validate.Range(min=1))
    first_round_starts_at_phase = _INT(required=True, validate=validate.Range(min=1, max=8))
    ages = fields.List(_INT(), required=True, validate=validate.Length(min=3))
    influence = fields.Nested(_Influence, required=True)
    thalers = fields.Nested(_Thalers, required=True)
    income = fields.Nested(_Income, required=True)
    victory_points = fields.Nested(_VictoryPoints, required=True)
    nun_thalers = _INT(required=True)
    per_player_components = fields.Nested(_Components, required=True)
    common_components = fields.Nested(_Common, required=True)
    electorate_order = fields.List(fields.String(), required=True)
    electorates = fields.List(fields.Nested(_Electorate), required=True)
    action_cards = fields.List(fields.Nested(_Card), required=True)
    card_counts = fields.Dict(keys=fields.String(),
                              values=fields.Dict(keys=fields.String(), values=_INT()),
                              required=True)
    emperor_track = fields.Dict(keys=fields.String(), values=fields.Nested(_TrackEntry),
                                required=True)


ELECTORATE_IDS = ("mainz", "trier", "koeln", "bohemia", "palatinate", "saxony", "brandenburg")
CARD_IDS = ("doctor", "move", "rival", "pope", "church_influence", "excommunication",
            "indulgence", "permit", "ordinance", "promotion", "foreign_kings_daughter",
            "knight", "gray_eminence")


def edition_problems(content: Mapping[str, Any], player_counts: tuple[int, ...]) -> list[str]:
    """Problems with an edition of this game (empty: usable)."""
    try:
        _Edition().load(dict(content))
    except ValidationError as err:
        return [f"{key}: {msg}" for key, msg in sorted(err.normalized_messages().items())]
    problems: list[str] = []
    ids = {e["id"] for e in content["electorates"]}
    if set(content["electorate_order"]) != ids or ids != set(ELECTORATE_IDS):
        problems.append(f"electorates must be exactly {', '.join(ELECTORATE_IDS)}")
    cards = {c["id"]: c for c in content["action_cards"]}
    problems += [f"action_cards: {c} is missing" for c in CARD_IDS if c not in cards]
    permit = cards.get("permit", {})
    if "cost_by_city_number" not in permit or "vp_by_city_number" not in permit:
        problems.append("action_cards: permit needs cost_by_city_number and vp_by_city_number")
    problems += [f"card_counts: no column for {n} players" for n in player_counts
                 if str(n) not in content["card_counts"]]
    problems += [f"emperor_track: round {r} is missing"
                 for r in range(1, content["rounds"] + 1)
                 if str(r) not in content["emperor_track"]]
    return problems
