"""A request with no query string gets the query schema's defaults without webargs' parse
(api/routes.py, `query_arguments`; issue #34), and the same answer as one that spells the
defaults out, parsed by webargs: the defaults here are read from the schemas' fields."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from marshmallow import Schema, fields, missing
from werkzeug.exceptions import HTTPException

from api import schemas as s
from api.routes import query_arguments

from .conftest import auth


def spelled_out(schema: Schema) -> str:
    """The schema's defaults as a query string (by each field's name in the query)."""
    return urlencode({f.data_key or name: f.load_default
                      for name, f in schema.fields.items()
                      if f.load_default not in (None, missing) and not callable(f.load_default)})


@pytest.mark.parametrize(("path", "schema"), [
    ("/games", s.GameQuerySchema()),
    ("/games/{gid}/events", s.EventsQuerySchema()),
    ("/games/{gid}/state", s.StateQuerySchema()),
    ("/games/{gid}/choices", s.ChoicesQuerySchema()),
])
def test_no_query_string_answers_as_the_defaults_spelled_out(client, digital, path, schema):
    gid, _, seat = digital
    url = path.format(gid=gid)
    bare = client.get(url, headers=auth(seat))
    spelled = client.get(f"{url}?{spelled_out(schema)}", headers=auth(seat))
    assert bare.status_code == spelled.status_code == 200, (bare.json, spelled.json)
    assert bare.json == spelled.json


def test_with_a_required_field_no_query_string_is_webargs_to_refuse(app):
    class Needs(Schema):
        at = fields.Integer(required=True)

    view = query_arguments(Needs())(lambda query: query)
    with app.test_request_context("/x"), pytest.raises(HTTPException) as refused:
        view()
    assert refused.value.code == 400, "a 400 naming the field, not a ValidationError's 500"
    with app.test_request_context("/x?at=3"):
        assert view() == {"at": 3}
