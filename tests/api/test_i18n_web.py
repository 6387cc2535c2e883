"""The web speaks the reader's language (issue #33): `?lang=` in the link, then the cookie it
sets, then `Accept-Language`; English by default. Every page's own words are Chinese in
zh-Hans (names, titles and the machine words a script passes back aside), every page has
the language switch keeping the link's other parameters, and the JSON API renders the
rules' sentences in the request's language while its machine fields (codes, ids) stay.
The page check is shown to fail on a planted untranslated key.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from ..conftest import FIXTURES
from ..projections.test_i18n_render import english_words

ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
#: words on a page that are not the interface's: the site's and the games' names, "API"
OWN = {"chronicle", "API", "English", "Adaman", "Royals", "Palais", "Royal", "In", "the",
       "Shadow", "of", "Emperor", "Game", "Thrones", "The", "Card", "first", "edition", "Home",
       "End", "HTTP"}


class _Text(HTMLParser):
    """The words a person reads on a page: text outside scripts, and titles, labels and
    placeholders of elements."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder") and value:
                self.words.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.words.append(data)


def page_words(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.words)


def _left(html: str, names: list[str]) -> list[str]:
    return [w for w in english_words(page_words(html), names) if w not in OWN]


@pytest.fixture
def imported(client) -> dict:
    text = (FIXTURES / "adaman" / "won.jsonl").read_text("utf-8")
    return client.post("/games/import", data=text, content_type="application/x-ndjson").json


@pytest.fixture
def game_id(imported) -> str:
    return imported["id"]


def _pages(game_id: str) -> list[str]:
    return ["/", "/games/new", "/statistics", f"/games/{game_id}/replay",
            f"/games/{game_id}/record", "/games/x1y2z3/replay"]


def test_every_page_reads_chinese_for_a_chinese_browser(client, game_id):
    for path in _pages(game_id):
        r = client.get(path, headers=ZH)
        html = r.get_data(as_text=True)
        assert '<html lang="zh-Hans">' in html, path
        assert _left(html, ["Ann"]) == [], path


def test_english_stays_the_default(client, game_id):
    html = client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in html and ">Games<" in html
    assert client.get(f"/games/{game_id}/events").json["annotations"]["2"]["description"] \
        .startswith("Ann controlled")


def test_the_link_then_the_cookie_then_the_browser_choose(client, game_id):
    r = client.get("/?lang=zh-Hans")
    assert '<html lang="zh-Hans">' in r.get_data(as_text=True)
    assert "lang=zh_Hans" in r.headers["Set-Cookie"]
    assert '<html lang="zh-Hans">' in client.get("/statistics").get_data(as_text=True)
    assert '<html lang="en">' in client.get("/?lang=en", headers=ZH).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/games/new", headers=ZH).get_data(as_text=True)


def test_every_page_has_the_switch_keeping_the_link(client, game_id):
    for path in _pages(game_id):
        html = client.get(path + "?token=abc&at=3").get_data(as_text=True)
        links = re.findall(r'<a lang="([^"]+)" hreflang="[^"]+" href="([^"]+)"', html)
        assert [tag for tag, _ in links] == ["zh-Hans"], path
        href = links[0][1].replace("&amp;", "&")
        assert "token=abc" in href and "at=3" in href and "lang=zh-Hans" in href, path


def test_the_api_renders_sentences_and_keeps_machine_fields(client, game_id, imported):
    events = client.get(f"/games/{game_id}/events", headers=ZH).json
    sentence = events["annotations"]["2"]["description"]
    assert sentence.startswith("Ann") and english_words(sentence, ["Ann"]) == []
    assert events["events"][2]["type"] == "control"
    mine = {**ZH, "Authorization": f"Bearer {imported['recorder_token']}"}
    refused = client.post(f"/games/{game_id}/events", headers=mine, json={
        "type": "control", "actor": 0, "data": {"target": "sailor", "spend": [], "drawn": []}})
    assert refused.status_code in (409, 422)
    error = refused.json["error"]
    assert re.fullmatch(r"[a-z_]+", error["code"])
    assert english_words(error["message"], ["Ann"]) == [], error
    catalog = client.get("/games-catalog", headers=ZH).json["games"]
    adaman = next(g for g in catalog if g["slug"] == "adaman")
    assert adaman["labels"]["sailor"] == "水手" and "sailor" in adaman["cards"]


def test_the_js_catalog_serves_the_pages_words(client):
    zh = client.get("/i18n/zh_Hans.json").json
    assert zh["lang"] == "zh_Hans" and zh["messages"]["Undo last pick"] == "撤回上一个选择"
    assert client.get("/i18n/en.json").json["messages"] == {}
    assert client.get("/i18n/xx.json").status_code == 404


def test_the_page_check_finds_a_planted_english_word():
    assert _left("<p>对局 <b>Ann</b> undone</p>", ["Ann"]) == ["undone"]
    assert _left('<button title="take back">撤销</button>', []) == ["take", "back"]
