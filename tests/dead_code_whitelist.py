"""What vulture cannot see called because a framework calls it (tests/test_dead_code.py).

Only real framework entry points belong here, each with the framework that calls it; the
routes, commands, schema validators and migrations are recognised by their decorators in
the test itself. Read by vulture, never imported: `framework` is any object.
"""

from typing import Any

framework: Any = None

CALLED_BY_FRAMEWORKS = (
    framework._serialize,  # marshmallow: a custom field's dump hook (events/schemas.py)
    framework._deserialize,  # marshmallow: a custom field's load hook (events/schemas.py)
    framework.Meta,  # marshmallow: a schema's options class (projections/rules.py)
    framework.handle_http_exception,  # flask-smorest: the Api's error hook (api/__init__.py)
    framework._jsonschema_type_mapping,  # apispec: a custom field's JSON Schema (api/schemas.py)
    framework.__lt__,  # Python's sorted(): a Protocol's member (in_the_shadow_of_the_emperor)
    framework._language,  # flask: a template context processor (api/i18n.py)
    framework.extract_edition,  # pybabel: babel.cfg's [extractors] (projections/messages.py)
    framework.Worker,  # gunicorn: --worker-class api.serving.Worker (cli serve)
)
