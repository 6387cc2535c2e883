"""GET /games/<id>/verify and GET /reaudit count and list the table's rulings (issue #30),
their sentences in the request's language; the expected steps are read from the sample."""

from __future__ import annotations

import json

from ..conftest import FIXTURES

SAMPLE = FIXTURES / "thrones" / "2_players_worked_example.jsonl"


def _effects() -> list[tuple[int, str]]:
    events = [json.loads(line) for line in SAMPLE.read_text("utf-8").splitlines()]
    return [(e["seq"], e["data"]["reason"]) for e in events if e["type"] == "effect"]


def test_verify_lists_the_rulings_in_english_and_in_chinese(client):
    imported = client.post("/games/import", data=SAMPLE.read_text("utf-8"),
                           content_type="application/x-ndjson")
    game_id = imported.json["id"]
    english = client.get(f"/games/{game_id}/verify").json
    assert english["ok"] is True
    assert [(r["seq"], r["reason"]) for r in english["rulings"]] == _effects()
    assert {r["actor"] for r in english["rulings"]} == {"table"}
    seq, reason = _effects()[0]
    assert english["rulings"][0]["message"] == f"step {seq}: a ruling by the table: {reason}"
    chinese = client.get(f"/games/{game_id}/verify?lang=zh-Hans").json
    assert chinese["rulings"][0]["message"] == f"第{seq}步：牌桌的裁定：{reason}"  # noqa: RUF001
    again = client.get("/reaudit?game=thrones").json["games"]
    assert [(r["seq"], r["reason"]) for r in again[0]["rulings"]] == _effects()


def test_the_openapi_describes_the_rulings(client):
    spec = client.get("/openapi.json").json
    schemas = spec["components"]["schemas"]
    assert set(schemas["Ruling"]["properties"]) == {"seq", "actor", "reason", "message"}
    assert "outside card text" in schemas["Verify"]["properties"]["rulings"]["description"]
    post = spec["paths"]["/games/{game_id}/events"]["post"]["description"]
    for said in ("use_ability", '"card"', "limit_reached", "cannot_pay", "Ruling by the table",
                 "`reason`", "effect_not_allowed", "responses"):
        assert said in post, said
