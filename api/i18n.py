"""The reader's language on the web (issue #33; docs/design.md, "Sentences as data").

Which language: `?lang=` in the link, then the `lang` cookie that choice sets (so every link
of the site keeps it), then the browser's `Accept-Language`; English otherwise. Flask-Babel
selects it (and formats dates and numbers); the words come from the rules' own catalogs
(projections/locale, read by projections.messages), so a page, the JSON API, the pages' JS
(`/i18n/<lang>.json`) and the offline recorder all read one .po per language and nothing
is compiled.

The JSON API keeps its machine fields; the sentences in it (the rules' messages) are
rendered in the request's language by the JSON provider, so English stays the default for
scripts and a page in Chinese reads Chinese from the same endpoints.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, abort, g, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel

from projections.messages import (
    DEFAULT,
    LANGUAGES,
    Message,
    catalog,
    language_of,
    localise,
    parse_po,
    render,
)

COOKIE = "lang"
#: BCP 47 tags of our language codes, for <html lang> and Babel
TAGS = {"en": "en", "zh_Hans": "zh-Hans"}
_BABEL_LOCALES = {"en": "en", "zh_Hans": "zh_Hans_CN"}


def reader_language() -> str:
    """The language of this request (en or zh_Hans), chosen once per request."""
    try:
        chosen: str = g.reader_language
        return chosen
    except AttributeError:
        pass
    except RuntimeError:  # outside a request: the English default
        return DEFAULT
    environ = request.environ
    if not environ.get("HTTP_ACCEPT_LANGUAGE") and "lang" not in environ.get(
            "QUERY_STRING", "") and COOKIE not in environ.get("HTTP_COOKIE", ""):
        # nothing asks for a language (a script's request): English, without parsing the
        # query, the cookies and the header, a tenth of a POST's CPU (issue #34)
        g.reader_language = DEFAULT
        return DEFAULT
    wanted = request.args.get("lang") or request.cookies.get(COOKIE)
    if wanted:
        lang = language_of(wanted)
    else:
        best = request.accept_languages.best_match(["en", "zh", "zh-Hans", "zh-CN", "zh-TW",
                                                    "zh-HK", "zh-SG"])
        lang = language_of(best)
    g.reader_language = lang
    return lang


def _babel_locale() -> str:
    return _BABEL_LOCALES[reader_language()]


class LocalisingJSON(DefaultJSONProvider):
    """Flask's JSON, with the rules' sentences rendered in the request's language."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return super().dumps(localise(obj, reader_language()), **kwargs)


def gettext(key: str, **args: Any) -> str:
    """`_()` of the templates: a key of the catalog in the request's language."""
    return render(Message(key, args), reader_language())


def ngettext(one: str, many: str, count: int, **args: Any) -> str:
    """`ngettext()` of the templates: by count, in the request's language."""
    return render(Message(one, {"count": count, **args}, plural=many), reader_language())


@cache
def _js_keys() -> frozenset[str]:
    """The keys the pages' JS uses (messages.pot says where each key is used)."""
    text = resources.files("projections").joinpath("locale/messages.pot").read_text("utf-8")
    return frozenset(e["msgid"] for e in parse_po(text)
                     if any(ref.startswith("api/static/") for ref in e["refs"]))


def js_catalog(lang: str) -> dict[str, Any]:
    """What the pages' `t()` reads: msgid -> the translation (a list of forms for a
    plural), for the keys the JS uses; English needs none (its msgids are the text)."""
    keys = _js_keys()
    out: dict[str, Any] = {}
    for (context, key), text in catalog(lang).items():
        if context is None and key in keys:
            out[key] = list(text) if isinstance(text, tuple) else text
    return out


def switch_links() -> list[dict[str, Any]]:
    """The language switch of every page: this page's link in each language, its other
    parameters (a token, a step) kept."""
    here = reader_language()
    out = []
    for code, name in LANGUAGES.items():
        params = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
        params.append(("lang", TAGS[code]))
        out.append({"code": code, "tag": TAGS[code], "name": name, "current": code == here,
                    "href": f"{request.path}?{urlencode(params)}"})
    return out


def init_app(app: Flask) -> None:
    """Language selection, the templates' gettext, the localising JSON, the JS catalog."""
    app.json_provider_class = LocalisingJSON
    app.json = LocalisingJSON(app)
    Babel(app, locale_selector=_babel_locale)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True)

    @app.context_processor
    def _language() -> dict[str, Any]:
        lang = reader_language()
        return {"lang": lang, "lang_tag": TAGS[lang], "languages": switch_links(),
                "js_catalog": js_catalog(lang)}

    @app.after_request
    def _keep_choice(response: Response) -> Response:
        """A `?lang=` choice is kept in a cookie, so the links of the page keep it."""
        wanted = request.args.get("lang")
        if wanted:
            response.set_cookie(COOKIE, language_of(wanted), max_age=365 * 24 * 3600,
                                samesite="Lax")
        if "Vary" in response.headers:
            response.vary.update(("Accept-Language", "Cookie"))
        else:  # most answers: no header set parsed and written back (issue #34)
            response.headers["Vary"] = "Accept-Language, Cookie"
        return response

    @app.get("/i18n/<lang>.json")
    def _catalog(lang: str) -> Response:
        """The catalog of one language for the pages' JS and the offline recorder."""
        code = language_of(lang) if lang.replace("-", "_") in {*LANGUAGES, *TAGS.values()} \
            else None
        if code is None:
            abort(404)
        response = jsonify({"lang": code, "messages": js_catalog(code)})
        response.headers["Cache-Control"] = "no-cache"
        return response


__all__ = ["TAGS", "gettext", "init_app", "js_catalog", "ngettext", "reader_language",
           "switch_links"]
