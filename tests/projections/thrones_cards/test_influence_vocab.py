"""vocab (issue #30, ruling 27): a `pay_influence` cost is paid by kneeling cards whose
printed influence adds up to it, so the edition must carry each card's printed
`influence_bonus`; before it did, every influence cost was refused as unpayable."""

from __future__ import annotations

from tests.projections.thrones_cards.harness import ED, Board, refused, use


def test_the_edition_reads_the_printed_influence() -> None:
    # Eastern Fiefdoms (core_127) and Crossroads (core_153) print 1 influence, Temple of the
    # Graces (core_131) none (the card data, §2.2)
    assert ED.by_number[127].influence_bonus == 1
    assert ED.by_number[153].influence_bonus == 1
    assert ED.by_number[131].influence_bonus == 0


def test_an_influence_cost_is_paid_by_kneeling_an_influence_card() -> None:
    b = Board(("Targaryen", "Stark"), phase="marshalling")
    dance = b.hand(0, "core_173")  # Dance With Dragons: pay 1 influence
    fief = b.play(0, "core_127")
    temple = b.play(0, "core_131")
    dragon = b.deck(0, "core_111")
    after = use(b.state, 0, dance, "find_dragon", dragon=dragon, influence=[fief])
    assert next(c for c in after.cards if c.id == fief).knelt
    refused(b.state, 0, dance, "find_dragon", code="cannot_pay", dragon=dragon,
            influence=[temple])
