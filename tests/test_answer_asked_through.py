"""A first part that asks its own question of something it only describes: "If the pallet wrap people deliver late,
what do they owe us, and is there a ceiling on it?". The sentence that names them ("Wrapline supplies the pallet wrap")
says who they are, not what they owe: every part is then asked of their contract, and answered from it. What they owe
may be a share of a sum ("1 percent of the order value per week"): that is a sum of money too. A folder written here
is ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.builtin import BuiltinAnswerPolicy
from hopgraph.policies.answer.types import AMOUNT, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files
from tests.support.search_rounds import searched

WRAPLINE = """# Supply Agreement - Wrapline Packaging Ltd

Wrapline Packaging supplies the stretch pallet wrap for the Hull warehouse. Delivery is due three weeks after each
order. Late deliveries carry a penalty of 1 percent of the order value per week, capped at 5 percent. The agreement
ends on 30 June 2028.
"""
BOXCO = """# Supply Agreement - Boxco Cartons Ltd

Boxco Cartons supplies the shipping cartons for the Hull warehouse. Late deliveries carry a penalty of 3 percent of
the order value per week, capped at 15 percent. The agreement ends on 31 March 2027.
"""
FREIGHT = """# Freight Services Agreement - Northway Freight

The Carrier is liable for loss of or damage to goods in its care. Its liability is capped at EUR 40,000 per
incident and EUR 120,000 per calendar year.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("packaging"), {
        "legal/wrapline.md": WRAPLINE, "legal/boxco.md": BOXCO, "legal/northway.md": FREIGHT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_share_of_a_sum_is_a_sum_owed() -> None:
    question = "What do they owe us if they deliver late?"
    assert holds_kind("Late deliveries carry a penalty of 1 percent of the order value per week.", AMOUNT, question)
    assert holds_kind("A late visit costs 2% of the monthly fee.", AMOUNT, question)
    assert holds_kind("A late delivery costs the haulier 2 percent of the load's value per day.", AMOUNT, question)
    assert not holds_kind("Deliveries were 4 percent late last year.", AMOUNT, question)


def test_every_part_is_asked_of_what_the_first_describes(folder: Folder) -> None:
    result = ask(folder, "If the pallet wrap people deliver late, what do they owe us, and is there a ceiling on it?")
    answer = str(result["answer"])
    assert not is_not_found(answer), answer
    assert "1 percent" in answer and "5 percent" in answer, answer


def test_the_hop_searches_for_what_the_first_part_asks() -> None:
    question = "If the pallet wrap people deliver late, what do they owe us, and is there a ceiling on it?"
    # The first search found the sentence that names them, in a part of their contract that says nothing owed.
    found = {"ref": "S1", "title": "Supply Agreement - Wrapline Packaging Ltd", "page": None, "container": "legal",
             "kind": "md", "text": "Wrapline Packaging supplies the stretch pallet wrap for the Hull warehouse.",
             "score": 1.0, "doc_id": "wrapline.md"}
    reply = BuiltinAnswerPolicy().invoke([HumanMessage(content=question), *searched(question, "c1", [found])])
    queries = [str(c["args"].get("query")) for c in reply.tool_calls]
    assert len(queries) == 1 and queries[0].startswith("Wrapline Packaging"), queries
    assert {"owe", "late", "ceiling"} <= set(queries[0].split()), queries
