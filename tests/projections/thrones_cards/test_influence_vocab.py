"""vocab (issue #30, ruling 27): a `pay_influence` cost is paid by kneeling cards whose
printed influence adds up to it, so the edition must carry each card's printed
`influence_bonus`; before it did, every influence cost was refused as unpayable."""

from __future__ import annotations

from tests.projections.thrones_cards.harness import ED


def test_the_edition_reads_the_printed_influence() -> None:
    # Eastern Fiefdoms (core_127) and Crossroads (core_153) print 1 influence, Temple of the
    # Graces (core_131) none (the card data, §2.2)
    assert ED.by_number[127].influence_bonus == 1
    assert ED.by_number[153].influence_bonus == 1
    assert ED.by_number[131].influence_bonus == 0
