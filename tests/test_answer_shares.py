"""A percentage of a stated amount, or what is left of it: computed through run_python, each number cited.

A folder written here (a refit note with a quote and a grant, a budget line) is ingested into the default
embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.shares import share_of_amount
from tests.support.folders import Folder, ask, ingested, write_files

REFIT = """# Orchard Vale X-ray room refit

## The quote

Calder Build Ltd quoted £38,400 for the whole job: new lead-lined walls, a new door and new warning lights.

## Paying for it

The Brenthill Business Improvement Fund has agreed a grant covering 25% of the quoted cost. The rest comes from
the group's own capital budget.
"""

# Several quotes listed by firm; which one the share is of, another sentence says by name.
KENNELS = """# New kennel block at Stonegate

## Quotes

Three builders quoted for the whole block, including VAT:

- Marlow Joinery: £61,200
- Pellingford Build: £57,900
- Hatherley & Sons: £59,450

The partners agreed on 3 July to accept the Pellingford quote, which could start soonest.

## Grant

The county's rural business fund will pay 30% of the accepted quote once the block is signed off.
"""

BUDGET = """# Capital budget 2026-27

The group's capital budget for the year is £120,000, of which 10% is held back for emergencies.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("refit"), {
        "finance/xray-refit.md": REFIT, "finance/capital-budget.md": BUDGET, "finance/kennel-block.md": KENNELS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def _passages() -> list[Passage]:
    return [Passage(ref="S1", title="Orchard Vale X-ray room refit", text=REFIT, rank=1, round=1),
            Passage(ref="S2", title="Capital budget 2026-27", text=BUDGET, rank=2, round=1)]


def test_the_share_or_the_rest_of_an_amount() -> None:
    rest = share_of_amount("Once the grant is taken off, how much of the X-ray room refit does the group fund "
                           "itself?", _passages())
    assert rest is not None and [o.value for o in rest.operands] == [38400.0, 0.75] and rest.unit == "GBP"
    assert rest.formula() == "£38,400 × (100% − 25%)"
    # "for our own reserve" says who pays what is left, not another thing the amount is of.
    reserve = share_of_amount("Once the grant is taken off, how much of the builder's quote is left for our own "
                              "equipment reserve to cover?", _passages())
    assert reserve is not None and [o.value for o in reserve.operands] == [38400.0, 0.75]
    grant = share_of_amount("How much is the grant towards the X-ray room refit worth?", _passages())
    assert grant is not None and [o.value for o in grant.operands] == [38400.0, 0.25]
    held = share_of_amount("How much of the capital budget is held back for emergencies?", _passages())
    assert held is not None and [o.value for o in held.operands] == [120000.0, 0.10]
    # No quantity asked, or no share that speaks of the question's things: nothing to compute.
    assert share_of_amount("Who quoted for the X-ray room refit?", _passages()) is None
    assert share_of_amount("How much did the new warning lights cost?", _passages()) is None


def test_what_the_group_funds_itself_is_computed_and_cited(folder: Folder) -> None:
    result = ask(folder, "Once the grant is taken off, how much of the X-ray room refit does the group have to "
                         "fund itself?")
    answer = str(result["answer"])
    assert "28,800" in answer and "£38,400" in answer and "25%" in answer, answer
    assert any(c["source"].endswith("xray-refit.md") for c in result["citations"])


def test_the_amount_a_sentence_picks_from_a_list() -> None:
    kennels = [Passage(ref="S1", title="New kennel block at Stonegate", text=KENNELS, rank=1, round=1)]
    rest = share_of_amount("After the fund's share, how much of the kennel block do we pay ourselves?", kennels)
    assert rest is not None and [o.value for o in rest.operands] == [57900.0, 0.70], rest
    assert rest.operands[0].source == "Pellingford Build: £57,900"
    # A question about another thing than the share's: no share of it.
    assert share_of_amount("How much did we pay for the heated floor in the kennel block when it was put in?",
                           kennels) is None
    # No sentence names the accepted one: no amount to take the share of.
    unnamed = KENNELS.replace("to accept the Pellingford quote", "to accept a quote")
    assert share_of_amount("After the fund's share, how much of the kennel block do we pay ourselves?",
                           [Passage(ref="S1", title="New kennel block", text=unnamed, rank=1, round=1)]) is None


def test_the_rest_of_the_accepted_quote_is_computed_and_cited(folder: Folder) -> None:
    result = ask(folder, "Once the rural business fund has paid its share, how much of the new kennel block at "
                         "Stonegate is left for us to pay?")
    answer = str(result["answer"])
    assert "40,530" in answer and "£57,900" in answer and "30%" in answer, answer
    assert "61,200" not in answer and "59,450" not in answer, answer
